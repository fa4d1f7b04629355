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
#: solver): the layout is a set of assumed literals.  9x9: 2,592 pair variables and 23,328
#: clauses, built once; a model per layout costs ~25 ms to build and load, the shared one's
#: assumptions ~0.1 ms.  Larger grids keep a model per layout (the pairs grow as N**4).
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
    """The model of every jigsaw layout of one size: rows, columns (and diagonals) as for
    any Sudoku, and for each pair of cells that shares no row or column a variable "the
    two share a region", which forbids them equal symbols (one ternary clause per symbol).
    A layout assumes each pair variable true or false (:meth:`fixed`).

    Each region holds every symbol once because it holds N cells whose symbols differ, so
    the pairs alone state the region rule; the redundant "each symbol somewhere in each
    region" of the complete encoding would need a variable per cell, region and symbol,
    and every variable costs on every call (a solver assigns them all)."""

    encoding: Encoding
    pair_index: tuple[int, ...]  # cell a * N*N + cell b (a < b) -> index in ``negated``, -1: none
    negated: tuple[int, ...]  # every pair variable, negated: the layout with no shared region

    def fixed(self, regions: Grid) -> tuple[int, ...]:
        """The layout ``regions`` (a region number per cell) as assumed pair literals."""
        area = len(self.encoding.cells) ** 2
        cells_of: dict[int, list[int]] = {}
        for number, region in enumerate(r for row in regions for r in row):
            cells_of.setdefault(region, []).append(number)
        literals = list(self.negated)
        for cells in cells_of.values():
            for i, a in enumerate(cells):
                for b in cells[i + 1 :]:
                    index = self.pair_index[a * area + b]
                    if index >= 0:
                        literals[index] = -literals[index]
        return tuple(literals)


@lru_cache(maxsize=4)
def _any_layout(size: int, diagonals: bool) -> Layouts:
    model, cells = _cells_and_units(Shape(size, None, (), diagonals))
    area = size * size
    flat = [cell for row in cells for cell in row]
    pair_index, negated = [-1] * (area * area), []
    for a in range(area):
        for b in range(a + 1, area):
            if a // size == b // size or a % size == b % size:
                continue  # a row or column already keeps these two apart
            shared = model.new_var()
            pair_index[a * area + b] = len(negated)
            negated.append(-shared)
            for value in range(1, size + 1):
                model.add_clause((-shared, -flat[a].is_(value), -flat[b].is_(value)))
    return Layouts(_encoding(model, size, cells), tuple(pair_index), tuple(negated))


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
    return tuple(
        itemgetter(*(r * shape.size + c for r, c in unit.cells)) for unit in units(shape)
    )


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
