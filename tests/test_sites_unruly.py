"""Binairo as Simon Tatham's Unruly writes it (models/binairo/sites.py): game IDs ``WxH[u]:CELLS``
read wherever a binairo puzzle is read (``u``, unique rows and columns: takuzu; else unruly),
and written byte for byte as unruly.c's encoder writes them."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.models.binairo import BINAIRO, make_puzzle, parse_one
from mindgames.models.binairo.formats import read
from mindgames.models.binairo.sites import claims_unruly, to_unruly, unruly_link
from mindgames.models.binairo.writers import WRITERS
from mindgames.models.errors import PuzzleError

#: a 6x6 takuzu and its ID, encoded by hand as unruly.c's new_game_desc encodes a grid (a letter a
#: cell: lower case 0, upper case 1, after that many blanks; one letter past the last cell):
#: "..1..." C (2 blanks, a 1); then g (6 blanks, a 0), b (1, a 0), ... and e: the last 4 blanks, closing
ROWS = ["..1...", "...0.0", ".0.0.1", "......", "......", "00...."]
ID = "6x6u:CgbbbBmae"


def test_an_id_reads_as_its_grid_and_u_means_takuzu() -> None:
    puzzle = parse_one(ID)
    assert puzzle.text().splitlines() == ROWS and puzzle.rules == "takuzu"
    assert to_unruly(puzzle) == ID
    assert parse_one(ID.replace("u", "")).rules == "unruly"


def test_runs_of_25_blanks_and_more_are_cut_as_unruly_cuts_them() -> None:
    # 8x8: a 1 after 60 blanks (z z k: 25 + 25 + 10), then 3 blanks and the closing letter
    cells = [[None] * 8 for _ in range(8)]
    cells[7][4] = 1
    puzzle = make_puzzle(cells, "unruly")
    assert to_unruly(puzzle) == "8x8:ZZKd"
    assert parse_one("8x8:ZZKd") == puzzle
    blank = make_puzzle([[None] * 10 for _ in range(10)], "takuzu")
    assert to_unruly(blank) == "10x10u:zzzza"  # 100 blanks: four runs of 25, then the closing letter


def test_a_rectangle_is_width_then_height() -> None:
    puzzle = make_puzzle([[None] * 8 for _ in range(6)], "unruly")  # 6 rows of 8
    assert to_unruly(puzzle).startswith("8x6:") and parse_one(to_unruly(puzzle)) == puzzle


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([(6, 6), (6, 8), (8, 8), (10, 12), (14, 14)]).flatmap(
        lambda shape: st.lists(
            st.lists(st.sampled_from([None, None, 0, 1]), min_size=shape[1], max_size=shape[1]),
            min_size=shape[0],
            max_size=shape[0],
        )
    ),
    st.sampled_from(["takuzu", "unruly"]),
)
def test_what_to_unruly_writes_reads_back(cells: list, rules: str) -> None:
    puzzle = make_puzzle(cells, rules)
    assert parse_one(to_unruly(puzzle)) == puzzle
    assert BINAIRO.parse_value(unruly_link(puzzle).partition("#")[2]) == puzzle


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([4, 6, 8]), st.sampled_from(["takuzu", "unruly"]), st.sampled_from(sorted(WRITERS)))
def test_every_binairo_writer_reads_back(side: int, rules: str, name: str) -> None:
    puzzle = make_puzzle(
        [[(r * 3 + c) % 3 if (r + c) % 2 else None for c in range(side)] for r in range(side)], rules
    )
    puzzle = dataclasses.replace(
        puzzle, cells=tuple(tuple(v if v != 2 else None for v in row) for row in puzzle.cells)
    )
    try:
        text = WRITERS[name](puzzle)
    except PuzzleError as error:
        assert name == "tatham" and side < 6 and "6x6 and up" in str(error)
        return
    assert BINAIRO.parse_value(text) == puzzle


def test_an_id_is_read_in_a_file_next_to_other_lines_and_as_json() -> None:
    found = read(f"{ID}\n{'.' * 36}\n")
    assert [item.require() for item in found] == [parse_one(ID), make_puzzle([[None] * 6] * 6)]
    assert BINAIRO.parse_value({"grid": ID}) == parse_one(ID)
    assert claims_unruly("10x10u:zzzza") and claims_unruly("8x8#1234") and not claims_unruly("0101")


@pytest.mark.parametrize(
    ("text", "rules", "message"),
    [
        ("8x8#1234", None, "line 1: '8x8#1234' is an Unruly random-seed ID"),
        ("6x6:zz", None, "line 1, character 6: more cells than the 36 of a 6x6 grid"),
        ("6x6:Aa!", None, "line 1, character 7: unexpected '!' in Unruly's cells"),
        ("6x6u:a", None, "line 1: 0 cells for a 6x6 grid of 36 (cut short?)"),
        ("7x6:zzzz", None, "an even number of columns"),
        (ID, "unruly", "the Unruly ID is takuzu (with 'u', unique rows and columns), but rules unruly"),
    ],
)
def test_a_malformed_id_names_what_is_wrong_and_where(text: str, rules: str | None, message: str) -> None:
    (found,) = read(text, rules)
    assert message in str(found.error)


def test_unruly_plays_no_grid_smaller_than_6x6() -> None:
    with pytest.raises(PuzzleError, match="Unruly plays grids of 6x6 and up, not 4x4"):
        to_unruly(make_puzzle([[None] * 4] * 4))
