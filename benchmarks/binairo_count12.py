"""12x12 takuzu: the count estimated from a stratified sample of cubes, with the symmetric cubes
(orbit size 2) bounded instead of sampled.

Those 18 cubes put a row and its complement in the middle rows; they have up to 1e8 halves a side
and take many CPU minutes each, so a short run cannot sample two of them.  Their takuzu grids lie
between 0 and their unruly grids (every takuzu grid is an unruly grid), and the unruly count of
each cube is exact and cheap (``count --size 12 --rules unruly --checkpoint FILE`` records it).
So the interval here is a stratified 95 % interval of the other cubes (orbit sizes 4 and 8),
widened upwards by the symmetric cubes' unruly total.  Two estimators of the other cubes:
the plain stratified mean (``models.binairo.count.stratified_estimate``, what ``--estimate``
reports) and the separate ratio estimator with each cube's exact unruly count as the auxiliary
variable (takuzu / unruly varies 0.32-0.58 between cubes where the counts vary 135-fold):
per orbit size w, T_w = w * U_w * sum(t) / sum(u) (U_w: the exact unruly total of its cubes),
variance w^2 N^2 (1 - n/N) / n * s^2 of t - R u; 95 % by the normal approximation.

    nice -n 10 python benchmarks/binairo_count12.py --sample 24 --seconds 1500 \\
        --unruly-checkpoint u12.jsonl --log t12.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

from models.binairo.count import count_cube, cubes, stratified_estimate, stratified_sample, tables


def ratio_estimate(todo: list, counted: dict[int, int], unruly: dict) -> tuple[float, float]:
    """The separate ratio estimator over orbit sizes (see the module text) and its standard
    error."""
    import math

    total, variance = 0.0, 0.0
    for weight in sorted({c.weight for c in todo}):
        members = [i for i, c in enumerate(todo) if c.weight == weight]
        sample = [i for i in members if i in counted]
        n, big_n = len(sample), len(members)
        t = [counted[i] for i in sample]
        u = [unruly[todo[i].rows] for i in sample]
        ratio = sum(t) / sum(u)
        total += weight * ratio * sum(unruly[todo[i].rows] for i in members)
        residuals = [a - ratio * b for a, b in zip(t, u)]
        s2 = sum(r * r for r in residuals) / (n - 1)
        variance += (weight * big_n) ** 2 * (1 - n / big_n) * s2 / n
    return total, math.sqrt(variance)


def count_symmetric(t, symmetric: list, log: str, end: float) -> dict[tuple, int]:
    """Count the symmetric cubes exactly until ``end`` (monotonic), each appended to ``log`` as it
    finishes; the ones already in ``log`` are read, not recounted.  Returns rows -> count."""
    counted: dict[tuple, int] = {}
    if os.path.exists(log):
        with open(log) as handle:
            counted = {tuple(e["middle_rows"]): e["count"] for e in map(json.loads, handle)}
    for cube in symmetric:
        if cube.rows in counted or time.monotonic() >= end:
            continue
        began = time.process_time()
        counted[cube.rows] = count_cube(t, "mitm", cube)
        line = {"middle_rows": list(cube.rows), "weight": cube.weight, "count": counted[cube.rows],
                "cpu_seconds": round(time.process_time() - began, 2)}
        print(json.dumps(line), flush=True)
        with open(log, "a") as handle:
            handle.write(json.dumps(line) + "\n")
    return counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=1500.0, help="stop sampling after this")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--unruly-checkpoint", required=True,
                        help="checkpoint of a complete `count --size 12 --rules unruly` run")
    parser.add_argument("--log", help="append each counted cube here (JSON lines)")
    parser.add_argument("--from-log", help="count nothing: take the counted cubes from this log")
    parser.add_argument("--symmetric-log",
                        help="count the symmetric cubes exactly, appending each to this log (a cube "
                             "already in it is not recounted); those counted replace their bound")
    args = parser.parse_args()
    end = time.monotonic() + args.seconds
    t = tables(12, 12, "takuzu")
    todo = cubes(t, "mitm")
    others = [c for c in todo if c.weight != 2]
    symmetric = [c for c in todo if c.weight == 2]
    picked = stratified_sample(others, args.sample, random.Random(args.seed))
    counted: dict[int, int] = {}
    cpu = 0.0
    if args.from_log:
        position = {c.rows: i for i, c in enumerate(others)}
        with open(args.from_log) as handle:
            for entry in map(json.loads, handle):
                counted[position[tuple(entry["middle_rows"])]] = entry["count"]
                cpu += entry["cpu_seconds"]
        picked = []
    for index in picked:
        if time.monotonic() >= end:
            break
        began = time.process_time()
        found = count_cube(t, "mitm", others[index])
        spent = time.process_time() - began
        cpu += spent
        counted[index] = found
        line = {"middle_rows": list(others[index].rows), "weight": others[index].weight,
                "count": found, "cpu_seconds": round(spent, 2)}
        print(json.dumps(line), flush=True)
        if args.log:
            with open(args.log, "a") as handle:
                handle.write(json.dumps(line) + "\n")
    exact_symmetric = count_symmetric(t, symmetric, args.symmetric_log, end) \
        if args.symmetric_log else {}
    unruly_cubes = cubes(tables(12, 12, "unruly"), "mitm")
    with open(args.unruly_checkpoint) as handle:
        next(handle)
        unruly = {unruly_cubes[e["cube"]].rows: e["count"] for e in map(json.loads, handle)}
    # The symmetric cubes counted exactly add their count; the others lie in 0 .. their unruly count.
    exact = sum(c.weight * exact_symmetric[c.rows] for c in symmetric if c.rows in exact_symmetric)
    bound = sum(c.weight * unruly[c.rows] for c in symmetric  # KeyError: run it to the end
                if c.rows not in exact_symmetric)
    found = stratified_estimate(others, counted)
    low, high = found["interval_95"] or (None, None)
    ratio, ratio_error = ratio_estimate(others, counted, unruly)
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(json.dumps({
        "cubes": len(todo), "sampled": len(counted), "cpu_seconds_sampled": round(cpu, 1),
        "cpu_hours_projected_other_cubes": round(cpu / max(1, len(counted)) * len(others) / 3600, 1),
        "estimate_other_cubes": found["estimated_count"], "standard_error": found["standard_error"],
        "interval_95_other_cubes": found["interval_95"],
        "symmetric_cubes_unruly_total": bound,
        "symmetric_cubes_counted": len(exact_symmetric),
        "symmetric_cubes_exact_total": exact,
        "interval_95_takuzu": None if low is None else [low + exact, high + exact + bound],
        "ratio_estimate_other_cubes": round(ratio), "ratio_standard_error": round(ratio_error),
        "ratio_interval_95_takuzu": [round(ratio - 1.96 * ratio_error) + exact,
                                     round(ratio + 1.96 * ratio_error) + exact + bound],
        "load_average": load}))


if __name__ == "__main__":
    main()
