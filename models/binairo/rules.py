"""The rules of binairo, once: as a model for the engines, and checked on a grid without one.

For an ``rows x cols`` grid, both even (:data:`RULES`):

* ``balance``  every row and every column has as many 0s as 1s;
* ``triples``  no three equal cells next to each other in a row or column;
* ``distinct`` no two rows are equal and no two columns are equal
  (``takuzu`` rules only: Simon Tatham's ``unruly`` drops it).

:func:`compile` turns them into a :class:`mindgames.solver.Model`; :func:`verify`
checks a finished grid against them directly, without the model, so an
engine's answer is always judged by independent code.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from mindgames.solver import Assignment, Choice, Model, is_true

from .. import grid
from ..grid import Unit
from ..kind import Encoding as KindEncoding
from .puzzle import Puzzle, Shape, check_size

RULES = {
    "balance": "every row and column has as many 0s as 1s",
    "triples": "no three equal cells next to each other in a row or column",
    "distinct": "no two rows and no two columns are equal (takuzu only)",
}


# -- lines of the grid: what every rule speaks about ---------------------------------------


def lines(rows: int, cols: int) -> list[Unit]:
    return grid.rows(rows, cols) + grid.columns(rows, cols)


def families(rows: int, cols: int) -> list[list[Unit]]:
    """The groups whose members must differ pairwise: all rows; all columns."""
    return [grid.rows(rows, cols), grid.columns(rows, cols)]


# -- the model ------------------------------------------------------------------------------
@dataclass
class Encoding(KindEncoding):
    """The model, and each cell's choice of 0 or 1 (``cells[r][c]``)."""

    model: Model
    rows: int
    cols: int
    rules: str
    cells: list[list[Choice]]

    @cached_property
    def ones(self) -> list[list[int]]:
        """Each cell's literal "holds 1" (its negation: "holds 0")."""
        return [[cell.is_(1) for cell in row] for row in self.cells]


def shape(puzzle: Puzzle) -> Shape:
    return Shape(puzzle.rows, puzzle.cols, puzzle.rules)


def compile(shape: Shape) -> Encoding:  # noqa: A001 - the runner's protocol name
    """The rules as a Boolean model over one primary variable per cell."""
    rows, cols, rules = shape
    check_size(rows, cols)
    model = Model()
    # Each cell is a choice tried 0 first, then 1: the seed's order for backtracking.
    cells = [
        [model.new_choice((0, 1), primary=True, name=f"r{r + 1}c{c + 1}") for c in range(cols)]
        for r in range(rows)
    ]
    for line in lines(rows, cols):
        ones = [cells[r][c].is_(1) for r, c in line.cells]
        model.add_exactly(ones, len(ones) // 2)  # balance
        for a, b, c in zip(ones, ones[1:], ones[2:]):  # triples: not all 1, not all 0
            model.add_clause((-a, -b, -c))
            model.add_clause((a, b, c))
    if rules == "takuzu":
        for family in families(rows, cols):
            for i, first in enumerate(family):
                for second in family[i + 1 :]:
                    _add_different(model, cells, first, second)
    return Encoding(model, rows, cols, rules, cells)


def _add_different(model: Model, cells: list[list[Choice]], first: Unit, second: Unit) -> None:
    """Two lines differ somewhere.  Each ``d_k <-> (a_k XOR b_k)`` is defined both ways,
    so every cell assignment has exactly one extension: counts over cells stay exact."""
    diffs = []
    for (r1, c1), (r2, c2) in zip(first.cells, second.cells):
        d = model.new_var()
        model.add_xor(d, cells[r1][c1].is_(1), cells[r2][c2].is_(1))
        diffs.append(d)
    model.add_clause(diffs)


def givens(encoding: Encoding, puzzle: Puzzle) -> list[int]:
    """The givens as literals "cell holds value", for the engine's assumptions."""
    return [
        cell.is_(value)
        for cells, values in zip(encoding.cells, puzzle.cells)
        for cell, value in zip(cells, values)
        if value is not None
    ]


def decode(encoding: Encoding, assignment: Assignment) -> list[list[int]]:
    # Run for every solution: one literal per cell read, not the choice's every value.
    return [[int(is_true(assignment, one)) for one in row] for row in encoding.ones]


# -- independent verification --------------------------------------------------------------


def _runs(values: Sequence[int | None]) -> Iterator[tuple[int, int]]:
    """(start, value) of every three equal, filled cells in a row."""
    for i in range(len(values) - 2):
        a, b, c = values[i : i + 3]
        if a is not None and a == b == c:
            yield i, a


def _cells_text(line: Unit, start: int, length: int) -> str:
    (r0, c0), (r1, c1) = line.cells[start], line.cells[start + length - 1]
    if line.name.startswith("row"):
        return f"{line.name}, columns {c0 + 1}-{c1 + 1}"
    return f"{line.name}, rows {r0 + 1}-{r1 + 1}"


def _equal_full_lines(cells: Sequence[Sequence[int | None]]) -> Iterator[tuple[Unit, Unit]]:
    """(first, later) for every full line equal to the first full line of its family with
    those values (what takuzu's ``distinct`` rule forbids)."""
    for family in families(len(cells), len(cells[0])):
        first_with: dict[tuple, Unit] = {}
        for line in family:
            values = tuple(cells[r][c] for r, c in line.cells)
            if None in values:
                continue
            if values in first_with:
                yield first_with[values], line
            else:
                first_with[values] = line


def grid_problems(cells: Sequence[Sequence[int | None]], rules: str, complete: bool) -> list[str]:
    """Every broken rule in a grid, named with where it breaks.

    ``complete=False`` judges a partial grid: only what the filled cells
    already break (a line with more than half 1s, three equal in a row, two
    *full* lines equal)."""
    rows, cols = len(cells), len(cells[0])
    problems: list[str] = []
    for line in lines(rows, cols):
        values = [cells[r][c] for r, c in line.cells]
        ones, zeros, half = values.count(1), values.count(0), len(values) // 2
        if (complete and ones != half) or ones > half or zeros > half:
            problems.append(f"balance: {line.name} has {ones} ones and {zeros} zeros (each must be {half})")
        for start, value in _runs(values):
            problems.append(f"triples: {_cells_text(line, start, 3)} are three {value}s in a line")
    if rules == "takuzu":
        for first, second in _equal_full_lines(cells):
            problems.append(f"distinct: {first.name} and {second.name} are equal")
    return problems


def verify(puzzle: Puzzle, solution: Sequence[Sequence[int]]) -> list[str]:
    """The problems of ``solution`` as an answer to ``puzzle`` (empty: it is right).

    >>> from mindgames.models.binairo import parse_one, verify
    >>> puzzle = parse_one("1...\\n...0\\n1..1\\n.1..")
    >>> verify(puzzle, [[1, 0, 1, 0], [0, 1, 1, 0], [1, 0, 0, 1], [0, 1, 0, 1]])
    []
    >>> verify(puzzle, [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1]])
    ['given: r2c4 was given as 0 but the solution has 1', ...]
    """
    if len(solution) != puzzle.rows or any(len(row) != puzzle.cols for row in solution):
        return [f"the solution is not a {puzzle.rows}x{puzzle.cols} grid"]
    problems = [
        f"r{r + 1}c{c + 1} is {v!r}, not 0 or 1"
        for r, row in enumerate(solution)
        for c, v in enumerate(row)
        if v not in (0, 1)
    ]
    if problems:
        return problems
    problems += [
        f"given: r{r + 1}c{c + 1} was given as {g} but the solution has {solution[r][c]}"
        for r, row in enumerate(puzzle.cells)
        for c, g in enumerate(row)
        if g is not None and g != solution[r][c]
    ]
    return problems + grid_problems(solution, puzzle.rules, complete=True)


#: the broken rules named in one message (a grid can break hundreds; the first few say enough)
SHOWN_PROBLEMS = 3


def explain_unsolvable(puzzle: Puzzle) -> str | None:
    """Where the givens alone already break a rule, if they do."""
    problems = grid_problems(puzzle.cells, puzzle.rules, complete=False)
    if problems:
        shown = "; ".join(problems[:SHOWN_PROBLEMS])
        more = len(problems) - SHOWN_PROBLEMS
        return f"the givens break the rules: {shown}" + (f"; and {more} more" if more > 0 else "")
    return f"no grid satisfies the {puzzle.rules} rules with these givens"


# -- explanations: where the givens themselves break a rule ---------------------------------
def clashing_cells(puzzle: Puzzle) -> list[tuple[int, int]]:
    """Given cells that already break a rule (:func:`grid_problems` on the givens), for highlighting."""
    cells = puzzle.cells
    found: set[tuple[int, int]] = set()
    for line in lines(puzzle.rows, puzzle.cols):
        values = [cells[r][c] for r, c in line.cells]
        half = len(values) // 2
        for v in (0, 1):
            if values.count(v) > half:  # balance
                found.update(cell for cell, x in zip(line.cells, values) if x == v)
        for start, _ in _runs(values):  # triples
            found.update(line.cells[start : start + 3])
    if puzzle.rules == "takuzu":  # distinct
        for first, second in _equal_full_lines(cells):
            found.update(first.cells + second.cells)
    return sorted(found)
