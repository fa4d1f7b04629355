"""Binairo: the rules, the formats, the engines, uniqueness, and minimal puzzles."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindgames.cli import main
from mindgames.models import binairo
from mindgames.models.binairo import Puzzle, make_puzzle, parse_one, read, verify
from mindgames.models.errors import PuzzleError
from mindgames.models.runner import PuzzleSolver

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "binairo"
if not SHARED.exists():
    SHARED = Path("/work/shared/data/binairo")
REPO = Path(__file__).resolve().parents[1]

# A correct 6x6 grid (the seed's size class); the rule tests break it one way at a time.
GOOD = [
    [1, 0, 1, 1, 0, 0],
    [1, 1, 0, 0, 1, 0],
    [0, 0, 1, 0, 1, 1],
    [1, 1, 0, 1, 0, 0],
    [0, 1, 0, 0, 1, 1],
    [0, 0, 1, 1, 0, 1],
]


def empty(rows: int, cols: int, rules: str = "takuzu") -> Puzzle:
    return Puzzle(tuple((None,) * cols for _ in range(rows)), rules)


def blank_puzzle_of(grid, rules: str = "takuzu") -> Puzzle:
    return empty(len(grid), len(grid[0]), rules)


# -- the rules, checked by verify -----------------------------------------------------


def test_a_correct_grid_has_no_problems():
    assert verify(blank_puzzle_of(GOOD), GOOD) == []


def test_unbalanced_row_is_named():
    # r1 becomes 1 0 1 1 0 1 -> 4 ones (and column 6 gets unbalanced too)
    bad = [row[:] for row in GOOD]
    bad[0][5] = 1
    problems = verify(blank_puzzle_of(bad), bad)
    assert any(p.startswith("balance: row 1 has 4 ones and 2 zeros") for p in problems)
    assert any(p.startswith("balance: column 6") for p in problems)


def test_three_in_a_row_is_named_with_its_cells():
    grid = [[1, 1, 1, 0, 0, 0], *GOOD[1:]]
    problems = verify(blank_puzzle_of(grid), grid)
    assert "triples: row 1, columns 1-3 are three 1s in a line" in problems


def test_three_in_a_column_is_named_with_its_cells():
    grid = [row[:] for row in GOOD]
    grid[3][0], grid[3][1] = 0, 1  # swapping keeps row 4 balanced
    grid[3] = [0, 1, 0, 1, 1, 0]
    problems = verify(blank_puzzle_of(grid), grid)
    assert any("triples: column 1, rows 3-5 are three 0s" in p for p in problems)


def test_equal_rows_break_takuzu_but_not_unruly():
    grid = [[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0]]
    assert "distinct: row 1 and row 3 are equal" in verify(blank_puzzle_of(grid), grid)
    assert verify(blank_puzzle_of(grid, "unruly"), grid) == []


def test_equal_columns_are_named():
    # distinct rows, balanced, no triples: only columns 1 and 4 repeat
    grid = [
        [0, 0, 1, 0, 1, 1],
        [1, 0, 0, 1, 0, 1],
        [0, 1, 1, 0, 1, 0],
        [0, 1, 0, 0, 1, 1],
        [1, 0, 1, 1, 0, 0],
        [1, 1, 0, 1, 0, 0],
    ]
    assert verify(blank_puzzle_of(grid), grid) == ["distinct: column 1 and column 4 are equal"]
    assert verify(blank_puzzle_of(grid, "unruly"), grid) == []


def test_a_solution_must_keep_the_givens():
    puzzle = Puzzle(((0,) + (None,) * 5,) + ((None,) * 6,) * 5)
    assert verify(puzzle, GOOD) == ["given: r1c1 was given as 0 but the solution has 1"]


def test_contradicting_givens_are_unsolvable_and_say_where():
    result = PuzzleSolver(binairo.BINAIRO, "sat").solve(parse_one("111.\n....\n....\n...."))
    assert result.status == "unsolvable"
    assert "triples: row 1, columns 1-3 are three 1s" in result.message


# -- formats ---------------------------------------------------------------------------


def test_three_formats_give_the_same_puzzle():
    grid = "1..0\n....\n..1.\n0..."
    line = grid.replace("\n", "")
    as_json = json.dumps(
        {"grid": [[1, None, -1, 0], [None] * 4, [None, None, 1, None], [0, None, None, None]]}
    )
    assert parse_one(grid) == parse_one(line) == parse_one(as_json)


def test_collections_keep_order_and_mark_bad_puzzles():
    text = "1..0\n....\n..1.\n0...\n\n10.\n...\n\n0.1.\n....\n1.1.\n.2..\n"
    found = read(text)
    assert [p.puzzle is not None for p in found] == [True, False, False]
    assert "even number of columns from 2 to 64, not 3" in str(found[1].error)
    assert "line 12, character 2: '2' is not 0, 1 or '.'" in str(found[2].error)


def test_one_puzzle_per_line_with_a_known_solution_after_it():
    found = read("1..0............ 1010010110100101\n..1.............\n")
    assert [p.puzzle.rows for p in found] == [4, 4]


def test_rectangular_grids_are_rows_by_columns():
    puzzle = parse_one("....\n....\n....\n....\n....\n....")
    assert (puzzle.rows, puzzle.cols) == (6, 4)
    assert binairo.parse_size("8x6") == (8, 6)


@pytest.mark.parametrize("bad", ["7", "6x5", "x", "0", "abc"])
def test_bad_sizes_are_errors(bad):
    with pytest.raises(PuzzleError):
        binairo.parse_size(bad)


def test_ragged_grid_names_the_row():
    with pytest.raises(PuzzleError, match="row 2 has 3 cells, row 1 has 4"):
        make_puzzle([[0, 1, None, None], [None, None, None]])


# -- the model ---------------------------------------------------------------------------


def test_each_cell_is_a_primary_choice_of_0_then_1_in_row_major_order():
    encoding = binairo.compile(binairo.shape(empty(4, 6)))
    cells = [cell for row in encoding.cells for cell in row]
    assert all(cell.values == (0, 1) for cell in cells)  # a backtracking search tries 0 first
    assert encoding.model.choices[: len(cells)] == [cell.literals for cell in cells]
    assert [cell.is_(1) for cell in cells] == encoding.model.primary == list(range(1, 25))


def test_givens_are_the_cells_choices_and_decoding_reads_them_back():
    puzzle = blank_puzzle_of(GOOD)
    encoding = binairo.compile(binairo.shape(puzzle))
    full = binairo.BINAIRO.with_givens(
        puzzle, {(r, c): v for r, row in enumerate(GOOD) for c, v in enumerate(row)}
    )
    literals = binairo.givens(encoding, full)
    assert literals[:2] == [encoding.cells[0][0].is_(1), encoding.cells[0][1].is_(0)]
    assignment = [v if v in literals else -v for v in range(1, encoding.model.num_vars + 1)]
    assert binairo.decode(encoding, assignment) == GOOD


# -- engines -----------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["sat", "cpsat", "backtrack"])
@pytest.mark.parametrize("rules, expected", [("takuzu", [2, 72, 4140]), ("unruly", [2, 90, 11222])])
def test_every_engine_counts_the_empty_grids(engine, rules, expected):
    solver = PuzzleSolver(binairo.BINAIRO, engine)
    sizes = (2, 4, 6) if engine != "backtrack" or rules == "takuzu" else (2, 4)
    counts = [solver.count(empty(n, n, rules)).count for n in sizes]
    assert counts == expected[: len(sizes)]


@pytest.mark.parametrize("engine", ["sat", "cpsat", "backtrack"])
def test_every_engine_counts_a_rectangle(engine):
    # 4 wide x 6 high has 96 grids, and so has its transpose
    solver = PuzzleSolver(binairo.BINAIRO, engine)
    assert solver.count(empty(6, 4)).count == 96
    assert solver.count(empty(4, 6)).count == 96


def random_givens(rows: int, cols: int, data) -> Puzzle:
    cells = data.draw(
        st.lists(st.sampled_from([None, None, None, 0, 1]), min_size=rows * cols, max_size=rows * cols)
    )
    return Puzzle(
        tuple(tuple(cells[r * cols : (r + 1) * cols]) for r in range(rows)),
        data.draw(st.sampled_from(binairo.RULE_SETS)),
    )


SOLVERS = {name: PuzzleSolver(binairo.BINAIRO, name) for name in ("sat", "cpsat", "backtrack")}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_engines_agree_on_counts_of_random_partial_grids(data):
    rows, cols = data.draw(st.sampled_from([(4, 4), (4, 6), (6, 4), (6, 6)]))
    puzzle = random_givens(rows, cols, data)
    names = ["sat", "cpsat"] + (["backtrack"] if puzzle.givens >= 6 or rows * cols <= 24 else [])
    counts = {name: SOLVERS[name].count(puzzle).count for name in names}
    assert len(set(counts.values())) == 1, counts


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_engines_agree_on_uniqueness_of_random_partial_grids(data):
    puzzle = random_givens(6, 6, data)
    answers = {SOLVERS[n].check(puzzle).uniqueness for n in ("sat", "cpsat")}
    assert len(answers) == 1


# -- the shared, scraped puzzle sets (read from ../shared, never copied) ----------------------


def shared_puzzles(size: int, how_many: int):
    path = SHARED / f"binairo{size}.txt"
    if not path.exists():
        pytest.skip(f"{path} is not here")
    lines = path.read_text().splitlines()[:how_many]
    for line in lines:
        puzzle_text, solution_text = line.split()
        solution = [[int(ch) for ch in solution_text[r * size : (r + 1) * size]] for r in range(size)]
        yield parse_one(puzzle_text), solution


@pytest.mark.parametrize(
    "engine, sizes",
    [
        ("sat", (6, 8, 10, 12, 14)),
        ("cpsat", (6, 8, 10)),
        ("backtrack", (6,)),
    ],
)
def test_shared_puzzles_are_solved_unique_and_verified(engine, sizes):
    solver = PuzzleSolver(binairo.BINAIRO, engine)
    for size in sizes:
        for puzzle, solution in shared_puzzles(size, 15 if engine != "backtrack" else 5):
            result = solver.check(puzzle)
            assert result.uniqueness == "unique"
            assert result.solution == solution
            assert verify(puzzle, result.solution) == []


# -- generation and minimization ---------------------------------------------------------------


def assert_unique_and_minimal(puzzle: Puzzle, solver: PuzzleSolver) -> None:
    assert solver.check(puzzle).uniqueness == "unique"
    for r, c in itertools.product(range(puzzle.rows), range(puzzle.cols)):
        if puzzle.cells[r][c] is None:
            continue
        cells = [list(row) for row in puzzle.cells]
        cells[r][c] = None
        weaker = Puzzle(tuple(map(tuple, cells)), puzzle.rules)
        assert solver.count(weaker, limit=2).count >= 2, f"r{r + 1}c{c + 1} was not needed"


@pytest.mark.parametrize(
    "rows, cols, rules",
    [
        (4, 4, "takuzu"),
        (6, 6, "takuzu"),
        (8, 8, "takuzu"),
        (6, 6, "unruly"),
        (6, 8, "takuzu"),
    ],
)
def test_generated_puzzles_are_unique_and_minimal(rows, cols, rules):
    checker = PuzzleSolver(binairo.BINAIRO, "cpsat")  # another engine than the generator's
    for puzzle, solution in binairo.generate(rows, cols, rules, seed=7, count=2):
        assert verify(puzzle, solution) == []
        assert_unique_and_minimal(puzzle, checker)


def test_generation_is_reproducible_from_the_seed():
    first = [p for p, _ in binairo.generate(8, 8, seed=42, count=3)]
    again = [p for p, _ in binairo.generate(8, 8, seed=42, count=3)]
    other = [p for p, _ in binairo.generate(8, 8, seed=43, count=3)]
    assert first == again != other


def test_minimize_keeps_the_solution_and_removes_givens():
    puzzle, solution = next(binairo.generate(6, 6, seed=1))
    full = Puzzle(tuple(map(tuple, solution)))
    generator = binairo.Generator(6, 6)
    lits = generator.literals(full)
    given, finished = generator.minimize(lits, lits, random.Random(0))
    smaller = generator.to_puzzle(given)
    assert finished and smaller.givens < 36
    assert_unique_and_minimal(smaller, PuzzleSolver(binairo.BINAIRO, "sat"))


def test_shipped_puzzles_were_made_by_mindgames_and_are_good():
    files = sorted((REPO / "data" / "binairo").glob("*.txt"))
    assert files, "data/binairo holds the puzzles mindgames generated"
    solver = PuzzleSolver(binairo.BINAIRO, "sat")
    for path in files:
        rules = path.name.split("_")[0]  # takuzu_8x8.txt, unruly_8x8.txt
        for item in read(path.read_text(), rules):
            assert solver.check(item.puzzle).uniqueness == "unique", path


# -- the command line ------------------------------------------------------------------------


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse usage errors
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_solves_a_collection_with_one_bad_puzzle(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("1..0\n....\n..1.\n0...\n\n10x.\n....\n....\n....\n\n111.\n....\n....\n....\n")
    code, out, _ = run_cli(capsys, "binairo", "solve", str(path), "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [r["status"] for r in lines] == ["solved", "invalid", "unsolvable"]
    assert [r["index"] for r in lines] == [0, 1, 2]
    assert all(r["rules"] == "takuzu" for r in lines)
    assert "'x' is not 0, 1 or '.'" in lines[1]["error"]
    assert "three 1s" in lines[2]["message"]


def test_cli_check_reports_two_witnesses(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("....\n....\n....\n....\n")
    code, out, _ = run_cli(capsys, "binairo", "check", str(path), "--json")
    result = json.loads(out)
    assert code == 0 and result["uniqueness"] == "multiple"
    assert len(result["solutions"]) == 2 and result["solutions"][0] != result["solutions"][1]


def test_cli_count_of_a_partial_grid_and_of_all_grids(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("1.....\n" + "......\n" * 5)
    _, out, _ = run_cli(capsys, "binairo", "count", str(path), "--json", "--engine", "cpsat")
    assert json.loads(out)["count"] == 2070  # half of 4140, by the 0/1 symmetry
    _, out, _ = run_cli(capsys, "binairo", "count", "--size", "6x4", "--json")
    assert json.loads(out)["count"] == 96


@pytest.mark.parametrize(
    "argv, message",
    [
        (["count"], "needs FILE"),
        (["count", "--size", "7"], "even number"),
        (["solve", "/nonexistent/file"], "no such file"),
    ],
)
def test_cli_usage_errors_are_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run_cli(capsys, "binairo", *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_cli_generate_and_minimize(tmp_path, capsys):
    code, out, _ = run_cli(capsys, "binairo", "generate", "--size", "6", "--seed", "5", "--json")
    made = json.loads(out)
    assert code == 0 and made["minimal"] and made["uniqueness"] == "unique"
    full = tmp_path / "full.txt"
    full.write_text("\n".join("".join(map(str, row)) for row in made["solution"]) + "\n")
    code, out, _ = run_cli(capsys, "binairo", "minimize", str(full), "--json", "--seed", "1")
    smaller = json.loads(out)
    assert smaller["givens"] < 36 and smaller["minimal"] and smaller["solution"] == made["solution"]


def test_minimize_answers_each_puzzle_of_a_collection_bad_ones_invalid(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("1..0\n....\n..1.\n0...\n\n1x..\n....\n....\n....\n")
    code, out, _ = run_cli(capsys, "binairo", "minimize", str(path), "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["status"] for r in lines] == ["solved", "invalid"]
    assert lines[1]["engine"] == "sat" and lines[1]["rules"] == "takuzu"


def test_an_unsolvable_message_names_the_first_broken_rules_and_counts_the_rest():
    from mindgames.models.binairo import BINAIRO

    puzzle = BINAIRO.read("\n".join(["01" * 8] * 2 + ["10" * 8] * 2))[0].puzzle
    message = BINAIRO.explain_unsolvable(puzzle)
    assert message.count("distinct:") == 3 and message.endswith("and 13 more")
