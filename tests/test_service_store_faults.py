"""The job store under faults (issue 24, items 2 and 5): another process holding the jobs
database, or the database deleted while the server runs.

Nothing freezes the server: /healthz answers at once (it reads no database), job requests
answer 503 with Retry-After while the lock is held and work again after; a deleted
database is a 503 naming it, on /healthz too, never writes to a file nobody can see."""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time

import httpx
import pytest

from mindgames.service.testing import Server

BLANK = "." * 81


@pytest.fixture
def server(tmp_path):
    db = tmp_path / "store" / "jobs.sqlite3"
    with Server(db, "--job-workers", "1", log=tmp_path / "server.log") as running:
        yield running


def hold_write_lock(db: str, seconds: float, held: threading.Event) -> None:
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    held.set()
    time.sleep(seconds)
    holder.execute("ROLLBACK")
    holder.close()


def test_a_held_write_lock_freezes_nothing_and_job_requests_say_when_to_retry(server):
    held = threading.Event()
    holder = threading.Thread(target=hold_write_lock, args=(server.db, 8.0, held))
    holder.start()
    try:
        assert held.wait(10)
        started = time.monotonic()
        health = httpx.get(server.url + "/healthz", timeout=30)
        assert health.status_code == 200 and time.monotonic() - started < 1.5  # no database read
        job = {"kind": "sudoku", "action": "solve", "puzzles": [BLANK]}
        refused = httpx.post(server.url + "/v1/jobs", json=job, timeout=30)
        assert refused.status_code == 503
        assert int(refused.headers["retry-after"]) > 0 and "busy" in refused.json()["error"]
        # reading goes on (the database is in WAL mode: a writer does not block readers)
        assert httpx.get(server.url + "/v1/jobs", timeout=30).status_code == 200
        # meanwhile the puzzle routes, which need no database, answer as ever
        solved = httpx.post(server.url + "/v1/sudoku/solve", json={"puzzle": BLANK}, timeout=30)
        assert solved.status_code == 200 and solved.json()["status"] == "solved"
    finally:
        holder.join()
    accepted = httpx.post(server.url + "/v1/jobs", json=job, timeout=30)
    assert accepted.status_code == 202


def test_the_database_deleted_while_running_is_a_503_that_names_it(server, tmp_path):
    shutil.rmtree(tmp_path / "store")
    health = httpx.get(server.url + "/healthz", timeout=30)
    assert health.status_code == 503 and "deleted or replaced" in health.json()["error"]
    job = {"kind": "sudoku", "action": "solve", "puzzles": [BLANK]}
    refused = httpx.post(server.url + "/v1/jobs", json=job, timeout=30)
    assert refused.status_code == 503 and "restart the server" in refused.json()["error"]
    assert not (tmp_path / "store" / "jobs.sqlite3").exists()  # no new, empty database made
