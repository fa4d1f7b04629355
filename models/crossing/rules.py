"""The rules of a crossing puzzle, one class per kind of rule.

Each rule says, three ways, what it forbids at a place (a bank, the boat, a basket):

* :meth:`~CrossingRule.broken_by` reads it plainly on who is there (names -> copies):
  the plan checker and the explicit state graph use this reading;
* :meth:`~CrossingRule.describe` says it in words, for proofs and errors;
* :meth:`~CrossingRule.clauses` states it in the time-expanded model
  (:class:`mindgames.models.crossing.compile.PlanModel`), in the model's own terms.

The readings meet only in tests (the model's answers against the state graph's).
A rule names actors and ``@group`` references as written; ``groups`` (filled in
when the puzzle is read) says whom each group stands for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import product
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:  # the model imports the rules, not the other way round
    from .compile import Place, PlanModel

PLACES = ("banks", "boat")

Content = Mapping[str, int]
"""Who is at a place: actor name -> copies there (absent names: 0)."""

Conjunction = tuple[frozenset[str], frozenset[str]]
"""``(present names, absent names)``: together they make a place unsafe."""

Groups = tuple[tuple[str, frozenset[str]], ...]
"""Group name -> its members, as pairs (so a rule stays hashable)."""


@dataclass(frozen=True)
class CrossingRule:
    """What every kind of rule has: the kinds of place it applies at, and group members."""

    kind: ClassVar[str]
    #: the names of the rule's roles in the puzzle format (``who``, ``protect``, ...)
    roles: ClassVar[tuple[str, ...]]

    where: tuple[str, ...] = PLACES
    groups: Groups = field(default=(), repr=False)

    def members(self, reference: str) -> frozenset[str]:
        """The actors a name stands for: the actor itself, or a ``@group``'s members."""
        if reference.startswith("@"):
            return self._group_table.get(reference[1:], frozenset())
        return frozenset((reference,))

    @cached_property
    def _group_table(self) -> dict[str, frozenset[str]]:
        return dict(self.groups)

    def everyone(self, references: tuple[str, ...]) -> frozenset[str]:
        """The actors any of ``references`` stands for."""
        return frozenset().union(*(self.members(r) for r in references))

    def copies(self, content: Content, reference: str) -> int:
        """Copies at the place of the actor, or of all members of the ``@group``, named."""
        return sum(content.get(name, 0) for name in self.members(reference))

    def present(self, content: Content, reference: str) -> bool:
        """An actor or group is present when at least one copy of it is there."""
        return self.copies(content, reference) > 0

    def applies_at(self, place_kind: str) -> bool:
        """Does the rule hold at places of kind ``place_kind`` ("banks" or "boat")?"""
        return place_kind in self.where

    def names(self, role: str) -> tuple[str, ...]:
        """The references of one role as written (empty for a role of another kind)."""
        return getattr(self, role) if role in self.roles else ()

    # -- the three readings -------------------------------------------------
    def broken_by(self, content: Content) -> bool:
        return self.broken_among(content, present_names(content))

    def broken_among(self, content: Content, present: frozenset[str]) -> bool:
        """:meth:`broken_by`, given the names ``present`` in ``content`` (computed
        once for all the rules checked at one place)."""
        raise NotImplementedError

    @property
    def needs_one_of(self) -> frozenset[str]:
        """Actors one of whom must be at a place for the rule to be broken there."""
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def clauses(self, model: PlanModel, place: Place) -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class NotTogether(CrossingRule):
    """Unsafe when every ``who`` is present with any ``with_any``, and no ``unless_any`` is."""

    kind: ClassVar[str] = "not_together"
    roles: ClassVar[tuple[str, ...]] = ("who", "with_any", "unless_any")

    who: tuple[str, ...] = ()
    with_any: tuple[str, ...] = ()
    unless_any: tuple[str, ...] = ()

    def broken_among(self, content: Content, present: frozenset[str]) -> bool:
        # a reference is present when one of the actors it stands for is
        for actors in self._each_who:
            if actors.isdisjoint(present):
                return False
        if self._with_anyone.isdisjoint(present):
            return False
        return self._unless_anyone.isdisjoint(present)  # nobody rescues

    @cached_property
    def needs_one_of(self) -> frozenset[str]:
        """The rule can only be broken where one of these actors is (the first ``who``)."""
        return self._each_who[0] if self.who else self._with_anyone

    @cached_property
    def _each_who(self) -> tuple[frozenset[str], ...]:
        return tuple(self.members(w) for w in self.who)

    @cached_property
    def _with_anyone(self) -> frozenset[str]:
        return self.everyone(self.with_any)

    @cached_property
    def _unless_anyone(self) -> frozenset[str]:
        return self.everyone(self.unless_any)

    def describe(self) -> str:
        text = f"{'+'.join(self.who)} not with any of {', '.join(self.with_any)}"
        if self.unless_any:
            text += f" unless {' or '.join(self.unless_any)}"
        return text

    @cached_property
    def conjunctions(self) -> tuple[Conjunction, ...]:
        """The rule as a disjunction of conjunctions: each ``who`` present (for a
        group: one chosen member), one chosen ``with_any`` actor present, every
        member of every ``unless_any`` absent (impossible choices dropped)."""
        absent = self.everyone(self.unless_any)
        choices = [sorted(self.members(w)) for w in self.who] + [sorted(self.everyone(self.with_any))]
        found: set[Conjunction] = set()
        for pick in product(*choices):
            present = frozenset(pick)
            if not present & absent:
                found.add((present, absent))
        return tuple(sorted(found, key=lambda c: (sorted(c[0]), sorted(c[1]))))

    def clauses(self, model: PlanModel, place: Place) -> None:
        """Each conjunction, lifted to counts, is forbidden at ``place``."""
        model.forbid_conjunctions(place, self.conjunctions)


@dataclass(frozen=True)
class NotOutnumbered(CrossingRule):
    """Unsafe when a ``protect`` copy is present and the ``by`` copies outnumber the ``protect`` ones."""

    kind: ClassVar[str] = "not_outnumbered"
    roles: ClassVar[tuple[str, ...]] = ("protect", "by")

    protect: tuple[str, ...] = ()
    by: tuple[str, ...] = ()

    @cached_property
    def needs_one_of(self) -> frozenset[str]:
        """The rule can only be broken where one of these actors is (someone to protect)."""
        return self.everyone(self.protect)

    def broken_among(self, content: Content, present: frozenset[str]) -> bool:
        protected = sum(self.copies(content, p) for p in set(self.protect))
        attackers = sum(self.copies(content, b) for b in set(self.by))
        return protected > 0 and attackers > protected

    def describe(self) -> str:
        return f"{'+'.join(self.by)} may not outnumber {'+'.join(self.protect)}"

    def clauses(self, model: PlanModel, place: Place) -> None:
        """A linear constraint on the copies at ``place`` (stated on counts: the
        symmetry finder keeps every block of a type alike for it)."""
        model.not_outnumbered(place, self.everyone(self.protect), self.everyone(self.by))


RULE_CLASSES: dict[str, type[CrossingRule]] = {cls.kind: cls for cls in (NotTogether, NotOutnumbered)}
RULE_KINDS = tuple(RULE_CLASSES)


def broken_rule(rules: tuple[CrossingRule, ...], content: Content, place_kind: str) -> int | None:
    """The index of the first rule that ``content`` breaks at a place of kind
    ``place_kind`` ("banks" or "boat"), or None when the place is safe."""
    present = present_names(content)
    for index, rule in enumerate(rules):
        if rule.applies_at(place_kind) and rule.broken_among(content, present):
            return index
    return None


def present_names(content: Content) -> frozenset[str]:
    """The actors with at least one copy at the place."""
    return frozenset(name for name, copies in content.items() if copies > 0)


def describe_rule(rules: tuple[CrossingRule, ...], index: int) -> str:
    return f"rules[{index}] ({rules[index].describe()})"
