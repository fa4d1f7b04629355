"""The Sudoku family as a specification: rules, formats, answers on every engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindgames.models import sudoku
from mindgames.models.errors import PuzzleError
from mindgames.solver import ENGINE_NAMES
from tests.conftest import shared_file

ENGINES = list(ENGINE_NAMES)

# The seed chapter's own puzzle (startState) and the Wikipedia puzzle it quotes (stateWiki).
SEED_PUZZLE = ".6.798.127941.5.682.14..957...21.5...563..241.1254.73963.874...1.56.28..4289.1.7."
SEED_SOLUTION = "563798412794125368281463957347219586956387241812546739639874125175632894428951673"
WIKI_PUZZLE = ".3..........195.....8....6.8...6....4..8....1....2.....6....28....419..5.......7."
WIKI_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def pattern_grid(box_rows: int, box_cols: int) -> list[list[int]]:
    """A valid complete grid for any box shape (shifted rows)."""
    n = box_rows * box_cols
    return [[(box_cols * (r % box_rows) + r // box_rows + c) % n + 1 for c in range(n)] for r in range(n)]


def blank(grid: list[list[int]], cells: int, rng: random.Random) -> list[list[int]]:
    n = len(grid)
    puzzle = [row[:] for row in grid]
    for index in rng.sample(range(n * n), cells):
        puzzle[index // n][index % n] = 0
    return puzzle


# --- the model ---------------------------------------------------------------
@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3)])
def test_the_cells_choices_are_the_primary_variables_row_major_values_in_order(box):
    """The layout the engines' fast paths rely on (sat blocks on a primary prefix 1..N**3)."""
    encoding = sudoku.compile(sudoku.shape(sudoku.SUDOKU.empty(box=box)))
    size = box[0] * box[1]
    in_order = [cell.is_(v) for row in encoding.cells for cell in row for v in range(1, size + 1)]
    assert in_order == list(range(1, size**3 + 1)) == encoding.model.primary


def test_the_shape_names_what_the_rules_depend_on():
    shape = sudoku.shape(sudoku.parse_line("." * 36, variant=sudoku.Variant((3, 2), True, "--box")))
    assert (shape.size, shape.box, shape.regions, shape.diagonals) == (6, (3, 2), None, True)


def test_givens_and_decoding_go_through_the_cells_choices():
    puzzle = sudoku.parse(SEED_PUZZLE)
    encoding = sudoku.compile(sudoku.shape(puzzle))
    assert sudoku.givens(encoding, puzzle)[0] == encoding.cells[0][1].is_(6)
    answer = sudoku.solve(puzzle).solution
    truth = {cell.is_(answer[r][c]) for r, row in enumerate(encoding.cells) for c, cell in enumerate(row)}
    assignment = [v if v in truth else -v for v in range(1, encoding.model.num_vars + 1)]
    assert sudoku.decode(encoding, assignment) == answer
    assignment[0] = 1  # r1c1 holds 1 as well as its value: not one value per cell
    assert sudoku.decode(encoding, assignment)[0][0] == 1  # the smallest true value


# --- the seeds -------------------------------------------------------------
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("puzzle, solution", [(SEED_PUZZLE, SEED_SOLUTION), (WIKI_PUZZLE, WIKI_SOLUTION)])
def test_the_seed_puzzles_have_their_known_unique_solutions(engine, puzzle, solution):
    if engine == "backtrack" and puzzle == WIKI_PUZZLE:
        pytest.skip("the textbook search needs ~10^8 tries for this one (see BENCHMARKS.md)")
    result = sudoku.check(sudoku.parse(puzzle), engine)
    assert result.status == "solved" and result.uniqueness == "unique"
    assert sudoku.to_line(result.solution) == solution


def test_the_seeds_list_of_rows_format_is_read():
    rows = [[int(ch) if ch != "." else 0 for ch in SEED_PUZZLE[r * 9 : r * 9 + 9]] for r in range(9)]
    assert sudoku.parse(str(rows)).grid == sudoku.parse(SEED_PUZZLE).grid


# --- counting and uniqueness ----------------------------------------------
@pytest.mark.parametrize("engine", ENGINES)
def test_there_are_288_complete_4x4_grids(engine):
    empty = sudoku.parse("." * 16)
    result = sudoku.count(empty, engine)
    assert (result.count, result.complete) == (288, True)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_puzzle_with_several_solutions_is_multiple_with_two_verified_witnesses(engine):
    puzzle = sudoku.parse(SEED_SOLUTION[:45] + "." * 36)  # bottom four rows blank: many completions
    result = sudoku.check(puzzle, engine)
    assert result.uniqueness == "multiple"
    first, second = result.solutions
    assert first != second
    assert sudoku.verify(puzzle, first) == [] and sudoku.verify(puzzle, second) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_contradicting_givens_are_unsolvable_and_the_message_names_the_clash(engine):
    puzzle = sudoku.parse("55" + "." * 79)
    for result in (sudoku.solve(puzzle, engine), sudoku.check(puzzle, engine)):
        assert result.status == "unsolvable"
        assert "5 appears twice in row 1 (r1c1 and r1c2)" in result.message


@pytest.mark.parametrize("engine", ENGINES)
def test_givens_that_clash_only_through_search_are_unsolvable(engine):
    # Row 1 needs a 9 in r1c9, but column 9 already has one further down.
    puzzle = sudoku.parse("12345678." + "." * 8 + "9" + "." * 63)
    result = sudoku.solve(puzzle, engine, time_limit=30)
    assert result.status == "unsolvable"


# --- variants and sizes -----------------------------------------------------
@pytest.mark.parametrize("engine", ["sat", "cpsat"])
@pytest.mark.parametrize("box", [(2, 3), (2, 4), (3, 4), (4, 4), (5, 5)])
def test_every_box_shape_is_solved(engine, box):
    rng = random.Random(sum(box))
    grid = pattern_grid(*box)
    puzzle = sudoku.make_puzzle(blank(grid, len(grid) ** 2 // 2, rng), box=list(box))
    result = sudoku.solve(puzzle, engine)
    assert result.status == "solved"
    assert sudoku.verify(puzzle, result.solution) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_x_sudoku_solutions_hold_every_symbol_once_on_both_diagonals(engine):
    x_empty = sudoku.make_puzzle([[0] * 4 for _ in range(4)], with_diagonals=True)
    counted = sudoku.count(x_empty, engine)
    assert counted.complete and 0 < counted.count < 288
    solution = sudoku.solve(x_empty, engine).solution
    assert len({solution[i][i] for i in range(4)}) == 4
    assert len({solution[i][3 - i] for i in range(4)}) == 4


def test_x_sudoku_counts_agree_across_engines_on_a_6x6():
    puzzle = sudoku.make_puzzle(blank(sudoku_x_6x6(), 24, random.Random(3)), with_diagonals=True)
    counts = {engine: sudoku.count(puzzle, engine).count for engine in ENGINES}
    assert len(set(counts.values())) == 1, counts


def sudoku_x_6x6() -> list[list[int]]:
    empty = sudoku.make_puzzle([[0] * 6 for _ in range(6)], with_diagonals=True)
    return sudoku.solve(empty, "sat").solution


JIGSAW = {  # a 6x6 jigsaw: region labels, and a puzzle made from one of its solutions
    "regions": ["AABABB", "AAABBB", "CCCDDD", "CCCDDD", "EEFFFF", "EEEEFF"],
}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_jigsaw_puzzle_follows_its_regions_not_boxes(engine):
    regions = [list(row) for row in JIGSAW["regions"]]
    empty = sudoku.make_puzzle([[0] * 6 for _ in range(6)], region_labels=regions)
    full = sudoku.solve(empty, "sat").solution
    puzzle = sudoku.make_puzzle(blank(full, 20, random.Random(5)), region_labels=regions)
    result = sudoku.solve(puzzle, engine)
    assert result.status == "solved"
    for label in "ABCDEF":
        cells = [(r, c) for r in range(6) for c in range(6) if regions[r][c] == label]
        assert sorted(result.solution[r][c] for r, c in cells) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_jigsaw_layout_without_any_solution_is_unsolvable_not_an_error(engine):
    # Two cell swaps between the 2x3 boxes leave no Latin square that fits the regions.
    layout = ["AAABBB", "AACBBB", "CCADDD", "CCCDDF", "EEEFFD", "EEEFFF"]
    empty = sudoku.make_puzzle([[0] * 6 for _ in range(6)], region_labels=[list(r) for r in layout])
    assert sudoku.solve(empty, engine).status == "unsolvable"


def test_janko_jigsaw_puzzles_are_solved_to_their_published_solutions():
    lines = shared_file("sudoku", "jigsaw9_janko_66.txt").read_text().split("\n")[:10]
    solver = sudoku.solver("sat")
    for line in lines:
        puzzle_text, regions, expected = line.split()
        result = solver.check(sudoku.parse_line(f"{puzzle_text} {regions}"))
        assert result.uniqueness == "unique"
        assert sudoku.to_line(result.solution) == expected


def test_janko_16x16_puzzles_are_solved_to_their_published_solutions():
    puzzles = shared_file("sudoku", "sudoku16_janko_62.txt").read_text().split()[:5]
    solutions = shared_file("sudoku", "sudoku16_janko_62_solutions.txt").read_text().split()[:5]
    solver = sudoku.solver("sat")
    for text, expected in zip(puzzles, solutions):
        assert sudoku.to_line(solver.solve(sudoku.parse(text)).solution) == expected


# --- properties --------------------------------------------------------------
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), blanks=st.integers(0, 30), box=st.sampled_from([(2, 2), (2, 3), (3, 3)]))
def test_engines_agree_on_puzzles_cut_from_a_valid_grid(seed, blanks, box):
    rng = random.Random(seed)
    grid = pattern_grid(*box)
    digits = list(range(1, len(grid) + 1))
    rng.shuffle(digits)  # relabel the symbols: still a valid grid
    grid = [[digits[v - 1] for v in row] for row in grid]
    puzzle = sudoku.make_puzzle(blank(grid, min(blanks, len(grid) ** 2), rng), box=list(box))
    answers = {}
    for engine in ENGINES:
        result = sudoku.check(puzzle, engine)
        assert result.status == "solved"  # cut from a valid grid: always solvable
        for solution in result.solutions:
            assert sudoku.verify(puzzle, solution) == []
            assert all(g in (0, s) for gr, sr in zip(puzzle.grid, solution) for g, s in zip(gr, sr))
        answers[engine] = result.uniqueness
    assert len(set(answers.values())) == 1, answers


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from("123456789.ABZ#x 0|-+\n"), max_size=200))
def test_any_text_either_parses_or_raises_a_puzzle_error(chars):
    text = "".join(chars)
    for item in sudoku.read(text):
        assert isinstance(item.puzzle, sudoku.Sudoku) if item.ok else isinstance(item.error, PuzzleError)


# --- verify ------------------------------------------------------------------
def test_verify_names_the_broken_rule():
    puzzle = sudoku.parse(SEED_PUZZLE)
    solution = [[int(ch) for ch in SEED_SOLUTION[r * 9 : r * 9 + 9]] for r in range(9)]
    assert sudoku.verify(puzzle, solution) == []
    solution[0][0], solution[0][2] = solution[0][2], solution[0][0]  # swap two filled cells of row 1
    problems = sudoku.verify(puzzle, solution)
    assert any("column 1 holds" in p for p in problems)
    solution[0][1] = 9  # overwrite a given
    assert any("r1c2 holds 9, but the given is 6" in p for p in sudoku.verify(puzzle, solution))


# --- formats -----------------------------------------------------------------
def test_a_grid_drawn_with_separators_reads_like_the_line():
    drawn = "\n".join(
        [
            ". 6 . | 7 9 8 | . 1 2",
            "7 9 4 | 1 . 5 | . 6 8",
            "2 . 1 | 4 . . | 9 5 7",
            "------+-------+------",
            ". . . | 2 1 . | 5 . .",
            ". 5 6 | 3 . . | 2 4 1",
            ". 1 2 | 5 4 . | 7 3 9",
            "------+-------+------",
            "6 3 . | 8 7 4 | . . .",
            "1 . 5 | 6 . 2 | 8 . .",
            "4 2 8 | 9 . 1 | . 7 .",
        ]
    )
    assert sudoku.parse(drawn).grid == sudoku.parse(SEED_PUZZLE).grid


def test_json_object_with_box_diagonals_and_regions():
    puzzle = sudoku.parse('{"grid": [[0,0,0,0,0,0]]}'.replace("]]", "]" + ",[0,0,0,0,0,0]" * 5 + "]"))
    assert puzzle.box == (2, 3)
    tall = sudoku.parse('{"grid": "' + "." * 36 + '", "box": [3, 2], "diagonals": true}')
    assert tall.box == (3, 2) and tall.diagonals
    jig = sudoku.parse('{"grid": "' + "." * 36 + '", "regions": "' + "".join(JIGSAW["regions"]) + '"}')
    assert jig.regions is not None and jig.box is None


def test_a_collection_reads_in_order_and_keeps_bad_lines_as_errors():
    text = f"# two puzzles and a bad one\n{SEED_PUZZLE}\n\n{'%' * 81}\n{WIKI_PUZZLE}\n"
    items = list(sudoku.read(text))
    assert isinstance(items[0].puzzle, sudoku.Sudoku) and isinstance(items[2].puzzle, sudoku.Sudoku)
    assert not items[1].ok and "line 4, character 1: unknown symbol '%'" in str(items[1].error)


def test_larger_sizes_use_letters():
    puzzle = sudoku.parse("G" + "." * 255)
    assert puzzle.size == 16 and puzzle.grid[0][0] == 16 and puzzle.box == (4, 4)


@pytest.mark.parametrize(
    "text, message",
    [
        ("1" * 80, "80 cells do not make a square grid"),
        ("5" + "." * 15 + "x", "17 cells"),
        ("9" + "." * 15, "r1c1: '9' is out of range for a 4x4 Sudoku (1..4)"),
        ("." * 49, "size 7 has no box shape"),
        ('{"grid": "' + "." * 36 + '", "regions": "' + "A" * 7 + "B" * 29 + '"}', "needs 6 regions, found 2"),
        ('{"grid": "' + "." * 16 + '", "regions": "AAAABBBBCCCCDDDC"}', "region C has 5 cells, it needs 4"),
        ('{"grid": "' + "." * 16 + '", "box": [3, 2]}', "box [3, 2] does not tile a 4x4 grid"),
        ('{"grid": "' + "." * 16 + '", "colour": "red"}', "unknown key 'colour'"),
        ("[[1, 2, 3, 4], [1, 2, 3], [0,0,0,0], [0,0,0,0]]", "row 2 has 3 cells"),
        ("[[1, 2, 3, 44], [0,0,0,0], [0,0,0,0], [0,0,0,0]]", "r1c4: value 44 is out of range"),
    ],
)
def test_bad_puzzles_are_errors_that_name_the_problem(text, message):
    with pytest.raises(PuzzleError, match=None) as caught:
        sudoku.parse(text)
    assert message in str(caught.value)


# --- generation ----------------------------------------------------------------
@pytest.mark.parametrize(
    "box, diagonals", [((2, 2), False), ((2, 3), False), ((3, 3), False), ((3, 3), True)]
)
def test_generated_puzzles_are_unique_and_minimal(box, diagonals):
    size = box[0] * box[1]
    empty = sudoku.make_puzzle([[0] * size for _ in range(size)], list(box), None, diagonals)
    puzzle, solution = sudoku.generate(empty, seed=11)
    checker = sudoku.solver("cpsat")  # a different engine than the generator's
    assert checker.check(puzzle).uniqueness == "unique"
    assert checker.check(puzzle).solution == solution
    for r, c in [(r, c) for r in range(size) for c in range(size) if puzzle.grid[r][c]]:
        fewer = [list(row) for row in puzzle.grid]
        fewer[r][c] = 0
        weaker = sudoku.Sudoku(tuple(map(tuple, fewer)), puzzle.box, puzzle.regions, puzzle.diagonals)
        assert checker.check(weaker).uniqueness == "multiple", f"r{r + 1}c{c + 1} was removable"


def test_generation_is_reproducible_with_a_seed():
    empty = sudoku.parse("." * 81)
    assert sudoku.generate(empty, seed=5)[0] == sudoku.generate(empty, seed=5)[0]
    assert sudoku.generate(empty, seed=5)[0] != sudoku.generate(empty, seed=6)[0]


def test_a_solver_keeps_at_most_max_shapes_prepared_sessions():
    from mindgames.models.runner import PuzzleSolver

    solver = PuzzleSolver(sudoku.SUDOKU, "sat", max_shapes=2)
    for box in [(2, 2), (2, 3), (2, 4), (2, 2)]:
        size = box[0] * box[1]
        empty = sudoku.make_puzzle([[0] * size for _ in range(size)], list(box))
        assert solver.solve(empty).status == "solved"
    assert len(solver._sessions) == 2
