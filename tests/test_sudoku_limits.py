"""Every Sudoku limit holds and long work shows progress (on a terminal only).

Time caps here are generous on purpose ("it stopped", not "it was fast"):
the tests must pass on a slow, busy machine."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time

import pytest

from mindgames.cli import build_parser, main
from mindgames.models import sudoku
from tests.conftest import REPO
from tests.test_sudoku import WIKI_PUZZLE

SLACK = 5.0  # seconds beyond --time-limit that a whole process may take in these tests


def mindgames(
    *args: str, stdin: str | None = None, cap: float = 120
) -> tuple[subprocess.CompletedProcess, float]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mindgames.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=cap,
    )
    return done, time.perf_counter() - start


def records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


# --- count: a default limit ---------------------------------------------------
def test_count_stops_at_10000_solutions_by_default_and_says_so_in_help(capsys):
    args = build_parser().parse_args(["sudoku", "count", "x.txt"])
    assert args.limit == 10_000
    with pytest.raises(SystemExit):
        main(["sudoku", "count", "--help"])
    assert "default 10,000; 0: no limit" in " ".join(capsys.readouterr().out.split())


def test_count_limit_zero_means_no_limit(tmp_path, capsys):
    source = tmp_path / "empty4.txt"
    source.write_text("." * 16)
    assert main(["sudoku", "count", str(source), "--limit", "0", "--json"]) == 0
    (record,) = records(capsys.readouterr().out)
    assert (record["count"], record["complete"]) == (288, True)


def test_a_count_stopped_by_its_limit_says_at_least_and_names_the_limit(tmp_path, capsys):
    source = tmp_path / "empty4.txt"
    source.write_text("." * 16)
    main(["sudoku", "count", str(source), "--limit", "5"])
    assert "at least 5 solutions (stopped at --limit 5)" in capsys.readouterr().out


def test_a_count_stopped_by_time_says_at_least_and_time_limit(tmp_path, capsys):
    source = tmp_path / "empty16.txt"
    source.write_text("." * 256)
    main(["sudoku", "count", str(source), "--engine", "backtrack", "--limit", "0", "--time-limit", "1"])
    first = capsys.readouterr().out.splitlines()[0]
    assert "solutions (time limit)" in first or "unknown (no solution found before the time limit)" in first


# --- --time-limit holds for the whole process, on every engine ------------------
HARD = {
    # The textbook search needs ~10^8 tries for the Wikipedia puzzle; the
    # others spend their time on a blank 25x25 (building it, or enumerating it).
    "backtrack": WIKI_PUZZLE,
    "sat": "." * 625,
    "cpsat": "." * 625,
}


@pytest.mark.parametrize("action", ["solve", "check", "count"])
@pytest.mark.parametrize("engine", ["sat", "cpsat", "backtrack"])
def test_time_limit_holds_for_the_whole_process(engine, action):
    extra = ["--limit", "0"] if action == "count" else []
    done, seconds = mindgames(
        "sudoku",
        action,
        "-",
        "--engine",
        engine,
        "--time-limit",
        "1",
        "--json",
        *extra,
        stdin=HARD[engine],
    )
    assert done.returncode == 0, done.stderr
    assert seconds < 1 + SLACK
    (record,) = records(done.stdout)
    assert record["status"] in ("solved", "unknown")
    if action == "count" and engine != "backtrack":
        assert record["complete"] is False  # a blank 25x25 has far too many solutions to finish


def test_generate_stops_at_its_time_limit_with_a_message_and_exit_code_0():
    done, seconds = mindgames("sudoku", "generate", "--box", "5x5", "--time-limit", "2")
    assert done.returncode == 0 and seconds < 2 + SLACK
    assert "time limit of 2 s reached: 0 puzzles of 1 generated" in done.stderr
    assert done.stdout == ""


def test_generate_writes_the_puzzles_finished_before_its_time_limit():
    done, seconds = mindgames("sudoku", "generate", "--box", "2x2", "--count", "100000", "--time-limit", "3")
    assert done.returncode == 0 and seconds < 3 + SLACK
    assert "of 100000 generated" in done.stderr
    checked, _ = mindgames("sudoku", "check", "-", "--json", stdin=done.stdout)
    results = records(checked.stdout)
    assert results and all(r["uniqueness"] == "unique" for r in results)


def test_generate_time_limit_in_the_library_raises_time_limit_reached():
    from mindgames.models.errors import TimeLimitReached
    from mindgames.solver.deadline import Deadline

    empty = sudoku.make_puzzle([[0] * 16 for _ in range(16)], [4, 4])
    with pytest.raises(TimeLimitReached):
        sudoku.generate(empty, seed=1, deadline=Deadline(0.0))


# --- progress: on a terminal, never on a pipe ----------------------------------
def test_nothing_but_results_on_a_pipe():
    done, _ = mindgames("sudoku", "count", str(REPO / "data" / "sudoku" / "seed.txt"), "--time-limit", "1")
    assert done.returncode == 0 and done.stderr == ""


def test_count_on_a_terminal_shows_solutions_so_far_and_which_puzzle(tmp_path, monkeypatch, capsys):
    source = tmp_path / "two.txt"
    source.write_text("." * 256 + "\n" + "." * 16 + "\n")
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    main(
        [
            "sudoku",
            "count",
            str(source),
            "--engine",
            "backtrack",
            "--limit",
            "0",
            "--time-limit",
            "1.5",
            "--json",
        ]
    )
    shown = terminal.getvalue()
    assert "sudoku count: puzzle 1 of 2," in shown and "solutions so far" in shown
    assert [r["count"] for r in records(capsys.readouterr().out)][1] == 288  # stdout stays clean JSON


def test_generate_on_a_terminal_shows_what_it_is_doing(monkeypatch, capsys):
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    main(["sudoku", "generate", "--box", "4x4", "--seed", "1", "--time-limit", "3"])
    assert "sudoku generate: removing givens" in terminal.getvalue()
