"""Why a crossing puzzle has no plan, or no shorter plan: the rules that make it so.

The question is answered the way an unsatisfiable core is shrunk, over the
puzzle's *constraints* instead of givens: its rules, and the limit on the
trips back (``return_capacity``) when there is one.  Dropping constraints only
adds moves, so plans can only get shorter (or appear).  Starting from all of
them, each is dropped in turn and stays dropped if the answer is still the
same (still no plan; still no plan shorter than L crossings): what is left is
*minimal*, every one of its constraints needed, and for each the explanation
says what happens without it.

Every answer comes from a breadth-first search over the concrete states
(:func:`mindgames.solver.statespace.breadth_first`), the seeds' method, exact for the
puzzles it can finish within ``max_states`` and the time limit; past them the
answer is ``unknown``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from mindgames.solver.deadline import Deadline
from mindgames.solver.statespace import breadth_first

from ..errors import TimeLimitReached
from .problem import CrossingProblem
from .spec import Spec

#: concrete states one search may visit (the presets have at most a few thousand)
MAX_STATES = 200_000
RETURN_LIMIT = "return_capacity"


@dataclass(frozen=True)
class Constraint:
    """One thing the explanation may keep or drop: a rule (by position) or the return limit."""

    rule: int | None  # index into spec.rules; None for the return limit
    text: str


@dataclass
class CrossingExplanation:
    """``explanation``: ``unsolvable`` (no plan), ``shortest`` (no plan with fewer crossings)
    or ``unknown``; ``needed``: a minimal set of constraints that keeps it so, each with the
    shortest plan there is without it (None: still none)."""

    name: str
    explanation: str
    crossings: int | None = None
    needed: list[dict[str, Any]] = field(default_factory=list)
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def shortest_crossings(
    spec: Spec, deadline: Deadline | None = None, max_states: int = MAX_STATES
) -> int | None:
    """The fewest crossings of a plan, None when no plan exists; TimeLimitReached when the
    search could not finish within ``max_states`` states or the deadline."""
    problem = CrossingProblem(spec)
    search = breadth_first(
        problem.initial, problem.successors, problem.goal_test, max_states, deadline, stop_at_goal=True
    )
    if search.length is not None:
        return search.length
    if search.complete:
        return None
    raise TimeLimitReached(f"the state space is too big to search here ({search.stopped})")


def constraints_of(spec: Spec) -> list[Constraint]:
    found = [Constraint(i, rule.describe()) for i, rule in enumerate(spec.rules)]
    if spec.return_capacity is not None and spec.return_capacity != spec.capacity:
        found.append(Constraint(None, f"at most {spec.return_capacity} may cross back at once"))
    return found


def with_only(spec: Spec, kept: list[Constraint]) -> Spec:
    """``spec`` with only the ``kept`` constraints (the others dropped)."""
    rules = tuple(spec.rules[c.rule] for c in kept if c.rule is not None)
    return_capacity = spec.return_capacity if any(c.rule is None for c in kept) else None
    return dataclasses.replace(spec, rules=rules, return_capacity=return_capacity)


def explain(spec: Spec, time_limit: float | None = None) -> CrossingExplanation:
    """The minimal set of constraints behind the puzzle's answer (see the module's docstring)."""
    deadline = Deadline(time_limit)
    try:
        answer = shortest_crossings(spec, deadline)
        kept = constraints_of(spec)
        for constraint in list(kept):
            trial = [c for c in kept if c != constraint]
            if shortest_crossings(with_only(spec, trial), deadline) == answer:
                kept = trial  # not needed: the answer stands without it
        needed = [
            {
                "constraint": c.text,
                "without_it": shortest_crossings(with_only(spec, [k for k in kept if k != c]), deadline),
            }
            for c in kept
        ]
    except TimeLimitReached as stop:
        return CrossingExplanation(spec.name, "unknown", text=str(stop))
    return CrossingExplanation(
        spec.name, "unsolvable" if answer is None else "shortest", answer, needed, _words(answer, needed)
    )


def _words(answer: int | None, needed: list[dict[str, Any]]) -> str:
    def plan(k: int | None) -> str:
        return "there is still no plan" if k is None else f"a plan of {k} crossing{'s' * (k != 1)} exists"

    claim = (
        "no plan exists"
        if answer is None
        else f"no plan has fewer than {answer} crossing{'s' * (answer != 1)}"
    )
    if not needed:
        why = "the vehicle's own limits (capacity, who operates it, weights) are enough: no rule is needed"
        return f"{claim}: {why}"
    reasons = "; ".join(f'without "{n["constraint"]}", {plan(n["without_it"])}' for n in needed)
    count = len(needed)
    return f"{claim} because of {count} constraint{'s' * (count != 1)}, each needed: {reasons}"
