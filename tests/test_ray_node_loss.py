"""``--ray``: a node lost in the middle of a run has the tasks it was running run again on the
nodes left (Ray's default retries), and the run ends as if nothing had happened: exit 0, the
output of ``--jobs``.  On a local Ray cluster of three nodes started by the test
(a head that runs no task, two workers of one CPU each), one worker killed (SIGKILL, no graceful
shutdown) while it answers a chunk; skipped where the ``ray`` extra is not installed."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mindgames.service.settings import child_env
from tests.test_ray import relabelled, without_timings


@pytest.fixture
def two_worker_cluster(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, list[Any]]]:
    """A Ray cluster of a head with no CPU (no task runs there, so losing a worker loses its
    tasks) and two worker nodes of one CPU; always shut down, by its own ``shutdown`` (``ray
    stop`` would end every other Ray on this machine too)."""
    cluster_utils = pytest.importorskip(
        "ray.cluster_utils", reason="the ray extra is not installed (pip install 'mindgames[ray]')"
    )
    # Its own temporary directory: Ray records the newest cluster's address there, where a
    # ray.init() elsewhere on this machine would join this cluster; short, as Ray's socket paths
    # must fit in a Unix socket's 107 bytes.
    temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")
    monkeypatch.setenv("RAY_TMPDIR", temp)  # also for the command's process (child_env copies it)
    cluster = cluster_utils.Cluster()
    try:
        cluster.add_node(num_cpus=0, include_dashboard=False)
        workers = [cluster.add_node(num_cpus=1) for _ in range(2)]
        cluster.wait_for_nodes()
        yield cluster, workers
    finally:
        cluster.shutdown()
        shutil.rmtree(temp, ignore_errors=True)


def worker_processes(node: Any) -> dict[int, str]:
    """The Ray worker processes of ``node`` (its raylet's children) by pid: their titles, which
    Ray sets to ``ray::FUNCTION`` while a task runs, ``ray::IDLE`` between tasks."""
    raylet = node.all_processes["raylet"][0].process.pid
    titles = {}
    for entry in Path("/proc").iterdir():
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if parent == raylet:
                titles[int(entry.name)] = (entry / "cmdline").read_bytes().split(b"\0")[0].decode().strip()
        except (OSError, ValueError, IndexError):  # not a process, or one that just ended
            continue
    return titles


def kill_while_answering(cluster: Any, node: Any, timeout: float = 60) -> None:
    """Kill ``node`` the moment one of its workers is answering a chunk: that worker first
    (SIGKILL: its task ends unfinished, as on a machine that goes down), then the node's own
    processes, not gracefully."""
    deadline = time.monotonic() + timeout
    while True:
        busy = [pid for pid, title in worker_processes(node).items() if title.startswith("ray::answer_chunk")]
        if busy:
            break
        assert time.monotonic() < deadline, "no task ran on the node to be lost"
        time.sleep(0.005)
    for pid in busy:
        os.kill(pid, signal.SIGKILL)
    cluster.remove_node(node, allow_graceful=False)


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "mindgames.cli", *args]


def test_a_node_lost_mid_batch_has_its_chunks_answered_again_and_the_output_is_the_jobs_one(
    two_worker_cluster, tmp_path
):
    cluster, (kept, lost) = two_worker_cluster
    puzzles = tmp_path / "many.txt"
    total = 9 * 1500  # 135 chunks of 100 puzzles: seconds of work for two CPUs
    puzzles.write_text("\n".join(relabelled(9) * (total // 9)) + "\n")
    by_jobs = subprocess.run(
        command("sudoku", "solve", str(puzzles), "--json", "--jobs", "2"),
        capture_output=True,
        text=True,
        env=child_env(),
        check=True,
    ).stdout

    answers, errors = tmp_path / "answers.jsonl", tmp_path / "errors.txt"
    with open(answers, "w") as written, open(errors, "w") as complained:
        run = subprocess.Popen(
            command("sudoku", "solve", str(puzzles), "--json", "--ray", cluster.address),
            stdout=written,
            stderr=complained,
            env=child_env(),
        )
        try:
            deadline = time.monotonic() + 120
            while answers.stat().st_size == 0:  # the first chunk's answers: the run is under way
                assert time.monotonic() < deadline and run.poll() is None, errors.read_text()[-3000:]
                time.sleep(0.05)
            kill_while_answering(cluster, lost)
            answered_by_then = answers.read_text().count("\n")
            assert run.poll() is None and answered_by_then < total, "the run ended before the node was lost"
            code = run.wait(timeout=120)
        finally:
            if run.poll() is None:
                run.kill()
    assert code == 0, errors.read_text()[-3000:]
    assert without_timings(answers.read_text()) == without_timings(by_jobs)
