"""The rules of Sudoku, once: as a model for the engines, and checked on a grid without one.

* every cell holds exactly one symbol 1..N;
* every unit (each row, each column, each box or jigsaw region, and with
  ``diagonals`` both main diagonals) holds every symbol exactly once;
* a given stays as given.

:func:`compile` states them as a :class:`solver.Model` (the complete
encoding: one choice of symbol per cell, every unit all different, which
lets unit propagation do most of the work); :func:`verify` checks a grid
against them directly, so a wrong encoding or a wrong engine cannot hide.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from operator import itemgetter
from typing import Callable, Sequence

from solver import Assignment, Choice, Model

from ..grid import Unit, boxes, cell_name, columns, diagonals, regions, rows, symbol_char
from .puzzle import Grid, Shape, Sudoku, shape


@lru_cache(maxsize=64)
def units(shape: Shape) -> tuple[Unit, ...]:
    """Every group of cells that must hold each symbol once.

    (A jigsaw shape whose ``regions`` are ``()`` stands for every layout of its size:
    its units are the rows, columns and diagonals only.)"""
    found = rows(shape.size, shape.size) + columns(shape.size, shape.size)
    found += boxes(shape.size, *shape.box) if shape.regions is None else regions(shape.regions)
    if shape.diagonals:
        found += diagonals(shape.size)
    return tuple(found)


# ---------------------------------------------------------------------------
# Compile, givens, decode
# ---------------------------------------------------------------------------
@dataclass
class Encoding:
    """The model, and each cell's choice of symbol (``cells[r][c]``)."""

    model: Model
    size: int
    cells: tuple[tuple[Choice, ...], ...]
    # What each primary variable says, for decoding every solution fast:
    # variable v means "cell number cell_of[v] (row-major) holds value_of[v]".
    cell_of: tuple[int, ...]
    value_of: tuple[int, ...]
    #: literals every question about this shape assumes besides the givens: a
    #: jigsaw's layout, when its model is the one shared by every layout (below)
    fixed: tuple[int, ...] = ()


#: Jigsaw grids up to this size share one model per size (and so, in the runner, one warm
#: solver): the layout is a set of assumed literals (see :class:`Layouts`).  A model per
#: layout costs ~25 ms to build and load at 9x9, the shared one about as much, once;
#: larger grids keep a model per layout, where building weighs less beside solving.
SHARED_LAYOUT_MAX_SIZE = 9


@lru_cache(maxsize=16)
def compile(shape: Shape) -> Encoding:
    """The rules of this shape as a Boolean model (no givens: they come as assumptions).

    The cells' choices are made row-major, values in order, so the primary
    variables are 1..N**3 and the engines' fast paths for a primary prefix apply.
    A jigsaw of at most :data:`SHARED_LAYOUT_MAX_SIZE` gets the model shared by all
    layouts of its size and diagonals, with its layout as :attr:`Encoding.fixed`."""
    if shape.regions is not None and shape.size <= SHARED_LAYOUT_MAX_SIZE:
        layouts = _any_layout(shape.size, shape.diagonals)
        return replace(layouts.encoding, fixed=layouts.fixed(shape.regions))
    return compile_alone(shape)


def compile_alone(shape: Shape) -> Encoding:
    """The model of ``shape`` on its own, a jigsaw's regions among its units (the complete
    encoding: each symbol once in each unit); what :func:`compile` gives all but small jigsaws."""
    model, cells = _cells_and_units(shape)
    return _encoding(model, shape.size, cells)


def _cells_and_units(shape: Shape) -> tuple[Model, tuple[tuple[Choice, ...], ...]]:
    """A model with every cell's choice of symbol and every unit of ``shape`` all different."""
    model = Model()
    symbols = range(1, shape.size + 1)
    cells = tuple(
        tuple(model.new_choice(symbols, primary=True) for _ in range(shape.size))
        for _ in range(shape.size)
    )
    for unit in units(shape):
        model.add_all_different([cells[r][c] for r, c in unit.cells])
    return model, cells


def _encoding(model: Model, size: int, cells: tuple[tuple[Choice, ...], ...]) -> Encoding:
    cell_of, value_of = [0] * (model.num_vars + 1), [0] * (model.num_vars + 1)
    for number, cell in enumerate(choice for row in cells for choice in row):
        for value, literal in zip(cell.values, cell.literals):
            cell_of[literal], value_of[literal] = number, value
    return Encoding(model, size, cells, tuple(cell_of), tuple(value_of))


@dataclass(frozen=True)
class Layouts:
    """The model of every jigsaw layout of one size.

    Rows, columns (and diagonals) as for any Sudoku; then for each cell a choice "the cell
    lies in region k", which a layout assumes (:meth:`fixed`); and the region rule through
    a choice per symbol and row, "the cell of this row holding the symbol lies in region
    k", determined by the cells' symbols and regions:

    * symbol s in cell (r, c) and (r, c) in region k  ->  row r's s lies in region k
      (and in that region only: it is a choice, so the converse follows);
    * each region holds each symbol in exactly one row.

    Two cells of one region with one symbol would put that symbol in the region in two rows
    (or twice in a row): so each region holds every symbol once.  All of it is 3 N**3
    variables and N**4 short clauses (writing the converse out too made building and
    solving slower), and a layout is N*N assumed literals.  Pair variables "these two cells
    share a region" (N**4 / 2 of them, every one assumed) made each question ~1.7x slower.

    Only a region's "each symbol somewhere in it" is not stated cell by cell, as the
    complete encoding of a layout's own model does: that would take a variable per cell,
    region and symbol, and every variable costs on every question (a solver assigns them
    all).  So a jigsaw needs a little more search here than on its own model."""

    encoding: Encoding
    region_of: tuple[Choice, ...]  # per cell, row-major: the region it lies in

    def fixed(self, regions: Grid) -> tuple[int, ...]:
        """The layout ``regions`` (a region number 0..N-1 per cell) as assumed literals."""
        # region numbers are 0..N-1, the order of each choice's values
        flat = (region for row in regions for region in row)
        return tuple(where.literals[region] for where, region in zip(self.region_of, flat))


@lru_cache(maxsize=4)
def _any_layout(size: int, diagonals: bool) -> Layouts:
    model, cells = _cells_and_units(Shape(size, None, (), diagonals))
    numbers = range(size)
    region_of = tuple(model.new_choice(numbers) for _ in range(size * size))
    for value in range(1, size + 1):
        rows_region = [model.new_choice(numbers) for _ in numbers]  # where row r's value lies
        for r, lies_in in enumerate(rows_region):
            for c, cell in enumerate(cells[r]):
                holds = cell.is_(value)
                # (choices' literals are in the order of their values: region k is literals[k])
                where, into = region_of[r * size + c].literals, lies_in.literals
                model.add_clauses((-holds, -where[k], into[k]) for k in numbers)
        for k in numbers:
            model.add_exactly([lies_in.literals[k] for lies_in in rows_region], 1)
    return Layouts(_encoding(model, size, cells), region_of)


def givens(encoding: Encoding, puzzle: Sudoku) -> list[int]:
    """The givens as literals "cell holds value", for the engine's assumptions."""
    return [
        cell.is_(value)
        for cells, values in zip(encoding.cells, puzzle.grid)
        for cell, value in zip(cells, values)
        if value
    ]


def decode(encoding: Encoding, assignment: Assignment) -> list[list[int]]:
    """An engine's assignment as a grid of values (0 where no value is true)."""
    size = encoding.size
    cells = size * size
    # Hot path (run for every solution): the true primary variables, in order,
    # are one per cell when the assignment is well formed; check that they are.
    true = [lit for lit in assignment[: cells * size] if lit > 0]
    if len(true) == cells and [encoding.cell_of[lit] for lit in true] == _cell_numbers(cells):
        flat = [encoding.value_of[lit] for lit in true]
        return [flat[i : i + size] for i in range(0, cells, size)]
    # Anything else (a cell with no or several true values): each cell's
    # smallest true value, 0 for none.
    return [[cell.value(assignment) or 0 for cell in row] for row in encoding.cells]


@lru_cache(maxsize=16)
def _cell_numbers(cells: int) -> list[int]:
    # Never mutated by callers: only compared against.
    return list(range(cells))


# ---------------------------------------------------------------------------
# Verify: the rules checked on the grid itself, no model involved
# ---------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _unit_getters(shape: Shape) -> tuple[Callable[[list[int]], tuple[int, ...]], ...]:
    """For each unit, a function picking its cells' values out of a row-major flat grid."""
    if not shape.regions:  # boxes, or the lines alone (``()``: any jigsaw layout)
        return tuple(itemgetter(*(r * shape.size + c for r, c in unit.cells)) for unit in units(shape))
    # A jigsaw: the lines' getters are shared by every layout of the size (a file of
    # jigsaws has a layout per puzzle), the regions' come straight from the region grid.
    cells_of: dict[int, list[int]] = {}
    for number, region in enumerate(r for row in shape.regions for r in row):
        cells_of.setdefault(region, []).append(number)
    lines = _unit_getters(Shape(shape.size, None, (), shape.diagonals))
    return lines + tuple(itemgetter(*cells) for cells in cells_of.values())


@lru_cache(maxsize=64)
def _symbols(size: int) -> frozenset[int]:
    return frozenset(range(1, size + 1))


def verify(puzzle: Sudoku, solution: Sequence[Sequence[int]]) -> list[str]:
    """The rules ``solution`` breaks (empty when it is a correct solution of ``puzzle``).

    The rules are read off the puzzle (its units, its givens), never off a
    compiled model, so a wrong encoding or a wrong engine cannot hide here."""
    size = puzzle.size
    if len(solution) != size or any(len(row) != size for row in solution):
        return [f"the solution is not a {size}x{size} grid"]
    # Fast acceptance, run for every solution an engine returns: plain ints in
    # 1..size, the givens kept, every unit holding `size` distinct values.
    # Whatever fails it is examined again below, which names the problems.
    flat = [v for row in solution for v in row]
    given = [v for row in puzzle.grid for v in row]
    if (
        set(map(type, flat)) == {int}
        and _symbols(size).issuperset(flat)
        and all(v == g for v, g in zip(flat, given) if g)
        and all(len(set(cells(flat))) == size for cells in _unit_getters(shape(puzzle)))
    ):
        return []
    return _problems(puzzle, solution)


def _problems(puzzle: Sudoku, solution: Sequence[Sequence[int]]) -> list[str]:
    """Every broken rule of a ``size x size`` grid, in words."""
    size = puzzle.size
    problems = []
    for r in range(size):
        for c in range(size):
            value, given = solution[r][c], puzzle.grid[r][c]
            if not isinstance(value, int) or not 1 <= value <= size:
                problems.append(f"{cell_name((r, c))} holds {value!r}, not a symbol 1..{size}")
            elif given and value != given:
                problems.append(f"{cell_name((r, c))} holds {value}, but the given is {given}")
    for unit in units(shape(puzzle)):
        values = [solution[r][c] for r, c in unit.cells]
        if len(set(values)) != size:
            twice = next(v for v in values if values.count(v) > 1)
            problems.append(f"{unit.name} holds {twice} more than once")
    return problems


# ---------------------------------------------------------------------------
# Explanations: where the givens themselves break a rule
# ---------------------------------------------------------------------------
def explain_unsolvable(puzzle: Sudoku) -> str:
    """Where the givens clash, if two equal givens share a unit; else a plain statement."""
    for unit in units(shape(puzzle)):
        first_at: dict[int, tuple[int, int]] = {}
        for cell in unit.cells:
            value = puzzle.grid[cell[0]][cell[1]]
            if value and value in first_at:
                return (
                    f"givens clash: {symbol_char(value)} appears twice in {unit.name} "
                    f"({cell_name(first_at[value])} and {cell_name(cell)})"
                )
            first_at.setdefault(value, cell)
    return "no solution: the givens admit no completion (proved by the engine)"


def clashing_cells(puzzle: Sudoku) -> list[tuple[int, int]]:
    """Cells whose given repeats a given of a shared unit (for highlighting)."""
    clashing = set()
    for unit in units(shape(puzzle)):
        by_value: dict[int, list[tuple[int, int]]] = {}
        for r, c in unit.cells:
            if puzzle.grid[r][c]:
                by_value.setdefault(puzzle.grid[r][c], []).append((r, c))
        for cells in by_value.values():
            if len(cells) > 1:
                clashing.update(cells)
    return sorted(clashing)
