"""The CPU time ``count --size N --estimate K`` projects for the whole count, checked against
what the full 12x12 takuzu count cost, cube by cube (data/records/binairo-12x12-takuzu-count.jsonl:
each cube's count, the join that counted it and its CPU seconds; 23,227 CPU s in all)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mindgames.models.binairo.count import cube_join, cubes, prepare, tables
from mindgames.models.binairo.count.sampling import (
    continuations,
    project_cpu,
    read_sample_log,
    stratified_sample,
)

RECORDS = Path(__file__).resolve().parent.parent / "data" / "records"
JOIN = "inclusion-exclusion, depth first"


@pytest.fixture(scope="module")
def full_count() -> tuple[list, list[int], list[dict], dict[int, float]]:
    """The 12x12 takuzu cubes, their two-row continuations (the estimate's auxiliary when no
    unruly count is given) and the full count's CPU seconds of each cube it timed."""
    t = tables(12, 12, "takuzu")
    todo = cubes(t, "mitm")
    lines = (RECORDS / "binairo-12x12-takuzu-count.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["cubes"] == len(todo)
    assert cube_join(t, "mitm") == JOIN
    entries = [json.loads(line) for line in lines[1:]]
    # 84 cubes came from earlier sessions' samples, untimed; the first 120 were timed by the
    # join by codes (1,557 CPU s), before the count switched to the depth-first join: only the
    # depth-first costs stand for what the estimate's own cubes cost.
    cost = {entry["cube"]: entry["cpu_seconds"] for entry in entries if entry["join"] == JOIN}
    assert len(cost) == 5344
    return todo, continuations(t.bits, t.cols, [cube.rows for cube in todo]), entries, cost


@pytest.mark.parametrize("sample", [30, 60])
def test_the_projection_of_seeded_samples_lies_within_30_percent_of_the_measured_count(
    full_count: tuple[list, list[int], list[dict], dict[int, float]], sample: int
) -> None:
    # The sample the CLI draws for `--estimate K --seed S`, its cubes costing what they cost in
    # the full count (the sampled cubes without a depth-first cost go untimed, as cubes read
    # from another join's log do), set beside everything the full count's records measured.
    todo, size, entries, cost = full_count
    measured = sum(entry.get("cpu_seconds", 0.0) for entry in entries)
    assert round(measured) == 23_227
    for seed in range(20):
        picked = stratified_sample(todo, sample, random.Random(seed), size)
        projected = project_cpu(todo, {i: cost[i] for i in picked if i in cost}, size)
        assert projected is not None
        assert abs(projected - measured) <= 0.3 * measured, (seed, projected)


def test_no_timed_cube_projects_nothing(
    full_count: tuple[list, list[int], list[dict], dict[int, float]],
) -> None:
    todo, size, _, _ = full_count
    assert project_cpu(todo, {}, size) is None


def test_a_log_of_another_join_gives_its_counts_but_not_its_costs(tmp_path: Path) -> None:
    # The estimate that projected 82,488 CPU s (3.6 times the full count) timed its cubes by the
    # join by codes; the full count joined them depth first, 3.7 times faster on the same cubes.
    old = read_sample_log(RECORDS / "binairo-12x12-takuzu-estimate-log.jsonl", "12x12", "takuzu", JOIN)
    assert len(old) == 140 and all(spent is None for _, spent in old.values())
    log = tmp_path / "log.jsonl"
    lines = [
        {"middle_rows": [1, 2], "count": 5, "cpu_seconds": 3.0, "join": JOIN},
        {"middle_rows": [3, 4], "count": 6, "cpu_seconds": 9.0, "join": "inclusion-exclusion by codes"},
        {"middle_rows": [5, 6], "count": 7, "cpu_seconds": 4.0},
    ]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert read_sample_log(log, "12x12", "takuzu", JOIN) == {
        (1, 2): (5, 3.0),
        (3, 4): (6, None),
        (5, 6): (7, None),
    }
    # without a join to hold them to, every cost is taken (as before)
    assert read_sample_log(log, "12x12", "takuzu")[(3, 4)] == (6, 9.0)


def test_a_shape_is_made_ready_before_its_first_cube_is_timed() -> None:
    # The join's tables and buffers (and compiled kernels) are made before the clock starts, not
    # inside the first cube: a sampled cube stands for hundreds, and so would its set-up.
    t = tables(10, 10, "takuzu")
    assert cube_join(t, "mitm") == "bucketed pair tests" and t.counting is None
    prepare(t, "mitm")
    assert t.counting is not None and t.counting.kept is not None and t.counting.packed is not None
