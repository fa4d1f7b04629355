"""The job store on PostgreSQL (psycopg 3): shared by several API servers and workers.

``mindgames serve --db postgresql://...`` and ``mindgames worker --db postgresql://...``.  Jobs
are claimed with ``SELECT ... FOR UPDATE SKIP LOCKED`` (two runners never take the same job and
never wait for each other), held by a lease their runner renews; lease times are the
database's clock, so the machines' clocks need not agree.  Results are appended with
``ON CONFLICT DO NOTHING``: a record written twice (a resumed job) is kept once.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .store import Exec, JobStoreBase, JobWriterBase, SchemaTooNew, StoreUnavailable

T = TypeVar("T")
NOW = "EXTRACT(EPOCH FROM clock_timestamp())::double precision"
MISSING = "a postgresql:// job store needs psycopg 3, which is not installed: pip install 'psycopg[binary]'"


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreUnavailable(MISSING, retry=False) from None
    return psycopg


def redacted(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def checkpoint_base(url: str) -> str:
    """Where this machine keeps the checkpoint files of the count_grids jobs it runs."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    digest = hashlib.sha256(redacted(url).encode()).hexdigest()[:12]
    return os.path.join(cache, "mindgames", "checkpoints", digest, "jobs")


def _sql(statement: str) -> str:
    return statement.replace("?", "%s")


def _connect(url: str, timeout: float) -> Any:
    psycopg = _psycopg()
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=max(1, round(timeout)))
    except psycopg.Error as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise StoreUnavailable(
            f"the jobs database {redacted(url)} cannot be reached: {reason}", retry=True
        ) from None


def postgres_problem(url: str) -> str | None:
    """What keeps the database at ``url`` from serving (missing psycopg, unreachable, refused,
    a newer schema), in one line, or None; creates or migrates the schema on the way."""
    try:
        store = PostgresStore(url)
    except SchemaTooNew as error:
        return str(error)
    except StoreUnavailable as error:
        return error.message
    store.close()
    return None


class PostgresStore(JobStoreBase):
    """One connection (reopened when lost) and one lock per process, as the SQLite store."""

    shared = True
    CONNECT_SECONDS = 5.0

    def __init__(self, url: str):
        self.locator = url
        self.where = redacted(url)
        self.checkpoint_base = checkpoint_base(url)
        self.lock = threading.RLock()
        self.conn: Any = _connect(url, self.CONNECT_SECONDS)
        self.migrate(real="DOUBLE PRECISION")

    def close(self) -> None:
        with self.lock:
            if self.conn is not None:
                self.conn.close()

    def _connection(self) -> Any:
        if self.conn is None or self.conn.closed:
            self.conn = _connect(self.locator, self.CONNECT_SECONDS)
        return self.conn

    def _exec(self, sql: str, args: Sequence[Any] = ()) -> tuple[list[tuple], int]:
        psycopg = _psycopg()
        with self.lock:
            try:
                cursor = self._connection().execute(_sql(sql), tuple(args))
                rows = cursor.fetchall() if cursor.description is not None else []
                return rows, cursor.rowcount
            except psycopg.OperationalError as error:  # the connection broke: the next call reconnects
                self._drop()
                raise StoreUnavailable(
                    f"the jobs database {self.where} failed: {_first_line(error)}; try again", retry=True
                ) from None
            except psycopg.errors.SerializationFailure:
                raise StoreUnavailable("the jobs database is busy; try again", retry=True) from None
            except psycopg.Error as error:
                raise StoreUnavailable(
                    f"the jobs database {self.where} failed: {_first_line(error)}", retry=False
                ) from None

    def _drop(self) -> None:
        try:
            if self.conn is not None:
                self.conn.close()
        except Exception:  # closing a broken connection may itself fail: it is gone either way
            pass
        self.conn = None

    def _atomic(self, body: Callable[[Exec], T]) -> T:
        psycopg = _psycopg()
        with self.lock:
            conn = self._connection()
            try:
                with conn.transaction():
                    return body(lambda sql, args: self._exec(sql, args))
            except psycopg.OperationalError as error:
                self._drop()
                raise StoreUnavailable(
                    f"the jobs database {self.where} failed: {_first_line(error)}; try again", retry=True
                ) from None

    def _lock_schema(self, run: Exec) -> None:
        run("SELECT pg_advisory_xact_lock(?)", (27_0001,))

    def claim_next(self, run: str, worker: str, lease_seconds: float) -> str | None:
        rows, _ = self._exec(
            f"UPDATE jobs SET status='running', run=?, worker=?, lease_until={NOW} + ?, "
            "started=COALESCE(started, ?) "
            "WHERE id = (SELECT id FROM jobs WHERE status='queued' ORDER BY created "
            "FOR UPDATE SKIP LOCKED LIMIT 1) RETURNING id",
            (run, worker, lease_seconds, time.time()),
        )
        return rows[0][0] if rows else None

    def renew(self, worker: str, runs: Sequence[str], lease_seconds: float) -> set[str]:
        if not runs:
            return set()
        rows, _ = self._exec(
            f"UPDATE jobs SET lease_until={NOW} + ? "
            "WHERE worker=? AND status='running' AND run = ANY(?) RETURNING run",
            (lease_seconds, worker, list(runs)),
        )
        return {row[0] for row in rows}

    def requeue_expired(self) -> int:
        _, count = self._exec(
            "UPDATE jobs SET status='queued', run=NULL, worker=NULL, lease_until=NULL, "
            "message='requeued: its worker stopped renewing its lease; it continues after its last result' "
            f"WHERE status='running' AND lease_until < {NOW}"
        )
        return count

    def heartbeat(self, worker: dict) -> None:
        self._exec(
            "INSERT INTO workers (id, role, host, pid, slots, running, lease_seconds, started, heartbeat) "
            f"VALUES (?,?,?,?,?,?,?,?,{NOW}) ON CONFLICT (id) DO UPDATE SET "
            f"running=EXCLUDED.running, slots=EXCLUDED.slots, heartbeat={NOW}",
            (
                worker["id"],
                worker["role"],
                worker["host"],
                worker["pid"],
                worker["slots"],
                worker["running"],
                worker["lease_seconds"],
                worker["started"],
            ),
        )
        # A worker silent for a day is forgotten (it stopped without saying so).
        self._exec(f"DELETE FROM workers WHERE heartbeat < {NOW} - 86400")

    def forget_worker(self, worker_id: str) -> None:
        self._exec("DELETE FROM workers WHERE id=?", (worker_id,))

    def workers(self) -> list[dict]:
        rows, _ = self._exec(
            "SELECT id, role, host, pid, slots, running, lease_seconds, started, heartbeat, "
            f"{NOW} - heartbeat FROM workers ORDER BY heartbeat DESC"
        )
        keys = ("id", "role", "host", "pid", "slots", "running", "lease_seconds", "started", "heartbeat")
        seen = []
        for row in rows:
            worker = dict(zip(keys, row[:-1]))
            worker["age"] = round(row[-1], 3)
            worker["alive"] = row[-1] <= worker["lease_seconds"]
            seen.append(worker)
        return seen


class PostgresWriter(JobWriterBase):
    """A job process's guarded writes to the PostgreSQL store."""

    def __init__(self, url: str, job_id: str, run: str):
        self.conn = _connect(url, 10.0)
        self.job_id, self.run, self.checkpoint_base = job_id, run, checkpoint_base(url)

    def update(self, **fields: Any) -> bool:
        sets = ", ".join(f"{key}=%s" for key in fields)
        values = [json.dumps(v) if key in ("progress", "result") else v for key, v in fields.items()]
        cursor = self.conn.execute(
            f"UPDATE jobs SET {sets} WHERE id=%s AND run=%s AND status='running'",
            (*values, self.job_id, self.run),
        )
        return cursor.rowcount == 1

    def append(self, records: list[tuple[int, dict]], progress: dict) -> bool:
        with self.conn.transaction():
            # The row lock taken by this UPDATE keeps a cancel or a requeue from slipping in
            # between the check and the results.
            if not self.update(progress=progress):
                return False
            if records:
                with self.conn.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO job_results (job, idx, record) VALUES (%s, %s, %s) "
                        "ON CONFLICT (job, idx) DO NOTHING",
                        [(self.job_id, index, json.dumps(record)) for index, record in records],
                    )
        return True

    def request(self) -> dict | None:
        row = self.conn.execute("SELECT request FROM jobs WHERE id=%s", (self.job_id,)).fetchone()
        return None if row is None else json.loads(row[0])

    def done(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM job_results WHERE job=%s", (self.job_id,)).fetchone()[
            0
        ]

    def checkpoint_lines(self) -> dict[int, str]:
        rows = self.conn.execute("SELECT cube, line FROM job_checkpoints WHERE job=%s", (self.job_id,))
        return dict(rows.fetchall())

    def save_checkpoint_lines(self, lines: dict[int, str]) -> bool:
        with self.conn.transaction():
            # FOR UPDATE: a cancel or a requeue waits until these lines are in, or they are not
            still_ours = self.conn.execute(
                "SELECT 1 FROM jobs WHERE id=%s AND run=%s AND status='running' FOR UPDATE",
                (self.job_id, self.run),
            ).fetchone()
            if still_ours is None:
                return False
            with self.conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO job_checkpoints (job, cube, line) VALUES (%s, %s, %s) "
                    "ON CONFLICT (job, cube) DO NOTHING",
                    [(self.job_id, cube, line) for cube, line in lines.items()],
                )
        return True

    def drop_checkpoint_lines(self) -> None:
        self.conn.execute("DELETE FROM job_checkpoints WHERE job=%s", (self.job_id,))


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
