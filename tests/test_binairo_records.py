"""The per-cube records kept in benchmarks/ (the running 12x12 takuzu count's checkpoint, the
estimate and sample logs) are the evidence behind README's 12x12 figures: a cube counted twice,
by another run or another join, must have the same count in both."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.binairo_compare_logs import compare

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
CHECKPOINT = BENCHMARKS / "binairo-12x12-takuzu-count.jsonl"
JOINS = {"inclusion-exclusion", "inclusion-exclusion, depth first", "inclusion-exclusion by codes",
         "bucketed pair tests"}


def test_the_12x12_checkpoint_is_a_resumable_checkpoint_of_distinct_cubes():
    lines = CHECKPOINT.read_text().splitlines()
    header = json.loads(lines[0])
    assert header == {"rows": 12, "cols": 12, "rules": "takuzu", "method": "mitm", "cubes": 5548}
    if lines[-1] and not lines[-1].endswith("}"):
        lines.pop()  # a line being written by a count running here (the checkpoint skips it too)
    entries = [json.loads(line) for line in lines[1:]]
    cubes = [entry["cube"] for entry in entries]
    assert len(set(cubes)) == len(cubes) and all(0 <= c < 5548 for c in cubes)
    assert all(entry["join"] in JOINS and entry["count"] > 0 for entry in entries)


def test_cubes_counted_twice_have_one_count():
    logs = sorted(BENCHMARKS.glob("binairo-12x12-takuzu-*.jsonl"))
    logs = [log for log in logs if log != CHECKPOINT] + [BENCHMARKS / "binairo-joins-12x12.jsonl"]
    _, pairs, agree, wrong = compare(CHECKPOINT, logs)
    assert wrong == []
    assert sum(pairs.values()) > 0 and agree == pairs
