"""Crossing benchmark: seconds to the proven shortest plan (or proof of none).

Run from the repository root:

    python3 benchmarks/crossing.py > benchmarks/crossing.md

Each instance is solved on ``sat`` and ``cpsat`` (time-expanded model over
counted interchangeable actors, increasing horizon), and by the two baselines
measured in the same run: the networkx BFS over the explicit state graph
(built from the successor function) and the seeds' backtracking DFS over
simple paths (enumerates every loop-free plan, keeps the shortest).  The
baselines get BASELINE_LIMIT seconds; the explicit graph is skipped past
GRAPH_LIMIT states.

``--certify`` prints the second table instead: seconds to certify each answer
(``crossing solve --certify``: a DRAT proof that no shorter plan, or no plan,
exists, solved by CaDiCaL and checked by our own checker), split into solve,
proof and check, with the proof's lemmas:

    python3 benchmarks/crossing.py --certify >> benchmarks/crossing.md

``--sweep`` times both families (jealous husbands, missionaries-cannibals) for
n = 1..20, 25, 30, ..., 100 and boats 2..6, each as a whole ``mindgames crossing
solve --json`` process (wall seconds, and the engine seconds the JSON reports);
``--baseline DIR`` times another checkout in the same run for the ratio:

    python3 benchmarks/crossing.py --sweep [--baseline DIR] >> benchmarks/crossing.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mindgames.models.crossing import Options, parse_document, presets, solve  # noqa: E402
from mindgames.models.crossing.problem import CrossingProblem  # noqa: E402
from mindgames.solver.statespace import TooLarge, build_graph, shortest_paths, simple_paths  # noqa: E402

BASELINE_LIMIT = 10.0
GRAPH_LIMIT = 300_000
ENGINE_LIMIT = 300.0


def instances(quick: bool):
    yield "wolf-goat-cabbage", {}
    yield "missionaries-cannibals", {}
    yield "jealous-husbands", {}
    yield "jealous-husbands", {"return_capacity": 1}
    yield "dangerous-family", {}
    yield "queens-tower", {}
    sizes = [2, 3, 4, 6, 8] if quick else [2, 3, 4, 5, 6, 8, 10, 12]
    for family, key in (("jealous-husbands", "couples"), ("missionaries-cannibals", "pairs")):
        for n in sizes:
            for capacity in (2, 3, 4, 5):
                yield family, {key: n, "capacity": capacity}
        for n in (12, 16):
            for capacity in (4, 5):
                if (n, capacity) not in [(s, c) for s in sizes for c in (2, 3, 4, 5)]:
                    yield family, {key: n, "capacity": capacity}


def neighbours(problem: CrossingProblem):
    return lambda s: [n for _, n in problem.successors(s)]


def networkx_bfs(spec):
    problem = CrossingProblem(spec)
    if problem.state_space_size() > GRAPH_LIMIT:
        return None, "skipped"
    start = time.perf_counter()
    try:
        graph = build_graph(problem.initial, neighbours(problem), GRAPH_LIMIT, BASELINE_LIMIT)
    except TooLarge:
        return None, "timeout"
    length, _, _ = shortest_paths(graph, problem.initial, problem.goal_test)
    return time.perf_counter() - start, length


def backtracking(spec):
    problem = CrossingProblem(spec)
    start = time.perf_counter()
    found = simple_paths(problem.initial, neighbours(problem), problem.goal_test, BASELINE_LIMIT)
    if not found.complete:
        return None, "timeout"
    length = None if found.shortest is None else len(found.shortest) - 1
    return time.perf_counter() - start, length


def cell(seconds, note=""):
    return f"{seconds:.2f}" if seconds is not None else f"({note})"


def ratio(baseline, ours):
    if baseline is None or ours is None or ours <= 0:
        return "-"
    return f"{baseline / ours:.1f}x"


def certify_instances():
    for name in presets.PRESETS:
        yield name, {}
    yield "jealous-husbands", {"return_capacity": 1}
    for family, key in (("jealous-husbands", "couples"), ("missionaries-cannibals", "pairs")):
        for n in (2, 3, 4, 6, 8):
            for capacity in (2, 3, 4, 5):
                yield family, {key: n, "capacity": capacity}
        yield family, {key: 16, "capacity": 4}


def certify_table() -> None:
    print("\n## Certified answers (`crossing solve --certify`)\n")
    print(
        f"Machine: {platform.machine()}, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Command: "
        f"`python3 benchmarks/crossing.py --certify >> benchmarks/crossing.md`. The proof is about "
        f"the time-expanded model of horizon L with step L-1 idle (solved: no plan of L-1 crossings) "
        f"or of the longest loop-free horizon (unsolvable); solve = CaDiCaL emitting DRAT, check = "
        f"our checker; total = the whole `solve --certify` run without cross-checks.\n"
    )
    print("| puzzle | parameters | answer | claim | lemmas | solve s | proof s | check s | total s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, params in certify_instances():
        spec = parse_document(presets.build(name, params))
        outcome = solve(spec, Options(time_limit=ENGINE_LIMIT, cross_check=False, certify=True))
        answer = outcome.crossings if outcome.status == "solved" else outcome.status
        certificate = outcome.certificate or {}
        seconds = certificate.get("seconds", {})
        claim = (
            certificate.get("claim", "-") if certificate.get("checked") else certificate.get("reason", "-")
        )
        shown = ", ".join(f"{k}={v}" for k, v in params.items()) or "defaults"
        print(
            f"| {name} | {shown} | {answer} | {claim} | {certificate.get('lemmas', 0):,} | "
            f"{seconds.get('solve', 0):.2f} | {seconds.get('proof', 0):.2f} | "
            f"{seconds.get('check', 0):.2f} | {outcome.seconds:.2f} |",
            flush=True,
        )


SWEEP_SIZES = [*range(1, 21), 25, 30, 40, 50, 60, 70, 80, 90, 100]
SWEEP_BOATS = range(2, 7)
SWEEP_FAMILIES = (("jealous-husbands", "couples"), ("missionaries-cannibals", "pairs"))
SWEEP_LIMIT = 60.0  # --time-limit of each solve (the goal is 10 s)
# the console script of the checkout at hand (``mindgames`` on the PATH may be another one)
ENTRY = "import sys; from mindgames.cli import entry; sys.exit(entry())"


def whole_process(root: str, family: str, key: str, n: int, boat: int) -> tuple[float, dict]:
    """Wall seconds and the --json answer of one ``crossing solve`` process run in ``root``."""
    command = [
        sys.executable,
        "-c",
        ENTRY,
        "crossing",
        "solve",
        family,
        "--set",
        f"{key}={n}",
        "--set",
        f"capacity={boat}",
        "--json",
        "--time-limit",
        str(SWEEP_LIMIT),
    ]
    env = dict(os.environ, PYTHONPATH=root)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(
            f"{family} {key}={n} capacity={boat} in {root}: exit {done.returncode}: "
            f"{done.stderr.strip()[-300:]}"
        )
    return wall, json.loads(done.stdout)


def answer_of(record: dict) -> str:
    return str(record["crossings"]) if record["status"] == "solved" else record["status"]


def confirmed(record: dict) -> str:
    """How the answer was proved: the counted BFS, and the model's UNSAT at L-1 when it confirmed."""
    text = record.get("confirmation", "")
    if text.startswith("confirmed") and "one-step model" in text:
        return "bfs + sat, layer by layer"
    if text.startswith("confirmed"):
        return "bfs + sat model"
    return "bfs" if "counted-bfs" in record["methods"] else "+".join(record["methods"])


def sweep(baseline: str | None, sizes: list[int]) -> None:
    here = str(Path(__file__).resolve().parent.parent)
    load = os.getloadavg()
    print("\n## Sweep: both families, n up to 100, boats 2..6, whole process\n")
    print(
        f"Machine: {platform.machine()}, {os.cpu_count()} cores shared with other work (load average "
        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} at the start), Python "
        f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Command: "
        f"`python3 benchmarks/crossing.py --sweep{' --baseline DIR' if baseline else ''}`. "
        f"Each row is one `crossing solve FAMILY --set N --set capacity=B --json --time-limit "
        f"{SWEEP_LIMIT:g}` process: wall seconds (start-up included) and the engine seconds its JSON "
        f"reports. Proof: `bfs` = breadth-first search over the counted states (shortest plan "
        f"replayed by the checker, or every reachable counted state seen); `+ sat model` = the "
        f"time-expanded model also says UNSAT at L-1 and SAT at L (unsolvable: UNSAT at R-1); "
        f"`+ sat, layer by layer` = the same claims checked on a one-step model, question by "
        f"question along the search's distance layers (unsolvable: no move leaves the reachable "
        f"states).\n"
    )
    columns = "| family | n | boat | answer | proof | whole process s | engine s |"
    rule = "|---|---:|---:|---|---|---:|---:|"
    if baseline:
        columns += " baseline whole s | baseline / now |"
        rule += "---:|---:|"
    print(columns)
    print(rule)
    worst = (0.0, "")
    total = 0.0
    for family, key in SWEEP_FAMILIES:
        for n in sizes:
            for boat in SWEEP_BOATS:
                wall, record = whole_process(here, family, key, n, boat)
                total += wall
                if wall > worst[0]:
                    worst = (wall, f"{family} {key}={n} capacity={boat}")
                row = (
                    f"| {family} | {n} | {boat} | {answer_of(record)} | {confirmed(record)} | "
                    f"{wall:.2f} | {record['seconds']:.2f} |"
                )
                if baseline:
                    then, old = whole_process(baseline, family, key, n, boat)
                    if answer_of(old) != answer_of(record) and "unknown" not in (
                        answer_of(old),
                        answer_of(record),
                    ):
                        raise SystemExit(
                            f"{family} {key}={n} capacity={boat}: baseline answers "
                            f"{answer_of(old)}, now {answer_of(record)}"
                        )
                    row += f" {then:.2f} | {then / wall:.1f}x |"
                print(row, flush=True)
    print(
        f"\nWorst: {worst[0]:.2f} s ({worst[1]}); the sweep's solves took {total:.0f} s in all "
        f"(load average at the end {os.getloadavg()[0]:.1f})."
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer sizes")
    parser.add_argument("--certify", action="store_true", help="the table of certified answers")
    parser.add_argument(
        "--sweep", action="store_true", help="both families, n up to 100, boats 2..6, each a whole process"
    )
    parser.add_argument("--baseline", metavar="DIR", help="with --sweep: also time this checkout")
    parser.add_argument("--sizes", help="with --sweep: the n to try, e.g. 1,2,50 (default: the sweep's)")
    args = parser.parse_args()
    if args.sweep:
        sizes = [int(n) for n in args.sizes.split(",")] if args.sizes else SWEEP_SIZES
        return sweep(args.baseline, sizes)
    if args.certify:
        return certify_table()
    # Warm up: load both engines' libraries (ortools takes ~1 s to import) before timing.
    warm = parse_document(presets.build("wolf-goat-cabbage", {}))
    for engine in ("sat", "cpsat"):
        solve(warm, Options(engine=engine, cross_check=False))
    print("# Crossing puzzles: seconds to a proven answer\n")
    print(
        f"Machine: {platform.machine()}, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Command: "
        f"`python3 benchmarks/crossing.py{' --quick' if args.quick else ''} > benchmarks/crossing.md`\n"
    )
    print(
        f"Baselines limited to {BASELINE_LIMIT:g} s (once a baseline times out or is skipped in a "
        f"family, larger n of that family are not tried); the explicit graph is skipped past "
        f"{GRAPH_LIMIT} possible states. Ratios: baseline seconds / sat seconds (above 1: sat is "
        f"faster).\n"
    )
    print(
        "| puzzle | parameters | answer | sat s | cpsat s | networkx BFS s | backtracking DFS s "
        "| BFS/sat | DFS/sat |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    gave_up: set = set()  # (baseline, family, capacity) that already timed out at a smaller n
    for name, params in instances(args.quick):
        spec = parse_document(presets.build(name, params))
        family = (name, params.get("capacity"), params.get("return_capacity"))
        times, answer = {}, None
        for engine in ("sat", "cpsat"):
            outcome = solve(spec, Options(engine=engine, time_limit=ENGINE_LIMIT, cross_check=False))
            times[engine] = outcome.seconds if outcome.status != "unknown" else None
            result = outcome.crossings if outcome.status == "solved" else outcome.status
            if answer is not None and result != answer:
                raise SystemExit(f"engines disagree on {name} {params}: {answer} vs {result}")
            answer = result
        bfs, bfs_answer = (None, "not tried") if ("bfs", family) in gave_up else networkx_bfs(spec)
        dfs, dfs_answer = (None, "not tried") if ("dfs", family) in gave_up else backtracking(spec)
        if bfs is None:
            gave_up.add(("bfs", family))
        if dfs is None:
            gave_up.add(("dfs", family))
        for seconds, found in ((bfs, bfs_answer), (dfs, dfs_answer)):
            expected = answer if answer != "unsolvable" else None
            if seconds is not None and found != expected:
                raise SystemExit(f"baseline disagrees on {name} {params}: {found} vs {answer}")
        shown = ", ".join(f"{k}={v}" for k, v in params.items()) or "defaults"
        print(
            f"| {name} | {shown} | {answer} | {cell(times['sat'], 'timeout')} | "
            f"{cell(times['cpsat'], 'timeout')} | {cell(bfs, bfs_answer)} | {cell(dfs, dfs_answer)} | "
            f"{ratio(bfs, times['sat'])} | {ratio(dfs, times['sat'])} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
