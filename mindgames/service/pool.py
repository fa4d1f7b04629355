"""Solver worker processes for requests answered at once (``/v1/{kind}/solve`` ...).

Each worker is a separate process holding the library's compiled models, so
the API's event loop never solves anything itself.  A request takes an idle
worker, sends it the task over a pipe and reads the records it streams back.
A worker still busy a grace period after the request's deadline is killed and
replaced, so no request can hold a worker forever.
"""

from __future__ import annotations

import asyncio
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
from .settings import child_env


def worker_main(conn: Connection, memory_mb: int = 0) -> None:
    """A worker: answer tasks from ``conn`` until it closes.

    ``memory_mb`` caps the worker's address space, so that a request for an absurdly big
    puzzle ends in a MemoryError (its answer says so) instead of exhausting the machine."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops us
    if memory_mb > 0:
        import resource

        limit = memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    answerer = Answerer()
    parent = os.getppid()
    while True:
        try:
            if not conn.poll(1.0):
                if os.getppid() != parent:  # the server died: do not outlive it
                    return
                continue
            task = conn.recv()
        except (EOFError, OSError):
            return
        records: list[tuple[int, dict]] = []
        try:
            execute(task, lambda i, r: records.append((i, r)), answerer,
                    deadline=time.monotonic() + task["seconds"])
            reply: tuple = ("done", records)
        except TaskError as error:
            reply = ("error", error.status, error.message, error.limit)
        except Exception as error:  # a library bug: report it, keep serving
            reply = ("crash", records, f"{type(error).__name__}: {error}")
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return


@dataclass(eq=False)
class Worker:
    process: Any
    conn: Connection
    started: float = field(default_factory=time.monotonic)


class SolverPool:
    def __init__(self, size: int, grace: float = 2.0, memory_mb: int = 0):
        self.size = size
        self.grace = grace
        self.memory_mb = memory_mb
        self.idle: asyncio.Queue[Worker] = asyncio.Queue()
        self.workers: set[Worker] = set()
        self.closed = False
        self.waiting = 0  # requests sent or waiting for a worker

    def _spawn(self) -> Worker:
        # A fresh interpreter running this module (not a fork of the server, and no
        # re-import of whatever __main__ is), talking over a socket pair.
        here, there = socket.socketpair()
        process = subprocess.Popen(
            [sys.executable, "-m", "mindgames.service.pool", str(there.fileno()), str(self.memory_mb)],
            pass_fds=[there.fileno()], stdin=subprocess.DEVNULL, env=child_env(),
        )
        there.close()
        worker = Worker(process, Connection(here.detach()))
        self.workers.add(worker)
        return worker

    async def start(self) -> None:
        for _ in range(self.size):
            self.idle.put_nowait(self._spawn())

    async def close(self) -> None:
        self.closed = True
        for worker in list(self.workers):
            self._kill(worker)

    def _kill(self, worker: Worker) -> None:
        self.workers.discard(worker)
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
        if not self.closed:
            self.idle.put_nowait(self._spawn())

    async def run(self, task: dict, seconds: float) -> tuple:
        """The worker's reply to ``task`` (``("done", records)``, ``("error", ...)``, ...);
        ``("timeout", [])`` when it overran ``seconds`` plus the grace period."""
        self.waiting += 1
        try:
            return await self._run(dict(task, seconds=seconds), seconds)
        finally:
            self.waiting -= 1

    async def _run(self, task: dict, seconds: float) -> tuple:
        deadline = time.monotonic() + seconds + self.grace
        for _attempt in range(3):  # a worker found dead is replaced and the task sent again
            worker = await self.idle.get()
            try:
                worker.conn.send(task)
            except (OSError, ValueError):
                self._replace(worker)
                continue
            try:
                reply = await self._reply(worker, deadline)
            except asyncio.CancelledError:
                # The client went away: let the worker finish (or be stopped at the
                # deadline) in the background, then reuse it.
                asyncio.get_running_loop().create_task(self._reply(worker, deadline))
                raise
            if reply[0] != "died":
                return reply
        return ("crash", [], "the solver process died")

    async def _reply(self, worker: Worker, deadline: float) -> tuple:
        loop = asyncio.get_running_loop()
        ready = asyncio.Event()
        fd = worker.conn.fileno()
        loop.add_reader(fd, ready.set)
        timed_out = False
        try:
            await asyncio.wait_for(ready.wait(), max(0.0, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            timed_out = True
        finally:
            loop.remove_reader(fd)
        if timed_out:  # stuck past its deadline: stop it, start a fresh one
            self._replace(worker)
            return ("timeout", [])
        try:
            reply = worker.conn.recv()
        except (EOFError, OSError):
            self._replace(worker)
            return ("died",)
        self.idle.put_nowait(worker)
        return reply


def reply_records(reply: tuple) -> list[dict]:
    return list(dict(reply[1]).values()) if reply[0] in ("done", "crash", "timeout") else []


__all__ = ["SolverPool", "TaskError", "reply_records"]


if __name__ == "__main__":
    worker_main(Connection(int(sys.argv[1])), int(sys.argv[2]) if len(sys.argv) > 2 else 0)
