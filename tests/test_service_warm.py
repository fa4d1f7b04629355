"""Crossing models kept warm in a solver process (models.crossing.solve.WarmModels): a puzzle
asked again is still searched, confirmed on its model and replayed, and gets the same answer
as a cold solve; what is kept stays bounded."""

from __future__ import annotations

import importlib

import pytest

from mindgames.models.crossing import Options, parse_document, presets, solve
from mindgames.models.crossing.solve import WarmModels
from mindgames.models.errors import VerificationError
from mindgames.service.kinds import Answerer, execute

solving = importlib.import_module(
    "mindgames.models.crossing.solve"
)  # (the package exports a function of that name)

PRESETS = [
    ("wolf-goat-cabbage", {}),
    ("missionaries-cannibals", {}),
    ("jealous-husbands", {"couples": 4}),
    ("missionaries-cannibals", {"pairs": 4}),
]


def spec_of(name: str, params: dict):
    return parse_document(presets.build(name, params))


def without_run_figures(record: dict) -> dict:
    """The answer without what depends on the run: time taken, and the engine's counters (a
    warm session has learnt clauses from earlier questions, so it searches less)."""
    return {k: v for k, v in record.items() if k not in ("seconds", "stats")}


@pytest.mark.parametrize("name,params", PRESETS, ids=lambda v: str(v))
def test_a_warm_model_gives_the_cold_answer(name, params):
    spec = spec_of(name, params)
    cold = solve(spec, Options()).as_json()
    warm = WarmModels()
    answers = [solve(spec, Options(warm_models=warm)).as_json() for _ in range(3)]
    for answer in answers:
        assert without_run_figures(answer) == without_run_figures(cold)
    assert len(warm) == (
        1
        if cold["confirmation"].startswith("confirmed on sat with two calls")
        or "no plan of at most" in cold["confirmation"]
        else 0
    )


def test_a_warm_model_still_confirms_and_replays_every_time(monkeypatch):
    """The second solve asks the kept model both questions and replays its plan."""
    spec = spec_of("missionaries-cannibals", {})
    warm = WarmModels()
    solve(spec, Options(warm_models=warm))
    replayed = []
    real_replay = solving.replay
    monkeypatch.setattr(solving, "replay", lambda *a: replayed.append(a) or real_replay(*a))
    again = solve(spec, Options(warm_models=warm))
    assert again.confirmation.startswith("confirmed on sat with two calls")
    assert "sat-model" in again.methods and "checker" in again.methods
    assert len(replayed) == 2  # the search's plan and the model's plan


def test_an_unsolvable_puzzle_is_confirmed_on_its_warm_model():
    spec = spec_of("missionaries-cannibals", {"pairs": 4})
    warm = WarmModels()
    first, second = (solve(spec, Options(warm_models=warm)) for _ in range(2))
    assert first.status == second.status == "unsolvable"
    assert second.confirmation == first.confirmation


def test_the_kept_models_are_bounded_least_recently_used_first_out():
    warm = WarmModels(size=2)
    specs = [
        spec_of("missionaries-cannibals", {"pairs": 3}),
        spec_of("wolf-goat-cabbage", {}),
        spec_of("jealous-husbands", {"couples": 3}),
    ]
    for spec in specs:
        solve(spec, Options(warm_models=warm))
    assert len(warm) == 2
    kept_names = {key[0].name for key in warm._kept}
    assert specs[0].name not in kept_names


def test_big_models_are_not_kept():
    warm = WarmModels(most_constraints=10)
    solve(spec_of("missionaries-cannibals", {}), Options(warm_models=warm))
    assert len(warm) == 0


def test_other_engines_keep_nothing():
    warm = WarmModels()
    outcome = solve(spec_of("wolf-goat-cabbage", {}), Options(engine="cpsat", warm_models=warm))
    assert outcome.status == "solved" and len(warm) == 0


def test_a_model_that_disagrees_is_dropped(monkeypatch):
    """A model whose answer contradicts the search raises (a bug), and is not kept."""
    spec = spec_of("wolf-goat-cabbage", {})
    warm = WarmModels()
    solve(spec, Options(warm_models=warm))
    ((plans, session),) = warm._kept.values()
    monkeypatch.setattr(solving.Run, "_found", lambda self, p, a: ([], []))  # a plan of 0 crossings
    with pytest.raises(VerificationError):
        solve(spec, Options(warm_models=warm))
    assert len(warm) == 0


def test_a_worker_answers_a_crossing_again_with_the_same_record():
    answerer = Answerer()
    task = {"kind": "crossing", "action": "solve", "puzzles": ["missionaries-cannibals"], "single": True}
    records = []
    for _ in range(3):
        execute(task, lambda i, r: records.append(r), answerer)
    assert len({repr(without_run_figures(r)) for r in records}) == 1
    assert records[0]["status"] == "solved" and records[0]["crossings"] == 11
