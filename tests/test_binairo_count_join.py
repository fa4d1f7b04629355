"""The counting joins (unruly histograms, takuzu inclusion-exclusion, takuzu bucketed pair tests):
per cube they agree with the first pair-test kernel, in total with
the known counts and the engines."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mindgames.models import binairo
from mindgames.models.binairo import count as binairo_count
from mindgames.models.binairo.count import Cube, count_cube, cubes, tables
from mindgames.models.binairo.count.join import (
    MOST_MULT,
    JoinTables,
    _merge_same_rows,
    deal,
    digit_range,
    subset_tables,
    valid_digit_range,
)
from mindgames.models.runner import PuzzleSolver

COUNTING = {"takuzu": "inclusion-exclusion, depth first", "unruly": "histogram"}
SHAPES = [
    (2, 2),
    (2, 6),
    (4, 4),
    (4, 6),
    (6, 4),
    (6, 6),
    (8, 6),
    (6, 8),
    (8, 8),
    (10, 6),
    (6, 10),
    (10, 10),
    (12, 6),
    (6, 12),
]


def sample_cubes(t, k: int = 40, seed: int = 0) -> list[Cube]:
    every = cubes(t, "mitm")
    return every if len(every) <= k else random.Random(seed).sample(every, k)


@pytest.mark.parametrize("rows, cols", SHAPES)
@pytest.mark.parametrize("rules", ["takuzu", "unruly"])
def test_counting_joins_agree_with_pair_tests_per_cube(rows, cols, rules):
    t = tables(rows, cols, rules)
    for cube in sample_cubes(t):
        assert count_cube(t, "mitm", cube, COUNTING[rules]) == count_cube(t, "mitm", cube, "pair tests"), cube


# the inclusion-exclusion joins: depth first (every node by its partitions, direct=0; small
# subtrees pair by pair, rows as bytes or as bitsets) and by sorted codes
INCLUSION_EXCLUSION = [{"direct": 0}, {}, {"direct": 1000}, {"in_bytes": False}, {"depth_first": False}]


@pytest.mark.parametrize("rows, cols", [(6, 6), (8, 8), (10, 6), (6, 10), (10, 10), (12, 6), (6, 12)])
def test_inclusion_exclusion_alone_agrees_per_cube(rows, cols):
    # every key group through inclusion-exclusion (none joined pair by pair), and a mix
    t = tables(rows, cols, "takuzu")
    join = JoinTables(rows, cols, t.bits, t.words)
    # and the keys in parts of a few hundred (10x10: 20,000) halves a side
    ways = INCLUSION_EXCLUSION + [{"most": 300 if rows * cols < 100 else 20_000}]
    for cube in sample_cubes(t, 25 if rows * cols < 100 else 10, seed=1):
        tested = count_cube(t, "mitm", cube, "pair tests")
        for one_by_one in (0, 4):
            for way in ways:
                assert join.takuzu(*cube.rows, t.eqpairs, one_by_one, **way) == tested, (
                    cube,
                    one_by_one,
                    way,
                )


@pytest.mark.parametrize("rows, cols", [(10, 6), (6, 10), (12, 6), (6, 12)])
def test_inclusion_exclusion_joins_agree_per_cube_by_name(rows, cols):
    # count_cube's names: the default depth first, the earlier codes
    t = tables(rows, cols, "takuzu")
    for cube in sample_cubes(t, 15, seed=7):
        tested = count_cube(t, "mitm", cube, "pair tests")
        assert count_cube(t, "mitm", cube, "inclusion-exclusion, depth first") == tested, cube
        assert count_cube(t, "mitm", cube, "inclusion-exclusion by codes") == tested, cube


@pytest.mark.parametrize("rows, cols", [(8, 8), (10, 10)])
def test_inclusion_exclusion_numbering_partitions_per_key_group_agrees(rows, cols):
    # a cube with more distinct partitions than a code has bits for numbers them per key group
    t = tables(rows, cols, "takuzu")
    join = JoinTables(rows, cols, t.bits, t.words)
    for cube in sample_cubes(t, 8, seed=4):
        assert join.takuzu(*cube.rows, t.eqpairs, 0, code_bits=0, depth_first=False) == count_cube(
            t, "mitm", cube, "pair tests"
        ), cube


def test_records_with_the_same_rows_merged_per_key_group():
    # within each key group, records with equal rows become one with a multiplicity (at most
    # MOST_MULT: more start another record); groups stay contiguous, in order
    rng = random.Random(3)
    groups = [[rng.choice([5, 6, 7, 8]) for _ in range(rng.randrange(0, 40))] for _ in range(30)]
    groups.append([9] * (2 * MOST_MULT + 3) + [10])
    codes = [c for g in groups for c in g]
    rec = np.array([[c * 3, c * 5, c] for c in codes], np.int64).reshape(-1, 3)
    bounds = np.cumsum([0] + [len(g) for g in groups]).astype(np.int64)
    merged, out, mult = _merge_same_rows(rec, bounds)
    for g, group in enumerate(groups):
        got = {}
        for x in range(out[g], out[g + 1]):
            assert list(merged[x]) == [merged[x, 2] * 3, merged[x, 2] * 5, merged[x, 2]]
            assert 1 <= mult[x] <= MOST_MULT
            got[int(merged[x, 2])] = got.get(int(merged[x, 2]), 0) + int(mult[x])
        assert got == {c: group.count(c) for c in group}
    assert out[-1] - out[-2] == 4  # 2 * MOST_MULT + 3 halves of one set: 3 records, and one


def test_rows_as_bytes_only_where_they_fit():
    t = tables(6, 14, "takuzu")  # more than 255 valid rows of 14 cells
    join = JoinTables(6, 14, t.bits, t.words)
    cube = sample_cubes(t, 1, seed=0)[0]
    with pytest.raises(AssertionError):
        join.takuzu(*cube.rows, t.eqpairs, in_bytes=True)


@pytest.mark.parametrize("rows, cols", SHAPES)
def test_bucketed_pair_tests_agree_with_the_first_kernel_per_cube(rows, cols):
    t = tables(rows, cols, "takuzu")
    for cube in sample_cubes(t):
        assert count_cube(t, "mitm", cube, "bucketed pair tests") == count_cube(
            t, "mitm", cube, "compiled pair tests"
        ), cube


@pytest.mark.parametrize("rows, cols", [(6, 6), (8, 8), (10, 6), (6, 10), (10, 10)])
def test_bucketed_pair_tests_in_parts_agree_per_cube(rows, cols):
    # the keys dealt into parts of a few hundred top halves: each part enumerated again
    t = tables(rows, cols, "takuzu")
    join = JoinTables(rows, cols, t.bits, t.words)
    for cube in sample_cubes(t, 12, seed=3):
        assert join.lookup(*cube.rows, t.eqpairs, most=300) == count_cube(t, "mitm", cube, "pair tests"), cube


@pytest.mark.parametrize("rows, cols", [(6, 6), (8, 8), (10, 6), (6, 10)])
def test_bucketed_pair_tests_with_little_room_agree_per_cube(rows, cols):
    # fewer halves kept than a side has: the bottom halves looked up one by one as they are
    # enumerated, or (fewer than the top halves) the top halves enumerated again per part
    t = tables(rows, cols, "takuzu")
    join = JoinTables(rows, cols, t.bits, t.words)
    for cube in sample_cubes(t, 12, seed=6):
        tested = count_cube(t, "mitm", cube, "pair tests")
        for capacity in (16, 200):
            assert join.lookup(*cube.rows, t.eqpairs, capacity=capacity) == tested, cube
        assert join.lookup(*cube.rows, t.eqpairs, bottom_capacity=8) == tested, cube


@pytest.mark.parametrize("rows, cols", [(8, 8), (10, 6), (6, 10), (10, 10)])
def test_bucketed_pair_tests_on_threads_agree_per_cube(rows, cols):
    t = tables(rows, cols, "takuzu")
    join = JoinTables(rows, cols, t.bits, t.words)
    sample = sample_cubes(t, 20, seed=5)
    assert join.lookup_many([c.rows for c in sample], t.eqpairs, 2) == [
        count_cube(t, "mitm", c, "pair tests") for c in sample
    ]


@given(st.lists(st.integers(0, 10**6), max_size=60), st.integers(1, 8))
def test_cubes_are_dealt_to_threads_once_each_and_evenly(costs, chunks):
    dealt = deal(costs, chunks)
    assert len(dealt) == chunks
    assert sorted(x for chunk in dealt for x in chunk) == list(range(len(costs)))
    # greedy, largest first: no chunk holds more than the mean plus one item
    loads = [sum(costs[x] for x in chunk) for chunk in dealt]
    assert max(loads) <= sum(costs) / chunks + max(costs, default=0)
    assert all(
        [costs[x] for x in chunk] == sorted((costs[x] for x in chunk), reverse=True) for chunk in dealt
    )


def test_ten_by_ten_counted_on_threads_in_this_process():
    result = binairo_count.count_grids(10, 10)
    assert result.backend.endswith(" threads") and result.count == 48183195384


def test_ten_by_ten_on_threads_stops_and_resumes_to_the_same_total(tmp_path):
    path = tmp_path / "c10.jsonl"
    first = binairo_count.count_grids(10, 10, checkpoint=str(path), stop_after=60)
    assert first.backend.endswith(" threads") and not first.complete
    assert 60 <= first.cubes_done < first.cubes  # the threads stop after the cubes under way
    rest = binairo_count.count_grids(10, 10, checkpoint=str(path))
    assert rest.complete and rest.count == 48183195384
    cubes_done = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    assert len(cubes_done) == rest.cubes  # each cube once, with its thread's CPU seconds
    assert all(c["join"] == "bucketed pair tests" and c["cpu_seconds"] >= 0 for c in cubes_done)


def total(rows: int, cols: int, rules: str, join: str) -> int:
    t = tables(rows, cols, rules)
    return sum(c.weight * count_cube(t, "mitm", c, join) for c in cubes(t, "mitm"))


@pytest.mark.parametrize("rules", ["takuzu", "unruly"])
@pytest.mark.parametrize("orientation", ["rows", "columns"])
def test_counting_joins_agree_with_the_sat_engine(rules, orientation):
    solver = PuzzleSolver(binairo.BINAIRO, "sat")
    for rows, cols in [(4, 4), (4, 6), (6, 4), (2, 6), (6, 6)]:
        r, c = (rows, cols) if orientation == "rows" else (cols, rows)
        empty = binairo.Puzzle(tuple((None,) * cols for _ in range(rows)), rules)
        assert total(r, c, rules, COUNTING[rules]) == solver.count(empty).count
        if rules == "takuzu":
            assert total(r, c, rules, "bucketed pair tests") == solver.count(empty).count


def test_counting_joins_give_the_known_totals():
    assert total(8, 8, "takuzu", "inclusion-exclusion, depth first") == 4111116
    assert total(8, 8, "unruly", "histogram") == 12413918
    assert total(8, 8, "takuzu", "bucketed pair tests") == 4111116
    assert (
        total(10, 6, "takuzu", "bucketed pair tests")
        == total(6, 10, "takuzu", "bucketed pair tests")
        == 392208
    )
    assert (
        total(10, 6, "takuzu", "inclusion-exclusion, depth first")
        == total(6, 10, "takuzu", "pair tests")
        == 392208
    )


def test_twelve_by_twelve_takes_the_counting_joins():
    assert binairo_count.cube_join(tables(12, 12, "takuzu"), "mitm") == "inclusion-exclusion, depth first"
    assert binairo_count.cube_join(tables(12, 12, "unruly"), "mitm") == "histogram"
    assert binairo_count.cube_join(tables(10, 10, "takuzu"), "mitm") == "bucketed pair tests"


@given(st.integers(1, 14))
def test_the_digit_range_is_what_columns_without_triples_hold(h):
    lo, hi = digit_range(h)
    assert valid_digit_range(h) == (lo, hi)


def test_subset_tables_list_every_subset_once():
    start, flat = subset_tables(5)
    for m in range(6):
        for k in range(1, m + 1):
            chunk = flat[start[m, k] : start[m, k + 1]].reshape(-1, k)
            assert len({tuple(s) for s in chunk.tolist()}) == len(chunk)
            assert all(list(s) == sorted(s) and max(s) < m for s in chunk.tolist())


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 6), (4, 4), (6, 4), (4, 8), (8, 8), (8, 6), (6, 8)])
@pytest.mark.parametrize("rules", ["takuzu", "unruly"])
def test_small_grids_numpy_methods_agree_with_the_compiled_kernels(rows, cols, rules):
    # the numpy methods spare small counts the numba import; per cube they are the same
    t = tables(rows, cols, rules)
    for cube in sample_cubes(t, 30, seed=2):
        assert count_cube(t, "mitm", cube) == count_cube(t, "mitm", cube, "compiled pair tests")
        assert binairo_count.dfs_check_mitm_cube(t, cube) == count_cube(t, "mitm", cube)
    for cube in cubes(t, "dfs")[:6]:
        assert count_cube(t, "dfs", cube) == count_cube(t, "dfs", cube, "compiled")
