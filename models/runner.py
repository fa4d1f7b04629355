"""Solve, check, count and enumerate any puzzle kind on any engine.

A puzzle *kind* (a :class:`~mindgames.models.kind.GridKind`, e.g. :data:`mindgames.models.sudoku.SUDOKU`)
supplies five things, and this module does the rest the same way for all:

``shape(puzzle)``
    a hashable key; puzzles of one shape share one compiled model;
``compile(shape) -> Encoding``
    the rules as a :class:`mindgames.solver.Model` (no givens), plus what decoding needs
    (and :attr:`~mindgames.models.kind.Encoding.fixed`: literals every question assumes);
``givens(encoding, puzzle) -> list[int]``
    the puzzle's givens as literals, passed to the engine as assumptions;
``decode(encoding, assignment)``
    an engine's assignment as the kind's solution (e.g. a grid of ints);
``verify(puzzle, solution) -> list[str]``
    the rules checked directly on the solution, without the model: the
    problems found (empty when the solution is right).

and the hooks every kind has, by default doing nothing more (see :class:`GridKind`):
``explain_unsolvable(puzzle)`` to say where givens clash, ``compile_alone(shape)`` for
an engine that keeps no warm solver, and ``compile_puzzle(puzzle)``: a model of that one
puzzle (a jigsaw's), asked of a fresh session, kept by no cache, unless the shape's model
is prepared already.  Every solution an engine returns is verified
before it is reported; a failed verification raises
:class:`~mindgames.models.errors.VerificationError`.

Certified answers (``certify=True`` on :meth:`PuzzleSolver.solve` and
:meth:`PuzzleSolver.check`): after the engine's answer, whichever engine gave
it, and the verification of its solutions, an answer that rests on the
absence of solutions gets a checked DRAT proof (:mod:`mindgames.solver.proof`), and the
result carries ``extra["certificate"]``:

* ``unique`` (check) and ``unsolvable`` (check and solve): the issue's object
  (``kind``, ``checked``, ``lemmas``, ``seconds`` {solve, proof, check}, ...;
  ``files`` with ``proof_dir``: ``NAME.cnf`` and ``NAME.drat`` there, checked
  as written).  A proof our checker rejects, or a proof solver that finds a
  solution where the engine said there is none (another one, for ``unique``),
  raises :class:`~mindgames.solver.proof.CertificationError`: never a silent answer.
* certification counts inside the puzzle's time limit; when the limit comes
  first, the answer stays as the engine gave it and the certificate says
  ``checked: false`` with a ``reason`` that begins "time limit".
* ``solved`` (solve), ``multiple`` (check) and ``unknown``: ``certificate`` is
  null and ``certificate_reason`` says why (a verified solution, or two
  distinct ones, are their own evidence; an unknown answer has nothing to prove).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mindgames.solver import Assignment, Capability, Model, Session, Uniqueness, get_engine
from mindgames.solver.deadline import Deadline
from mindgames.solver.engine import Enumeration, SolveResult

from .errors import VerificationError
from .kind import Encoding, GridKind

if TYPE_CHECKING:  # proofs are imported when one is asked for (--certify): ~3 ms otherwise
    from mindgames.solver.proof import ProofBase
    from mindgames.solver.proof.certify import ProofFormat


TIME_LIMIT_BEFORE = "time limit reached before the proof was made"

# Why an answer gets no certificate (``certificate`` null): by the engine's answer.
_NO_PROOF_NEEDED = {
    "solved": "a solution needs no proof: it was verified by the rules",
    "multiple": "multiple solutions need no proof: the two distinct witnesses were verified by the rules",
    "unknown": "nothing to certify: the engine gave no answer within the time limit",
}


def _no_certificate(result: Result, answer: str) -> None:
    result.extra["certificate"] = None
    result.extra["certificate_reason"] = _NO_PROOF_NEEDED[answer]


#: solutions a count stops at unless told otherwise: the command line's ``--limit`` and the
#: service's ``"limit"`` alike (0 there: no limit, the time limit ends the count)
DEFAULT_COUNT_LIMIT = 10_000


def count_limit(asked: int | None) -> int | None:
    """The number of solutions a count stops at: :data:`DEFAULT_COUNT_LIMIT` when none was
    asked, None (no limit) for 0.

    >>> count_limit(None), count_limit(0), count_limit(5)
    (10000, None, 5)
    """
    if asked is None:
        return DEFAULT_COUNT_LIMIT
    return asked or None


@dataclass
class Result:
    """One puzzle's answer: the fields of the ``--json`` contract."""

    index: int = 0
    status: str = "unknown"  # solved | unsolvable | unknown | invalid
    solution: Any = None
    uniqueness: str | None = None  # unique | multiple (check only)
    solutions: list[Any] | None = None  # witnesses (check) or listed solutions; None if none found
    count: int | None = None
    complete: bool | None = None
    engine: str | None = None
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)  # the engine's search counters
    error: str | None = None  # for invalid input
    message: str | None = None  # a human explanation (e.g. where givens clash)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        # A shallow view, not dataclasses.asdict: its deep copy of every grid was 45 % of a
        # `sudoku solve --json` run, and nothing here is changed after it is written out.
        data = {name: getattr(self, name) for name in _CONTRACT_FIELDS}
        data.update(self.extra)
        data["seconds"] = round(self.seconds, 6)
        return data


#: the fields of a :class:`Result` in the order ``--json`` writes them, ``extra`` spread after them
_CONTRACT_FIELDS = tuple(f.name for f in fields(Result) if f.name != "extra")


#: shapes whose encodings a solver keeps when no ``max_shapes`` is given (each holds a
#: reference to a model; a million jigsaw layouts must not mean a million entries)
SHAPES_KEPT = 256


class FixedSession:
    """A session whose every question also assumes ``fixed`` (a jigsaw's layout, say)."""

    def __init__(self, session: Session, fixed: Sequence[int]):
        self.session, self.fixed = session, list(fixed)

    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> SolveResult:
        return self.session.solve([*self.fixed, *assumptions], time_limit)

    def check_unique(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> Uniqueness:
        return self.session.check_unique([*self.fixed, *assumptions], time_limit)

    def enumerate(self, assumptions: Sequence[int] = (), *args: Any, **kwargs: Any) -> Enumeration:
        return self.session.enumerate([*self.fixed, *assumptions], *args, **kwargs)

    def count(self, assumptions: Sequence[int] = (), *args: Any, **kwargs: Any) -> Enumeration:
        return self.session.count([*self.fixed, *assumptions], *args, **kwargs)

    def unsat_core(self, assumptions: Sequence[int], time_limit: float | None = None) -> list[int] | None:
        return self.session.unsat_core([*self.fixed, *assumptions], time_limit)

    def __getattr__(self, name: str) -> Any:
        """Anything else is the session's own (model, stats)."""
        return getattr(self.session, name)


class PuzzleSolver:
    """One engine, answering questions about puzzles of one kind.

    Keeps one prepared engine session per puzzle shape, so a batch of
    same-shaped puzzles compiles the rules once and only swaps the givens.
    """

    def __init__(self, kind: GridKind, engine: str = "sat", max_shapes: int | None = None):
        """``max_shapes`` bounds the prepared sessions kept (least recently used go first),
        for long-lived processes that meet many shapes (e.g. jigsaw layouts)."""
        if not isinstance(kind, GridKind):  # a kind's module, say: it has no defaults for the hooks
            raise TypeError(f"PuzzleSolver answers a GridKind (e.g. sudoku.SUDOKU), not {kind!r}")
        self.kind = kind
        self.engine_name = engine
        self.engine = get_engine(engine)
        self.max_shapes = max_shapes
        # shape -> its encoding; several shapes may share one model (every jigsaw layout
        # of a size: the layout is the encoding's ``fixed`` literals), hence one session
        self._encodings: OrderedDict[Hashable, Encoding] = OrderedDict()
        self._sessions: OrderedDict[int, Session] = OrderedDict()  # by id(model), see below
        # per model (by identity; a base keeps its model alive, so ids stay unique)
        self._proof_bases: OrderedDict[int, ProofBase] = OrderedDict()

    def session(self, puzzle: Any) -> tuple[Encoding, Session | FixedSession]:
        """The puzzle's encoding, and the session for its model: seen through the
        encoding's fixed literals, when it has some, so that every question assumes them."""
        return self._shape_session(self.kind.shape(puzzle))

    def _shape_session(self, key: Hashable) -> tuple[Encoding, Session | FixedSession]:
        """:meth:`session` for the shape ``key``."""
        encoding = self._encodings.get(key)
        if encoding is None:
            encoding = self._encodings[key] = self._compile(key)
            if len(self._encodings) > (self.max_shapes or SHAPES_KEPT):
                self._encodings.popitem(last=False)
        else:
            self._encodings.move_to_end(key)
        model_key = id(encoding.model)  # unique while its session (holding the model) is kept
        session = self._sessions.get(model_key)
        if session is None:
            session = self._sessions[model_key] = self.engine.prepare(encoding.model)
            if self.max_shapes is not None and len(self._sessions) > self.max_shapes:
                self._sessions.popitem(last=False)
        else:
            self._sessions.move_to_end(model_key)
        fixed = encoding.fixed
        return encoding, (FixedSession(session, fixed) if fixed else session)

    def _question(self, puzzle: Any, certify: bool = False) -> tuple[Encoding, Session | FixedSession]:
        """The encoding and session a question about ``puzzle`` is asked of: the puzzle's
        own model when the kind makes one (``compile_puzzle``), else :meth:`session`'s.
        The shape's model is kept to when it is prepared already (a generator asks about
        one jigsaw layout again and again: its warm solver answers faster), and for a
        certified answer: the proof is checked against the rules as stated, not against a
        model that deductions made in Python shaped."""
        key = self.kind.shape(puzzle)
        if not certify and key not in self._encodings:
            encoding = self.kind.compile_puzzle(puzzle)
            if encoding is not None:
                return encoding, self.engine.prepare(encoding.model)
        return self._shape_session(key)

    def _compile(self, key: Hashable) -> Encoding:
        """The kind's model of a shape.  A model shared by several shapes (its ``fixed``
        literals tell them apart) pays only on an engine that keeps one warm solver for it;
        the others get the shape's own model (``compile_alone``): backtracking, say, would
        not prune on rules reached only through helper variables."""
        if self.engine.supports(Capability.SHARES_MODELS):
            return self.kind.compile(key)
        return self.kind.compile_alone(key)

    def _verified(self, puzzle: Any, encoding: Encoding, assignment: Assignment) -> Any:
        solution = self.kind.decode(encoding, assignment)
        problems = self.kind.verify(puzzle, solution)
        if problems:
            raise VerificationError(
                f"engine {self.engine_name} returned a {self.kind.name} solution that breaks "
                f"the rules: {'; '.join(problems)}"
            )
        return solution

    def _proof_base(self, model: Model) -> ProofBase:
        """The model's CNF and loaded checker, kept like the sessions (see :class:`ProofBase`)."""
        from mindgames.solver.proof import ProofBase

        key = id(model)
        if key in self._proof_bases:
            self._proof_bases.move_to_end(key)
        else:
            self._proof_bases[key] = ProofBase(model)
            if self.max_shapes is not None and len(self._proof_bases) > self.max_shapes:
                self._proof_bases.popitem(last=False)
        return self._proof_bases[key]

    def _certify(
        self,
        result: Result,
        encoding: Encoding,
        givens: list[int],
        answer: Uniqueness,
        deadline: Deadline,
        proof_dir: str | Path | None,
        name: str,
        proof_format: ProofFormat = "drat",
    ) -> None:
        """Set ``result.extra["certificate"]`` for the engine's ``answer`` (see the module's doc)."""
        from mindgames.solver.proof import Certificate, CertificationError, certify_answer

        if answer.status not in ("unique", "unsat"):
            _no_certificate(result, answer.status)
            return
        if deadline.passed():  # not even the shape's proof base is built
            result.extra["certificate"] = Certificate("unknown", reason=TIME_LIMIT_BEFORE).to_json()
            return
        givens = [*encoding.fixed, *givens]  # the proof assumes a jigsaw's layout too
        certificate = certify_answer(
            encoding.model,
            givens,
            answer,
            keep_dir=proof_dir,
            name=name,
            time_limit=deadline.remaining(),
            base=self._proof_base(encoding.model),
            proof_format=proof_format,
        )
        assert certificate is not None  # unique and unsat always call for a proof
        if certificate.status == "sat":
            found = "another solution" if answer.status == "unique" else "a solution"
            raise CertificationError(
                f"engine {self.engine_name} answered {answer.status!r}, but the proof solver "
                f"found {found}: the answer is wrong"
            )
        result.extra["certificate"] = certificate.require().to_json()

    def _unsolvable(self, result: Result, puzzle: Any) -> Result:
        result.status = "unsolvable"
        result.message = self.kind.explain_unsolvable(puzzle) or "no solution exists"
        return result

    def solve(
        self,
        puzzle: Any,
        time_limit: float | None = None,
        certify: bool = False,
        proof_dir: str | Path | None = None,
        name: str = "puzzle",
        proof_format: ProofFormat = "drat",
    ) -> Result:
        """One verified solution, or unsolvable, or unknown once ``time_limit`` seconds passed.

        The time limit covers the whole question, preparing the shape's session
        (and certifying) included.  ``certify``: an unsolvable answer gets a
        checked proof, kept as ``proof_dir/NAME.cnf`` and ``NAME.drat`` when
        ``proof_dir`` is given (see the module's doc); ``proof_format="lrat"``:
        the proof is LRAT (``NAME.lrat``), made from the checked DRAT proof."""
        start = time.perf_counter()
        deadline = Deadline(time_limit)
        encoding, session = self._question(puzzle, certify)
        givens = self.kind.givens(encoding, puzzle)
        answer = session.solve(givens, deadline.remaining())
        result = Result(engine=self.engine_name, stats=answer.stats)
        if answer.status == "sat":
            assert answer.assignment is not None, "a sat answer carries its assignment"
            result.status = "solved"
            result.solution = self._verified(puzzle, encoding, answer.assignment)
        elif answer.status == "unsat":
            self._unsolvable(result, puzzle)
        else:
            result.message = "time limit reached"
        if certify and answer.status == "unsat":
            self._certify(
                result, encoding, givens, Uniqueness("unsat"), deadline, proof_dir, name, proof_format
            )
        elif certify:
            _no_certificate(result, "solved" if answer.status == "sat" else "unknown")
        result.seconds = time.perf_counter() - start
        return result

    def check(
        self,
        puzzle: Any,
        time_limit: float | None = None,
        certify: bool = False,
        proof_dir: str | Path | None = None,
        name: str = "puzzle",
        proof_format: ProofFormat = "drat",
    ) -> Result:
        """Unique, multiple (with two distinct verified witnesses), unsolvable or unknown.

        ``certify``: a unique or unsolvable answer gets a checked proof (see :meth:`solve`)."""
        start = time.perf_counter()
        deadline = Deadline(time_limit)
        encoding, session = self._question(puzzle, certify)
        givens = self.kind.givens(encoding, puzzle)
        answer = session.check_unique(givens, deadline.remaining())
        witnesses = [self._verified(puzzle, encoding, a) for a in answer.witnesses]
        # No solution found: "solutions" is null, as in solve (never an empty list).
        result = Result(engine=self.engine_name, solutions=witnesses or None, stats=answer.stats)
        if witnesses:
            result.status = "solved"
            result.solution = witnesses[0]
        if answer.status in ("unique", "multiple"):
            result.uniqueness = answer.status
            if answer.status == "multiple" and witnesses[0] == witnesses[1]:
                raise VerificationError("the two witnesses of 'multiple' are the same solution")
        elif answer.status == "unsat":
            self._unsolvable(result, puzzle)
        else:
            result.message = "time limit reached before uniqueness was decided"
        if certify:
            self._certify(result, encoding, givens, answer, deadline, proof_dir, name, proof_format)
        result.seconds = time.perf_counter() - start
        return result

    def count(
        self,
        puzzle: Any,
        limit: int | None = None,
        time_limit: float | None = None,
        keep: int = 0,
        on_solution: Callable[[Any], None] | None = None,
    ) -> Result:
        """Count (and verify) solutions up to ``limit``; ``complete`` says if that is all."""
        start = time.perf_counter()
        deadline = Deadline(time_limit)
        encoding, session = self._question(puzzle)
        kept: list[Any] = []

        def verify_each(assignment: Assignment) -> None:
            solution = self._verified(puzzle, encoding, assignment)
            if len(kept) < keep:
                kept.append(solution)
            if on_solution is not None:
                on_solution(solution)

        answer = session.count(
            self.kind.givens(encoding, puzzle), limit, deadline.remaining(), on_solution=verify_each
        )
        result = Result(
            engine=self.engine_name, count=answer.count, complete=answer.complete, stats=answer.stats
        )
        if kept:
            result.solutions = kept
        if answer.count:
            result.status = "solved"
        elif answer.complete:
            self._unsolvable(result, puzzle)
        else:
            result.message = "time limit reached"
        result.seconds = time.perf_counter() - start
        return result
