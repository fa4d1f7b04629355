"""The per-cube records kept in data/records/ (the 12x12 takuzu count's checkpoint, the
estimate and sample logs) are the evidence behind the 12x12 figures of docs/counting.md: a cube counted twice,
by another run or another join, must have the same count in both."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.binairo_compare_logs import compare

REPO = Path(__file__).resolve().parents[1]
RECORDS = REPO / "data" / "records"
CHECKPOINT = RECORDS / "binairo-12x12-takuzu-count.jsonl"
JOINS = {
    "inclusion-exclusion",
    "inclusion-exclusion, depth first",
    "inclusion-exclusion by codes",
    "bucketed pair tests",
}


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
    logs = sorted(RECORDS.glob("binairo-12x12-takuzu-*.jsonl"))
    logs = [log for log in logs if log != CHECKPOINT] + [RECORDS / "binairo-joins-12x12.jsonl"]
    _, pairs, agree, wrong = compare(CHECKPOINT, logs)
    assert wrong == []
    assert sum(pairs.values()) > 0 and agree == pairs


RESULT = RECORDS / "binairo-12x12-takuzu-count.json"
COUNTING_PAGE = REPO / "docs" / "counting.md"  # the account of the count, moved from README
LOG = REPO / "BENCHMARKS.md"


def test_the_exact_12x12_count_is_the_weighted_sum_of_every_cube_and_the_docs_and_the_log_state_it():
    from mindgames.models.binairo import count as binairo_count

    todo = binairo_count.cubes(binairo_count.tables(12, 12, "takuzu"), "mitm")
    counted = {
        entry["cube"]: entry["count"] for entry in map(json.loads, CHECKPOINT.read_text().splitlines()[1:])
    }
    assert sorted(counted) == list(range(len(todo)))  # every cube, once
    total = sum(cube.weight * counted[i] for i, cube in enumerate(todo))
    result = json.loads(RESULT.read_text())  # the command's own output, recorded
    assert result["status"] == "counted" and result["count"] == total
    assert f"| 12 | {total:,} |" in COUNTING_PAGE.read_text()  # the exact counts table
    assert f"takuzu, exact: {total:,}" in LOG.read_text()  # the research log


def test_the_recorded_cross_check_recounted_cubes_by_pair_tests_and_found_them_equal():
    result = json.loads(RESULT.read_text())
    counted = {
        entry["cube"]: entry["count"] for entry in map(json.loads, CHECKPOINT.read_text().splitlines()[1:])
    }
    recounts = result["recounts"]
    assert recounts and len({r["cube"] for r in recounts}) == len(recounts)
    assert all(r["method"] == "bucketed pair tests" for r in recounts)
    assert all(r["agrees"] and r["recount"] == r["count"] == counted[r["cube"]] for r in recounts)
