"""Certified crossing answers: a checked DRAT proof behind "shortest" and "unsolvable".

What is proved, precisely.  The time-expanded model of horizon H
(:class:`~mindgames.models.crossing.compile.PlanModel`) has the counted state at steps
0..H, start at step 0 and the goal at step H; a step may be idle (nothing moves)
and idle steps only come last, so its plans are exactly the plans of *at most*
H crossings, and the unit clause ``-act[T]`` ("step T is idle") cuts them to at
most T crossings.  Hence:

* shortest plan of L crossings: the plan is replayed by the independent checker,
  and the CNF of the model of horizon L with the unit ``-act[L-1]`` is proved
  unsatisfiable: no plan of at most L-1 crossings, so none shorter than L;
* unsolvable: the CNF of the model of horizon H is proved unsatisfiable, H the
  horizon no loop-free plan can exceed (a shortest plan never repeats a state:
  with N reachable, or safe, counted states it has at most N-1 crossings);
* unsolvable, after a complete breadth-first search: the set R of the N reachable
  counted states is proved an inductive invariant of the model, by three CNFs on the
  one-step model (:func:`invariant_model`), each proved unsatisfiable: the start is
  in R; a step from a state in R to a state outside R (a move the model allows: its
  transitions, loads and rules, the same clauses each step of the time-expanded
  model states); a state in R that meets the goal.  By induction every state of
  every plan of the model is in R and none is a goal, so there is no plan at all,
  and N, hence H, no longer rests on the search's word.

The CNF is the ``sat`` engine's encoding of the model (:func:`mindgames.solver.sat.to_cnf`),
solved afresh by a proof-emitting solver; the proof is checked by our own
checker (:mod:`mindgames.solver.proof`), never by the solver that made it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mindgames.solver.deadline import Deadline
from mindgames.solver.model import Assignment, count_value, is_true
from mindgames.solver.proof import Certificate, CertificationError, ProofBase, certify_unsat
from mindgames.solver.statespace import OutOfTime

from .compile import INVARIANT_STATES, PlanModel, estimated_size
from .layout import CountedState, Layout
from .words import crossings

if TYPE_CHECKING:
    from .solve import Run

HORIZON_SEMANTICS = (
    "the time-expanded model of horizon H has the counted state at steps 0..H, the start at 0 "
    "and the goal at H; a step may be idle (nothing moves, the state stays) and idle steps only "
    "come last, so its plans are exactly the plans of at most H crossings, and the unit clause "
    "-act[T] (step T idle) leaves the plans of at most T crossings"
)

INVARIANT_PARTS = {
    "start": "the start is in R",
    "closed": "no move of the model leads from a state in R to a state outside R",
    "goal": "no state in R meets the goal",
}


def certify_outcome(run: Run) -> dict[str, Any]:
    """The ``certificate`` object of a run's answer (``checked`` false when there is none).

    Raises :class:`CertificationError` when our checker rejects the proof, and
    when the solver finds the formula satisfiable (the model would then have a
    plan the run said cannot exist): both are loud errors, never "certified"."""
    outcome = run.outcome
    if outcome.status == "solved":
        length = outcome.crossings
        assert length is not None, "a solved outcome has its plan"
        if length == 0:
            return _without_proof("the start is already the goal: no plan is shorter than none")
        claim = f"no plan of at most {crossings(length - 1)}"
        record = _prove(
            run,
            horizon=length,
            units=lambda plans: [-plans.act[length - 1]],
            claim=claim,
            why=f"{claim}, so the replayed plan of {length} is a shortest one",
        )
        record["no_plan_within"] = length - 1
        return record
    if outcome.status == "unsolvable":
        if outcome.methods[:1] == ["rules"]:  # the start itself breaks a rule
            return _without_proof(f"{outcome.proof} (read by the rules checker; no model needed)")
        longest = run.longest
        assert longest is not None, "a search that proved no plan bounded the plans first"
        invariant = _invariant(run)
        claim = f"no plan of at most {crossings(longest.steps)}"
        count = (
            "that count is proved by the invariant: every state of every plan is one of them"
            if invariant["checked"]
            else "that count is the search's, outside the proof"
        )
        record = _prove(
            run,
            horizon=longest.steps,
            units=lambda plans: [],
            claim=claim,
            why=f"{claim}; {longest.why} ({count}), so no plan is longer, hence there is none",
        )
        record["no_plan_within"] = longest.steps
        record["invariant"] = invariant
        return record
    return _not_certified("nothing was decided, so there is nothing to prove", claim="-")


def _prove(
    run: Run, horizon: int, units: Callable[[PlanModel], list[int]], claim: str, why: str
) -> dict[str, Any]:
    options, layout = run.options, run.layout
    size = estimated_size(layout, horizon, unary=True)
    if size > options.model_limit:
        return _not_certified(
            f"the model of {crossings(horizon)} would have about {size:,} "
            f"constraints (limit {options.model_limit:,})",
            claim,
        )
    run.report(f"certifying: building the model of {crossings(horizon)}")
    try:
        plans = PlanModel(layout, horizon, unary=True, deadline=run.deadline)
    except OutOfTime as error:
        return _not_certified(str(error), claim)
    run.report(f"certifying: {claim} (solving with a proof, checking it)")
    certificate = certify_unsat(
        plans.model,
        units(plans),
        keep_dir=options.proof_dir,
        name=_file_name(run.spec.name, claim),
        time_limit=run.deadline.remaining(),
    )
    if certificate.status == "sat":
        raise CertificationError(f"the model has a plan where the run proved {claim}: not certified")
    certificate.require()  # a rejected proof: CertificationError
    if certificate.status == "unknown":
        return _not_certified(certificate.reason or "the time limit ran out", claim, certificate)
    record = certificate.to_json()
    record["claim"] = claim
    record["horizon"] = horizon
    record["about"] = _about(run, horizon, why)
    return record


# -- the inductive invariant behind "unsolvable" -----------------------------------------------
@dataclass
class InvariantModel:
    """The one-step model (:class:`PlanModel` of horizon 1, not anchored) with a set R of
    counted states stated four ways, each under its own guard literal: the state
    before the step is in R (``before_in``) or not (``before_out``), and so the state
    after it (``after_in``, ``after_out``).  Each part of the invariant is this CNF
    under two or three guards (:meth:`units`)."""

    plans: PlanModel
    states: list[CountedState]
    before_in: int
    before_out: int
    after_in: int
    after_out: int

    def units(self, part: str) -> list[int]:
        """The unit clauses that make the CNF of ``part`` (one of :data:`INVARIANT_PARTS`)."""
        plans = self.plans
        if part == "start":  # the model's start, and a state outside R
            return [plans.start_guard, self.before_out]
        if part == "closed":  # a state in R, a step, a state outside R
            return [self.before_in, self.after_out]
        if part == "goal":  # a state in R that meets the model's goal (the goal is stated after the step)
            return [plans.goal_guard, self.after_in]
        raise ValueError(f"no invariant part {part!r}: choose one of {', '.join(INVARIANT_PARTS)}")

    def counterexample(self, part: str, assignment: Assignment) -> str:
        """What a satisfying assignment of ``part``'s CNF shows, in counted states."""
        before, after = self._state(assignment, 0), self._state(assignment, 1)
        if part == "start":
            return f"the start {before} is not in the set"
        if part == "closed":
            return f"a move leads from {before} in the set to {after} outside it"
        return f"the state {after} in the set meets the goal"

    def _state(self, assignment: Assignment, t: int) -> CountedState:
        plans = self.plans
        counts = tuple(
            tuple(count_value(assignment, plans.counts[t][ty][c]) for c in sorted(plans.counts[t][ty]))
            for ty in range(len(plans.counts[t]))
        )
        return counts, int(bool(plans.boat) and is_true(assignment, plans.boat[t]))


def invariant_model(
    layout: Layout, states: Sequence[CountedState], deadline: Deadline | None = None
) -> InvariantModel:
    """The CNFs that prove ``states`` an inductive invariant of the model that excludes
    the goal (see the module text); built from any set, so that a set that is not one
    (a reachable state left out) gives a satisfiable CNF: a counterexample.
    Raises :class:`OutOfTime` once ``deadline`` has passed."""
    plans = PlanModel(layout, 1, unary=True, deadline=deadline, anchored=False)
    m = plans.model
    guards = [m.new_var(name) for name in ("before_in", "before_out", "after_in", "after_out")]
    for t, inside, outside in ((0, guards[0], guards[1]), (1, guards[2], guards[3])):
        members = []
        for number, key in enumerate(states):
            if deadline is not None and number % 1000 == 0 and deadline.passed():
                raise OutOfTime("the time limit ran out while building the invariant's model")
            literals = plans.state_literals(t, key)
            member = m.new_var()  # only one way: "member" makes the state ``key``
            for literal in literals:
                m.add_clause([-member, literal])
            members.append(member)
            m.add_clause([-outside, *(-literal for literal in literals)])  # not ``key``
        m.add_clause([-inside, *members])
    return InvariantModel(plans, list(states), *guards)


def prove_invariant(
    layout: Layout,
    states: Sequence[CountedState],
    keep_dir: str | Path | None = None,
    name: str = "invariant",
    deadline: Deadline | None = None,
) -> tuple[InvariantModel, dict[str, Certificate]]:
    """Each part of the invariant of ``states`` (:data:`INVARIANT_PARTS`) solved with a
    proof and checked: all three ``unsat`` and checked prove it; a ``sat`` part has a
    counterexample (:meth:`InvariantModel.counterexample`).  A part the time limit
    cut short is ``unknown``, and the parts after it are not tried."""
    deadline = deadline or Deadline(None)
    invariant = invariant_model(layout, states, deadline)
    base = ProofBase(invariant.plans.model)
    found: dict[str, Certificate] = {}
    for part in INVARIANT_PARTS:
        certificate = certify_unsat(
            invariant.plans.model,
            invariant.units(part),
            keep_dir=keep_dir,
            name=f"{name}-{part}",
            time_limit=deadline.remaining(),
            base=base,
        )
        found[part] = certificate
        if certificate.status == "unknown":
            break
    return invariant, found


def _invariant(run: Run) -> dict[str, Any]:
    """The ``invariant`` object of an unsolvable answer's certificate."""
    states = run.reachable
    if states is None:
        reachable = run.outcome.abstraction.get("reachable_counted_states")
        if reachable is not None:  # the search listed them all, but too many to keep
            return _no_invariant(
                reachable, f"{reachable:,} reachable counted states (limit {INVARIANT_STATES:,})"
            )
        return _no_invariant(
            None,
            "the breadth-first search did not list the reachable counted states (too many for it: "
            "the model alone decided)",
        )
    run.report(f"certifying: the {len(states):,} reachable counted states are an invariant")
    options = run.options
    name = _file_name(run.spec.name, "invariant")
    try:
        invariant, found = prove_invariant(run.layout, states, options.proof_dir, name, run.deadline)
    except OutOfTime as error:
        return _no_invariant(len(states), str(error))
    for part, certificate in found.items():
        if certificate.status == "sat":
            assert certificate.assignment is not None, "a satisfiable CNF comes with its model"
            raise CertificationError(
                f"the reachable counted states are not an invariant of the model: "
                f"{invariant.counterexample(part, certificate.assignment)}: not certified"
            )
        certificate.require()  # a rejected proof: CertificationError
        if certificate.status == "unknown":
            return _no_invariant(len(states), certificate.reason or "the time limit ran out")
    parts = {}
    for part, certificate in found.items():
        record = certificate.to_json()
        record["claim"] = INVARIANT_PARTS[part]
        del record["about"]
        parts[part] = record
    return {
        "states": len(states),
        "checked": True,
        "lemmas": sum(c.lemmas for c in found.values()),
        "seconds": {
            key: round(sum(c.seconds[key] for c in found.values()), 6) for key in ("solve", "proof", "check")
        },
        "parts": parts,
        "about": (
            f"DRAT proofs, checked by mindgames' own checker, that the set R of the {len(states):,} "
            f"reachable counted states the search found is an inductive invariant of the model that "
            f"excludes the goal: three CNFs on the one-step model (the transitions, loads and rules "
            f"of one step of the time-expanded model, between two counted states), each "
            f"unsatisfiable: {'; '.join(INVARIANT_PARTS.values())}. By induction on the steps, every "
            f"state of every plan of the model is in R and none meets the goal: there is no plan"
        ),
    }


def _no_invariant(states: int | None, reason: str) -> dict[str, Any]:
    return {"states": states, "checked": False, "reason": f"not proved: {reason}"}


def _about(run: Run, horizon: int, why: str) -> str:
    return (
        f"DRAT proof, checked by mindgames' own checker, that the CNF of the time-expanded model "
        f"of horizon {horizon} (the sat engine's encoding) has no model under the stated units: "
        f"{why}. Horizon semantics: {HORIZON_SEMANTICS}. {_counting(run)}"
    )


def _counting(run: Run) -> str:
    """What the counted model counts, and why that is sound."""
    types = run.layout.types
    copies = [t.label() for t in types if t.identical and t.size > 1]
    symmetric = [t.label() for t in types if not t.identical and t.size > 1]
    if not copies and not symmetric:
        return "No actors are counted together: the model tracks every actor."
    text = (
        "The proof is about the counted model: interchangeable actors are counted, not tracked "
        f"({'; '.join(copies + symmetric)})."
    )
    if copies:
        text += " Identical copies of one actor are interchangeable by definition."
    if symmetric:
        text += (
            " Symmetric blocks are interchangeable because swapping the first block with each "
            "other one (swaps that generate every permutation of the blocks) maps the puzzle "
            "onto itself: the actors' attributes and the set of rules are unchanged (checked by "
            "the symmetry finder for every such swap; a type whose blocks a not_outnumbered "
            "rule tells apart is tracked block by block)."
        )
    return text


def _without_proof(about: str) -> dict[str, Any]:
    return {
        "kind": "none",
        "checked": True,
        "lemmas": 0,
        "seconds": {"solve": 0.0, "proof": 0.0, "check": 0.0},
        "about": about,
    }


def _not_certified(reason: str, claim: str, certificate: Certificate | None = None) -> dict[str, Any]:
    record = (
        certificate.to_json()
        if certificate is not None
        else {
            "kind": "drat",
            "checked": False,
            "lemmas": 0,
            "seconds": {"solve": 0.0, "proof": 0.0, "check": 0.0},
        }
    )
    record.update(checked=False, claim=claim, reason=f"not certified: {reason}")
    return record


def _file_name(title: str, claim: str) -> str:
    """``jealous-husbands-3-couples-boat-of-2-no-plan-of-at-most-10-crossings``."""
    return re.sub(r"[^a-z0-9]+", "-", f"{title} {claim}".lower()).strip("-")[:120]


__all__ = [
    "CertificationError",
    "HORIZON_SEMANTICS",
    "INVARIANT_PARTS",
    "InvariantModel",
    "certify_outcome",
    "invariant_model",
    "prove_invariant",
]
