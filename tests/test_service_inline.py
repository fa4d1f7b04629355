"""Small requests answered in the API process (mindgames.service.inline) and the express lane
in front of FastAPI's routing (routes.puzzles.Express): the same answers, errors and limits
as the solver processes and FastAPI give."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from mindgames.service import app as app_module  # noqa: E402
from mindgames.service import inline
from mindgames.service.inline import InlineAnswerer, small  # noqa: E402
from mindgames.service.kinds import Answerer  # noqa: E402
from mindgames.service.pool import answer_task  # noqa: E402
from mindgames.service.replies import Done, Refused  # noqa: E402
from mindgames.service.routes.puzzles import Express  # noqa: E402
from mindgames.service.settings import Settings  # noqa: E402
from mindgames.service.testing import InProcessPool  # noqa: E402
from tests.test_service import CLASH, EMPTY9, HARD, without_timing  # noqa: E402

SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
BINAIRO = "1..0\n....\n....\n...."


@pytest.fixture(autouse=True, scope="module")
def generous_budget():
    """Whether an answer comes within the 50 ms budget depends on the machine's load (the first
    request of a shape compiles it): here the budget is long, so only the rules decide."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(inline, "BUDGET_SECONDS", 60.0)
        yield


def task(kind: str = "sudoku", action: str = "solve", puzzle: Any = HARD, **options: Any) -> dict:
    return {
        "kind": kind,
        "action": action,
        "puzzles": [puzzle],
        "single": True,
        "engine": "sat",
        "time_limit": None,
        "limit": None,
        "certify": False,
        **options,
    }


def in_a_solver_process(asked: dict) -> Any:
    return answer_task(dict(asked, seconds=10.0), Answerer())


def inline_twice(answerer: InlineAnswerer, asked: dict) -> Any:
    """The reply once the shape is compiled here (its second request)."""
    first = answerer.answer(asked)
    return first if first is not None and not isinstance(first, Done) else answerer.answer(asked)


# -- the same answers -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "asked",
    [
        task(),
        task(action="check"),
        task(puzzle=CLASH),
        task(puzzle=CLASH, explain=True),
        task(action="check", puzzle="." * 36, box="3x2", diagonals=True),
        task("binairo", puzzle=BINAIRO),
        task("binairo", "check", [[1, None, None, 0]] + [[None] * 4] * 3),
        task("binairo", puzzle=BINAIRO, rules="unruly"),
    ],
    ids=lambda t: f"{t['kind']}-{t['action']}",
)
def test_a_small_request_gets_the_answer_a_solver_process_gives(asked):
    here = inline_twice(InlineAnswerer(), asked)
    there = in_a_solver_process(asked)
    assert isinstance(here, Done) and isinstance(there, Done)
    assert [without_timing(r) for _, r in here.records] == [without_timing(r) for _, r in there.records]


@pytest.fixture(scope="module")
def answerer():
    return InlineAnswerer()


@settings(max_examples=25, deadline=None)
@given(kept=st.lists(st.booleans(), min_size=81, max_size=81))
def test_any_subset_of_a_solution_answers_as_in_a_solver_process(answerer, kept):
    puzzle = "".join(d if keep else "." for d, keep in zip(SOLVED, kept))
    asked = task(action="check", puzzle=puzzle)
    here = inline_twice(answerer, asked)
    assert here is None or isinstance(here, Done)  # None: not within the budget (a solver process then)
    if here is not None:
        (record,) = [r for _, r in here.records]
        (expected,) = [r for _, r in in_a_solver_process(asked).records]
        assert record["status"] == expected["status"] == "solved"
        assert record["uniqueness"] == expected["uniqueness"]


def test_an_unreadable_puzzle_is_the_422_a_solver_process_gives():
    asked = task(puzzle="12x")
    assert inline_twice(InlineAnswerer(), asked) == in_a_solver_process(asked)
    assert isinstance(in_a_solver_process(asked), Refused)


# -- what is never answered here -------------------------------------------------------------------
@pytest.mark.parametrize(
    "asked",
    [
        task(action="count"),
        task(action="hint"),
        task(action="explain"),
        task(action="compare"),
        task(engine="cpsat"),
        task(engine="backtrack"),
        task(certify=True),
        dict(task(), puzzles=[HARD, HARD], single=False),
        dict(task(), single=False),
        task(puzzle=HARD * 3),
        task(puzzle=[[None] * 16] * 16),
        task("crossing", puzzle="wolf-goat-cabbage"),
    ],
    ids=str,
)
def test_work_that_could_run_long_or_grow_goes_to_a_capped_solver_process(asked):
    answerer = InlineAnswerer()
    assert answerer.answer(asked) is None and answerer.answer(asked) is None


def test_only_small_single_solve_and_check_requests_are_small():
    assert small(task()) and small(task(action="check")) and small(task("binairo", puzzle=BINAIRO))
    assert small(task("binairo", puzzle=[[1, None, "0", "."]] * 4)) and small(
        task("binairo", puzzle=["1..0"] * 4)
    )
    assert not small(task(action="count")) and not small(task(puzzle="." * 300))
    assert not small(task("binairo", puzzle=[["1" * 5000]])) and not small(
        task("binairo", puzzle=[[[1]] * 4] * 4)
    )
    assert not small(task("binairo", puzzle={"grid": ["1..0"] * 4}))


def test_a_shape_is_compiled_here_on_its_second_request_and_few_shapes_ever_are():
    answerer = InlineAnswerer()
    assert answerer.answer(task()) is None  # first: a solver process answers (no compile here)
    assert isinstance(answerer.answer(task()), Done)
    boxes = ["2x2", "2x3", "3x2", "2x4", "4x2", "2x5", "5x2", "3x4", "4x3"]  # 9 more shapes
    shapes = [task(puzzle="." * (int(b[0]) * int(b[2])) ** 2, box=b) for b in boxes]
    for asked in shapes:
        answerer.answer(asked), answerer.answer(asked)
    later = [answerer.answer(asked) for asked in shapes]
    assert sum(isinstance(reply, Done) for reply in later) == inline.MAX_SHAPES - 1  # 9x9 holds one
    assert isinstance(answerer.answer(task()), Done)  # admitted shapes stay


def test_an_answer_not_found_within_the_budget_goes_to_a_solver_process(monkeypatch):
    answerer = InlineAnswerer()
    inline_twice(answerer, task(puzzle=EMPTY9))
    monkeypatch.setattr(inline, "BUDGET_SECONDS", 1e-9)
    assert answerer.answer(task(puzzle=HARD)) is None  # "unknown" at the budget: not an answer
    # ... unless the request's own time limit is that short: then "unknown" is its answer
    reply = answerer.answer(task(puzzle=HARD, time_limit=1e-9))
    assert isinstance(reply, Done) and reply.records[0][1]["status"] == "unknown"


# -- the express lane: FastAPI's answers and errors ------------------------------------------------
@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setattr(app_module, "SolverPool", InProcessPool)
    settings = Settings(db=str(tmp_path / "jobs.sqlite3"), allowed_hosts=("testserver",))
    with TestClient(app_module.create_app(settings)) as http:
        yield http


@pytest.mark.parametrize(
    "path,body",
    [
        ("/v1/sudoku/solve", b'{"puzzle": '),  # invalid JSON: 400
        ("/v1/sudoku/solve", b'{"puzzle": 3}'),  # not a puzzle: 422
        ("/v1/sudoku/solve", b'{"puzzle": "' + HARD.encode() + b'", "time_limit": "3"}'),  # strict types
        ("/v1/sudoku/check", b'{"puzzle": "' + HARD.encode() + b'", "nosuch": 1}'),
        ("/v1/sudoku/count", b"[]"),
        ("/v1/sudoku/hint", b""),
        ("/v1/chess/solve", b'{"puzzle": "x"}'),
        ("/v1/sudoku/solve", b'{"puzzle": "' + CLASH.encode() + b'"}'),
        ("/v1/binairo/check", b'{"puzzle": "1..0\\n....\\n....\\n....", "box": "2x2"}'),
        ("/v1/crossing/solve", b'{"puzzle": "wolf-goat-cabbage", "params": {"capacity": 2}}'),
    ],
)
@pytest.mark.parametrize("explain", ["", "?explain=true"])
def test_the_express_lane_answers_as_fastapi_does(client, path, body, explain):
    # An extra query parameter sends the same request through FastAPI's routing.
    headers = {"content-type": "application/json"}
    express = client.post(path + explain, content=body, headers=headers)
    routed = client.post(
        path + (explain + "&" if explain else "?") + "by=fastapi", content=body, headers=headers
    )
    assert express.status_code == routed.status_code
    if express.status_code == 200:
        assert without_timing(express.json()) == without_timing(routed.json())
    else:
        assert express.json() == routed.json()


def test_the_express_lane_takes_only_the_answering_routes_with_a_plain_query():
    def route(path: str, query: bytes = b"", method: str = "POST") -> Any:
        return Express._route({"type": "http", "method": method, "path": path, "query_string": query})

    assert route("/v1/sudoku/solve") == ("sudoku", "solve", False)
    assert route("/v1/binairo/count", b"explain=true") == ("binairo", "count", True)
    assert route("/v1/sudoku/hint") == ("sudoku", "hint", False)
    assert route("/v1/sudoku/hint", b"explain=true") is None  # FastAPI ignores it there: so do we
    assert route("/v1/sudoku/solve", b"explain=1") is None and route("/v1/sudoku/solve", b"by=x") is None
    assert route("/v1/sudoku/compare") is None and route("/v1/crossing/export") is None
    assert route("/v1/sudoku/solve", method="GET") is None and route("/v1/sudoku/solve/") is None


def test_kinds_lists_explain_and_hint(client):
    listed = {k["kind"]: k for k in client.get("/v1/kinds").json()["kinds"]}
    assert listed["sudoku"]["explain_actions"] == listed["binairo"]["explain_actions"] == ["explain", "hint"]
    assert listed["crossing"]["explain_actions"] == ["explain"]
    for kind, action in [("sudoku", "hint"), ("binairo", "explain"), ("crossing", "explain")]:
        puzzle = {"sudoku": HARD, "binairo": BINAIRO, "crossing": "wolf-goat-cabbage"}[kind]
        assert client.post(f"/v1/{kind}/{action}", json={"puzzle": puzzle}).status_code == 200


def test_a_check_that_did_not_decide_uniqueness_within_the_budget_goes_to_a_solver_process(monkeypatch):
    answerer = InlineAnswerer()
    inline_twice(answerer, task(action="check"))
    undecided = {
        "index": 0,
        "status": "solved",
        "uniqueness": None,
        "solution": [[1]],
        "message": "time limit reached before uniqueness was decided",
    }
    monkeypatch.setattr(Answerer, "answer", lambda self, *args, **kwargs: dict(undecided))
    assert answerer.answer(task(action="check")) is None
    assert answerer.answer(task(action="check", time_limit=0.01)).records[0][1] == undecided  # its own limit
    assert isinstance(answerer.answer(task(action="solve")), Done)  # a solve needs no uniqueness


def test_no_inline_sends_every_request_to_a_solver_process(tmp_path, monkeypatch):
    ran: list[str] = []

    class CountingPool(InProcessPool):
        async def run(self, task: dict, seconds: float, cost: float | None = None) -> Any:
            ran.append(task["action"])
            return await super().run(task, seconds, cost)

    monkeypatch.setattr(app_module, "SolverPool", CountingPool)
    for inline_requests, expected in ((True, ["solve"]), (False, ["solve", "solve", "solve"])):
        ran.clear()
        settings = Settings(
            db=str(tmp_path / "jobs.sqlite3"), allowed_hosts=("testserver",), inline=inline_requests
        )
        with TestClient(app_module.create_app(settings)) as http:
            answers = [http.post("/v1/sudoku/solve", json={"puzzle": HARD}).json() for _ in range(3)]
        assert {a["status"] for a in answers} == {"solved"}
        assert ran == expected  # inline: the first (the shape not compiled here yet) only
