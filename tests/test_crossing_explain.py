"""`crossing explain`: a minimal set of the rules behind "no plan" or "no shorter plan"."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mindgames.models.crossing import Options, parse_document, presets, solve
from mindgames.models.crossing.explain import constraints_of, explain, shortest_crossings, with_only

CASES = [
    ("wolf-goat-cabbage", {}),
    ("missionaries-cannibals", {}),
    ("jealous-husbands", {}),
    ("jealous-husbands", {"return_capacity": 1}),
    ("jealous-husbands", {"couples": 4}),
    ("dangerous-family", {}),
    ("queens-tower", {}),
]


@pytest.mark.parametrize("name,params", CASES)
def test_the_explanation_is_about_the_answer_solve_proves(name, params):
    spec = parse_document(presets.build(name, params))
    proved = solve(spec, Options(cross_check=False))
    why = explain(spec)
    assert why.explanation == ("unsolvable" if proved.status == "unsolvable" else "shortest")
    assert why.crossings == proved.crossings


@pytest.mark.parametrize("name,params", CASES)
def test_the_constraints_named_suffice_and_each_is_needed(name, params):
    spec = parse_document(presets.build(name, params))
    why = explain(spec)
    named = [c for c in constraints_of(spec) if c.text in {n["constraint"] for n in why.needed}]
    assert len(named) == len(why.needed)
    assert shortest_crossings(with_only(spec, named)) == why.crossings  # enough on their own
    for constraint in named:  # and none can go
        without = shortest_crossings(with_only(spec, [c for c in named if c != constraint]))
        assert without != why.crossings


def test_a_puzzle_without_rules_says_its_limits_are_enough():
    why = explain(parse_document(presets.build("queens-tower", {})))
    assert why.needed == [] and "no rule is needed" in why.text


def test_the_command_prints_json_and_says_unknown_past_its_time_limit():
    run = [sys.executable, "-m", "mindgames.cli", "crossing", "explain"]
    done = subprocess.run(
        run + ["jealous-husbands", "--set", "return_capacity=1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    record = json.loads(done.stdout)
    assert done.returncode == 0 and record["explanation"] == "unsolvable" and len(record["needed"]) == 4
    late = subprocess.run(
        run + ["jealous-husbands", "--set", "couples=100", "--time-limit", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert late.returncode == 0 and "unknown" in late.stdout
