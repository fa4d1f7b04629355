"""The job store's one interface, whatever database holds it.

:class:`JobStoreBase` is every job operation the service, the job runner and the workers
use, written once in SQL; a store supplies only how it runs a statement (``_exec``), a
transaction (``_atomic``) and the few statements its database says differently (claiming the
next job, leases).  Two stores: SQLite (:class:`mindgames.service.jobs.JobStore`, the embedded
default: one server, its jobs run by that server) and PostgreSQL
(:class:`mindgames.service.store_postgres.PostgresStore`: shared by several API servers and
``mindgames worker`` processes; jobs are claimed with ``FOR UPDATE SKIP LOCKED`` and held by
a lease that their worker renews).

The schema is the program's: :data:`MIGRATIONS` lists its versions, applied in order on start
and recorded in the ``schema_version`` table; a database whose version is newer than the
program knows is refused (:class:`SchemaTooNew`), never used half-understood.
"""

from __future__ import annotations

import builtins
import json
import os
import socket
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .kinds import COUNT_GRIDS, task_size

T = TypeVar("T")
ACTIVE = ("queued", "running")
CHECKPOINT_SUFFIX = ".checkpoint.jsonl"

# Each version's statements; ``{real}`` is the database's floating-point type.  Version 1
# is the schema every SQLite database had before versions were recorded (hence IF NOT
# EXISTS: a database of then is at version 0 and takes version 1 as a no-op).
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE IF NOT EXISTS jobs (
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
            created {real} NOT NULL,
            started {real},
            finished {real}
        )""",
        "CREATE INDEX IF NOT EXISTS jobs_status ON jobs (status, created)",
        """CREATE TABLE IF NOT EXISTS job_results (
            job TEXT NOT NULL,
            idx INTEGER NOT NULL,
            record TEXT NOT NULL,
            PRIMARY KEY (job, idx)
        )""",
    ),
    (
        # Version 2: leases (which worker runs a job, until when) and the workers seen.
        "ALTER TABLE jobs ADD COLUMN worker TEXT",
        "ALTER TABLE jobs ADD COLUMN lease_until {real}",
        """CREATE TABLE IF NOT EXISTS workers (
            id TEXT PRIMARY KEY,
            role TEXT NOT NULL,
            host TEXT NOT NULL,
            pid INTEGER NOT NULL,
            slots INTEGER NOT NULL,
            running INTEGER NOT NULL,
            lease_seconds {real} NOT NULL,
            started {real} NOT NULL,
            heartbeat {real} NOT NULL
        )""",
    ),
    (
        # Version 3: a count_grids job's finished cubes (its checkpoint's lines, the header as
        # cube -1), so that a job resumed on another machine keeps them.
        """CREATE TABLE IF NOT EXISTS job_checkpoints (
            job TEXT NOT NULL,
            cube INTEGER NOT NULL,
            line TEXT NOT NULL,
            PRIMARY KEY (job, cube)
        )""",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


class StoreUnavailable(Exception):
    """The jobs database cannot answer now: held by another process past the wait, or not
    reachable (``retry``: try again shortly), or gone, replaced or broken (the server needs
    help).  The service answers 503 naming it, never a 500 or a frozen server."""

    def __init__(self, message: str, retry: bool):
        super().__init__(message)
        self.message, self.retry = message, retry


class SchemaTooNew(Exception):
    """The database was made by a newer mindgames: this one does not know its schema."""

    def __init__(self, where: str, found: int):
        super().__init__(
            f"the jobs database {where} has schema version {found}, newer than this mindgames "
            f"knows (up to {SCHEMA_VERSION}): upgrade mindgames, or use another database"
        )


def is_url(db: str) -> bool:
    """Whether ``db`` names a database server (``postgresql://...``) rather than a file."""
    return db.startswith(("postgresql://", "postgres://"))


def checkpoint_path(base: str, job_id: str) -> str:
    """Where a count_grids job keeps its finished parts, so a resumed job skips them."""
    return f"{base}.{job_id}{CHECKPOINT_SUFFIX}"


def remove_checkpoint(base: str, job_id: str) -> None:
    try:
        os.remove(checkpoint_path(base, job_id))
    except OSError:
        pass


def worker_identity(role: str) -> str:
    """A name for this runner, unique across machines and restarts."""
    return f"{role}@{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


Exec = Callable[[str, Sequence[Any]], tuple[list[tuple], int]]


class JobStoreBase(ABC):
    """Every job operation, written once.  ``_exec(sql, args)`` runs one statement (``?``
    placeholders) and returns its rows and row count, raising :class:`StoreUnavailable` when
    the database cannot answer.  Methods block: the service calls them in threads."""

    #: what names the database in messages
    where: str
    #: the prefix of this store's checkpoint files (``BASE.JOB.checkpoint.jsonl``)
    checkpoint_base: str
    #: several servers and workers share it: jobs are leased, and a server's start does not
    #: decide about jobs that are running (they may be another worker's)
    shared: bool = False
    #: the string that locates the database for a job's process (a path or a URL)
    locator: str

    @abstractmethod
    def _exec(self, sql: str, args: Sequence[Any] = ()) -> tuple[list[tuple], int]: ...

    @abstractmethod
    def _atomic(self, body: Callable[[Exec], T]) -> T:
        """``body(exec)`` in one transaction that holds the database's write lock."""

    @abstractmethod
    def claim_next(self, run: str, worker: str, lease_seconds: float) -> str | None:
        """Take the oldest queued job for ``run`` (its status ``running``), or None."""

    def close(self) -> None:
        """Close the store's connection."""
        return None

    def problem(self) -> str | None:
        """Why the store cannot serve, without touching the database (for /healthz), or None."""
        return None

    # -- the schema ------------------------------------------------------------------------------
    def migrate(self, real: str = "REAL") -> int:
        """Bring the schema to :data:`SCHEMA_VERSION`; the version found before."""

        def upgrade(run: Exec) -> int:
            self._lock_schema(run)
            run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", ())
            rows, _ = run("SELECT MAX(version) FROM schema_version", ())
            found = rows[0][0] or 0
            if found > SCHEMA_VERSION:
                raise SchemaTooNew(self.where, found)
            for statements in MIGRATIONS[found:]:
                for statement in statements:
                    run(statement.replace("{real}", real), ())
            if found < SCHEMA_VERSION:
                run("DELETE FROM schema_version", ())
                run("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
            return found

        return self._atomic(upgrade)

    def _lock_schema(self, run: Exec) -> None:
        """Keep two processes from migrating at once (SQLite: the transaction's write lock)."""
        return None

    def schema_version(self) -> int:
        rows, _ = self._exec("SELECT MAX(version) FROM schema_version")
        return rows[0][0] or 0

    # -- the API's operations --------------------------------------------------------------------
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
        return self._exec("SELECT COUNT(*) FROM jobs WHERE status IN ('queued','running')")[0][0][0]

    JOB_FIELDS = (
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

    def get(self, job_id: str, with_results: bool = True) -> dict | None:
        rows, _ = self._exec(f"SELECT {', '.join(self.JOB_FIELDS)} FROM jobs WHERE id = ?", (job_id,))
        if not rows:
            return None
        return self._job(rows[0], self.results(job_id) if with_results else None)

    def _job(self, row: tuple, results: list[dict] | None) -> dict:
        job = dict(zip(self.JOB_FIELDS, row))
        job["progress"] = json.loads(job["progress"])
        job["results"] = results
        job["result"] = json.loads(job["result"]) if job["result"] else None
        return job

    def results(self, job_id: str) -> list[dict]:
        rows, _ = self._exec("SELECT record FROM job_results WHERE job = ? ORDER BY idx", (job_id,))
        return [json.loads(r[0]) for r in rows]

    def list(self, limit: int = 50) -> list[dict]:
        rows, _ = self._exec(
            f"SELECT {', '.join(self.JOB_FIELDS)} FROM jobs ORDER BY created DESC LIMIT ?", (limit,)
        )
        return [self._job(row, None) for row in rows]

    def request(self, job_id: str) -> dict:
        return json.loads(self._exec("SELECT request FROM jobs WHERE id = ?", (job_id,))[0][0][0])

    def status(self, job_id: str) -> str | None:
        rows, _ = self._exec("SELECT status FROM jobs WHERE id = ?", (job_id,))
        return rows[0][0] if rows else None

    def finish(
        self,
        job_id: str,
        status: str,
        from_status: tuple[str, ...] = ACTIVE,
        error: str | None = None,
        message: str | None = None,
        run: str | None = None,
    ) -> bool:
        """Set a final ``status`` if the job is in one of ``from_status`` (and, given ``run``,
        still held by that run)."""
        marks = ",".join("?" * len(from_status))
        held = " AND run=?" if run is not None else ""
        _, count = self._exec(
            f"UPDATE jobs SET status=?, run=NULL, worker=NULL, lease_until=NULL, finished=?, "
            f"error=COALESCE(?, error), message=COALESCE(?, message) "
            f"WHERE id=? AND status IN ({marks}){held}",
            (status, time.time(), error, message, job_id, *from_status, *((run,) if run else ())),
        )
        return count == 1

    def release(self, job_id: str, run: str, message: str) -> bool:
        """Put a running job back in the queue (its worker stops): another continues it."""
        _, count = self._exec(
            "UPDATE jobs SET status='queued', run=NULL, worker=NULL, lease_until=NULL, message=? "
            "WHERE id=? AND run=? AND status='running'",
            (message, job_id, run),
        )
        return count == 1

    def delete(self, job_id: str) -> bool:
        """Remove a finished job, its results and its checkpoint file."""

        def drop(run: Exec) -> int:
            _, count = run("DELETE FROM jobs WHERE id=? AND status NOT IN ('queued','running')", (job_id,))
            if count:
                run("DELETE FROM job_results WHERE job=?", (job_id,))
                run("DELETE FROM job_checkpoints WHERE job=?", (job_id,))
            return count

        count = self._atomic(drop)
        remove_checkpoint(self.checkpoint_base, job_id)
        return count == 1

    def expire(self, days: float) -> int:
        """Delete the jobs that finished more than ``days`` ago (retention_days)."""
        if days <= 0:
            return 0
        rows, _ = self._exec(
            "SELECT id FROM jobs WHERE status NOT IN ('queued','running') AND finished < ?",
            (time.time() - days * 86400,),
        )
        return sum(self.delete(row[0]) for row in rows)

    def sweep_checkpoints(self) -> None:
        """Remove the checkpoint files of jobs that will not continue (finished, deleted)."""
        folder, prefix = os.path.split(self.checkpoint_base)
        try:
            names = os.listdir(folder or ".")
        except OSError:
            return
        for name in names:
            if name.startswith(prefix + ".") and name.endswith(CHECKPOINT_SUFFIX):
                job_id = name[len(prefix) + 1 : -len(CHECKPOINT_SUFFIX)]
                if self.status(job_id) not in ACTIVE:
                    remove_checkpoint(self.checkpoint_base, job_id)

    def recover(self, resume: bool) -> int:
        """After a restart: jobs left ``running`` by a server that died.  A shared store
        decides nothing here (they may be another worker's): their leases expire instead."""
        if self.shared:
            return 0
        if resume:
            _, count = self._exec(
                "UPDATE jobs SET status='queued', run=NULL, "
                "message='resumed after a server restart' WHERE status='running'"
            )
        else:
            _, count = self._exec(
                "UPDATE jobs SET status='interrupted', run=NULL, finished=?, "
                "message='the server stopped while this job ran; the results found so far are kept' "
                "WHERE status='running'",
                (time.time(),),
            )
        return count

    # -- leases and workers (shared stores; a local store's are no-ops) ---------------------------
    def renew(self, worker: str, runs: Sequence[str], lease_seconds: float) -> set[str]:
        """Extend the leases of ``runs``; the runs still this worker's (the others were
        cancelled, deleted or requeued: their processes are to stop)."""
        return set(runs)

    def requeue_expired(self) -> int:
        """Queue again the running jobs whose lease ran out (their worker vanished)."""
        return 0

    def heartbeat(self, worker: dict) -> None:
        """Record that ``worker`` (id, role, host, pid, slots, running, lease_seconds) is alive."""
        return None

    def forget_worker(self, worker_id: str) -> None:
        """A worker that stopped cleanly leaves the list."""
        return None

    def workers(self) -> builtins.list[dict]:  # (`list` here is the method above)
        """The workers seen, newest heartbeat first."""
        return []


# ---------------------------------------------------------------------------------------------
# What a job's process writes
# ---------------------------------------------------------------------------------------------
class JobWriterBase(ABC):
    """A job process's writes, guarded: only while the job's row still belongs to its run
    (a cancelled job, or one requeued after its lease expired, is no longer ours)."""

    job_id: str
    run: str
    checkpoint_base: str

    @abstractmethod
    def update(self, **fields: Any) -> bool: ...

    @abstractmethod
    def append(self, records: list[tuple[int, dict]], progress: dict) -> bool:
        """Add results (idempotent per index) and the progress in one transaction, if the job
        is still ours."""

    @abstractmethod
    def request(self) -> dict | None:
        """The job's request, or None when the job is gone."""

    @abstractmethod
    def done(self) -> int:
        """How many results the job has (a resumed job continues after them)."""

    @abstractmethod
    def checkpoint_lines(self) -> dict[int, str]:
        """The job's checkpoint as the store keeps it: cube -> its line (the header: -1)."""

    @abstractmethod
    def save_checkpoint_lines(self, lines: dict[int, str]) -> bool:
        """Add checkpoint lines (idempotent per cube), if the job is still ours."""

    @abstractmethod
    def drop_checkpoint_lines(self) -> None:
        """Forget the job's checkpoint (the count is finished)."""
