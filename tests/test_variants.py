"""Variant Sudoku rules: the encoding (variant_rules) and the checker (variant_checks) agree.

* on random full grids, per rule family, a grid passes the checker exactly when the model with
  that grid fixed is satisfiable (both say the same about every rule, true or false);
* on 4x4, every one of the 288 grids against every global rule; and solution counts of random
  puzzles equal a brute-force count (every grid, filtered by the checker);
* on 6x6, counts of random puzzles with givens equal a brute-force count of their completions;
* make_puzzle refuses rules that cannot be rules of the grid, naming the rule and the cell.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindgames.models.errors import PuzzleError
from mindgames.models.sudoku import compile, count, givens, make_puzzle, shape
from mindgames.models.sudoku.variant_checks import broken_rules
from mindgames.models.sudoku.variants import (
    XV,
    Arrow,
    Cage,
    Candidates,
    Constraints,
    Dot,
    Line,
    LittleKiller,
    Parity,
    Sandwich,
    Thermo,
)
from mindgames.solver import get_engine

Grid = list[list[int]]
Cell = tuple[int, int]
BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3)}


# ---------------------------------------------------------------------------
# Random full grids, and random rules read off them (true about half the time)
# ---------------------------------------------------------------------------
def random_grid(size: int, rng: random.Random) -> Grid:
    """A random valid grid: the standard pattern, digits, rows in bands, bands, columns in stacks
    and stacks shuffled (every one a symmetry of Sudoku with boxes)."""
    rows_per_box, cols_per_box = BOXES[size]

    def shuffled(groups: int, per_group: int) -> list[int]:
        order = rng.sample(range(groups), groups)
        return [g * per_group + i for g in order for i in rng.sample(range(per_group), per_group)]

    row_order = shuffled(cols_per_box, rows_per_box)  # bands: size // rows_per_box of them
    col_order = shuffled(rows_per_box, cols_per_box)
    digits = rng.sample(range(1, size + 1), size)
    pattern = [
        [(cols_per_box * (r % rows_per_box) + r // rows_per_box + c) % size for c in range(size)]
        for r in range(size)
    ]
    return [[digits[pattern[r][c]] for c in col_order] for r in row_order]


def some_cells(size: int, rng: random.Random, count: int) -> tuple[Cell, ...]:
    return tuple(rng.sample([(r, c) for r in range(size) for c in range(size)], count))


def neighbours(size: int, rng: random.Random) -> tuple[Cell, Cell]:
    r, c = rng.randrange(size), rng.randrange(size - 1)
    pair = ((r, c), (r, c + 1))
    return pair if rng.random() < 0.5 else ((c, r), (c + 1, r))


def related_neighbours(
    grid: Grid, rng: random.Random, related: Callable[[int, int], bool]
) -> tuple[Cell, Cell]:
    """Orthogonal neighbours whose digits are ``related``, most of the time (when there are any)."""
    size = len(grid)
    pairs = [
        ((r, c), (r + dr, c + dc))
        for r in range(size)
        for c in range(size)
        for dr, dc in ((0, 1), (1, 0))
        if r + dr < size and c + dc < size and related(grid[r][c], grid[r + dr][c + dc])
    ]
    return rng.choice(pairs) if pairs and rng.random() < 0.8 else neighbours(size, rng)


def nudge(rng: random.Random, total: int, low: int, high: int) -> int:
    """The true total, or one off it (inside the range), at random."""
    return min(high, max(low, total + rng.choice((0, 0, 0, -1, 1, 2))))


def with_values(grid: Grid, rng: random.Random, values: list[int], away_from: set[Cell]) -> tuple[Cell, ...]:
    """A cell holding each of ``values`` (distinct cells, none in ``away_from``); () when impossible."""
    size, chosen = len(grid), []
    for value in values:
        options = [
            (r, c)
            for r in range(size)
            for c in range(size)
            if grid[r][c] == value and (r, c) not in away_from and (r, c) not in chosen
        ]
        if not options:
            return ()
        chosen.append(rng.choice(options))
    return tuple(chosen)


def cage(grid: Grid, rng: random.Random) -> Constraints:
    size = len(grid)
    cells = some_cells(size, rng, rng.randint(1, min(size, 5)))
    k = len(cells)
    total = sum(grid[r][c] for r, c in cells)
    low, high = k * (k + 1) // 2, k * (2 * size - k + 1) // 2
    return Constraints(cages=(Cage(cells, None if rng.random() < 0.2 else nudge(rng, total, low, high)),))


def little_killer(grid: Grid, rng: random.Random) -> Constraints:
    size = len(grid)
    r, c = rng.randrange(size), rng.randrange(size)
    dr, dc = rng.choice(((1, 1), (1, -1), (-1, 1), (-1, -1)))
    cells = []
    while 0 <= r < size and 0 <= c < size:
        cells.append((r, c))
        r, c = r + dr, c + dc
    total = sum(grid[r][c] for r, c in cells)
    return Constraints(
        little_killers=(LittleKiller(tuple(cells), nudge(rng, total, len(cells), size * len(cells))),)
    )


def sandwich(grid: Grid, rng: random.Random) -> Constraints:
    size = len(grid)
    line, index = rng.choice(("row", "column")), rng.randrange(size)
    digits = grid[index] if line == "row" else [row[index] for row in grid]
    a, b = sorted((digits.index(1), digits.index(size)))
    return Constraints(
        sandwiches=(Sandwich(line, index, nudge(rng, sum(digits[a + 1 : b]), 0, sum(range(2, size)))),)
    )


def thermo(grid: Grid, rng: random.Random) -> Constraints:
    size = len(grid)
    cells = list(some_cells(size, rng, rng.randint(2, min(size, 5))))
    if rng.random() < 0.7:
        cells.sort(key=lambda cell: grid[cell[0]][cell[1]])
    return Constraints(thermos=(Thermo(tuple(cells), slow=rng.random() < 0.3),))


def arrow(grid: Grid, rng: random.Random) -> Constraints:
    size = len(grid)
    two = size == 9 and rng.random() < 0.4
    path = some_cells(size, rng, rng.randint(3, 5) if two else rng.randint(1, 2))
    total = sum(grid[r][c] for r, c in path)
    wanted = [total // 10, total % 10] if two else [total]
    circle: tuple[Cell, ...] = ()
    if rng.random() < 0.7 and all(1 <= v <= size for v in wanted):
        circle = with_values(grid, rng, wanted, set(path))
    if not circle:
        circle = tuple(
            rng.sample([cell for cell in some_cells(size, rng, 8) if cell not in path], 2 if two else 1)
        )
    return Constraints(arrows=(Arrow(circle, path),))


def dot(grid: Grid, rng: random.Random) -> Constraints:
    def kropki(u: int, v: int) -> bool:
        return abs(u - v) == 1 or u == 2 * v or v == 2 * u

    pairs = [related_neighbours(grid, rng, kropki) for _ in range(rng.randint(1, 3))]
    dots = {}
    for a, b in pairs:
        u, v = grid[a[0]][a[1]], grid[b[0]][b[1]]
        colour = (
            "white"
            if abs(u - v) == 1
            else "black"
            if u == 2 * v or v == 2 * u
            else rng.choice(("white", "black"))
        )
        dots[frozenset((a, b))] = Dot(
            (a, b), colour if rng.random() < 0.8 else rng.choice(("white", "black"))
        )
    return Constraints(dots=tuple(dots.values()), negative_kropki=rng.random() < 0.2)


def xv(grid: Grid, rng: random.Random) -> Constraints:
    marks = {}
    for _ in range(rng.randint(1, 3)):
        a, b = related_neighbours(grid, rng, lambda u, v: u + v in (5, 10))
        total = grid[a[0]][a[1]] + grid[b[0]][b[1]]
        letter = "X" if total == 10 else "V" if total == 5 else rng.choice(("X", "V"))
        marks[frozenset((a, b))] = XV((a, b), letter if rng.random() < 0.8 else rng.choice(("X", "V")))
    return Constraints(xv=tuple(marks.values()), negative_xv=rng.random() < 0.2)


def line(grid: Grid, rng: random.Random) -> Constraints:
    size = len(grid)
    kind = rng.choice(("whisper", "renban", "palindrome", "between"))
    length = rng.randint(2, min(size, 5))
    cells: tuple[Cell, ...] = ()
    if rng.random() < 0.7:  # try to make it true
        if kind == "whisper":
            least = -(-size // 2)
            values = [
                rng.choice([v for v in range(1, size + 1) if abs(v - 1) >= least or abs(size - v) >= least])
            ]
            for _ in range(length - 1):
                far = [v for v in range(1, size + 1) if abs(v - values[-1]) >= least]
                values.append(rng.choice(far))
        elif kind == "renban":
            low = rng.randint(1, size - length + 1)
            values = rng.sample(range(low, low + length), length)
        elif kind == "palindrome":
            half = [rng.randint(1, size) for _ in range((length + 1) // 2)]
            values = half + half[: length // 2][::-1]
        else:
            low = rng.randint(1, size - 2)
            high = rng.randint(low + 2, size)
            inner = [rng.randint(low + 1, high - 1) for _ in range(length - 2)]
            values = [low, *inner, high] if rng.random() < 0.5 else [high, *inner, low]
        cells = with_values(grid, rng, values, set())
    if not cells:
        cells = some_cells(size, rng, length)
    gap: int | None = rng.choice((None, None, 1, 2)) if kind == "whisper" else None
    return Constraints(lines=(Line(kind, cells, gap),))


def parity(grid: Grid, rng: random.Random) -> Constraints:
    marks = {}
    for cell in some_cells(len(grid), rng, rng.randint(1, 4)):
        odd = grid[cell[0]][cell[1]] % 2 == 1
        if rng.random() < 0.2:
            odd = not odd
        marks[cell] = Parity(cell, "odd" if odd else "even")
    return Constraints(parity=tuple(marks.values()))


def extra_region(grid: Grid, rng: random.Random) -> Constraints:
    size = len(grid)
    return Constraints(extra_regions=(some_cells(size, rng, rng.randint(2, size)),))


def candidates(grid: Grid, rng: random.Random) -> Constraints:
    size = len(grid)
    marks = []
    for cell in some_cells(size, rng, rng.randint(1, 4)):
        digits = set(rng.sample(range(1, size + 1), rng.randint(1, size)))
        if rng.random() < 0.7:
            digits.add(grid[cell[0]][cell[1]])
        marks.append(Candidates(cell, frozenset(digits)))
    return Constraints(candidates=tuple(marks))


def flags(grid: Grid, rng: random.Random) -> Constraints:
    names = (
        "anti_knight",
        "anti_king",
        "non_consecutive",
        "disjoint_groups",
        "negative_kropki",
        "negative_xv",
    )
    return Constraints(**{rng.choice(names): True})


FAMILIES: dict[str, Callable[[Grid, random.Random], Constraints]] = {
    "cage": cage,
    "little killer": little_killer,
    "sandwich": sandwich,
    "thermo": thermo,
    "arrow": arrow,
    "dot": dot,
    "xv": xv,
    "line": line,
    "parity": parity,
    "extra region": extra_region,
    "candidates": candidates,
    "flags": flags,
}


def merged(parts: list[Constraints]) -> Constraints:
    """The rules of several Constraints together (the last flags win)."""
    fields: dict[str, Any] = {}
    for part in parts:
        for name, value in vars(part).items():
            if isinstance(value, tuple):
                fields[name] = (*fields.get(name, ()), *value)
            elif value:
                fields[name] = True
    return Constraints(**fields)


# ---------------------------------------------------------------------------
# The model's word on a grid: satisfiable with every cell fixed?
# ---------------------------------------------------------------------------
def model_accepts(grid: Grid, constraints: Constraints, engine: str = "sat") -> bool:
    puzzle = make_puzzle(grid, constraints=constraints)
    encoding = compile(shape(puzzle))
    return get_engine(engine).prepare(encoding.model).solve(givens(encoding, puzzle)).status == "sat"


@pytest.mark.parametrize("family", FAMILIES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from((4, 6, 9)))
def test_the_checker_passes_a_full_grid_exactly_when_the_model_does(
    family: str, seed: int, size: int
) -> None:
    rng = random.Random(seed)
    grid = random_grid(size, rng)
    constraints = FAMILIES[family](grid, rng)
    checked = broken_rules(constraints, grid, BOXES[size])
    assert (not checked) == model_accepts(grid, constraints), checked


@pytest.mark.parametrize("engine", ["cpsat", "backtrack"])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_engine_agrees_with_the_checker_on_every_family(engine: str, seed: int) -> None:
    rng = random.Random(seed)
    grid = random_grid(6, rng)
    for make in FAMILIES.values():
        constraints = make(grid, rng)
        assert (not broken_rules(constraints, grid, (2, 3))) == model_accepts(grid, constraints, engine)


# ---------------------------------------------------------------------------
# Brute force: 4x4 (all 288 grids) and 6x6 (completions of many givens)
# ---------------------------------------------------------------------------
@lru_cache(maxsize=1)
def every_4x4_grid() -> tuple[tuple[tuple[int, ...], ...], ...]:
    rows = list(itertools.permutations(range(1, 5)))
    found = []
    for grid in itertools.product(rows, repeat=4):
        columns_ok = all(len({row[c] for row in grid}) == 4 for c in range(4))
        boxes_ok = all(
            len({grid[r][c] for r in (top, top + 1) for c in (left, left + 1)}) == 4
            for top in (0, 2)
            for left in (0, 2)
        )
        if columns_ok and boxes_ok:
            found.append(grid)
    return tuple(found)


def test_there_are_288_grids_of_4x4() -> None:
    assert len(every_4x4_grid()) == 288


@pytest.mark.parametrize(
    "flag",
    ["anti_knight", "anti_king", "non_consecutive", "disjoint_groups", "negative_kropki", "negative_xv"],
)
def test_every_4x4_grid_is_judged_alike_by_checker_and_model_under_each_global_rule(flag: str) -> None:
    constraints = Constraints(**{flag: True})
    puzzle = make_puzzle([[0] * 4] * 4, constraints=constraints)
    encoding = compile(shape(puzzle))
    session = get_engine("sat").prepare(encoding.model)
    passing = 0
    for grid in every_4x4_grid():
        fixed = make_puzzle(grid, constraints=constraints)
        accepted = session.solve(givens(encoding, fixed)).status == "sat"
        checked = not broken_rules(constraints, grid, (2, 2))
        assert accepted == checked, (flag, grid)
        passing += checked
    assert count(puzzle).count == passing


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_4x4_counts_equal_a_brute_force_count(seed: int) -> None:
    rng = random.Random(seed)
    truth = [list(row) for row in rng.choice(every_4x4_grid())]
    families = rng.sample(sorted(FAMILIES), rng.randint(1, 3))
    constraints = merged([FAMILIES[name](truth, rng) for name in families])
    givens_kept = [[v if rng.random() < 0.2 else 0 for v in row] for row in truth]
    brute = sum(
        1
        for grid in every_4x4_grid()
        if not broken_rules(constraints, grid, (2, 2))
        and all(g in (0, v) for grow, row in zip(givens_kept, grid) for g, v in zip(grow, row))
    )
    puzzle = make_puzzle(givens_kept, constraints=constraints)
    for engine in ("sat", "cpsat", "backtrack"):
        assert count(puzzle, engine=engine, limit=None).count == brute, (engine, families)


def completions(grid: Grid, box: tuple[int, int]) -> list[Grid]:
    """Every classic completion of ``grid`` (0 blank), by plain search."""
    size = len(grid)
    blanks = [(r, c) for r in range(size) for c in range(size) if not grid[r][c]]
    work = [row[:] for row in grid]
    found: list[Grid] = []

    def allowed(r: int, c: int, v: int) -> bool:
        top, left = r - r % box[0], c - c % box[1]
        return (
            v not in work[r]
            and all(work[i][c] != v for i in range(size))
            and all(work[i][j] != v for i in range(top, top + box[0]) for j in range(left, left + box[1]))
        )

    def search(i: int) -> None:
        if i == len(blanks):
            found.append([row[:] for row in work])
            return
        r, c = blanks[i]
        for v in range(1, size + 1):
            if allowed(r, c, v):
                work[r][c] = v
                search(i + 1)
                work[r][c] = 0

    search(0)
    return found


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_6x6_counts_equal_a_brute_force_count_of_completions(seed: int) -> None:
    rng = random.Random(seed)
    truth = random_grid(6, rng)
    families = rng.sample(sorted(FAMILIES), rng.randint(1, 3))
    constraints = merged([FAMILIES[name](truth, rng) for name in families])
    givens_kept = [[v if rng.random() < 0.45 else 0 for v in row] for row in truth]
    brute = sum(1 for grid in completions(givens_kept, (2, 3)) if not broken_rules(constraints, grid, (2, 3)))
    puzzle = make_puzzle(givens_kept, constraints=constraints)
    assert count(puzzle, limit=None).count == brute, families


# ---------------------------------------------------------------------------
# Rules that cannot be rules of the grid: refused, the rule and the cell named
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("constraints", "message"),
    [
        (Constraints(cages=(Cage(((0, 0), (0, 0)), 3),)), "cage 1 (r1c1): cell r1c1 appears twice"),
        (Constraints(cages=(Cage(((0, 0), (0, 1)), 18),)), "cage 1 (r1c1): total 18 is out of range (3..17"),
        (Constraints(cages=(Cage(((0, 0), (9, 0)), 5),)), "cage 1: cell (9, 0) is outside the 9x9 grid"),
        (Constraints(dots=(Dot(((0, 0), (1, 1)), "white"),)), "dot between r1c1 and r2c2: the cells are not"),
        (Constraints(xv=(XV(((2, 2), (2, 4)), "X"),)), "XV between r3c3 and r3c5"),
        (Constraints(thermos=(Thermo(((4, 4),)),)), "thermo 1 (r5c5): it needs at least 2 cells"),
        (Constraints(lines=(Line("renban", ((0, 0),)),)), "renban line 1 (r1c1): it needs at least 2 cells"),
        (Constraints(lines=(Line("whisper", ((0, 0), (0, 1)), 9),)), "gap 9 is out of range (1..8)"),
        (Constraints(arrows=(Arrow(((0, 0),), ((0, 0),)),)), "arrow 1 (r1c1): cell r1c1 appears twice"),
        (
            Constraints(sandwiches=(Sandwich("row", 0, 36),)),
            "sandwich row 1: total 36 is out of range (0..35",
        ),
        (Constraints(little_killers=(LittleKiller(((0, 0), (1, 0)), 5),)), "do not run along one diagonal"),
        (
            Constraints(parity=(Parity((0, 0), "even"), Parity((0, 0), "odd"))),
            "parity (r1c1): both even and odd",
        ),
        (Constraints(candidates=(Candidates((3, 3), frozenset({0, 1})),)), "candidates (r4c4): candidates"),
        (
            Constraints(extra_regions=(tuple((0, c) for c in range(9)) + ((1, 0),),)),
            "10 cells cannot hold distinct",
        ),
    ],
)
def test_rules_that_do_not_fit_the_grid_are_refused_by_name(constraints: Constraints, message: str) -> None:
    with pytest.raises(PuzzleError, match=None) as raised:
        make_puzzle([[0] * 9] * 9, constraints=constraints)
    assert message in str(raised.value)


def test_disjoint_groups_need_boxes() -> None:
    labels = ["AABB", "AABB", "CCDD", "CCDD"]
    with pytest.raises(PuzzleError, match="disjoint groups"):
        make_puzzle([[0] * 4] * 4, region_labels=labels, constraints=Constraints(disjoint_groups=True))


def test_the_variant_names_the_rule_families() -> None:
    constraints = Constraints(cages=(Cage(((0, 0), (0, 1)), 3),), anti_knight=True)
    assert make_puzzle([[0] * 9] * 9, constraints=constraints).variant == "9x9, 3x3 boxes, cages, anti knight"


def test_whispers_gap_is_half_the_size_rounded_up_unless_given() -> None:
    whisper = Line("whisper", ((0, 0), (0, 1)))
    assert [whisper.whisper_gap(n) for n in (4, 6, 9, 16)] == [2, 3, 5, 8]
    assert Line("whisper", ((0, 0), (0, 1)), gap=4).whisper_gap(9) == 4
