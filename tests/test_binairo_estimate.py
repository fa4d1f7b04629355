"""`count --size N --estimate K`: a count estimated from a stratified random sample of cubes.

What the estimate promises: every stratum sampled, the sample the size asked for, an exact answer
when every cube is counted, an interval that holds the exact count in a seeded run (its coverage
rate over many runs is measured in benchmarks/binairo_estimate_coverage.py, not here), and an
auxiliary file checked before any cube is counted."""

from __future__ import annotations

import json
import math
import random
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.models.binairo import count as binairo_count
from mindgames.models.binairo.count import Cube, count_grids, cubes, tables
from mindgames.models.binairo.count.sampling import (
    allocate,
    continuations,
    strata,
    stratified_estimate,
    stratified_sample,
    student_t_cdf,
    student_t_quantile,
)
from tests.test_binairo_limits import cli

EXACT = {
    (8, "takuzu"): 4111116,
    (10, "takuzu"): 48183195384,
    (8, "unruly"): 12413918,
    (10, "unruly"): 117925227108,
}


# -- Student's t --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "df, quantile", [(1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281), (30, 2.0423), (math.inf, 1.9600)]
)
def test_the_t_quantile_matches_the_printed_tables(df, quantile):
    assert student_t_quantile(0.975, df) == pytest.approx(quantile, abs=5e-5)


@settings(max_examples=60, deadline=None)
@given(st.floats(0.001, 0.999), st.floats(0.5, 500))
def test_the_t_quantile_inverts_the_t_distribution(p, df):
    t = student_t_quantile(p, df)
    assert student_t_cdf(t, df) == pytest.approx(p, abs=1e-9)
    assert student_t_quantile(1 - p, df) == pytest.approx(-t, rel=1e-9, abs=1e-9)


@settings(max_examples=30, deadline=None)
@given(st.floats(0.5, 100))
def test_fewer_degrees_of_freedom_widen_the_interval(df):
    assert student_t_quantile(0.975, df) > student_t_quantile(0.975, df + 1) > 1.959


# -- strata, allocation, sample -----------------------------------------------------------------


def cubes_with_sizes(size: int, rules: str = "takuzu") -> tuple[list[Cube], list[int]]:
    t = tables(size, size, rules)
    todo = cubes(t, "mitm")
    return todo, continuations(t.bits, t.cols, [cube.rows for cube in todo])


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 200), st.integers(0, 10**6), st.booleans())
def test_the_sample_is_the_size_asked_for_with_two_of_every_stratum(sample, seed, sized):
    todo, sizes = cubes_with_sizes(8)
    auxiliary = sizes if sized else None
    groups = strata(todo, auxiliary)
    picked = stratified_sample(todo, sample, random.Random(seed), auxiliary)
    assert len(set(picked)) == len(picked)
    least = sum(min(2, len(members)) for members in groups.values())
    assert len(picked) == min(len(todo), max(sample, least))
    for members in groups.values():
        assert len(set(members) & set(picked)) >= min(2, len(members))
    # interleaved: a run stopped after one cube per stratum has some of every stratum
    first = set(picked[: len(groups)])
    assert all(first & set(members) for members in groups.values())


def test_strata_are_orbit_sizes_cut_into_size_classes():
    todo, sizes = cubes_with_sizes(10)
    plain = strata(todo)
    assert sorted(plain) == [(2, 0), (4, 0), (8, 0)]
    sized = strata(todo, sizes)
    assert sorted({w for w, _ in sized}) == [2, 4, 8]
    assert len(sized) > len(plain)  # 10x10 has 816 cubes of orbit size 8: cut into classes
    assert sorted(i for members in sized.values() for i in members) == list(range(len(todo)))
    for (weight, size_class), members in sized.items():
        assert {todo[i].weight for i in members} == {weight}
        if (weight, size_class + 1) in sized:  # classes of an orbit size are ordered by size
            assert max(sizes[i] for i in members) <= min(sizes[i] for i in sized[(weight, size_class + 1)])


def test_the_allocation_follows_each_stratum_s_share_of_the_uncertainty():
    # Neyman: cubes in proportion to w * N * (spread of the sizes), within [2, N]
    todo, sizes = cubes_with_sizes(10)
    groups = strata(todo, sizes)
    given = allocate(todo, 60, sizes)
    assert sum(given.values()) == 60
    assert all(min(2, len(groups[label])) <= n <= len(groups[label]) for label, n in given.items())

    def need(label):
        values = [sizes[i] for i in groups[label]]
        return label[0] * len(values) * statistics.stdev(values)

    assert given[max(groups, key=need)] == max(given.values())
    assert given[min(groups, key=need)] == 2


def test_continuations_are_the_same_for_every_cube_of_an_orbit():
    t = tables(10, 10, "takuzu")
    comp, mir = t.complement.tolist(), t.mirror.tolist()
    for a, b in random.Random(3).sample([c.rows for c in cubes(t, "mitm")], 30):
        orbit = [(a, b), (b, a), (comp[a], comp[b]), (mir[a], mir[b]), (comp[mir[b]], comp[mir[a]])]
        assert len(set(continuations(t.bits, t.cols, orbit))) == 1


# -- the estimate -------------------------------------------------------------------------------


def test_every_cube_counted_is_the_exact_count_with_no_width():
    todo = cubes(tables(6, 6, "takuzu"), "mitm")
    guess = binairo_count.estimate(6, 6, "takuzu", "mitm", len(todo), seed=0)
    assert guess["sampled"] == len(todo)
    assert guess["estimated_count"] == 4140 and guess["interval_95"] == [4140, 4140]


def test_a_ratio_estimate_of_counts_proportional_to_the_auxiliary_is_exact():
    todo, sizes = cubes_with_sizes(8)
    counts = {i: 3 * sizes[i] for i in stratified_sample(todo, 30, random.Random(0), sizes)}
    found = stratified_estimate(todo, counts, sizes)
    exact = sum(cube.weight * 3 * size for cube, size in zip(todo, sizes))
    assert found["estimated_count"] == exact and found["standard_error"] == 0


def test_no_interval_while_a_stratum_has_one_counted_cube():
    todo = cubes(tables(8, 8, "takuzu"), "mitm")
    one_each = {members[0]: 1000 for members in strata(todo).values()}
    found = stratified_estimate(todo, one_each)
    assert found["estimated_count"] is not None and found["interval_95"] is None


@pytest.mark.parametrize(
    "rows, rules, sample", [(8, "takuzu", 40), (10, "takuzu", 60), (8, "unruly", 40), (10, "unruly", 60)]
)
def test_a_seeded_estimate_interval_covers_the_exact_count(rows, rules, sample):
    guess = binairo_count.estimate(rows, rows, rules, "mitm", sample, seed=1)
    low, high = guess["interval_95"]
    assert guess["status"] == "estimated" and guess["sampled"] == sample
    assert low <= EXACT[rows, rules] <= high
    assert low <= guess["estimated_count"] <= high
    assert guess["degrees_of_freedom"] > 1 and "continuations" in guess["estimator"]


def test_an_unruly_checkpoint_as_auxiliary_narrows_the_interval_and_covers(tmp_path):
    unruly = tmp_path / "u10.jsonl"
    assert count_grids(10, 10, "unruly", checkpoint=str(unruly)).complete
    plain = binairo_count.estimate(10, 10, "takuzu", "mitm", 60, seed=1)
    helped = binairo_count.estimate(10, 10, "takuzu", "mitm", 60, seed=1, auxiliary=str(unruly))
    low, high = helped["interval_95"]
    assert low <= EXACT[10, "takuzu"] <= high
    assert "exact unruly count" in helped["estimator"]
    assert high - low < plain["interval_95"][1] - plain["interval_95"][0]


def test_the_command_reports_the_estimate_with_its_interval():
    code, out, err = cli("binairo", "count", "--size", "8", "--estimate", "40", "--json")
    assert code == 0 and err == ""
    guess = json.loads(out)
    low, high = guess["interval_95"]
    assert low <= EXACT[8, "takuzu"] <= high and guess["sampled"] == 40
    assert "Student's t" in guess["interval_method"]


# -- a bad auxiliary file is an error naming what is wrong, before any cube is counted ----------


@pytest.mark.parametrize(
    "content, says",
    [
        ("", "not the checkpoint of `count --size 8x8 --rules unruly`"),
        (
            '{"rows": 8, "cols": 8, "rules": "takuzu", "method": "mitm", "cubes": 164}\n',
            "not the checkpoint of `count --size 8x8 --rules unruly`",
        ),
        (
            '{"rows": 8, "cols": 8, "rules": "unruly", "method": "mitm", "cubes": 176}\n{"cube": 0}\n',
            "line 2: not a cube's count",
        ),
        (
            '{"rows": 8, "cols": 8, "rules": "unruly", "method": "mitm", "cubes": 176}\n'
            '{"cube": 1, "count": 5}\n',
            "163 of the 164 cubes are not counted in it",
        ),
    ],
)
def test_a_bad_auxiliary_file_is_a_one_line_error(tmp_path, content, says):
    helper = tmp_path / "aux.jsonl"
    helper.write_text(content)
    code, out, err = cli("binairo", "count", "--size", "8", "--estimate", "20", "--auxiliary", str(helper))
    assert code == 2 and out == ""
    assert says in err and len(err.strip().splitlines()) == 1


def test_an_auxiliary_serves_a_takuzu_estimate_only(tmp_path):
    helper = tmp_path / "aux.jsonl"
    helper.write_text("{}\n")
    code, _, err = cli(
        "binairo", "count", "--size", "8", "--rules", "unruly", "--estimate", "20", "--auxiliary", str(helper)
    )
    assert code == 2 and "takuzu" in err
    code, _, err = cli("binairo", "count", "--size", "8", "--auxiliary", str(helper))
    assert code == 2 and "--estimate" in err
    code, _, err = cli(
        "binairo", "count", "--size", "8", "--estimate", "5", "--auxiliary", str(tmp_path / "missing.jsonl")
    )
    assert code == 2 and "cannot read it" in err


# -- the log of sampled cubes: read back, so an interrupted estimate resumes ----------------------


def test_a_second_run_with_the_same_log_counts_nothing_again(tmp_path):
    log = tmp_path / "sample.jsonl"
    argv = [
        "binairo",
        "count",
        "--size",
        "8",
        "--estimate",
        "30",
        "--seed",
        "4",
        "--checkpoint",
        str(log),
        "--json",
    ]
    code, out, _ = cli(*argv)
    first = json.loads(out)
    assert code == 0 and first["reused"] == 0 and len(log.read_text().splitlines()) == 30
    code, out, _ = cli(*argv)
    again = json.loads(out)
    assert again["reused"] == again["sampled"] == 30
    assert len(log.read_text().splitlines()) == 30  # nothing counted, nothing appended
    assert (again["estimated_count"], again["interval_95"]) == (
        first["estimated_count"],
        first["interval_95"],
    )


def test_other_seeds_draw_other_samples():
    guesses = {
        binairo_count.estimate(8, 8, "takuzu", "mitm", 20, seed=seed)["estimated_count"] for seed in range(4)
    }
    assert len(guesses) > 1


def test_a_log_of_another_count_is_an_error_naming_the_line(tmp_path):
    log = tmp_path / "sample.jsonl"
    log.write_text(
        '{"middle_rows": [0, 1], "weight": 8, "count": 9, "shape": "8x8", '
        '"rules": "takuzu"}\n{"middle_rows": [0, 1], "weight": 8, "count": 9, '
        '"shape": "10x10", "rules": "takuzu"}\n'
    )
    code, out, err = cli("binairo", "count", "--size", "8", "--estimate", "20", "--checkpoint", str(log))
    assert code == 2 and out == ""
    assert "line 2: a cube of a 10x10 takuzu count, not of this 8x8 takuzu count" in err
