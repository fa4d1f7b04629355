"""Service benchmark: the HTTP API next to the library's own speed, in the same run.

    python -m benchmarks.service [--requests 3000] [--clients 1,8,32] [--mixed-clients 20]
                                 [--mixed-requests 2000] [--solver-workers N]
                                 [--puzzles FILE] [--markdown]

One run measures, on the same machine and the same puzzles:

* the library: ``models.sudoku.solver("sat").solve(puzzle)`` in this process, one
  puzzle after another (solves per second, p50 / p99 latency, CPU per solve);
* the service: a real ``mindgames serve`` (child process, 127.0.0.1, free port) answering
  ``POST /v1/sudoku/solve {"puzzle": LINE}``, driven by C clients at once, each on its own
  keep-alive connection sending its next request as soon as the last is answered
  (requests per second, p50 / p99 latency as the client sees it, CPU of the server and its
  workers per request, and its ratio to the library's);
* the ASGI app alone answering the same solves in this process (:func:`app_alone_cpu`: no
  uvicorn, no sockets): the API's own CPU per request, which the machine's load hardly moves;
* mixed small requests of every kind and action the API answers at once (:func:`mixed_requests`)
  at 20 clients, next to the library's CPU for the same work (each request's task run by
  :func:`mindgames.service.kinds.execute` in this process).

Every answer is checked: HTTP 200 and a piece every good answer contains.  The load
generator is a lean asyncio HTTP/1.1 client (pre-built requests, no HTTP library) so that it
takes as little of the machine's CPU as possible; it still runs on the same machine as the
server, which a remote load generator would not.

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

from mindgames.models import sudoku
from mindgames.service.testing import Server

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data" / "sudoku" / "printable_25clue_1000.txt"


def load_puzzles(path: str | None) -> tuple[list[str], str]:
    source = Path(path) if path else SHARED
    if source.exists():
        lines = [
            line.split()[0]
            for line in source.read_text().splitlines()
            if line.strip() and not line.startswith("#")
        ]
        return [line for line in lines if len(line) == 81], str(source.name)
    seeds = [
        line.strip()
        for line in (ROOT / "data" / "sudoku" / "seed.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
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
    return {
        "per_second": count / elapsed,
        "p50": percentile(latencies, 0.5),
        "p99": percentile(latencies, 0.99),
        "with_parse_per_second": count / with_parse,
        "cpu_ms": 1000 * cpu / count,
        "with_parse_cpu_ms": 1000 * parse_cpu / count,
    }


def app_alone_cpu(puzzles: list[str], count: int) -> float:
    """CPU ms per ``POST /v1/sudoku/solve`` of the ASGI app itself, called in this process (no
    uvicorn, no sockets; solver processes replaced by :class:`InProcessPool`, which a 9x9 solve
    never reaches: it is answered in the API process): the API's own cost next to the
    library's, hardly moved by the machine's load, unlike the runs over sockets."""
    from mindgames.service import app as app_module
    from mindgames.service.settings import Settings
    from mindgames.service.testing import InProcessPool

    async def run() -> float:
        real_pool, app_module.SolverPool = app_module.SolverPool, InProcessPool
        try:
            with tempfile.TemporaryDirectory() as tmp:
                app = app_module.create_app(
                    Settings(db=str(Path(tmp) / "jobs.sqlite3"), host="127.0.0.1", port=8000)
                )
                startup: asyncio.Queue = asyncio.Queue()
                started: list[dict] = []
                await startup.put({"type": "lifespan.startup"})

                async def lifespan_send(message: dict) -> None:
                    started.append(message)

                lifespan = asyncio.ensure_future(
                    app(
                        {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}},
                        startup.get,
                        lifespan_send,
                    )
                )
                while not started:
                    await asyncio.sleep(0.01)
                bodies = [json.dumps({"puzzle": p}).encode() for p in puzzles]

                async def solve(body: bytes) -> None:
                    scope = {
                        "type": "http",
                        "asgi": {"version": "3.0"},
                        "http_version": "1.1",
                        "method": "POST",
                        "scheme": "http",
                        "path": "/v1/sudoku/solve",
                        "raw_path": b"/v1/sudoku/solve",
                        "query_string": b"",
                        "root_path": "",
                        "client": ("127.0.0.1", 1),
                        "server": ("127.0.0.1", 8000),
                        "headers": [
                            (b"host", b"127.0.0.1:8000"),
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                        ],
                        "state": {},
                    }
                    events = [{"type": "http.request", "body": body, "more_body": False}]
                    sent: list[dict] = []

                    async def receive() -> dict:
                        if events:
                            return events.pop()
                        await asyncio.sleep(3600)  # (the client never hangs up)
                        return {"type": "http.disconnect"}

                    async def send(message: dict) -> None:
                        sent.append(message)

                    await app(scope, receive, send)
                    assert sent[0]["status"] == 200 and b'"status":"solved"' in sent[1]["body"]

                for body in bodies[:300]:  # the 9x9 rules compiled in the API process
                    await solve(body)
                cpu = time.process_time()
                for body in itertools.islice(itertools.cycle(bodies), count):
                    await solve(body)
                cpu = time.process_time() - cpu
                await startup.put({"type": "lifespan.shutdown"})
                await lifespan
                return 1000 * cpu / count
        finally:
            app_module.SolverPool = real_pool

    return asyncio.run(run())


def request_bytes(port: int, path: str, body: dict | None = None) -> bytes:
    """One HTTP/1.1 request (keep-alive): a POST of ``body`` as JSON, or a GET without one."""
    if body is None:
        return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    data = json.dumps(body).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\n\r\n"
    ).encode()
    return head + data


def solve_requests(port: int, puzzles: list[str]) -> list[Prepared]:
    return [
        ("sudoku solve", request_bytes(port, "/v1/sudoku/solve", {"puzzle": p}), b'"status":"solved"')
        for p in puzzles
    ]


#: a prepared request: its label, its bytes, and a piece every good answer's body contains
Prepared = tuple[str, bytes, bytes]


async def one_client(port: int, requests: list[Prepared], latencies: list[tuple[str, float]]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for label, request, expected in requests:
            t = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            body = await reader.readexactly(length)
            latencies.append((label, time.perf_counter() - t))
            if not head.startswith(b"HTTP/1.1 200") or expected not in body:
                raise AssertionError(f"unexpected answer to {label}: {head[:40]!r} {body[:200]!r}")
    finally:
        writer.close()


async def load(port: int, prepared: list[Prepared], clients: int, total: int, pid: int | None = None) -> dict:
    """``clients`` keep-alive connections sending ``total`` requests in all, client c taking the
    prepared requests from offset c * (total / clients) on, round the list."""
    per_client = max(1, total // clients)
    shares = [
        [prepared[(c * per_client + i) % len(prepared)] for i in range(per_client)] for c in range(clients)
    ]
    latencies: list[tuple[str, float]] = []
    server_cpu = tree_cpu(pid) if pid else None
    client_cpu = time.process_time()
    start = time.perf_counter()
    await asyncio.gather(*(one_client(port, share, latencies) for share in shares))
    elapsed = time.perf_counter() - start
    client_cpu = time.process_time() - client_cpu
    if server_cpu is not None:
        server_cpu = tree_cpu(pid) - server_cpu
    n = len(latencies)
    seconds = [t for _, t in latencies]
    by_label: dict[str, list[float]] = {}
    for label, t in latencies:
        by_label.setdefault(label, []).append(t)
    return {
        "clients": clients,
        "requests": n,
        "per_second": n / elapsed,
        "p50": percentile(seconds, 0.5),
        "p99": percentile(seconds, 0.99),
        "mean": statistics.fmean(seconds),
        "by_label": {
            label: {"requests": len(ts), "p50": percentile(ts, 0.5), "p99": percentile(ts, 0.99)}
            for label, ts in by_label.items()
        },
        "server_cpu_ms": None if server_cpu is None else 1000 * server_cpu / n,
        "client_cpu_ms": 1000 * client_cpu / n,
    }


# -- mixed small requests: every kind and action -------------------------------------------------------
def binairo_puzzles(name: str) -> list[str]:
    """The puzzles of a bundled binairo file (blank-line separated grids, header lines dropped)."""
    text = (ROOT / "data" / "binairo" / name).read_text()
    blocks = [
        "\n".join(line for line in block.splitlines() if not line.startswith("#"))
        for block in text.split("\n\n")
    ]
    return [block for block in blocks if block.strip()]


def mixed_requests(sudokus: list[str]) -> list[tuple[str, str, dict, bytes]]:
    """The mix, in the order each client cycles through it: (label, path, body, a piece of every
    good answer).  Small requests of every kind and action the API answers at once; the
    crossing puzzles are the classic sizes (wolf, goat and cabbage; 3 missionaries)."""
    b8, b6 = binairo_puzzles("takuzu_8x8.txt"), binairo_puzzles("takuzu_6x6.txt")
    mix = []
    for i in range(60):
        sudoku_line, other = sudokus[i % len(sudokus)], sudokus[(i + 7) % len(sudokus)]
        mix += [
            ("sudoku solve", "/v1/sudoku/solve", {"puzzle": sudoku_line}, b'"status":"solved"'),
            ("sudoku check", "/v1/sudoku/check", {"puzzle": other}, b'"uniqueness":"unique"'),
            ("sudoku count", "/v1/sudoku/count", {"puzzle": sudoku_line}, b'"complete":true'),
            ("sudoku hint", "/v1/sudoku/hint", {"puzzle": other}, b'"technique"'),
            ("sudoku explain", "/v1/sudoku/explain", {"puzzle": sudoku_line}, b'"explanation"'),
            ("binairo solve", "/v1/binairo/solve", {"puzzle": b8[i % len(b8)]}, b'"status":"solved"'),
            ("binairo check", "/v1/binairo/check", {"puzzle": b6[i % len(b6)]}, b'"uniqueness":"unique"'),
            ("binairo count", "/v1/binairo/count", {"puzzle": b6[(i + 1) % len(b6)]}, b'"complete":true'),
            ("binairo hint", "/v1/binairo/hint", {"puzzle": b8[(i + 1) % len(b8)]}, b'"technique"'),
            (
                "crossing solve",
                "/v1/crossing/solve",
                {"puzzle": ("wolf-goat-cabbage", "missionaries-cannibals")[i % 2]},
                b'"status":"solved"',
            ),
            ("crossing explain", "/v1/crossing/explain", {"puzzle": "wolf-goat-cabbage"}, b'"explanation"'),
            (
                "crossing export",
                "/v1/crossing/export",
                {"puzzle": "missionaries-cannibals", "params": {"pairs": 2 + i % 4}},
                b'"actors"',
            ),
        ]
    return mix


def library_mix_cpu(mix: list[tuple[str, str, dict, bytes]]) -> dict:
    """CPU ms per request of the library doing the same work in this process: each request's
    task (as the API builds it) run by :func:`mindgames.service.kinds.execute`, warm."""
    from mindgames.service.kinds import Answerer, execute
    from mindgames.service.schemas import ExportRequest, SolveRequest

    answerer = Answerer()
    tasks = []
    for _, path, body, _ in mix:
        kind, action = path.split("/")[2:4]
        model = ExportRequest if action == "export" else SolveRequest
        task = model(**body).model_dump(exclude={"puzzle"})
        task.update(kind=kind, action=action, puzzles=[body["puzzle"]], single=True)
        tasks.append(task)
    for task in tasks[: len(tasks) // 5]:  # warm: every kind's rules compiled once
        execute(task, lambda i, r: None, answerer)
    by_label: dict[str, float] = {}
    start = time.process_time()
    for (label, *_), task in zip(mix, tasks):
        t = time.process_time()
        execute(task, lambda i, r: None, answerer)
        by_label[label] = by_label.get(label, 0.0) + time.process_time() - t
    cpu = time.process_time() - start
    share = len(mix) / len(by_label)
    return {
        "cpu_ms": 1000 * cpu / len(mix),
        "by_label": {label: 1000 * seconds / share for label, seconds in by_label.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000, help="requests per client count")
    parser.add_argument("--clients", default="1,8,32", help="comma-separated client counts (sudoku solves)")
    parser.add_argument(
        "--mixed-clients",
        default="20",
        help="comma-separated client counts for the mixed requests (empty: none)",
    )
    parser.add_argument("--mixed-requests", type=int, default=2000, help="mixed requests per client count")
    parser.add_argument(
        "--solver-workers",
        type=int,
        default=None,
        help="server's solver processes (default: the server's own default)",
    )
    parser.add_argument("--puzzles", help="a file of 81-character puzzle lines")
    parser.add_argument("--markdown", action="store_true", help="print the results as Markdown tables")
    args = parser.parse_args(argv)
    try:
        import uvloop  # noqa: F401

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    except ImportError:
        pass
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    puzzles, source = load_puzzles(args.puzzles)
    library = library_speed(puzzles, min(args.requests, 3000))
    app_alone = app_alone_cpu(puzzles, min(args.requests, 3000)) if args.clients.strip() else None
    mix = mixed_requests(puzzles)
    mixed_clients = [int(c) for c in args.mixed_clients.split(",") if c.strip()]
    library_mix = library_mix_cpu(mix) if mixed_clients else None
    extra = ["--solver-workers", str(args.solver_workers)] if args.solver_workers else []
    rows, mixed_rows = [], []
    with tempfile.TemporaryDirectory() as tmp, Server(Path(tmp) / "jobs.sqlite3", *extra) as server:
        port, pid = server.port, server.process.pid
        solves = solve_requests(port, puzzles)
        mixed = [(label, request_bytes(port, path, body), expected) for label, path, body, expected in mix]
        asyncio.run(load(port, solves, 4, 400))  # warm up every worker
        for clients in (int(c) for c in args.clients.split(",") if c.strip()):
            rows.append(asyncio.run(load(port, solves, clients, args.requests, pid)))
        if mixed_clients:
            asyncio.run(load(port, mixed, 4, len(mix) // 3))  # every kind's rules compiled everywhere
        for clients in mixed_clients:
            mixed_rows.append(asyncio.run(load(port, mixed, clients, args.mixed_requests, pid)))
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    if not args.markdown:
        print(
            json.dumps(
                {
                    "puzzles": source,
                    "machine": machine,
                    "load": [load_before, load_after],
                    "library": library,
                    "app_alone_cpu_ms": app_alone,
                    "api": rows,
                    "library_mix": library_mix,
                    "mixed": mixed_rows,
                },
                indent=2,
            )
        )
        return 0
    print(
        f"Puzzles: {source} ({len(puzzles)}); {machine}; "
        f"1-minute load average {load_before:.1f} before, {load_after:.1f} after\n"
    )
    base = library["with_parse_cpu_ms"]
    print("| what | clients | requests/s | p50 ms | p99 ms | CPU ms per request | CPU / library's |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(
        f"| library, in process (sat), solve only | 1 | {library['per_second']:,.0f} | "
        f"{library['p50'] * 1e3:.2f} | {library['p99'] * 1e3:.2f} | {library['cpu_ms']:.3f} | |"
    )
    print(
        f"| library, in process (sat), parse + solve | 1 | {library['with_parse_per_second']:,.0f} | | | "
        f"{base:.3f} | 1x |"
    )
    if app_alone is not None:
        print(
            f"| API app alone (ASGI in process, no sockets), solve | 1 | | | | {app_alone:.3f} | "
            f"{app_alone / base:.1f}x |"
        )
    for row in rows:
        print(api_row("API, POST /v1/sudoku/solve", row, base))
    if library_mix:
        print(
            f"| library, in process, the mix | 1 | {1000 / library_mix['cpu_ms']:,.0f} | | | "
            f"{library_mix['cpu_ms']:.3f} | 1x |"
        )
        for row in mixed_rows:
            print(api_row("API, mixed small requests", row, library_mix["cpu_ms"]))
    for row in mixed_rows:
        print(
            f"\nMixed, {row['clients']} clients, each kind of request "
            "(library CPU: the same work in process):\n"
        )
        print("| request | requests | p50 ms | p99 ms | library CPU ms |")
        print("|---|---:|---:|---:|---:|")
        for label, stats in row["by_label"].items():
            print(
                f"| {label} | {stats['requests']} | {stats['p50'] * 1e3:.2f} | {stats['p99'] * 1e3:.2f} | "
                f"{library_mix['by_label'][label]:.2f} |"
            )
    return 0


def api_row(what: str, row: dict, library_cpu_ms: float) -> str:
    cpu = row["server_cpu_ms"]
    shown = "n/a" if cpu is None else f"{cpu:.3f} (+ client {row['client_cpu_ms']:.3f})"
    ratio = "n/a" if cpu is None else f"{cpu / library_cpu_ms:.1f}x"
    return (
        f"| {what} | {row['clients']} | {row['per_second']:,.0f} | {row['p50'] * 1e3:.2f} | "
        f"{row['p99'] * 1e3:.2f} | {shown} | {ratio} |"
    )


if __name__ == "__main__":
    sys.exit(main())
