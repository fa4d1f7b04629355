"""The rules, read directly: is a place (a bank, the boat, a basket) safe?

This is the plain reading of the puzzle format, used by the plan checker and
by the explicit state graph.  The time-expanded model states the same rules in
its own way (:mod:`models.crossing.patterns`); the two meet only in tests.
"""

from __future__ import annotations

from typing import Mapping

from .spec import Rule, Spec

Content = Mapping[str, int]
"""Who is at a place: actor name -> copies there (absent names: 0)."""


def copies(spec: Spec, content: Content, reference: str) -> int:
    """Copies at the place of the actor, or of all members of the ``@group``, named."""
    return sum(content.get(name, 0) for name in spec.members(reference))


def present(spec: Spec, content: Content, reference: str) -> bool:
    """An actor or group is present when at least one copy of it is there."""
    return copies(spec, content, reference) > 0


def breaks(spec: Spec, rule: Rule, content: Content) -> bool:
    """Does ``content`` break ``rule``?"""
    if rule.kind == "not_together":
        together = all(present(spec, content, w) for w in rule.who) and any(
            present(spec, content, x) for x in rule.with_any
        )
        rescued = any(present(spec, content, u) for u in rule.unless_any)
        return together and not rescued
    protected = sum(copies(spec, content, p) for p in set(rule.protect))
    attackers = sum(copies(spec, content, b) for b in set(rule.by))
    return protected > 0 and attackers > protected


def broken_rule(spec: Spec, content: Content, place: str) -> int | None:
    """The index of the first rule that ``content`` breaks at a place of kind
    ``place`` ("banks" or "boat"), or None when the place is safe."""
    for index, rule in enumerate(spec.rules):
        if place in rule.where and breaks(spec, rule, content):
            return index
    return None


def describe_rule(spec: Spec, index: int) -> str:
    rule = spec.rules[index]
    if rule.kind == "not_together":
        text = f"{'+'.join(rule.who)} not with any of {', '.join(rule.with_any)}"
        if rule.unless_any:
            text += f" unless {' or '.join(rule.unless_any)}"
    else:
        text = f"{'+'.join(rule.by)} may not outnumber {'+'.join(rule.protect)}"
    return f"rules[{index}] ({text})"
