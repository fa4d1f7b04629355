"""The rules of Sudoku, once: as a model for the engines, and checked on a grid without one.

* every cell holds exactly one symbol 1..N;
* every unit (each row, each column, each box or jigsaw region, and with
  ``diagonals`` both main diagonals) holds every symbol exactly once;
* a given stays as given.

:func:`compile` states them as a :class:`mindgames.solver.Model` (the complete
encoding: one choice of symbol per cell, every unit all different, which
lets unit propagation do most of the work); :func:`compile_puzzle` states
one jigsaw's, what its givens force built in; :func:`verify` checks a grid
against them directly, so a wrong encoding or a wrong engine cannot hide.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations
from operator import itemgetter

from mindgames.solver import Assignment, Choice, Model
from mindgames.solver.model import Cardinality

from ..grid import Unit, boxes, cell_name, columns, diagonals, regions, rows, symbol_char
from ..kind import Encoding as KindEncoding
from .puzzle import Grid, Shape, Sudoku, shape
from .variant_checks import broken_rules
from .variant_rules import add_constraints


@lru_cache(maxsize=64)
def units(shape: Shape) -> tuple[Unit, ...]:
    """Every group of cells that must hold each symbol once.

    (A jigsaw shape whose ``regions`` are ``()`` stands for every layout of its size:
    its units are the rows, columns and diagonals only.)"""
    found = rows(shape.size, shape.size) + columns(shape.size, shape.size)
    if shape.regions is not None:
        found += regions(shape.regions)
    else:
        assert shape.box is not None, "a shape without regions has boxes (make_puzzle sees to it)"
        found += boxes(shape.size, *shape.box)
    if shape.diagonals:
        found += diagonals(shape.size)
    return tuple(found)


# ---------------------------------------------------------------------------
# Compile, givens, decode
# ---------------------------------------------------------------------------
@dataclass
class Encoding(KindEncoding):
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
#: (The runner asks these only for certified answers: the others use :func:`compile_puzzle`.)
SHARED_LAYOUT_MAX_SIZE = 9


@lru_cache(maxsize=16)
def compile(shape: Shape) -> Encoding:
    """The rules of this shape as a Boolean model (no givens: they come as assumptions).

    The cells' choices are made row-major, values in order, so the primary
    variables are 1..N**3 and the engines' fast paths for a primary prefix apply.
    A jigsaw of at most :data:`SHARED_LAYOUT_MAX_SIZE` gets the model shared by all
    layouts of its size and diagonals, with its layout as :attr:`Encoding.fixed`."""
    if shape.regions is not None and shape.size <= SHARED_LAYOUT_MAX_SIZE and not shape.constraints:
        layouts = _any_layout(shape.size, shape.diagonals)
        return replace(layouts.encoding, fixed=layouts.fixed(shape.regions))
    return compile_alone(shape)


def compile_alone(shape: Shape) -> Encoding:
    """The model of ``shape`` on its own, a jigsaw's regions among its units (the complete
    encoding: each symbol once in each unit); what :func:`compile` gives all but small jigsaws
    (and every puzzle with variant rules: they are part of its model)."""
    model, cells = _cells_and_units(shape)
    return _encoding(model, shape.size, cells)


def _cells_and_units(shape: Shape) -> tuple[Model, tuple[tuple[Choice, ...], ...]]:
    """A model with every cell's choice of symbol, every unit of ``shape`` all different, and
    the shape's variant rules (:mod:`.variant_rules`)."""
    model = Model()
    symbols = range(1, shape.size + 1)
    cells = tuple(
        tuple(model.new_choice(symbols, primary=True) for _ in range(shape.size)) for _ in range(shape.size)
    )
    for unit in units(shape):
        model.add_all_different([cells[r][c] for r, c in unit.cells])
    if shape.constraints:
        add_constraints(model, cells, shape.constraints, shape.box)
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


# ---------------------------------------------------------------------------
# A jigsaw's own model: its givens, and what they force, built in
# ---------------------------------------------------------------------------
@dataclass
class PuzzleEncoding(KindEncoding):
    """The model of one puzzle: its givens and what they force are built in, a choice of
    candidate symbol is left for each cell still open.  It takes no assumptions."""

    model: Model
    size: int
    known: tuple[int, ...]  # per cell, row-major: its symbol, or 0 where it is open
    open_cells: tuple[tuple[int, Choice], ...]  # (cell number, its choice of candidates)


#: a jigsaw with more of its cells open than this, once its givens' consequences are placed,
#: is left to its shape's model (one warm solver for its layout: a generator asks about a
#: nearly blank layout again and again); published puzzles leave far fewer (Janko's: 3/4 at most)
OPEN_AT_MOST = 0.75


def compile_puzzle(puzzle: Sudoku) -> PuzzleEncoding | None:
    """A jigsaw's own model (None for a Sudoku of boxes, whose shape's model is kept warm, and
    for a jigsaw with more than :data:`OPEN_AT_MOST` of its cells still open).

    Every jigsaw has a layout of its own, so no model is shared with the next puzzle: instead
    of loading the whole rules (~25,000 clauses) into a solver, what the givens force is
    deduced first (:func:`_deduce`: singles and locked candidates, each a consequence of
    the rules), and only what remains open is encoded: each open cell takes one of its
    candidates, and each unit holds each of its missing symbols in exactly one of its open
    cells.  Most published jigsaws need no more: their model is empty.  The solutions are
    exactly those of the puzzle, since every deduction is forced."""
    if puzzle.regions is None or puzzle.constraints:
        return None  # (its deductions know the units only: a variant's rules take the shape's model)
    size, cells = puzzle.size, puzzle.size * puzzle.size
    layout = _layout(shape(puzzle))
    deduced = _deduce(layout, [value for row in puzzle.grid for value in row])
    if deduced is None:  # the givens contradict the rules: a model with no solution
        return PuzzleEncoding(Model(num_vars=1, clauses=[(1,), (-1,)]), size, (0,) * cells, ())
    where, decided = deduced
    known = [0] * cells
    for value, board in enumerate(where, 1):
        for cell in _bits(board & decided):
            known[cell] = value
    if decided == layout.every_cell:
        return PuzzleEncoding(Model(), size, tuple(known), ())
    if (layout.every_cell & ~decided).bit_count() > OPEN_AT_MOST * cells:
        return None  # nearly blank: its own model would be about the whole rules, built anew
    # Written out as clauses directly (the Model's choice and cardinality helpers cost more
    # than the solving here).  A cell of two candidates is one variable, a larger one a
    # variable per candidate, at least one true: at most one follows, since a unit's open
    # cells are as many as its missing symbols and each of those is in exactly one of them.
    # (Without "at most one" per unit and symbol, solving was ~30x slower.)
    symbols_of: dict[int, list[int]] = {}  # open cell -> its candidate symbols, in order
    for value, board in enumerate(where, 1):
        for cell in _bits(board & ~decided):
            symbols_of.setdefault(cell, []).append(value)
    literal_of: dict[tuple[int, int], int] = {}  # (open cell, candidate) -> literal
    open_cells: list[tuple[int, Choice]] = []
    clauses: list[tuple[int, ...]] = []
    top = 0
    for cell in sorted(symbols_of):
        values = tuple(symbols_of[cell])
        if len(values) == 2:
            top += 1
            literals: tuple[int, ...] = (-top, top)
        else:
            literals = tuple(range(top + 1, top + 1 + len(values)))
            top += len(values)
            clauses.append(literals)
        open_cells.append((cell, Choice(values, literals)))
        for value, literal in zip(values, literals):
            literal_of[cell, value] = literal
    longer: list[Cardinality] = []  # groups too long to write pairwise: each engine's own way
    for value, board in enumerate(where, 1):
        for unit in layout.unit_masks:
            missing = board & unit
            if not missing & decided:  # the unit still misses the symbol: one of these cells
                literals = tuple(literal_of[cell, value] for cell in _bits(missing))
                if len(literals) <= PAIRWISE_AT_MOST:
                    clauses.append(literals)
                    clauses.extend(combinations([-literal for literal in literals], 2))
                else:
                    longer.append(Cardinality(literals, "==", 1))
    model = Model(
        num_vars=top,
        clauses=clauses,
        cardinalities=longer,
        primary=list(range(1, top + 1)),
        choices=[choice.literals for _, choice in open_cells],
    )
    return PuzzleEncoding(model, size, tuple(known), tuple(open_cells))


#: "exactly one" over at most this many literals is written out as clauses, every pair "not
#: both" (as the ``sat`` engine encodes a cardinality that short: solver.sat.PAIRWISE_LIMIT);
#: a longer group, in a large jigsaw, is a cardinality constraint (n(n-1)/2 clauses would be
#: 2 million for a blank 35x35).
PAIRWISE_AT_MOST = 25


def _bits(mask: int) -> Iterator[int]:
    """The numbers of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class _Layout:
    """A jigsaw's units as bit masks over its cells (bit r*N+c for the cell (r, c))."""

    size: int
    every_cell: int
    unit_masks: tuple[int, ...]
    peers: tuple[int, ...]  # per cell: every cell sharing a unit with it, itself included
    lines_of: tuple[tuple[int, ...], ...]  # per cell: the masks of its lines
    region_of: tuple[int, ...]  # per cell: the mask of its region

    def units_of(self, cell: int) -> tuple[int, ...]:
        """The masks of the units ``cell`` lies in."""
        return (*self.lines_of[cell], self.region_of[cell])


@lru_cache(maxsize=64)
def _lines(
    size: int, diagonals: bool
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The rows, columns (and diagonals) as bit masks over the cells; per cell, the masks of
    its lines, and the cells on them."""
    row = (1 << size) - 1
    column = sum(1 << (r * size) for r in range(size))
    lines = [row << (r * size) for r in range(size)] + [column << c for c in range(size)]
    if diagonals:
        lines += [
            sum(1 << (i * (size + 1)) for i in range(size)),
            sum(1 << ((i + 1) * (size - 1)) for i in range(size)),
        ]
    lines_of = tuple(tuple(line for line in lines if line >> cell & 1) for cell in range(size * size))
    on_lines = tuple(functools.reduce(operator.or_, found) for found in lines_of)
    return tuple(lines), lines_of, on_lines


def _layout(shape: Shape) -> _Layout:
    size = shape.size
    lines, lines_of, on_lines = _lines(size, shape.diagonals)
    assert shape.regions is not None, "only a jigsaw has a layout of regions"
    numbers = [region for row in shape.regions for region in row]
    regions = [0] * size
    for cell, region in enumerate(numbers):
        regions[region] |= 1 << cell
    region_of = tuple(regions[region] for region in numbers)
    peers = tuple(map(operator.or_, on_lines, region_of))
    return _Layout(size, (1 << (size * size)) - 1, lines + tuple(regions), peers, lines_of, region_of)


def _deduce(layout: _Layout, givens: Sequence[int]) -> tuple[list[int], int] | None:
    """What the givens (row-major, 0 blank) force by the rules alone: for each symbol s, at
    index s - 1, the cells where it may still be (a bit mask), and the cells decided.  None
    when a cell is left without a symbol, or a unit without a cell for one of its symbols.

    * naked single: a cell with one candidate left holds it;
    * hidden single: a symbol with one cell left in a unit is there;
    * locked candidates: when a symbol's cells left in one unit all lie in a second unit,
      the symbol is in that part of the second unit, so nowhere else in it.

    A placed symbol leaves its peers' cells at once, its cell's other candidates at the
    next round (each round starts by clearing every decided cell from the other masks)."""
    size, every_cell, peers = layout.size, layout.every_cell, layout.peers
    where = [every_cell] * size
    holds = [0] * size  # per symbol: the cells decided to hold it
    decided = 0

    def place(cell: int, value: int) -> None:
        nonlocal decided
        bit = 1 << cell
        where[value] = where[value] & ~peers[cell] | bit
        holds[value] |= bit
        decided |= bit

    for cell, value in enumerate(givens):
        if value:
            if not where[value - 1] >> cell & 1:  # a peer's given already rules it out
                return None
            place(cell, value - 1)
    while True:
        naked = every_cell  # the cells that may be naked singles: all, until looked at
        while naked:  # naked singles, until none is left: each costs a few operations
            for value in range(size):
                where[value] = where[value] & ~decided | holds[value]
            once = twice = 0  # the cells in exactly one symbol's mask
            for board in where:
                twice |= once & board
                once |= board
            if once != every_cell:
                return None
            naked = once & ~twice & ~decided
            for value in range(size) if naked else ():
                for cell in _bits(where[value] & naked):
                    if not where[value] >> cell & 1:  # a peer took the symbol just now
                        return None
                    place(cell, value)
        placed = False
        for value in range(size):  # hidden singles (a 81-cell pass: only once naked ones ran out)
            if holds[value].bit_count() == size:
                continue  # placed in every unit
            board = where[value]
            for unit in layout.unit_masks:
                left = board & unit
                if left & (left - 1) or left & decided:  # several cells, or placed already
                    continue
                if not left:
                    return None
                place(left.bit_length() - 1, value)
                board = where[value]
                placed = True
        if placed:
            continue
        if decided == every_cell:
            return where, decided
        eliminated = False
        for value, board in enumerate(where):  # locked candidates
            if holds[value].bit_count() == size:
                continue
            for unit in layout.unit_masks:
                left = board & unit
                if left & decided or not left & (left - 1):
                    continue
                for other in layout.units_of((left & -left).bit_length() - 1):
                    if other != unit and not left & ~other and board & other & ~unit:
                        board &= ~(other & ~unit)
                        eliminated = True
            where[value] = board
        if not eliminated:
            return where, decided


def givens(encoding: Encoding | PuzzleEncoding, puzzle: Sudoku) -> list[int]:
    """The givens as literals "cell holds value", for the engine's assumptions (none for a
    puzzle's own model: its givens are built in)."""
    if isinstance(encoding, PuzzleEncoding):
        return []
    return [
        cell.is_(value)
        for cells, values in zip(encoding.cells, puzzle.grid)
        for cell, value in zip(cells, values)
        if value
    ]


def decode(encoding: Encoding | PuzzleEncoding, assignment: Assignment) -> list[list[int]]:
    """An engine's assignment as a grid of values (0 where no value is true)."""
    size = encoding.size
    if isinstance(encoding, PuzzleEncoding):
        flat = list(encoding.known)
        for cell, choice in encoding.open_cells:
            flat[cell] = choice.value(assignment) or 0
        return [flat[i : i + size] for i in range(0, size * size, size)]
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
    """For each unit of a shape of boxes (or of the lines alone: the regions ``()`` of any
    jigsaw layout), a function picking its cells' values out of a row-major flat grid."""
    return tuple(itemgetter(*(r * shape.size + c for r, c in unit.cells)) for unit in units(shape))


def _units_hold_distinct_symbols(puzzle: Sudoku, flat: list[int]) -> bool:
    """Whether every unit of the puzzle holds ``size`` distinct values (a row-major grid)."""
    size = puzzle.size
    if not puzzle.regions:
        return all(len(set(cells(flat))) == size for cells in _unit_getters(shape(puzzle)))
    # A jigsaw: the lines' getters are shared by every layout of the size (a file of
    # jigsaws has a layout per puzzle); a region (of N cells) holds N distinct values when
    # no (region, value) pair occurs twice.
    lines = _unit_getters(Shape(size, None, (), puzzle.diagonals))
    in_region = (region for row in puzzle.regions for region in row)
    return (
        all(len(set(cells(flat))) == size for cells in lines)
        and len(set(zip(in_region, flat))) == size * size
    )


@lru_cache(maxsize=64)
def _symbols(size: int) -> frozenset[int]:
    return frozenset(range(1, size + 1))


def verify(puzzle: Sudoku, solution: Sequence[Sequence[int]]) -> list[str]:
    """The rules ``solution`` breaks (empty when it is a correct solution of ``puzzle``).

    The rules are read off the puzzle (its units, its givens), never off a
    compiled model, so a wrong encoding or a wrong engine cannot hide here.

    >>> from mindgames.models.sudoku import make_puzzle, verify
    >>> puzzle = make_puzzle([[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]])
    >>> verify(puzzle, [[1, 3, 2, 4], [4, 2, 3, 1], [2, 4, 1, 3], [3, 1, 4, 2]])
    []
    >>> verify(puzzle, [[3, 1, 2, 4], [4, 2, 3, 1], [2, 4, 1, 3], [1, 3, 4, 2]])
    ['r1c1 holds 3, but the given is 1']
    """
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
        and _units_hold_distinct_symbols(puzzle, flat)
    ):
        # the variant rules, by their own checker (:mod:`.variant_checks`), on a grid of digits
        return broken_rules(puzzle.constraints, solution, puzzle.box) if puzzle.constraints else []
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
    if puzzle.constraints and not problems:  # the rules speak of digits 1..N only
        problems += broken_rules(puzzle.constraints, solution, puzzle.box)
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
