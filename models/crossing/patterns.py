"""The rules as forbidden patterns: the form the time-expanded model states them in.

A ``not_together`` rule is unsafe exactly when one of its *conjunctions* holds:
each ``who`` present (for a group: one chosen member), one chosen ``with_any``
actor present, and every member of every ``unless_any`` absent.  Expanding the
choices gives a list of conjunctions ``(present names, absent names)``.
"""

from __future__ import annotations

from itertools import product

from .spec import Rule, Spec

Conjunction = tuple[frozenset[str], frozenset[str]]


def conjunctions(spec: Spec, rule: Rule) -> list[Conjunction]:
    """The ``not_together`` rule as a disjunction of conjunctions (impossible ones dropped)."""
    absent = frozenset().union(*(spec.members(u) for u in rule.unless_any))
    choices = [sorted(spec.members(w)) for w in rule.who] + [
        sorted(frozenset().union(*(spec.members(x) for x in rule.with_any)))
    ]
    found: set[Conjunction] = set()
    for pick in product(*choices):
        present = frozenset(pick)
        if not present & absent:
            found.add((present, absent))
    return sorted(found, key=lambda c: (sorted(c[0]), sorted(c[1])))


def counted_names(spec: Spec, references: tuple[str, ...]) -> frozenset[str]:
    """The actors whose copies a ``not_outnumbered`` side counts."""
    return frozenset().union(*(spec.members(r) for r in references))
