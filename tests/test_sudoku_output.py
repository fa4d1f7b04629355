"""What Sudoku output says: bundled files solve as they say, jigsaw regions show,
the JSON contract has one meaning for "no solution", and the words are right."""

from __future__ import annotations

import json

import pytest

from mindgames.cli import main
from mindgames.models import sudoku
from mindgames.render import grid_lines, plural
from tests.conftest import REPO
from tests.test_sudoku import JIGSAW, SEED_PUZZLE, SEED_SOLUTION, WIKI_PUZZLE, WIKI_SOLUTION

DATA = REPO / "data" / "sudoku"

# What each bundled file says it holds: its puzzles' one solution each, in order.
BUNDLED = {
    "seed.txt": [SEED_SOLUTION, WIKI_SOLUTION],
    "seed.json": [SEED_SOLUTION],
}


def test_every_bundled_sudoku_file_is_listed_here():
    assert sorted(p.name for p in DATA.iterdir()) == sorted(BUNDLED)


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_every_bundled_sudoku_file_solves_as_it_says(name, capsys):
    assert main(["sudoku", "check", str(DATA / name), "--json"]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["uniqueness"] for r in results] == ["unique"] * len(BUNDLED[name])
    assert [sudoku.to_line(r["solution"]) for r in results] == BUNDLED[name]


def test_the_bundled_files_hold_the_seed_chapter_puzzles():
    lines = [item.puzzle.grid for item in sudoku.read((DATA / "seed.txt").read_text())]
    assert lines == [sudoku.parse(SEED_PUZZLE).grid, sudoku.parse(WIKI_PUZZLE).grid]
    assert sudoku.parse((DATA / "seed.json").read_text()).grid == lines[0]


# --- jigsaw regions are drawn ---------------------------------------------------
def jigsaw() -> sudoku.Sudoku:
    return sudoku.make_puzzle([[0] * 6 for _ in range(6)], region_labels=[list(r) for r in JIGSAW["regions"]])


def test_jigsaw_borders_run_exactly_between_cells_of_different_regions():
    puzzle = jigsaw()
    regions = puzzle.regions
    lines = grid_lines(puzzle.grid, None, regions=regions)
    assert len(lines) == 2 * 6 - 1  # a row, then the border line under it
    for r in range(6):
        row = lines[2 * r]
        for c in range(1, 6):
            assert (row[2 * c - 1] == "|") == (regions[r][c - 1] != regions[r][c]), (r, c)
    for r in range(1, 6):
        under = lines[2 * r - 1].ljust(11)
        for c in range(6):
            assert (under[2 * c] == "-") == (regions[r - 1][c] != regions[r][c]), (r, c)


def test_a_jigsaw_is_printed_with_its_regions(tmp_path, capsys):
    source = tmp_path / "jigsaw.txt"
    source.write_text("." * 36 + " " + "".join(JIGSAW["regions"]) + "\n")
    main(["sudoku", "solve", str(source)])
    out = capsys.readouterr().out
    # Row 1 is regions AABABB: borders after the 2nd, 3rd and 4th cells, in puzzle and solution.
    assert ". .|.|.|. ." in out
    assert "-----+" in out  # row 2 (AAABBB) above row 3 (CCCDDD): a border across the grid


def test_box_grids_keep_their_box_lines():
    lines = grid_lines(sudoku.parse(SEED_PUZZLE).grid, (3, 3))
    assert lines[0] == ". 6 . | 7 9 8 | . 1 2" and lines[3] == "------+-------+------"


# --- "no solution" has one meaning in JSON ------------------------------------
@pytest.mark.parametrize("action", ["solve", "check", "count"])
def test_an_unsolvable_puzzle_has_null_solutions_in_every_action(tmp_path, capsys, action):
    source = tmp_path / "clash.txt"
    source.write_text("55" + "." * 79)
    main(["sudoku", action, str(source), "--json"])
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unsolvable" and record["solutions"] is None  # check used to say []


def test_the_library_count_keeps_no_empty_list_either():
    result = sudoku.solver().count(sudoku.parse("11" + "." * 14), keep=3)
    assert result.status == "unsolvable" and result.solutions is None


# --- words ----------------------------------------------------------------------
def test_plurals_are_right():
    assert [plural(n, "given") for n in (0, 1, 2, 10_000)] == [
        "0 givens",
        "1 given",
        "2 givens",
        "10,000 givens",
    ]
    assert plural(1, "solution") == "1 solution"


def test_a_unique_puzzle_counts_1_solution(tmp_path, capsys):
    source = tmp_path / "seed.txt"
    source.write_text(SEED_PUZZLE)
    main(["sudoku", "count", str(source)])
    assert "9x9, 3x3 boxes: 1 solution," in capsys.readouterr().out


def test_no_stopped_early_wording_is_left(tmp_path, capsys):
    source = tmp_path / "empty4.txt"
    source.write_text("." * 16)
    main(["sudoku", "count", str(source), "--limit", "10"])
    out = capsys.readouterr().out
    assert "or more" not in out and "stopped early" not in out
    assert "at least 10 solutions (stopped at --limit 10)" in out
