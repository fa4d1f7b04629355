"""Certificates: "unsolvable" and "unique" answers backed by a checked DRAT (or LRAT) proof.

The proof is about the *CNF encoding* of the model, exactly the clauses the
``sat`` engine solves (:func:`mindgames.solver.sat.to_cnf`: the model's clauses plus its
cardinality and linear constraints encoded with auxiliary variables), plus
the givens as unit clauses and any extra clauses.  A proof made while the
givens were solver assumptions would not check, so the formula is solved
afresh with the givens as units, by a solver that emits DRAT, and the proof
is then checked by our own checker (:mod:`mindgames.solver.proof.checker`), never by
the solver that made it.  With ``proof_format="lrat"`` the checked DRAT proof is
turned into LRAT (its core lemmas, each with hints), which our LRAT checker
checks in turn and which a formally verified checker (cake_lpr) can check too.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..engine import Deadline, Uniqueness
from ..model import Assignment, Model, projection
from .check import check_proof
from .checker import CheckMode, CheckResult, LoadedFormula, Refutation, lrat_text
from .formats import CNF, parse_lrat, parse_text_drat, read_cnf, read_proof, write_dimacs

# python-sat solvers that emit DRAT proofs (Minisat, Kissat and CryptoMiniSat do not).
PROOF_SOLVERS = ("cadical153", "cadical195", "glucose4", "glucose42", "lingeling")
DEFAULT_SOLVER = "cadical153"
UNLIMITED_SOLVERS = ("lingeling",)  # python-sat offers no limited solve for it
CONFLICTS_PER_SLICE = 5_000
BY_PROPAGATION = "unit propagation"  # the "solver" of a proof that is the empty clause alone

CertificateStatus = Literal["unsat", "sat", "unknown"]
ProofFormat = Literal["drat", "lrat"]
PROOF_FORMATS = ("drat", "lrat")


class CertificationError(RuntimeError):
    """A proof our checker rejected: the answer must not be reported as certified."""


@dataclass
class Certificate:
    """The outcome of :func:`certify_unsat`.

    ``status``: ``unsat`` -- the formula is unsatisfiable, and ``checked``
    says whether our checker verified the proof (False with ``reason`` is a
    loud failure: call :meth:`require`); ``sat`` -- satisfiable, so there is
    no proof (``assignment`` is a model of the CNF); ``unknown`` -- the time
    limit came first (``reason`` says where)."""

    status: CertificateStatus
    checked: bool = False
    kind: str = "drat"
    lemmas: int = 0
    proof_bytes: int = 0
    core_size: int | None = None
    seconds: dict[str, float] = field(default_factory=lambda: {"solve": 0.0, "proof": 0.0, "check": 0.0})
    files: list[str] | None = None  # the CNF and the proof, only when kept
    solver: str = DEFAULT_SOLVER  # what made the proof (BY_PROPAGATION: no solver was needed)
    # how the checked proof refutes the formula: "empty clause" (its lemmas derive it) or
    # "unit propagation" (the formula's own unit propagation refutes it: no lemma needed)
    proof: Refutation | None = None
    # how our checker checked it: "forward" (every lemma, in proof order) or "backward"
    # (only the lemmas the refutation uses: large proofs); ``lemmas_checked`` of ``lemmas``
    check: CheckMode | None = None
    lemmas_checked: int | None = None
    reason: str | None = None
    assignment: Assignment | None = None
    about: str = "the CNF encoding of the model, with the givens as unit clauses"

    @property
    def certified(self) -> bool:
        return self.status == "unsat" and self.checked

    def require(self) -> Certificate:
        """Self, if it is not a rejected proof; CertificationError otherwise."""
        if self.status == "unsat" and not self.checked:
            raise CertificationError(f"proof rejected by the checker: {self.reason}")
        return self

    def to_json(self) -> dict[str, Any]:
        """The issue's ``certificate`` object (``files`` only when kept)."""
        data: dict[str, Any] = {
            "kind": self.kind,
            "checked": self.checked,
            "lemmas": self.lemmas,
            "seconds": {k: round(v, 6) for k, v in self.seconds.items()},
            "proof_bytes": self.proof_bytes,
            "core_size": self.core_size,
            "solver": self.solver,
            "proof": self.proof,
            "check": self.check,
            "lemmas_checked": self.lemmas_checked,
            "about": self.about,
        }
        if self.files is not None:
            data["files"] = self.files
        if self.reason:
            data["reason"] = self.reason
        return data


class ProofBase:
    """What the certificates of one model share: its CNF, and our checker loaded with it.

    Proofs must come from a fresh solver (the givens are unit clauses, so a
    solver used for one puzzle cannot serve the next), but the CNF built from
    the model and the checker's loaded clause database are the same for every
    puzzle of a shape: keep one ``ProofBase`` per model and pass it as
    ``base`` to the ``certify_*`` functions.  Built lazily, on first use; it
    holds the CNF twice over (as clauses and in the checker), ~150 bytes a
    clause each: a few MB for 9x9 Sudoku, ~0.2 GB for 25x25 (752,500 clauses)."""

    def __init__(self, model: Model):
        self.model = model
        self._cnf: CNF | None = None
        self._loaded: LoadedFormula | None = None

    @property
    def cnf(self) -> CNF:
        """The model's CNF (:func:`mindgames.solver.sat.to_cnf`), never modified."""
        if self._cnf is None:
            from ..sat import to_cnf

            clauses, top = to_cnf(self.model)
            self._cnf = CNF(top, clauses)
        return self._cnf

    @property
    def loaded(self) -> LoadedFormula:
        if self._loaded is None:
            self._loaded = LoadedFormula(self.cnf)
        return self._loaded

    def extended(self, units: Sequence[int], extra_clauses: Sequence[Sequence[int]]) -> CNF:
        """The model's CNF with ``units`` as unit clauses and ``extra_clauses`` after it."""
        rules = self.cnf
        added = [[lit] for lit in units] + [list(clause) for clause in extra_clauses]
        for number, clause in enumerate(added, 1):
            for lit in clause:
                if lit == 0 or abs(lit) > rules.num_vars:
                    raise ValueError(
                        f"extra clause or unit {number}: literal {lit} names no variable of the CNF"
                    )
        return CNF(rules.num_vars, [*rules.clauses, *added])


def certify_unsat(
    model: Model,
    units: Sequence[int] = (),
    extra_clauses: Sequence[Sequence[int]] = (),
    solver: str = DEFAULT_SOLVER,
    keep_dir: str | Path | None = None,
    name: str = "certificate",
    time_limit: float | None = None,
    base: ProofBase | None = None,
    proof_format: ProofFormat = "drat",
) -> Certificate:
    """Prove that the CNF of ``model`` + ``units`` + ``extra_clauses`` is unsatisfiable.

    Solves it with ``solver`` (one of :data:`PROOF_SOLVERS`) emitting DRAT and
    checks the proof with our checker.  With ``keep_dir``, writes
    ``NAME.cnf`` and ``NAME.drat`` (``NAME.lrat`` for ``proof_format="lrat"``)
    there and checks what was written (read back from the files); otherwise
    nothing touches the disk but the solver's own temporary proof file.
    ``time_limit`` covers solving and checking.  ``base``: the model's
    :class:`ProofBase`, shared across calls (made here if not given)."""
    if base is not None and base.model is not model:
        raise ValueError("the proof base belongs to another model")
    # A loaded checker pays off only when used again: a one-off call loads the CNF once anyway.
    loaded = None if base is None else base.loaded
    cnf = (base or ProofBase(model)).extended(units, extra_clauses)
    return certify_cnf(cnf, solver, keep_dir, name, time_limit, loaded, proof_format)


def certify_unique(
    model: Model,
    units: Sequence[int],
    solution: Sequence[int],
    solver: str = DEFAULT_SOLVER,
    keep_dir: str | Path | None = None,
    name: str = "certificate",
    time_limit: float | None = None,
    base: ProofBase | None = None,
    proof_format: ProofFormat = "drat",
) -> Certificate:
    """Prove that ``solution`` is the only solution given ``units``.

    ``solution`` is the found solution on the model's primary variables
    (``solver.projection(model, assignment)``): it must name each primary
    variable once.  The certificate proves the CNF with the givens and the
    clause excluding that solution unsatisfiable, so ``status == "unsat"`` and
    ``checked`` mean *unique*; ``sat`` means a second solution exists (in
    ``assignment``).  That ``solution`` is a solution at all is the rules
    checker's job, not the proof's."""
    if sorted(abs(lit) for lit in solution) != sorted(model.primary) or 0 in solution:
        raise ValueError("the solution must give one literal for each primary variable of the model")
    exclude = [-lit for lit in solution]
    certificate = certify_unsat(
        model, units, [exclude], solver, keep_dir, name, time_limit, base, proof_format
    )
    certificate.about = (
        "the CNF encoding of the model, with the givens as unit clauses and the clause "
        "excluding the solution (on the primary variables)"
    )
    return certificate


def certify_answer(
    model: Model,
    units: Sequence[int],
    answer: Uniqueness,
    solver: str = DEFAULT_SOLVER,
    keep_dir: str | Path | None = None,
    name: str = "certificate",
    time_limit: float | None = None,
    base: ProofBase | None = None,
    proof_format: ProofFormat = "drat",
) -> Certificate | None:
    """The certificate an engine's uniqueness answer calls for, or None if it needs none.

    ``unique``: :func:`certify_unique` of the witness; ``unsat``:
    :func:`certify_unsat`; ``multiple`` needs no proof (its two verified,
    distinct witnesses are the evidence) and ``unknown`` has nothing to prove.
    A ``sat`` status on the certificate of a ``unique`` answer means the
    engine's answer was wrong: callers must report that loudly."""
    if answer.status == "unique":
        solution = projection(model, answer.witnesses[0])
        return certify_unique(model, units, solution, solver, keep_dir, name, time_limit, base, proof_format)
    if answer.status == "unsat":
        return certify_unsat(model, units, (), solver, keep_dir, name, time_limit, base, proof_format)
    return None


def certify_cnf(
    cnf: CNF,
    solver: str = DEFAULT_SOLVER,
    keep_dir: str | Path | None = None,
    name: str = "certificate",
    time_limit: float | None = None,
    loaded: LoadedFormula | None = None,
    proof_format: ProofFormat = "drat",
) -> Certificate:
    """Solve ``cnf`` with a proof-emitting solver and check the proof (see :func:`certify_unsat`).

    ``loaded``: our checker already loaded with a formula ``cnf`` extends (see
    :func:`check_proof`), to save loading it again."""
    if solver not in PROOF_SOLVERS:
        raise ValueError(f"solver {solver!r} emits no proofs here; choose one of {', '.join(PROOF_SOLVERS)}")
    if time_limit is not None and solver in UNLIMITED_SOLVERS:
        raise ValueError(f"solver {solver!r} cannot stop at a time limit; choose another or no limit")
    if proof_format not in PROOF_FORMATS:
        raise ValueError(f"proof format {proof_format!r}: choose one of {', '.join(PROOF_FORMATS)}")
    deadline = Deadline(time_limit)
    certificate = Certificate("unknown", solver=solver, kind=proof_format)
    seconds = certificate.seconds

    start = time.perf_counter()
    if loaded is not None and loaded.fits(cnf, cnf.num_vars) and loaded.refutes(cnf):
        # No lemma is needed: our checker's unit propagation refutes the formula (the
        # givens of an easy puzzle and the clause excluding its solution).  The DRAT
        # proof is empty (drat-trim verifies it so too); the LRAT proof is one step.
        answer: bool | None = False
        lines: list[str] = []
        assignment: Assignment | None = None
        certificate.solver = BY_PROPAGATION
    else:
        # With the checker's propagation at hand, the solver gets the simplified formula
        # (see LoadedFormula.simplified); the proof is still checked against ``cnf``.
        solved = (
            cnf
            if loaded is None or not loaded.fits(cnf, cnf.num_vars)
            else CNF(cnf.num_vars, list(loaded.simplified(cnf)))
        )
        answer, lines, assignment = _solve_with_proof(solved, solver, deadline)
    seconds["solve"] = time.perf_counter() - start
    if answer is None:
        certificate.reason = "time limit reached while solving"
        return certificate
    if answer:
        certificate.status, certificate.assignment = "sat", assignment
        return certificate
    certificate.status = "unsat"

    start = time.perf_counter()
    drat = "".join(f"{line}\n" for line in lines)
    if proof_format == "lrat":
        # The DRAT proof is checked here, in memory, and turned into LRAT; what is
        # certified is the check of the LRAT proof below.
        drat_check = check_proof(
            cnf, parse_text_drat(drat, "proof"), deadline.remaining(), loaded=loaded, lrat=True
        )
        if not drat_check.ok:
            seconds["proof"] = time.perf_counter() - start
            return _verdict(certificate, drat_check)
        assert drat_check.lrat is not None
        proof_text = lrat_text(drat_check.lrat)
        certificate.proof = drat_check.refutation
    else:
        proof_text = drat
    certificate.proof_bytes = len(proof_text)
    if keep_dir is not None:
        directory = Path(keep_dir)
        directory.mkdir(parents=True, exist_ok=True)
        cnf_path, proof_path = directory / f"{name}.cnf", directory / f"{name}.{proof_format}"
        write_atomically(cnf_path, lambda path: write_dimacs(cnf, path))
        write_atomically(proof_path, lambda path: Path(path).write_text(proof_text, encoding="ascii"))
        certificate.files = [str(cnf_path), str(proof_path)]
    seconds["proof"] = time.perf_counter() - start

    start = time.perf_counter()
    if keep_dir is not None:  # check what a user will check: the files
        checked_cnf, proof = read_cnf(cnf_path), read_proof(proof_path, kind=proof_format)
    elif proof_format == "lrat":
        checked_cnf, proof = cnf, parse_lrat(proof_text, "proof")
    else:
        checked_cnf, proof = cnf, parse_text_drat(proof_text, "proof")
    result = check_proof(checked_cnf, proof, deadline.remaining(), loaded=loaded)
    seconds["check"] = time.perf_counter() - start
    if proof_format == "drat":
        certificate.proof = result.refutation
    return _verdict(certificate, result)


def _verdict(certificate: Certificate, result: CheckResult) -> Certificate:
    certificate.lemmas = result.lemmas
    certificate.core_size = result.core_size
    certificate.checked = result.ok
    if result.ok:
        certificate.check, certificate.lemmas_checked = result.mode, result.checked
    if result.timed_out:
        certificate.status = "unknown"
    if not result.ok:
        certificate.reason = result.reason
        certificate.proof = None
    return certificate


def _solve_with_proof(
    cnf: CNF, solver: str, deadline: Deadline
) -> tuple[bool | None, list[str], Assignment | None]:
    """(answer, proof lines, model); answer None when the time limit came first."""
    import pysolvers
    from pysat.solvers import Solver

    with Solver(name=solver, bootstrap_with=cnf.clauses, with_proof=True) as engine:
        try:
            if deadline.end is None:
                answer = engine.solve()
            else:
                answer = None
                while answer is None and not deadline.passed():
                    engine.conf_budget(CONFLICTS_PER_SLICE)
                    answer = engine.solve_limited()
        except pysolvers.error as error:
            if "keyboard interrupt" in str(error).lower():
                raise KeyboardInterrupt from None
            raise
        if answer is None:
            return None, [], None
        if answer:
            model = engine.get_model()
            # Variables the (simplified) formula no longer names can take any value.
            model.extend(-var for var in range(len(model) + 1, cnf.num_vars + 1))
            return True, [], model
        lines = list(engine.get_proof() or [])
        # Glucose writes no empty clause when unit propagation alone refutes the
        # formula.  Appending it claims nothing unchecked: the checker must
        # still derive it, by unit propagation.
        if not lines or lines[-1].strip() != "0":
            lines.append("0")
        return False, lines, None


def write_atomically(path: Path, write: Callable[[str], object]) -> None:
    """Write through a temporary file in the same directory, so no half file is left;
    the file gets the mode a plain ``open`` would give it (mkstemp's is 0600)."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    os.close(handle)
    try:
        write(temporary)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
