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
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.crossing import Options, parse_document, presets, solve  # noqa: E402
from models.crossing.problem import CrossingProblem  # noqa: E402
from solver.statespace import TooLarge, build_graph, shortest_paths, simple_paths  # noqa: E402

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
    print(f"Machine: {platform.machine()}, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Command: "
          f"`python3 benchmarks/crossing.py --certify >> benchmarks/crossing.md`. The proof is about "
          f"the time-expanded model of horizon L with step L-1 idle (solved: no plan of L-1 crossings) "
          f"or of the longest loop-free horizon (unsolvable); solve = CaDiCaL emitting DRAT, check = "
          f"our checker; total = the whole `solve --certify` run without cross-checks.\n")
    print("| puzzle | parameters | answer | claim | lemmas | solve s | proof s | check s | total s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, params in certify_instances():
        spec = parse_document(presets.build(name, params))
        outcome = solve(spec, Options(time_limit=ENGINE_LIMIT, cross_check=False, certify=True))
        answer = outcome.crossings if outcome.status == "solved" else outcome.status
        certificate = outcome.certificate or {}
        seconds = certificate.get("seconds", {})
        claim = certificate.get("claim", "-") if certificate.get("checked") else certificate.get("reason", "-")
        shown = ", ".join(f"{k}={v}" for k, v in params.items()) or "defaults"
        print(f"| {name} | {shown} | {answer} | {claim} | {certificate.get('lemmas', 0):,} | "
              f"{seconds.get('solve', 0):.2f} | {seconds.get('proof', 0):.2f} | "
              f"{seconds.get('check', 0):.2f} | {outcome.seconds:.2f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer sizes")
    parser.add_argument("--certify", action="store_true", help="the table of certified answers")
    args = parser.parse_args()
    if args.certify:
        return certify_table()
    # Warm up: load both engines' libraries (ortools takes ~1 s to import) before timing.
    warm = parse_document(presets.build("wolf-goat-cabbage", {}))
    for engine in ("sat", "cpsat"):
        solve(warm, Options(engine=engine, cross_check=False))
    print("# Crossing puzzles: seconds to a proven answer\n")
    print(f"Machine: {platform.machine()}, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Command: "
          f"`python3 benchmarks/crossing.py{' --quick' if args.quick else ''} > benchmarks/crossing.md`\n")
    print(f"Baselines limited to {BASELINE_LIMIT:g} s (once a baseline times out or is skipped in a "
          f"family, larger n of that family are not tried); the explicit graph is skipped past "
          f"{GRAPH_LIMIT} possible states. Ratios: baseline seconds / sat seconds (above 1: sat is "
          f"faster).\n")
    print("| puzzle | parameters | answer | sat s | cpsat s | networkx BFS s | backtracking DFS s "
          "| BFS/sat | DFS/sat |")
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
        print(f"| {name} | {shown} | {answer} | {cell(times['sat'], 'timeout')} | "
              f"{cell(times['cpsat'], 'timeout')} | {cell(bfs, bfs_answer)} | {cell(dfs, dfs_answer)} | "
              f"{ratio(bfs, times['sat'])} | {ratio(dfs, times['sat'])} |", flush=True)


if __name__ == "__main__":
    main()
