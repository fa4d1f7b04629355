"""The job store's one interface, the same specification for every database it runs on: SQLite
(the embedded default) and PostgreSQL (a throwaway server the fixture starts; these cases
skip, saying why, only where PostgreSQL's binaries or psycopg are absent)."""

from __future__ import annotations

import sqlite3
import sys
import threading
import time

import pytest

from mindgames.models.binairo.count import count_grids
from mindgames.service.jobs import CheckpointMirror, JobStore, open_store, open_writer, store_problem
from mindgames.service.store import SCHEMA_VERSION, SchemaTooNew
from mindgames.service.testing_postgres import PostgresCluster, why_no_postgres

REQUEST = {"kind": "sudoku", "action": "solve", "puzzles": ["." * 81, "." * 81]}


@pytest.fixture(scope="module")
def postgres():
    reason = why_no_postgres()
    if reason:
        pytest.skip(reason)
    with PostgresCluster() as cluster:
        yield cluster


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path) -> str:
    """A fresh, empty jobs database's locator: a file, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "jobs.sqlite3")
    return request.getfixturevalue("postgres").database()


@pytest.fixture
def store(db):
    opened = open_store(db)
    yield opened
    opened.close()


def test_a_new_database_gets_the_programs_schema(store):
    assert store.schema_version() == SCHEMA_VERSION


def test_a_created_job_is_queued_with_its_size_and_found_by_get_and_list(store):
    job_id = store.create("sudoku", "solve", REQUEST)
    job = store.get(job_id)
    assert job["status"] == "queued"
    assert job["progress"] == {"done": 0, "total": 2}
    assert job["results"] == []
    assert [j["id"] for j in store.list()] == [job_id]
    assert store.list()[0]["results"] is None
    assert store.request(job_id) == REQUEST
    assert store.active_count() == 1
    assert store.get("nosuchjob") is None


def test_jobs_are_claimed_oldest_first_and_each_once(store):
    first = store.create("sudoku", "solve", REQUEST)
    second = store.create("sudoku", "solve", REQUEST)
    assert store.claim_next("run-a", "worker-a", 30) == first
    assert store.claim_next("run-b", "worker-b", 30) == second
    assert store.claim_next("run-c", "worker-a", 30) is None
    assert store.get(first)["status"] == "running"


def test_concurrent_claimers_never_take_the_same_job(db):
    seed = open_store(db)
    created = {seed.create("sudoku", "solve", REQUEST) for _ in range(30)}
    claimed: list[str] = []
    lock = threading.Lock()

    def claimer(name: str) -> None:
        own = open_store(db)  # its own connection, as another process would have
        try:
            for attempt in range(60):
                try:
                    job_id = own.claim_next(f"{name}-{attempt}", name, 30)
                except Exception:  # SQLite: busy for a moment; PostgreSQL never waits
                    continue
                if job_id is None:
                    return
                with lock:
                    claimed.append(job_id)
        finally:
            own.close()

    threads = [threading.Thread(target=claimer, args=(f"w{i}",)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seed.close()
    assert sorted(claimed) == sorted(created)


def test_a_job_finishes_once_and_only_from_an_active_status(store):
    job_id = store.create("sudoku", "solve", REQUEST)
    assert store.finish(job_id, "cancelled", message="cancelled")
    assert not store.finish(job_id, "failed", error="late")
    job = store.get(job_id)
    assert (job["status"], job["message"], job["error"]) == ("cancelled", "cancelled", None)
    assert store.active_count() == 0


def test_only_a_finished_job_is_deleted_and_its_results_go_with_it(store):
    job_id = store.create("sudoku", "solve", REQUEST)
    assert not store.delete(job_id)
    run = "run-1"
    assert store.claim_next(run, "w", 30) == job_id
    writer = open_writer(store.locator, job_id, run)
    assert writer.append([(0, {"n": 0})], {"done": 1, "total": 2})
    store.finish(job_id, "done")
    assert store.delete(job_id)
    assert store.get(job_id) is None
    assert store.results(job_id) == []


def test_finished_jobs_past_retention_expire(store):
    old = store.create("sudoku", "solve", REQUEST)
    store.finish(old, "done")
    running = store.create("sudoku", "solve", REQUEST)
    assert store.expire(0) == 0  # 0 days: kept forever
    time.sleep(0.05)
    assert store.expire(0.01 / 86400) == 1
    assert store.get(old) is None and store.get(running) is not None


def test_a_job_process_appends_results_idempotently_and_only_while_the_job_is_its_own(store):
    job_id = store.create("sudoku", "solve", REQUEST)
    assert store.claim_next("run-1", "w", 30) == job_id
    writer = open_writer(store.locator, job_id, "run-1")
    assert writer.request() == REQUEST
    assert writer.append([(0, {"n": 0})], {"done": 1, "total": 2})
    assert writer.append([(0, {"n": 0})], {"done": 1, "total": 2})  # written again: kept once
    assert writer.done() == 1
    assert store.results(job_id) == [{"n": 0}]
    assert store.get(job_id, with_results=False)["progress"] == {"done": 1, "total": 2}
    store.finish(job_id, "cancelled")
    assert not writer.append([(1, {"n": 1})], {"done": 2, "total": 2})
    assert store.results(job_id) == [{"n": 0}]
    stranger = open_writer(store.locator, job_id, "another-run")
    assert not stranger.update(status="done")


def test_a_released_job_is_queued_again_and_continues_after_its_last_result(store):
    job_id = store.create("sudoku", "solve", REQUEST)
    store.claim_next("run-1", "w", 30)
    open_writer(store.locator, job_id, "run-1").append([(0, {"n": 0})], {"done": 1, "total": 2})
    assert store.release(job_id, "run-1", "requeued: its worker stopped")
    assert store.get(job_id)["status"] == "queued"
    assert store.claim_next("run-2", "w2", 30) == job_id
    assert open_writer(store.locator, job_id, "run-2").done() == 1


COUNT_REQUEST = {"kind": "binairo", "action": "count_grids", "size": "6"}


def test_a_count_jobs_checkpoint_lines_are_kept_once_per_cube_while_the_job_is_its_own(store):
    job_id = store.create("binairo", "count_grids", COUNT_REQUEST)
    store.claim_next("run-1", "w", 30)
    writer = open_writer(store.locator, job_id, "run-1")
    assert writer.checkpoint_lines() == {}
    assert writer.save_checkpoint_lines({-1: '{"rows": 6}', 0: '{"cube": 0, "count": 5}'})
    assert writer.save_checkpoint_lines({0: '{"cube": 0, "count": 5}', 3: '{"cube": 3, "count": 1}'})
    assert writer.checkpoint_lines() == {
        -1: '{"rows": 6}',
        0: '{"cube": 0, "count": 5}',
        3: '{"cube": 3, "count": 1}',
    }
    # requeued and claimed by another run, on another machine: the lines are there
    assert store.release(job_id, "run-1", "requeued")
    assert not writer.save_checkpoint_lines({4: '{"cube": 4, "count": 2}'})  # no longer ours
    store.claim_next("run-2", "w2", 30)
    assert len(open_writer(store.locator, job_id, "run-2").checkpoint_lines()) == 3
    store.finish(job_id, "done")
    assert store.delete(job_id)
    assert open_writer(store.locator, job_id, "run-2").checkpoint_lines() == {}


def test_a_count_resumed_on_another_machine_starts_from_the_cubes_finished_on_the_first(store, tmp_path):
    """Each machine keeps its checkpoint file; the store carries the cubes between them."""
    job_id = store.create("binairo", "count_grids", COUNT_REQUEST)
    store.claim_next("run-1", "w1", 30)
    first = CheckpointMirror(open_writer(store.locator, job_id, "run-1"), str(tmp_path / "a" / "job.jsonl"))
    assert first.restore() == 0
    stopped = count_grids(8, 8, jobs=1, checkpoint=str(first.path), stop_after=40)
    first.push(now=True)
    assert (stopped.complete, stopped.cubes_done) == (False, 40)

    store.release(job_id, "run-1", "requeued: its worker stopped renewing its lease")
    store.claim_next("run-2", "w2", 30)
    second = CheckpointMirror(open_writer(store.locator, job_id, "run-2"), str(tmp_path / "b" / "job.jsonl"))
    assert second.restore() == 40
    progress: list[int] = []
    resumed = count_grids(
        8, 8, jobs=1, checkpoint=str(second.path), on_progress=lambda done, _: progress.append(done)
    )
    assert progress[0] == 40  # the cubes of the first machine are not counted again
    assert len(progress) == 1 + resumed.cubes - 40
    assert resumed.count == count_grids(8, 8, jobs=1).count


def test_after_a_restart_a_local_store_settles_running_jobs_and_a_shared_one_leaves_them(store):
    job_id = store.create("sudoku", "solve", REQUEST)
    store.claim_next("run-1", "w", 30)
    settled = store.recover(resume=False)
    if store.shared:  # perhaps another worker's: its lease decides
        assert settled == 0 and store.get(job_id)["status"] == "running"
    else:
        assert settled == 1 and store.get(job_id)["status"] == "interrupted"


def test_leases_are_renewed_by_their_worker_and_expired_ones_requeued(store):
    job_id = store.create("sudoku", "solve", REQUEST)
    store.claim_next("run-1", "worker-a", 0.5)
    assert store.renew("worker-a", ["run-1"], 0.5) == {"run-1"}
    if not store.shared:  # one server runs a file's jobs: no leases to keep
        assert store.requeue_expired() == 0
        return
    assert store.renew("worker-b", ["run-1"], 0.5) == set()  # not its job
    assert store.requeue_expired() == 0
    time.sleep(0.7)
    assert store.requeue_expired() == 1
    job = store.get(job_id)
    assert job["status"] == "queued" and "lease" in job["message"]
    assert store.renew("worker-a", ["run-1"], 0.5) == set()  # its process is to stop


def test_a_shared_store_lists_the_workers_that_beat(store):
    worker = {
        "id": "worker-a",
        "role": "worker",
        "host": "here",
        "pid": 1,
        "slots": 2,
        "running": 1,
        "lease_seconds": 30.0,
        "started": time.time(),
    }
    store.heartbeat(worker)
    seen = store.workers()
    if not store.shared:
        assert seen == []
        return
    assert [(w["id"], w["slots"], w["running"], w["alive"]) for w in seen] == [("worker-a", 2, 1, True)]
    store.forget_worker("worker-a")
    assert store.workers() == []


def test_a_database_of_a_newer_schema_is_refused_with_a_clear_error(db):
    opened = open_store(db)
    opened._exec("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    opened.close()
    with pytest.raises(SchemaTooNew, match=f"schema version {SCHEMA_VERSION + 1}, newer than"):
        open_store(db)
    assert "upgrade mindgames" in (store_problem(db) or "")


def test_a_sqlite_database_of_before_schema_versions_is_migrated_keeping_its_jobs(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(
        """CREATE TABLE jobs (id TEXT PRIMARY KEY, kind TEXT NOT NULL, action TEXT NOT NULL,
        request TEXT NOT NULL, status TEXT NOT NULL, run TEXT, progress TEXT NOT NULL DEFAULT '{}',
        result TEXT, error TEXT, message TEXT, created REAL NOT NULL, started REAL, finished REAL);
        CREATE TABLE job_results (job TEXT NOT NULL, idx INTEGER NOT NULL, record TEXT NOT NULL,
        PRIMARY KEY (job, idx));
        INSERT INTO jobs (id, kind, action, request, status, created, finished)
        VALUES ('old', 'sudoku', 'solve', '{}', 'done', 1.0, 2.0);"""
    )
    conn.commit()
    conn.close()
    store = JobStore(str(path))
    assert store.schema_version() == SCHEMA_VERSION
    assert store.get("old")["status"] == "done"
    store.close()


def test_an_unreachable_postgresql_database_is_a_one_line_problem(tmp_path):
    problem = store_problem(f"postgresql://nobody:secret@/jobs?host={tmp_path}&port=1")
    assert problem is not None and "\n" not in problem
    assert "secret" not in problem


def test_without_psycopg_a_postgresql_store_is_a_one_line_error_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg fails as if not installed
    problem = store_problem("postgresql://mindgames@/jobs")
    assert problem is not None and "\n" not in problem
    assert "pip install 'psycopg[binary]'" in problem
