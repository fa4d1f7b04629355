"""Binairo limits and manners: sizes the counter cannot take, whole-run time limits, Ctrl-C,
where checkpoints live, progress only on a terminal, colours, and wording."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mindgames.cli import build_parser, main
from mindgames.commands import grid as grid_command
from mindgames.models.binairo import count as binairo_count
from mindgames.models.binairo import read
from mindgames.render import BOLD, RED

REPO = Path(__file__).resolve().parents[1]
CAP = 60  # seconds: a generous hard cap that proves "it stopped", not a timing claim


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as stop:
            code = stop.code
    return code, out.getvalue(), err.getvalue()


def mindgames(*argv: str, cache: Path, cwd: Path, timeout: float = CAP) -> subprocess.CompletedProcess:
    """The real command in a fresh process, stdout and stderr piped, cache dir under the test's."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_CACHE_HOME": str(cache)}
    return subprocess.run(
        [sys.executable, "-m", "mindgames.cli", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=timeout,
    )


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A private user cache directory (platformdirs honours XDG_CACHE_HOME on Linux)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


# -- sizes the fast counter cannot count --------------------------------------------------------


@pytest.mark.parametrize("size", ["16", "16x14", "14x16", "64x64", "64x10"])
def test_too_big_sizes_are_one_line_naming_the_largest(size):
    code, out, err = cli("binairo", "count", "--size", size, "--no-checkpoint")
    assert code == 2 and out == ""
    assert "up to 14x14" in err and "64-bit" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("size", ["0", "7", "3x4", "6x0", "66"])
def test_impossible_sizes_are_one_line_errors(size):
    code, _, err = cli("binairo", "count", "--size", size)
    assert code == 2 and "even number" in err and "Traceback" not in err


def test_largest_in_words_matches_what_fits():
    # LARGEST says: 14x14; 16-30 rows x 12; 32-62 x 10; 64 x 8 (either way round)
    widest = {r: max(c for c in range(2, 17, 2) if binairo_count.fits(r, c)) for r in range(2, 65, 2)}
    assert widest[14] == 14 and not binairo_count.fits(14, 16)
    assert {widest[r] for r in range(16, 31, 2)} == {12}
    assert {widest[r] for r in range(32, 63, 2)} == {10}
    assert widest[64] == 8


def test_a_long_thin_grid_is_counted_either_way_round():
    valid = len(binairo_count.valid_rows(16))  # row 2 is row 1 complemented
    for size in ("2x16", "16x2"):
        for rules, expected in (("takuzu", 0), ("unruly", valid)):
            code, out, _ = cli("binairo", "count", "--size", size, "--rules", rules, "--json")
            assert code == 0 and json.loads(out)["count"] == expected


# -- whole-run time limits ------------------------------------------------------------------


def test_count_size_stops_at_the_time_limit_with_unknown_and_keeps_the_checkpoint(tmp_path):
    cache = tmp_path / "cache"
    done = mindgames(
        "binairo", "count", "--size", "12", "--time-limit", "1", "--json", cache=cache, cwd=tmp_path
    )
    assert done.returncode == 0 and done.stderr == ""
    result = json.loads(done.stdout)
    assert result["status"] == "unknown" and result["count"] is None
    assert "time limit" in result["message"]
    assert Path(result["checkpoint"]).parent == cache / "mindgames"
    assert Path(result["checkpoint"]).exists()


def test_count_estimate_stops_at_the_time_limit(tmp_path):
    done = mindgames(
        "binairo",
        "count",
        "--size",
        "12",
        "--estimate",
        "3",
        "--time-limit",
        "1",
        "--json",
        cache=tmp_path,
        cwd=tmp_path,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["status"] in ("unknown", "estimated")


def test_count_by_engine_stops_at_the_time_limit(tmp_path):
    done = mindgames(
        "binairo",
        "count",
        "--size",
        "10",
        "--method",
        "engine",
        "--limit",
        "0",
        "--time-limit",
        "1",
        cache=tmp_path,
        cwd=tmp_path,
    )
    assert done.returncode == 0
    # a loaded machine may not reach the first grid within the second: both are the limit's result
    assert (
        "10x10 takuzu grids: at least" in done.stdout
        and "(time limit)" in done.stdout
        or "10x10 takuzu grids: unknown (no grid found before the time limit)" in done.stdout
    )


def test_generate_stops_at_the_time_limit_with_what_it_made(tmp_path):
    done = mindgames(
        "binairo",
        "generate",
        "--size",
        "40",
        "--count",
        "3",
        "--time-limit",
        "1",
        cache=tmp_path,
        cwd=tmp_path,
    )
    assert done.returncode == 0
    made = read(done.stdout) if done.stdout.strip() else []  # only whole puzzles, if any
    assert all(item.puzzle is not None for item in made)
    assert f"time limit reached: {len(made)} of 3 puzzles made" in done.stderr


def test_ctrl_c_keeps_the_checkpoint_and_says_where(tmp_path):
    cache = tmp_path / "cache"
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_CACHE_HOME": str(cache)}
    process = subprocess.Popen(
        [sys.executable, "-m", "mindgames.cli", "binairo", "count", "--size", "12"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    checkpoint = cache / "mindgames" / "binairo-count-12x12-takuzu-mitm.jsonl"
    end = time.monotonic() + CAP
    while not checkpoint.exists() and time.monotonic() < end:
        time.sleep(0.2)
    time.sleep(0.5)  # into the cube pool
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=CAP)
    assert process.returncode == 130
    assert f"finished cubes are in {checkpoint}" in err and "Traceback" not in err
    assert checkpoint.exists()


# -- where checkpoints live ------------------------------------------------------------------


def test_automatic_checkpoint_lives_in_the_cache_and_goes_when_done(cache, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # 26 rows of 4: big enough (>= 100 cells) for an automatic checkpoint, quick to count
    code, out, _ = cli("binairo", "count", "--size", "26x4", "--rules", "unruly", "--json")
    assert code == 0 and json.loads(out)["complete"] and json.loads(out)["checkpoint"] is None
    assert list(tmp_path.glob("*.jsonl")) == []
    assert list((cache / "mindgames").glob("*")) == []


def test_an_explicit_checkpoint_is_kept(cache, tmp_path):
    path = tmp_path / "mine.jsonl"
    code, out, _ = cli("binairo", "count", "--size", "26x4", "--checkpoint", str(path), "--json")
    assert code == 0 and json.loads(out)["checkpoint"] == str(path) and path.exists()


def test_the_progress_line_names_the_checkpoint_on_a_terminal(cache, monkeypatch, capsys):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["binairo", "count", "--size", "26x4", "--rules", "unruly"]) == 0
    err = capsys.readouterr().err
    path = cache / "mindgames" / "binairo-count-26x4-unruly-mitm.jsonl"
    assert f"binairo count 26x4 unruly (mitm): cubes checkpoint: {path}" in err


# -- progress only on a terminal -------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["binairo", "count", "--size", "8"],
        ["binairo", "generate", "--size", "10", "--count", "2"],
    ],
)
def test_nothing_on_stderr_when_it_is_a_pipe(argv, tmp_path):
    done = mindgames(*argv, cache=tmp_path, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""


def test_generate_shows_progress_on_a_terminal(monkeypatch, capsys):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["binairo", "generate", "--size", "8", "--count", "2", "--seed", "1"]) == 0
    assert "binairo generate 2 puzzles 8x8 takuzu" in capsys.readouterr().err


# -- givens and filled-in cells ------------------------------------------------------------------


def test_on_a_terminal_givens_are_bold_and_filled_cells_red(tmp_path, monkeypatch, capsys):
    path = tmp_path / "p.txt"
    path.write_text("1..0\n....\n..1.\n0...\n")
    monkeypatch.setattr(grid_command, "stdout_is_terminal", lambda: True)
    main(["binairo", "solve", str(path)])
    out = capsys.readouterr().out
    solved = out.splitlines()[1].split()[1]  # row 1 of the solution, beside the puzzle
    assert solved.startswith(f"{BOLD}1") and RED in solved


def test_piped_output_has_no_colour_codes(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("1..0\n....\n..1.\n0...\n")
    main(["binairo", "solve", str(path)])
    assert "\033[" not in capsys.readouterr().out


# -- wording ---------------------------------------------------------------------------------


def test_one_given_is_singular():
    code, out, _ = cli("binairo", "generate", "--size", "2", "--seed", "1")
    assert code == 0 and ", 1 given, unique" in out


def test_a_count_stopped_by_the_limit_says_at_least(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("......\n" * 6)
    _, out, _ = cli("binairo", "count", str(path), "--limit", "5")
    assert "at least 5 solutions (stopped at --limit 5)" in out
    _, out, _ = cli("binairo", "count", str(path), "--limit", "5", "--json")
    assert json.loads(out)["message"] == "stopped at --limit 5"


def test_a_unique_count_is_one_solution(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("1.\n..\n")
    _, out, _ = cli("binairo", "count", str(path))
    assert ": 1 solution," in out


def test_enumeration_counts_have_a_default_limit_of_ten_thousand():
    args = build_parser().parse_args(["binairo", "count", "x.txt"])
    assert args.limit == 10_000
    assert build_parser().parse_args(["binairo", "count", "x.txt", "--limit", "0"]).limit == 0


def test_counting_one_puzzle_shows_solutions_found_on_a_terminal(tmp_path, monkeypatch, capsys):
    path = tmp_path / "p.txt"
    path.write_text("......\n" * 6)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["binairo", "count", str(path), "--limit", "50"]) == 0
    assert "binairo count: solutions" in capsys.readouterr().err


def test_minimize_says_why_it_leaves_a_puzzle_alone(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("1..0\n....\n..1.\n0...\n")
    _, out, _ = cli("binairo", "minimize", str(path))
    assert "not minimized: the puzzle has more than one solution" in out


def test_count_cross_check_compares_with_the_checkpoint_and_exits_1_on_a_difference(tmp_path):
    log = tmp_path / "c6.jsonl"
    code, out, _ = cli(
        "binairo", "count", "--size", "6", "--checkpoint", str(log), "--cross-check", "100", "--json"
    )
    result = json.loads(out)
    assert code == 0 and result["count"] == 4140
    assert result["recounts"] and all(r["agrees"] for r in result["recounts"])
    lines = log.read_text().splitlines()
    cube = json.loads(lines[1])
    cube["count"] += 1  # a record gone wrong: the resumed count trusts it, the cross-check does not
    log.write_text("\n".join([lines[0], json.dumps(cube), *lines[2:]]) + "\n")
    code, out, err = cli("binairo", "count", "--size", "6", "--checkpoint", str(log), "--cross-check", "100")
    assert code == 1 and "cross-check failed: 1 of" in err and "DIFFERENT" in out
    assert "Traceback" not in err
