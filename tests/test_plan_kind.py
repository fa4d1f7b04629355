"""A new plan kind needs its kind object and one registry line, nothing in mindgames/.

The specification of "the command line and the service are made from the plan kind":
a tiny kind written here (hop from ``start`` to ``target`` by adding one or doubling,
in the fewest hops) and registered for the test gets ``mindgames hop
list|solve|explain|export`` and ``mindgames compare hop`` (its options as flags, a
switch on by default as ``--no-NAME``), and on the service ``GET /v1/kinds``,
``GET /v1/hop/presets``, ``POST /v1/hop/solve|explain|export``, with no line of
mindgames/ naming it.  And crossing's command line is what its kind object declares."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import pytest

from mindgames.cli import build_parser, main
from mindgames.models import registry
from mindgames.models.actions import ACTIONS
from mindgames.models.compare import Row
from mindgames.models.crossing import CROSSING
from mindgames.models.errors import PuzzleError
from mindgames.models.kind import Option, PlanKind

# -- the kind ----------------------------------------------------------------------------------------

BOUNDS = {"target": (1, 1000), "start": (0, 1000)}


@dataclass(frozen=True)
class Hops:
    name: str
    start: int
    target: int


@dataclass
class HopAnswer:
    name: str
    status: str
    plan: list[str] | None
    settings: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class HopWhy:
    name: str
    explanation: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def whole(document: dict[str, Any], key: str) -> int:
    value = document.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleError(f"{key}: expected a whole number, not {value!r}")
    return value


def shortest(start: int, target: int) -> list[str] | None:
    """The fewest hops from start to target: backwards, halving when even, else one less."""
    hops: list[str] = []
    while target > start:
        if target % 2 == 0 and target // 2 >= start:
            hops.append("x2")
            target //= 2
        else:
            hops.append("+1")
            target -= 1
    return hops[::-1] if target == start else None


class HopKind(PlanKind[Hops]):
    name = "hop"
    summary = "from start to target by +1 or x2, in the fewest hops"
    request_formats = ('a built-in name with "params"', "a document {start, target}")
    params_help = "start and target"
    compare_methods = ("forward", "backward")
    compare_help = "compare the two directions"
    options = (
        Option("doubling", "allow x2 hops", default=True, flag=True),
        Option("note", "a word written into the answer"),
    )

    def load_document(self, text: str, source: str = "puzzle") -> dict[str, Any]:
        try:
            return json.loads(text)
        except ValueError:
            raise PuzzleError(f"{source}: not JSON") from None

    def parse_document(self, document: dict[str, Any]) -> Hops:
        return Hops(str(document.get("name", "hops")), whole(document, "start"), whole(document, "target"))

    def write(self, document: dict[str, Any]) -> str:
        return "".join(f"{key} = {json.dumps(value)}\n" for key, value in document.items())

    def preset_names(self) -> tuple[str, ...]:
        return ("double",)

    def preset_parameters(self, name: str) -> dict[str, Any]:
        return {"target": 10, "start": 0}

    def preset_bounds(self, name: str) -> dict[str, tuple[int, int]]:
        return BOUNDS

    def check_parameter(self, name: str, key: str, value: Any) -> None:
        low, high = BOUNDS[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise PuzzleError(f"{name}: {key} = {value!r} (allowed: {low}..{high})")

    def preset_document(self, name: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        values = {**self.preset_parameters(name), **(params or {})}
        for key, value in values.items():
            self.check_parameter(name, key, value)
        return {"name": f"hop to {values['target']}", **values}

    def preset_summary(self, name: str) -> str:
        return "hop from start to target"

    def preset_description(self, name: str) -> str:
        return "hop from 0 to 10"

    def solve(
        self,
        puzzle: Hops,
        settings: dict[str, Any] | None = None,
        time_limit: float | None = None,
        certify: bool = False,
        proof_dir: str | None = None,
        report: Callable[[str], None] | None = None,
        warm: Any = None,
    ) -> HopAnswer:
        settings = settings or {}
        if settings.get("doubling") is False:
            plan = ["+1"] * (puzzle.target - puzzle.start) if puzzle.target >= puzzle.start else None
        else:
            plan = shortest(puzzle.start, puzzle.target)
        return HopAnswer(puzzle.name, "unsolvable" if plan is None else "solved", plan, dict(settings))

    def explain(self, puzzle: Hops, time_limit: float | None = None) -> HopWhy:
        if puzzle.target < puzzle.start:
            return HopWhy(puzzle.name, "unsolvable", "no hop goes down")
        return HopWhy(puzzle.name, "shortest", "halve when you can")

    def compare_rows(
        self,
        puzzle: Hops,
        methods: Sequence[str],
        time_limit: float | None = None,
        on_step: Callable[[int, str], None] | None = None,
    ) -> Iterable[Row]:
        plan = shortest(puzzle.start, puzzle.target)
        answer = "unsolvable" if plan is None else f"{len(plan)} hops"
        for method in methods:
            yield Row(0, method, "solved" if plan is not None else "unsolvable", answer, 0.0, {}, {})

    def describe(self, puzzle: Hops) -> str:
        return puzzle.name

    def answer_lines(self, answer: HopAnswer) -> list[str]:
        return [f"{answer.name}: {answer.status}", " ".join(answer.plan or [])]

    def page_fields(self, puzzle: Hops, answer: HopAnswer) -> dict[str, Any]:
        return {"start": puzzle.start}


HOP = HopKind()


@pytest.fixture
def hop_kind(monkeypatch):
    """HOP in the registry: its one line, as a new kind's module would add it."""
    monkeypatch.setitem(registry.KIND_PATHS, "hop", f"{__name__}:HOP")
    monkeypatch.setattr(registry, "KIND_NAMES", (*registry.KIND_NAMES, "hop"))
    return HOP


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- what a plan kind declares -------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [CROSSING, HOP], ids=lambda kind: kind.name)
def test_a_plan_kinds_actions_are_declared_actions(kind):
    assert set(kind.actions) <= set(ACTIONS)


def solve_options(kind: PlanKind) -> dict[str, list[str]]:
    """The flags of ``mindgames KIND solve`` that are the kind's options, by option name."""
    parser = build_parser([kind.name, "solve"])
    (kinds,) = [a for a in parser._actions if a.dest == "kind"]
    (actions,) = [a for a in kinds.choices[kind.name]._actions if a.dest == "action"]
    solve = actions.choices["solve"]
    shared = {"help", "puzzle", "set", "json", "time_limit", "svg", "certify", "proof_dir", "memory_limit"}
    return {a.dest: a.option_strings for a in solve._actions if a.dest not in shared}


def test_the_crossing_command_line_has_exactly_the_kinds_options():
    flags = solve_options(CROSSING)
    assert list(flags) == [option.name for option in CROSSING.options]
    assert flags == {
        "engine": ["--engine"],
        "count_shortest": ["--count-shortest"],
        "simple_paths": ["--simple-paths"],
        "cross_check": ["--no-cross-check"],  # a switch on by default is turned off
        "symmetry": ["--no-symmetry"],
    }


def test_crossing_is_described_from_its_kind_object():
    described = CROSSING.describe_kind()
    assert described["engines"] == ["sat", "cpsat"] and described["presets"] == list(CROSSING.preset_names())
    assert described["actions"] == ["solve"] and described["explain_actions"] == ["explain"]
    assert set(described["options"]) == {"params", "time_limit"} | {
        option.name for option in CROSSING.options if option.name != "engine"
    }


def test_a_preset_value_is_read_in_every_form_the_service_takes():
    by_name = CROSSING.parse_value("missionaries-cannibals", {"pairs": 2})
    assert by_name == CROSSING.parse_value({"preset": "missionaries-cannibals", "params": {"pairs": 2}})
    assert CROSSING.parse_value(CROSSING.preset_document("missionaries-cannibals", {"pairs": 2})) == by_name
    with pytest.raises(PuzzleError, match="no built-in puzzle of that name"):
        CROSSING.parse_value("nope")
    with pytest.raises(PuzzleError, match="apply to built-in puzzles only"):
        CROSSING.parse_value({"name": "x"}, {"pairs": 2})


# -- the command line --------------------------------------------------------------------------------


def test_a_new_plan_kind_lists_its_presets(hop_kind, capsys):
    code, out, _ = run(capsys, "hop", "list", "--json")
    assert code == 0
    assert json.loads(out) == {
        "puzzles": {"double": {"target": 10, "start": 0}},
        "bounds": {"double": {"target": [1, 1000], "start": [0, 1000]}},
        "descriptions": {"double": "hop from 0 to 10"},
    }


def test_a_new_plan_kind_is_solved_with_its_options(hop_kind, tmp_path, capsys):
    code, out, _ = run(capsys, "hop", "solve", "double", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["plan"] == ["+1", "x2", "x2", "+1", "x2"]
    assert answer["settings"] == {"doubling": True, "note": None}
    code, out, _ = run(capsys, "hop", "solve", "double", "--set", "target=3", "--no-doubling", "--note", "hi")
    assert code == 0 and out.splitlines() == ["hop to 3: solved", "+1 +1 +1"]  # its own words
    path = tmp_path / "down.json"
    path.write_text('{"name": "down", "start": 5, "target": 2}')
    code, out, _ = run(capsys, "hop", "explain", str(path))
    assert code == 0 and out.splitlines() == ["down: unsolvable", "  no hop goes down"]


def test_a_new_plan_kinds_bad_input_is_one_line_exit_2(hop_kind, capsys):
    code, _, err = run(capsys, "hop", "solve", "double", "--set", "target=5000")
    assert code == 2 and "target = 5000 (allowed: 1..1000)" in err and len(err.splitlines()) == 1
    code, _, err = run(capsys, "hop", "solve", "nowhere")
    assert code == 2 and "no such file and no built-in puzzle (built-in: double)" in err


def test_a_new_plan_kind_exports_and_compares(hop_kind, capsys):
    code, out, _ = run(capsys, "hop", "export", "double", "--set", "target=7")
    assert code == 0 and out == 'name = "hop to 7"\ntarget = 7\nstart = 0\n'
    code, out, _ = run(capsys, "compare", "hop", "double", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [row["engine"] for row in rows[:-1]] == ["forward", "backward"]
    assert rows[-1]["agree"] is True


# -- the service -------------------------------------------------------------------------------------


@pytest.fixture
def service(hop_kind, monkeypatch, tmp_path):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from mindgames.service import app as app_module
    from mindgames.service.settings import Settings
    from mindgames.service.testing import InProcessPool

    monkeypatch.setattr(app_module, "SolverPool", InProcessPool)
    settings = Settings(db=str(tmp_path / "jobs.sqlite3"), allowed_hosts=("testserver",))
    with TestClient(app_module.create_app(settings)) as client:
        yield client


def test_a_new_plan_kind_is_listed_and_its_presets_served(service):
    listed = {k["kind"]: k for k in service.get("/v1/kinds").json()["kinds"]}
    assert listed["hop"] == HOP.describe_kind()
    presets = service.get("/v1/hop/presets").json()["presets"]
    assert presets["double"]["parameters"] == {"target": 10, "start": 0}
    assert presets["double"]["bounds"] == {"target": [1, 1000], "start": [0, 1000]}


def test_a_new_plan_kind_is_answered_by_the_service(service):
    solved = service.post("/v1/hop/solve?explain=true", json={"puzzle": "double", "params": {"target": 6}})
    assert solved.status_code == 200
    assert solved.json()["plan"] == ["+1", "x2", "+1", "x2"] and solved.json()["start"] == 0
    why = service.post("/v1/hop/explain", json={"puzzle": {"start": 4, "target": 1}}).json()
    assert why["explanation"] == "unsolvable" and why["index"] == 0
    too_far = service.post("/v1/hop/solve", json={"puzzle": "double", "params": {"target": 5000}})
    assert too_far.status_code == 422 and "allowed: 1..1000" in too_far.json()["error"]
    counted = service.post("/v1/hop/count", json={"puzzle": "double"})
    assert counted.status_code == 422 and counted.json()["error"] == "hop puzzles are solved or explained"
    exported = service.post("/v1/hop/export", json={"puzzle": "double", "params": {"target": 3}})
    assert exported.json() == {"name": "hop to 3", "target": 3, "start": 0}
