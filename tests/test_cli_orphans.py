"""A command killed by SIGKILL takes its worker processes with it (issue 24, item 8).

SIGKILL gives the command no chance to stop its workers (a timeout, the OOM killer, a CI
runner all use it); each worker must notice on its own that its parent is gone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table in /proc")


def children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def kill_and_watch(argv: list[str], workers: int, tmp_path: Path) -> None:
    command = subprocess.Popen(
        [sys.executable, "-m", "mindgames.cli", *argv],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        started: set[int] = set()
        while len(started) < workers and time.monotonic() < deadline:
            time.sleep(0.2)
            started = children(command.pid)
        assert len(started) >= workers, "the workers never started"
        time.sleep(1.0)  # at work by now
        command.send_signal(signal.SIGKILL)
        command.wait()
        deadline = time.monotonic() + 2.0
        while any(alive(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [pid for pid in started if alive(pid)]
        for pid in left:  # do not leave them to the next test
            os.kill(pid, signal.SIGKILL)
        assert left == [], "workers outlived their command"
    finally:
        if command.poll() is None:
            command.kill()


def test_grid_command_workers_end_with_their_command(tmp_path):
    puzzles = tmp_path / "blank.txt"
    puzzles.write_text(("." * 81 + "\n") * 20)  # counting every 9x9 grid never ends
    kill_and_watch(["sudoku", "count", str(puzzles), "--jobs", "2", "--limit", "0"], 2, tmp_path)


def test_counting_workers_end_with_their_command(tmp_path):
    checkpoint = tmp_path / "count.jsonl"
    kill_and_watch(
        ["binairo", "count", "--size", "12", "--jobs", "2", "--checkpoint", str(checkpoint)], 2, tmp_path
    )


def test_generation_run_workers_end_with_their_command(tmp_path):
    # two part makers and the pool's resource tracker
    kill_and_watch(
        ["sudoku", "generate", "--count", "5000", "--out", str(tmp_path / "run"), "--jobs", "2"], 3, tmp_path
    )
