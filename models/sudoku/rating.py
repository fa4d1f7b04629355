"""A rating on Sudoku Explainer's scale (SE, ER/EP/ED): the ladder a setter knows, and paths.

Sudoku Explainer (SE) rates a puzzle by solving it with the easiest technique that makes
progress at each step; the rating **ER** is the hardest step of that path, **EP** the hardest
step up to the first placement, **ED** the first step's.  The techniques and their base
difficulties are SE's published table (the SukakuExplainer wiki, "Difficulty ratings in Sudoku
Explainer v1.2.1"); the code here is mindgames' own, written from the techniques' definitions.

====  =========================================  ========  ===================================
 SE   technique                                   SE        technique
====  =========================================  ========  ===================================
1.0   full house (last cell of a unit)            3.8       swordfish
1.2   hidden single in a box                      4.0       hidden triple
1.5   hidden single in a row or column            4.2       XY-wing
1.7   direct pointing                             4.4       XYZ-wing
1.9   direct claiming                             4.5       unique rectangle (type 1)
                                                  4.6-5.0   unique loop (6, 8, 10+ cells)
2.0   direct hidden pair                          5.0       naked quad
2.3   naked single                                5.2       jellyfish
2.5   direct hidden triple                        5.4       hidden quad
2.6   pointing                                    5.6       bivalue universal grave (BUG+1)
2.8   claiming                                    6.6-7.0   one-digit forcing chain (X-chains)
3.0   naked pair                                  7.1-7.5   forcing chain
3.2   X-wing                                      7.6-8.1   nishio
3.4   hidden pair                                 8.5-9.4   dynamic forcing chain
3.6   naked triple                                9.5-10.4  dynamic forcing chain (+)
====  =========================================  ========  ===================================

A puzzle the ladder leaves unsolved is rated 11.0 (needs search; SE rates such puzzles 10.5-11.9).

"Direct" techniques are SE's: the eliminations of a pointing, claiming or hidden subset that
leave a value one place in a box, taken with that placement as one step.  The chain rungs
are mindgames' approximations of SE's chains: SE finds chains; these find contradictions by
assuming a candidate and propagating.  *Static* propagation follows only the singles that one
placement forces (a cell that had two candidates, a value that had two places in a unit: a
chain's strong links) and sees a contradiction only there; *dynamic* propagation follows every
single (nishio: of the assumed digit only; "+": the ladder below the chains as well).  A tenth
is added each time the propagation's length doubles, as SE adds for longer chains.  Calibrated
on the 87 SE-rated puzzles of ``se_rated_87.tsv`` and on SE's ratings of magictour's top 95
(``benchmarks/se_rated_top95.tsv``): ``python -m benchmarks.rating [TSV]``.

The techniques work on any layout's units (rows, columns, boxes, jigsaw regions, diagonals):
a box or region is a "block"; the uniqueness techniques (unique rectangles, BUG) only where
every unit is a row, a column or a box.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import combinations
from math import log2

from mindgames.solver.deadline import Deadline

from ..errors import TimeLimitReached
from ..grid import Unit, cell_name, symbol_char
from .puzzle import Sudoku
from .techniques import (
    BASE_RATING,
    CHAINS,
    NEEDS_SEARCH_RATING,
    Board,
    Cell,
    Contradiction,
    Step,
    _cells,
    _eliminations,
    _values,
    hidden_pair,
    hidden_single,
    hidden_subsets,
    hidden_triple,
    naked_pair,
    naked_single,
    naked_subsets,
    naked_triple,
)

Technique = Callable[[Board], "Step | None"]


@lru_cache(maxsize=16)
def units_holding(units: tuple[Unit, ...]) -> dict[Cell, tuple[Unit, ...]]:
    """Each cell's units, once per layout (the intersections look only at those)."""
    holding: dict[Cell, list[Unit]] = {}
    for unit in units:
        for cell in unit.cells:
            holding.setdefault(cell, []).append(unit)
    return {cell: tuple(found) for cell, found in holding.items()}


def is_block(unit: Unit) -> bool:
    return unit.name.startswith(("box", "region"))


def only_rows_columns_boxes(board: Board) -> bool:
    """Whether every unit is a row, column or box: the uniqueness techniques (rectangles, BUG)
    argue from that layout (a diagonal or a jigsaw region can forbid their swap)."""
    return all(unit.name.startswith(("row ", "column ", "box ")) for unit in board.units)


def is_line(unit: Unit) -> bool:
    return unit.name.startswith(("row ", "column "))


def _rated(step: Step | None, technique: str | None = None, rating: float | None = None) -> Step | None:
    if step is None:
        return None
    return Step(
        technique or step.technique,
        step.because,
        step.text,
        step.place,
        step.eliminate,
        step.requires,
        rating,
        step.recheck,
    )


# ---------------------------------------------------------------------------
# Singles, by the kind of unit (SE rates a box's hidden single easier than a line's)
# ---------------------------------------------------------------------------
def _hidden_single_where(board: Board, wanted: Callable[[Unit], bool], name: str) -> Step | None:
    chosen = tuple(unit for unit in board.units if wanted(unit))
    if not chosen:
        return None
    found = hidden_single(Board(board.size, chosen, board.peers, board.values, board.candidates))
    return _rated(found, name)


def full_house(board: Board) -> Step | None:
    """The last open cell of a unit: its value is the one the unit lacks."""
    for unit in board.units:
        open_cells = board.open_cells(unit)
        if len(open_cells) == 1:
            (cell,) = open_cells
            (value,) = board.missing(unit)
            if value in board.candidates[cell]:
                return Step(
                    "full house",
                    tuple(c for c in unit.cells if c != cell),
                    f"{cell_name(cell)} is the last open cell of {unit.name}: it is {symbol_char(value)}",
                    place=(cell, value),
                    requires=frozenset(),
                )
    return None


def hidden_single_in_block(board: Board) -> Step | None:
    return _hidden_single_where(board, is_block, "hidden single")


def hidden_single_in_line(board: Board) -> Step | None:
    return _hidden_single_where(board, lambda unit: not is_block(unit), "hidden single")


# ---------------------------------------------------------------------------
# Intersections and subsets, plain and "direct"
# ---------------------------------------------------------------------------
def _locked(board: Board, from_block: bool) -> Iterator[Step]:
    """Every pointing (``from_block``: a box's value confined to a line) or claiming (a line's
    value confined to a box) that eliminates something."""
    holding = units_holding(board.units)
    for unit in board.units:
        if is_block(unit) != from_block:
            continue
        for value in board.missing(unit):
            places = board.places(unit, value)
            if len(places) < 2:
                continue
            for other in holding[places[0]]:
                if other is unit or not all(other in holding[cell] for cell in places[1:]):
                    continue
                outside = [cell for cell in other.cells if cell not in places]
                gone = _eliminations(board, outside, {value})
                if gone:
                    yield Step(
                        "pointing" if from_block else "claiming",
                        tuple(places),
                        f"in {unit.name}, {symbol_char(value)} must be in {_cells(places)}, "
                        f"all in {other.name}: not elsewhere in {other.name} "
                        f"({_cells(c for c, _ in gone)})",
                        eliminate=gone,
                        requires=frozenset((cell, value) for cell in unit.cells if cell not in places),
                    )


def _subsets(board: Board, n: int, hidden: bool) -> Iterator[Step]:
    """Every naked (or hidden) subset of ``n`` that eliminates something."""
    names = {2: "pair", 3: "triple", 4: "quad"}
    name = f"{'hidden' if hidden else 'naked'} {names[n]}"
    yield from (hidden_subsets if hidden else naked_subsets)(board, n, name)


def _direct(steps: Iterator[Step], name: str, board: Board) -> Step | None:
    """The first of ``steps`` whose eliminations leave some value one place in a box it
    touches: that step and the placement, as one (SE's "direct" techniques; a box only, which
    matches SE's ratings of the calibration set: 58 of its 61 puzzles below 3.0 exactly)."""
    for step in steps:
        trial = board.copy()
        try:
            for cell, value in step.eliminate:
                trial.eliminate(cell, value)
        except Contradiction:
            continue
        touched = {cell for cell, _ in step.eliminate}
        removed = {value for _, value in step.eliminate}
        for unit in board.units:
            if not is_block(unit) or not touched & set(unit.cells):
                continue
            for value in sorted(removed):
                places = trial.places(unit, value)
                if len(places) == 1 and len(board.places(unit, value)) > 1:
                    (cell,) = places
                    return Step(
                        name,
                        step.because,
                        f"{step.text}; then {symbol_char(value)} can go nowhere else in {unit.name}: "
                        f"{cell_name(cell)} is {symbol_char(value)}",
                        place=(cell, value),
                        eliminate=step.eliminate,
                        requires=(step.requires or frozenset())
                        | frozenset((other, value) for other in unit.cells if other != cell)
                        - set(step.eliminate),
                    )
    return None


def direct_pointing(board: Board) -> Step | None:
    return _direct(_locked(board, True), "direct pointing", board)


def direct_claiming(board: Board) -> Step | None:
    return _direct(_locked(board, False), "direct claiming", board)


def direct_hidden_pair(board: Board) -> Step | None:
    return _direct(_subsets(board, 2, True), "direct hidden pair", board)


def direct_hidden_triple(board: Board) -> Step | None:
    return _direct(_subsets(board, 3, True), "direct hidden triple", board)


def pointing(board: Board) -> Step | None:
    return next(_locked(board, True), None)


def claiming(board: Board) -> Step | None:
    return next(_locked(board, False), None)


def naked_quad(board: Board) -> Step | None:
    return next(_subsets(board, 4, False), None)


def hidden_quad(board: Board) -> Step | None:
    return next(_subsets(board, 4, True), None)


# ---------------------------------------------------------------------------
# Fish: a value in n rows confined to n columns (or columns to rows)
# ---------------------------------------------------------------------------
def _fish(board: Board, n: int, name: str) -> Step | None:
    rows = [u for u in board.units if u.name.startswith("row ")]
    columns = [u for u in board.units if u.name.startswith("column ")]
    for base, cover, across in ((rows, columns, 1), (columns, rows, 0)):
        for value in range(1, board.size + 1):
            spots: dict[Unit, frozenset[int]] = {}
            for unit in base:
                places = board.places(unit, value)
                if 2 <= len(places) <= n:
                    spots[unit] = frozenset(cell[across] for cell in places)
            for group in combinations(spots, n):
                covered = frozenset().union(*(spots[unit] for unit in group))
                if len(covered) != n:
                    continue
                corners = {cell for unit in group for cell in board.places(unit, value)}
                cover_units = [cover[i] for i in sorted(covered)]
                others = [cell for unit in cover_units for cell in unit.cells if cell not in corners]
                gone = _eliminations(board, others, {value})
                if gone:
                    return Step(
                        name,
                        tuple(sorted(corners)),
                        f"in {', '.join(u.name for u in group)}, {symbol_char(value)} is only in "
                        f"{', '.join(u.name for u in cover_units)}: not elsewhere in them "
                        f"({_cells(c for c, _ in gone)})",
                        eliminate=gone,
                        requires=frozenset(
                            (cell, value) for unit in group for cell in unit.cells if cell not in corners
                        ),
                    )
    return None


def x_wing(board: Board) -> Step | None:
    return _fish(board, 2, "X-wing")


def swordfish(board: Board) -> Step | None:
    return _fish(board, 3, "swordfish")


def jellyfish(board: Board) -> Step | None:
    return _fish(board, 4, "jellyfish")


# ---------------------------------------------------------------------------
# Wings, unique rectangle, BUG
# ---------------------------------------------------------------------------
def _only(board: Board, cells: tuple[Cell, ...]) -> frozenset[tuple[Cell, int]]:
    """The candidates ``cells`` must not have (every value but theirs): what a wing relies on."""
    return frozenset(
        (cell, v) for cell in cells for v in range(1, board.size + 1) if v not in board.candidates[cell]
    )


def xy_wing(board: Board) -> Step | None:
    """A pivot x/y seeing pincers x/z and y/z: whichever the pivot is, one pincer is z, so no
    cell seeing both pincers is z."""
    pairs = [cell for cell, left in board.candidates.items() if len(left) == 2]
    for pivot in pairs:
        x, y = sorted(board.candidates[pivot])
        wings = [cell for cell in pairs if cell in board.peers[pivot]]
        for first, second in combinations(wings, 2):
            a, b = board.candidates[first], board.candidates[second]
            if a == b or not (x in a) ^ (x in b):
                continue
            if not ((x in a and y in b) or (y in a and x in b)):
                continue
            z_first, z_second = a - {x, y}, b - {x, y}
            if len(z_first) != 1 or z_first != z_second:
                continue
            (z,) = z_first
            targets = sorted((board.peers[first] & board.peers[second]) - {pivot})
            gone = _eliminations(board, targets, {z})
            if gone:
                return Step(
                    "XY-wing",
                    (pivot, first, second),
                    f"{cell_name(pivot)} is {_values((x, y))}, so {cell_name(first)} or "
                    f"{cell_name(second)} is {symbol_char(z)}: no cell seeing both is "
                    f"({_cells(c for c, _ in gone)})",
                    eliminate=gone,
                    requires=_only(board, (pivot, first, second)),
                )
    return None


def xyz_wing(board: Board) -> Step | None:
    """A pivot x/y/z seeing pincers x/z and y/z: one of the three is z, so no cell seeing all
    three is."""
    for pivot, left in board.candidates.items():
        if len(left) != 3:
            continue
        wings = [
            cell
            for cell in board.peers[pivot]
            if len(board.candidates.get(cell, ())) == 2 and board.candidates[cell] < left
        ]
        for first, second in combinations(wings, 2):
            a, b = board.candidates[first], board.candidates[second]
            if a == b or len(a & b) != 1:
                continue
            (z,) = a & b
            targets = sorted(board.peers[first] & board.peers[second] & board.peers[pivot])
            gone = _eliminations(board, targets, {z})
            if gone:
                return Step(
                    "XYZ-wing",
                    (pivot, first, second),
                    f"one of {_cells((pivot, first, second))} is {symbol_char(z)}: no cell seeing all "
                    f"three is ({_cells(c for c, _ in gone)})",
                    eliminate=gone,
                    requires=_only(board, (pivot, first, second)),
                )
    return None


def unique_rectangle(board: Board) -> Step | None:
    """Type 1: three corners of a rectangle on two boxes hold only a/b; the fourth cannot be
    a or b, else the two values could swap and the puzzle would have two solutions."""
    if not only_rows_columns_boxes(board):
        return None
    blocks = [unit for unit in board.units if is_block(unit)]
    block_of = {cell: index for index, unit in enumerate(blocks) for cell in unit.cells}
    if not blocks:
        return None
    pairs = [cell for cell, left in board.candidates.items() if len(left) == 2]
    for (r1, c1), (r2, c2) in combinations(pairs, 2):
        if r1 == r2 or c1 == c2 or board.candidates[r1, c1] != board.candidates[r2, c2]:
            continue
        values = board.candidates[r1, c1]
        for third, fourth in (((r1, c2), (r2, c1)), ((r2, c1), (r1, c2))):
            if board.candidates.get(third) != values or fourth not in board.candidates:
                continue
            corners = ((r1, c1), (r2, c2), third, fourth)
            if len({block_of.get(cell) for cell in corners}) != 2 or not values < board.candidates[fourth]:
                continue
            gone = _eliminations(board, [fourth], values)
            return Step(
                "unique rectangle",
                tuple(sorted(corners[:3])),
                f"{_cells(sorted(corners[:3]))} hold only {_values(sorted(values))}: "
                f"{cell_name(fourth)} cannot (two solutions otherwise)",
                eliminate=gone,
                requires=_only(board, corners[:3]),
            )
    return None


def _rectangles(board: Board) -> Iterator[tuple[frozenset[int], tuple[Cell, Cell], tuple[Cell, Cell]]]:
    """Every would-be deadly pattern: two cells of a row (or column) holding only a/b (the
    floor), and the two cells across from them in another row (column) holding a and b among
    others (the roof), the four on exactly two boxes."""
    if not only_rows_columns_boxes(board):
        return
    blocks = [unit for unit in board.units if is_block(unit)]
    block_of = {cell: index for index, unit in enumerate(blocks) for cell in unit.cells}
    if not blocks:
        return
    pairs = sorted(cell for cell, left in board.candidates.items() if len(left) == 2)
    for first, second in combinations(pairs, 2):
        values = frozenset(board.candidates[first])
        if board.candidates[second] != values:
            continue
        if first[0] == second[0]:
            across = [((r, first[1]), (r, second[1])) for r in range(board.size) if r != first[0]]
        elif first[1] == second[1]:
            across = [((first[0], c), (second[0], c)) for c in range(board.size) if c != first[1]]
        else:
            continue
        for roof in across:
            if not all(cell in board.candidates and values < board.candidates[cell] for cell in roof):
                continue
            if len({block_of.get(cell) for cell in (first, second, *roof)}) == 2:
                yield values, (first, second), roof


def unique_rectangle_2_4(board: Board) -> Step | None:
    """Types 2 and 4 of the unique rectangle (SE 4.6): with a floor of a/b, the roof must break
    the pattern.  Type 2: both roof cells hold one extra value c, so one of them is c: no cell
    seeing both is.  Type 4: a is confined to the roof in a unit they share, so one of them is a
    and neither can be b."""
    for values, floor, roof in _rectangles(board):
        extra = (board.candidates[roof[0]] | board.candidates[roof[1]]) - values
        if len(extra) == 1 and board.candidates[roof[0]] == board.candidates[roof[1]]:
            (value,) = extra
            targets = sorted((board.peers[roof[0]] & board.peers[roof[1]]) - set(floor))
            gone = _eliminations(board, targets, {value})
            if gone:
                return Step(
                    "unique rectangle",
                    (*floor, *roof),
                    f"{_cells(floor)} hold only {_values(sorted(values))}: one of {_cells(roof)} is "
                    f"{symbol_char(value)} (two solutions otherwise), so no cell seeing both is "
                    f"({_cells(c for c, _ in gone)})",
                    eliminate=gone,
                    requires=_only(board, (*floor, *roof)),
                    rating=4.6,
                )
        for unit in board.units:
            if not set(roof) <= set(unit.cells):
                continue
            for value in sorted(values):
                if set(board.places(unit, value)) != set(roof):
                    continue
                (other,) = values - {value}
                gone = _eliminations(board, list(roof), {other})
                if gone:
                    return Step(
                        "unique rectangle",
                        (*floor, *roof),
                        f"{_cells(floor)} hold only {_values(sorted(values))} and in {unit.name} "
                        f"{symbol_char(value)} is only in {_cells(roof)}: neither can be "
                        f"{symbol_char(other)} (two solutions otherwise)",
                        eliminate=gone,
                        requires=_only(board, floor)
                        | frozenset((cell, value) for cell in unit.cells if cell not in roof),
                        rating=4.6,
                    )
    return None


# ---------------------------------------------------------------------------
# Unique loops: the unique rectangle's deadly pattern on 6 or more cells
# ---------------------------------------------------------------------------
#: the most cells holding values beside the loop's pair that a loop is searched with (types 1, 2
#: and 4 need one or two; more would make the search slow for a rare gain)
LOOP_EXTRA_CELLS = 2
#: the longest loop searched (SE's rating stops growing at 10 cells)
LOOP_MAX_LENGTH = 14


def unique_loop_rating(length: int) -> float:
    """SE's difficulty of a unique loop of type 1, 2 or 4 (type 3 adds its naked set's): 4.5 and a
    tenth for 6 or 7 cells, two for 8 or 9, five for 10 or more (SE's table jumps there)."""
    bonus = 0.5 if length >= 10 else 0.2 if length >= 8 else 0.1
    return round(4.5 + bonus, 1)


def _loops(board: Board, values: frozenset[int]) -> Iterator[tuple[Cell, ...]]:
    """Every loop of 6 or more cells holding ``values`` among their candidates (at most
    :data:`LOOP_EXTRA_CELLS` of them with others), moving along a row and a column in turn, with
    every row, column and block it touches holding exactly two of its cells at an odd distance
    along it: the cells whose a/b could be swapped (a deadly pattern).  Each loop once."""
    holding = units_holding(board.units)
    cells = sorted(cell for cell, left in board.candidates.items() if values <= left)
    exact = {cell for cell in cells if board.candidates[cell] == values}
    by_row: dict[int, list[Cell]] = {}
    by_column: dict[int, list[Cell]] = {}
    for cell in cells:
        by_row.setdefault(cell[0], []).append(cell)
        by_column.setdefault(cell[1], []).append(cell)

    def closes(path: list[Cell]) -> bool:
        index = {cell: position for position, cell in enumerate(path)}
        count: dict[Unit, list[Cell]] = {}
        for cell in path:
            for unit in holding[cell]:
                count.setdefault(unit, []).append(cell)
        return all(len(two) == 2 and (index[two[0]] - index[two[1]]) % 2 == 1 for two in count.values())

    def extend(path: list[Cell], seen: set[Cell], extras: int, along_row: bool) -> Iterator[tuple[Cell, ...]]:
        if board.deadline.passed():
            raise TimeLimitReached("time limit reached while rating")
        last = path[-1]
        following = by_row[last[0]] if along_row else by_column[last[1]]
        for cell in following:
            if cell == path[0] and len(path) >= 6 and not along_row and closes(path):
                yield tuple(path)
            if cell in seen or cell <= path[0] or len(path) >= LOOP_MAX_LENGTH:
                continue
            more = extras + (cell not in exact)
            if more > LOOP_EXTRA_CELLS:
                continue
            path.append(cell)
            seen.add(cell)
            yield from extend(path, seen, more, not along_row)
            path.pop()
            seen.discard(cell)

    for start in cells:
        # a loop starts at its smallest cell and leaves along its row: each is found once (the
        # other direction would leave along the column)
        yield from extend([start], {start}, start not in exact, True)


def unique_loop(board: Board) -> Step | None:
    """The easiest unique loop step (SE 4.6-5.0): a loop of cells on a/b as :func:`_loops` finds
    them could swap a and b, so the cells with other values (the extras) must hold one.
    Type 1: one cell has extras: it is not a or b.  Type 2: the extra cells all hold one more
    value c: one of them is c, so no cell seeing them all is.  Type 3: two extra cells in one
    unit make a naked set with other cells of it (:func:`_loop_naked_sets`).  Type 4: two extra
    cells in one unit where a is confined to them: one is a, so neither is b."""
    if not only_rows_columns_boxes(board):
        return None
    pairs = {frozenset(left) for left in board.candidates.values() if len(left) == 2}
    best: Step | None = None
    for values in sorted(pairs, key=sorted):
        for loop in _loops(board, values):
            extra = [cell for cell in loop if board.candidates[cell] != values]
            for step in _loop_steps(board, values, loop, extra):
                if best is None or (step.rating or 0) < (best.rating or 0):
                    best = step
    return best


def _loop_steps(
    board: Board, values: frozenset[int], loop: tuple[Cell, ...], extra: list[Cell]
) -> Iterator[Step]:
    pair = _values(sorted(values))
    bivalue = [cell for cell in loop if cell not in extra]
    name = f"{_cells(loop)} form a loop on {pair}"
    if len(extra) == 1:
        gone = _eliminations(board, extra, values)
        if gone:
            yield Step(
                "unique loop",
                loop,
                f"{name}: {cell_name(extra[0])} cannot be {pair} (two solutions otherwise)",
                eliminate=gone,
                requires=_only(board, tuple(bivalue)),
                rating=unique_loop_rating(len(loop)),
            )
        return
    if not extra:
        return
    others = {frozenset(board.candidates[cell] - values) for cell in extra}
    if len(others) == 1 and len(next(iter(others))) == 1:
        (value,) = next(iter(others))
        seeing = set.intersection(*(set(board.peers[cell]) for cell in extra)) - set(loop)
        gone = _eliminations(board, sorted(seeing), {value})
        if gone:
            yield Step(
                "unique loop",
                loop,
                f"{name}: one of {_cells(extra)} is {symbol_char(value)} (two solutions otherwise), "
                f"so no cell seeing them all is ({_cells(c for c, _ in gone)})",
                eliminate=gone,
                requires=_only(board, loop),
                rating=unique_loop_rating(len(loop)),
            )
    if len(extra) != 2:
        return
    for unit in board.units:
        if not set(extra) <= set(unit.cells):
            continue
        for value in sorted(values):
            if set(board.places(unit, value)) != set(extra):
                continue
            (other,) = values - {value}
            gone = _eliminations(board, extra, {other})
            if gone:
                yield Step(
                    "unique loop",
                    loop,
                    f"{name} and in {unit.name} {symbol_char(value)} is only in {_cells(extra)}: "
                    f"neither can be {symbol_char(other)} (two solutions otherwise)",
                    eliminate=gone,
                    requires=_only(board, tuple(bivalue))
                    | frozenset((cell, value) for cell in unit.cells if cell not in extra),
                    rating=unique_loop_rating(len(loop)),
                )
        yield from _loop_naked_sets(board, values, loop, extra, unit, name)


def _loop_naked_sets(
    board: Board, values: frozenset[int], loop: tuple[Cell, ...], extra: list[Cell], unit: Unit, name: str
) -> Iterator[Step]:
    """Type 3: one of the two extra cells of ``unit`` holds one of their extra values, so the
    two act as one cell of those values; with k - 1 other cells of the unit they may form a
    naked set of k values, which no other cell of the unit holds (SE: a tenth per value beyond one)."""
    virtual = (board.candidates[extra[0]] | board.candidates[extra[1]]) - values
    others = [cell for cell in unit.cells if cell in board.candidates and cell not in extra]
    for size in range(max(2, len(virtual)), 5):
        for chosen in combinations(others, size - 1):
            naked = set(virtual).union(*(board.candidates[cell] for cell in chosen))
            if len(naked) != size:
                continue
            rest = [cell for cell in others if cell not in chosen]
            gone = _eliminations(board, rest, naked)
            if gone:
                yield Step(
                    "unique loop",
                    loop,
                    f"{name}: one of {_cells(extra)} is {_values(sorted(virtual))} (two solutions "
                    f"otherwise), with {_cells(chosen)} a naked set of {_values(sorted(naked))} in "
                    f"{unit.name}: no other cell there holds them ({_cells(c for c, _ in gone)})",
                    eliminate=gone,
                    requires=_only(board, (*(cell for cell in loop if cell not in extra), *chosen)),
                    rating=round(unique_loop_rating(len(loop)) + 0.1 * (size - 1), 1),
                )


def bug_plus_one(board: Board) -> Step | None:
    """Bivalue universal grave + 1: every open cell has two candidates but one with three; the
    value of that cell seen three times in one of its units is its value (else two solutions)."""
    if not only_rows_columns_boxes(board):
        return None
    triples = [cell for cell, left in board.candidates.items() if len(left) > 2]
    if len(triples) != 1 or len(board.candidates[triples[0]]) != 3:
        return None
    (cell,) = triples
    for unit in board.units:
        if cell not in unit.cells:
            continue
        for value in sorted(board.candidates[cell]):
            if len(board.places(unit, value)) == 3:
                return Step(
                    "bivalue universal grave",
                    (cell,),
                    f"every open cell but {cell_name(cell)} has two candidates: "
                    f"{cell_name(cell)} is {symbol_char(value)} (two solutions otherwise)",
                    place=(cell, value),
                    requires=None,
                    recheck=partial(_same_bug, place=(cell, value)),
                )
    return None


def _same_bug(board: Board, place: tuple[Cell, int]) -> bool:
    """Whether BUG+1 still places ``place`` on ``board``."""
    found = bug_plus_one(board)
    return found is not None and found.place == place


# ---------------------------------------------------------------------------
# Contradictions: the chain rungs (assume a candidate, propagate, reach a contradiction)
# ---------------------------------------------------------------------------
def _propagate_digit(board: Board, value: int, limit: int) -> int:
    """Hidden singles of ``value`` alone until none is left or ``limit`` are made (Contradiction
    when a unit is left with no place for it); how many it made."""
    made = 0
    candidates, values = board.candidates, board.values
    while made < limit:
        for unit in board.units:
            places = [cell for cell in unit.cells if value in candidates.get(cell, ())]
            if len(places) > 1 or any(values.get(cell) == value for cell in unit.cells):
                continue  # two places or more, or placed already: no single here
            if not places:
                raise Contradiction(f"{symbol_char(value)} has no place in {unit.name}")
            board.place(places[0], value)
            made += 1
            break
        else:
            return made
    return made


class StaticLinks:
    """The strong links of ``start`` that a static chain follows: its cells with two
    candidates (``bivalue``), and the units where a value has two places (``bilocal(digit)``,
    of one digit when given).  Found once per board and shared by every trial that a scan of
    contradictions makes from it, with where each link lies, so that a placement looks again
    only at the links it touched."""

    def __init__(self, start: Board):
        self.start = start
        self.bivalue = [cell for cell, left in start.candidates.items() if len(left) == 2]
        self.bivalue_at = {cell: index for index, cell in enumerate(self.bivalue)}
        self._bilocal: dict[int | None, BilocalLinks] = {}

    def bilocal(self, digit: int | None) -> BilocalLinks:
        if digit not in self._bilocal:
            start = self.start
            self._bilocal[digit] = BilocalLinks(
                start,
                [
                    (unit, value)
                    for unit in start.units
                    for value in start.missing(unit)
                    if (digit is None or value == digit) and len(start.places(unit, value)) == 2
                ],
            )
        return self._bilocal[digit]


class BilocalLinks:
    """(unit, value) links with the two cells where the value could go in ``start`` (in the
    unit's order), and which links a cell (any value) or a cell's value lies in.  Candidates
    only shrink, so a link's places stay among its two cells, and only those cells can take
    the value: a link changes only when one of its two cells does."""

    def __init__(self, start: Board, links: list[tuple[Unit, int]]):
        self.links = links
        self.places = [tuple(start.places(unit, value)) for unit, value in links]
        self.at_cell: dict[Cell, list[int]] = {}
        self.at_cell_value: dict[tuple[Cell, int], list[int]] = {}
        for index, ((_, value), cells) in enumerate(zip(links, self.places)):
            for cell in cells:
                self.at_cell.setdefault(cell, []).append(index)
                self.at_cell_value.setdefault((cell, value), []).append(index)


def _propagate_static(board: Board, links: StaticLinks, digit: int | None, limit: int) -> int:
    """Singles that follow from one placement each (a chain's strong links): a cell that had
    two candidates in ``links.start`` left with one, a value that had two places in a unit of
    ``links.start`` left with one; only of ``digit`` when given.  Until none is left or ``limit``
    are made, the first link in order first.  Contradiction (the first link's in order) only
    where a chain sees one: such a cell left with no candidate, such a value left with no place
    (a cell or unit of more is not followed)."""
    bivalue, bilocal = links.bivalue, links.bilocal(digit)
    candidates, values = board.candidates, board.values
    first_bilocal = len(bivalue)  # links are numbered: the cells, then the (unit, value) pairs
    singles: dict[int, tuple[Cell, int]] = {}
    broken: dict[int, str] = {}

    def look_at_cell(index: int) -> None:
        cell = bivalue[index]
        singles.pop(index, None)
        broken.pop(index, None)
        left = candidates.get(cell)
        if left is not None and len(left) < 2:
            if not left:
                broken[index] = f"{cell_name(cell)} has no candidate left"
                return
            (value,) = left
            if digit is None or value == digit:
                singles[index] = (cell, value)

    def look_at_unit(index: int) -> None:
        unit, value = bilocal.links[index]
        first, second = bilocal.places[index]
        number = first_bilocal + index
        singles.pop(number, None)
        broken.pop(number, None)
        in_first, in_second = value in candidates.get(first, ()), value in candidates.get(second, ())
        if (in_first and in_second) or values.get(first) == value or values.get(second) == value:
            return  # still two places, or placed already: no longer a link
        if in_first or in_second:
            singles[number] = (first if in_first else second, value)
        else:
            broken[number] = f"{symbol_char(value)} has no place in {unit.name}"

    # Every link untouched since ``start`` is a link still (two candidates, two places): only
    # those of the cells that differ (the assumption and what it took) need a look.
    differing = [cell for cell, left in links.start.candidates.items() if candidates.get(cell) != left]
    units: set[int] = set()
    for changed in differing:
        if changed in links.bivalue_at:
            look_at_cell(links.bivalue_at[changed])
        units.update(bilocal.at_cell.get(changed, ()))
    for index in units:
        look_at_unit(index)
    made = 0
    while made < limit:
        if broken:
            raise Contradiction(broken[min(broken)])
        if not singles:
            return made
        cell, value = singles[min(singles)]
        touched = _place_quietly(board, cell, value)
        made += 1
        for changed in touched:
            if changed in links.bivalue_at:
                look_at_cell(links.bivalue_at[changed])
        units = set(bilocal.at_cell.get(cell, ()))
        for changed in touched:
            units.update(bilocal.at_cell_value.get((changed, value), ()))
        for index in units:
            look_at_unit(index)
    return made


def _place_quietly(board: Board, cell: Cell, value: int) -> list[Cell]:
    """Fill ``cell`` and take ``value`` from its peers, leaving a peer with no candidate to
    the caller (a chain sees only what its links reach); the cells changed."""
    del board.candidates[cell]
    board.values[cell] = value
    touched = [cell]
    for peer in board.peers[cell]:
        left = board.candidates.get(peer)
        if left is not None and value in left:
            left.discard(value)
            touched.append(peer)
    return touched


def _singles_sweep(board: Board) -> int:
    """Every hidden single of each unit in turn, then every naked single, in one sweep (the hot
    loop of the chain rungs); Contradiction when a unit lacks a place for a value it needs.
    How many cells it filled."""
    made = 0
    candidates, values, size = board.candidates, board.values, board.size
    for cell, left in candidates.items():
        if not left:
            raise Contradiction(f"{cell_name(cell)} has no candidate left")
    for unit in board.units:
        seen: set[int] = set()
        repeated: set[int] = set()
        placed: set[int] = set()
        for cell in unit.cells:
            held = candidates.get(cell)
            if held is None:
                placed.add(values[cell])
            else:
                repeated |= seen & held
                seen |= held
        if len(seen | placed) < size:
            value = min(set(range(1, size + 1)) - seen - placed)
            raise Contradiction(f"{symbol_char(value)} has no place in {unit.name}")
        alone = seen - repeated
        if alone:
            value = min(alone)
            board.place(next(c for c in unit.cells if value in candidates.get(c, ())), value)
            made += 1
    for cell in [cell for cell, left in candidates.items() if len(left) == 1]:
        last = candidates.get(cell)
        if last is not None:
            (value,) = last
            board.place(cell, value)
            made += 1
    return made


def _propagate_singles(board: Board, limit: int) -> int:
    """Singles swept until none is left or ``limit`` cells are filled; how many it filled."""
    made = 0
    while made < limit:
        swept = _singles_sweep(board)
        if not swept:
            return made
        made += swept
    return made


def _propagate(board: Board, techniques: tuple[Technique, ...], limit: int) -> int:
    """The first step of ``techniques`` applied until none applies or ``limit`` are made
    (Contradiction when the candidates left admit no solution); how many it made."""
    made = 0
    while made < limit:
        made += _propagate_singles(board, limit - made)
        step = next((s for t in techniques for s in [t(board)] if s), None)
        if step is None:
            return made
        board.apply(step)
        made += 1
    return made


def length_bonus(length: int) -> float:
    """A tenth for each doubling of the propagation's length beyond two (SE's longer chains
    rate higher, by tenths)."""
    return 0.1 * max(0, int(log2(max(length, 1) / 2)))


#: how a chain rung propagates an assumption: ``prepare(start)`` (what the rung finds once per
#: board) returns ``propagate(trial, value, most steps)``, the number of steps made
Propagation = Callable[[Board], Callable[[Board, int, int], int]]


def _contradictions(board: Board, prepare: Propagation, name: str) -> Step | None:
    """The candidate whose assumption ``prepare(board)`` (trial, value, most steps) takes to
    a contradiction in the fewest steps (SE chooses the shortest chain): it goes, rated by
    :data:`CHAINS` (its base plus :func:`length_bonus`, at most its top).  A trial stops at the shortest length found so far, and the
    scan at the first contradiction rated no higher than ``board.settle`` (a rating the path
    already has: it cannot change the puzzle's)."""
    base, top = CHAINS[name]
    best: tuple[int, Cell, int, str] | None = None
    limit = board.size * board.size * board.size
    propagate = prepare(board)
    for cell, left in board.candidates.items():
        for value in sorted(left):
            if board.deadline.passed():
                raise TimeLimitReached("time limit reached while rating")
            trial = board.copy()
            try:
                trial.place(cell, value)
                propagate(trial, value, limit)
            except Contradiction as why:
                length = len(board.candidates) - len(trial.candidates)  # the placements it took
                if best is None or length < best[0]:
                    best = (length, cell, value, str(why))  # (a contradiction's words)
                    limit = length
            if best is not None and min(base + length_bonus(best[0]), top) <= board.settle:
                break
        else:
            continue
        break
    if best is None:
        return None
    length, cell, value, reason = best

    def recheck(other: Board) -> bool:
        """Whether assuming the candidate still leads ``propagate`` to a contradiction."""
        if value not in other.candidates.get(cell, ()):
            return False
        trial = other.copy()
        try:
            trial.place(cell, value)
            prepare(other)(trial, value, other.size**3)
        except Contradiction:
            return True
        return False

    return Step(
        name,
        (cell,),
        f"if {cell_name(cell)} were {symbol_char(value)}, then {reason}: it is not {symbol_char(value)}",
        eliminate=((cell, value),),
        requires=None,
        rating=round(min(base + length_bonus(length), top), 1),
        recheck=recheck,
    )


def one_digit_forcing_chain(board: Board) -> Step | None:
    def prepare(start: Board) -> Callable[[Board, int, int], int]:
        links = StaticLinks(start)
        return lambda trial, value, limit: _propagate_static(trial, links, value, limit)

    return _contradictions(board, prepare, "one-digit forcing chain")


def forcing_chain(board: Board) -> Step | None:
    def prepare(start: Board) -> Callable[[Board, int, int], int]:
        links = StaticLinks(start)
        return lambda trial, _value, limit: _propagate_static(trial, links, None, limit)

    return _contradictions(board, prepare, "forcing chain")


def nishio(board: Board) -> Step | None:
    return _contradictions(board, lambda _start: _propagate_digit, "nishio")


def dynamic_forcing_chain(board: Board) -> Step | None:
    return _contradictions(
        board,
        lambda _start: lambda trial, _value, limit: _propagate_singles(trial, limit),
        "dynamic forcing chain",
    )


def dynamic_forcing_chain_plus(board: Board) -> Step | None:
    return _contradictions(
        board,
        lambda _start: lambda trial, _value, limit: _propagate(trial, BELOW_CHAINS, limit),
        "dynamic forcing chain (+)",
    )


#: SE's ladder: (base difficulty, technique), in the order SE tries them (easiest first)
SE_LADDER: tuple[tuple[float, Technique], ...] = (
    (1.0, full_house),
    (1.2, hidden_single_in_block),
    (1.5, hidden_single_in_line),
    (1.7, direct_pointing),
    (1.9, direct_claiming),
    (2.0, direct_hidden_pair),
    (2.3, naked_single),
    (2.5, direct_hidden_triple),
    (2.6, pointing),
    (2.8, claiming),
    (3.0, naked_pair),
    (3.2, x_wing),
    (3.4, hidden_pair),
    (3.6, naked_triple),
    (3.8, swordfish),
    (4.0, hidden_triple),
    (4.2, xy_wing),
    (4.4, xyz_wing),
    (4.5, unique_rectangle),
    (4.6, unique_rectangle_2_4),
    (4.6, unique_loop),
    (5.0, naked_quad),
    (5.2, jellyfish),
    (5.4, hidden_quad),
    (5.6, bug_plus_one),
    (CHAINS["one-digit forcing chain"][0], one_digit_forcing_chain),
    (CHAINS["forcing chain"][0], forcing_chain),
    (CHAINS["nishio"][0], nishio),
    (CHAINS["dynamic forcing chain"][0], dynamic_forcing_chain),
    (CHAINS["dynamic forcing chain (+)"][0], dynamic_forcing_chain_plus),
)
#: the rungs a "contradiction by the ladder" propagates with after the singles: intersections, pairs,
#: triples and X-wing (the wings, rectangles and quads as well made it ten times slower and
#: changed no rating of the calibration set)
BELOW_CHAINS: tuple[Technique, ...] = (
    pointing,
    claiming,
    naked_pair,
    x_wing,
    hidden_pair,
    naked_triple,
    hidden_triple,
)


def difficulty_of(step: Step) -> float:
    """A step's rating: its own (a chain's) or its technique's base."""
    return step.rating if step.rating is not None else BASE_RATING[step.technique]


def next_rated_step(board: Board) -> tuple[float, Step] | None:
    """The first deduction of the easiest technique of :data:`SE_LADDER` that makes one."""
    for base, technique in SE_LADDER:
        step = technique(board)
        if step is not None:
            if step.rating is None and step.technique == "hidden single":
                step = _rated(step, rating=base)
            assert step is not None
            return difficulty_of(step), step
    return None


@dataclass
class Rating:
    """A puzzle solved along SE's ladder: the path, ER, EP and ED, and whether it finished."""

    steps: list[Step]
    board: Board
    er: float
    ep: float
    ed: float
    solved: bool

    def to_json(self) -> dict[str, float]:
        return {"rating": self.er, "rating_ep": self.ep, "rating_ed": self.ed}


def rate(puzzle: Sudoku, deadline: Deadline = Deadline(None)) -> Rating:
    """Solve along :data:`SE_LADDER`; ER is the hardest step (:data:`NEEDS_SEARCH_RATING` when
    the ladder is stuck), EP the hardest up to the first placement, ED the first step's.
    Raises Contradiction if the givens clash, TimeLimitReached when ``deadline`` passes."""
    from .variants import refuse_constraints

    refuse_constraints(puzzle.constraints, "the Sudoku Explainer rating")
    board = Board.of(puzzle)
    board.deadline = deadline
    steps: list[Step] = []
    ratings: list[float] = []
    first_placement: int | None = None
    solved = True
    while not board.solved:
        found = next_rated_step(board)
        if found is None:
            solved = False
            ratings.append(NEEDS_SEARCH_RATING)
            break
        difficulty, step = found
        steps.append(step)
        ratings.append(difficulty)
        board.settle = max(ratings)
        if step.place is not None and first_placement is None:
            first_placement = len(ratings)
        board.apply(step)
    if not ratings:
        return Rating(steps, board, 0.0, 0.0, 0.0, True)
    until = first_placement or len(ratings)
    return Rating(steps, board, max(ratings), max(ratings[:until]), ratings[0], solved)


def path_json(puzzle: Sudoku, deadline: Deadline = Deadline(None)) -> dict:
    """The whole logical path along :data:`SE_LADDER`, as the interfaces show it (cells
    1-based), close to the step lists of Sudoku Explainer and HoDoKu: per step its number,
    technique, rating, the cells it uses with their candidates then, what it places and
    eliminates, and its text; then ER/EP/ED and whether the ladder reached the solution."""
    rated = rate(puzzle, deadline)
    board = Board.of(puzzle)
    steps = []
    for number, step in enumerate(rated.steps, 1):
        used = [
            {"row": r + 1, "col": c + 1, "candidates": sorted(board.candidates[r, c])}
            for r, c in step.because
            if (r, c) in board.candidates
        ]
        entry: dict = {"step": number, "technique": step.technique, "rating": difficulty_of(step)}
        entry["cells"] = used
        if step.place is not None:
            (r, c), value = step.place
            entry["place"] = {"row": r + 1, "col": c + 1, "value": value}
        entry["eliminate"] = [{"row": r + 1, "col": c + 1, "value": v} for (r, c), v in step.eliminate]
        entry["text"] = step.text
        steps.append(entry)
        board.apply(step)
    return {
        "solved": rated.solved,
        **rated.to_json(),
        "steps": steps,
        "grid": [[rated.board.values.get((r, c), 0) for c in range(puzzle.size)] for r in range(puzzle.size)],
    }
