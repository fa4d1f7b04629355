"""Sudoku in the forms puzzle sites use (models/sudoku/sites.py): puzz.link / pzprjs URLs and
Simon Tatham's Solo game IDs, read wherever a Sudoku is read, and written so they read back."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.models.errors import PuzzleError
from mindgames.models.sudoku import make_puzzle, parse, read
from mindgames.models.sudoku.formats import Variant
from mindgames.models.sudoku.sites import PUZZLINK_BOXES, claims_tatham, to_puzzlink, to_tatham


def grids(sizes: list[int]) -> st.SearchStrategy[list[list[int]]]:
    """Square grids of a size from ``sizes``, each cell blank (mostly) or a value in range."""
    return st.sampled_from(sizes).flatmap(
        lambda size: st.lists(
            st.lists(st.one_of(st.just(0), st.integers(0, size)), min_size=size, max_size=size),
            min_size=size,
            max_size=size,
        )
    )


# ---------------------------------------------------------------------------
# puzz.link
# ---------------------------------------------------------------------------
#: pzprjs' own test fixture for Sudoku (robx/pzprjs, test/script/sudoku.js: url "4/4/g1k23k3g",
#: whose file form is "pzprv3/sudoku/4/. 1 . . /. . . 2 /3 . . . /. . 3 . /")
PZPRJS_FIXTURE = "https://puzz.link/p?sudoku/4/4/g1k23k3g"


def test_the_pzprjs_fixture_reads_as_its_file_form_and_writes_back_byte_for_byte() -> None:
    puzzle = parse(PZPRJS_FIXTURE)
    assert puzzle.grid == ((0, 1, 0, 0), (0, 0, 0, 2), (3, 0, 0, 0), (0, 0, 3, 0))
    assert puzzle.box == (2, 2) and not puzzle.diagonals
    assert to_puzzlink(puzzle) == PZPRJS_FIXTURE


@pytest.mark.parametrize(
    "url",
    [
        "https://puzz.link/p?sudoku/4/4/g1k23k3g",
        "http://pzv.jp/p.html?sudoku/4/4/g1k23k3g",
        "https://pzprxs.vercel.app/p?sudoku/4/4/g1k23k3g",
        "https://puzz.link/p?sudoku_edit/4/4/g1k23k3g",
        "https://puzz.link/p?sudoku_play/4/4/g1k23k3g",
        "https://puzz.link/p?type=editor&sudoku/4/4/g1k23k3g",
        "puzz.link/p?sudoku/4/4/g1k23k3g",
    ],
)
def test_every_host_and_form_of_a_url_reads_the_same_puzzle(url: str) -> None:
    assert parse(url) == parse(PZPRJS_FIXTURE)


def test_boxes_follow_pzprjs_rule_for_each_size() -> None:
    # built by hand as pzprjs' encoder writes: 6x6 all blank = 20+16 blanks "zv";
    # 16x16: 16 at r1c1 is "-10", then 255 blanks = "z"*12 + "u" (12*20 + 15)
    assert parse("https://puzz.link/p?sudoku/6/6/zv").box == (2, 3)
    big = parse("https://puzz.link/p?sudoku/16/16/-10" + "z" * 12 + "u")
    assert big.box == (4, 4) and big.grid[0][0] == 16 and big.grid[15][15] == 0
    assert parse("https://puzz.link/p?sudoku/9/9/1" + "z" * 4).grid[0][0] == 1


def test_runs_of_blanks_longer_than_twenty_are_cut_as_pzprjs_cuts_them() -> None:
    # 80 blanks then a 9: four full runs; 79 blanks, a 9, a blank: three, a run of 19, the 9, one
    last = make_puzzle([[0] * 9 for _ in range(8)] + [[0] * 8 + [9]])
    assert to_puzzlink(last) == "https://puzz.link/p?sudoku/9/9/zzzz9"
    next_to_last = make_puzzle([[0] * 9 for _ in range(8)] + [[0] * 7 + [9, 0]])
    assert to_puzzlink(next_to_last) == "https://puzz.link/p?sudoku/9/9/zzzy9g"


@settings(max_examples=60, deadline=None)
@given(grids(list(PUZZLINK_BOXES)))
def test_what_to_puzzlink_writes_reads_back(grid: list[list[int]]) -> None:
    puzzle = make_puzzle(grid, PUZZLINK_BOXES[len(grid)])
    assert parse(to_puzzlink(puzzle)) == puzzle


def test_a_url_is_read_among_other_lines_of_a_file() -> None:
    found = list(read(f"# a setter's list\n{PZPRJS_FIXTURE}\n1.....3..4.....2\n"))
    assert [item.ok for item in found] == [True, True]


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("https://puzz.link/p?nurikabe/5/5/abc", "a puzz.link 'nurikabe' puzzle, not a Sudoku"),
        ("https://puzz.link/p?sudoku/8/8/zzzd", "a 8x8 puzz.link Sudoku; pzprjs draws Sudoku boxes for 4x4"),
        (
            "https://puzz.link/p?sudoku/4/4/g5k23k3g",
            "character 33: r1c2 is given 5, out of range (1..4) in the puzz.link cells",
        ),
        (
            "https://puzz.link/p?sudoku/4/4/g1k23",
            "9 cells in the puzz.link URL for a grid of 16 (cut short?)",
        ),
        ("https://puzz.link/p?sudoku/4/4/g1k23k3gg", "more cells than the 16 of the grid"),
        ("https://puzz.link/p?sudoku/4/4/g.k23k3g", "a '?' given"),
        ("https://puzz.link/p?sudoku/4/4/g1k2!k3g", "character 36: unexpected '!' in the puzz.link cells"),
        ("https://puzz.link/p?sudoku/16/16/-1", "'-' needs 2 hex digits after it"),
        ("https://puzz.link/p?sudoku/4/4", "expected sudoku/COLUMNS/ROWS/CELLS"),
        ("https://puzz.link/sudoku", "has no '?'"),
    ],
)
def test_a_malformed_url_is_an_error_naming_what_is_wrong(url: str, message: str) -> None:
    with pytest.raises(PuzzleError, match="^line 1[:,] .*" + re.escape(message)):
        parse(url)


def test_a_stated_variant_that_contradicts_the_url_is_an_error() -> None:
    with pytest.raises(PuzzleError, match="contradicts"):
        list(read(PZPRJS_FIXTURE, Variant(box=(1, 4), source="the command line")))[0].require()
    with pytest.raises(PuzzleError, match="contradicts"):
        list(read(PZPRJS_FIXTURE, Variant(diagonals=True, source="the command line")))[0].require()


def test_to_puzzlink_refuses_what_pzprjs_cannot_draw() -> None:
    with pytest.raises(PuzzleError, match="no jigsaw regions nor diagonals"):
        to_puzzlink(make_puzzle([[0] * 4 for _ in range(4)], with_diagonals=True))
    with pytest.raises(PuzzleError, match="draws no 12x12"):
        to_puzzlink(make_puzzle([[0] * 12 for _ in range(12)]))


def test_a_url_is_read_where_a_json_value_or_the_service_gives_a_puzzle_string() -> None:
    from mindgames.models.registry import get_kind

    assert get_kind("sudoku").parse_value(PZPRJS_FIXTURE) == parse(PZPRJS_FIXTURE)
    assert parse(f'{{"puzzles": ["{PZPRJS_FIXTURE}"]}}') == parse(PZPRJS_FIXTURE)
    with pytest.raises(PuzzleError, match="a puzz.link 'nurikabe' puzzle, not a Sudoku"):
        get_kind("sudoku").parse_value("https://puzz.link/p?nurikabe/5/5/abc")


# ---------------------------------------------------------------------------
# Simon Tatham's Solo
# ---------------------------------------------------------------------------
#: 6x6 jigsaw layouts whose regions are each in one piece (Solo draws regions by their walls)
JIGSAW_6 = ["AAABBB", "AACBBB", "ACCCDD", "CCEDDD", "EEEFFD", "EEFFFF"]
JIGSAWS_6 = [JIGSAW_6, ["".join(column) for column in zip(*JIGSAW_6)]]  # and its transpose


def test_a_solo_id_reads_cells_runs_and_separated_numbers() -> None:
    # by hand after solo.c: a = 1 blank, "_" between two numbers side by side, e = 5 blanks
    puzzle = parse("2x2:a1c2_3c3e")
    assert puzzle.grid == ((0, 1, 0, 0), (0, 2, 3, 0), (0, 0, 3, 0), (0, 0, 0, 0))
    assert puzzle.box == (2, 2) and not puzzle.diagonals
    assert to_tatham(puzzle) == "2x2:a1c2_3c3e"


def test_solo_c_and_r_are_the_rows_and_columns_of_a_box() -> None:
    # solo.c: "a 2x3 puzzle": each box is two rows of digits by three columns
    assert parse("2x3:zj").box == (2, 3)
    assert parse("3x2:zj").box == (3, 2)
    assert parse("3:zzzc").box == (3, 3)  # "N" alone is NxN boxes
    assert parse("3x3x:zzzc").diagonals
    assert parse("3x3dtm4:zzzc") == parse("3x3:zzzc")  # symmetry and difficulty say nothing of the puzzle


def test_numbers_past_nine_are_decimal_and_runs_past_twenty_six_repeat_z() -> None:
    grid = [[0] * 16 for _ in range(16)]
    grid[0][0], grid[0][1], grid[15][15] = 16, 12, 3
    puzzle = make_puzzle(grid)
    assert to_tatham(puzzle) == "4x4:16_12" + "z" * 9 + "s3"  # 253 blanks = 9 * 26 + 19
    assert parse(to_tatham(puzzle)) == puzzle


def test_a_jigsaw_id_draws_its_regions_from_solo_walls() -> None:
    # by hand after solo.c: 4x4 in 2x2 blocks; lines inside the grid, across in reading order then
    # down column by column, each row/column "open, wall, open"; "a" = 1 open then a wall, "b" = 2,
    # and one closing wall past the last line
    puzzle = parse("4j:p,abbbbbbba")
    assert puzzle.regions is not None and puzzle.box is None
    assert [list(row) for row in puzzle.regions] == [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]]
    assert to_tatham(puzzle) == "4j:p,abbbbbbba"
    assert parse("2x2j:p,abbbbbbba") == puzzle == parse("4x1:p,abbbbbbba")  # all three mean a 4x4 jigsaw


def test_z_in_the_walls_is_twenty_six_open_lines_and_no_wall_as_solo_reads_it() -> None:
    # every row a region: the 30 lines across are open, the 30 down are walls
    puzzle = parse("6j:zj,zd" + "_" * 30)
    assert [list(row) for row in puzzle.regions or []] == [[r] * 6 for r in range(6)]
    assert to_tatham(puzzle) == "6j:zj,zd" + "_" * 30


@settings(max_examples=40, deadline=None)
@given(grids([4, 6, 8, 9, 12, 16]), st.booleans())
def test_what_to_tatham_writes_reads_back(grid: list[list[int]], diagonals: bool) -> None:
    puzzle = make_puzzle(grid, with_diagonals=diagonals)
    assert parse(to_tatham(puzzle)) == puzzle


@settings(max_examples=30, deadline=None)
@given(grids([6]), st.sampled_from(JIGSAWS_6), st.booleans())
def test_what_to_tatham_writes_of_a_jigsaw_reads_back(
    grid: list[list[int]], regions: list[str], diagonals: bool
) -> None:
    puzzle = make_puzzle(grid, None, [list(row) for row in regions], diagonals)
    assert parse(to_tatham(puzzle)) == puzzle


def test_to_tatham_refuses_a_region_in_pieces() -> None:
    pieces = ["AABABB", "AAABBB", "CCCDDD", "CCCDDD", "EEFFFF", "EEEEFF"]  # r1c4's A stands alone
    with pytest.raises(PuzzleError, match="a region in pieces cannot be drawn"):
        to_tatham(make_puzzle([[0] * 6 for _ in range(6)], None, [list(row) for row in pieces]))


@pytest.mark.parametrize(
    ("game_id", "message"),
    [
        ("3x3k:zzzc,abc,def", "a Killer Solo ID: killer cages are not supported"),
        ("3x3#1234", "'3x3#1234' is a Solo random-seed ID"),
        ("3x3:a10zzzb", "character 6: r1c2 is given 10, out of range (1..9) in the Solo cells"),
        ("2x2:1", "1 cells in the Solo ID for a grid of 16 (cut short?)"),
        ("2x2:pa", "character 6: more cells than the 16 of the grid in the Solo cells"),
        ("2x2:p!", "character 6: unexpected '!' in the Solo cells"),
        ("2x2:a1c2_3c3e,abc", "unexpected ',abc' after the cells (only a jigsaw has walls)"),
        ("4j:p", "a jigsaw Solo ID needs ',' and its block walls after the cells"),
        ("4j:p,__", "2 lines of jigsaw walls in the Solo ID for a grid of 25 (cut short?)"),
        ("4j:p,zz", "more lines than the 24 of the grid"),
        ("4j:p,ab1", "character 8: unexpected '1' in the Solo jigsaw walls"),
        ("3x3q:zzzc", "'3x3q' is not Solo's parameters"),
        ("7x7:a", "make a 49x49 grid; sizes"),
    ],
)
def test_a_malformed_solo_id_is_an_error_naming_what_is_wrong(game_id: str, message: str) -> None:
    with pytest.raises(PuzzleError, match="^line 1[:,] .*" + re.escape(message)):
        parse(game_id)


def test_a_solo_id_is_read_from_a_file_next_to_other_forms_and_states_its_own_variant() -> None:
    found = list(read(f"2x2:a1c2_3c3e\n{PZPRJS_FIXTURE}\n"))
    assert [item.ok for item in found] == [True, True]
    with pytest.raises(PuzzleError, match="contradicts"):
        list(read("# mindgames sudoku box=2x2\n2x2x:p\n"))[0].require()


def test_a_long_line_of_digits_is_no_solo_id_and_is_looked_at_once() -> None:
    # the Solo recogniser looks at the first characters only: a long line is the line reader's
    assert not claims_tatham("1" * 100_000)
    with pytest.raises(PuzzleError, match="too long for a puzzle"):
        parse("1" * 100_001)


# ---------------------------------------------------------------------------
# Simple Sudoku (.ss): a framed grid
# ---------------------------------------------------------------------------
SIMPLE_SUDOKU = """\
*-----------*
|...|.2.|...|
|.3.|...|..1|
|...|...|...|
|---+---+---|
|...|...|...|
|...|...|...|
|...|...|...|
|---+---+---|
|...|...|...|
|...|...|...|
|...|..9|...|
*-----------*
"""


def test_a_simple_sudoku_frame_reads_as_its_grid() -> None:
    puzzle = parse(SIMPLE_SUDOKU)
    assert puzzle.grid[0][4] == 2 and puzzle.grid[1][1] == 3 and puzzle.grid[1][8] == 1
    assert puzzle.grid[8][5] == 9 and sum(v != 0 for row in puzzle.grid for v in row) == 4


def test_rows_of_numbers_with_several_digits_still_read_as_numbers() -> None:
    rows = "\n".join(
        " ".join(["10", "."] + ["."] * 10) if r == 0 else " ".join(["."] * 12) for r in range(12)
    )
    assert parse(rows).grid[0][0] == 10
