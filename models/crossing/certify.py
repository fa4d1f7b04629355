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
  with N reachable, or safe, counted states it has at most N-1 crossings).

The CNF is the ``sat`` engine's encoding of the model (:func:`mindgames.solver.sat.to_cnf`),
solved afresh by a proof-emitting solver; the proof is checked by our own
checker (:mod:`mindgames.solver.proof`), never by the solver that made it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mindgames.solver.proof import Certificate, CertificationError, certify_unsat
from mindgames.solver.statespace import OutOfTime

from .compile import PlanModel, estimated_size
from .words import crossings

if TYPE_CHECKING:
    from .solve import Run

HORIZON_SEMANTICS = (
    "the time-expanded model of horizon H has the counted state at steps 0..H, the start at 0 "
    "and the goal at H; a step may be idle (nothing moves, the state stays) and idle steps only "
    "come last, so its plans are exactly the plans of at most H crossings, and the unit clause "
    "-act[T] (step T idle) leaves the plans of at most T crossings"
)


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
        return _prove(
            run,
            horizon=length,
            units=lambda plans: [-plans.act[length - 1]],
            claim=claim,
            why=f"{claim}, so the replayed plan of {length} is a shortest one",
        )
    if outcome.status == "unsolvable":
        if outcome.methods[:1] == ["rules"]:  # the start itself breaks a rule
            return _without_proof(f"{outcome.proof} (read by the rules checker; no model needed)")
        longest = run.longest
        assert longest is not None, "a search that proved no plan bounded the plans first"
        claim = f"no plan of at most {crossings(longest.steps)}"
        return _prove(
            run,
            horizon=longest.steps,
            units=lambda plans: [],
            claim=claim,
            why=f"{claim}; {longest.why} (that count is the search's, outside the proof), "
            f"so no plan is longer, hence there is none",
        )
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


__all__ = ["CertificationError", "HORIZON_SEMANTICS", "certify_outcome"]
