"""The one entry point of proof checking: which checker checks a proof, and how.

:func:`check_proof` sends an LRAT proof to the LRAT check, a small DRAT proof to
the Python checker (:mod:`.checker`) and a large one to the compiled checker
(:mod:`.compiled`, which builds on the Python one: this module sits above both).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from .checker import (
    CheckMode,
    CheckResult,
    LoadedFormula,
    OnProgress,
    _check_lrat,
    _DratChecker,
    _highest_variable,
    _lrat_lines,
)
from .formats import CNF, DratSteps, Proof

if TYPE_CHECKING:  # imported when a proof needs it: numba costs a process ~0.45 s
    from .compiled import CompiledDratChecker

# Proofs of at least this many literals are checked by the compiled checker
# (:mod:`.compiled`); smaller ones by the Python checker, since importing numba and loading the
# compiled code costs a process ~0.3 s, which this checker needs about 20,000
# literals of a proof to spend (see BENCHMARKS.md, "A compiled DRAT checker").
COMPILED_FROM_LITERALS = 20_000


def check_proof(
    cnf: CNF,
    proof: Proof,
    time_limit: float | None = None,
    on_progress: OnProgress | None = None,
    loaded: LoadedFormula | None = None,
    lrat: bool = False,
    compiled: bool | None = None,
    mode: CheckMode | None = None,
) -> CheckResult:
    """Check that ``proof`` refutes ``cnf``.  Never raises for a bad proof: ``ok`` says it.

    ``loaded``: a :class:`LoadedFormula` of a formula whose clauses begin
    ``cnf``'s (the rules of a puzzle shape, when ``cnf`` adds the givens):
    the check starts from a copy of it instead of loading every clause again.
    It is used only when it does fit (same variables, ``cnf`` starts with its
    clauses, the proof names no variable beyond them); otherwise ignored.

    ``lrat``: a verified DRAT proof's ``result.lrat`` gets the lines of an LRAT
    proof of ``cnf`` (see :func:`lrat_text`); an LRAT proof's own lines are kept.

    ``compiled``: a DRAT proof is checked by the compiled checker
    (:mod:`.compiled`) when True, by the Python one here when False, and by the
    compiled one only from :data:`COMPILED_FROM_LITERALS` literals when None.
    Both give the same verdict, reason and counts; the core they report and the
    LRAT hints they write may differ (they propagate in different orders).

    ``mode``: "forward" checks every lemma in proof order; "backward" (the
    compiled checker only, as drat-trim does) adds the lemmas unchecked up to
    the refutation and checks only those it uses, walking back: a lemma that
    does not follow but that the refutation does not use is never checked, and
    the proof is accepted (soundly: the refutation rests on checked lemmas
    only).  None: backward when the compiled checker is used, else forward."""
    start = time.perf_counter()
    lemmas = proof.lemmas
    if proof.defect:
        return CheckResult(False, proof.defect, lemmas, seconds=time.perf_counter() - start)
    if proof.kind == "lrat":
        result = _check_lrat(cnf, proof, start, time_limit, on_progress)
        if lrat and result.ok:
            result.lrat = _lrat_lines(proof.steps[: result.steps_read])
    else:
        checker = _drat_checker(cnf, proof, loaded, compiled, mode)
        result = checker.run(start, time_limit, on_progress)
        if lrat and result.ok:
            result.lrat = checker.lrat_lines()
    result.lemmas = lemmas
    result.seconds = time.perf_counter() - start
    return result


def compiled_pays(proof: Proof) -> bool:
    """Whether the compiled checker is worth importing for ``proof`` (see COMPILED_FROM_LITERALS)."""
    steps = proof.steps
    if isinstance(steps, DratSteps):
        return len(steps.lits) >= COMPILED_FROM_LITERALS
    total = 0
    for _, lits in steps:
        total += len(lits)
        if total >= COMPILED_FROM_LITERALS:
            return True
    return False


def _drat_checker(
    cnf: CNF, proof: Proof, loaded: LoadedFormula | None, compiled: bool | None, mode: CheckMode | None
) -> _DratChecker | CompiledDratChecker:
    """A checker with ``cnf`` loaded: the compiled one for a large proof (or for a
    backward check), else a copy of ``loaded`` when it fits, else the Python one
    loaded afresh."""
    top = _highest_variable(cnf, proof)
    if mode == "backward" and compiled is False:
        raise ValueError("backward checking is the compiled checker's only")
    if mode == "backward" or (compiled if compiled is not None else compiled_pays(proof)):
        from .compiled import CompiledDratChecker

        return CompiledDratChecker(cnf, proof, top, backward=mode != "forward")
    if loaded is not None and loaded.fits(cnf, top):
        return loaded.extended(cnf, proof)
    checker = _DratChecker(cnf, proof, top)
    checker.load(cnf.clauses)
    return checker
