"""For tests and benchmarks: a throwaway PostgreSQL server (Debian's binaries), in a temporary
folder, listening on a unix socket there only, stopped and removed after.

``initdb`` refuses to run as root: as root the cluster belongs to ``nobody`` (the commands run
through ``runuser``), in a folder of its own under the system's temporary folder (pytest's
folders are private to root)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

SEARCHED = "/usr/lib/postgresql/*/bin"


def postgres_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` (the newest version), or None."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).parent
    found = sorted(
        (Path(p) for p in glob.glob(SEARCHED) if (Path(p) / "initdb").exists()),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    return found[-1] if found else None


def why_no_postgres() -> str | None:
    """Why a PostgreSQL server cannot be started here, or None when it can."""
    if postgres_binaries() is None:
        return f"no PostgreSQL server binaries (initdb, pg_ctl on PATH or in {SEARCHED}: apt-get install postgresql)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser: initdb refuses root"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install 'psycopg[binary]')"
    return None


class PostgresCluster:
    """``with PostgresCluster() as pg: pg.url`` (a fresh database per ``pg.database()``)."""

    USER = "mindgames"

    def __init__(self) -> None:
        binaries = postgres_binaries()
        if binaries is None:
            raise RuntimeError(why_no_postgres() or "no PostgreSQL")
        self.bin = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="mindgames-pg-"))
        self.data = self.folder / "data"
        self.port = 5432
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.folder, "nobody")
        self.url = self.database_url("postgres")
        self.created = 0

    def _run(self, *command: str) -> None:
        argv = [str(self.bin / command[0]), *command[1:]]
        if self.as_root:
            argv = ["runuser", "-u", "nobody", "--", *argv]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {done.stderr.strip() or done.stdout.strip()}")

    def database_url(self, name: str) -> str:
        return f"postgresql://{self.USER}@/{name}?host={self.folder}&port={self.port}"

    def start(self) -> PostgresCluster:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", self.USER, "--no-sync", "-E", "UTF8")
        options = f"-k {self.folder} -c listen_addresses='' -p {self.port} -F -c max_connections=200"
        self._run(
            "pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"), "-w", "start"
        )
        return self

    def database(self) -> str:
        """A new, empty database's URL."""
        import psycopg

        self.created += 1
        name = f"jobs{self.created}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.database_url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except (RuntimeError, subprocess.TimeoutExpired):
            pass
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> PostgresCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
