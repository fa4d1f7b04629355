"""Solver processes that die: the server's trouble is a 503, never a bad puzzle (issue 24, item 4).

A worker that dies while idle is replaced before anyone is handed it, and ``status``
(what ``/healthz`` shows) says ``degraded`` until the replacement is ready; a task under
which worker after worker dies ends as :class:`Died`, which the routes answer with 503
and Retry-After, not the 422 of a puzzle that cannot be answered."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import httpx
import pytest

from mindgames.service.pool import SolverPool
from mindgames.service.replies import Died, Done
from mindgames.service.testing import Server

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


class ExitOnArrival:
    """Unpickled by the worker as a call to ``os._exit(9)``: a worker that dies mid-task."""

    def __reduce__(self):
        return (os._exit, (9,))


def solve_task(**more) -> dict:
    return {"kind": "sudoku", "action": "solve", "puzzles": [EASY], "single": True, **more}


async def ready(pool: SolverPool, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while pool.status()["degraded"]:
        assert time.monotonic() < deadline, "the workers never became ready"
        await asyncio.sleep(0.05)


def test_a_task_that_kills_every_worker_it_meets_ends_as_died_and_the_pool_recovers():
    async def scenario() -> None:
        pool = SolverPool(1)
        await pool.start()
        try:
            await ready(pool)
            reply = await pool.run(solve_task(poison=ExitOnArrival()), 5)
            assert isinstance(reply, Died)
            assert pool.respawns == 3
            await ready(pool)
            assert isinstance(await pool.run(solve_task(), 5), Done)
        finally:
            await pool.close()

    asyncio.run(scenario())


def test_an_idle_worker_killed_is_replaced_and_reported_until_then():
    async def scenario() -> None:
        pool = SolverPool(1)
        await pool.start()
        try:
            await ready(pool)
            (worker,) = pool.idle
            os.kill(worker.process.pid, signal.SIGKILL)
            worker.process.wait()
            status = pool.status()
            assert status["degraded"] and status["idle"] == 0 and pool.respawns == 1
            await ready(pool)
            assert isinstance(await pool.run(solve_task(), 5), Done)
        finally:
            await pool.close()

    asyncio.run(scenario())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("pool") / "jobs.sqlite3"
    with Server(db, "--solver-workers", "1", "--no-inline") as running:
        yield running


def test_healthz_says_degraded_while_a_dead_worker_is_replaced(server):
    pids = [p for p in os.popen(f"pgrep -P {server.process.pid} -f mindgames.service.pool").read().split()]
    assert len(pids) == 1
    os.kill(int(pids[0]), signal.SIGKILL)
    time.sleep(0.2)
    health = httpx.get(server.url + "/healthz", timeout=10).json()
    assert health["status"] == "degraded" and health["solvers"]["respawns"] == 1
    deadline = time.monotonic() + 60
    while httpx.get(server.url + "/healthz", timeout=10).json()["status"] != "ok":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    reply = httpx.post(server.url + "/v1/sudoku/solve", json={"puzzle": EASY}, timeout=60)
    assert reply.status_code == 200 and reply.json()["status"] == "solved"
