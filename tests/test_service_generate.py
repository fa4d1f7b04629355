"""``POST /v1/{kind}/generate``: puzzles made for every grid kind, from its generate options.

A few are made at once (within the request's time cap), more are a job; every puzzle is
unique and minimal (checked here again, given by given, by a solver of the test's own) and
reproducible by its seed, the same puzzle ``mindgames KIND generate --seed`` makes; every
limit holds before any work.  The service runs in this process, its solver pool replaced by
one that answers with the workers' own code (as tests/test_new_kind.py does); jobs run in
their own processes, as on a server."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from mindgames.cli import main as cli  # noqa: E402
from mindgames.models.binairo import BINAIRO  # noqa: E402
from mindgames.models.kind import GridKind  # noqa: E402
from mindgames.models.runner import PuzzleSolver  # noqa: E402
from mindgames.models.sudoku import SUDOKU  # noqa: E402
from mindgames.service.routes.generate import GENERATED_AT_ONCE  # noqa: E402

MAX_PUZZLES = 30
MAX_SECONDS = 20.0


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from mindgames.service import app as app_module
    from mindgames.service.settings import Settings
    from mindgames.service.testing import InProcessPool

    patch = pytest.MonkeyPatch()
    patch.setattr(app_module, "SolverPool", InProcessPool)
    settings = Settings(
        db=str(tmp_path_factory.mktemp("generate") / "jobs.sqlite3"),
        allowed_hosts=("testserver",),
        max_puzzles=MAX_PUZZLES,
        max_seconds=MAX_SECONDS,
        max_jobs=3,
        job_workers=1,
    )
    with TestClient(app_module.create_app(settings)) as http:
        yield http
    patch.undo()


def unique_and_minimal(kind: GridKind, puzzle: Any, solution: Any) -> bool:
    """Exactly one solution, ``solution``, and no given that can go."""
    solver = PuzzleSolver(kind, "sat")
    checked = solver.check(puzzle)
    if checked.uniqueness != "unique" or checked.solution != solution:
        return False
    givens = kind.given_cells(puzzle)
    return all(
        solver.check(kind.with_givens(puzzle, {c: v for c, v in givens.items() if c != cell})).uniqueness
        == "multiple"
        for cell in givens
    )


def wait_for(client: TestClient, job_id: str, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/v1/jobs/{job_id}").json()
        if job["status"] not in ("queued", "running"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} still {job['status']}")


KINDS = {"sudoku": SUDOKU, "binairo": BINAIRO}
VARIANTS = [
    ("sudoku", {"box": "2x2"}),
    ("sudoku", {"box": "2x3", "diagonals": True}),
    ("sudoku", {"regions": "AABABBAAABBBCCCDDDCCCDDDEEFFFFEEEEFF"}),
    ("binairo", {"size": 6}),
    ("binairo", {"size": "4x6", "rules": "unruly"}),
]


# -- a few at once ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "options"), VARIANTS)
def test_a_few_puzzles_are_made_at_once_each_unique_and_minimal(client, kind, options):
    answer = client.post(f"/v1/{kind}/generate", json={**options, "seed": 11, "count": 2})
    assert answer.status_code == 200, answer.text
    records = answer.json()["results"]
    assert [(r["index"], r["status"], r["seed"]) for r in records] == [
        (0, "generated", 11),
        (1, "generated", 12),
    ]
    for record in records:
        puzzle = KINDS[kind].parse_value(record["puzzle"])  # the kind's JSON form, read back
        assert record["givens"] == len(KINDS[kind].given_cells(puzzle)) and record["minimal"] is True
        assert unique_and_minimal(KINDS[kind], puzzle, record["solution"])
    if kind == "binairo":
        assert {r["rules"] for r in records} == {options.get("rules", "takuzu")}


def test_a_seed_gives_the_same_puzzles_and_no_seed_gives_one_to_repeat_them(client):
    first = client.post("/v1/sudoku/generate", json={"box": "2x2", "count": 3}).json()["results"]
    seed = first[0]["seed"]
    assert [r["seed"] for r in first] == [seed, seed + 1, seed + 2]
    again = client.post("/v1/sudoku/generate", json={"box": "2x2", "count": 3, "seed": seed}).json()
    assert [r["puzzle"] for r in again["results"]] == [r["puzzle"] for r in first]


@pytest.mark.parametrize(
    ("kind", "options", "flags"),
    [("sudoku", {"box": "2x3"}, ["--box", "2x3"]), ("binairo", {"size": 6}, ["--size", "6"])],
)
def test_the_service_makes_the_puzzle_the_command_line_makes_from_a_seed(
    client, capsys, kind, options, flags
):
    made = client.post(f"/v1/{kind}/generate", json={**options, "seed": 4}).json()["results"][0]
    capsys.readouterr()
    assert cli([kind, "generate", *flags, "--seed", "4", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert made["puzzle"]["grid"] == printed["grid"] and made["solution"] == printed["solution"]


def test_puzzles_not_made_within_the_time_limit_are_unknown_saying_so(client):
    answer = client.post("/v1/sudoku/generate", json={"box": "5x5", "count": 2, "time_limit": 0.01})
    assert answer.status_code == 200
    records = answer.json()["results"]
    assert [r["status"] for r in records] == ["unknown", "unknown"]
    assert all("time limit" in r["message"] for r in records)


# -- many: a job ------------------------------------------------------------------------------------


def test_more_puzzles_than_made_at_once_are_a_job(client):
    count = GENERATED_AT_ONCE + 2
    created = client.post("/v1/binairo/generate", json={"size": 4, "seed": 100, "count": count})
    assert created.status_code == 202 and created.json()["status"] == "queued"
    job = wait_for(client, created.json()["id"])
    assert job["status"] == "done", job
    assert (job["kind"], job["action"]) == ("binairo", "generate")
    assert job["progress"]["done"] == job["progress"]["total"] == count
    assert [r["seed"] for r in job["results"]] == list(range(100, 100 + count))
    assert {r["status"] for r in job["results"]} == {"generated"}
    last = job["results"][-1]
    assert unique_and_minimal(BINAIRO, BINAIRO.parse_value(last["puzzle"]), last["solution"])


# -- limits, before any work ------------------------------------------------------------------------


def test_more_puzzles_than_max_puzzles_is_a_413_naming_the_limit(client):
    answer = client.post("/v1/sudoku/generate", json={"count": MAX_PUZZLES + 1})
    assert answer.status_code == 413
    assert (
        answer.json()["limit"] == "max_puzzles" and f"max_puzzles ({MAX_PUZZLES})" in answer.json()["error"]
    )


def test_a_time_limit_beyond_max_seconds_is_a_422_naming_the_limit(client):
    answer = client.post("/v1/sudoku/generate", json={"time_limit": MAX_SECONDS + 1})
    assert answer.status_code == 422 and answer.json()["limit"] == "max_seconds"


@pytest.mark.parametrize(
    ("kind", "body", "starts"),
    [
        ("binairo", {}, "size: needed to generate binairo puzzles"),
        ("binairo", {"size": "7"}, "size:"),
        ("binairo", {"size": 6, "box": "3x3"}, "box: an option of sudoku puzzles only"),
        ("sudoku", {"size": 6}, "size: an option of binairo puzzles only"),
        ("sudoku", {"box": "3x"}, "box:"),
        ("sudoku", {"box": "2x3", "regions": "AAABBB"}, "give either"),
        ("sudoku", {"regions": "AAAAB"}, "regions: 5 labels do not make a square grid"),
        ("sudoku", {"regions": "AAABBBAACBBBCCADDDCCCDDFEEEFFDEEEFFF"}, "6x6"),  # no solution at all
        ("crossing", {}, "generate: grid kinds only"),
    ],
)
def test_what_cannot_be_generated_is_a_422_naming_why(client, kind, body, starts):
    answer = client.post(f"/v1/{kind}/generate", json=body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"].startswith(starts)


def test_a_bad_envelope_is_a_422_and_an_unknown_kind_a_404(client):
    assert client.post("/v1/sudoku/generate", json={"count": 0}).status_code == 422
    assert client.post("/v1/sudoku/generate", json={"count": "3"}).status_code == 422  # strict
    assert client.post("/v1/sudoku/generate", json={"puzzle": "1"}).status_code == 422  # not a field
    assert client.post("/v1/chess/generate", json={}).status_code == 404


# -- documented -------------------------------------------------------------------------------------


def test_generate_is_in_the_openapi_document_with_its_fields_and_limits(client):
    document = client.get("/openapi.json").json()
    route = document["paths"]["/v1/{kind}/generate"]["post"]
    assert {"200", "202", "413", "422"} <= set(route["responses"])
    body = route["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    fields = set(document["components"]["schemas"][body]["properties"])
    assert {"seed", "count", "time_limit", "engine", "box", "diagonals", "regions", "size", "rules"} <= fields


def test_kinds_lists_each_kinds_generate_options(client):
    listed = {k["kind"]: k for k in client.get("/v1/kinds").json()["kinds"]}
    assert set(listed["sudoku"]["generate_options"]) == {"box", "diagonals", "regions"}
    assert set(listed["binairo"]["generate_options"]) == {"size", "rules"}
