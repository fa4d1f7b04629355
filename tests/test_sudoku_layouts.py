"""A jigsaw is answered on a model of its own puzzle (what its givens force built in), or,
for a certified answer, on the model every layout of its size shares: either way a solver
reused across many layouts answers exactly as a fresh solver on the layout's own model does."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindgames.models import sudoku
from mindgames.models.kind import GridKind
from mindgames.models.runner import SHAPES_KEPT, PuzzleSolver
from mindgames.models.sudoku import SudokuKind, rules
from tests.conftest import shared_file


class OwnModels(SudokuKind):
    """The Sudoku kind with a model of its own for every layout (as before layouts shared one)."""

    compile = staticmethod(rules.compile_alone)
    compile_puzzle = GridKind.compile_puzzle  # the default, no model of the puzzle alone: the layout's


def janko_lines() -> list[tuple[str, str, str]]:
    text = shared_file("sudoku", "jigsaw9_janko_66.txt").read_text()
    return [tuple(line.split()) for line in text.split("\n") if line.strip()]


def transformed(line: str, turns: int, mirrored: bool) -> str:
    """A 9x9 grid of characters turned ``turns`` quarter turns, then mirrored: rows and
    columns stay rows and columns, so a layout and its puzzle stay a layout and a puzzle."""
    rows = [line[r * 9 : (r + 1) * 9] for r in range(9)]
    for _ in range(turns):
        rows = ["".join(rows[8 - r][c] for r in range(9)) for c in range(9)]
    if mirrored:
        rows = [row[::-1] for row in rows]
    return "".join(rows)


def latin_layout(size: int, rng: random.Random) -> tuple[list[list[int]], list[list[int]]]:
    """A random solution grid of rows and columns, and a random layout it fits: each region
    gets one cell of every symbol (regions need not be connected: the rules do not ask it)."""
    shift = rng.sample(range(size), size)
    symbols = rng.sample(range(1, size + 1), size)
    order = rng.sample(range(size), size)
    grid = [[symbols[(shift[r] + order[c]) % size] for c in range(size)] for r in range(size)]
    regions = [[0] * size for _ in range(size)]
    for value in range(1, size + 1):
        where = [(r, c) for r in range(size) for c in range(size) if grid[r][c] == value]
        for region, (r, c) in zip(rng.sample(range(size), size), where):
            regions[r][c] = region
    return grid, regions


def same_answers(reused: PuzzleSolver, puzzle: sudoku.Sudoku) -> None:
    fresh = PuzzleSolver(OwnModels(), "sat")
    for ask in ("solve", "check"):
        mine, theirs = getattr(reused, ask)(puzzle), getattr(fresh, ask)(puzzle)
        assert (mine.status, mine.uniqueness) == (theirs.status, theirs.uniqueness)
        if mine.uniqueness == "unique":
            assert mine.solution == theirs.solution
    assert reused.count(puzzle, limit=5).count == fresh.count(puzzle, limit=5).count


REUSED = PuzzleSolver(sudoku.SUDOKU, "sat")  # one solver for every example below


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    turns=st.integers(0, 3),
    mirrored=st.booleans(),
    dropped=st.integers(0, 12),
    extra=st.booleans(),
)
def test_a_solver_reused_across_janko_layouts_answers_as_a_fresh_one(data, turns, mirrored, dropped, extra):
    text, regions, solution = data.draw(st.sampled_from(janko_lines()))
    text, regions, solution = (transformed(t, turns, mirrored) for t in (text, regions, solution))
    cells = list(text)
    given_at = [i for i, ch in enumerate(cells) if ch != "."]
    for i in data.draw(st.lists(st.sampled_from(given_at), max_size=dropped, unique=True)):
        cells[i] = "."  # fewer givens: often several solutions
    if extra:  # one more given, right or wrong: unique, or no solution at all
        i = data.draw(st.sampled_from([i for i, ch in enumerate(cells) if ch == "."]))
        cells[i] = data.draw(st.sampled_from("123456789"))
    puzzle = sudoku.parse_line(f"{''.join(cells)} {regions}")
    same_answers(REUSED, puzzle)
    if not dropped and not extra:
        assert sudoku.to_line(REUSED.solve(puzzle).solution) == solution


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.sampled_from([4, 6, 9]), blank=st.floats(0.3, 0.9))
def test_a_solver_reused_across_random_layouts_answers_as_a_fresh_one(seed, size, blank):
    rng = random.Random(seed)
    grid, regions = latin_layout(size, rng)
    cut = [[0 if rng.random() < blank else v for v in row] for row in grid]
    puzzle = sudoku.make_puzzle(cut, region_labels=regions)
    same_answers(REUSED, puzzle)
    assert REUSED.solve(puzzle).status == "solved"  # the grid it was cut from fits


def test_every_layout_of_a_size_is_answered_by_one_session_and_the_shapes_kept_are_bounded():
    """The shape's sessions (what certified answers use): one for every layout of a size."""
    solver = PuzzleSolver(sudoku.SUDOKU, "sat")
    rng = random.Random(7)
    for _ in range(SHAPES_KEPT + 20):
        grid, regions = latin_layout(6, rng)
        solver.session(sudoku.make_puzzle(grid, region_labels=regions))
    assert len(solver._sessions) == 1
    assert len(solver._encodings) == SHAPES_KEPT


def test_a_jigsaw_is_solved_on_a_model_of_its_own_that_no_solver_keeps():
    solver = PuzzleSolver(sudoku.SUDOKU, "sat")
    rng = random.Random(8)
    for _ in range(50):
        grid, regions = latin_layout(6, rng)
        cut = [[v if rng.random() < 0.4 else 0 for v in row] for row in grid]
        puzzle = sudoku.make_puzzle(cut, region_labels=regions)
        assert solver.solve(puzzle).status == "solved"
        assert solver.check(puzzle).status == "solved"
    assert len(solver._sessions) == len(solver._encodings) == 0


def test_what_the_givens_force_is_built_into_a_jigsaws_own_model():
    text, regions, solution = janko_lines()[0]  # singles and locked candidates solve it
    encoding = rules.compile_puzzle(sudoku.parse_line(f"{text} {regions}"))
    assert encoding.model.num_vars == 0 and sudoku.to_line(rules.decode(encoding, [])) == solution
    clashing = sudoku.parse_line(f"11{text[2:]} {regions}")  # two 1s in row 1
    assert rules.compile_puzzle(clashing).model.clauses == [(1,), (-1,)]  # no solution
    assert rules.compile_puzzle(sudoku.parse_line("." * 81)) is None  # boxes: the shape's model


def test_a_layout_is_assumed_not_built_into_the_model():
    lines = janko_lines()[:2]
    first, second = (rules.compile(sudoku.shape(sudoku.parse_line(f"{t} {r}"))) for t, r, _ in lines)
    assert first.model is second.model and first.fixed != second.fixed
    assert len(first.fixed) == len(second.fixed) == 81  # each cell's region


def test_larger_jigsaws_keep_a_model_per_layout():
    grid, regions = latin_layout(rules.SHARED_LAYOUT_MAX_SIZE + 1, random.Random(3))
    encoding = rules.compile(sudoku.shape(sudoku.make_puzzle(grid, region_labels=regions)))
    assert encoding.fixed == ()


def test_only_the_incremental_engine_shares_the_layouts_model():
    """Backtracking would not prune on regions reached only through helper variables, and
    CP-SAT keeps no warm solver to share: they get each layout's own model."""
    grid, regions = latin_layout(6, random.Random(4))
    puzzle = sudoku.make_puzzle(grid, region_labels=regions)
    assert PuzzleSolver(sudoku.SUDOKU, "sat").session(puzzle)[0].fixed != ()
    for engine in ("cpsat", "backtrack"):
        assert PuzzleSolver(sudoku.SUDOKU, engine).session(puzzle)[0].fixed == ()


def test_a_nearly_blank_jigsaw_is_left_to_its_layouts_model_which_then_answers_that_layout():
    """As a generator asks: a blank layout first, then the same layout with givens."""
    grid, regions = latin_layout(6, random.Random(6))
    blank = sudoku.make_puzzle([[0] * 6 for _ in range(6)], region_labels=regions)
    assert rules.compile_puzzle(blank) is None
    solver = PuzzleSolver(sudoku.SUDOKU, "sat")
    assert solver.solve(blank).status == "solved" and len(solver._encodings) == 1
    clued = sudoku.make_puzzle(grid, region_labels=regions)
    assert rules.compile_puzzle(clued) is not None
    assert solver._question(clued)[0].fixed != ()  # the layout's warm model, not a new one
    assert solver.solve(clued).solution == grid


def test_a_large_jigsaws_long_groups_stay_cardinality_constraints():
    """Pairwise, "exactly one of 30 cells" alone would be 436 clauses."""
    grid, regions = latin_layout(35, random.Random(0))
    rng = random.Random(0)
    cut = [[v if rng.random() < 0.27 else 0 for v in row] for row in grid]
    model = rules.compile_puzzle(sudoku.make_puzzle(cut, region_labels=regions)).model
    assert model.cardinalities
    assert all(len(card.literals) > rules.PAIRWISE_AT_MOST for card in model.cardinalities)
