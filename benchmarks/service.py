"""Service benchmark: single 9x9 solves through the HTTP API, next to the library's own speed.

    python3 -m benchmarks.service [--requests 3000] [--clients 1,8,32] [--solver-workers N]
                                  [--puzzles FILE] [--markdown]

One run measures, on the same machine and the same puzzles:

* the library: ``models.sudoku.solver("sat").solve(puzzle)`` in this process, one
  puzzle after another (solves per second, p50 / p99 latency);
* the service: a real ``mindgames serve`` (child process, 127.0.0.1, free port) answering
  ``POST /v1/sudoku/solve {"puzzle": LINE}``, driven by C clients at once, each on its own
  keep-alive connection sending its next request as soon as the last is answered
  (requests per second, p50 / p99 latency as the client sees it).  Every answer is
  checked: HTTP 200 and ``"status":"solved"``.

The load generator is a lean asyncio HTTP/1.1 client (pre-built requests, no HTTP
library) so that it takes as little of the machine's CPU as possible; it still runs on
the same machine as the server, which a remote load generator would not.

Puzzles: ``../shared/data/sudoku/printable_25clue_1000.txt`` when present, else the
bundled seed puzzles with their digits relabelled (each a different puzzle, same difficulty).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mindgames.service.testing import Server
from models import sudoku

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data" / "sudoku" / "printable_25clue_1000.txt"


def load_puzzles(path: str | None) -> tuple[list[str], str]:
    source = Path(path) if path else SHARED
    if source.exists():
        lines = [line.split()[0] for line in source.read_text().splitlines()
                 if line.strip() and not line.startswith("#")]
        return [line for line in lines if len(line) == 81], str(source.name)
    seeds = [line.strip() for line in (ROOT / "data" / "sudoku" / "seed.txt").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    puzzles = []
    for seed, perm in itertools.product(seeds, itertools.permutations("123456789")):
        puzzles.append("".join(ch if ch in ".0" else perm[int(ch) - 1] for ch in seed))
        if len(puzzles) >= 1000:
            break
    return puzzles, "data/sudoku/seed.txt, relabelled"


def tree_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) used so far by ``pid`` and its children (Linux /proc)."""
    if not os.path.isdir("/proc"):
        return None
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def library_speed(puzzles: list[str], count: int) -> dict:
    solver = sudoku.solver("sat")
    parsed = [sudoku.parse(p) for p in puzzles]
    solver.solve(parsed[0])  # compile the 9x9 rules once, as a worker does
    latencies = []
    start = time.perf_counter()
    cpu = time.process_time()
    for puzzle in itertools.islice(itertools.cycle(parsed), count):
        t = time.perf_counter()
        result = solver.solve(puzzle)
        latencies.append(time.perf_counter() - t)
        assert result.status == "solved"
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    # With parsing from the text line, as the service does for each request:
    t, parse_cpu = time.perf_counter(), time.process_time()
    for line in itertools.islice(itertools.cycle(puzzles), count):
        solver.solve(sudoku.parse(line))
    with_parse = time.perf_counter() - t
    parse_cpu = time.process_time() - parse_cpu
    return {"per_second": count / elapsed, "p50": percentile(latencies, 0.5),
            "p99": percentile(latencies, 0.99), "with_parse_per_second": count / with_parse,
            "cpu_ms": 1000 * cpu / count, "with_parse_cpu_ms": 1000 * parse_cpu / count}


def request_bytes(puzzle: str) -> bytes:
    body = json.dumps({"puzzle": puzzle}).encode()
    head = (f"POST /v1/sudoku/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    return head + body


async def one_client(port: int, requests: list[bytes], latencies: list[float]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for request in requests:
            t = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            body = await reader.readexactly(length)
            latencies.append(time.perf_counter() - t)
            if not head.startswith(b"HTTP/1.1 200") or b'"status":"solved"' not in body:
                raise AssertionError(f"unexpected answer: {head[:40]!r} {body[:200]!r}")
    finally:
        writer.close()


async def load(port: int, puzzles: list[str], clients: int, total: int, pid: int | None = None) -> dict:
    prepared = [request_bytes(p) for p in puzzles]
    per_client = max(1, total // clients)
    shares = [[prepared[(c * per_client + i) % len(prepared)] for i in range(per_client)]
              for c in range(clients)]
    latencies: list[float] = []
    server_cpu = tree_cpu(pid) if pid else None
    client_cpu = time.process_time()
    start = time.perf_counter()
    await asyncio.gather(*(one_client(port, share, latencies) for share in shares))
    elapsed = time.perf_counter() - start
    client_cpu = time.process_time() - client_cpu
    if server_cpu is not None:
        server_cpu = tree_cpu(pid) - server_cpu
    n = len(latencies)
    return {"clients": clients, "requests": n, "per_second": n / elapsed,
            "p50": percentile(latencies, 0.5), "p99": percentile(latencies, 0.99),
            "mean": statistics.fmean(latencies),
            "server_cpu_ms": None if server_cpu is None else 1000 * server_cpu / n,
            "client_cpu_ms": 1000 * client_cpu / n}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000, help="requests per client count")
    parser.add_argument("--clients", default="1,8,32", help="comma-separated client counts")
    parser.add_argument("--solver-workers", type=int, default=None,
                        help="server's solver processes (default: the server's own default)")
    parser.add_argument("--puzzles", help="a file of 81-character puzzle lines")
    parser.add_argument("--markdown", action="store_true", help="print the results as a Markdown table")
    args = parser.parse_args(argv)
    try:
        import uvloop  # noqa: F401
        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    except ImportError:
        pass
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    puzzles, source = load_puzzles(args.puzzles)
    library = library_speed(puzzles, min(args.requests, 3000))
    extra = ["--solver-workers", str(args.solver_workers)] if args.solver_workers else []
    rows = []
    with tempfile.TemporaryDirectory() as tmp, Server(Path(tmp) / "jobs.sqlite3", *extra) as server:
        port = server.port
        asyncio.run(load(port, puzzles, 4, 400))  # warm up every worker
        for clients in (int(c) for c in args.clients.split(",")):
            rows.append(asyncio.run(load(port, puzzles, clients, args.requests, server.process.pid)))
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    if args.markdown:
        cores = os.cpu_count() or 1
        print(f"Puzzles: {source} ({len(puzzles)}); {machine}; "
              f"1-minute load average {load_before:.1f} before, {load_after:.1f} after\n")
        print("| what | clients | requests/s | p50 ms | p99 ms | CPU ms per request | "
              f"requests/s per idle core ({cores} cores: x{cores}) |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        print(f"| library, in process (sat), solve only | 1 | {library['per_second']:,.0f} | "
              f"{library['p50'] * 1e3:.2f} | {library['p99'] * 1e3:.2f} | {library['cpu_ms']:.3f} | "
              f"{1000 / library['cpu_ms']:,.0f} |")
        print(f"| library, in process (sat), parse + solve | 1 | {library['with_parse_per_second']:,.0f} | | | "
              f"{library['with_parse_cpu_ms']:.3f} | {1000 / library['with_parse_cpu_ms']:,.0f} |")
        for row in rows:
            cpu = row["server_cpu_ms"]
            shown = "n/a" if cpu is None else f"{cpu:.3f} (+ client {row['client_cpu_ms']:.3f})"
            per_core = "n/a" if cpu is None else f"{1000 / cpu:,.0f}"
            print(f"| API, POST /v1/sudoku/solve | {row['clients']} | {row['per_second']:,.0f} | "
                  f"{row['p50'] * 1e3:.2f} | {row['p99'] * 1e3:.2f} | {shown} | {per_core} |")
    else:
        print(json.dumps({"puzzles": source, "machine": machine, "library": library, "api": rows}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
