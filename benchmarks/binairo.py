"""Binairo benchmark: counting every grid, uniqueness checks, generation.

    python3 benchmarks/binairo.py [--cap 60] [--max-size 10] [--sample 200] [--out FILE.md]

One run, one machine.  Counting the empty n x n grid by every method, each
with a time cap (a capped run reports how far it got and its rate): the
``backtrack`` engine (the seed's way: cells tried 0 then 1 in reading order),
CP-SAT and python-sat enumeration, the compiled row DFS, and meet in the
middle (timed as a whole ``mindgames`` process, imports included).  The
baseline for the ratios is the backtrack engine measured in the same run.
The shared puzzle sets are read from ../shared (skipped when absent).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mindgames.models import binairo  # noqa: E402
from mindgames.models.runner import PuzzleSolver  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "binairo"
if not SHARED.exists():
    SHARED = Path("/work/shared/data/binairo")
KNOWN = {2: 2, 4: 72, 6: 4140, 8: 4111116, 10: 48183195384}


def engine_count(engine: str, n: int, cap: float) -> dict:
    solver = PuzzleSolver(binairo.BINAIRO, engine)
    empty = binairo.Puzzle(tuple((None,) * n for _ in range(n)))
    start = time.perf_counter()
    result = solver.count(empty, time_limit=cap)
    seconds = time.perf_counter() - start
    return {"count": result.count, "complete": result.complete, "seconds": seconds}


def process_count(method: str, n: int, cap: float, jobs: int | None) -> dict:
    argv = [
        sys.executable,
        "-m",
        "mindgames.cli",
        "binairo",
        "count",
        "--size",
        str(n),
        "--method",
        method,
        "--json",
        "--cross-check",
        "0",
        "--no-checkpoint",
    ]
    if jobs:
        argv += ["--jobs", str(jobs)]
    start = time.perf_counter()
    try:
        out = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=cap, check=True)
    except subprocess.TimeoutExpired:
        return {"count": None, "complete": False, "seconds": time.perf_counter() - start}
    data = json.loads(out.stdout)
    return {
        "count": data["count"],
        "complete": True,
        "seconds": time.perf_counter() - start,
        "inner": data["seconds"],
    }


def cell(run: dict, baseline: dict | None) -> str:
    if not run["complete"]:
        rate = (run["count"] or 0) / run["seconds"]
        text = f"> {run['seconds']:.0f} s (capped"
        return text + (f", {rate:,.0f} grids/s)" if run["count"] else ")")
    text = f"{run['seconds']:.2f} s"
    if "inner" in run:  # a whole mindgames process: also the count inside it
        text += f" [count {run['inner']:.2f} s]"
    if baseline:
        if baseline["complete"]:
            text += f" ({baseline['seconds'] / run['seconds']:,.0f}x)"
        elif baseline["count"]:
            base_rate = baseline["count"] / baseline["seconds"]
            text += f" (>{run['count'] / run['seconds'] / base_rate:,.0f}x)"
    return text


def counting(sizes: list[int], cap: float, jobs: int | None) -> list[str]:
    lines = [
        "| n | grids | backtrack (baseline) | cpsat | sat | dfs (numba) | mitm (numba) |",
        "|---|---|---|---|---|---|---|",
    ]
    for n in sizes:
        runs = {}
        for engine in ("backtrack", "cpsat", "sat"):
            runs[engine] = engine_count(engine, n, cap)
        for method in ("dfs", "mitm"):
            runs[method] = process_count(method, n, cap, jobs)
        counts = {r["count"] for r in runs.values() if r["complete"]}
        assert len(counts) <= 1, runs  # every finished method agrees
        if counts and n in KNOWN:
            assert counts == {KNOWN[n]}, runs
        base = runs["backtrack"]
        row = [str(n), f"{next(iter(counts)):,}" if counts else "?", cell(base, None)]
        row += [cell(runs[m], base) for m in ("cpsat", "sat", "dfs", "mitm")]
        lines.append("| " + " | ".join(row) + " |")
        print(lines[-1], flush=True)
    return lines


def uniqueness(sample: int, cap: float) -> list[str]:
    lines = ["| puzzles | backtrack | cpsat | sat |", "|---|---|---|---|"]
    for size in (6, 8, 10, 12, 14):
        path = SHARED / f"binairo{size}.txt"
        if not path.exists():
            continue
        puzzles = [binairo.parse_one(line.split()[0]) for line in path.read_text().splitlines()[:sample]]
        row = [f"{size}x{size} ({len(puzzles)})"]
        for engine in ("backtrack", "cpsat", "sat"):
            solver = PuzzleSolver(binairo.BINAIRO, engine)
            start, done = time.perf_counter(), 0
            for puzzle in puzzles:
                if time.perf_counter() - start > cap:
                    break
                result = solver.check(puzzle, time_limit=cap)
                assert result.uniqueness in ("unique", None), result.uniqueness
                done += result.uniqueness == "unique"
            seconds = time.perf_counter() - start
            rate = f"{done / seconds:,.1f}/s"
            row.append(rate + ("" if done == len(puzzles) else f" ({done} done, capped)"))
        lines.append("| " + " | ".join(row) + " |")
        print(lines[-1], flush=True)
    return lines


def generation(count: int) -> list[str]:
    lines = ["| size | puzzles | seconds each | givens (mean) |", "|---|---|---|---|"]
    for n in (4, 6, 8, 10, 12, 14, 16):
        start = time.perf_counter()
        made = list(binairo.generate(n, n, seed=n, count=count))
        seconds = (time.perf_counter() - start) / count
        givens = sum(p.givens for p, _ in made) / count
        lines.append(f"| {n}x{n} | {count} | {seconds:.3f} | {givens:.1f} |")
        print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=60.0, help="seconds per method and size")
    parser.add_argument("--max-size", type=int, default=10)
    parser.add_argument("--sample", type=int, default=200, help="shared puzzles per size")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    sizes = list(range(4, args.max_size + 1, 2))
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    report = [
        f"machine: {os.cpu_count()} cores, load average at start {load}; "
        f"cap {args.cap:.0f} s per method and size",
        "",
    ]
    report += ["## Counting the empty n x n grid (takuzu)", ""] + counting(sizes, args.cap, args.jobs)
    report += ["", "## Uniqueness checks per second (shared puzzle sets)", ""]
    report += uniqueness(args.sample, min(args.cap, 20.0))
    report += ["", "## Generation of minimal unique puzzles (sat, one incremental session)", ""]
    report += generation(5)
    text = "\n".join(report) + "\n"
    if args.out:
        args.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
