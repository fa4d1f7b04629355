"""Crossing puzzles: the seeds' known answers, proofs, cross-checks and the puzzle format."""

from __future__ import annotations

import importlib
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindgames.cli import main
from mindgames.models.crossing import (
    CROSSING,
    CrossingProblem,
    NotOutnumbered,
    NotTogether,
    Options,
    parse_document,
    parse_text,
    presets,
    solve,
)
from mindgames.models.crossing.checker import replay
from mindgames.models.crossing.problem import Move
from mindgames.models.crossing.symmetry import Incidence, _initial_colours, block_types
from mindgames.models.crossing.toml_writer import to_toml
from mindgames.models.errors import PuzzleError, VerificationError
from mindgames.models.kind import PlanKind
from mindgames.models.registry import get_kind

DATA = Path(__file__).resolve().parent.parent / "data" / "crossing"


def spec_of(name: str, **settings):
    return parse_document(presets.build(name, settings))


def run(name: str, engine: str = "sat", **settings):
    return solve(spec_of(name, **settings), Options(engine=engine, count_shortest=True))


# -- the seeds' answers ---------------------------------------------------------
KNOWN = [
    ("wolf-goat-cabbage", {}, 7),
    ("missionaries-cannibals", {}, 11),
    ("jealous-husbands", {}, 11),  # Bachet, 1613
    ("dangerous-family", {}, 17),
    ("queens-tower", {}, 10),
    ("missionaries-cannibals", {"pairs": 4, "capacity": 3}, 9),
    ("jealous-husbands", {"couples": 4, "capacity": 3}, 9),
]


@pytest.mark.parametrize("engine", ["sat", "cpsat"])
@pytest.mark.parametrize("name,settings,crossings", KNOWN)
def test_shortest_plan_is_the_known_minimum_and_replays(engine, name, settings, crossings):
    outcome = run(name, engine, **settings)
    assert outcome.status == "solved"
    assert outcome.crossings == crossings
    assert len(replay(outcome.spec, outcome.plan)) == crossings + 1
    assert outcome.cross_check["graph_crossings"] == crossings
    assert outcome.cross_check["agrees"] is True
    assert outcome.shortest_plans["count"] == outcome.cross_check["graph_shortest_plans"]


UNSOLVABLE = [
    ("jealous-husbands", {"return_capacity": 1}),  # the seeds' exercise
    ("missionaries-cannibals", {"pairs": 4}),
    ("jealous-husbands", {"couples": 4}),
]


@pytest.mark.parametrize("engine", ["sat", "cpsat"])
@pytest.mark.parametrize("name,settings", UNSOLVABLE)
def test_unsolvable_puzzles_are_proved_unsolvable(engine, name, settings):
    outcome = run(name, engine, **settings)
    assert outcome.status == "unsolvable"
    assert "never meets the goal" in outcome.proof and "counted states" in outcome.proof
    assert "no plan of at most" in outcome.confirmation and f"{engine}-model" in outcome.methods
    assert outcome.plan is None
    assert outcome.cross_check["graph_crossings"] is None
    assert outcome.cross_check["agrees"] is True


def test_jealous_husbands_has_486_shortest_plans_among_19602_simple_ones():
    outcome = solve(spec_of("jealous-husbands"), Options(count_shortest=True, simple_paths=True))
    assert outcome.shortest_plans == {"count": 486, "counted_plans": 4, "complete": True}
    paths = outcome.simple_paths
    assert paths["complete"] and paths["count"] == sum(paths["histogram"].values())
    assert min(paths["histogram"]) == 11 and paths["histogram"][11] == 486


def test_queens_tower_cannonball_falls_first_and_the_seed_dfs_finds_the_same_length():
    outcome = solve(spec_of("queens-tower"), Options(simple_paths=True))
    assert outcome.plan[0] == Move(to_far=("cannonball",))
    assert min(outcome.simple_paths["histogram"]) == outcome.crossings == 10


def test_queens_tower_weights_are_parameters():
    # with a 10 lb tolerance the son (90) can never ride against the cannonball (75)
    outcome = run("queens-tower", max_difference=10)
    assert outcome.status == "unsolvable" and outcome.cross_check["agrees"] is True


def test_large_families_are_solved_without_the_explicit_graph():
    outcome = solve(spec_of("jealous-husbands", couples=12, capacity=4), Options(engine="cpsat"))
    assert outcome.status == "solved" and outcome.crossings == 21
    assert "explicit state graph not built" in outcome.cross_check["note"]
    assert outcome.cross_check["agrees"] is True  # the counted graph still cross-checks
    assert outcome.cross_check["counted_graph_crossings"] == 21
    assert len(replay(outcome.spec, outcome.plan)) == 22


def test_without_symmetry_the_answer_is_the_same():
    spec = spec_of("jealous-husbands")
    counted = solve(spec, Options(count_shortest=True))
    tracked = solve(spec, Options(count_shortest=True, use_symmetry=False))
    assert tracked.crossings == counted.crossings == 11
    assert tracked.shortest_plans["count"] == counted.shortest_plans["count"] == 486
    assert tracked.shortest_plans["counted_plans"] == 486  # nothing counted together


# -- the layer-by-layer confirmation on a one-step model ----------------------------------
def test_a_hundred_couples_are_confirmed_layer_by_layer():
    outcome = solve(spec_of("jealous-husbands", couples=100, capacity=6), Options(cross_check=False))
    assert outcome.status == "solved" and outcome.crossings == 99
    assert outcome.confirmation.startswith("confirmed on sat layer by layer on a one-step model")
    assert "no plan has at most 98 crossings" in outcome.confirmation
    assert outcome.methods == ["counted-bfs", "checker", "sat-model"]
    assert set(outcome.stats) == {"decisions", "conflicts", "propagations", "restarts"}


@pytest.mark.parametrize("engine", ["sat", "cpsat"])
def test_an_unsolvable_large_family_is_confirmed_on_the_one_step_model(engine):
    outcome = solve(spec_of("jealous-husbands", couples=30, capacity=3), Options(engine=engine))
    assert outcome.status == "unsolvable"
    assert outcome.confirmation.startswith(f"confirmed on {engine} on a one-step model")
    assert "no move of the model leaves the" in outcome.confirmation
    assert f"{engine}-model" in outcome.methods and outcome.cross_check["agrees"] is True


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    family=st.sampled_from(["jealous-husbands", "missionaries-cannibals"]),
    n=st.integers(1, 5),
    capacity=st.integers(1, 4),
    engine=st.sampled_from(["sat", "cpsat"]),
)
def test_the_layered_confirmation_agrees_with_the_horizon_model(family, n, capacity, engine):
    """Small puzzles are confirmed on the model of L steps; asked layer by layer on
    the one-step model instead, the same answer is confirmed."""
    solving = importlib.import_module("mindgames.models.crossing.solve")
    spec = spec_of(
        family, **{"couples" if family == "jealous-husbands" else "pairs": n, "capacity": capacity}
    )
    plain = solve(spec, Options(engine=engine, cross_check=False))
    original = solving.LAYERED_FROM
    solving.LAYERED_FROM = -1
    try:
        layered = solve(spec, Options(engine=engine, cross_check=False))
    finally:
        solving.LAYERED_FROM = original
    assert (layered.status, layered.crossings) == (plain.status, plain.crossings)
    assert layered.methods == plain.methods
    if plain.crossings != 0:
        assert "one-step model" in layered.confirmation


def test_the_layered_confirmation_catches_a_search_that_misses_moves(monkeypatch):
    """A breadth-first search that never takes three across answers 11 crossings where
    9 suffice; the one-step model has the moves it missed."""
    from mindgames.models.crossing.layout import Layout

    solving = importlib.import_module("mindgames.models.crossing.solve")
    honest = Layout.counted_successors

    def without_three_aboard(self, key):
        for move, nxt in honest(self, key):
            if sum(n * bin(s).count("1") for table in move.values() for (_, s), n in table.items()) < 3:
                yield move, nxt

    monkeypatch.setattr(Layout, "counted_successors", without_three_aboard)
    monkeypatch.setattr(solving, "LAYERED_FROM", -1)
    with pytest.raises(VerificationError, match="one-step model disagrees"):
        solve(spec_of("jealous-husbands", couples=4, capacity=3), Options(cross_check=False))


def test_time_limit_gives_unknown_not_a_hang():
    outcome = solve(
        spec_of("jealous-husbands", couples=8, capacity=3), Options(time_limit=0.001, cross_check=False)
    )
    assert outcome.status == "unknown"


# -- symmetry found from the rules -------------------------------------------------
def test_couples_are_found_as_interchangeable_blocks():
    types = block_types(spec_of("jealous-husbands", couples=5))
    assert len(types) == 1 and types[0].size == 5
    assert set(types[0].blocks) == {(f"husband{i}", f"wife{i}") for i in range(1, 6)}


def test_identical_copies_and_symmetric_children_are_counted():
    assert [t.label() for t in block_types(spec_of("missionaries-cannibals"))] == [
        "3 x missionary",
        "3 x cannibal",
    ]
    labels = [t.label() for t in block_types(spec_of("dangerous-family"))]
    assert "(son1) ~ (son2)" in labels and "(daughter1) ~ (daughter2)" in labels


def test_a_rule_that_breaks_the_symmetry_is_respected():
    document = presets.build("jealous-husbands", {})
    document["rules"].append({"kind": "not_together", "who": ["wife1"], "with_any": ["wife2"]})
    spec = parse_document(document)
    types = block_types(spec)
    assert all(t.size == 1 for t in types if ("husband1", "wife1") in t.blocks)
    outcome = solve(spec, Options(count_shortest=True))
    assert outcome.cross_check["agrees"] is True


# -- generalised families and random puzzles against the state graph -------------------
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    family=st.sampled_from(["jealous-husbands", "missionaries-cannibals"]),
    n=st.integers(1, 4),
    capacity=st.integers(1, 4),
    engine=st.sampled_from(["sat", "cpsat"]),
)
def test_families_agree_with_the_state_graph(family, n, capacity, engine):
    key = "couples" if family == "jealous-husbands" else "pairs"
    outcome = solve(
        spec_of(family, **{key: n, "capacity": capacity}), Options(engine=engine, count_shortest=True)
    )
    assert outcome.cross_check["agrees"] is True
    if outcome.status == "solved":
        replay(outcome.spec, outcome.plan)


@st.composite
def random_puzzles(draw):
    names = ["a", "b", "c", "d"][: draw(st.integers(2, 4))]
    actors = []
    for name in names:
        actor = {"name": name, "groups": draw(st.sampled_from([[], ["g"], ["h"]]))}
        if draw(st.booleans()):
            actor["rows"] = True
        if draw(st.integers(0, 4)) == 0:
            actor["count"] = 2
        actors.append(actor)
    refs = names + [f"@{g}" for g in {g for a in actors for g in a["groups"]}]
    rules = []
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.integers(0, 3)) == 0:
            rules.append(
                {
                    "kind": "not_outnumbered",
                    "protect": draw(st.sampled_from(refs)),
                    "by": draw(st.sampled_from(refs)),
                }
            )
        else:
            rules.append(
                {
                    "kind": "not_together",
                    "who": draw(st.lists(st.sampled_from(refs), min_size=1, max_size=2)),
                    "with_any": draw(st.lists(st.sampled_from(refs), min_size=1, max_size=3)),
                    "unless_any": draw(st.lists(st.sampled_from(refs), max_size=2)),
                    "where": draw(st.sampled_from([["banks"], ["boat"], ["banks", "boat"]])),
                }
            )
    capacity = draw(st.integers(2, 3))
    return {"name": "random", "boat": {"capacity": capacity}, "actors": actors, "rules": rules}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=random_puzzles(), engine=st.sampled_from(["sat", "cpsat"]))
def test_random_puzzles_agree_with_the_state_graph(document, engine):
    """Random rules exercise the symmetry finder and the lifting of rules to counts."""
    options = Options(engine=engine, count_shortest=True, count_limit=300)
    outcome = solve(parse_document(document), options)
    assert outcome.status in ("solved", "unsolvable")
    assert outcome.cross_check["agrees"] is True
    if outcome.status == "solved":
        replay(outcome.spec, outcome.plan)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=random_puzzles(), engine=st.sampled_from(["sat", "cpsat"]))
def test_random_puzzles_are_confirmed_layer_by_layer(document, engine):
    """Random rules (groups, copies, rowers, rules aboard only): the one-step model
    agrees with the search on every question (a disagreement raises)."""
    solving = importlib.import_module("mindgames.models.crossing.solve")
    original = solving.LAYERED_FROM
    solving.LAYERED_FROM = -1
    try:
        outcome = solve(parse_document(document), Options(engine=engine, cross_check=False))
    finally:
        solving.LAYERED_FROM = original
    assert outcome.status in ("solved", "unsolvable")
    if outcome.crossings != 0 and "the start already breaks" not in outcome.proof:
        assert f"{engine}-model" in outcome.methods and "one-step model" in outcome.confirmation


def plain_colour_refinement(spec, colours: dict) -> list[set]:
    """The reference: every node recoloured by its colour and the multiset of its
    neighbours' (direction, role, colour), round after round until no class splits."""
    graph = Incidence(spec)
    colours = {node: colours[node] for node in graph.nodes}
    while True:
        signature = {}
        for i, node in enumerate(graph.nodes):
            seen = sorted((label, repr(colours[graph.nodes[v]])) for v, label in graph.adjacent[i])
            signature[node] = (repr(colours[node]), tuple(seen))
        if len(set(signature.values())) == len(set(colours.values())):
            return partition(colours)
        colours = signature


def partition(colours: dict) -> list[set]:
    classes: dict = {}
    for node, colour in colours.items():
        classes.setdefault(colour, set()).add(node)
    return sorted(classes.values(), key=lambda c: sorted(map(repr, c)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=random_puzzles(), couples=st.integers(1, 5))
def test_refinement_splits_as_plain_colour_refinement(document, couples):
    """The splitter-based refinement finds the same colour classes as recolouring
    every node round after round, with and without one actor individualised."""
    for spec in (parse_document(document), spec_of("jealous-husbands", couples=couples)):
        graph = Incidence(spec)
        start = _initial_colours(spec)
        refined = graph.refine(start)
        assert partition(refined) == plain_colour_refinement(spec, start)
        for actor in spec.actors:
            marked = dict(refined) | {("actor", actor.name): -1}
            assert partition(graph.individualised(refined, actor.name)) == plain_colour_refinement(
                spec, marked
            )


@settings(max_examples=60, deadline=None)
@given(document=random_puzzles(), data=st.data())
def test_the_indexed_rule_check_names_the_first_broken_rule_as_the_plain_reading(document, data):
    """CrossingProblem reads only the rules someone present can trigger: the same
    first broken rule as reading every rule, at every kind of place."""
    from mindgames.models.crossing.rules import broken_rule

    spec = parse_document(document)
    problem = CrossingProblem(spec)
    for _ in range(10):
        content = {a.name: data.draw(st.integers(0, a.count)) for a in spec.actors}
        for place in ("banks", "boat"):
            assert problem.broken_rule(content, place) == broken_rule(spec.rules, content, place)


def test_loads_are_every_bounded_draw_once_in_increasing_order():
    from itertools import product

    from mindgames.models.crossing.problem import _loads

    for available, low, high in [([2, 0, 1, 3], 1, 3), ([1] * 6, 0, None), ([0, 0], 1, 2), ([3, 2], 2, 2)]:
        expected = [
            load
            for load in product(*(range(n + 1) for n in available))
            if low <= sum(load) <= (sum(available) if high is None else high)
        ]
        assert list(_loads(available, low, high)) == expected


# -- the independent checker --------------------------------------------------------
def test_checker_rejects_a_plan_that_leaves_the_goat_with_the_wolf():
    spec = spec_of("wolf-goat-cabbage")
    with pytest.raises(VerificationError, match="rules\\[0\\]"):
        replay(spec, [Move(to_far=("cabbage", "farmer"))])


def test_checker_rejects_an_overloaded_boat_and_an_unfinished_plan():
    spec = spec_of("missionaries-cannibals")
    with pytest.raises(VerificationError, match="aboard"):
        replay(spec, [Move(to_far=("cannibal", "cannibal", "cannibal"))])
    with pytest.raises(VerificationError, match="not crossed"):
        replay(spec, [Move(to_far=("cannibal", "cannibal"))])


# -- the puzzle format --------------------------------------------------------------
BAD = [
    ({"colour": "red"}, "unknown key colour"),
    ({"boat": {"capacity": 0}}, "boat.capacity = 0"),
    ({"boat": {"capacity": 2, "min_load": 3}}, "boat.min_load = 3 is above boat.capacity = 2"),
    ({"boat": {"capacity": 2, "speed": 1}}, "unknown key boat.speed"),
    (
        {"rules": [{"kind": "not_together", "who": ["wolff"], "with_any": ["goat"]}]},
        "rules[0].who: unknown actor 'wolff'",
    ),
    (
        {"rules": [{"kind": "not_outnumbered", "protect": "@m", "by": "goat"}]},
        "rules[0].protect: unknown group '@m'",
    ),
    ({"rules": [{"kind": "eats", "who": ["goat"]}]}, "rules[0].kind = 'eats'"),
    ({"actors": [{"name": "rock", "cargo": True}], "rules": []}, "nobody can row"),
    ({"actors": [{"name": "x", "count": 0}]}, "actors[0].count = 0"),
]


@pytest.mark.parametrize("change,message", BAD)
def test_bad_puzzles_are_errors_naming_key_and_value(change, message):
    document = presets.build("wolf-goat-cabbage", {})
    for key, value in change.items():
        document[key] = value
    with pytest.raises(PuzzleError) as error:
        parse_document(document)
    assert message in str(error.value)


def test_exported_puzzles_read_back_and_match_the_shipped_files():
    for name in presets.PRESETS:
        text = to_toml(presets.build(name, {}))
        assert parse_text(text) == spec_of(name)
        assert (DATA / f"{name}.toml").read_text(encoding="utf-8") == text


def test_json_puzzles_are_accepted():
    text = json.dumps(presets.build("wolf-goat-cabbage", {}))
    assert parse_text(text) == spec_of("wolf-goat-cabbage")


# -- the command line ---------------------------------------------------------------
def test_cli_solve_json_contract(capsys, tmp_path):
    picture = tmp_path / "plan.svg"
    code = main(
        [
            "crossing",
            "solve",
            "wolf-goat-cabbage",
            "--json",
            "--count-shortest",
            "--simple-paths",
            "--svg",
            str(picture),
        ]
    )
    record = json.loads(capsys.readouterr().out)
    assert code == 0
    assert record["status"] == "solved" and record["crossings"] == 7
    assert record["moves"][0] == {"step": 1, "direction": "right", "actors": ["farmer", "goat"]}
    assert record["shortest_plans"] == 2 and record["shortest_plans_detail"]["complete"]
    assert set(record["simple_paths"]) >= {"count", "histogram"}
    assert record["cross_check"]["agrees"] is True and record["engine"] == "sat"
    assert ET.parse(picture).getroot().tag.endswith("svg")


def test_cli_pulley_moves_say_down_and_up(capsys):
    assert main(["crossing", "solve", "queens-tower", "--json", "--engine", "cpsat"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["moves"][0] == {"step": 1, "down": ["cannonball"], "up": []}


def test_cli_set_and_export_round_trip(capsys, tmp_path):
    assert main(["crossing", "export", "missionaries-cannibals", "--set", "pairs=4"]) == 0
    path = tmp_path / "mc4.toml"
    path.write_text(capsys.readouterr().out)
    assert main(["crossing", "solve", str(path), "--json", "--set", "boat.capacity=3"]) == 0
    assert json.loads(capsys.readouterr().out)["crossings"] == 9


@pytest.mark.parametrize(
    "argv,message",
    [
        (["crossing", "solve", "no-such-puzzle"], "no such file and no built-in puzzle"),
        (["crossing", "solve", "jealous-husbands", "--set", "wives=3"], "--set wives"),
        (["crossing", "solve", "jealous-husbands", "--set", "couples=x"], "expected a whole number"),
    ],
)
def test_cli_errors_are_one_line_and_exit_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_bad_file_is_one_line_error(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\n[boat]\ncapacity = 0\n[[actors]]\nname = "a"\n')
    assert main(["crossing", "solve", str(path)]) == 2
    assert "boat.capacity = 0" in capsys.readouterr().err
    path.write_text("this is = = not toml")
    assert main(["crossing", "solve", str(path)]) == 2
    assert "not valid TOML" in capsys.readouterr().err


# -- the puzzle as objects ---------------------------------------------------------
def test_the_puzzle_is_a_search_problem_whose_actions_lead_where_successors_say():
    problem = CrossingProblem(spec_of("jealous-husbands"))
    seen, frontier = {problem.initial}, [problem.initial]
    while frontier:
        state = frontier.pop()
        successors = list(problem.successors(state))
        assert [move for move, _ in successors] == problem.actions(state)
        for move, after in successors:
            assert problem.result(state, move) == after
            if after not in seen:
                seen.add(after)
                frontier.append(after)
    assert len(seen) == 40 and sum(map(problem.goal_test, seen)) == 1


def test_rules_are_objects_that_read_describe_and_state_themselves():
    (wolf_goat,) = spec_of("wolf-goat-cabbage").rules
    assert isinstance(wolf_goat, NotTogether)
    assert wolf_goat.broken_by({"goat": 1, "cabbage": 1})
    assert not wolf_goat.broken_by({"goat": 1, "cabbage": 1, "farmer": 1})
    assert wolf_goat.describe() == "goat not with any of wolf, cabbage unless farmer"
    (outnumbered,) = spec_of("missionaries-cannibals").rules
    assert isinstance(outnumbered, NotOutnumbered) and outnumbered.members("@m") == {"missionary"}
    assert outnumbered.broken_by({"missionary": 1, "cannibal": 2})
    assert not outnumbered.broken_by({"cannibal": 3})  # nobody to protect
    assert outnumbered.describe() == "@c may not outnumber @m"


def test_crossing_is_a_plan_kind_of_the_registry():
    kind = get_kind("crossing")
    assert kind is CROSSING and isinstance(kind, PlanKind)
    assert kind.describe_kind()["actions"] == ["solve"]
    outcome = kind.solve(kind.preset("wolf-goat-cabbage"))
    assert len(kind.verify(outcome.spec, outcome.plan)) == 8
