"""Binairo count: the takuzu joins of this tree against a baseline join, on the same cubes in one run.

    git show f0eae43:models/binairo/count/join.py > /tmp/join_before.py
    nice -n 10 python benchmarks/binairo_joins.py --size 12 --sample 10 --baseline /tmp/join_before.py
    nice -n 5 python benchmarks/binairo_joins.py --size 12 --sample 10
    nice -n 5 python benchmarks/binairo_joins.py --size 12 --cube 83,124 --baseline /tmp/join_main.py
    nice -n 10 python benchmarks/binairo_joins.py --size 10 --sample 931
    git show bdf4bc0:models/binairo/count/join.py > /tmp/join_main.py
    nice -n 10 python benchmarks/binairo_joins.py --size 10 --sample 931 --baseline /tmp/join_main.py

12x12: a stratified random sample of the cubes other than the 18 symmetric ones (the same
``stratified_sample`` and seed as ``binairo_count12.py``), each counted by this tree's join
(``cube_join``: inclusion-exclusion, depth first) and by the ``JoinTables.takuzu`` of
``--baseline`` (a copy of an older join.py, loaded as its own module) or, without it, by this
tree's ``inclusion-exclusion by codes``; CPU seconds of each (``time.process_time``), the two
alternating (every other cube the baseline first); the counts must agree (and agree with
data/records/binairo-12x12-takuzu-sample.jsonl or -symmetric.jsonl where they have the cube).
The projection is the mean CPU seconds per cube times the cubes, as the earlier one.
``--cube A,B`` (repeatable): those cubes instead of a sample (a symmetric one, say), no projection.

10x10: the cubes counted by this tree's join (bucketed pair tests) and by the first kernel
(``mitm_cube``, both sides sorted and tested), or by the bucketed pair tests of ``--baseline``;
CPU seconds of each over the sample, counts equal.
One JSON line per cube, then a summary line with the load average.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mindgames.models.binairo.count import count_cube, cube_join, cubes, stratified_sample, tables  # noqa: E402

RECORDED = [
    ROOT / "data" / "records" / name
    for name in ("binairo-12x12-takuzu-sample.jsonl", "binairo-12x12-takuzu-symmetric.jsonl")
]


def load_baseline(path: str):
    spec = importlib.util.spec_from_file_location("join_baseline", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # numba's cache, when loaded again, imports it by name
    spec.loader.exec_module(module)
    return module


def timed(count, *args) -> tuple[int, float]:
    began = time.process_time()
    found = count(*args)
    return found, time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=12)
    parser.add_argument("--sample", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--cube",
        action="append",
        default=[],
        metavar="A,B",
        help="this cube (its middle rows) instead of a sample; repeatable",
    )
    parser.add_argument(
        "--baseline",
        help="an older join.py to time against (10x10: its bucketed pair tests, instead of the first kernel)",
    )
    args = parser.parse_args()
    n = args.size
    t = tables(n, n, "takuzu")
    todo = cubes(t, "mitm")
    join = cube_join(t, "mitm")
    small = tables(8, 8, "takuzu")  # compile (or load) every kernel before the clocks start
    first_small = cubes(small, "mitm")[0]
    for name in (
        "bucketed pair tests",
        "inclusion-exclusion, depth first",
        "inclusion-exclusion by codes",
        "compiled pair tests",
    ):
        count_cube(small, "mitm", first_small, name)
    if args.cube:
        by_middle = {c.rows: c for c in todo}
        picked = [by_middle[tuple(int(r) for r in rows.split(","))] for rows in args.cube]
    elif n >= 12:
        others = [c for c in todo if c.weight != 2]
        picked = [others[i] for i in stratified_sample(others, args.sample, random.Random(args.seed))]
    else:
        picked = todo if args.sample >= len(todo) else random.Random(args.seed).sample(todo, args.sample)
    if n >= 12:
        baseline_name = "baseline inclusion-exclusion" if args.baseline else "inclusion-exclusion by codes"
    else:
        baseline_name = "baseline bucketed pair tests" if args.baseline else "first kernel (mitm_cube)"
    baseline_join = None  # the baseline tree's join of this size, one cube at a time
    if args.baseline:
        module = load_baseline(args.baseline)
        method = "takuzu" if n >= 12 else "lookup"
        baseline_join = getattr(module.JoinTables(n, n, t.bits, t.words), method)
        getattr(module.JoinTables(8, 8, small.bits, small.words), method)(*first_small.rows, small.eqpairs)
    recorded = {}
    for path in RECORDED if n == 12 else ():
        if path.exists():
            recorded |= {tuple(e["middle_rows"]): e["count"] for e in map(json.loads, path.open())}
    if n >= 12 and baseline_join is None:  # this tree's earlier inclusion-exclusion join
        by_rows = {c.rows: c for c in picked}

        def baseline_join(a: int, b: int, _eqpairs) -> int:
            return count_cube(t, "mitm", by_rows[(a, b)], "inclusion-exclusion by codes")

    spent_new = spent_old = 0.0
    for at, cube in enumerate(picked):
        if baseline_join is not None and at % 2:  # alternating: every other cube baseline first
            before, old = timed(baseline_join, *cube.rows, t.eqpairs)
            found, new = timed(count_cube, t, "mitm", cube, join)
        elif baseline_join is not None:
            found, new = timed(count_cube, t, "mitm", cube, join)
            before, old = timed(baseline_join, *cube.rows, t.eqpairs)
        else:
            found, new = timed(count_cube, t, "mitm", cube, join)
            before, old = timed(count_cube, t, "mitm", cube, "compiled pair tests")
        agree = before is None or before == found
        if cube.rows in recorded:
            agree = agree and recorded[cube.rows] == found
        if not agree:
            raise SystemExit(
                f"cube {cube.rows}: {join} {found}, baseline {before}, recorded {recorded.get(cube.rows)}"
            )
        spent_new += new
        spent_old += old or 0.0
        if n >= 12:
            print(
                json.dumps(
                    {
                        "middle_rows": list(cube.rows),
                        "weight": cube.weight,
                        "count": found,
                        "cpu_seconds": round(new, 2),
                        "cpu_seconds_baseline": None if old is None else round(old, 2),
                    }
                ),
                flush=True,
            )
    k = len(picked)
    summary = {
        "size": n,
        "join": join,
        "baseline": baseline_name,
        "cubes": len(todo),
        "sampled": k,
        "seed": args.seed,
        "counts_agree": True,
        "cpu_seconds": round(spent_new, 2),
        "cpu_seconds_baseline": round(spent_old, 2),
        "ratio": round(spent_old / spent_new, 2) if spent_old else None,
        "load_average": ", ".join(f"{v:.2f}" for v in os.getloadavg()),
    }
    if n >= 12 and not args.cube:
        summary["cpu_hours_projected"] = round(spent_new / k * len(todo) / 3600, 1)
        summary["cpu_hours_projected_baseline"] = (
            round(spent_old / k * len(todo) / 3600, 1) if spent_old else None
        )
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
