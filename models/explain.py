"""Explanations for people, for every grid kind: why a puzzle has no solution or several, and hints.

Kind-neutral: a kind is known through its object (:class:`~mindgames.models.kind.GridKind`:
``given_cells``, ``with_givens``, ``givens``, ``decode``) and the engines
through :class:`~mindgames.models.runner.PuzzleSolver`'s session, every question asked
under assumptions (the givens), so nothing is compiled twice.

* **clash** (no solution): a *minimal* set of givens that cannot all hold.
  An unsatisfiable core over the givens' assumptions (the SAT engine's; other
  engines start from all the givens) is shrunk one given at a time, each
  removal checked by the engine: a given stays exactly when the others are
  solvable without it.  Fewer givens never remove solutions, so a set from
  which no single given can go is minimal (no proper subset clashes).
* **open** (several solutions): the cells where two solutions differ, and
  givens taken from the first solution that make it the only one, minimal in
  the same way (grown until unique, then shrunk with every removal checked).
* **solved** (a complete grid that keeps every rule): nothing to deduce or hint; a result.
* **unique**: the grade and the techniques the kind's own ladder needs
  (``kind.grade(puzzle)``; a kind without a ladder grades nothing: "one solution").

Cells in JSON are 1-based ``[row, col]``, as in the text output.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mindgames.solver.deadline import Deadline
from mindgames.solver.engine import Capability

from .errors import TimeLimitReached
from .grid import cell_name
from .kind import Cell, GridKind
from .runner import PuzzleSolver

#: what explain and hint say of a complete grid that keeps every rule: a result, not an error
SOLVED_TEXT = "solved: every cell is filled and every rule holds, nothing to hint"


def is_complete(givens: dict[Cell, Any], solution: Any) -> bool:
    """Whether every cell of ``solution`` (rows of values) is a given: nothing is left to deduce."""
    return len(givens) == sum(len(row) for row in solution)


def one_based(cell: Cell) -> list[int]:
    return [cell[0] + 1, cell[1] + 1]


@dataclass
class Explanation:
    """Why a puzzle has the answer it has: ``clash``, ``open`` or ``unique``."""

    explanation: str
    text: str
    clash: list[Cell] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)  # the puzzle's own rules a clash needs (variants)
    open_cells: list[Cell] = field(default_factory=list)
    add_givens: dict[Cell, Any] = field(default_factory=dict)
    grade: int | None = None
    grade_name: str | None = None
    techniques: list[str] = field(default_factory=list)
    rating: dict[str, Any] = field(default_factory=dict)  # the kind's rating fields (Sudoku: SE's)
    solutions: list[Any] = field(default_factory=list)  # the witnesses of "open", for drawing

    def to_json(self) -> dict[str, Any]:
        reply: dict[str, Any] = {"explanation": self.explanation, "text": self.text}
        if self.explanation == "clash":
            reply["clash"] = [one_based(cell) for cell in self.clash]
            if self.rules:
                reply["rules"] = self.rules
        elif self.explanation == "open":
            reply["open_cells"] = [one_based(cell) for cell in self.open_cells]
            reply["add_givens"] = [
                {"row": r + 1, "col": c + 1, "value": value}
                for (r, c), value in sorted(self.add_givens.items())
            ]
        elif self.grade is not None:
            reply.update(grade=self.grade, grade_name=self.grade_name, techniques=self.techniques)
            reply.update(self.rating)
        return reply


class Explainer:
    """Answers "why" about puzzles of one kind; keep one for a batch (it keeps the sessions).

    >>> from mindgames.models.sudoku import SUDOKU, make_puzzle
    >>> twice_in_row_1 = make_puzzle([[1, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]])
    >>> clash = Explainer(SUDOKU).explain(twice_in_row_1)
    >>> clash.explanation, clash.clash, clash.text
    ('clash', [(0, 0), (0, 3)], 'givens clash: 1 appears twice in row 1 (r1c1 and r1c4)')
    >>> clash.to_json()["clash"]  # 1-based in JSON
    [[1, 1], [1, 4]]
    """

    def __init__(self, kind: GridKind, solver: PuzzleSolver | None = None, engine: str = "sat"):
        self.kind = kind
        self.solver = solver or PuzzleSolver(kind, engine)

    # -- the engine, under assumptions ------------------------------------------------------
    def _literals(self, encoding: Any, puzzle: Any, givens: dict[Cell, Any]) -> list[int]:
        return self.kind.givens(encoding, self.kind.with_givens(puzzle, givens))

    def _holds(self, encoding: Any, puzzle: Any, cell: Cell, value: Any) -> int:
        """The literal "``cell`` holds ``value``"."""
        (literal,) = self._literals(encoding, puzzle, {cell: value})
        return literal

    def _solvable(self, session: Any, assumptions: list[int], deadline: Deadline) -> bool:
        answer = session.solve(assumptions, deadline.remaining())
        if answer.status == "unknown":
            raise TimeLimitReached("time limit reached while explaining")
        return answer.status == "sat"

    # -- the explanations ------------------------------------------------------------------
    def explain(self, puzzle: Any, time_limit: float | None = None) -> Explanation:
        deadline = Deadline(time_limit)
        encoding, session = self.solver.session(puzzle)
        givens = self.kind.given_cells(puzzle)
        answer = session.check_unique(self._literals(encoding, puzzle, givens), deadline.remaining())
        if answer.status == "unknown":
            raise TimeLimitReached("time limit reached while explaining")
        if answer.status == "unsat":
            return self._clash(puzzle, deadline)
        solutions = [self.kind.decode(encoding, witness) for witness in answer.witnesses]
        if answer.status == "multiple":
            return self._open(puzzle, solutions, deadline)
        return self._unique(puzzle, solutions[0], deadline)

    def minimal_clash(self, puzzle: Any, deadline: Deadline = Deadline(None)) -> dict[Cell, Any]:
        """Givens that cannot all hold, none of which can go (each removal checked)."""
        encoding, session = self.solver.session(puzzle)
        givens = self.kind.given_cells(puzzle)
        literal_of = {cell: self._holds(encoding, puzzle, cell, value) for cell, value in givens.items()}
        start = None
        if self.solver.engine.supports(Capability.UNSAT_CORES):
            start = session.unsat_core(list(literal_of.values()), deadline.remaining())
        if start is None:
            clash = dict(givens)
        else:
            in_core = set(start)
            clash = {cell: value for cell, value in givens.items() if literal_of[cell] in in_core}
        for cell in sorted(clash):
            without = [literal_of[other] for other in clash if other != cell]
            if not self._solvable(session, without, deadline):
                del clash[cell]
        return clash

    def _clash(self, puzzle: Any, deadline: Deadline) -> Explanation:
        clash = self.minimal_clash(puzzle, deadline)
        # The simple case (two equal digits in a unit): the clashing givens alone break a rule,
        # named as the kind names it, about these givens only.
        alone = self.kind.with_givens(puzzle, clash)
        # The puzzle's own rules the clash needs (a Sudoku's cages...), each removal checked:
        # a given needed under every rule is needed under fewer, so both sets stay minimal.
        rules = self.kind.rules_in_clash(alone, lambda fewer: self._has_solution(fewer, deadline))
        plain = self.kind.explain_unsolvable(alone)
        if rules:
            cells = ", ".join(cell_name(cell) for cell in sorted(clash))
            givens = f"the given{'s' if len(clash) > 1 else ''} {cells} and " if clash else ""
            text = (
                f"no solution: {givens}the rule{'s' if len(rules) > 1 else ''} {'; '.join(rules)} "
                f"cannot all hold (without any one of them there is a solution)"
            )
        elif plain and set(self.kind.clashing_cells(alone)) == set(clash):
            text = plain
        else:
            text = (
                f"no solution: these {len(clash)} givens cannot all hold "
                f"(without any one of them there is a solution): "
                f"{', '.join(cell_name(cell) for cell in sorted(clash))}"
            )
        return Explanation("clash", text, clash=sorted(clash), rules=rules)

    def _has_solution(self, puzzle: Any, deadline: Deadline) -> bool:
        result = self.solver.solve(puzzle, deadline.remaining())
        if result.status == "unknown":
            raise TimeLimitReached("time limit reached while explaining")
        return result.status == "solved"

    def unique_with(self, puzzle: Any, solution: Any, deadline: Deadline = Deadline(None)) -> dict[Cell, Any]:
        """Extra givens from ``solution`` that make it the puzzle's only solution, minimal:
        grown one differing cell at a time until unique, then each one removed if it can be."""
        encoding, session = self.solver.session(puzzle)
        givens = self.kind.given_cells(puzzle)
        extra: dict[Cell, Any] = {}

        def other_solution(added: dict[Cell, Any]) -> Any:
            """A solution of the puzzle with ``added`` that differs from ``solution``, or None."""
            base = self._literals(encoding, puzzle, {**givens, **added})
            answer = session.check_unique(base, deadline.remaining())
            if answer.status == "unknown":
                raise TimeLimitReached("time limit reached while explaining")
            if answer.status != "multiple":
                return None
            decoded = [self.kind.decode(encoding, w) for w in answer.witnesses]
            return next(s for s in decoded if s != solution)

        while (other := other_solution(extra)) is not None:
            cell = next(
                (r, c)
                for r, row in enumerate(solution)
                for c, value in enumerate(row)
                if other[r][c] != value
            )
            extra[cell] = solution[cell[0]][cell[1]]
        # Shrink: a cell can go when the rest still forces it (its other values are impossible).
        for cell in sorted(extra):
            value = extra.pop(cell)
            rest = self._literals(encoding, puzzle, {**givens, **extra})
            if self._solvable(session, [*rest, -self._holds(encoding, puzzle, cell, value)], deadline):
                extra[cell] = value
        return extra

    def _open(self, puzzle: Any, solutions: list[Any], deadline: Deadline) -> Explanation:
        first, second = solutions[:2]
        open_cells = [
            (r, c) for r, row in enumerate(first) for c, value in enumerate(row) if second[r][c] != value
        ]
        extra = self.unique_with(puzzle, first, deadline)
        text = (
            f"several solutions: {len(open_cells)} cells differ between two of them; "
            f"giving {', '.join(f'{cell_name(cell)}={value}' for cell, value in sorted(extra.items()))} "
            f"makes it unique"
        )
        return Explanation("open", text, open_cells=open_cells, add_givens=extra, solutions=solutions)

    def _unique(self, puzzle: Any, solution: Any, deadline: Deadline) -> Explanation:
        if is_complete(self.kind.given_cells(puzzle), solution):
            return Explanation("solved", SOLVED_TEXT)
        graded = self.kind.grade(puzzle, deadline)
        if graded is None:  # the kind has no ladder
            return Explanation("unique", "one solution")
        level, name, techniques = graded
        rating = self.kind.rating(puzzle, deadline) or {}
        rated = f", rating {rating['rating']:.1f}" if "rating" in rating else ""
        if "unruly_level" in rating:
            rated += f", Unruly {rating['unruly_level']} by {rating['unruly_technique']}"
        return Explanation(
            "unique",
            f"one solution; grade {level} ({name}{rated}): {', '.join(techniques)}",
            grade=level,
            grade_name=name,
            techniques=techniques,
            rating=rating,
        )

    def fixed(self, puzzle: Any, explanation: Explanation) -> Any:
        """The puzzle with the explanation's extra givens (``--fix``)."""
        return self.kind.with_givens(puzzle, {**self.kind.given_cells(puzzle), **explanation.add_givens})

    # -- hints ------------------------------------------------------------------------------
    def hint(self, puzzle: Any, time_limit: float | None = None) -> dict[str, Any]:
        """The next step for a puzzle with one solution, as JSON (``explanation`` instead when
        it has none or several): by the kind's ladder when it has one, checked against the
        solution; else (or when the ladder is stuck) a cell's value from the solution."""
        deadline = Deadline(time_limit)
        encoding, session = self.solver.session(puzzle)
        answer = session.check_unique(
            self._literals(encoding, puzzle, self.kind.given_cells(puzzle)), deadline.remaining()
        )
        if answer.status != "unique":
            if answer.status == "unknown":
                raise TimeLimitReached("time limit reached while explaining")
            return self.explain(puzzle, deadline.remaining()).to_json()
        solution = self.kind.decode(encoding, answer.witnesses[0])
        if is_complete(self.kind.given_cells(puzzle), solution):
            return {"explanation": "solved", "text": SOLVED_TEXT}
        step = self.kind.hint(puzzle, deadline)
        if step is not None:
            check_hint(step, solution)
            return step
        givens = self.kind.given_cells(puzzle)
        r, c = next(
            (r, c) for r, row in enumerate(solution) for c, _ in enumerate(row) if (r, c) not in givens
        )
        return {
            "row": r + 1,
            "col": c + 1,
            "value": solution[r][c],
            "technique": "needs search",
            "because": [],
            "text": f"{cell_name((r, c))} is {solution[r][c]} (found by search: "
            f"no technique of the ladder applies)",
        }


def check_hint(step: dict[str, Any], solution: Any) -> None:
    """A hint must agree with the unique solution: its value is the cell's, an eliminated
    candidate is not (AssertionError otherwise: a wrong technique must not reach a user)."""
    if "value" in step:
        assert solution[step["row"] - 1][step["col"] - 1] == step["value"], step
    for gone in step.get("eliminate", []):
        assert solution[gone["row"] - 1][gone["col"] - 1] != gone["value"], step
