"""Binairo formats: what mindgames writes it reads back (rules included), headers, JSON records,
the grid-versus-one-per-line rule, and the bundled puzzle files."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mindgames.cli import main
from mindgames.models import binairo
from mindgames.models.binairo import parse_one, read
from mindgames.models.errors import PuzzleError
from mindgames.models.runner import PuzzleSolver

REPO = Path(__file__).resolve().parents[1]
DATA = sorted((REPO / "data" / "binairo").glob("*.txt"))


def cli(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    """Run ``mindgames ARGV`` in this process; (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(argv))
            except SystemExit as stop:
                code = stop.code
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


def records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


# -- what generate writes, check reads back --------------------------------------------------


def test_generate_json_fed_to_check_is_one_unique_puzzle_of_the_same_grid():
    code, made, _ = cli("binairo", "generate", "--size", "6", "--seed", "1", "--json")
    assert code == 0
    record = json.loads(made)
    assert record["status"] == "generated" and record["grid"] and record["rules"] == "takuzu"
    code, out, err = cli("binairo", "check", "-", "--json", stdin=made)
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert answer["uniqueness"] == "unique" and answer["solution"] == record["solution"]


def test_unruly_text_output_is_read_back_as_unruly_without_repeating_rules():
    code, made, _ = cli("binairo", "generate", "--size", "8", "--rules", "unruly", "--seed", "8")
    assert code == 0 and made.startswith("# mindgames binairo rules=unruly\n")
    code, out, _ = cli("binairo", "check", "-", "--json", stdin=made)
    answer = json.loads(out)
    assert answer["rules"] == "unruly" and answer["uniqueness"] == "unique"


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.sampled_from([4, 6, 8]),
    cols=st.sampled_from([4, 6, 8]),
    rules=st.sampled_from(binairo.RULE_SETS),
    seed=st.integers(0, 2**16),
)
def test_every_output_format_reads_back_to_the_same_puzzle_and_rules(rows, cols, rules, seed):
    # 4 rows of 8 under takuzu: 8 distinct balanced columns of 4 cells do not exist (only 6)
    assume(rules == "unruly" or {rows, cols} != {4, 8})
    size = f"{rows}x{cols}"
    code, text, _ = cli(
        "binairo", "generate", "--size", size, "--rules", rules, "--seed", str(seed), "--count", "2"
    )
    assert code == 0
    _, as_json, _ = cli(
        "binairo", "generate", "--size", size, "--rules", rules, "--seed", str(seed), "--count", "2", "--json"
    )
    made = records(as_json)
    for written in (text, as_json):
        back = read(written)
        assert [p.puzzle.rules for p in back] == [rules, rules]
        assert [[list(row) for row in p.puzzle.cells] for p in back] == [r["grid"] for r in made]
        code, out, _ = cli("binairo", "check", "-", "--json", stdin=written)
        assert code == 0
        assert [r["uniqueness"] for r in records(out)] == ["unique", "unique"]
        assert [r["solution"] for r in records(out)] == [r["solution"] for r in made]


def test_generate_piped_into_check_on_the_command_line(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = (
        f"{sys.executable} -m mindgames.cli binairo generate --size 6x8 --rules unruly "
        f"--seed 3 --count 2 | {sys.executable} -m mindgames.cli binairo check - --json"
    )
    done = subprocess.run(
        command, shell=True, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120
    )
    assert done.returncode == 0, done.stderr
    answers = records(done.stdout)
    assert [(a["rules"], a["uniqueness"]) for a in answers] == [("unruly", "unique")] * 2


def test_a_shape_without_grids_is_one_error_and_no_output():
    code, out, err = cli("binairo", "generate", "--size", "4x8")
    assert (code, out) == (2, "")
    assert err.strip() == "mindgames: error: no 4x8 grid exists under the takuzu rules"


# -- headers -------------------------------------------------------------------------------


def test_a_header_sets_the_rules_of_the_puzzles_after_it():
    text = (
        "....\n....\n....\n....\n\n# mindgames binairo rules=unruly\n....\n....\n....\n....\n"
        "\n# mindgames binairo rules=takuzu\n....\n....\n....\n....\n"
    )
    assert [p.puzzle.rules for p in read(text)] == ["takuzu", "unruly", "takuzu"]


@pytest.mark.parametrize(
    "header, message",
    [
        ("# mindgames binairo rules=unruly size=4", "line 1: unknown header key 'size'"),
        ("# mindgames binairo rules=sudoku", "line 1: rules=sudoku is not takuzu or unruly"),
        ("# mindgames sudoku box=3x2", "line 1: a mindgames header for sudoku, not for binairo"),
    ],
)
def test_a_bad_header_is_an_error_naming_line_and_key(header, message):
    with pytest.raises(PuzzleError, match=re.escape(message)):
        read(header + "\n....\n....\n....\n....\n")


def test_a_plain_comment_is_no_header():
    assert parse_one("# made by hand, mindgames style\n....\n....\n....\n....\n").rules == "takuzu"


def test_rules_option_contradicting_the_header_is_an_error_and_agreeing_is_fine(tmp_path):
    path = tmp_path / "u.txt"
    path.write_text("# mindgames binairo rules=unruly\n1...\n....\n....\n....\n")
    code, out, err = cli("binairo", "solve", str(path), "--rules", "takuzu")
    assert code == 2 and out == ""
    assert "header at line 1 says rules=unruly" in err and "\n" not in err.strip()
    code, out, _ = cli("binairo", "solve", str(path), "--rules", "unruly", "--json")
    assert code == 0 and json.loads(out)["rules"] == "unruly"


# -- JSON records ----------------------------------------------------------------------------


def test_json_records_with_output_keys_are_read_and_unknown_keys_named():
    good = {
        "grid": [[1, None, None, None]] + [[None] * 4] * 3,
        "status": "generated",
        "engine": "sat",
        "givens": 1,
        "seed": 3,
        "minimal": True,
        "rules": "unruly",
    }
    assert parse_one(json.dumps(good)).rules == "unruly"
    found = read(json.dumps({**good, "colour": "red"}))
    assert found[0].puzzle is None and "unknown key 'colour'" in str(found[0].error)


def test_json_rules_contradicting_the_option_is_an_error():
    found = read(json.dumps({"grid": [[None] * 4] * 4, "rules": "unruly"}), "takuzu")
    assert found[0].puzzle is None and "rules=unruly" in str(found[0].error)


def test_json_lines_hold_one_puzzle_per_line():
    lines = "\n".join(json.dumps({"grid": [[None] * 4] * 4, "rules": r}) for r in binairo.RULE_SETS)
    assert [p.puzzle.rules for p in read(lines)] == list(binairo.RULE_SETS)


# -- a block of lines is one grid, whatever its shape --------------------------------------------


def test_four_rows_of_sixteen_cells_are_one_grid():
    puzzle = parse_one("\n".join(["." * 16] * 4))
    assert (puzzle.rows, puzzle.cols) == (4, 16)


def test_sixteen_rows_of_sixteen_cells_are_one_grid():
    puzzle = parse_one("\n".join(["." * 16] * 16))
    assert (puzzle.rows, puzzle.cols) == (16, 16)


@pytest.mark.parametrize(
    "text, sides",
    [
        ("1..0............ 1010010110100101\n..1.............\n", [4, 4]),  # a known solution after it
        ("." * 36 + "\n", [6]),  # a single line
        ("\n".join(["." * 16] * 3), [4, 4, 4]),  # an odd number of lines cannot be a grid
        ("\n".join(["." * 100] * 2), [10, 10]),  # lines longer than a grid row can be
    ],
)
def test_one_puzzle_per_line_collections_still_read(text, sides):
    assert [p.puzzle.rows for p in read(text)] == sides


def test_a_short_row_names_its_line():
    found = read("....\n....\n...\n....\n")
    assert found[0].puzzle is None
    assert "line 3 has 3 cells, line 1 (the first row) has 4" in str(found[0].error)


# -- the bundled files ---------------------------------------------------------------------


def test_data_files_are_here():
    assert len(DATA) >= 7


@pytest.mark.parametrize("path", DATA, ids=lambda p: p.name)
def test_every_bundled_file_solves_as_it_says_with_default_options(path):
    """Its name and header say the rule set; each puzzle's comment says its givens and that it is
    unique; ``mindgames binairo solve FILE`` (no options) solves every puzzle."""
    rules = path.name.split("_")[0]
    text = path.read_text()
    said = [int(n) for n in re.findall(r"^# puzzle \d+: \S+ \w+, (\d+) givens?, unique", text, re.M)]
    found = read(text)
    assert len(found) == len(said) > 0
    checker = PuzzleSolver(binairo.BINAIRO, "sat")
    for item, givens in zip(found, said):
        assert item.puzzle.rules == rules and item.puzzle.givens == givens
        assert checker.check(item.puzzle).uniqueness == "unique"
    code, out, _ = cli("binairo", "solve", str(path), "--json")
    assert code == 0
    assert {(r["status"], r["rules"]) for r in records(out)} == {("solved", rules)}
