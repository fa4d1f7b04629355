"""Long work as jobs: kept in SQLite, each run in its own process.

A job row holds its request, its status (``queued`` | ``running`` | ``done`` |
``failed`` | ``cancelled`` | ``interrupted``) and its progress; each result is a
row of ``job_results``, appended by the job's process as it goes (committed at
least every 0.2 s), so what was finished is not lost if the server dies.  The
process's writes are guarded by a run token, so a process orphaned by a killed
server cannot overwrite what the restarted server decided.  On start the server marks the jobs it finds
``running`` as ``interrupted`` (keeping their results), or, with
``resume_jobs``, queues them again to continue after their last result.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from mindgames.models.processes import exit_with_parent

from .kinds import COUNT_GRIDS, Answerer, TaskError, execute, grid_kind, task_size
from .settings import cap_memory, child_command, child_cwd, child_env

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    action TEXT NOT NULL,
    request TEXT NOT NULL,
    status TEXT NOT NULL,
    run TEXT,
    progress TEXT NOT NULL DEFAULT '{}',
    result TEXT,
    error TEXT,
    message TEXT,
    created REAL NOT NULL,
    started REAL,
    finished REAL
);
CREATE INDEX IF NOT EXISTS jobs_status ON jobs (status, created);
CREATE TABLE IF NOT EXISTS job_results (
    job TEXT NOT NULL,
    idx INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (job, idx)
);
"""
ACTIVE = ("queued", "running")
CHECKPOINT_SUFFIX = ".checkpoint.jsonl"


def checkpoint_path(db: str, job_id: str) -> str:
    """Where a count_grids job keeps its finished parts, so a resumed job skips them."""
    return f"{db}.{job_id}{CHECKPOINT_SUFFIX}"


def remove_checkpoint(db: str, job_id: str) -> None:
    try:
        os.remove(checkpoint_path(db, job_id))
    except OSError:
        pass


def connect(path: str) -> sqlite3.Connection:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.executescript(SCHEMA)
    return conn


def store_problem(path: str, wait_seconds: float = 5.0) -> str | None:
    """What keeps ``path`` from serving as the jobs database, in one line, or None.

    Asked before the server says it is serving, so that a database that is corrupt,
    read-only, in a read-only folder or locked by another process is a clear error at
    start (exit 2), not a traceback after "serving" or 500s later."""
    where = Path(path)
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return f"the jobs database {path}: cannot create its folder ({error.strerror})"
    if where.exists() and not os.access(where, os.R_OK | os.W_OK):
        return f"the jobs database {path} is not readable and writable by this user"
    if not os.access(where.parent, os.W_OK | os.X_OK):
        return f"the jobs database {path}: its folder is read-only (SQLite writes its journal there)"
    try:
        conn = sqlite3.connect(path, timeout=wait_seconds, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(SCHEMA)
            conn.execute("BEGIN IMMEDIATE")  # a write lock can be had
            conn.execute("ROLLBACK")
        finally:
            conn.close()
    except sqlite3.Error as error:
        reason = str(error)
        if "locked" in reason or "busy" in reason:
            reason += f" (another process holds it for more than {wait_seconds:g} s)"
        return f"the jobs database {path} cannot be used: {reason}"
    return None


class JobStore:
    """The jobs table, used from the API process (one connection, one lock)."""

    def __init__(self, path: str):
        self.path = os.path.abspath(path)  # job processes start in another directory
        self.conn = connect(path)
        self.lock = threading.Lock()

    def close(self) -> None:
        self.conn.close()

    def _exec(self, sql: str, args: tuple = ()) -> sqlite3.Cursor:
        with self.lock:
            return self.conn.execute(sql, args)

    def create(self, kind: str, action: str, request: dict) -> str:
        job_id = uuid.uuid4().hex[:16]
        total = None if request.get("action") == COUNT_GRIDS else task_size(request) or None
        self._exec(
            "INSERT INTO jobs (id, kind, action, request, status, progress, created) VALUES (?,?,?,?,?,?,?)",
            (
                job_id,
                kind,
                action,
                json.dumps(request),
                "queued",
                json.dumps({"done": 0, "total": total}),
                time.time(),
            ),
        )
        return job_id

    def active_count(self) -> int:
        return self._exec("SELECT COUNT(*) FROM jobs WHERE status IN ('queued','running')").fetchone()[0]

    def get(self, job_id: str, with_results: bool = True) -> dict | None:
        row = self._exec(
            "SELECT id, kind, action, status, progress, result, error, message, created, "
            "started, finished FROM jobs WHERE id = ?",
            (job_id,),
        ).fetchone()
        if row is None:
            return None
        keys = (
            "id",
            "kind",
            "action",
            "status",
            "progress",
            "result",
            "error",
            "message",
            "created",
            "started",
            "finished",
        )
        job = dict(zip(keys, row))
        job["progress"] = json.loads(job["progress"])
        job["results"] = self.results(job_id) if with_results else None
        job["result"] = json.loads(job["result"]) if job["result"] else None
        return job

    def results(self, job_id: str) -> list[dict]:
        rows = self._exec("SELECT record FROM job_results WHERE job = ? ORDER BY idx", (job_id,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def list(self, limit: int = 50) -> list[dict]:
        rows = self._exec("SELECT id FROM jobs ORDER BY created DESC LIMIT ?", (limit,)).fetchall()
        return [self.get(r[0], with_results=False) for r in rows]

    def request(self, job_id: str) -> dict:
        return json.loads(self._exec("SELECT request FROM jobs WHERE id = ?", (job_id,)).fetchone()[0])

    def next_queued(self) -> str | None:
        row = self._exec("SELECT id FROM jobs WHERE status = 'queued' ORDER BY created LIMIT 1").fetchone()
        return row[0] if row else None

    def claim(self, job_id: str, run: str) -> bool:
        cursor = self._exec(
            "UPDATE jobs SET status='running', run=?, started=COALESCE(started, ?) "
            "WHERE id=? AND status='queued'",
            (run, time.time(), job_id),
        )
        return cursor.rowcount == 1

    def finish(
        self,
        job_id: str,
        status: str,
        from_status: tuple[str, ...] = ACTIVE,
        error: str | None = None,
        message: str | None = None,
    ) -> bool:
        marks = ",".join("?" * len(from_status))
        cursor = self._exec(
            f"UPDATE jobs SET status=?, run=NULL, finished=?, error=COALESCE(?, error), "
            f"message=COALESCE(?, message) WHERE id=? AND status IN ({marks})",
            (status, time.time(), error, message, job_id, *from_status),
        )
        return cursor.rowcount == 1

    def delete(self, job_id: str) -> bool:
        """Remove a finished job, its results and its checkpoint file."""
        with self.lock, self.conn:
            cursor = self.conn.execute(
                "DELETE FROM jobs WHERE id=? AND status NOT IN ('queued','running')", (job_id,)
            )
            if cursor.rowcount:
                self.conn.execute("DELETE FROM job_results WHERE job=?", (job_id,))
        remove_checkpoint(self.path, job_id)
        return cursor.rowcount == 1

    def expire(self, days: float) -> int:
        """Delete the jobs that finished more than ``days`` ago (retention_days)."""
        if days <= 0:
            return 0
        rows = self._exec(
            "SELECT id FROM jobs WHERE status NOT IN ('queued','running') AND finished < ?",
            (time.time() - days * 86400,),
        ).fetchall()
        return sum(self.delete(row[0]) for row in rows)

    def sweep_checkpoints(self) -> None:
        """Remove the checkpoint files of jobs that will not continue (finished, deleted)."""
        folder, prefix = os.path.split(self.path)
        try:
            names = os.listdir(folder or ".")
        except OSError:
            return
        for name in names:
            if name.startswith(prefix + ".") and name.endswith(CHECKPOINT_SUFFIX):
                job_id = name[len(prefix) + 1 : -len(CHECKPOINT_SUFFIX)]
                row = self._exec("SELECT status FROM jobs WHERE id=?", (job_id,)).fetchone()
                if row is None or row[0] not in ACTIVE:
                    remove_checkpoint(self.path, job_id)

    def recover(self, resume: bool) -> int:
        """After a restart: jobs left ``running`` by a server that died."""
        if resume:
            cursor = self._exec(
                "UPDATE jobs SET status='queued', run=NULL, "
                "message='resumed after a server restart' WHERE status='running'"
            )
        else:
            cursor = self._exec(
                "UPDATE jobs SET status='interrupted', run=NULL, finished=?, "
                "message='the server stopped while this job ran; the results found so far are kept' "
                "WHERE status='running'",
                (time.time(),),
            )
        return cursor.rowcount


# ---------------------------------------------------------------------------
# The job process
# ---------------------------------------------------------------------------
class _Writer:
    """The job process's guarded writes: only while the row still belongs to this run."""

    def __init__(self, path: str, job_id: str, run: str):
        self.conn = connect(path)
        self.job_id, self.run = job_id, run

    def update(self, **fields: Any) -> bool:
        sets = ", ".join(f"{key}=?" for key in fields)
        values = [json.dumps(v) if key in ("progress", "result") else v for key, v in fields.items()]
        cursor = self.conn.execute(
            f"UPDATE jobs SET {sets} WHERE id=? AND run=? AND status='running'",
            (*values, self.job_id, self.run),
        )
        return cursor.rowcount == 1

    def append(self, records: list[tuple[int, dict]], progress: dict) -> bool:
        """Add results and the progress in one transaction, if the job is still ours."""
        with self.conn:  # BEGIN ... COMMIT
            self.conn.execute("BEGIN IMMEDIATE")
            if not self.update(progress=progress):
                self.conn.execute("ROLLBACK")
                return False
            self.conn.executemany(
                "INSERT OR REPLACE INTO job_results (job, idx, record) VALUES (?, ?, ?)",
                [(self.job_id, index, json.dumps(record)) for index, record in records],
            )
        return True


def job_main(path: str, job_id: str, run: str, parent: int, memory_mb: int = 0) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    cap_memory(memory_mb)  # as the solver workers: a job too big for the machine fails alone
    exit_with_parent(parent)  # the server gone (even by SIGKILL): this job stops
    writer = _Writer(path, job_id, run)
    row = writer.conn.execute("SELECT request FROM jobs WHERE id=?", (job_id,)).fetchone()
    request = json.loads(row[0])
    done = writer.conn.execute("SELECT COUNT(*) FROM job_results WHERE job=?", (job_id,)).fetchone()[0]
    try:
        if request.get("action") == COUNT_GRIDS:
            _count_grids(writer, request, path)
        else:
            _batch(writer, request, done)
    except TaskError as error:
        writer.update(status="failed", error=error.message, finished=time.time(), run=None)
    except MemoryError:
        writer.update(
            status="failed",
            finished=time.time(),
            run=None,
            error=f"out of memory: the job's process reached its memory cap "
            f"({memory_mb} MB, --job-memory-mb); the results so far are kept",
        )
    except Exception as error:  # a library bug: the job fails, saying why
        writer.update(
            status="failed", error=f"{type(error).__name__}: {error}", finished=time.time(), run=None
        )


def _batch(writer: _Writer, request: dict, done: int) -> None:
    """Answer the puzzles after the first ``done`` (already answered before a restart)."""
    progress = {"done": done, "total": task_size(request)}
    pending: list[tuple[int, dict]] = []
    last = [time.monotonic(), 0.0]  # last results flush, last count progress write

    def flush() -> None:
        if not writer.append(pending, progress):
            raise _NotOurs()
        pending.clear()
        last[0] = time.monotonic()

    def emit(index: int, record: dict) -> None:
        pending.append((index, record))
        progress.update(done=progress["done"] + 1, solutions=None)
        if time.monotonic() - last[0] >= 0.2:
            flush()

    def counted(n: int) -> None:  # inside a count: how many solutions so far, twice a second
        now = time.monotonic()
        if now - last[1] >= 0.5:
            last[1] = now
            progress.update(solutions=n, limit=request.get("limit"))
            flush()

    try:
        execute(
            request,
            emit,
            Answerer(),
            start=done,
            fail_on_memory=True,
            on_count=counted if request["action"] == "count" else None,
        )
        flush()
    except _NotOurs:
        return  # cancelled, or the server that started us is gone
    except MemoryError:
        pending.clear()
        try:
            flush()  # keep the progress of what was answered
        except _NotOurs:
            return
        raise
    writer.update(status="done", finished=time.time(), run=None)


class _NotOurs(Exception):
    pass


def _count_grids(writer: _Writer, request: dict, path: str) -> None:
    """Every grid of a variant, counted by the kind (``GridKind.count_all``), two parts
    recounted by a second method as the command line does."""
    from mindgames.models.errors import CrossCheckFailed, PuzzleError

    kind = grid_kind(request["kind"])
    if kind is None:
        raise TaskError(404, f"no grid kind {request['kind']!r}")
    options = {o.name: request[o.name] for o in kind.count_all_options if request.get(o.name) is not None}
    checkpoint = checkpoint_path(path, writer.job_id)  # so a resumed job keeps its cubes
    last = [0.0]

    def on_progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.3 or done == total:
            last[0] = now
            writer.update(progress={"done": done, "total": total, "unit": "cubes"})

    try:
        result = kind.count_all(
            options,
            request.get("method"),
            jobs=1,
            checkpoint=checkpoint,
            on_progress=on_progress,
            cross_check=2,
        )
    except PuzzleError as error:
        raise TaskError(422, str(error)) from None
    except CrossCheckFailed as error:  # a bug: the count is not to be trusted, and the job says so
        raise TaskError(500, f"cross-check failed: {error}") from None
    record = result.to_json()
    record["checkpoint"] = None
    writer.update(result=record, status="done", finished=time.time(), run=None)
    remove_checkpoint(path, writer.job_id)


# ---------------------------------------------------------------------------
# The runner, in the API process
# ---------------------------------------------------------------------------
class JobRunner:
    """Starts queued jobs (at most ``workers`` at once), stops those past their time
    limit or cancelled, and notices processes that died."""

    SWEEP_SECONDS = 60.0  # how often finished jobs past retention_days are deleted

    def __init__(
        self,
        store: JobStore,
        workers: int,
        max_seconds: float,
        memory_mb: int = 0,
        retention_days: float = 0.0,
    ):
        self.store = store
        self.workers = workers
        self.max_seconds = max_seconds
        self.memory_mb = memory_mb
        self.retention_days = retention_days
        self.swept = 0.0
        self.running: dict[str, tuple[Any, float]] = {}
        self.wake = asyncio.Event()
        self.task: asyncio.Task | None = None

    async def start(self) -> None:
        self.task = asyncio.create_task(self._loop())

    async def close(self) -> None:
        if self.task:
            self.task.cancel()
        for job_id, (process, _) in list(self.running.items()):
            _stop(process)
            self.store.finish(
                job_id,
                "interrupted",
                ("running",),
                message="the server stopped while this job ran; the results found so far are kept",
            )
        self.running.clear()
        self.store.sweep_checkpoints()

    def poke(self) -> None:
        self.wake.set()

    def cancel(self, job_id: str) -> bool:
        """Cancel a queued or running job (its results so far are kept)."""
        entry = self.running.pop(job_id, None)
        done = self.store.finish(job_id, "cancelled", message="cancelled")
        if entry is not None:
            _stop(entry[0])
        remove_checkpoint(self.store.path, job_id)
        return done

    async def _loop(self) -> None:
        while True:
            try:
                self._reap()
                self._launch()
                self._sweep()
            except Exception as error:  # keep the runner alive whatever happens
                print(f"mindgames: job runner: {type(error).__name__}: {error}", flush=True)
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), 0.2)
            except asyncio.TimeoutError:
                pass

    def _sweep(self) -> None:
        now = time.monotonic()
        every = min(self.SWEEP_SECONDS, self.retention_days * 86400 / 2 or self.SWEEP_SECONDS)
        if now - self.swept >= every:
            self.swept = now
            self.store.expire(self.retention_days)
            self.store.sweep_checkpoints()

    def _reap(self) -> None:
        now = time.monotonic()
        for job_id, (process, started) in list(self.running.items()):
            if process.poll() is not None:
                del self.running[job_id]
                hint = (
                    f"; it may have reached its memory cap ({self.memory_mb} MB, --job-memory-mb)"
                    if self.memory_mb and process.returncode not in (0, 3)
                    else ""
                )
                self.store.finish(
                    job_id,
                    "failed",
                    ("running",),
                    error=f"the job's process died (exit code {process.returncode}{hint})",
                )
                remove_checkpoint(self.store.path, job_id)
            elif now - started > self.max_seconds:
                _stop(process)
                del self.running[job_id]
                self.store.finish(
                    job_id,
                    "failed",
                    ("running",),
                    error=f"stopped: the job ran longer than max_job_seconds "
                    f"({self.max_seconds:g} s); the results so far are kept",
                )
                remove_checkpoint(self.store.path, job_id)

    def _launch(self) -> None:
        while len(self.running) < self.workers:
            job_id = self.store.next_queued()
            if job_id is None:
                return
            run = uuid.uuid4().hex
            if not self.store.claim(job_id, run):
                continue
            process = subprocess.Popen(
                child_command(
                    "mindgames.service.jobs",
                    self.store.path,
                    job_id,
                    run,
                    str(os.getpid()),
                    str(self.memory_mb),
                ),
                stdin=subprocess.DEVNULL,
                env=child_env(),
                cwd=child_cwd(),
            )
            self.running[job_id] = (process, time.monotonic())


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
    try:
        process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        pass


if __name__ == "__main__":
    job_main(
        sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]) if len(sys.argv) > 5 else 0
    )
