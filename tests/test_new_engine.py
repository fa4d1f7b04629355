"""A new engine needs its class and one registry entry, nothing in mindgames/.

The specification of "every interface takes its engines from the registry"
(:mod:`mindgames.solver.registry`): an engine written here (``relay``: it passes every
question to the backtracking search and counts the questions) and registered for the
test is a choice of ``--engine`` (its answers verified like any engine's), one of the
engines ``compare`` runs, accepted by the service's request schema and listed by
``GET /v1/kinds``; where a capability is needed that it does not offer (crossing
puzzles need plan search, explanations would like unsat cores) it is left out, or
asked the question another way, and a hook it lacks says so by name."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

import pytest

from mindgames.cli import main
from mindgames.solver import (
    Capability,
    Engine,
    EngineInfo,
    Model,
    NotSupported,
    Session,
    Solutions,
    SolveResult,
    engine_names,
    engines_with,
    get_engine,
    register_engine,
    unregister_engine,
)
from mindgames.solver.deadline import Deadline

SEED_PUZZLE = ".6.798.127941.5.682.14..957...21.5...563..241.1254.73963.874...1.56.28..4289.1.7."
SEED_SOLUTION = "563798412794125368281463957347219586956387241812546739639874125175632894428951673"

# -- the engine ----------------------------------------------------------------------------------------


class RelaySession(Session):
    """Every question goes to a backtracking session of the same model."""

    STATS = ("questions",)
    engine_name = "relay"

    def __init__(self, model: Model):
        super().__init__(model)
        self.backtrack = get_engine("backtrack").prepare(model)

    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> SolveResult:
        answer = self.backtrack.solve(assumptions, time_limit)
        return SolveResult(answer.status, answer.assignment, answer.seconds, {"questions": 1})

    def _search(self, assumptions: list[int], deadline: Deadline, solutions: Solutions) -> bool:
        self.search_stats = {"questions": 1}  # enumerate, count and check_unique come here
        return self.backtrack._search(assumptions, deadline, solutions)


class RelayEngine(Engine):
    name = "relay"
    description = "backtracking, relayed"

    def prepare(self, model: Model) -> RelaySession:
        return RelaySession(model)


RELAY = EngineInfo(
    "relay", f"{__name__}:RelayEngine", "backtracking, relayed", frozenset({Capability.SEARCH_STATS})
)


@pytest.fixture
def relay() -> Iterator[EngineInfo]:
    """RELAY in the registry for one test, as a plug-in would add it; gone afterwards."""
    register_engine(RELAY)
    try:
        yield RELAY
    finally:
        unregister_engine(RELAY.name)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- the registry ----------------------------------------------------------------------------------------


def test_a_registered_engine_is_known_by_name_and_capability(relay):
    assert engine_names() == ("sat", "cpsat", "backtrack", "relay")  # after the built-in ones
    assert "relay" in engines_with(Capability.SEARCH_STATS)
    assert "relay" not in engines_with(Capability.PLAN_SEARCH)
    engine = get_engine("relay")
    assert isinstance(engine, RelayEngine) and engine.capabilities == RELAY.capabilities
    model = Model()
    a, b = model.new_var(primary=True), model.new_var(primary=True)
    model.add_exactly([a, b], 1)
    assert engine.prepare(model).count().count == 2


def test_unregistering_forgets_it(relay):
    unregister_engine("relay")
    assert "relay" not in engine_names()
    with pytest.raises(ValueError, match="unknown engine 'relay'; choose one of sat, cpsat, backtrack"):
        get_engine("relay")
    register_engine(RELAY)  # for the fixture to take away again


def test_a_name_is_registered_once_and_the_built_in_engines_stay(relay):
    with pytest.raises(ValueError, match="registered already"):
        register_engine(RELAY)
    with pytest.raises(ValueError, match="built in"):
        unregister_engine("sat")


def test_an_entry_must_name_the_engine_it_points_at():
    register_engine(EngineInfo("impostor", f"{__name__}:RelayEngine", "calls itself relay"))
    try:
        with pytest.raises(TypeError, match="registered as 'impostor' calls itself 'relay'"):
            get_engine("impostor")
    finally:
        unregister_engine("impostor")


# -- a hook it does not offer ------------------------------------------------------------------------------


def test_a_hook_it_does_not_offer_says_so_by_name(relay):
    model = Model()
    a = model.new_var(primary=True)
    model.add_clause([a])
    engine = get_engine("relay")
    assert not engine.supports(Capability.UNSAT_CORES)
    with pytest.raises(NotSupported, match="^engine relay does not offer unsat cores$"):
        engine.prepare(model).unsat_core([-a])
    with pytest.raises(NotSupported, match="^engine relay does not offer plan search"):
        engine.require(Capability.PLAN_SEARCH)


def test_explanations_do_without_unsat_cores(relay, tmp_path, capsys):
    # 4x4: the top right box needs 1 and 2, which its row has already; no unit holds a
    # digit twice, so the clash is found by dropping givens one by one from all of them
    path = tmp_path / "clash.txt"
    path.write_text("12....43........\n")
    code, out, _ = run(capsys, "sudoku", "explain", str(path), "--engine", "relay", "--json")
    assert code == 0
    explained = json.loads(out)
    assert explained["explanation"] == "clash" and explained["clash"] == [[1, 2], [2, 3], [2, 4]]


# -- the command line ---------------------------------------------------------------------------------------


def test_it_is_an_engine_choice_and_its_answers_are_verified(relay, tmp_path, capsys):
    path = tmp_path / "seed.txt"
    path.write_text(SEED_PUZZLE + "\n")
    code, out, _ = run(capsys, "sudoku", "solve", str(path), "--engine", "relay", "--json")
    record = json.loads(out)
    assert code == 0 and record["status"] == "solved" and record["engine"] == "relay"
    assert "".join(str(v) for row in record["solution"] for v in row) == SEED_SOLUTION
    assert record["stats"] == {"questions": 1}
    code, out, _ = run(capsys, "sudoku", "check", str(path), "--engine", "relay", "--json")
    assert code == 0 and json.loads(out)["uniqueness"] == "unique"


def test_an_engine_not_registered_is_no_choice(tmp_path, capsys):
    path = tmp_path / "seed.txt"
    path.write_text(SEED_PUZZLE + "\n")
    with pytest.raises(SystemExit) as exit:
        main(["sudoku", "solve", str(path), "--engine", "relay"])
    assert exit.value.code == 2 and "invalid choice: 'relay'" in capsys.readouterr().err


def test_crossings_are_left_to_engines_that_search_plans(relay, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["crossing", "solve", "wolf-goat-cabbage", "--engine", "relay"])
    assert exit.value.code == 2 and "invalid choice: 'relay'" in capsys.readouterr().err


def test_compare_runs_it_beside_the_others(relay, tmp_path, capsys):
    path = tmp_path / "seed.txt"
    path.write_text(SEED_PUZZLE + "\n")
    code, out, _ = run(capsys, "compare", "sudoku", str(path), "--json")
    *rows, summary = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and summary["agree"]
    assert [row["engine"] for row in rows] == ["sat", "cpsat", "backtrack", "relay"]
    assert [e["engine"] for e in summary["engines"]] == ["sat", "cpsat", "backtrack", "relay"]


# -- the service -------------------------------------------------------------------------------------------


@pytest.fixture
def service(relay, monkeypatch, tmp_path):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from mindgames.service import app as app_module
    from mindgames.service.settings import Settings
    from mindgames.service.testing import InProcessPool

    monkeypatch.setattr(app_module, "SolverPool", InProcessPool)
    settings = Settings(db=str(tmp_path / "jobs.sqlite3"), allowed_hosts=("testserver",))
    with TestClient(app_module.create_app(settings)) as client:
        yield client


def test_the_service_accepts_it_and_still_refuses_unknown_engines(service):
    solved = service.post("/v1/sudoku/solve", json={"puzzle": SEED_PUZZLE, "engine": "relay"}).json()
    assert solved["status"] == "solved" and solved["engine"] == "relay"
    unknown = service.post("/v1/sudoku/solve", json={"puzzle": SEED_PUZZLE, "engine": "magic"})
    assert unknown.status_code == 422
    assert unknown.json()["error"] == "engine: Input should be 'sat', 'cpsat', 'backtrack' or 'relay'"
    crossing = service.post("/v1/crossing/solve", json={"puzzle": "wolf-goat-cabbage", "engine": "relay"})
    assert crossing.status_code == 422 and "solved with sat or cpsat" in crossing.json()["error"]


def test_the_service_lists_it(service):
    listed = service.get("/v1/kinds").json()
    by_kind = {kind["kind"]: kind["engines"] for kind in listed["kinds"]}
    assert by_kind["sudoku"] == ["sat", "cpsat", "backtrack", "relay"]
    assert by_kind["crossing"] == ["sat", "cpsat"]
    engines = {engine["engine"]: engine for engine in listed["engines"]}
    assert engines["relay"] == {
        "engine": "relay",
        "summary": "backtracking, relayed",
        "capabilities": ["search_stats"],
    }
    engine = service.get("/openapi.json").json()["components"]["schemas"]["SolveRequest"]["properties"][
        "engine"
    ]
    assert engine["enum"] == ["sat", "cpsat", "backtrack", "relay"]
    assert "relay: backtracking, relayed" in engine["description"]


def test_the_service_compares_it_by_default(service):
    body = service.post("/v1/sudoku/compare", json={"puzzle": SEED_PUZZLE}).json()
    assert [row["engine"] for row in body["rows"]] == ["sat", "cpsat", "backtrack", "relay"]
    assert body["summary"]["agree"]
