"""``mindgames KIND solve|check|count FILE --jobs N``: worker processes, the same output.

The output with ``--jobs N`` is what one process writes, byte for byte and in input
order, except what depends on the puzzles a solver answered before (each worker sees
other ones): timings (``seconds``, ``N ms``), the engine's search counters
(``stats``), and, for a puzzle with several solutions, which one ``solve`` shows (and
which two witnesses ``check`` shows).  Ctrl-C leaves no worker behind; the
results stream, so a long input does not pile up in memory.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.test_sudoku import SEED_SOLUTION, WIKI_PUZZLE

ACTIONS = ("solve", "check", "count")


def mindgames(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mindgames.cli", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        **kwargs,
    )


def without_run_dependent(value, loose: bool = False):
    """The JSON without timings and search counters (and, for a ``loose`` puzzle, one
    with several solutions, without the solutions shown)."""
    left_out = ("seconds", "stats") + (("solution", "solutions") if loose else ())
    if isinstance(value, dict):
        return {k: without_run_dependent(v) for k, v in value.items() if k not in left_out}
    if isinstance(value, list):
        return [without_run_dependent(v) for v in value]
    return value


def json_answers(out: str, loose: set[int] = frozenset()) -> list:
    answers = [json.loads(line) for line in out.splitlines()]
    return [without_run_dependent(answer, answer.get("index") in loose) for answer in answers]


def text_without_timings(out: str) -> str:
    return re.sub(r"\d+\.\d ms", "T ms", out)


def mixed_collection(path: Path, puzzles: int = 60, loose: bool = True) -> set[int]:
    """Write unique (and, if ``loose``, multiple) and unsolvable puzzles (the seed solution
    with cells blanked, one cell changed) with unreadable lines between them; return the
    indexes of the loose puzzles (60 blanks: several solutions)."""
    rng = random.Random(13)
    lines = [WIKI_PUZZLE]
    several = set()
    for number in range(puzzles):
        cells = list(SEED_SOLUTION)
        blanks = rng.choice((20, 28, 60) if loose else (20, 28))
        if blanks == 60:
            several.add(len(lines))
        for cell in rng.sample(range(81), blanks):
            cells[cell] = "."
        if number % 7 == 3:  # a clash in the first row: unsolvable (or invalid if both are given)
            cells[0] = cells[1] if cells[1] != "." else cells[0]
        lines.append("".join(cells))
        if number % 9 == 4:
            lines.append(rng.choice(("12345", "x" * 81, "1" * 82)))
    path.write_text("\n".join(lines) + "\n")
    return several


@pytest.mark.parametrize("action", ACTIONS)
def test_json_with_two_workers_is_one_process_json_in_input_order(tmp_path, action):
    source = tmp_path / "mixed.txt"
    loose = mixed_collection(source)
    limit = ("--limit", "50") if action == "count" else ()  # loose puzzles have thousands
    one = mindgames("sudoku", action, str(source), "--json", "--jobs", "1", *limit)
    two = mindgames("sudoku", action, str(source), "--json", "--jobs", "2", *limit)
    assert one.returncode == two.returncode == 0, two.stderr
    assert json_answers(two.stdout, loose) == json_answers(one.stdout, loose)
    answers = json_answers(one.stdout)
    assert {"invalid", "unsolvable"} <= {answer["status"] for answer in answers}  # really mixed
    if action == "check":
        assert {"unique", "multiple"} <= {answer["uniqueness"] for answer in answers}


@pytest.mark.parametrize("action", ACTIONS)
def test_text_with_three_workers_is_one_process_text(tmp_path, action):
    source = str(tmp_path / "mixed.txt")
    mixed_collection(Path(source), puzzles=25, loose=False)
    one = mindgames("sudoku", action, source, "--jobs", "1")
    three = mindgames("sudoku", action, source, "--jobs", "3")
    assert one.returncode == three.returncode == 0, three.stderr
    assert text_without_timings(three.stdout) == text_without_timings(one.stdout)


def test_every_grid_kind_has_jobs():
    source = str(REPO / "data" / "binairo" / "takuzu_8x8.txt")
    one = mindgames("binairo", "check", source, "--json", "--jobs", "1")
    two = mindgames("binairo", "check", source, "--json", "--jobs", "2")
    assert json_answers(two.stdout) == json_answers(one.stdout)


def test_jobs_must_be_a_positive_number():
    done = mindgames("sudoku", "solve", "data/sudoku/seed.txt", "--jobs", "0")
    assert done.returncode == 2 and "--jobs" in done.stderr and "Traceback" not in done.stderr


def children_of(pid: int) -> set[int]:
    """The live child processes of ``pid`` (Linux /proc)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found |= {int(child) for child in (task / "children").read_text().split()}
        except OSError:
            pass
    return found


def workers_of(pid: int) -> list[int]:
    """The command's worker processes: its children running mindgames.commands.grid_jobs."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if parent == pid and b"grid_jobs" in command:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def long_check_with_two_workers(tmp_path: Path) -> subprocess.Popen:
    """``sudoku check --json --jobs 2`` on 20,000 puzzles, running (kill it when done)."""
    source = tmp_path / "many.txt"
    source.write_text((WIKI_PUZZLE + "\n") * 20_000)
    return subprocess.Popen(
        [sys.executable, "-m", "mindgames.cli", "sudoku", "check", str(source), "--json", "--jobs", "2"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_ctrl_c_with_workers_leaves_no_process_behind(tmp_path):
    command = long_check_with_two_workers(tmp_path)
    try:
        command.stdout.readline()  # the workers are answering
        workers = children_of(command.pid)
        assert len(workers) == 2
        command.send_signal(signal.SIGINT)
        _, err = command.communicate(timeout=60)
    finally:
        if command.poll() is None:
            command.kill()
            command.wait()
    assert command.returncode == 130 and "interrupted" in err and "Traceback" not in err
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers)


def test_a_worker_that_dies_is_a_one_line_error(tmp_path):
    """A worker killed under the command: one line naming what happened, exit 1."""
    command = long_check_with_two_workers(tmp_path)
    try:
        command.stdout.readline()
        # Every worker is killed: with only one gone, the other may already hold the
        # rest of the work queue's answers, and whether the dead one is noticed would
        # depend on timing.
        victims = workers_of(command.pid)
        assert victims, "no worker process found"
        for victim in victims:
            os.kill(victim, signal.SIGKILL)
        _, err = command.communicate(timeout=60)
    finally:
        if command.poll() is None:
            command.kill()
            command.wait()
    assert command.returncode == 1
    assert err.splitlines() == [err.strip()] and "worker process died" in err


def peak_memory(*args: str, output: Path) -> int:
    """The largest resident size (bytes) of any process of ``mindgames ARGS``."""
    script = (
        "import resource, subprocess, sys; "
        "out = open(sys.argv[1], 'w'); subprocess.run(sys.argv[2:], check=True, stdout=out); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(output), sys.executable, "-m", "mindgames.cli", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout) * 1024


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in KiB on Linux")
def test_a_long_input_streams_its_results(tmp_path):
    """200,000 puzzles: the results stream out of the workers and the parent; no
    process holds more than one process answering alone does (the input itself is
    read whole, as before)."""
    source = tmp_path / "long.txt"
    source.write_text(("1234" + "." * 12 + "\n") * 200_000)  # 4x4: quick to answer
    alone = peak_memory(
        "sudoku", "solve", str(source), "--json", "--jobs", "1", output=tmp_path / "one.jsonl"
    )
    output = tmp_path / "two.jsonl"
    with_workers = peak_memory("sudoku", "solve", str(source), "--json", "--jobs", "2", output=output)
    assert sum(1 for _ in output.open()) == 200_000
    assert with_workers < alone * 1.2
    assert with_workers < output.stat().st_size * 4  # not a Python object per result kept
