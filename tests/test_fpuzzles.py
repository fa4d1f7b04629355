"""Sudoku from f-puzzles and SudokuPad (models/sudoku/fpuzzles.py, sudokupad.py, lzstring.py):
real links read with every rule they carry and solved to their published solutions, rules
mindgames cannot honour refused by name (never dropped), damaged links named, and what
``to_fpuzzles`` writes read back to the same puzzle."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import fields, replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindgames.models.errors import PuzzleError
from mindgames.models.sudoku import check, make_puzzle, parse, read
from mindgames.models.sudoku.fpuzzles import decode_data, default_box, to_fpuzzles, to_fpuzzles_json
from mindgames.models.sudoku.lzstring import BASE64, compress_to_base64, decompress_from_base64
from mindgames.models.sudoku.sudokupad import to_sudokupad
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

REPO = Path(__file__).resolve().parents[1]
#: real puzzles: f-puzzles links from Rangsk's solver's tests (each with its source and, when
#: read, its published solution), and SCL links made from them by SudokuPad's own encoder
FIXTURES = json.loads((Path(__file__).parent / "fpuzzles_links.json").read_text())
READ = [f for f in FIXTURES if "solution" in f]
REFUSED = [f for f in FIXTURES if "refused" in f]
PREFIX = "https://www.f-puzzles.com/?load="


def fpuzzle(**keys) -> dict:
    """A 4x4 f-puzzles object (no givens) with ``keys`` added."""
    return {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)], **keys}


def link_of(data: dict) -> str:
    return PREFIX + compress_to_base64(json.dumps(data))


def digits(grid) -> str:
    return "".join(str(v) for row in grid for v in row)


# ---------------------------------------------------------------------------
# Real links
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("fixture", READ, ids=[f["name"] for f in READ])
def test_a_real_link_reads_with_its_rules_and_solves_to_its_published_solution(fixture) -> None:
    puzzle = parse(fixture["link"])
    assert puzzle.variant == fixture["variant"]
    answer = check(puzzle)
    assert answer.uniqueness == "unique"
    if puzzle.size <= 9:  # (the 16x16 solution is written in the source's own digit scheme)
        assert digits(answer.solution) == fixture["solution"]


@pytest.mark.parametrize("fixture", REFUSED, ids=[f["name"] for f in REFUSED])
def test_a_link_with_a_rule_mindgames_cannot_honour_is_refused_naming_it(fixture) -> None:
    with pytest.raises(PuzzleError, match=fixture["refused"].replace("(", r"\(")):
        parse(fixture["link"])


def test_the_sites_own_encoder_and_ours_write_the_same_data_for_the_same_json() -> None:
    """The links were written by f-puzzles' LZString: ours packs their JSON byte for byte."""
    for fixture in READ:
        data = fixture["link"].removeprefix(PREFIX)
        assert compress_to_base64(decompress_from_base64(data)) == data


def test_a_sudokupad_scl_link_reads_as_the_f_puzzles_link_it_was_made_from() -> None:
    scl = next(f for f in FIXTURES if "same_as" in f)
    assert parse(scl["link"]) == parse(scl["same_as"])


def test_a_sudokupad_link_carrying_f_puzzles_data_reads_in_each_of_its_forms() -> None:
    fixture = READ[0]
    data = fixture["link"].removeprefix(PREFIX)
    expected = parse(fixture["link"])
    for link in (
        f"https://sudokupad.app/fpuzzles{data}",
        f"https://sudokupad.app/fpuz{data}",
        f"https://beta.sudokupad.app/fpuzzles{data}",
        f"https://app.crackingthecryptic.com/sudoku/fpuzzles{data}",
        f"https://sudokupad.app/?puzzleid=fpuzzles{data.replace('+', '%2B').replace('/', '%2F')}",
    ):
        assert parse(link) == expected, link


def test_a_sudokupad_link_whose_double_slash_was_merged_is_repaired_as_sudokupad_repairs_it() -> None:
    # a title of characters past U+00FF packs to data with "//" (12 one-bits in a row)
    data = compress_to_base64(
        json.dumps(fpuzzle(title="\uffe2\u82dd\ueef4", antiking=True), ensure_ascii=False)
    )
    assert "//" in data
    merged = "https://sudokupad.app/fpuzzles" + data.replace("//", "/")
    assert parse(merged) == parse(PREFIX + data)
    assert parse(merged).constraints.anti_king


def test_the_bare_json_is_read_and_is_not_taken_for_mindgames_own_json() -> None:
    fixture = READ[0]
    data = decode_data(fixture["link"].removeprefix(PREFIX))
    assert parse(json.dumps(data)) == parse(fixture["link"])
    assert parse(json.dumps({"puzzles": [data, data]} and [data])) == parse(fixture["link"])
    ours = {"grid": [[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]], "box": [2, 2]}
    assert parse(json.dumps(ours)).grid[0] == (1, 0, 0, 0)


# ---------------------------------------------------------------------------
# Keys: read, cosmetic, drawings, refused
# ---------------------------------------------------------------------------
def test_cosmetic_keys_are_ignored_and_metadata_cages_too() -> None:
    plain = parse(link_of(fpuzzle()))
    decorated = fpuzzle(
        title="T",
        author="A",
        ruleset="Normal sudoku rules apply.",
        solution=[1] * 16,
        highlightConflicts=True,
        cage=[{"value": "title: T"}],
        antiknight=False,
        clone=[],
    )
    decorated["grid"][0][0] = {"c": "#FF0000", "centerPencilMarks": [1, 2], "value": 3}  # value not given
    assert parse(link_of(decorated)) == plain


def test_a_drawing_of_a_rule_the_puzzle_carries_is_accepted_and_any_other_refused() -> None:
    renban = {"lines": [["R1C1", "R1C2", "R1C3"]]}
    drawn = {
        "lines": [["R1C3", "R1C2", "R1C1"]],
        "outlineC": "#C060C0",
        "width": 0.4,
        "fromConstraint": "Renban",
    }
    puzzle = parse(link_of(fpuzzle(renban=[renban], line=[drawn])))
    assert puzzle.constraints.lines == (Line("renban", ((0, 0), (0, 1), (0, 2))),)
    with pytest.raises(PuzzleError, match=r"line 1 at R1C1 draws no rule mindgames reads"):
        parse(link_of(fpuzzle(line=[{"lines": [["R1C1", "R2C2"]]}])))
    with pytest.raises(PuzzleError, match=r"text 1 at R2C2 \(drawn for f-puzzles' 'X Sum'\)"):
        parse(link_of(fpuzzle(text=[{"cells": ["R2C2"], "value": "5", "fromConstraint": "X Sum"}])))
    with pytest.raises(PuzzleError, match="cage 1 at R1C1 draws no rule"):
        parse(link_of(fpuzzle(cage=[{"cells": ["R1C1", "R1C2"], "value": "7"}])))


def test_every_unsupported_constraint_is_named_at_once() -> None:
    data = fpuzzle(clone=[{"cells": ["R1C1"], "cloneCells": ["R2C2"]}], quadruple=[{"cells": ["R1C1"]}])
    with pytest.raises(PuzzleError, match="constraints 'clone', 'quadruple' are not supported"):
        parse(link_of(data))


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "?"}]}, r"killercage 1 \(at R1C1\): text '\?'"),
        (
            {"difference": [{"cells": ["R1C1", "R1C2"], "value": "3"}]},
            "difference 1: value '3' is not supported",
        ),
        ({"ratio": [{"cells": ["R1C1", "R1C2"], "value": "3"}]}, "ratio 1: value '3' is not supported"),
        ({"xv": [{"cells": ["R1C1", "R1C2"], "value": "XX"}]}, "xv 1 .*'XX' is not X nor V"),
        ({"thermometer": [{"lines": [["R1C1", "R1C2"]], "slow": True}]}, "option 'slow' is not supported"),
        ({"littlekillersum": [{"cell": "R2C2", "direction": "DR", "value": "3"}]}, "inside the grid"),
        ({"littlekillersum": [{"cell": "R0C1", "direction": "DD", "value": "3"}]}, "direction 'DD'"),
        ({"littlekillersum": [{"cell": "R0C1", "direction": "DR", "value": ""}]}, "total '' is not a whole"),
        ({"sandwichsum": [{"cell": "R0C0", "value": "3"}]}, "a corner is in no row nor column"),
        ({"odd": [{"cell": "R5C1"}]}, r"odd 1: 'R5C1' is not a cell of the grid \(R1C1..R4C4\)"),
        ({"negative": ["ratio"]}, "negative 'ratio' alone"),
        ({"negative": ["sum"]}, "negative 'sum' is not supported"),
        (
            {"nonconsecutive": True, "difference": [{"cells": ["R1C1", "R1C2"]}]},
            "non-consecutive .* with kropki",
        ),
        ({"antiknight": "yes"}, "'antiknight' must be true or false"),
        ({"arrow": [{"cells": ["R1C1"], "lines": [["R1C1"]]}]}, "arrow 1 .*needs a circle and a path"),
    ],
)
def test_an_option_or_rule_mindgames_cannot_honour_is_an_error_naming_it(keys, message) -> None:
    with pytest.raises(PuzzleError, match=message):
        parse(link_of(fpuzzle(**keys)))


def test_negative_constraints_and_non_consecutive_become_mindgames_rules() -> None:
    white = {"difference": [{"cells": ["R1C1", "R1C2"]}]}
    both = parse(link_of(fpuzzle(negative=["difference", "ratio"], **white))).constraints
    assert both.negative_kropki and not both.non_consecutive
    also = parse(link_of(fpuzzle(nonconsecutive=True, negative=["ratio"], **white))).constraints
    assert also.negative_kropki  # f-puzzles' non-consecutive is negative difference on undotted pairs
    assert parse(link_of(fpuzzle(nonconsecutive=True))).constraints.non_consecutive
    assert parse(link_of(fpuzzle(negative=["difference"]))).constraints.non_consecutive
    assert parse(link_of(fpuzzle(negative=["xv"]))).constraints.negative_xv


def test_both_diagonals_are_x_sudoku_and_one_is_an_extra_region() -> None:
    assert parse(link_of(fpuzzle(**{"diagonal+": True, "diagonal-": True}))).diagonals
    one = parse(link_of(fpuzzle(**{"diagonal+": True})))
    assert not one.diagonals
    assert one.constraints.extra_regions == (((3, 0), (2, 1), (1, 2), (0, 3)),)


def test_regions_are_boxes_when_they_tile_as_boxes_else_a_jigsaw() -> None:
    data = {"size": 6, "grid": [[{"region": r // 3 * 3 + c // 2} for c in range(6)] for r in range(6)]}
    assert parse(link_of(data)).box == (3, 2)  # not f-puzzles' default 2x3: stated by the regions
    assert parse(link_of({"size": 6, "grid": [[{}] * 6] * 6})).box == default_box(6) == (2, 3)
    jigsaw = ["AAABBB", "AACBBB", "ACCCDD", "CCEDDD", "EEEFFD", "EEFFFF"]
    data = {"size": 6, "grid": [[{"region": "ABCDEF".index(ch)} for ch in row] for row in jigsaw]}
    assert parse(link_of(data)).regions is not None
    data["grid"][0][0] = {"region": None}
    with pytest.raises(PuzzleError, match=r"cell R1C1 is in no region \('region': null\)"):
        parse(link_of(data))


def test_given_pencil_marks_are_candidates() -> None:
    data = fpuzzle()
    data["grid"][1][2] = {"givenPencilMarks": [1, 3]}
    assert parse(link_of(data)).constraints.candidates == (Candidates((1, 2), frozenset({1, 3})),)


# ---------------------------------------------------------------------------
# Damaged links and wrong shapes
# ---------------------------------------------------------------------------
GOOD = READ[0]["link"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD[:200], "ends before LZString's end mark"),
        (PREFIX + "N4Ig!glgXgpiBcBOANCAbhgNgVwg", r"character 5: '!' is not a base64 character"),
        (PREFIX + "____", r"character 1: '_' is not a base64"),
        (PREFIX + "/////", "character 1: not LZString data"),
        (PREFIX, "the f-puzzles link's data is empty"),
        (PREFIX + compress_to_base64("not json"), "unpacks to no JSON"),
        (PREFIX + compress_to_base64("[1, 2]"), "not an object"),
        ("https://www.f-puzzles.com/?id=yxnpswht", "stored on f-puzzles' server"),
        ("https://f-puzzles.com/", "carries its puzzle after '\\?load='"),
        (link_of({"size": 9, "grid": [[{}] * 9] * 8}), "'size' is 9 but 'grid' has 8 rows"),
        (link_of({"size": 4, "grid": [[{}] * 4] * 3 + [[{}] * 5]}), "'grid' row 4 has 5 cells"),
        (link_of({"size": 3, "grid": [[{}] * 3] * 3}), "'size' 3: sizes 4..35 are supported"),
        (link_of({"size": "9", "grid": []}), "'size' must be a whole number"),
        (
            link_of(fpuzzle(grid=[[{"value": 7, "given": True}, {}, {}, {}]] + [[{}] * 4] * 3)),
            "r1c1: value 7 is out",
        ),
        (
            link_of(fpuzzle(grid=[[{"parity": "Even"}, {}, {}, {}]] + [[{}] * 4] * 3)),
            "cell R1C1: key 'parity'",
        ),
        ("https://sudokupad.app/wsj7iunsg6", "puzzle 'wsj7iunsg6', stored on SudokuPad's server"),
        ("https://sudokupad.app/scfABC", "'scf' format is not supported"),
        ("https://sudokupad.app/sclN4Ig!", "'!' is not a base64 character"),
        ("https://sudokupad.app/", "names no puzzle"),
    ],
)
def test_a_damaged_link_or_wrong_shape_is_an_error_naming_what_and_where(text: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        parse(text)


def test_a_link_is_read_among_other_lines_and_its_error_names_the_line() -> None:
    found = list(read(f"{'.' * 16}\n{GOOD}\n{GOOD[:200]}\n"))
    assert [item.ok for item in found] == [True, True, False]
    assert str(found[2].error).startswith("line 3: the f-puzzles link's data")


def test_a_stated_variant_that_contradicts_the_link_is_an_error() -> None:
    with pytest.raises(PuzzleError, match="diagonals"):
        parse(f"# mindgames sudoku diagonals\n{link_of(fpuzzle())}\n")


# ---------------------------------------------------------------------------
# LZString
# ---------------------------------------------------------------------------
@given(st.text(max_size=300))
def test_lzstring_reads_back_what_it_writes_padded_to_four(text: str) -> None:
    data = compress_to_base64(text)
    assert len(data) % 4 == 0
    if text:
        assert decompress_from_base64(data) == text


def test_lzstring_matches_the_javascript_library_on_known_values() -> None:
    # as the lzstring package (1.0.4, a port of the JavaScript) writes it, padding included;
    # and a character outside the BMP (two UTF-16 units in JavaScript) comes back whole
    assert compress_to_base64("Hello, world") == "BIUwNmD2A0AEDukBOYAmQ==="
    assert decompress_from_base64("BIUwNmD2A0AEDukBOYAmQ===") == "Hello, world"
    assert decompress_from_base64(compress_to_base64("a😀b")) == "a😀b"


# ---------------------------------------------------------------------------
# Writing: to_fpuzzles reads back
# ---------------------------------------------------------------------------
JIGSAW_6 = ["AAABBB", "AACBBB", "ACCCDD", "CCEDDD", "EEEFFD", "EEFFFF"]


@st.composite
def variant_puzzles(draw) -> object:
    """A puzzle with random rules of every family f-puzzles can say, valid as make_puzzle checks."""
    size = draw(st.sampled_from([4, 6, 9]))
    layout = draw(st.sampled_from(["default", "other box", "jigsaw"] if size == 6 else ["default"]))
    cells = [(r, c) for r in range(size) for c in range(size)]
    cell = st.sampled_from(cells)

    def distinct(low: int, high: int):
        return st.lists(cell, min_size=low, max_size=high, unique=True).map(tuple)

    def pairs():
        neighbours = [((r, c), (r + dr, c + dc)) for r, c in cells for dr, dc in ((0, 1), (1, 0))]
        neighbours = [p for p in neighbours if p[1][0] < size and p[1][1] < size]
        return st.lists(st.sampled_from(neighbours), max_size=3, unique=True)

    cages = []
    for cage_cells in draw(st.lists(distinct(1, 3), max_size=3)):
        k = len(cage_cells)
        low, high = k * (k + 1) // 2, k * (2 * size - k + 1) // 2
        cages.append(Cage(cage_cells, draw(st.none() | st.integers(low, high))))
    killers = []
    for r, c, dr, dc in draw(
        st.lists(
            st.tuples(st.sampled_from([-1, size]), st.integers(0, size - 1), st.just(0), st.just(0)),
            max_size=2,
        )
    ):
        dr = 1 if r < 0 else -1
        dc = draw(st.sampled_from([-1, 1]))
        run, (rr, cc) = [], (r + dr, c + dc)
        while 0 <= rr < size and 0 <= cc < size:
            run.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if run:
            killers.append(LittleKiller(tuple(run), draw(st.integers(len(run), len(run) * size))))
    lines = [(kind, line) for kind in ("row", "column") for line in range(size)]
    sandwiches = [
        Sandwich(kind, index, draw(st.integers(0, sum(range(2, size)))))
        for kind, index in draw(st.lists(st.sampled_from(lines), max_size=2, unique=True))
    ]
    dot_pairs, xv_pairs = draw(pairs()), draw(pairs())
    flags = {
        name: draw(st.booleans()) for name in ("anti_knight", "anti_king", "negative_xv", "negative_kropki")
    }
    flags["disjoint_groups"] = layout != "jigsaw" and draw(st.booleans())
    dots = tuple(Dot(pair, draw(st.sampled_from(["white", "black"]))) for pair in dot_pairs)
    flags["non_consecutive"] = not dots and not flags["negative_kropki"] and draw(st.booleans())
    constraints = Constraints(
        cages=tuple(cages),
        little_killers=tuple(killers),
        sandwiches=tuple(sandwiches),
        thermos=tuple(Thermo(c, draw(st.booleans())) for c in draw(st.lists(distinct(2, 4), max_size=2))),
        arrows=tuple(
            Arrow(both[:split], both[split:])
            for both, split in draw(st.lists(st.tuples(distinct(2, 4), st.integers(1, 2)), max_size=2))
            if split < len(both)
        ),
        dots=dots,
        xv=tuple(XV(pair, draw(st.sampled_from(["X", "V"]))) for pair in xv_pairs),
        lines=tuple(
            Line(kind, c)
            for kind, c in draw(
                st.lists(
                    st.tuples(
                        st.sampled_from(["whisper", "renban", "palindrome", "between"]), distinct(2, 4)
                    ),
                    max_size=3,
                )
            )
        ),
        parity=tuple(Parity(c, draw(st.sampled_from(["odd", "even"]))) for c in draw(distinct(0, 3))),
        extra_regions=tuple(draw(st.lists(distinct(1, size), max_size=2))),
        candidates=tuple(
            Candidates(c, frozenset(draw(st.sets(st.integers(1, size), min_size=1))))
            for c in draw(distinct(0, 2))
        ),
        **flags,
    )
    grid = [[draw(st.sampled_from([0, 0, 0, *range(1, size + 1)])) for _ in range(size)] for _ in range(size)]
    diagonals = draw(st.booleans())
    if layout == "jigsaw":
        return make_puzzle(grid, None, [list(row) for row in JIGSAW_6], diagonals, constraints=constraints)
    box = (3, 2) if layout == "other box" else None
    return make_puzzle(grid, box, None, diagonals, constraints=constraints)


def same_rules(constraints: Constraints) -> Constraints:
    """The rules in one order: f-puzzles keeps each kind (white dots, black dots...) in its own list."""
    return replace(
        constraints,
        **{
            f.name: tuple(sorted(getattr(constraints, f.name), key=repr))
            for f in fields(constraints)
            if isinstance(getattr(constraints, f.name), tuple)
        },
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant_puzzles())
def test_what_to_link_writes_reads_back_to_the_same_puzzle(puzzle) -> None:
    back = parse(to_fpuzzles(puzzle))
    assert replace(back, constraints=same_rules(back.constraints)) == replace(
        puzzle, constraints=same_rules(puzzle.constraints)
    )
    assert to_fpuzzles(back) == to_fpuzzles(parse(to_fpuzzles(back)))  # and it is stable from then on


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant_puzzles())
def test_what_to_sudokupad_writes_reads_back_as_the_f_puzzles_link_does(puzzle) -> None:
    assert parse(to_sudokupad(puzzle)) == parse(to_fpuzzles(puzzle))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=BASE64 + "=!%", max_size=60))
def test_any_data_after_load_is_a_puzzle_or_a_puzzle_error_never_a_crash(data: str) -> None:
    try:
        parse(PREFIX + data)
    except PuzzleError:
        pass


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            ["killercage", "thermometer", "arrow", "xv", "littlekillersum", "negative", "line", "odd"]
        ),
        st.recursive(
            st.none()
            | st.booleans()
            | st.integers(-2, 12)
            | st.sampled_from(["R1C1", "R2C2", "R0C1", "X", "DR"]),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(
                    st.sampled_from(["cells", "cell", "lines", "value", "direction"]), inner, max_size=3
                )
            ),
            max_leaves=8,
        ),
        max_size=3,
    )
)
def test_any_f_puzzles_object_is_a_puzzle_or_a_puzzle_error_never_a_crash(keys) -> None:
    try:
        parse(link_of(fpuzzle(**keys)))
    except PuzzleError:
        pass


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["regions", "cages", "global", "cells", "metadata"]),
        st.recursive(
            st.none()
            | st.booleans()
            | st.integers(-1, 9)
            | st.sampled_from(["", "12", "title: x", "antiknight"]),
            lambda inner: (
                st.lists(inner, max_size=4)
                | st.dictionaries(
                    st.sampled_from(["cells", "value", "sum", "unique", "style"]), inner, max_size=3
                )
            ),
            max_leaves=10,
        ),
        max_size=3,
    ),
    st.booleans(),
)
def test_any_scl_object_is_a_puzzle_or_a_puzzle_error_never_a_crash(keys, zipped: bool) -> None:
    text = json.dumps({"cells": [[{}] * 4] * 4, **keys})
    try:
        parse("https://sudokupad.app/scl" + compress_to_base64(text.replace('"', "'") if zipped else text))
    except PuzzleError:
        pass


def test_scl_global_rules_and_killer_cages_are_read_metadata_ignored() -> None:
    scl = {
        "cells": [[{}, {"value": 2}, {}, {}]] + [[{}] * 4] * 3,
        "cages": [{"value": "title: T"}, {"cells": [[0, 0], [1, 0]], "value": "4", "unique": True}],
        "global": ["antiknight"],
    }
    puzzle = parse("https://sudokupad.app/scl" + compress_to_base64(json.dumps(scl).replace('"', "'")))
    assert puzzle.grid[0] == (0, 2, 0, 0) and puzzle.box == (2, 2)
    assert puzzle.constraints == Constraints(cages=(Cage(((0, 0), (1, 0)), 4),), anti_knight=True)


def test_to_fpuzzles_refuses_what_f_puzzles_cannot_say() -> None:
    short = Constraints(little_killers=(LittleKiller(((1, 1), (2, 2)), 5),))  # stops short of the edge
    with pytest.raises(PuzzleError, match="whole diagonal"):
        to_fpuzzles_json(make_puzzle([[0] * 4] * 4, constraints=short))
    gap = Constraints(lines=(Line("whisper", ((0, 0), (0, 1)), gap=1),))
    with pytest.raises(PuzzleError, match="whispers differ by at least 2"):
        to_fpuzzles_json(make_puzzle([[0] * 4] * 4, constraints=gap))
    mixed = Constraints(non_consecutive=True, dots=(Dot(((0, 0), (0, 1)), "white"),))
    with pytest.raises(PuzzleError, match="non-consecutive"):
        to_fpuzzles_json(make_puzzle([[0] * 4] * 4, constraints=mixed))


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------
def run_cli(text: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mindgames.cli", "sudoku", "check", "-", *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )


def test_the_command_line_checks_a_link_and_refuses_a_damaged_one_in_one_line() -> None:
    done = run_cli(GOOD + "\n", "--json")
    record = json.loads(done.stdout)
    assert done.returncode == 0 and record["uniqueness"] == "unique"
    assert record["drawing"]["thermos"]  # the rules travel with the answer
    done = run_cli(GOOD[:200] + "\n")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "line 1: the f-puzzles link's data ends before" in done.stderr
    done = run_cli(REFUSED[0]["link"] + "\n")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
