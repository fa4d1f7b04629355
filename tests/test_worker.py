"""Several API servers and ``mindgames worker`` processes on one PostgreSQL job store (issue 27):
any server lists, answers, cancels and deletes any job; workers claim jobs, and a job whose
worker or server was killed is queued again when its lease expires and continues after its
last result: every job finishes, its results complete and none duplicated.

Real processes on a throwaway PostgreSQL server; skipped, saying why, only where PostgreSQL's
binaries or psycopg are absent."""

from __future__ import annotations

import itertools
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psycopg
import pytest

from mindgames.service.settings import child_env
from mindgames.service.testing import Server
from mindgames.service.testing_postgres import PostgresCluster, why_no_postgres

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EMPTY9 = "." * 81
LEASE = "2"  # seconds: a vanished runner's jobs are requeued this soon


@pytest.fixture(scope="module")
def postgres():
    reason = why_no_postgres()
    if reason:
        pytest.skip(reason)
    with PostgresCluster() as cluster:
        yield cluster


class Worker:
    """``mindgames worker`` in a child process, its output in ``log``."""

    def __init__(self, url: str, log: Path, *args: str, cache: Path | None = None):
        self.log = log
        env = child_env()
        if cache is not None:  # another machine: its own checkpoint files
            env["XDG_CACHE_HOME"] = str(cache)
        with open(log, "ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "mindgames.cli", "worker", "--db", url, *args],
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=env,
            )

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()


def server(url: str, tmp_path: Path, name: str, *args: str) -> Server:
    return Server(url, "--lease-seconds", LEASE, *args, log=tmp_path / f"{name}.log").start()


def wait_for(client: httpx.Client, job_id: str, seconds: float = 90) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job = client.get(f"/v1/jobs/{job_id}").json()
        if job["status"] not in ("queued", "running"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} still {job['status']} after {seconds} s")


def test_workers_run_what_any_server_queues_and_any_server_cancels_and_lists_them(postgres, tmp_path):
    url = postgres.database()
    first = server(url, tmp_path, "a", "--no-local-jobs")
    second = server(url, tmp_path, "b", "--no-local-jobs")
    worker = Worker(url, tmp_path / "worker.log", "--slots", "1", "--lease-seconds", LEASE)
    try:
        with (
            httpx.Client(base_url=first.url, timeout=60) as a,
            httpx.Client(base_url=second.url, timeout=60) as b,
        ):
            queued = a.post("/v1/jobs", json={"kind": "sudoku", "action": "solve", "puzzles": [HARD]}).json()
            done = wait_for(b, queued["id"])
            assert done["status"] == "done" and len(done["results"]) == 1
            assert done["results"][0]["status"] == "solved"

            long = b.post(
                "/v1/jobs",
                json={"kind": "sudoku", "action": "count", "puzzles": [EMPTY9] * 5, "time_limit": 5},
            ).json()
            deadline = time.monotonic() + 60
            while a.get(f"/v1/jobs/{long['id']}").json()["status"] != "running":
                assert time.monotonic() < deadline
                time.sleep(0.1)
            cancelled = a.post(f"/v1/jobs/{long['id']}/cancel", json={}).json()
            assert cancelled["status"] == "cancelled"
            # The worker's process stops (its next write, or its next lease renewal, is refused)
            # and the worker takes the next job.
            after = a.post("/v1/jobs", json={"kind": "sudoku", "action": "check", "puzzles": [HARD]}).json()
            assert wait_for(b, after["id"], 30)["status"] == "done"
            assert b.get(f"/v1/jobs/{long['id']}").json()["status"] == "cancelled"
            assert {j["id"] for j in b.get("/v1/jobs").json()["jobs"]} == {
                queued["id"],
                long["id"],
                after["id"],
            }
            assert a.delete(f"/v1/jobs/{queued['id']}").json()["status"] == "deleted"
            assert b.get(f"/v1/jobs/{queued['id']}").status_code == 404

            seen = b.get("/v1/workers").json()["workers"]
            assert {w["role"] for w in seen if w["alive"]} >= {"worker", "server"}
            (runner,) = [w for w in seen if w["role"] == "worker"]
            assert runner["slots"] == 1 and runner["pid"] == worker.process.pid
            health = a.get("/healthz").json()
            assert health["jobs"]["local_slots"] == 0
            assert any(w["role"] == "worker" for w in health["jobs"]["workers"])
    finally:
        worker.stop()
        first.stop()
        second.stop()


def sudoku_puzzles(count: int, rng: random.Random) -> list[str]:
    """Distinct 9x9 puzzles with one solution: HARD with its digits relabelled."""
    puzzles = []
    for _ in range(count):
        digits = list("123456789")
        rng.shuffle(digits)
        puzzles.append("".join(digits[int(c) - 1] if c != "." else c for c in HARD))
    return puzzles


def mixed_jobs(count: int) -> list[tuple[dict, int]]:
    """(request, how many results it must end with), of several kinds and actions."""
    rng = random.Random(27)
    binairo = Path(__file__).resolve().parents[1] / "data" / "binairo" / "takuzu_6x6.txt"
    blocks = binairo.read_text().split("\n\n")
    binairo_puzzles = ["\n".join(line for line in b.splitlines() if not line.startswith("#")) for b in blocks]
    kinds = itertools.cycle(
        [
            lambda: {"kind": "sudoku", "action": "solve", "puzzles": sudoku_puzzles(3, rng)},
            lambda: {"kind": "sudoku", "action": "check", "puzzles": sudoku_puzzles(2, rng)},
            lambda: {"kind": "sudoku", "action": "count", "puzzles": sudoku_puzzles(2, rng), "limit": 2},
            lambda: {"kind": "binairo", "action": "solve", "puzzles": binairo_puzzles[:3]},
            lambda: {"kind": "binairo", "action": "count", "puzzles": binairo_puzzles[:2], "limit": 2},
        ]
    )
    jobs = []
    for _ in range(count):
        request = next(kinds)()
        jobs.append((request, len(request["puzzles"])))
    return jobs


def test_two_servers_and_two_workers_survive_a_killed_worker_and_a_killed_server(postgres, tmp_path):
    url = postgres.database()
    # Server a runs jobs too (so its death strands some); server b only answers.
    a = server(url, tmp_path, "a", "--job-workers", "1", "--max-jobs", "1000")
    b = server(url, tmp_path, "b", "--no-local-jobs", "--max-jobs", "1000")
    workers = [
        Worker(url, tmp_path / f"worker{i}.log", "--slots", "2", "--lease-seconds", LEASE) for i in range(2)
    ]
    jobs = mixed_jobs(200)
    created: dict[str, int] = {}
    try:
        clients = [httpx.Client(base_url=s.url, timeout=60) for s in (a, b)]
        for number, (request, size) in enumerate(jobs):
            reply = clients[number % len(clients)].post("/v1/jobs", json=request)
            assert reply.status_code == 202, reply.text
            created[reply.json()["id"]] = size
            if number == 100:  # mid-run: some jobs done, some running, most queued
                workers[0].kill()
                a.kill()
                clients = [clients[1]]
        deadline = time.monotonic() + 600
        pending = set(created)
        finished: dict[str, dict] = {}
        while pending:
            assert time.monotonic() < deadline, f"{len(pending)} jobs never finished"
            for job_id in list(pending):
                job = clients[0].get(f"/v1/jobs/{job_id}").json()
                if job["status"] not in ("queued", "running"):
                    finished[job_id] = job
                    pending.discard(job_id)
            time.sleep(0.2)
        for job_id, job in finished.items():
            assert job["status"] == "done", (job_id, job["status"], job["error"], job["message"])
            assert len(job["results"]) == created[job_id], job_id  # complete and none twice
            assert all(r.get("error") is None for r in job["results"]), job["results"]
        requeued = [j for j in finished.values() if j["message"] and "requeued" in j["message"]]
        assert requeued, "no job was running on the killed worker or server"
        alive = [w for w in clients[0].get("/v1/workers").json()["workers"] if w["alive"]]
        assert sorted(w["role"] for w in alive) == ["server", "worker"]
        clients[0].close()
    finally:
        for worker in workers:
            worker.stop()
        a.stop()
        b.stop()


def test_a_count_resumed_by_a_worker_on_another_machine_keeps_the_cubes_counted_by_the_first(
    postgres, tmp_path
):
    url = postgres.database()
    api = server(url, tmp_path, "api", "--no-local-jobs")
    first = Worker(
        url, tmp_path / "first.log", "--slots", "1", "--lease-seconds", LEASE, cache=tmp_path / "a"
    )
    second = None
    try:
        with httpx.Client(base_url=api.url, timeout=60) as client:
            job = client.post(
                "/v1/jobs", json={"kind": "binairo", "action": "count_grids", "size": "10"}
            ).json()
            # Machine A is lost as soon as the store holds some of its cubes (its first push,
            # 2 s in: the 931 cubes take longer than that).
            with psycopg.connect(url, autocommit=True) as database:
                deadline = time.monotonic() + 120
                rows = 0
                while rows < 100:
                    assert time.monotonic() < deadline, "the count never got going"
                    time.sleep(0.05)
                    (rows,) = database.execute(
                        "SELECT COUNT(*) FROM job_checkpoints WHERE job=%s AND cube >= 0", (job["id"],)
                    ).fetchone()
                first.kill()  # and with it the job's process
                time.sleep(0.5)
                (rows,) = database.execute(
                    "SELECT COUNT(*) FROM job_checkpoints WHERE job=%s AND cube >= 0", (job["id"],)
                ).fetchone()
            second = Worker(
                url, tmp_path / "second.log", "--slots", "1", "--lease-seconds", LEASE, cache=tmp_path / "b"
            )
            done = wait_for(client, job["id"], 180)
        assert done["status"] == "done", (done["error"], done["message"])
        assert done["result"]["count"] == 48_183_195_384  # every 10x10 takuzu grid
        assert "requeued" in done["message"]
        # The second worker started from the cubes the first had sent to the store (those
        # finished in its last 2 seconds are counted again), not from nothing.
        assert 100 <= rows < 931
        assert done["progress"]["resumed"] == rows
    finally:
        first.stop()
        if second is not None:
            second.stop()
        api.stop()


def test_a_worker_stopped_by_sigterm_hands_its_job_back_at_once(postgres, tmp_path):
    url = postgres.database()
    api = server(url, tmp_path, "api", "--no-local-jobs")
    worker = Worker(url, tmp_path / "worker.log", "--slots", "1", "--lease-seconds", "60")
    try:
        with httpx.Client(base_url=api.url, timeout=60) as client:
            job = client.post(
                "/v1/jobs",
                json={"kind": "sudoku", "action": "count", "puzzles": [EMPTY9] * 3, "time_limit": 5},
            ).json()
            deadline = time.monotonic() + 60
            while client.get(f"/v1/jobs/{job['id']}").json()["status"] != "running":
                assert time.monotonic() < deadline
                time.sleep(0.1)
            worker.stop()  # SIGTERM: no waiting for the 60 s lease
            handed_back = client.get(f"/v1/jobs/{job['id']}").json()
            assert handed_back["status"] == "queued"
            assert handed_back["message"] == "requeued: its worker stopped"
            assert all(not w["role"] == "worker" for w in client.get("/v1/workers").json()["workers"])
    finally:
        worker.stop()
        api.stop()


def test_no_local_jobs_needs_a_shared_store_and_so_does_a_worker(tmp_path, capsys):
    from mindgames.cli import main

    assert main(["serve", "--no-local-jobs", "--db", str(tmp_path / "jobs.sqlite3")]) == 2
    assert "--no-local-jobs: a SQLite jobs database is run by its server alone" in capsys.readouterr().err
    assert main(["worker", "--db", str(tmp_path / "jobs.sqlite3")]) == 2
    assert "a worker needs a shared job store" in capsys.readouterr().err
