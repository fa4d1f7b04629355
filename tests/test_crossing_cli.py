"""Crossing puzzles on the command line: parameter bounds, wording, progress, Ctrl-C."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mindgames.cli import main
from mindgames.models.crossing import Options, parse_document, parse_text, presets, solve
from mindgames.models.crossing.spec import MAX_ACTORS, MAX_CAPACITY, MAX_COPIES, MAX_COUNT, MAX_RULES
from mindgames.models.errors import PuzzleError

REPO = Path(__file__).resolve().parent.parent


# -- parameter bounds (issue 8, item 11 needs them) ------------------------------------------
@pytest.mark.parametrize("name", list(presets.PRESETS))
def test_every_preset_parameter_has_bounds_that_hold_its_default(name):
    bounds = presets.BOUNDS[name]
    defaults = presets.parameters(name)
    assert set(bounds) == set(defaults)
    for key, default in defaults.items():
        low, high = bounds[key]
        assert low <= default <= high


@pytest.mark.parametrize(
    "name,key,value,word",
    [
        ("jealous-husbands", "couples", 4000, "too big"),
        ("jealous-husbands", "couples", 10**9, "too big"),  # refused before any O(n^2) work
        ("missionaries-cannibals", "pairs", 0, "too small"),
        ("missionaries-cannibals", "capacity", 21, "too big"),
        ("queens-tower", "max_difference", -1, "too small"),
        ("wolf-goat-cabbage", "capacity", 3.5, "whole number"),
        ("dangerous-family", "capacity", True, "whole number"),
        ("jealous-husbands", "couples", "3", "whole number"),
    ],
)
def test_a_parameter_out_of_bounds_is_an_error_naming_it_its_value_and_range(name, key, value, word):
    low, high = presets.BOUNDS[name][key]
    with pytest.raises(PuzzleError) as error:
        presets.build(name, {key: value})
    message = str(error.value)
    assert key in message and word in message and f"{low}..{high}" in message
    assert (repr(value) if isinstance(value, (str, bool, float)) else str(value)) in message


def test_preset_functions_called_directly_check_their_bounds_too():
    with pytest.raises(PuzzleError, match="couples = 4000 is too big"):
        presets.PRESETS["jealous-husbands"](couples=4000)


def test_list_shows_every_parameter_with_its_bounds(capsys):
    assert main(["crossing", "list"]) == 0
    text = capsys.readouterr().out
    assert "couples=3 (1..100)" in text and "pairs=3 (1..1000)" in text
    assert main(["crossing", "list", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["puzzles"]["jealous-husbands"]["couples"] == 3  # the old key stays
    assert record["bounds"]["jealous-husbands"]["couples"] == [1, 100]
    assert set(record["descriptions"]) == set(presets.PRESETS)


def actor(name="a", **more):
    return {"name": name, **more}


@pytest.mark.parametrize(
    "document,message",
    [
        (
            {"boat": {"capacity": 2}, "actors": [actor(count=MAX_COUNT + 1)]},
            f"actors[0].count = {MAX_COUNT + 1} is too big (allowed: 1..{MAX_COUNT})",
        ),
        (
            {"boat": {"capacity": 2}, "actors": [actor(f"a{i}", count=MAX_COUNT) for i in range(3)]},
            f"{3 * MAX_COUNT} copies in all is too many (allowed: 1..{MAX_COPIES})",
        ),
        (
            {"boat": {"capacity": 2}, "actors": [actor(f"a{i}") for i in range(MAX_ACTORS + 1)]},
            f"actors: {MAX_ACTORS + 1} entries is too many",
        ),
        (
            {"boat": {"capacity": MAX_CAPACITY + 1}, "actors": [actor()]},
            f"boat.capacity = {MAX_CAPACITY + 1} is too big (allowed: 1..{MAX_CAPACITY})",
        ),
        ({"boat": {"capacity": 2}, "actors": [actor("x" * 65)]}, "too long (allowed: at most 64)"),
        (
            {
                "boat": {"capacity": 2},
                "actors": [actor()],
                "rules": [{"kind": "not_outnumbered", "protect": "a", "by": "a"}] * (MAX_RULES + 1),
            },
            f"rules: {MAX_RULES + 1} entries is too many",
        ),
        (
            {"pulley": {"max_difference": 10**7}, "actors": [actor(weight=1)]},
            "pulley.max_difference = 10000000 is too big",
        ),
    ],
)
def test_puzzle_files_have_bounded_sizes(document, message):
    with pytest.raises(PuzzleError) as error:
        parse_document(document)
    assert message in str(error.value)


def test_the_largest_presets_fit_the_file_bounds():
    parse_document(presets.build("jealous-husbands", {"couples": 100, "capacity": 10}))
    parse_document(presets.build("missionaries-cannibals", {"pairs": 1000, "capacity": 20}))


# -- wording (issue 8, item 8) ------------------------------------------------------------
def test_one_crossing_is_singular(capsys):
    assert main(["crossing", "solve", "wolf-goat-cabbage", "--set", "capacity=4"]) == 0
    out = capsys.readouterr().out
    assert "solved in 1 crossing (proven shortest)" in out
    assert "1 crossings" not in out and "1 states" not in out


def test_one_reachable_state_is_singular():
    outcome = solve(parse_document(presets.build("wolf-goat-cabbage", {"capacity": 1})))
    assert outcome.status == "unsolvable"
    assert "1 reachable counted states" not in outcome.proof + outcome.confirmation
    assert "only 1 counted state is reachable" in outcome.confirmation


def test_descriptions_are_plain_text_without_markup(capsys):
    assert main(["crossing", "list"]) == 0
    assert "`" not in capsys.readouterr().out
    for name, function in presets.PRESETS.items():
        assert "`" not in (function.__doc__ or "")  # the web page shows these too
        assert "`" not in presets.describe(name)


@pytest.mark.parametrize(
    "name,settings,said",
    [
        ("jealous-husbands", {"capacity": 3}, "boat of 3"),
        ("missionaries-cannibals", {"pairs": 1, "capacity": 4}, "boat of 4"),
        ("wolf-goat-cabbage", {"capacity": 3}, "boat of 3"),
        ("dangerous-family", {"capacity": 3}, "boat of 3"),
        ("jealous-husbands", {"return_capacity": 1}, "boat of 2, 1 back"),
    ],
)
def test_titles_and_descriptions_follow_the_parameters(name, settings, said):
    document = presets.build(name, settings)
    assert said in document["name"] and said in document["description"]


def test_one_pair_is_singular_in_the_title():
    document = presets.build("missionaries-cannibals", {"pairs": 1})
    assert "(1 pair, boat of 2)" in document["name"]
    assert document["description"].startswith("1 missionary and 1 cannibal cross")


def test_queens_tower_description_states_its_weights():
    text = presets.describe("queens-tower", {"queen": 200, "max_difference": 20})
    assert "200 lb" in text and "at most 20 lb" in text


def test_setting_a_file_key_shows_in_its_title(capsys):
    path = REPO / "data" / "crossing" / "jealous-husbands.toml"
    assert main(["crossing", "solve", str(path), "--set", "boat.capacity=3", "--json"]) == 0
    assert "boat.capacity=3" in json.loads(capsys.readouterr().out)["name"]


def test_a_graph_stopped_by_the_time_limit_says_so_not_a_duration():
    spec = parse_text((REPO / "data" / "crossing" / "dangerous-family.toml").read_text())
    outcome = solve(spec, Options(time_limit=0.001))
    assert "took over" not in json.dumps(outcome.cross_check)
    assert "time limit" in outcome.cross_check["note"]


# -- progress and Ctrl-C (issue 8, item 6) -------------------------------------------------------
def test_progress_names_the_search_depth_and_the_states_so_far():
    said = []
    solve(parse_document(presets.build("jealous-husbands", {})), report=said.append)
    assert any(text.startswith("breadth-first search: depth 5,") for text in said)
    assert any("counted states" in text for text in said)
    assert any(text.startswith("confirming on sat") for text in said)


def command(*argv: str) -> list[str]:
    return [sys.executable, "-c", "from mindgames.cli import entry; entry()", *argv]


ENV = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}


def test_nothing_but_the_answer_on_a_pipe():
    done = subprocess.run(
        command("crossing", "solve", "jealous-husbands", "--set", "couples=5", "--set", "capacity=3"),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=ENV,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("Jealous husbands (5 couples, boat of 3): solved in")


CROWDS = """name = "three crowds"
[boat]
capacity = 2
[[actors]]
name = "a"
count = 150
[[actors]]
name = "b"
count = 150
[[actors]]
name = "c"
count = 150
"""


def test_ctrl_c_stops_a_long_search_cleanly(tmp_path):
    path = tmp_path / "crowds.toml"
    path.write_text(CROWDS)
    process = subprocess.Popen(
        command("crossing", "solve", str(path)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=ENV,
    )
    time.sleep(3)  # well into the breadth-first search (millions of counted states)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "interrupted" in err and "Traceback" not in err


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_a_time_limit_must_be_a_positive_number_of_seconds(capsys, value):
    assert main(["crossing", "solve", "jealous-husbands", "--time-limit", value]) == 2
    assert "--time-limit" in capsys.readouterr().err


# -- the text output ------------------------------------------------------------------------
def test_a_long_list_of_interchangeable_couples_is_cut_short_in_the_text(capsys):
    assert (
        main(
            [
                "crossing",
                "solve",
                "jealous-husbands",
                "--set",
                "couples=6",
                "--set",
                "capacity=4",
                "--no-cross-check",
            ]
        )
        == 0
    )
    line = [text for text in capsys.readouterr().out.splitlines() if text.startswith("counted as")][0]
    assert line == (
        "counted as interchangeable: (husband1+wife1) ~ (husband2+wife2) ~ ... ~ (husband6+wife6), 6 blocks"
    )
    assert main(["crossing", "solve", "jealous-husbands", "--set", "couples=4", "--no-cross-check"]) == 0
    assert "(husband3+wife3) ~ (husband4+wife4)\n" in capsys.readouterr().out  # four: all shown


def test_solve_json_has_the_engine_counters(capsys):
    assert main(["crossing", "solve", "jealous-husbands", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record["stats"]) == {"decisions", "conflicts", "propagations", "restarts"}
    assert record["stats"]["propagations"] > 0
