"""What every kind's files share (models/formats.py): the header line, blocks and comments,
JSON documents against JSON Lines, positions in messages, and line formats tried in order.

The shared convention is tested here once, with a toy text format where that is plainest and
through both grid kinds where the kinds' own words are part of the promise."""

from __future__ import annotations

import itertools
import json
import re
import string
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.models import binairo, registry, sudoku
from mindgames.models.errors import PuzzleError
from mindgames.models.formats import (
    Header,
    HeaderWords,
    Recogniser,
    TextFormat,
    error_at,
    header_line,
    json_document,
    json_puzzles,
    place,
    read_header,
    recognise,
    rows_of_cells,
    units,
)
from mindgames.models.registry import get_kind

SUDOKU, BINAIRO = get_kind("sudoku"), get_kind("binairo")

# A toy kind's text format: headers state a word, a block of 2 lines is one puzzle, more
# than 3 lines in a block are one puzzle per line.
TOY_WORDS = HeaderWords("toy", "{where}: for {kind}, not toy")
TOY = TextFormat(
    header=TOY_WORDS,
    header_settings=lambda header: dict(header.settings),
    within=lambda stated, settings, header: (stated, settings.get("colour"), header.where),
    one_puzzle=lambda block: len(block) == 2,
    block_lines_at_most=3,
)


def cut(text: str, stated=None) -> list[tuple]:
    return [(unit.form, unit.where, unit.text, unit.stated) for unit in units(text.splitlines(), TOY, stated)]


# --- the header line ------------------------------------------------------------------------
setting_keys = st.text(string.ascii_lowercase, min_size=1, max_size=8)
setting_values = st.text(string.ascii_letters + string.digits + "x=.-", min_size=1, max_size=8) | st.just(
    True
)


@settings(max_examples=200)
@given(
    kind=st.sampled_from(["sudoku", "binairo", "toy"]),
    settings_=st.dictionaries(setting_keys, setting_values),
)
def test_a_header_written_is_read_back_with_its_settings_in_order(kind, settings_):
    line = header_line(kind, **settings_)
    assert line.startswith(f"# mindgames {kind}")
    read = read_header(line, "line 7", HeaderWords(kind, "{where}: {kind}"))
    assert read == Header(
        tuple((key, None if value is True else value) for key, value in settings_.items()), "line 7"
    )


def test_a_setting_false_or_none_is_left_out_and_true_is_a_bare_word():
    assert header_line("sudoku", box="3x2", diagonals=False) == "# mindgames sudoku box=3x2"
    assert header_line("sudoku", box=None, diagonals=True) == "# mindgames sudoku diagonals"


@pytest.mark.parametrize(
    "comment", ["# a comment", "#", "# mindgames", "# mindgames is fun", "# made by mindgames"]
)
def test_prose_is_no_header_for_a_kind_that_knows_only_the_registrys_names(comment):
    assert read_header(comment, "line 1", TOY_WORDS) is None


@pytest.mark.parametrize("other", [name for name in registry.KIND_NAMES])
def test_a_header_for_another_kind_of_the_registry_is_an_error_naming_it(other):
    for kind, text, message in (
        (
            SUDOKU,
            f"# mindgames {other}\n{'.' * 16}\n",
            f"line 1: the header is for {other} puzzles, not Sudoku",
        ),
        (
            BINAIRO,
            f"# mindgames {other}\n" + "....\n" * 4,
            f"line 1: a mindgames header for {other}, not for binairo",
        ),
    ):
        if other == kind.name:
            assert kind.read(text)[0].ok
            continue
        with pytest.raises(PuzzleError, match=re.escape(message)):
            kind.read(text)


def test_a_kind_added_to_the_registry_is_known_to_the_header_reader(monkeypatch):
    assert [item.ok for item in sudoku.read("# mindgames row\n" + "." * 16)] == [True]  # prose, before
    monkeypatch.setattr(registry, "KIND_NAMES", (*registry.KIND_NAMES, "row"))
    with pytest.raises(PuzzleError, match="line 2: the header is for row puzzles, not Sudoku"):
        list(sudoku.read("." * 16 + "\n# mindgames row\n"))


def test_binairo_takes_any_name_after_the_programs_as_a_header_for_it():
    with pytest.raises(PuzzleError, match="line 1: a mindgames header for no kind, not for binairo"):
        binairo.read("# mindgames\n....\n....\n....\n....\n")
    with pytest.raises(PuzzleError, match="line 1: a mindgames header for chess, not for binairo"):
        binairo.read("# mindgames chess\n....\n....\n....\n....\n")


# --- blocks, comments and headers ------------------------------------------------------------
def test_blank_lines_and_headers_end_blocks_a_plain_comment_does_not():
    text = "a\n# note\nb\n\nc\n# mindgames toy colour=red\nd\ne\nf\n"
    assert cut(text, "cli") == [
        ("block", [(1, "a"), (3, "b")], None, "cli"),
        ("line", 5, "c", "cli"),
        ("line", 7, "d", ("cli", "red", "line 6")),
        ("line", 8, "e", ("cli", "red", "line 6")),
        ("line", 9, "f", ("cli", "red", "line 6")),
    ]


def test_a_kind_whose_comments_end_blocks_is_cut_there():
    ends = TextFormat(**{**TOY.__dict__, "comments_end_blocks": True})
    assert [unit.form for unit in units(["a", "# note", "b"], ends, None)] == ["line", "line"]


def test_a_bad_header_raises_before_the_block_above_it_ends():
    def bad(header: Header):
        raise PuzzleError(f"{header.where}: bad")

    strict = TextFormat(**{**TOY.__dict__, "header_settings": bad})
    cutting = units(["a", "b", "# mindgames toy x=1"], strict, None)
    with pytest.raises(PuzzleError, match="line 3: bad"):
        next(cutting)


def test_a_long_block_is_cut_as_its_lines_come():
    def lines() -> Iterator[str]:
        yield from ("p1", "p2", "p3", "p4", "p5")
        raise AssertionError("read past what was asked for")

    cutting = units(lines(), TOY, None)
    assert [unit.text for unit in itertools.islice(cutting, 5)] == ["p1", "p2", "p3", "p4", "p5"]


# --- JSON documents and JSON Lines -------------------------------------------------------------
def document(text: str):
    lines = iter(text.splitlines(keepends=True))
    held = [next(lines)]
    return json_document(held, lines)[0]


@pytest.mark.parametrize(
    "text, value",
    [
        ('{"grid": [[1, 2]]}\n', {"grid": [[1, 2]]}),
        ('{"grid": [[1, 2]]}\n\n  \n', {"grid": [[1, 2]]}),  # whitespace after one value
        ("[\n  [1, 2],\n  [3, 4]\n]\n", [[1, 2], [3, 4]]),  # one value over several lines
        ('{"grid": 1}\n{"grid": 2}\n', None),  # JSON Lines
        ("[[1, 2]]\n1234\n", None),  # JSON, then other lines: read line by line
        ("[\n  [1, 2],\n", None),  # broken: read line by line
    ],
)
def test_one_json_document_is_told_from_json_lines(text, value):
    assert document(text) == value


@pytest.mark.parametrize(
    "value, puzzles",
    [
        ({"puzzles": ["a", "b"]}, [("puzzle 1", "a"), ("puzzle 2", "b")]),
        (["a", "b"], [("puzzle 1", "a"), ("puzzle 2", "b")]),
        ([[1, 2], [2, 1]], [("JSON", [[1, 2], [2, 1]])]),  # rows: one puzzle
        ({"puzzles": [[1, 2], [2, 1]]}, [("JSON", [[1, 2], [2, 1]])]),
        ({"grid": "a"}, [("JSON", {"grid": "a"})]),
        ({"puzzles": []}, []),
    ],
)
def test_a_json_document_holds_one_puzzle_a_list_or_puzzles(value, puzzles):
    assert json_puzzles(value, rows_of_cells) == puzzles


def test_both_kinds_read_the_same_collection_forms():
    empty4 = {"grid": [[0] * 4] * 4}
    for text in (
        json.dumps({"puzzles": [empty4, empty4]}),
        json.dumps([empty4, empty4]),
        f"{json.dumps(empty4)}\n" * 2,
    ):
        assert [item.ok for item in SUDOKU.read(text)] == [True, True]
    grid = {"grid": [[None] * 4] * 4}
    for text in (
        json.dumps({"puzzles": [grid, grid]}),
        json.dumps([grid, grid]),
        f"{json.dumps(grid)}\n" * 2,
    ):
        assert [item.ok for item in BINAIRO.read(text)] == [True, True]


def test_json_lines_one_unit_each_numbered_by_line():
    assert cut('{"a": 1}\n\n{"a": 2}\n') == [("line", 1, '{"a": 1}', None), ("line", 3, '{"a": 2}', None)]
    assert cut('[{"a": 1}, {"a": 2}]') == [
        ("json", "puzzle 1", {"a": 1}, None),
        ("json", "puzzle 2", {"a": 2}, None),
    ]


# --- positions in messages ---------------------------------------------------------------------
def test_a_place_names_what_is_given_in_reading_order():
    assert place(line=3) == "line 3"
    assert place(line=3, character=5) == "line 3, character 5"
    assert place(lines=(2, 10)) == "lines 2-10"
    assert place(puzzle=2, row=1, column=4) == "puzzle 2, row 1, column 4"
    assert str(error_at(place(line=1), "bad")) == "line 1: bad"
    assert str(error_at("", "bad")) == "bad"


@pytest.mark.parametrize(
    "kind, text, message",
    [
        (SUDOKU, "." * 16 + "\n" + "." * 4 + "?" + "." * 11, "line 2, character 5: unknown symbol '?'"),
        (SUDOKU, '{"grid": [[1, 2]', "line 1: invalid JSON (Expecting ',' delimiter, column 17)"),
        (
            BINAIRO,
            "....\n..x.\n....\n....\n",
            "puzzle at line 1: line 2, character 3: 'x' is not 0, 1 or '.'",
        ),
        (
            BINAIRO,
            json.dumps([{"grid": [[None] * 4] * 4}, {"grid": [[0, 2, 0, 0]] + [[None] * 4] * 3}]),
            "puzzle 2: row 1, column 2: 2 is not 0, 1, null or -1",
        ),
    ],
)
def test_an_error_names_the_line_and_character_or_row_and_column(kind, text, message):
    errors = [str(item.error) for item in kind.read(text) if not item.ok]
    assert errors == [message]


# --- formats of a line or a JSON value: recognisers tried in order ------------------------------
def test_a_line_format_added_to_a_kind_is_read_wherever_the_kind_reads_a_line(monkeypatch):
    """The shape of issue #25: one recogniser in the kind's list, before the catch-all."""

    def dashes(text: str, where: str, variant):
        return sudoku.parse_line(text.removeprefix("dashes:").replace("-", "."), where, variant)

    dashed = Recogniser(lambda text: text.startswith("dashes:"), dashes)
    monkeypatch.setattr(sudoku.formats, "LINE_READERS", [dashed, *sudoku.formats.LINE_READERS])
    text = "# mindgames sudoku box=2x2 diagonals\ndashes:1" + "-" * 15 + "\n" + "." * 16 + "\n"
    first, second = SUDOKU.read(text)
    assert first.puzzle == SUDOKU.with_givens(second.puzzle, {(0, 0): 1})
    assert first.puzzle.diagonals  # the header's variant reaches the new format too
    assert SUDOKU.parse_value("dashes:" + "-" * 16).grid == ((0,) * 4,) * 4  # the service's text too
    with pytest.raises(PuzzleError, match=r"line 4: 'plain' is in no format this kind reads"):
        recognise([dashed], "plain", "line 4", None)


def test_a_json_form_added_to_sudoku_is_read_from_a_document_and_from_json_lines(monkeypatch):
    def givens_list(value, where: str, variant):
        grid = [[0] * value["size"] for _ in range(value["size"])]
        for row, column, digit in value["givens"]:
            grid[row][column] = digit
        return sudoku.parse_json_value(grid, where, variant)

    listed = Recogniser(lambda value: isinstance(value, dict) and "givens" in value, givens_list)
    monkeypatch.setattr(sudoku.formats, "JSON_READERS", [listed, *sudoku.formats.JSON_READERS])
    record = {"size": 4, "givens": [[0, 0, 1]]}
    for text in (json.dumps([record, record]), f"{json.dumps(record)}\n{json.dumps(record)}\n"):
        assert [item.puzzle.grid[0] for item in SUDOKU.read(text)] == [(1, 0, 0, 0)] * 2


def test_a_line_in_a_format_of_its_own_is_never_a_row_of_a_binairo_grid(monkeypatch):
    def letters(text: str, where: str, rules):
        cells = [{"a": 0, "b": 1}.get(ch) for ch in text.removeprefix("ab:")]
        return binairo.make_puzzle([cells[4 * r : 4 * r + 4] for r in range(4)], rules)

    lettered = Recogniser(lambda text: text.startswith("ab:"), letters)
    monkeypatch.setattr(binairo.formats, "LINE_READERS", [lettered, *binairo.formats.LINE_READERS])
    first, second = BINAIRO.read("# mindgames binairo rules=unruly\nab:a" + "." * 15 + "\n" + "." * 16 + "\n")
    assert first.puzzle.cells[0] == (0, None, None, None) and first.puzzle.rules == "unruly"
    assert second.puzzle.cells == ((None,) * 4,) * 4


# --- what a kind writes, it reads back, in a collection ------------------------------------------
SUDOKU_VARIANTS = [
    dict(box=(2, 2)),
    dict(box=(2, 3), diagonals=True),
    dict(box=(3, 2)),
    dict(regions="1122112233443344"),
    dict(regions="1122112233443344", diagonals=True),
]
BINAIRO_VARIANTS = [((4, 4), "takuzu"), ((6, 4), "unruly"), ((4, 6), "takuzu"), ((6, 6), "unruly")]


@st.composite
def puzzles(draw, kind):
    if kind is SUDOKU:
        empty = SUDOKU.empty(**draw(st.sampled_from(SUDOKU_VARIANTS)))
        values = st.integers(1, empty.size)
    else:
        size, rules = draw(st.sampled_from(BINAIRO_VARIANTS))
        empty = BINAIRO.empty(size, rules)
        values = st.integers(0, 1)
    shape = (empty.size, empty.size) if kind is SUDOKU else (empty.rows, empty.cols)
    cells = st.tuples(st.integers(0, shape[0] - 1), st.integers(0, shape[1] - 1))
    return kind.with_givens(empty, draw(st.dictionaries(cells, values, max_size=6)))


@pytest.mark.parametrize("kind", [SUDOKU, BINAIRO], ids=["sudoku", "binairo"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_what_a_kind_writes_one_after_another_it_reads_back_in_order(kind, data):
    written = data.draw(st.lists(puzzles(kind), min_size=1, max_size=5))
    text = "".join(kind.write(puzzle) for puzzle in written)
    assert [item.puzzle for item in kind.read(text)] == written
    assert [kind.parse_value(kind.to_json(puzzle)) for puzzle in written] == written
