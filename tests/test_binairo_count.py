"""Exact counts of every Binairo grid: the fast methods, their cubes, and resuming."""

from __future__ import annotations

import json

import pytest

from mindgames.models import binairo
from mindgames.models.binairo import count as binairo_count
from mindgames.models.binairo.count import count_grids
from mindgames.models.errors import PuzzleError
from mindgames.models.runner import PuzzleSolver

# OEIS A253316 (takuzu, square) and Unruly counts; rectangles are rows x columns.
TAKUZU = {2: 2, 4: 72, 6: 4140}
UNRULY = {2: 2, 4: 90, 6: 11222}


@pytest.mark.parametrize("method", binairo_count.METHODS)
@pytest.mark.parametrize("rules, known", [("takuzu", TAKUZU), ("unruly", UNRULY)])
def test_small_squares_by_every_fast_method(method, rules, known):
    assert {n: count_grids(n, n, rules, method).count for n in known} == known


@pytest.mark.parametrize("rules", ["takuzu", "unruly"])
def test_fast_methods_agree_with_the_sat_engine(rules):
    solver = PuzzleSolver(binairo.BINAIRO, "sat")
    for rows, cols in [(4, 4), (4, 6), (6, 4), (2, 6), (6, 6)]:
        empty = binairo.Puzzle(tuple((None,) * cols for _ in range(rows)), rules)
        assert count_grids(rows, cols, rules).count == solver.count(empty).count


def test_8x8_by_meet_in_the_middle():
    assert count_grids(8, 8, "takuzu", "mitm").count == 4111116
    assert count_grids(8, 8, "unruly", "mitm").count == 12413918


@pytest.mark.parametrize("rows, cols, expected", [(6, 4, 96), (8, 6, 51744), (10, 6, 392208)])
@pytest.mark.parametrize("orientation", ["rows", "columns"])
def test_rectangles_counted_both_ways(rows, cols, expected, orientation):
    # "4 wide x 6 high" is 6 rows of 4; counting its transpose must give the same number.
    assert count_grids(rows, cols, orientation=orientation).count == expected
    assert count_grids(cols, rows, orientation=orientation).count == expected


def test_row_dfs_agrees_on_8x6():
    assert count_grids(8, 6, method="dfs").count == 51744


def test_meet_in_the_middle_cubes_recounted_by_dfs():
    recounts = binairo_count.check_cubes(8, 8, "takuzu", sample=5, seed=3)
    assert len(recounts) == 5 and len({r.cube for r in recounts}) == 5
    assert all(r.method == "dfs" and r.agrees and r.count > 0 for r in recounts)
    assert all(r.note().endswith("equal") for r in recounts)


def test_a_cross_check_catches_a_wrong_record_of_a_cube():
    t = binairo_count.tables(6, 6, "takuzu")
    todo = binairo_count.cubes(t, "mitm")
    recorded = {i: binairo_count.count_cube(t, "mitm", cube) for i, cube in enumerate(todo)}
    recorded[0] += 1
    recounts = binairo_count.check_cubes(6, 6, "takuzu", sample=len(todo), recorded=recorded)
    assert [r.cube for r in recounts if not r.agrees] == [0]
    assert "DIFFERENT" in next(r.note() for r in recounts if r.cube == 0)


def test_cross_check_recounts_in_worker_processes_by_the_join_asked_for():
    recounts = binairo_count.check_cubes(8, 8, "unruly", sample=3, seed=1, jobs=2)
    assert len(recounts) == 3 and all(r.agrees and r.method == "dfs" for r in recounts)


def test_cubes_counted_by_inclusion_exclusion_are_recounted_by_pair_tests():
    # dfs would take hours on a 12x12 cube; the pair tests count nothing by inclusion-exclusion
    assert binairo_count.recount_join(binairo_count.tables(12, 12, "takuzu")) == "bucketed pair tests"
    assert binairo_count.recount_join(binairo_count.tables(12, 12, "unruly")) == "dfs"
    assert binairo_count.recount_join(binairo_count.tables(10, 10, "takuzu")) == "dfs"


def test_symmetry_weights_cover_every_middle_pair():
    t = binairo_count.tables(8, 8, "takuzu")
    n = len(t.bits)
    assert sum(c.weight for c in binairo_count.cubes(t, "mitm")) == n * (n - 1)
    assert sum(c.weight for c in binairo_count.cubes(t, "dfs")) == n
    u = binairo_count.tables(8, 8, "unruly")
    assert sum(c.weight for c in binairo_count.cubes(u, "mitm")) == n * n


def test_valid_rows_are_the_balanced_rows_without_triples():
    assert len(binairo_count.valid_rows(6)) == 14
    assert all(format(r, "06b").count("1") == 3 for r in binairo_count.valid_rows(6))
    assert "111" not in "".join(format(r, "08b") for r in binairo_count.valid_rows(8)[:1])


def test_interrupted_count_resumes_to_the_same_total(tmp_path):
    path = tmp_path / "count.jsonl"
    first = count_grids(8, 8, checkpoint=str(path), stop_after=40, jobs=1)
    assert not first.complete and first.count is None and first.cubes_done == 40
    header = json.loads(path.read_text().splitlines()[0])
    assert header["rows"] == 8 and header["method"] == "mitm"
    second = count_grids(8, 8, checkpoint=str(path), jobs=1)
    assert second.complete and second.count == 4111116
    cubes = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    assert all(c["join"] == "pair tests" and c["cpu_seconds"] >= 0 for c in cubes)


def test_a_cut_off_checkpoint_line_is_redone(tmp_path):
    path = tmp_path / "count.jsonl"
    count_grids(6, 6, checkpoint=str(path), stop_after=10)
    path.write_text(path.read_text() + '{"cube": 2')  # killed mid-write
    assert count_grids(6, 6, checkpoint=str(path)).count == 4140


def test_a_checkpoint_of_another_job_is_refused(tmp_path):
    path = tmp_path / "count.jsonl"
    count_grids(6, 6, checkpoint=str(path))
    with pytest.raises(PuzzleError, match="checkpoint of another job"):
        count_grids(6, 6, rules="unruly", checkpoint=str(path))


def test_local_processes_give_the_same_count():
    # two worker processes, explicitly (a grid this small would otherwise stay in-process)
    assert count_grids(10, 6, jobs=2, orientation="rows").count == 392208


def test_ray_gives_the_same_count():
    pytest.importorskip("ray")
    assert count_grids(6, 6, ray_address="local").count == 4140


def test_wide_rows_take_the_general_join():
    # 6 rows of 12 (rows of 12 cells: two words of column pairs, four of used rows) against
    # the transpose, 12 rows of 6 (one word each): two different code paths, one number.
    wide = count_grids(6, 12, orientation="rows")
    tall = count_grids(6, 12, orientation="columns")
    assert wide.orientation == "6x12" and tall.orientation == "12x6"
    assert wide.count == tall.count > 0


def test_a_ray_cluster_that_cannot_be_reached_is_a_puzzle_error(monkeypatch):
    ray = pytest.importorskip("ray")

    def refuse(*args, **kwargs):
        raise ConnectionError("Could not find any running Ray instance.\nMore text.")

    monkeypatch.setattr(ray, "init", refuse)
    with pytest.raises(
        PuzzleError,
        match=r"^--ray auto: could not start or reach a Ray cluster "
        r"\(Could not find any running Ray instance\.\)$",
    ):
        count_grids(6, 6, ray_address="auto")
