"""`mindgames sudoku ...` as a user meets it: output, JSON contract, exit codes, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mindgames.cli import main
from tests.conftest import REPO
from tests.test_sudoku import SEED_PUZZLE, SEED_SOLUTION, WIKI_PUZZLE, WIKI_SOLUTION


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def json_lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def test_the_bundled_seed_example_is_solved_and_printed_as_grids(capsys):
    code, out, _ = run(capsys, "sudoku", "solve", str(REPO / "data" / "sudoku" / "seed.txt"))
    assert code == 0
    assert "puzzle 1: 9x9, 3x3 boxes: solved" in out and "puzzle 2:" in out
    assert "5 6 3 | 7 9 8 | 4 1 2" in out  # first row of the seed's solution
    assert "\033[" not in out  # no colour codes when stdout is not a terminal


def test_json_lines_follow_the_contract_in_input_order(tmp_path, capsys):
    source = tmp_path / "three.txt"
    source.write_text(f"{SEED_PUZZLE}\n{'1' * 80}\n{WIKI_PUZZLE}\n")
    code, out, _ = run(capsys, "sudoku", "check", str(source), "--json")
    assert code == 0
    first, bad, third = json_lines(out)
    assert [r["index"] for r in (first, bad, third)] == [0, 1, 2]
    assert first["status"] == "solved" and first["uniqueness"] == "unique"
    assert "".join(map(str, sum(first["solution"], []))) == SEED_SOLUTION
    assert "".join(map(str, sum(third["solution"], []))) == WIKI_SOLUTION
    assert bad["status"] == "invalid" and "line 2" in bad["error"] and bad["solution"] is None
    for key in (
        "index",
        "status",
        "solution",
        "uniqueness",
        "solutions",
        "count",
        "complete",
        "engine",
        "seconds",
        "error",
    ):
        assert key in first


@pytest.mark.parametrize("engine", ["sat", "cpsat", "backtrack"])
def test_count_reports_whether_it_is_complete(tmp_path, capsys, engine):
    source = tmp_path / "empty4.txt"
    source.write_text("." * 16 + "\n")
    _, out, _ = run(capsys, "sudoku", "count", str(source), "--engine", engine, "--json")
    assert json_lines(out)[0]["count"] == 288 and json_lines(out)[0]["complete"] is True
    _, out, _ = run(capsys, "sudoku", "count", str(source), "--engine", engine, "--limit", "10", "--json")
    assert (json_lines(out)[0]["count"], json_lines(out)[0]["complete"]) == (10, False)


def test_standard_input_is_read_with_a_dash(monkeypatch, capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SEED_PUZZLE.encode())))
    code, out, _ = run(capsys, "sudoku", "solve", "-", "--json")
    assert code == 0 and json_lines(out)[0]["status"] == "solved"


def test_unsolvable_is_a_result_with_exit_code_zero(tmp_path, capsys):
    source = tmp_path / "clash.txt"
    source.write_text("55" + "." * 79)
    code, out, _ = run(capsys, "sudoku", "solve", str(source), "--json")
    record = json_lines(out)[0]
    assert code == 0 and record["status"] == "unsolvable"
    assert "5 appears twice in row 1" in record["message"]


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "empty"),
        (b"\x00\x01binary", "not a text file"),
        (b"\xff\xfe\xfa", "not a UTF-8 text file"),
        ("1" * 80, "80 cells do not make a square grid"),
        ("." * 40 + "?" + "." * 40, "character 41: unknown symbol '?'"),
        ("9" + "." * 15, "r1c1: '9' is out of range for a 4x4 Sudoku"),
        ('{"grid": "' + "." * 16 + '", "regions": "AAAABBBBCCCCCDDD"}', "region C has 5 cells, it needs 4"),
        ("5" * 10_000_000, "too long for a puzzle"),
        ("# only a comment\n", "no puzzle in it"),
    ],
)
def test_bad_input_is_one_line_naming_the_problem_with_exit_code_2(tmp_path, capsys, content, message):
    source = tmp_path / "bad.txt"
    source.write_bytes(content if isinstance(content, bytes) else content.encode())
    code, out, err = run(capsys, "sudoku", "solve", str(source))
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_missing_file_and_bad_arguments_exit_2(capsys):
    code, _, err = run(capsys, "sudoku", "solve", "/no/such/file.txt")
    assert code == 2 and "no such file" in err
    with pytest.raises(SystemExit) as caught:
        main(["sudoku", "solve", "x.txt", "--engine", "magic"])
    assert caught.value.code == 2
    with pytest.raises(SystemExit) as caught:
        main(["sudoku", "count", "x.txt", "--limit", "-1"])
    assert caught.value.code == 2


def test_the_installed_command_never_shows_a_traceback(tmp_path):
    source = tmp_path / "bad.txt"
    source.write_text("not a sudoku at all")
    done = subprocess.run(
        [sys.executable, "-m", "mindgames.cli", "sudoku", "check", str(source)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "line 1" in done.stderr


def test_generate_writes_a_collection_that_check_reads_back(tmp_path, capsys):
    code, out, _ = run(capsys, "sudoku", "generate", "--box", "2x3", "--count", "3", "--seed", "1")
    assert code == 0
    source = tmp_path / "generated.txt"
    source.write_text(out)
    _, out, _ = run(capsys, "sudoku", "check", str(source), "--json")
    assert [r["uniqueness"] for r in json_lines(out)] == ["unique"] * 3


def test_the_console_script_runs_the_bundled_example():
    # python-sat puts a models.py script beside console scripts; it must not hide our package.
    script = Path(sys.executable).parent / "mindgames"
    if not script.exists():
        pytest.skip("the mindgames console script is not installed in this environment")
    done = subprocess.run(
        [str(script), "sudoku", "solve", str(REPO / "data" / "sudoku" / "seed.txt"), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["status"] for line in done.stdout.splitlines()] == ["solved", "solved"]
