"""``generate --grade NAME`` and ``--rating A-B`` find their target by search: every grade
``--help`` offers, for several seeds, within the search's bound (8 starts of 25 mutations)."""

from __future__ import annotations

import json

import pytest

from mindgames.cli import main
from mindgames.commands.sudoku import GRADES
from mindgames.models.sudoku import SUDOKU
from mindgames.models.sudoku.generate import grade_range
from mindgames.models.sudoku.rating import rate
from mindgames.models.sudoku.techniques import GRADE_TOPS


def generated(capsys, *flags: str) -> dict:
    assert main(["sudoku", "generate", *flags, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("grade", GRADES)
def test_every_grade_is_found(capsys, grade):
    reply = generated(capsys, "--grade", grade, "--seed", "1")
    assert reply["grade_name"] == grade and reply["uniqueness"] == "unique" and reply["minimal"]
    low, high = grade_range(grade)
    assert low < rate(SUDOKU.parse_value(reply["puzzle"])).er == reply["rating"] <= high


@pytest.mark.parametrize("seed", [2, 3])
def test_the_readme_example_works_for_other_seeds(capsys, seed):
    assert generated(capsys, "--grade", "hard", "--seed", str(seed))["grade_name"] == "hard"


def test_a_rating_range_is_found_and_reproducible(capsys):
    first = generated(capsys, "--rating", "2.6-3.4", "--seed", "2")
    assert 2.6 <= first["rating"] <= 3.4
    assert generated(capsys, "--rating", "2.6-3.4", "--seed", "2")["puzzle"] == first["puzzle"]


def test_grade_ranges_follow_one_another():
    ranges = [grade_range(name) for name in GRADES]
    assert all(high == next_low for (_, high), (next_low, _) in zip(ranges, ranges[1:]))
    assert ranges[0][0] == 0 and ranges[-1][1] == GRADE_TOPS[max(GRADE_TOPS)]


def test_bad_rating_ranges_are_usage_errors(capsys):
    for bad in ("hard", "4-2", "0.5-1"):
        with pytest.raises(SystemExit) as stop:
            main(["sudoku", "generate", "--rating", bad])
        assert stop.value.code == 2
    capsys.readouterr()
