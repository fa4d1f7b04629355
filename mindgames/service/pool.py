"""Solver worker processes for requests answered at once (``/v1/{kind}/solve`` ...).

Each worker is a separate process holding the library's compiled models, so
the API's event loop never solves anything itself.  A request takes an idle
worker, sends it the task over a pipe and reads the records it streams back.
A worker still busy a grace period after the request's deadline is killed and
replaced, so no request can hold a worker forever; one whose client went away is
killed and replaced at once.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from .kinds import Answerer, TaskError, execute
from .replies import Broken, Busy, Crashed, Died, Done, Ready, Refused, Reply, TimedOut
from .settings import cap_memory, child_command, child_cwd, child_env


def worker_main(conn: Connection, memory_mb: int = 0) -> None:
    """A worker: say :class:`Ready`, then answer tasks from ``conn`` until it closes.

    ``memory_mb`` caps the worker's address space, so that a request for an absurdly big
    puzzle ends in a MemoryError (its answer says so) instead of exhausting the machine."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops us
    cap_memory(memory_mb)
    answerer = Answerer()
    parent = os.getppid()
    conn.send(Ready())
    while True:
        try:
            if not conn.poll(1.0):
                if os.getppid() != parent:  # the server died: do not outlive it
                    return
                continue
            task = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(answer_task(task, answerer, memory_mb))
        except (OSError, ValueError):
            return


def answer_task(task: dict, answerer: Answerer, memory_mb: int = 0) -> Reply:
    """What a worker replies to ``task``: every record, or why there is none."""
    records: list[tuple[int, dict]] = []
    try:
        execute(
            task, lambda i, r: records.append((i, r)), answerer, deadline=time.monotonic() + task["seconds"]
        )
        return Done(records)
    except TaskError as error:
        return Refused(error.status, error.message, error.limit)
    except MemoryError:
        records.clear()  # free what we can to be able to answer at all
        return Refused(
            422,
            f"this puzzle is too big for this server: its solver process "
            f"reached its memory cap ({memory_mb} MB, --worker-memory-mb)",
            "worker_memory_mb",
        )
    except Exception as error:  # a library bug: report it, keep serving
        return Crashed(records, f"{type(error).__name__}: {error}")


@dataclass(eq=False)
class Worker:
    process: Any
    conn: Connection
    started: float = field(default_factory=time.monotonic)


class SolverPool:
    """``size`` worker processes and the requests waiting for one.

    A request waits at most ``queue_seconds`` for a worker (then :class:`Busy`); its time
    limit starts when it has one, so waiting never uses it.  Waiting requests are served
    by their promised cost (arrival time plus the seconds they may take), so a short
    request is not stuck behind heavy ones that arrived just before it.  A client that
    goes away stops its work: its worker is killed and replaced."""

    START_SECONDS = 60.0  # a worker not ready by then is taken for broken

    def __init__(self, size: int, grace: float = 2.0, memory_mb: int = 0, queue_seconds: float = 30.0):
        self.size = size
        self.grace = grace
        self.memory_mb = memory_mb
        self.queue_seconds = queue_seconds
        self.idle: list[Worker] = []
        self.waiters: list[tuple[float, int, asyncio.Future]] = []
        self.workers: set[Worker] = set()
        self.starting: set[Worker] = set()  # spawned, not ready yet
        self.closed = False
        self.waiting = 0  # requests sent or waiting for a worker
        self.broken: str | None = None  # why workers cannot start, while they cannot
        self.failed_starts = 0
        self.respawns = 0  # workers replaced (killed past a deadline, died, or abandoned)
        self._order = itertools.count()
        self._tasks: set[asyncio.Task] = set()

    # -- processes --------------------------------------------------------------------------
    def _spawn(self) -> None:
        # A fresh interpreter running this module (not a fork of the server, and nothing
        # imported from the server's working directory), talking over a socket pair.
        here, there = socket.socketpair()
        process = subprocess.Popen(
            child_command("mindgames.service.pool", str(there.fileno()), str(self.memory_mb)),
            pass_fds=[there.fileno()],
            stdin=subprocess.DEVNULL,
            env=child_env(),
            cwd=child_cwd(),
        )
        there.close()
        worker = Worker(process, Connection(here.detach()))
        self.workers.add(worker)
        self.starting.add(worker)
        self._background(self._await_ready(worker))

    def _background(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _await_ready(self, worker: Worker) -> None:
        ready = await _readable(worker.conn, self.START_SECONDS)
        try:
            hello = _blocking(worker.conn).recv() if ready else None
        except (EOFError, OSError):
            hello = None
        self.starting.discard(worker)
        if hello == Ready():
            self.broken, self.failed_starts = None, 0
            self._release(worker)
            return
        self._kill(worker)
        code = worker.process.returncode
        self.failed_starts += 1
        self.broken = f"the solver processes fail as they start (exit code {code}); see the server's log"
        if not self.closed:  # try again, less and less often
            await asyncio.sleep(min(30.0, 0.5 * 2 ** min(self.failed_starts, 6)))
            if not self.closed:
                self._spawn()

    async def start(self) -> None:
        for _ in range(self.size):
            self._spawn()

    async def close(self) -> None:
        self.closed = True
        for task in list(self._tasks):
            task.cancel()
        for worker in list(self.workers):
            self._kill(worker)

    def _kill(self, worker: Worker) -> None:
        self.workers.discard(worker)
        self.starting.discard(worker)
        try:
            worker.conn.close()
        except OSError:
            pass
        if worker.process.poll() is None:
            worker.process.kill()
        try:
            worker.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            pass

    def _replace(self, worker: Worker) -> None:
        self._kill(worker)
        self.respawns += 1
        if not self.closed:
            self._spawn()

    # -- handing out workers -------------------------------------------------------------------
    def _release(self, worker: Worker) -> None:
        while self.waiters:
            _, _, future = heapq.heappop(self.waiters)
            if not future.done():
                future.set_result(worker)
                return
        self.idle.append(worker)

    def _reap(self) -> None:
        """Replace idle workers whose process has ended (killed by the OOM killer, say), so
        that no request is handed a dead one and ``status`` does not count them."""
        for worker in [w for w in self.idle if w.process.poll() is not None]:
            self.idle.remove(worker)
            self._replace(worker)

    async def _acquire(self, cost: float) -> Worker:
        self._reap()
        if self.idle:  # (a worker is idle only while nobody waits)
            return self.idle.pop()
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        entry = (time.monotonic() + cost, next(self._order), future)
        heapq.heappush(self.waiters, entry)
        try:
            return await asyncio.wait_for(asyncio.shield(future), self.queue_seconds)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            if future.done() and not future.cancelled():
                self._release(future.result())  # handed to us as we gave up: pass it on
            else:
                future.cancel()
                self.waiters.remove(entry)
                heapq.heapify(self.waiters)
            raise

    @property
    def queued(self) -> int:
        """Requests waiting for a worker (not those a worker is answering)."""
        return len(self.waiters)

    def status(self) -> dict[str, Any]:
        """The workers as ``/healthz`` shows them: ``degraded`` while fewer than ``size``
        are alive and ready (a dead one is being replaced)."""
        self._reap()
        return {
            "degraded": len(self.workers) - len(self.starting) < self.size,
            "workers": len(self.workers),
            "idle": len(self.idle),
            "waiting": self.waiting,
            "queued": self.queued,
            "respawns": self.respawns,
            "broken": self.broken,
        }

    # -- running a task -------------------------------------------------------------------------
    async def run(self, task: dict, seconds: float, cost: float | None = None) -> Reply:
        """The worker's reply to ``task`` (:class:`Done`, :class:`Refused`, :class:`Crashed`);
        :class:`TimedOut` when it overran ``seconds`` plus the grace period; :class:`Busy`
        when no worker was free within ``queue_seconds``; :class:`Broken` when no
        worker can start.  Cancelling it (the client went away) stops the work."""
        if self.broken and not self.idle:
            return Broken(self.broken)
        self.waiting += 1
        try:
            return await self._run(dict(task, seconds=seconds), seconds, seconds if cost is None else cost)
        finally:
            self.waiting -= 1

    async def _run(self, task: dict, seconds: float, cost: float) -> Reply:
        for _attempt in range(3):  # a worker found dead is replaced and the task sent again
            try:
                worker = await self._acquire(cost)
            except asyncio.TimeoutError:
                return Broken(self.broken) if self.broken else Busy()
            # The clock starts now: time spent waiting for a worker is not solving time.
            # The worker stops itself at ``seconds``; it is killed only if it overruns
            # that by the grace period (a tenth more for long requests).
            deadline = time.monotonic() + seconds + self.grace + seconds / 10
            try:
                _blocking(worker.conn).send(task)
            except (OSError, ValueError):
                self._replace(worker)
                continue
            try:
                reply = await self._reply(worker, deadline)
            except asyncio.CancelledError:
                self._replace(worker)  # the client went away: stop its work, free the seat
                raise
            if not isinstance(reply, Died):
                return reply
        # Three workers died under this task: the server is in trouble (memory?), not the
        # puzzle; the caller answers 503 and the pool goes on replacing them.
        return Died()

    async def _reply(self, worker: Worker, deadline: float) -> Reply:
        if not await _readable(worker.conn, max(0.0, deadline - time.monotonic())):
            self._replace(worker)  # stuck past its deadline: stop it, start a fresh one
            return TimedOut()
        try:
            # The worker is writing: read its whole reply (a big one spans many buffers).
            reply = _blocking(worker.conn).recv()
        except (EOFError, OSError):
            self._replace(worker)
            return Died()
        self._release(worker)
        return reply


def _blocking(conn: Connection) -> Connection:
    """``conn`` with its socket in blocking mode again, so that a message larger than the
    socket buffer is sent or received whole.  Watching the socket with ``add_reader``
    leaves it non-blocking under uvloop, and ``Connection`` cannot resume a partial
    message: it would raise BlockingIOError half-way, which looked like a dead worker."""
    os.set_blocking(conn.fileno(), True)
    return conn


async def _readable(conn: Connection, timeout: float) -> bool:
    """Whether ``conn`` has something to read (or was closed) within ``timeout`` seconds.

    A future settled by the reader callback or a timer (no task per wait, unlike
    ``asyncio.wait_for``: this runs for every request)."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future = loop.create_future()
    fd = conn.fileno()

    def settle(readable: bool) -> None:
        if not ready.done():
            ready.set_result(readable)

    loop.add_reader(fd, settle, True)
    timer = loop.call_later(timeout, settle, False)
    try:
        return await ready
    finally:
        timer.cancel()
        loop.remove_reader(fd)


__all__ = ["SolverPool", "TaskError", "answer_task"]


if __name__ == "__main__":
    worker_main(Connection(int(sys.argv[1])), int(sys.argv[2]) if len(sys.argv) > 2 else 0)
