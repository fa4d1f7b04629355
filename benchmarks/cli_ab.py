"""Whole-process CLI cost of this checkout against another one, in one sitting.

    python benchmarks/cli_ab.py OTHER_CHECKOUT [--count 5000] [--rounds 3]

OTHER_CHECKOUT is a clone with its own ``.venv`` (e.g. ``git worktree add ../old REV`` and
``python3 -m venv ../old/.venv && ../old/.venv/bin/pip install -e ../old``).  Each command
runs in both, alternating, ``--rounds`` times; the least CPU time (user + system, the command
and its children) of each is kept, so that a machine busy with other work slows both alike.
The ratio this / other is the figure; CPU time moves less with load than wall time.

Commands: start-up (``sudoku solve data/sudoku/seed.txt``), ``sudoku solve`` and
``sudoku check`` of the first ``--count`` 17-clue puzzles (``--json --jobs 1``), and
``binairo count --size 8``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
SHARED = HERE.parent / "shared" / "data" / "sudoku" / "17clue_royle_49158.txt"


def cpu_seconds(checkout: Path, argv: list[str], stdin: Path | None = None) -> float:
    """CPU seconds of ``mindgames ARGV`` run by ``checkout``'s own venv."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdin or os.devnull, "rb") as given:
        subprocess.run(
            [str(checkout / ".venv" / "bin" / "mindgames"), *argv],
            cwd=checkout, stdin=given, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
        )  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path)
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not SHARED.exists():
        print(f"needs {SHARED}", file=sys.stderr)
        return 2
    puzzles = Path(os.environ.get("TMPDIR", "/tmp")) / f"cli_ab_{args.count}.txt"
    puzzles.write_text("".join(SHARED.read_text().splitlines(keepends=True)[: args.count]))
    seed = "data/sudoku/seed.txt"
    commands = {
        "start-up: sudoku solve seed.txt": ["sudoku", "solve", seed],
        f"sudoku solve {args.count} (--jobs 1)": ["sudoku", "solve", str(puzzles), "--json", "--jobs", "1"],
        f"sudoku check {args.count} (--jobs 1)": ["sudoku", "check", str(puzzles), "--json", "--jobs", "1"],
        "binairo count --size 8": ["binairo", "count", "--size", "8", "--json"],
    }
    print(f"| command | this (CPU s) | {args.other.name} (CPU s) | this / other |")
    print("|---|---:|---:|---:|")
    for name, argv in commands.items():
        best = {"this": float("inf"), "other": float("inf")}
        for _ in range(args.rounds):
            best["this"] = min(best["this"], cpu_seconds(HERE, argv))
            best["other"] = min(best["other"], cpu_seconds(args.other.resolve(), argv))
        print(f"| {name} | {best['this']:.2f} | {best['other']:.2f} | {best['this'] / best['other']:.2f} |")
    print(f"\nload average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
