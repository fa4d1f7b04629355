"""The service's settings and limits (all configurable, from ``mindgames serve`` options)."""

from __future__ import annotations

import ipaddress
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path


def default_db() -> str:
    """``MINDGAMES_DB``, else ``$XDG_DATA_HOME/mindgames/jobs.sqlite3``."""
    if os.environ.get("MINDGAMES_DB"):
        return os.environ["MINDGAMES_DB"]
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return os.path.join(base, "mindgames", "jobs.sqlite3")


def default_solver_workers() -> int:
    """Two solver processes per core, at least 2, at most 8.

    More processes than cores, so that a request that takes long (a Sudoku explained by
    probing: 0.2 s) shares a core with the short ones the OS schedules beside it, instead
    of holding one of only ``cores`` seats while they queue: with the mixed requests of
    benchmarks/service.py at 20 clients on 2 cores, 4 processes had about half the p99 of 2.
    Each idles at ~55 MB; each is capped at ``worker_memory_mb``."""
    return max(2, min(8, 2 * (os.cpu_count() or 1)))


@dataclass
class Settings:
    db: str = field(default_factory=default_db)
    token: str | None = None
    # Where the server listens: requests must name it (or an allowed host) in their Host header.
    host: str = "127.0.0.1"
    port: int = 8000
    allowed_hosts: tuple[str, ...] = ()  # further Host names accepted (a proxy's public name)
    cors_origins: tuple[str, ...] = ()  # origins whose pages may call the API (default: none)
    # Limits: exceeding one is a 413 / 422 / 429 whose JSON names the limit.
    max_body_bytes: int = 1_000_000  # request body (413 max_body_bytes)
    max_puzzles: int = 1000  # puzzles in one request or job (413 max_puzzles)
    max_seconds: float = 10.0  # hard cap on one request's solving time (422 if time_limit asks more)
    max_jobs: int = 32  # jobs queued or running at once (429 max_jobs)
    max_waiting: int = 512  # requests waiting for a solver process at once (429 max_waiting)
    max_queue_seconds: float = 30.0  # longest wait for a free solver process (503 max_queue_seconds)
    job_workers: int = 2  # jobs running at once, each in its own process
    max_job_seconds: float = 3600.0  # a job still running after this is stopped
    solver_workers: int = field(default_factory=default_solver_workers)  # 2 per core, 2 to 8
    worker_memory_mb: int = 2048  # address-space cap of each solver process (0: none)
    job_memory_mb: int = 2048  # address-space cap of each job process (0: none)
    retention_days: float = 7.0  # finished jobs are deleted this long after they end (0: kept)
    resume_jobs: bool = False  # after a restart: re-queue interrupted jobs (else mark them interrupted)
    grace_seconds: float = 2.0  # a worker this late past a deadline is killed and replaced
    inline: bool = True  # a small grid solve / check is answered in the API process (see .inline)
    local_jobs: bool = True  # this server runs jobs (False: `mindgames worker` processes do)
    lease_seconds: float = 30.0  # a shared store's job whose runner is silent this long is requeued

    def limits(self) -> dict[str, float | int]:
        return {
            "max_body_bytes": self.max_body_bytes,
            "max_puzzles": self.max_puzzles,
            "max_seconds": self.max_seconds,
            "max_jobs": self.max_jobs,
            "max_waiting": self.max_waiting,
            "max_queue_seconds": self.max_queue_seconds,
            "job_workers": self.job_workers,
            "max_job_seconds": self.max_job_seconds,
            "worker_memory_mb": self.worker_memory_mb,
            "job_memory_mb": self.job_memory_mb,
            "retention_days": self.retention_days,
        }


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


CODE_ROOT = Path(__file__).resolve().parents[2]  # the directory this package is imported from


def child_env() -> dict[str, str]:
    """The environment of worker processes: ours, plus the directory this package is
    imported from, so ``python -m mindgames.service...`` finds the same code.  Relative
    PYTHONPATH entries are dropped: they would name the server's working directory."""
    env = dict(os.environ)
    paths = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and os.path.isabs(p)]
    if (CODE_ROOT / "pyproject.toml").exists():  # a source checkout; an installed package is found anyway
        paths.insert(0, str(CODE_ROOT))
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


def child_command(module: str, *args: str) -> list[str]:
    """``python -m module args`` that imports nothing from the server's working directory
    (a ``resource.py`` there must not replace the standard library's): ``-P`` where Python
    has it (3.11+), and the children are started in :data:`CODE_ROOT` (see :func:`child_cwd`)."""
    flags = ["-P"] if sys.version_info >= (3, 11) else []
    return [sys.executable, *flags, "-m", module, *args]


def child_cwd() -> str:
    return str(CODE_ROOT)


def cap_memory(mb: int) -> None:
    """Cap this process's address space at ``mb`` MB (0: leave it), never above the hard
    limit it inherited (``mindgames --memory-limit`` on the server), which cannot be raised."""
    if mb <= 0:
        return
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = mb * 2**20 if hard == resource.RLIM_INFINITY else min(mb * 2**20, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
