"""Beyond one machine, measured on one: the job store on PostgreSQL against SQLite, and batches on
Ray against ``--jobs 2``.

    python -m benchmarks.scale [--jobs 100] [--puzzles 3000] [--no-jobs] [--no-batch] [--generate N]

* Jobs: ``--jobs`` small jobs (a Sudoku solve of 2 puzzles each) posted to a real
  ``mindgames serve`` as fast as it accepts them, then waited for.  Jobs per second (first post
  to last finish), p50 / p99 job latency (each job's ``finished - created``, the server's
  clock: queueing included, as all jobs are posted at once) and p50 / p99 run time
  (``finished - started``).  Configurations: SQLite (the server runs the jobs, ``--job-workers 2``); PostgreSQL
  with 1 worker (``--slots 2``; the server ``--no-local-jobs``); PostgreSQL with 2 workers
  (``--slots 2`` each).  PostgreSQL is a throwaway server from Debian's binaries
  (:mod:`mindgames.service.testing_postgres`) on a unix socket.
* Batch: ``sudoku solve FILE --json`` of ``--puzzles`` puzzles with ``--jobs 2`` and with
  ``--ray local`` (Ray started by the command: its start-up is in the time) on the same cores;
  the outputs are checked equal (timings aside).
* Generation (``--generate N``): ``sudoku generate --count N --out DIR`` with ``--jobs 2`` and
  with ``--ray local``; their puzzles are checked equal.

The machine may be shared: the figures are of one run, not a controlled one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from mindgames.service.settings import child_env
from mindgames.service.testing import Server
from mindgames.service.testing_postgres import PostgresCluster, why_no_postgres

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def variants(count: int, seed: int = 27) -> list[str]:
    """Distinct puzzles of HARD's difficulty: its digits relabelled, bands and rows shuffled."""
    rng = random.Random(seed)
    rows = [HARD[r * 9 : r * 9 + 9] for r in range(9)]
    made = []
    for _ in range(count):
        labels = [str(d) for d in rng.sample(range(1, 10), 9)]
        bands = rng.sample(range(3), 3)
        order = [b * 3 + r for b in bands for r in rng.sample(range(3), 3)]
        made.append("".join(c if c == "." else labels[int(c) - 1] for r in order for c in rows[r]))
    return made


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def run_jobs(url: str, count: int) -> dict[str, float]:
    puzzles = variants(2 * count)
    with httpx.Client(base_url=url, timeout=60) as client:
        started = time.time()
        ids = []
        for n in range(count):
            reply = client.post(
                "/v1/jobs", json={"kind": "sudoku", "action": "solve", "puzzles": puzzles[2 * n : 2 * n + 2]}
            )
            reply.raise_for_status()
            ids.append(reply.json()["id"])
        wanted = set(ids)
        while True:
            jobs = {j["id"]: j for j in client.get("/v1/jobs", params={"limit": 500}).json()["jobs"]}
            if all(jobs[i]["status"] not in ("queued", "running") for i in wanted):
                break
            time.sleep(0.05)
    assert all(jobs[i]["status"] == "done" for i in wanted), [jobs[i]["status"] for i in wanted]
    latencies = [jobs[i]["finished"] - jobs[i]["created"] for i in wanted]
    running = [jobs[i]["finished"] - jobs[i]["started"] for i in wanted]  # latency less queueing
    last = max(jobs[i]["finished"] for i in wanted)
    return {
        "jobs_per_second": count / (last - started),
        "p50": statistics.median(latencies),
        "p99": percentile(latencies, 0.99),
        "run_p50": statistics.median(running),
        "run_p99": percentile(running, 0.99),
    }


def start_worker(url: str, log: Path) -> subprocess.Popen:
    with open(log, "ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "mindgames.cli", "worker", "--db", url, "--slots", "2"],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=child_env(),
        )


def jobs_table(count: int, folder: Path) -> list[tuple[str, dict[str, float]]]:
    rows = []
    with Server(folder / "jobs.sqlite3", "--job-workers", "2", "--max-jobs", "10000") as server:
        rows.append(("SQLite, the server runs jobs (2 at once)", run_jobs(server.url, count)))
    reason = why_no_postgres()
    if reason:
        print(f"PostgreSQL skipped: {reason}", file=sys.stderr)
        return rows
    with PostgresCluster() as cluster:
        for workers in (1, 2):
            url = cluster.database()
            server = Server(
                url, "--no-local-jobs", "--max-jobs", "10000", log=folder / f"pg{workers}.log"
            ).start()
            started = [start_worker(url, folder / f"worker{workers}-{i}.log") for i in range(workers)]
            try:
                time.sleep(2)  # the workers connected
                label = f"PostgreSQL, {workers} worker{'s' if workers > 1 else ''} (2 slots each)"
                rows.append((label, run_jobs(server.url, count)))
            finally:
                for process in started:
                    process.terminate()
                    process.wait(timeout=15)
                server.stop()
    return rows


def batch(puzzles: int, folder: Path) -> list[tuple[str, float]]:
    file = folder / "batch.txt"
    file.write_text("\n".join(variants(puzzles)) + "\n")
    outputs = {}
    rows = []
    for label, flags in (
        ("--jobs 2", ["--jobs", "2"]),
        ("--ray local (start-up included)", ["--ray", "local"]),
    ):
        began = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "mindgames.cli", "sudoku", "solve", str(file), "--json", *flags],
            capture_output=True,
            text=True,
            env=child_env(),
            check=True,
        )
        rows.append((label, time.perf_counter() - began))
        records = [json.loads(line) for line in done.stdout.splitlines()]
        for record in records:
            record.pop("seconds", None)
            record.pop("stats", None)
        outputs[label] = records
    first, second = outputs.values()
    assert first == second, "the Ray output differs from --jobs"
    return rows


def generation(count: int, folder: Path) -> list[tuple[str, float, float]]:
    """``sudoku generate --count N --out DIR`` with ``--jobs 2`` and with ``--ray local``: wall
    seconds and the run's CPU seconds (its summary); the two runs' puzzles checked equal."""
    rows = []
    shards = {}
    for label, flags in (
        ("--jobs 2", ["--jobs", "2"]),
        ("--ray local (start-up included)", ["--ray", "local"]),
    ):
        out = folder / f"run-{flags[0].strip('-')}"
        began = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "mindgames.cli", "sudoku", "generate", "--count", str(count), "--seed", "27",
             "--out", str(out), *flags],
            capture_output=True, env=child_env(), check=True,
        )  # fmt: skip
        summary = json.loads((out / "summary.json").read_text())
        rows.append((label, time.perf_counter() - began, summary["cpu_seconds"]))
        shards[label] = [p.read_text() for p in sorted(out.glob("puzzles-*.jsonl"))]
    first, second = shards.values()
    assert first == second, "the Ray run's puzzles differ from --jobs 2's"
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=100)
    parser.add_argument("--puzzles", type=int, default=3000)
    parser.add_argument("--no-batch", action="store_true", help="only the job store")
    parser.add_argument("--no-jobs", action="store_true", help="only the batch")
    parser.add_argument(
        "--generate", type=int, default=0, metavar="N", help="also a generation run of N puzzles"
    )
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; {args.jobs} jobs of 2 Sudoku solves; a batch of {args.puzzles} puzzles")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if not args.no_jobs:
            print(
                "\n| job store | jobs/s | p50 latency (s) | p99 latency (s) | p50 run (s) | p99 run (s) |"
                "\n|---|---:|---:|---:|---:|---:|"
            )
            for label, figures in jobs_table(args.jobs, folder):
                print(
                    f"| {label} | {figures['jobs_per_second']:.2f} | {figures['p50']:.2f} "
                    f"| {figures['p99']:.2f} | {figures['run_p50']:.2f} | {figures['run_p99']:.2f} |"
                )
        if not args.no_batch:
            print(f"\n| sudoku solve of {args.puzzles} puzzles | seconds | puzzles/s |\n|---|---:|---:|")
            rows = batch(args.puzzles, folder)
            for label, seconds in rows:
                print(f"| {label} | {seconds:.1f} | {args.puzzles / seconds:.0f} |")
            print(f"\nRay / --jobs 2 time ratio: {rows[1][1] / rows[0][1]:.2f}")
        if args.generate:
            print(f"\n| sudoku generate --count {args.generate} --out DIR | seconds | CPU s | puzzles/s |")
            print("|---|---:|---:|---:|")
            made = generation(args.generate, folder)
            for label, seconds, cpu in made:
                print(f"| {label} | {seconds:.1f} | {cpu:.0f} | {args.generate / seconds:.1f} |")
            print(f"\nRay / --jobs 2 time ratio: {made[1][1] / made[0][1]:.2f}")


if __name__ == "__main__":
    main()
