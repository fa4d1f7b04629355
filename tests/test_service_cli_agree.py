"""The service and the command line follow the same rules (issue 24, item 7): one place
decides each default and each refusal."""

from __future__ import annotations

import httpx
import pytest

from mindgames.cli import main
from mindgames.models.runner import DEFAULT_COUNT_LIMIT
from mindgames.service.testing import Server

BLANK4 = "." * 16  # 288 solutions
BLANK9 = "." * 81


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("agree") / "jobs.sqlite3"
    with Server(db, "--max-seconds", "30") as running:
        yield running


def test_a_count_stops_at_the_same_default_limit(server, tmp_path, capsys):
    reply = httpx.post(server.url + "/v1/sudoku/count", json={"puzzle": BLANK9, "time_limit": 25}, timeout=60)
    assert reply.status_code == 200
    assert (reply.json()["count"], reply.json()["complete"]) == (DEFAULT_COUNT_LIMIT, False)
    puzzle = tmp_path / "blank.txt"
    puzzle.write_text(BLANK9 + "\n")
    assert main(["sudoku", "count", str(puzzle), "--json", "--time-limit", "25"]) == 0
    assert '"count":10000' in capsys.readouterr().out.replace(" ", "")


def test_limit_zero_means_no_limit_in_both(server, tmp_path, capsys):
    reply = httpx.post(server.url + "/v1/sudoku/count", json={"puzzle": BLANK4, "limit": 0}, timeout=60)
    assert reply.status_code == 200
    assert (reply.json()["count"], reply.json()["complete"]) == (288, True)
    puzzle = tmp_path / "blank.txt"
    puzzle.write_text(BLANK4 + "\n")
    assert main(["sudoku", "count", str(puzzle), "--json", "--limit", "0"]) == 0
    assert '"count":288' in capsys.readouterr().out.replace(" ", "")


def test_a_grid_count_the_counter_cannot_do_is_refused_at_once_by_both(server, capsys):
    reply = httpx.post(
        server.url + "/v1/jobs", json={"kind": "binairo", "action": "count_grids", "size": "16"}, timeout=60
    )
    assert reply.status_code == 422 and "up to 14x14" in reply.json()["error"]
    assert main(["binairo", "count", "--size", "16"]) == 2
    assert "up to 14x14" in capsys.readouterr().err
