"""Long work as jobs: kept in a job store (SQLite here; PostgreSQL in :mod:`.store_postgres`),
each run in its own process.

A job row holds its request, its status (``queued`` | ``running`` | ``done`` |
``failed`` | ``cancelled`` | ``interrupted``) and its progress; each result is a
row of ``job_results``, appended by the job's process as it goes (committed at
least every 0.2 s), so what was finished is not lost if the server dies.  The
process's writes are guarded by a run token, so a process orphaned by a killed
server cannot overwrite what the restarted server decided.  On start the server marks the jobs it finds
``running`` as ``interrupted`` (keeping their results), or, with
``resume_jobs``, queues them again to continue after their last result.  On a shared store
(PostgreSQL) a running job holds a lease its runner renews; a job whose runner vanished is
queued again when the lease expires, and continues after its last result.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from mindgames.models.errors import PuzzleError
from mindgames.models.processes import exit_with_parent

from .kinds import COUNT_GRIDS, Answerer, TaskError, execute, grid_kind, task_size
from .settings import cap_memory, child_command, child_cwd, child_env
from .store import (
    CHECKPOINT_SUFFIX,
    Exec,
    JobStoreBase,
    JobWriterBase,
    SchemaTooNew,
    StoreUnavailable,
    is_url,
    remove_checkpoint,
    worker_identity,
)
from .store import checkpoint_path as store_checkpoint_path

__all__ = [
    "CHECKPOINT_SUFFIX",
    "JobRunner",
    "JobStore",
    "StoreUnavailable",
    "checkpoint_path",
    "connect",
    "job_main",
    "store_problem",
]

T = TypeVar("T")

ACTIVE = ("queued", "running")


def checkpoint_path(db: str, job_id: str) -> str:
    """Where a count_grids job of the SQLite database ``db`` keeps its finished parts."""
    return store_checkpoint_path(db, job_id)


def connect(path: str, timeout: float = 30.0, create: bool = True) -> sqlite3.Connection:
    """A connection to the jobs database; ``create=False`` (a job process): the file must
    exist already, so that a job never makes a new, empty database where the server's was."""
    if create:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
    else:
        uri = f"{Path(path).absolute().as_uri()}?mode=rw"
        conn = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def store_problem(db: str, wait_seconds: float = 5.0) -> str | None:
    """What keeps ``db`` from serving as the jobs database, in one line, or None; the schema
    is created or migrated on the way.

    Asked before the server says it is serving, so that a database that is corrupt,
    read-only, in a read-only folder, locked by another process, unreachable or of a newer
    schema is a clear error at start (exit 2), not a traceback after "serving" or 500s later."""
    if is_url(db):
        from .store_postgres import postgres_problem

        return postgres_problem(db)
    path = db
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
        store = JobStore(path, busy_seconds=wait_seconds)
        try:
            store.conn.execute("BEGIN IMMEDIATE")  # a write lock can be had
            store.conn.execute("ROLLBACK")
        finally:
            store.close()
    except SchemaTooNew as error:
        return str(error)
    except StoreUnavailable as error:
        reason = error.message
        if error.retry:
            reason += f" (another process holds it for more than {wait_seconds:g} s)"
        return reason
    except sqlite3.Error as error:
        reason = str(error)
        if "locked" in reason or "busy" in reason:
            reason += f" (another process holds it for more than {wait_seconds:g} s)"
        return f"the jobs database {path} cannot be used: {reason}"
    return None


class JobStore(JobStoreBase):
    """The jobs in one SQLite file, used from the API process (one connection, one lock):
    the embedded default, one server running its own jobs.

    A statement waits at most ``busy_seconds`` for another process's write lock, then
    raises :class:`StoreUnavailable` (retry); so does every statement once the file is no
    longer the one opened (deleted, or replaced: the server would otherwise write to an
    unlinked file while its jobs made a new, empty one)."""

    BUSY_SECONDS = 2.0

    def __init__(self, path: str, busy_seconds: float = BUSY_SECONDS):
        self.path = os.path.abspath(path)  # job processes start in another directory
        self.where = self.locator = self.checkpoint_base = self.path
        self.conn = connect(path, timeout=busy_seconds)
        self.lock = threading.RLock()
        self.identity = _identity(self.path)
        self.migrate()

    def close(self) -> None:
        self.conn.close()

    def problem(self) -> str | None:
        if _identity(self.path) != self.identity:
            return (
                f"the jobs database {self.path} was deleted or replaced while the server ran; "
                "restart the server"
            )
        return None

    def _exec(self, sql: str, args: Sequence[Any] = ()) -> tuple[list[tuple], int]:
        lost = self.problem()
        if lost is not None:
            raise StoreUnavailable(lost, retry=False)
        with self.lock:
            try:
                cursor = self.conn.execute(sql, tuple(args))
                return cursor.fetchall(), cursor.rowcount
            except sqlite3.OperationalError as error:
                if "locked" in str(error) or "busy" in str(error):
                    raise StoreUnavailable(
                        "the jobs database is busy (another process holds its write lock); try again",
                        retry=True,
                    ) from None
                raise StoreUnavailable(f"the jobs database failed: {error}", retry=False) from None
            except sqlite3.DatabaseError as error:  # corrupt, say
                raise StoreUnavailable(f"the jobs database failed: {error}", retry=False) from None

    def _atomic(self, body: Callable[[Exec], T]) -> T:
        with self.lock:
            self._exec("BEGIN IMMEDIATE")
            try:
                value = body(lambda sql, args: self._exec(sql, args))
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
            self._exec("COMMIT")
            return value

    def next_queued(self) -> str | None:
        rows, _ = self._exec("SELECT id FROM jobs WHERE status = 'queued' ORDER BY created LIMIT 1")
        return rows[0][0] if rows else None

    def claim(self, job_id: str, run: str) -> bool:
        _, count = self._exec(
            "UPDATE jobs SET status='running', run=?, started=COALESCE(started, ?) "
            "WHERE id=? AND status='queued'",
            (run, time.time(), job_id),
        )
        return count == 1

    def claim_next(self, run: str, worker: str, lease_seconds: float) -> str | None:
        # One server runs this file's jobs: the oldest queued one is free to take.
        while True:
            job_id = self.next_queued()
            if job_id is None or self.claim(job_id, run):
                return job_id


def _identity(path: str) -> tuple[int, int] | None:
    """The file at ``path`` (device, inode), or None when there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


# ---------------------------------------------------------------------------
# The job process
# ---------------------------------------------------------------------------
class _Writer(JobWriterBase):
    """A job process's guarded writes to the SQLite file."""

    def __init__(self, path: str, job_id: str, run: str):
        self.conn = connect(path, create=False)
        self.job_id, self.run, self.checkpoint_base = job_id, run, path

    def update(self, **fields: Any) -> bool:
        sets = ", ".join(f"{key}=?" for key in fields)
        values = [json.dumps(v) if key in ("progress", "result") else v for key, v in fields.items()]
        cursor = self.conn.execute(
            f"UPDATE jobs SET {sets} WHERE id=? AND run=? AND status='running'",
            (*values, self.job_id, self.run),
        )
        return cursor.rowcount == 1

    def append(self, records: list[tuple[int, dict]], progress: dict) -> bool:
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

    def request(self) -> dict | None:
        row = self.conn.execute("SELECT request FROM jobs WHERE id=?", (self.job_id,)).fetchone()
        return None if row is None else json.loads(row[0])

    def done(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM job_results WHERE job=?", (self.job_id,)).fetchone()[0]

    def checkpoint_lines(self) -> dict[int, str]:
        rows = self.conn.execute("SELECT cube, line FROM job_checkpoints WHERE job=?", (self.job_id,))
        return dict(rows.fetchall())

    def save_checkpoint_lines(self, lines: dict[int, str]) -> bool:
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            still_ours = self.conn.execute(
                "SELECT 1 FROM jobs WHERE id=? AND run=? AND status='running'", (self.job_id, self.run)
            ).fetchone()
            if still_ours is None:
                self.conn.execute("ROLLBACK")
                return False
            self.conn.executemany(
                "INSERT OR IGNORE INTO job_checkpoints (job, cube, line) VALUES (?, ?, ?)",
                [(self.job_id, cube, line) for cube, line in lines.items()],
            )
        return True

    def drop_checkpoint_lines(self) -> None:
        self.conn.execute("DELETE FROM job_checkpoints WHERE job=?", (self.job_id,))


DB_VARIABLE = "MINDGAMES_JOB_DB"  # a database URL reaches the job process here, not on its command line


def open_writer(db: str, job_id: str, run: str) -> JobWriterBase:
    if is_url(db):
        from .store_postgres import PostgresWriter

        return PostgresWriter(db, job_id, run)
    return _Writer(db, job_id, run)


def job_main(db: str, job_id: str, run: str, parent: int, memory_mb: int = 0) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    cap_memory(memory_mb)  # as the solver workers: a job too big for the machine fails alone
    # The server gone (even by SIGKILL): this job stops.  Watched by a thread only: the
    # kernel's parent-death signal follows the thread that started us, and the server
    # starts jobs from its job runner's thread.
    exit_with_parent(parent, kernel_signal=False)
    if db == "-":
        db = os.environ.get(DB_VARIABLE, "")
    try:
        writer = open_writer(db, job_id, run)
        request = writer.request()
        done = writer.done()
    except (sqlite3.Error, StoreUnavailable) as error:  # the database is gone or broken: nothing to report to
        reason = error.message if isinstance(error, StoreUnavailable) else str(error)
        where = "at its URL" if is_url(db) else db
        print(f"mindgames: job {job_id}: the jobs database {where} cannot be used: {reason}", file=sys.stderr)
        sys.exit(4)
    if request is None:  # deleted before it started
        return
    try:
        if request.get("action") == COUNT_GRIDS:
            _count_grids(writer, request)
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
    except PuzzleError as error:  # what is wrong with the request, in the library's words
        writer.update(status="failed", error=str(error), finished=time.time(), run=None)
    except Exception as error:  # a library bug: the job fails, saying why
        writer.update(
            status="failed", error=f"{type(error).__name__}: {error}", finished=time.time(), run=None
        )


def _batch(writer: JobWriterBase, request: dict, done: int) -> None:
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
    writer.update(status="done", finished=time.time(), run=None, worker=None, lease_until=None)


class _NotOurs(Exception):
    pass


def _count_grids(writer: JobWriterBase, request: dict) -> None:
    """Every grid of a variant, counted by the kind (``GridKind.count_all``), two parts
    recounted by a second method as the command line does."""
    from mindgames.models.errors import CrossCheckFailed, PuzzleError

    kind = grid_kind(request["kind"])
    if kind is None:
        raise TaskError(404, f"no grid kind {request['kind']!r}")
    options = {o.name: request[o.name] for o in kind.count_all_options if request.get(o.name) is not None}
    checkpoint = store_checkpoint_path(writer.checkpoint_base, writer.job_id)  # a resumed job keeps its cubes
    mirror = CheckpointMirror(writer, checkpoint)
    resumed = mirror.restore()
    last = [0.0]

    def on_progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.3 or done == total:
            last[0] = now
            writer.update(progress={"done": done, "total": total, "unit": "cubes", "resumed": resumed})
        mirror.push(now=done == total)

    try:
        result = kind.count_all(
            options,
            request.get("method"),
            jobs=1,
            checkpoint=checkpoint,
            on_progress=on_progress,
        )
    except PuzzleError as error:
        raise TaskError(422, str(error)) from None
    except CrossCheckFailed as error:  # a bug: the count is not to be trusted, and the job says so
        raise TaskError(500, f"cross-check failed: {error}") from None
    mirror.push(now=True)  # a count stopped short keeps every cube it finished
    record = result.to_json()
    record["checkpoint"] = None
    writer.update(result=record, status="done", finished=time.time(), run=None, worker=None, lease_until=None)
    if result.complete:
        writer.drop_checkpoint_lines()
    remove_checkpoint(writer.checkpoint_base, writer.job_id)


class CheckpointMirror:
    """A count_grids job's checkpoint kept in the job store as well as in its file.

    The count appends each finished cube to a file on the machine that runs it; a job
    resumed on another machine (its worker vanished, its lease expired) would find no file
    there and count every cube again.  So the file's lines go to the store too (every
    :data:`PUSH_SECONDS`, and at the end), and a job starts from the union of what the
    store and the file hold.  Lines are keyed by cube (the header: -1): saving one twice
    keeps it once."""

    PUSH_SECONDS = 2.0

    def __init__(self, writer: JobWriterBase, path: str):
        self.writer, self.path = writer, Path(path)
        self.saved: set[int] = set()
        self.offset = 0  # how much of the file has been read
        self.pushed_at = 0.0

    def restore(self) -> int:
        """Write into the file the cubes only the store has; send the store those only the
        file has.  How many cubes were finished before this run."""
        stored = self.writer.checkpoint_lines()
        local = _checkpoint_lines(self.path.read_bytes() if self.path.exists() else b"", first=True)
        merged = local | stored
        self.path.parent.mkdir(parents=True, exist_ok=True)  # the count writes its file here
        if -1 in merged and not set(stored) <= set(local):
            body = "".join(merged[cube] + "\n" for cube in sorted(merged))  # the header (-1) first
            temporary = self.path.with_name(self.path.name + ".restoring")
            temporary.write_text(body)
            os.replace(temporary, self.path)
        self.saved = set(stored)
        self.push(now=True)
        return sum(1 for cube in merged if cube >= 0)

    def push(self, now: bool = False) -> None:
        """Send the store the file's lines it lacks: ``now``, or if the last push is old enough."""
        clock = time.monotonic()
        if not now and clock - self.pushed_at < self.PUSH_SECONDS:
            return
        self.pushed_at = clock
        try:
            with self.path.open("rb") as handle:
                handle.seek(self.offset)
                text = handle.read()
        except OSError:
            return  # no file yet: the count has not started it
        complete = text[: text.rfind(b"\n") + 1]
        lines = _checkpoint_lines(complete, first=self.offset == 0)
        self.offset += len(complete)
        new = {cube: line for cube, line in lines.items() if cube not in self.saved}
        if new and self.writer.save_checkpoint_lines(new):
            self.saved.update(new)


def _checkpoint_lines(text: bytes, first: bool) -> dict[int, str]:
    """The complete lines of a checkpoint's ``text``, by cube (its ``first`` line, the
    header, as -1); a line cut short or unreadable ends them (the count redoes that cube)."""
    lines: dict[int, str] = {}
    for number, raw in enumerate(text.splitlines(keepends=True)):
        if not raw.endswith(b"\n"):
            break
        try:
            line = raw[:-1].decode()
            entry = json.loads(line)
        except (UnicodeDecodeError, json.JSONDecodeError):
            break
        if first and number == 0:
            lines[-1] = line
        elif isinstance(entry, dict) and isinstance(entry.get("cube"), int):
            lines[entry["cube"]] = line
        else:
            break
    return lines


# ---------------------------------------------------------------------------
# The runner: in the API process, or in ``mindgames worker``
# ---------------------------------------------------------------------------
class JobRunner:
    """Starts queued jobs (at most ``workers`` at once), stops those past their time
    limit or cancelled, and notices processes that died.

    On a shared store it also renews the leases of its jobs (a job no longer ours, cancelled
    or requeued elsewhere, has its process stopped), queues again the jobs whose lease
    expired (their runner vanished), and records a heartbeat (``GET /v1/workers``)."""

    SWEEP_SECONDS = 60.0  # how often finished jobs past retention_days are deleted

    def __init__(
        self,
        store: JobStoreBase,
        workers: int,
        max_seconds: float,
        memory_mb: int = 0,
        retention_days: float = 0.0,
        lease_seconds: float = 30.0,
        role: str = "server",
    ):
        self.store = store
        self.workers = workers
        self.max_seconds = max_seconds
        self.memory_mb = memory_mb
        self.retention_days = retention_days
        self.lease_seconds = lease_seconds
        self.identity = worker_identity(role)
        self.role = role
        self.born = time.time()
        self.beat = 0.0  # when leases were last renewed and the heartbeat written
        self.swept = 0.0
        self.running: dict[str, tuple[Any, float, str]] = {}  # job id: process, start, run
        self.wake = asyncio.Event()
        self.task: asyncio.Task | None = None
        # Every step of the runner (database calls, starting and stopping processes) runs in
        # this one thread: never on the event loop, and never two at once.
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="mindgames-jobs")
        self.unavailable: str | None = None  # why the last step could not reach the store
        self.seen: list[dict] = []  # the workers of the store, as of the last heartbeat

    async def start(self) -> None:
        self.task = asyncio.create_task(self._loop())

    async def call(self, step: Callable[..., T], *args: Any) -> T:
        """``step(*args)`` in the runner's thread (as a route cancels a job)."""
        return await asyncio.get_running_loop().run_in_executor(self.thread, step, *args)

    async def close(self) -> None:
        if self.task:
            self.task.cancel()
        try:
            await self.call(self._stop_all)
        except StoreUnavailable as error:
            print(f"mindgames: job runner: {error.message}", flush=True)
        self.thread.shutdown(wait=True)

    def _stop_all(self) -> None:
        for job_id, (process, _, run) in list(self.running.items()):
            _stop(process)
            if self.store.shared:  # another worker continues it after its last result
                self.store.release(job_id, run, f"requeued: its {self.role} stopped")
            else:
                self.store.finish(
                    job_id,
                    "interrupted",
                    ("running",),
                    message="the server stopped while this job ran; the results found so far are kept",
                )
        self.running.clear()
        if self.store.shared:
            self.store.forget_worker(self.identity)
        self.store.sweep_checkpoints()

    def poke(self) -> None:
        self.wake.set()

    def cancel(self, job_id: str) -> bool:
        """Cancel a queued or running job (its results so far are kept); a job another
        worker runs stops at its next write, or when that worker renews its lease."""
        entry = self.running.pop(job_id, None)
        done = self.store.finish(job_id, "cancelled", message="cancelled")
        if entry is not None:
            _stop(entry[0])
        remove_checkpoint(self.store.checkpoint_base, job_id)
        return done

    def me(self) -> dict:
        """This runner as ``GET /v1/workers`` shows it."""
        now = time.time()
        return {
            "id": self.identity,
            "role": self.role,
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "slots": self.workers,
            "running": len(self.running),
            "lease_seconds": self.lease_seconds,
            "started": self.born,
            "heartbeat": now,
        }

    def workers_seen(self) -> list[dict]:
        """Every runner of the store (a shared one), or this one alone."""
        if not self.store.shared:
            return [dict(self.me(), age=0.0, alive=True)]
        return self.store.workers()

    def _step(self) -> None:
        self._reap()
        if self.store.shared:
            self._lease()
        self._launch()
        self._sweep()

    async def _loop(self) -> None:
        while True:
            try:
                await self.call(self._step)
                self.unavailable = None
            except StoreUnavailable as error:  # busy: the next step tries again; lost: /healthz says
                if error.message != self.unavailable:
                    print(f"mindgames: job runner: {error.message}", flush=True)
                self.unavailable = error.message
            except Exception as error:  # keep the runner alive whatever happens
                print(f"mindgames: job runner: {type(error).__name__}: {error}", flush=True)
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), 0.2)
            except asyncio.TimeoutError:
                pass

    def _lease(self) -> None:
        """A third of a lease after the last time: renew ours, stop those no longer ours,
        requeue the expired, and say we are alive."""
        now = time.monotonic()
        if now - self.beat < self.lease_seconds / 3:
            return
        self.beat = now
        runs = {run: job_id for job_id, (_, _, run) in self.running.items()}
        kept = self.store.renew(self.identity, list(runs), self.lease_seconds)
        for run, job_id in runs.items():
            if run not in kept:  # cancelled, deleted or requeued by another: stop its process
                process = self.running.pop(job_id)[0]
                _stop(process)
        self.store.requeue_expired()
        self.store.heartbeat(self.me())
        self.seen = self.store.workers()

    def _sweep(self) -> None:
        now = time.monotonic()
        every = min(self.SWEEP_SECONDS, self.retention_days * 86400 / 2 or self.SWEEP_SECONDS)
        if now - self.swept >= every:
            self.swept = now
            self.store.expire(self.retention_days)
            self.store.sweep_checkpoints()

    def _reap(self) -> None:
        now = time.monotonic()
        for job_id, (process, started, run) in list(self.running.items()):
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
                    run=run,
                )
                remove_checkpoint(self.store.checkpoint_base, job_id)
            elif now - started > self.max_seconds:
                _stop(process)
                del self.running[job_id]
                self.store.finish(
                    job_id,
                    "failed",
                    ("running",),
                    error=f"stopped: the job ran longer than max_job_seconds "
                    f"({self.max_seconds:g} s); the results so far are kept",
                    run=run,
                )
                remove_checkpoint(self.store.checkpoint_base, job_id)

    def _launch(self) -> None:
        while len(self.running) < self.workers:
            run = uuid.uuid4().hex
            job_id = self.store.claim_next(run, self.identity, self.lease_seconds)
            if job_id is None:
                return
            url = is_url(self.store.locator)
            env = child_env()
            if url:
                env[DB_VARIABLE] = self.store.locator
            process = subprocess.Popen(
                child_command(
                    "mindgames.service.jobs",
                    "-" if url else self.store.locator,
                    job_id,
                    run,
                    str(os.getpid()),
                    str(self.memory_mb),
                ),
                stdin=subprocess.DEVNULL,
                env=env,
                cwd=child_cwd(),
            )
            self.running[job_id] = (process, time.monotonic(), run)


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


def open_store(db: str) -> JobStoreBase:
    """The store at ``db``: a PostgreSQL URL or a SQLite file (:class:`JobStore`)."""
    if is_url(db):
        from .store_postgres import PostgresStore

        return PostgresStore(db)
    return JobStore(db)
