"""Whole-process Sudoku CLI throughput, next to the library's, in one run.

    python -m benchmarks.cli [--file F] [--count 20000] [--actions solve check] [--jobs 1 2] [--repeat 2]

For each action it measures, on the first ``--count`` puzzles of ``--file`` (default:
the 17-clue set of ../shared/data/sudoku):

* the library: :class:`mindgames.models.runner.PuzzleSolver` in this process on puzzles parsed up
  front, one warm-up puzzle before the clock starts (what ``benchmarks.sudoku`` calls
  the library's rate);
* the whole process, as a user runs it: ``python -m mindgames.cli sudoku ACTION FILE
  --json --jobs N > /dev/null``, start-up, reading, verifying and writing included;
  wall time and the CPU time of the command and its workers;
* with ``--instructions``, the instructions per puzzle (valgrind) of both, which a busy
  machine does not change: what the command adds to the library, exactly.

Runs of one action alternate (library, --jobs 1, --jobs 2, library, ...), ``--repeat``
times, and the best of each is kept, so that a machine shared with other work slows
them alike; the ratios (whole process / library, --jobs N / --jobs 1) are the robust
figures, the absolute rates move with the machine's load, which is printed.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from mindgames.models.registry import get_kind
from mindgames.models.runner import PuzzleSolver

REPO = Path(__file__).resolve().parents[1]
DEFAULT_FILE = REPO.parent / "shared" / "data" / "sudoku" / "17clue_royle_49158.txt"


def library_seconds(path: Path, action: str) -> tuple[float, float]:
    """(wall, CPU) seconds the library takes to answer every puzzle of ``path`` (parsed up front)."""
    kind = get_kind("sudoku")
    puzzles = [item.puzzle for item in kind.read(path.read_text())]
    solver = PuzzleSolver(kind, "sat")
    question = solver.solve if action == "solve" else solver.check
    question(puzzles[0])  # the shape's session is built before the clock starts
    start, start_cpu = time.perf_counter(), time.process_time()
    for puzzle in puzzles:
        question(puzzle)
    return time.perf_counter() - start, time.process_time() - start_cpu


def process_seconds(path: Path, action: str, jobs: int) -> tuple[float, float]:
    """(wall, CPU) seconds of the whole command, its workers' CPU included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mindgames.cli", "sudoku", action, str(path), "--json", "--jobs", str(jobs)],
        stdout=subprocess.DEVNULL,
        check=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


LIBRARY_RUN = """
import sys
from mindgames.models.registry import get_kind
from mindgames.models.runner import PuzzleSolver
kind = get_kind("sudoku")
with open(sys.argv[1]) as source:  # the same puzzles parsed whatever the count answered
    puzzles = [item.puzzle for item in kind.read("".join(line for line, _ in zip(source, range(int(sys.argv[4])))))]
solver = PuzzleSolver(kind, "sat")
question = solver.solve if sys.argv[2] == "solve" else solver.check
for puzzle in puzzles[:int(sys.argv[3])]:
    question(puzzle)
"""


def instructions(command: list[str]) -> int:
    """Instructions the command executes (valgrind's count: the same on a busy machine)."""
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        check=True,
    )
    return int(
        next(line for line in done.stderr.splitlines() if "I   refs" in line).split()[-1].replace(",", "")
    )


def instructions_per_puzzle(path: Path, action: str, few: int, many: int) -> tuple[int, int]:
    """(library, whole process --jobs 1) instructions per puzzle: the difference between
    answering ``many`` and ``few`` puzzles, so start-up and parsing up front drop out."""

    def library(count: int) -> int:
        return instructions([sys.executable, "-c", LIBRARY_RUN, str(path), action, str(count), str(many)])

    def process(count: int) -> int:
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as head:
            head.writelines(line for line, _ in zip(path.open(), range(count)))
            head.flush()
            return instructions(
                [sys.executable, "-m", "mindgames.cli", "sudoku", action, head.name, "--json", "--jobs", "1"]
            )

    return ((library(many) - library(few)) // (many - few), (process(many) - process(few)) // (many - few))


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cli", description=__doc__.split("\n")[0])
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--count", type=int, default=20_000, help="the first COUNT puzzles of FILE")
    parser.add_argument("--actions", nargs="+", choices=("solve", "check"), default=["solve", "check"])
    parser.add_argument("--jobs", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--repeat", type=int, default=2, help="runs of each, the best kept")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count instructions per puzzle (valgrind; 1,000 and 3,000 puzzles)",
    )
    args = parser.parse_args(argv)
    if not args.file.exists():
        print(f"{args.file}: absent (the shared data sets are not beside this clone)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "puzzles.txt"
        with args.file.open() as source:
            lines = [line for line, _ in zip(source, range(args.count))]
        path.write_text("".join(lines))
        count = len(lines)
        print(f"{count:,} puzzles of {args.file.name}; load average before: {load_average()}")
        print(
            "| command | mode | wall s | CPU s | puzzles/s (wall) | puzzles/s (CPU) | CPU vs library "
            "| wall vs `--jobs 1` |"
        )
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        for action in args.actions:
            library = (float("inf"), float("inf"))
            runs: dict[int, tuple[float, float]] = {}
            for _ in range(args.repeat):
                library = min(library, library_seconds(path, action))
                for jobs in args.jobs:
                    wall, cpu = process_seconds(path, action, jobs)
                    if jobs not in runs or wall < runs[jobs][0]:
                        runs[jobs] = (wall, cpu)
            print(
                f"| `sudoku {action}` | library, in process | {library[0]:.2f} | {library[1]:.2f} | "
                f"{count / library[0]:,.0f} | {count / library[1]:,.0f} | 1 | |"
            )
            first = runs[args.jobs[0]][0]
            for jobs, (wall, cpu) in runs.items():
                print(
                    f"| `sudoku {action} --json` | `--jobs {jobs}` | {wall:.2f} | {cpu:.2f} | "
                    f"{count / wall:,.0f} | {count / cpu:,.0f} | {library[1] / cpu:.2f}x | {first / wall:.2f}x |"
                )
        print(f"load average after: {load_average()}")
        if args.instructions:
            print(
                "\n| command | library instructions/puzzle | whole process (`--jobs 1`) | library / whole |"
            )
            print("|---|---:|---:|---:|")
            for action in args.actions:
                library, process = instructions_per_puzzle(path, action, 1_000, 3_000)
                print(f"| `sudoku {action} --json` | {library:,} | {process:,} | {library / process:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
