"""Whole process and in-library: ``mindgames sudoku solve --json`` against the Norvig-style
solver (:mod:`benchmarks.norvig`), on every shared Sudoku set, in one run.

    python3 -m benchmarks.sudoku_vs_norvig [--sets ...] [--sample 3000] [--runs 3] [--library-only]

Whole process: each side is a fresh ``python -m`` process given the same file (start-up,
imports, reading, solving, writing the answers all count): ours is
``python -m mindgames.cli sudoku solve FILE --json`` (with the default ``--jobs``, and with
``--jobs 1``), the peer ``python -m benchmarks.norvig FILE``.  Each is run ``--runs`` times,
interleaved, and the fastest run counts (the least disturbed by other load; the first run
writes the bytecode caches, as installing would); wall time and
the child's CPU time (user + sys) are both reported.  The answers are compared: every
shared set has one solution per puzzle, so both sides must print the same grids.

In-library: in this process, every puzzle of the set solved one after the other by one
:class:`mindgames.models.runner.PuzzleSolver` (verification included) and by the Norvig-style solver,
each starting cold (our first model and solver, its first units and peers, are on the clock;
a jigsaw's per-layout work too, on both sides).  Parsing is not timed.  ``--library-only``:
only that, each set in ``--runs`` fresh processes (nothing warm from an earlier set), the
fastest counting: steadier on a loaded machine than the one in-process run of the full table.

Sets: the files of ../shared/data/sudoku/ (a jigsaw line there carries its solution as a
third field, which the CLI does not read: it is cut off), a sample of the 17-clue set
(``--sample``, fixed seed), and ``jigsaw9_turned``: the 66 jigsaw puzzles under the 8
symmetries of the square (528 puzzles, each with a layout of its own).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from mindgames.models import sudoku
from mindgames.models.runner import PuzzleSolver
from mindgames.solver import get_engine

from . import norvig
from .sudoku import DATA, load_average

REPO = Path(__file__).resolve().parents[1]

#: set name -> file under DATA (the 17-clue set is sampled, the jigsaw sets rewritten)
SETS = {
    "17clue": "17clue_royle_49158.txt",
    "top1465": "magictour_top1465.txt",
    "top95": "magictour_top95.txt",
    "forum_hardest": "forum_hardest_1106.txt",
    "norvig_hardest": "norvig_hardest.txt",
    "printable_25clue": "printable_25clue_1000.txt",
    "sudoku16_janko": "sudoku16_janko_62.txt",
    "jigsaw9_janko": "jigsaw9_janko_66.txt",
    "jigsaw9_turned": "jigsaw9_janko_66.txt",
}


def turned(line: str, turns: int, mirrored: bool) -> str:
    """A 9x9 grid of characters turned ``turns`` quarter turns, then mirrored if asked."""
    rows = [line[r * 9 : (r + 1) * 9] for r in range(9)]
    for _ in range(turns):
        rows = ["".join(rows[8 - r][c] for r in range(9)) for c in range(9)]
    return "".join(row[::-1] if mirrored else row for row in rows)


def set_lines(name: str, sample: int, seed: int) -> list[str]:
    """The puzzle lines of a set as both solvers read them: ``puzzle [regions]``."""
    lines = [l.strip() for l in (DATA / SETS[name]).read_text().split("\n") if l.strip()]
    if name == "17clue" and sample < len(lines):
        lines = [lines[i] for i in sorted(random.Random(seed).sample(range(len(lines)), sample))]
    if name.startswith("jigsaw9"):
        pairs = [line.split()[:2] for line in lines]
        if name == "jigsaw9_turned":
            pairs = [
                [turned(t, turns, mirrored) for t in pair]
                for turns in range(4)
                for mirrored in (False, True)
                for pair in pairs
            ]
        lines = [" ".join(pair) for pair in pairs]
    return lines


def timed_process(command: list[str], output: Path) -> tuple[float, float]:
    """Run ``command`` with stdout to ``output``: (wall seconds, CPU seconds of the child)."""
    # Bytecode caches are written and used, as in an installed copy (an environment with
    # PYTHONDONTWRITEBYTECODE would compile every module of ours in every run: ~0.1 s).
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with output.open("w") as out:
        subprocess.run(command, stdout=out, check=True, cwd=REPO, env={**env, "PYTHONPATH": str(REPO)})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def our_grids(output: Path) -> list[str]:
    grids = []
    for line in output.read_text().splitlines():
        solution = json.loads(line)["solution"]
        grids.append("".join(norvig.SYMBOLS[v - 1] for row in solution for v in row) if solution else "-")
    return grids


def whole_process(lines: list[str], runs: int, work: Path) -> dict[str, tuple[float, float]]:
    """Fastest (wall, CPU) of each command over ``runs`` interleaved runs; answers compared."""
    puzzles = work / "puzzles.txt"
    puzzles.write_text("\n".join(lines) + "\n")
    python = sys.executable
    commands = {
        "ours": [python, "-m", "mindgames.cli", "sudoku", "solve", str(puzzles), "--json"],
        "ours --jobs 1": [
            python,
            "-m",
            "mindgames.cli",
            "sudoku",
            "solve",
            str(puzzles),
            "--json",
            "--jobs",
            "1",
        ],
        "norvig": [python, "-m", "benchmarks.norvig", str(puzzles)],
    }
    best: dict[str, tuple[float, float]] = {}
    for _ in range(runs):
        for name, command in commands.items():
            wall, cpu = timed_process(command, work / f"{name}.out")
            old = best.get(name, (float("inf"), float("inf")))
            best[name] = (min(old[0], wall), min(old[1], cpu))
    ours, theirs = our_grids(work / "ours.out"), (work / "norvig.out").read_text().split()
    if ours != theirs or len(ours) != len(lines):
        raise SystemExit(f"the answers differ ({len(ours)} ours, {len(theirs)} Norvig's)")
    return best


def in_library(lines: list[str]) -> tuple[float, float]:
    """Seconds for every puzzle solved in this process: (ours, Norvig-style), each cold."""
    puzzles = [sudoku.parse_line(line) for line in lines]
    get_engine("sat")  # its import is start-up (the whole-process figures have it), not solving
    start = time.process_time()
    solver = PuzzleSolver(sudoku.SUDOKU, "sat")
    for puzzle in puzzles:
        solver.solve(puzzle)
    ours = time.process_time() - start
    start = time.process_time()
    for _answer in norvig.solve_lines(iter(lines)):
        pass
    return ours, time.process_time() - start


def library_only(args: argparse.Namespace) -> None:
    """The in-library figures alone, each set in fresh processes (see the module's doc)."""
    print("| set | puzzles | in-library s ours / Norvig (fastest of fresh processes) | ratio |")
    print("|---|---:|---:|---:|")
    for name in args.sets:
        command = [
            sys.executable,
            "-m",
            "benchmarks.sudoku_vs_norvig",
            "--in-library-of",
            name,
            "--sample",
            str(args.sample),
            "--seed",
            str(args.seed),
        ]
        runs = [
            subprocess.run(
                command,
                capture_output=True,
                text=True,
                check=True,
                cwd=REPO,
                env={**os.environ, "PYTHONPATH": str(REPO)},
            ).stdout.split()
            for _ in range(args.runs)
        ]
        count = int(runs[0][0])
        ours, theirs = (min(float(run[i]) for run in runs) for i in (1, 2))
        print(f"| {name} | {count:,} | {ours:.3f} / {theirs:.3f} | {theirs / ours:.1f}x |", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS))
    parser.add_argument("--sample", type=int, default=3000, help="17-clue puzzles (default 3000)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each process; the fastest counts")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--library-only",
        action="store_true",
        help="only the in-library figures, each set in --runs fresh processes",
    )
    parser.add_argument("--in-library-of", choices=list(SETS), help=argparse.SUPPRESS)  # one such process
    args = parser.parse_args(argv)
    if args.in_library_of:
        lines = set_lines(args.in_library_of, args.sample, args.seed)
        print(len(lines), *in_library(lines))
        return 0
    print(f"Load average at start: {load_average()}\n")
    if args.library_only:
        library_only(args)
        print(f"\nLoad average at end: {load_average()}")
        return 0
    print(
        "| set | puzzles | ours whole s (wall / CPU) | `--jobs 1` (wall / CPU) | Norvig whole s "
        "(wall / CPU) | whole-process ratio (wall / CPU; `--jobs 1` CPU) | in-library s ours / "
        "Norvig | in-library ratio |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets:
            lines = set_lines(name, args.sample, args.seed)
            best = whole_process(lines, args.runs, Path(tmp))
            (ow, oc), (jw, jc), (nw, nc) = best["ours"], best["ours --jobs 1"], best["norvig"]
            lib_ours, lib_norvig = in_library(lines)
            print(
                f"| {name} | {len(lines):,} | {ow:.2f} / {oc:.2f} | {jw:.2f} / {jc:.2f} "
                f"| {nw:.2f} / {nc:.2f} | {nw / ow:.1f}x / {nc / oc:.1f}x; {nc / jc:.1f}x "
                f"| {lib_ours:.3f} / {lib_norvig:.3f} | {lib_norvig / lib_ours:.1f}x |",
                flush=True,
            )
    print(f"\nLoad average at end: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
