"""`POST /v1/{kind}/compare`: the engines side by side over HTTP, bounded like every request."""

from __future__ import annotations

import httpx
import pytest

from mindgames.service.testing import Server
from tests.test_sudoku import SEED_PUZZLE, WIKI_PUZZLE


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("service") / "jobs.sqlite3"
    with Server(db, "--max-seconds", "3", "--solver-workers", "1") as running:
        with httpx.Client(base_url=running.url, timeout=60) as http:
            yield http


def test_compare_answers_rows_a_summary_and_agreement(client):
    reply = client.post("/v1/sudoku/compare", json={"puzzles": [SEED_PUZZLE, WIKI_PUZZLE], "time_limit": 2})
    assert reply.status_code == 200
    body = reply.json()
    assert [(row["index"], row["engine"]) for row in body["rows"]] == [
        (i, e) for i in (0, 1) for e in ("sat", "cpsat", "backtrack")
    ]
    first = body["rows"][0]
    assert first["answer"] == "unique" and first["stats"]["propagations"] > 0
    assert body["summary"]["agree"] is True and body["agreement"].startswith("agreement:")
    assert [e["engine"] for e in body["summary"]["engines"]] == ["sat", "cpsat", "backtrack"]


def test_compare_takes_engines_and_a_question(client):
    reply = client.post(
        "/v1/binairo/compare",
        json={"puzzle": "1..0\n....\n....\n....", "engines": ["sat", "backtrack"], "question": "count"},
    )
    assert reply.status_code == 200
    rows = reply.json()["rows"]
    assert [row["engine"] for row in rows] == ["sat", "backtrack"]
    assert len({row["answer"] for row in rows}) == 1 and rows[0]["answer"].endswith("solutions")


@pytest.mark.parametrize(
    "body, status, named",
    [
        ({"puzzles": [SEED_PUZZLE] * 11}, 413, "max_compare_puzzles"),
        ({"puzzle": SEED_PUZZLE, "engines": ["dlx"]}, 422, "engines"),
        ({"puzzle": SEED_PUZZLE, "time_limit": 60}, 422, "max_seconds"),
    ],
)
def test_compare_is_bounded(client, body, status, named):
    reply = client.post("/v1/sudoku/compare", json=body)
    assert reply.status_code == status and named in reply.text


def test_crossings_are_compared_on_the_command_line(client):
    reply = client.post("/v1/crossing/compare", json={"puzzle": "wolf-goat-cabbage"})
    assert reply.status_code == 422 and "mindgames compare crossing" in reply.text
