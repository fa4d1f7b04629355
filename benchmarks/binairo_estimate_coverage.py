"""How often `count --estimate`'s 95 % interval holds the exact count: measured, not assumed.

Where every cube of a count can be counted (8x8, 10x10, and 12x12 unruly from its recorded
checkpoint), draw many seeded stratified samples exactly as `estimate` does
(``stratified_sample``, then ``stratified_estimate``) and report, per shape, rule set, estimator
and sample size: the share of intervals that hold the exact count, the mean interval width
relative to the count, and the spread of z = (exact - estimate) / standard error.  For contrast,
the interval of sessions 3-5 (normal approximation, strata = orbit sizes, 2 cubes at least per
orbit size) is scored on the same kind of samples ("normal, min 2, orbit sizes only").

    python benchmarks/binairo_estimate_coverage.py --runs 1000 --markdown
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path

from mindgames.models.binairo.count import count_cube, cubes, tables
from mindgames.models.binairo.count.sampling import (
    MINIMUM_PER_STRATUM,
    SIZE_CLASSES,
    continuations,
    stratified_estimate,
    stratified_sample,
)

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"


def every_cube(rows: int, cols: int, rules: str) -> tuple[list, list[int]]:
    """The cubes of a count and each one's exact count (12x12 unruly: from its checkpoint)."""
    todo = cubes(tables(rows, cols, rules), "mitm")
    if (rows, cols, rules) == (12, 12, "unruly"):
        lines = (RECORDS / "binairo-12x12-unruly-cubes.jsonl").read_text().splitlines()[1:]
        found = {int(e["cube"]): int(e["count"]) for e in map(json.loads, lines)}
        return todo, [found[i] for i in range(len(todo))]
    t = tables(rows, cols, rules)
    return todo, [count_cube(t, "mitm", cube) for cube in todo]


def sizes(size: int, todo: list) -> list[int]:
    """The auxiliary `estimate` uses without --auxiliary: each cube's two-row continuations."""
    t = tables(size, size, "unruly")
    return continuations(t.bits, t.cols, [cube.rows for cube in todo])


def score(todo, counts, auxiliary, sample, runs, minimum, classes, normal) -> dict:
    exact = sum(c.weight * n for c, n in zip(todo, counts))
    held, widths, z = 0, [], []
    for seed in range(runs):
        picked = stratified_sample(todo, sample, random.Random(seed), auxiliary, minimum, classes)
        found = stratified_estimate(todo, {i: counts[i] for i in picked}, auxiliary, classes=classes)
        estimate, error = found["estimated_count"], found["standard_error"]
        if normal:
            low, high = estimate - 1.96 * error, estimate + 1.96 * error
        else:
            low, high = found["interval_95"]
        held += low <= exact <= high
        widths.append((high - low) / exact)
        z.append((exact - estimate) / error if error else 0.0)
    z.sort()
    return {
        "coverage": held / runs,
        "width": sum(widths) / runs,
        "z_low": z[int(0.025 * runs)],
        "z_high": z[int(0.975 * runs) - 1],
        "cubes": len(picked),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000, help="seeded samples per case")
    parser.add_argument("--samples", type=int, nargs="+", default=[12, 20, 40, 80])
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(
        f"runs {args.runs} per case; load average {load}; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n"
    )
    print(
        "| shape | rules | estimator | interval | sample (cubes) | coverage | mean width / count "
        "| z 2.5 % .. 97.5 % |"
    )
    print("|---|---|---|---|---:|---:|---:|---|")
    cases = []
    for size in (8, 10):
        todo, tak = every_cube(size, size, "takuzu")
        utodo, unr = every_cube(size, size, "unruly")
        by_rows = dict(zip((c.rows for c in utodo), unr))
        helper = [by_rows[c.rows] for c in todo]
        cases += [
            (size, "takuzu", "stratified mean", todo, tak, None),
            (size, "takuzu", "ratio to continuations", todo, tak, sizes(size, todo)),
            (size, "takuzu", "ratio to unruly", todo, tak, helper),
            (size, "unruly", "stratified mean", utodo, unr, None),
            (size, "unruly", "ratio to continuations", utodo, unr, sizes(size, utodo)),
        ]
    todo, unr = every_cube(12, 12, "unruly")
    cases += [
        (12, "unruly", "stratified mean", todo, unr, None),
        (12, "unruly", "ratio to continuations", todo, unr, sizes(12, todo)),
    ]
    for size, rules, name, todo, counts, helper in cases:
        for sample in args.samples:
            if sample >= len(todo):
                continue
            for interval, minimum, classes, normal in (
                (
                    f"t, min {MINIMUM_PER_STRATUM}, {SIZE_CLASSES} classes",
                    MINIMUM_PER_STRATUM,
                    SIZE_CLASSES,
                    False,
                ),
                ("normal, min 2, orbit sizes only", 2, 1, True),
            ):
                if helper is None and classes > 1:
                    interval = f"t, min {MINIMUM_PER_STRATUM}, orbit sizes only"
                s = score(todo, counts, helper, sample, args.runs, minimum, classes, normal)
                print(
                    f"| {size}x{size} | {rules} | {name} | {interval} | {sample} ({s['cubes']}) "
                    f"| {100 * s['coverage']:.1f} % | {100 * s['width']:.2f} % "
                    f"| {s['z_low']:+.2f} .. {s['z_high']:+.2f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
