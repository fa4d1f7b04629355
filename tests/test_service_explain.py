"""POST /v1/{kind}/explain and /hint: the CLI's --json objects, over HTTP."""

from __future__ import annotations

import httpx
import pytest

from mindgames.service.testing import Server
from tests.test_service import CLASH, HARD, cli_json

EASY = "....754..........8.8.19....3....1.6........34....6817.2.4...6.39......2.53.2....."


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("explain") / "jobs.sqlite3"
    with Server(db, "--max-seconds", "10", "--solver-workers", "1") as running:
        with httpx.Client(base_url=running.url, timeout=60) as http:
            yield http


def test_explain_answers_as_the_cli_does(client, tmp_path, capsys):
    for puzzle in (CLASH, EASY):
        reply = client.post("/v1/sudoku/explain", json={"puzzle": puzzle})
        assert reply.status_code == 200
        assert reply.json() == cli_json(["sudoku", "explain"], puzzle, tmp_path, capsys)[0]
    # Several solutions: which two the engine finds depends on its history, not the shape.
    loose = client.post("/v1/sudoku/explain", json={"puzzle": "." * 81}).json()
    assert loose.keys() == cli_json(["sudoku", "explain"], "." * 81, tmp_path, capsys)[0].keys()
    assert loose["explanation"] == "open" and loose["open_cells"] and loose["add_givens"]
    assert client.post("/v1/sudoku/explain", json={"puzzle": CLASH}).json()["clash"] == [[1, 1], [1, 2]]


def test_hint_and_a_batch(client):
    hint = client.post("/v1/sudoku/hint", json={"puzzle": EASY}).json()
    assert hint["value"] and hint["technique"] and hint["text"]
    batch = client.post("/v1/sudoku/hint", json={"puzzles": [EASY, "x"]}).json()["results"]
    assert batch[0]["row"] == hint["row"] and batch[1]["status"] == "invalid"


def test_bad_requests_are_named(client):
    assert client.post("/v1/sudoku/explain", json={"puzzle": "12"}).status_code == 422
    assert client.post("/v1/nope/hint", json={"puzzle": HARD}).status_code == 404
    assert client.post("/v1/crossing/explain", json={"puzzle": "x"}).status_code == 422


def test_a_crossing_is_explained_by_the_rules_that_make_it_unsolvable(client):
    answer = client.post(
        "/v1/crossing/explain", json={"puzzle": "jealous-husbands", "params": {"return_capacity": 1}}
    )
    assert answer.status_code == 200, answer.text
    record = answer.json()
    assert record["explanation"] == "unsolvable" and len(record["needed"]) == 4
    assert all(n["without_it"] is not None for n in record["needed"])
