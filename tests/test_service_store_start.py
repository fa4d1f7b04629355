"""A jobs database that cannot serve is a one-line error at start (issue 24, item 5):
exit code 2, before "serving", no traceback."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest


def serve(db: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mindgames.cli", "serve", "--port", "0", "--db", str(db)],
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


def refused(answer: subprocess.CompletedProcess) -> str:
    assert answer.returncode == 2, answer.stdout + answer.stderr
    assert "serving" not in answer.stdout and "Traceback" not in answer.stderr
    lines = answer.stderr.strip().splitlines()
    assert len(lines) == 1
    return lines[0]


def test_a_corrupt_database(tmp_path):
    db = tmp_path / "jobs.sqlite3"
    db.write_bytes(b"this is not a database" * 100)
    assert "not a database" in refused(serve(db))


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads and writes whatever the file mode says")
def test_a_read_only_database(tmp_path):
    db = tmp_path / "jobs.sqlite3"
    sqlite3.connect(db).close()
    db.chmod(0o444)
    assert "writable" in refused(serve(db))


def test_a_database_locked_by_another_process(tmp_path):
    db = tmp_path / "jobs.sqlite3"
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        assert "locked" in refused(serve(db))
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_database_whose_folder_cannot_be_made(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    assert "cannot create its folder" in refused(serve(blocker / "jobs.sqlite3"))
