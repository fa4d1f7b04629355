"""What mindgames writes about a Sudoku, mindgames reads back to the same puzzle.

`generate` writes text (a `# mindgames sudoku box=RxC [diagonals]` header, then
one puzzle per line) or JSON records; `check` and every other reader take
either back with the variant (box shape, diagonals, regions) unchanged.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mindgames.cli import main
from mindgames.models import sudoku
from mindgames.models.errors import PuzzleError
from tests.conftest import REPO


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(args))
    return code, out.getvalue()


def records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


JIGSAW_6X6 = "AABABBAAABBBCCCDDDCCCDDDEEFFFFEEEEFF"


def generate(box: str, diagonals: bool, seed: int, as_json: bool, count: int = 2) -> str:
    """``generate`` output; ``box`` is RxC, or "jigsaw" for a 6x6 jigsaw."""
    shape = ["--regions", JIGSAW_6X6] if box == "jigsaw" else ["--box", box]
    args = ["sudoku", "generate", *shape, "--seed", str(seed), "--count", str(count)]
    code, out = run(*args, *(["--diagonals"] if diagonals else []), *(["--json"] if as_json else []))
    assert code == 0
    return out


# --- the property: every output format reads back to the same puzzle ---------
@settings(max_examples=8, deadline=None)
@given(
    # This jigsaw layout has no solution with diagonals, so it goes without them.
    box_and_diagonals=st.sampled_from(
        [(box, diagonals) for box in ("2x2", "2x3", "3x2", "2x4") for diagonals in (False, True)]
        + [("jigsaw", False)]
    ),
    seed=st.integers(0, 10_000),
)
@example(box_and_diagonals=("jigsaw", False), seed=1)
@example(box_and_diagonals=("3x2", True), seed=1)
def test_every_generate_format_reads_back_to_the_same_unique_puzzle(
    tmp_path_factory, box_and_diagonals, seed
):
    box, diagonals = box_and_diagonals
    if box == "jigsaw":
        expected_box = None
        regions = sudoku.parse_line(f"{'.' * 36} {JIGSAW_6X6}").regions
    else:
        expected_box, regions = tuple(map(int, box.split("x"))), None
    truth = records(generate(box, diagonals, seed, as_json=True))
    for as_json in (False, True):
        written = generate(box, diagonals, seed, as_json)
        read = list(sudoku.read(written))
        assert len(read) == len(truth)
        for item, record in zip(read, truth):
            assert item.ok, item.error
            puzzle = item.puzzle
            assert puzzle.grid == tuple(map(tuple, record["grid"]))
            assert (puzzle.box, puzzle.diagonals, puzzle.regions) == (expected_box, diagonals, regions)
        source = tmp_path_factory.mktemp("generated") / "puzzles.txt"
        source.write_text(written)
        code, out = run("sudoku", "check", str(source), "--json")
        assert code == 0
        assert [(r["status"], r["uniqueness"]) for r in records(out)] == [("solved", "unique")] * len(truth)
        assert [r["solution"] for r in records(out)] == [r["solution"] for r in truth]


# --- the reported cases, one by one ------------------------------------------
def test_generated_x_sudoku_text_keeps_its_diagonals_when_read_back(tmp_path):
    source = tmp_path / "x.txt"
    source.write_text(generate("2x2", True, 1, as_json=False, count=1))
    code, out = run("sudoku", "check", str(source), "--json")
    assert records(out)[0]["uniqueness"] == "unique"  # was "multiple": the X rule was lost


def test_generated_3x2_box_text_keeps_its_box_shape_when_read_back(tmp_path):
    source = tmp_path / "boxes.txt"
    source.write_text(generate("3x2", False, 1, as_json=False, count=1))
    code, out = run("sudoku", "check", str(source))
    assert code == 0 and "6x6, 3x2 boxes: unique solution" in out  # was "givens clash ... box 3"


def test_generate_json_records_are_read_by_check(tmp_path):
    source = tmp_path / "records.jsonl"
    source.write_text(generate("2x3", True, 7, as_json=True, count=1))  # one record: a whole-text JSON
    code, out = run("sudoku", "check", str(source), "--json")
    assert code == 0 and records(out)[0]["uniqueness"] == "unique"  # was: unknown key 'engine'


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_generate_piped_into_check_says_unique(as_json):
    command = [sys.executable, "-m", "mindgames.cli", "sudoku"]
    fmt = ["--json"] if as_json else []
    made = subprocess.run(
        [*command, "generate", "--box", "3x2", "--diagonals", "--seed", "5", "--count", "2", *fmt],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=True,
    )
    checked = subprocess.run(
        [*command, "check", "-", "--json"],
        input=made.stdout,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stderr
    assert [r["uniqueness"] for r in records(checked.stdout)] == ["unique", "unique"]


def test_a_generated_jigsaw_line_carries_its_region_labels():
    text = generate("jigsaw", False, 4, as_json=False, count=1)
    header, comment, line = text.splitlines()
    assert header == "# mindgames sudoku" and "6x6, jigsaw" in comment
    assert line.split()[1] == "112122111222333444333444556666555566"  # regions A..F as 1..6


@pytest.mark.parametrize(
    "options, message",
    [
        (
            ["--regions", "AAABBBAACBBBCCADDDCCCDDFEEEFFDEEEFFF"],
            "has no solution at all: nothing to generate",
        ),
        (["--regions", "AAAAB"], "--regions: 5 labels do not make a square grid"),
        (["--regions", JIGSAW_6X6, "--box", "2x3"], "give either --box or --regions"),
    ],
)
def test_generate_refuses_a_layout_it_cannot_fill(capsys, options, message):
    assert main(["sudoku", "generate", *options]) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err


# --- the header ---------------------------------------------------------------
def test_the_header_is_written_once_before_the_puzzles():
    text = generate("3x2", True, 2, as_json=False)
    assert text.splitlines()[0] == "# mindgames sudoku box=3x2 diagonals"
    assert sum(line.startswith("# mindgames") for line in text.splitlines()) == 1


def test_a_header_holds_for_the_puzzles_after_it_until_the_next_header():
    line = "." * 36
    text = (
        f"{line}\n# mindgames sudoku box=3x2 diagonals\n{line}\n{line}\n# mindgames sudoku box=2x3\n{line}\n"
    )
    variants = [(item.puzzle.box, item.puzzle.diagonals) for item in sudoku.read(text)]
    assert variants == [((2, 3), False), ((3, 2), True), ((3, 2), True), ((2, 3), False)]


def test_ordinary_comments_are_not_headers():
    text = "# mindgames is fun\n# made by hand, box=3x2\n" + "." * 36
    assert [item.puzzle.box for item in sudoku.read(text)] == [(2, 3)]


@pytest.mark.parametrize(
    "header, message",
    [
        ("# mindgames sudoku box=3x2 colour=red", "line 1: unknown key 'colour' in the header"),
        ("# mindgames sudoku box=three", "line 1: header box='three' is not a box shape"),
        ("# mindgames binairo rules=unruly", "line 1: the header is for binairo puzzles, not Sudoku"),
    ],
)
def test_an_unusable_header_is_an_error_naming_it(tmp_path, capsys, header, message):
    source = tmp_path / "bad.txt"
    source.write_text(f"{header}\n{'.' * 36}\n")
    code = main(["sudoku", "check", str(source)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_header_that_does_not_fit_the_puzzle_makes_that_puzzle_invalid():
    text = "# mindgames sudoku box=3x3\n" + "." * 36
    (found,) = sudoku.read(text)
    assert not found.ok and "box [3, 3] does not tile a 6x6 grid" in str(found.error)


def test_command_line_options_that_agree_with_the_header_are_fine(tmp_path, capsys):
    source = tmp_path / "x.txt"
    source.write_text(generate("3x2", True, 3, as_json=False, count=1))
    code = main(["sudoku", "check", str(source), "--box", "3x2", "--diagonals", "--json"])
    assert code == 0 and records(capsys.readouterr().out)[0]["uniqueness"] == "unique"


@pytest.mark.parametrize(
    "options, message",
    [
        (["--box", "2x3"], "the header on line 1 says box 3x2, but --box says box 2x3"),
        (["--diagonals"], "the header on line 1 says no diagonals, but --diagonals says diagonals"),
    ],
)
def test_command_line_options_that_contradict_the_header_are_an_error(tmp_path, capsys, options, message):
    source = tmp_path / "boxes.txt"
    source.write_text(generate("3x2", False, 3, as_json=False, count=1))
    code = main(["sudoku", "check", str(source), *options])
    _, err = capsys.readouterr()
    assert code == 2 and message in err


def test_command_line_options_state_the_variant_of_plain_lines():
    (item,) = sudoku.read("." * 36, sudoku.Variant((3, 2), True, "--box"))
    assert (item.puzzle.box, item.puzzle.diagonals) == ((3, 2), True)


def test_a_jigsaw_line_under_a_box_header_is_invalid():
    text = "# mindgames sudoku box=2x3\n" + "." * 36 + " AABABBAAABBBCCCDDDCCCDDDEEFFFFEEEEFF\n"
    (found,) = sudoku.read(text)
    assert not found.ok and "a jigsaw puzzle (it has regions)" in str(found.error)


# --- JSON records -------------------------------------------------------------
def test_unknown_keys_in_a_json_record_are_still_errors_naming_the_key():
    with pytest.raises(PuzzleError, match="unknown key 'colour'"):
        sudoku.parse_json_value({"grid": "." * 16, "colour": "red"})


def test_a_record_with_only_the_puzzle_line_is_read():
    puzzle = sudoku.parse_json_value({"puzzle": "." * 36, "box": [3, 2], "status": "generated"})
    assert (puzzle.size, puzzle.box) == (6, (3, 2))


def test_a_record_whose_puzzle_and_grid_differ_is_an_error():
    with pytest.raises(PuzzleError, match='"puzzle" and "grid" are different puzzles'):
        sudoku.parse_json_value({"puzzle": "1" + "." * 15, "grid": "." * 16})


def test_a_json_record_that_contradicts_the_command_line_is_an_error():
    with pytest.raises(PuzzleError, match='"box" \\[2, 3\\] contradicts --box'):
        sudoku.parse_json_value(
            {"grid": "." * 36, "box": [2, 3]}, variant=sudoku.Variant((3, 2), None, "--box")
        )


def test_a_json_line_nested_too_deeply_is_an_invalid_item_not_a_crash():
    # json.loads raises RecursionError, not JSONDecodeError, past Python's nesting limit;
    # the reader once asked that error for a column it does not have (found by mypy).
    (found,) = sudoku.read("[" * 100_000 + "\n")
    assert not found.ok and str(found.error) == "line 1: invalid JSON (too deep)"
