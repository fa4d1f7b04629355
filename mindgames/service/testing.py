"""For tests and benchmarks: a real ``mindgames serve`` in a child process on a free loopback
port (:class:`Server`), and the solver pool's interface answering in the test's own process
(:class:`InProcessPool`)."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from .settings import child_env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """``with Server(db) as server: httpx.get(server.url + "/healthz")``.

    ``kill()`` sends SIGKILL (no clean shutdown); ``start()`` again reuses the db."""

    def __init__(
        self,
        db: str | Path,
        *args: str,
        port: int | None = None,
        log: str | Path | None = None,
        cwd: str | Path | None = None,
    ):
        self.db = str(db)
        self.args = list(args)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = Path(log) if log else Path(f"{self.db}.server.log")
        self.process: subprocess.Popen | None = None
        self.cwd = str(cwd) if cwd else None  # the server's working directory (default: ours)

    def start(self, timeout: float = 60.0, healthy: bool = True) -> Server:
        """Start the server and wait until it answers /healthz: with 200, or (``healthy=False``,
        for tests of a broken server) with any status."""
        command = [
            sys.executable,
            "-m",
            "mindgames.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--db",
            self.db,
            *self.args,
        ]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=child_env(),
                cwd=self.cwd,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited ({self.process.returncode}): {self.output()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as reply:
                    # Serving; "ok" once every solver process is ready ("degraded" before).
                    if reply.status == 200 and json.load(reply).get("status") == "ok":
                        return self
                    time.sleep(0.1)
            except urllib.error.HTTPError:
                if not healthy:
                    return self
                time.sleep(0.1)
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer within {timeout} s: {self.output()}")

    def output(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL, as a crash or an OOM kill would: no shutdown code runs."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class InProcessPool:
    """The solver pool's interface, answering with the workers' own code in this process:
    ``monkeypatch.setattr(mindgames.service.app, "SolverPool", InProcessPool)`` before
    ``create_app``, for a FastAPI TestClient without worker processes."""

    def __init__(self, *args: Any) -> None:
        self.waiting, self.queued, self.broken = 0, 0, None

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    def status(self) -> dict:
        return {"degraded": False, "workers": 0, "queued": 0}

    async def run(self, task: dict, seconds: float, cost: float | None = None) -> Any:
        from .kinds import Answerer
        from .pool import answer_task

        return answer_task(dict(task, seconds=seconds), Answerer())


__all__ = ["InProcessPool", "Server", "free_port"]
