"""``--ray``: a node lost in the middle of a run has the tasks it was running run again on the
nodes left (Ray's default retries), and the run ends as if nothing had happened: a batch exits 0
with the output of ``--jobs``, a generation run with the files of a run without Ray.  On a local
Ray cluster of three nodes started by the test (a head that runs no task, two workers of one CPU
each), one worker killed (SIGKILL, no graceful shutdown) while it runs a task; skipped where the
``ray`` extra is not installed, or where there is no /proc to see which task a worker runs."""

from __future__ import annotations

import argparse
import json
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
    if not Path("/proc/self/stat").exists():
        pytest.skip("no /proc: which task a Ray worker runs is not seen")
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


def kill_while_running(cluster: Any, node: Any, task: str, timeout: float = 60) -> None:
    """Kill ``node`` the moment one of its workers runs ``task`` (a function's name): that worker first
    (SIGKILL: its task ends unfinished, as on a machine that goes down), then the node's own
    processes, not gracefully."""
    deadline = time.monotonic() + timeout
    while True:
        busy = [pid for pid, title in worker_processes(node).items() if title == f"ray::{task}"]
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
            kill_while_running(cluster, lost, "answer_chunk")
            answered_by_then = answers.read_text().count("\n")
            assert run.poll() is None and answered_by_then < total, "the run ended before the node was lost"
            code = run.wait(timeout=600)
        finally:
            if run.poll() is None:
                run.kill()
    assert code == 0, errors.read_text()[-3000:]
    assert without_timings(answers.read_text()) == without_timings(by_jobs)


def test_a_node_lost_mid_generation_run_has_its_parts_made_again_and_the_files_are_a_local_run_s(
    two_worker_cluster, tmp_path
):
    cluster, (kept, lost) = two_worker_cluster
    count, part_size = 60, 5  # 12 parts of a second or so each

    def generation(out: Path, *extra: str) -> list[str]:
        return command(
            "sudoku", "generate", "--count", str(count), "--seed", "5", "--part-size", str(part_size),
            "--out", str(out), *extra,
        )  # fmt: skip

    local, on_ray = tmp_path / "local", tmp_path / "ray"
    subprocess.run(generation(local), capture_output=True, env=child_env(), check=True)
    errors = tmp_path / "errors.txt"
    with open(errors, "w") as complained:
        run = subprocess.Popen(
            generation(on_ray, "--ray", cluster.address),
            stdout=complained,
            stderr=complained,
            env=child_env(),
        )
        try:
            deadline = time.monotonic() + 120
            while not list(on_ray.glob("parts/part-*.jsonl")):  # a part made: the run is under way
                assert time.monotonic() < deadline and run.poll() is None, errors.read_text()[-3000:]
                time.sleep(0.05)
            kill_while_running(cluster, lost, "make_part")
            parts_by_then = len(list(on_ray.glob("parts/part-*.jsonl")))
            assert run.poll() is None and parts_by_then < count // part_size, "the run ended before"
            code = run.wait(timeout=600)
        finally:
            if run.poll() is None:
                run.kill()
    assert code == 0, errors.read_text()[-3000:]

    def files(folder: Path) -> tuple[list[str], dict[str, Any]]:
        summary = json.loads((folder / "summary.json").read_text())
        summary.pop("cpu_seconds")
        return [shard.read_text() for shard in sorted(folder.glob("puzzles-*.jsonl"))], summary

    assert files(on_ray) == files(local)


def test_a_task_ray_gives_up_on_ends_the_batch_in_one_line_with_exit_code_1(tmp_path, capsys, monkeypatch):
    ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install 'mindgames[ray]')")
    from mindgames.cli import main
    from mindgames.commands import ray_batch

    def retries_exhausted(ray_module: Any, task: Any, address: str) -> Any:
        lost = ray_batch.lost_on_cluster(ray, ray.exceptions.NodeDiedError("node 1 died"), address)
        assert lost is not None
        raise lost

    class Cluster:  # as much of ray as a batch of one chunk needs: its task comes back lost
        exceptions = ray.exceptions

        def put(self, value: Any) -> Any:
            return value

        def remote(self, function: Any) -> Any:
            return argparse.Namespace(remote=lambda *args: "task")

        def wait(self, tasks: list[Any], num_returns: int) -> tuple[list[Any], list[Any]]:
            return tasks[:num_returns], tasks[num_returns:]

        def cluster_resources(self) -> dict[str, float]:
            return {"CPU": 2.0}

        def cancel(self, task: Any, force: bool) -> None:
            pass

    monkeypatch.setattr(ray_batch, "connect", lambda address: (Cluster(), False))
    monkeypatch.setattr(ray_batch, "results", retries_exhausted)
    puzzles = tmp_path / "two.txt"
    puzzles.write_text("\n".join(relabelled(2)) + "\n")
    assert main(["sudoku", "solve", str(puzzles), "--json", "--ray", "HOST:6379"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().count("\n") == 0 and "Traceback" not in captured.err
    assert (
        "--ray HOST:6379: a task was lost on the cluster" in captured.err and "NodeDiedError" in captured.err
    )


def test_a_task_s_own_exception_is_not_taken_for_a_lost_task():
    ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install 'mindgames[ray]')")
    from mindgames.commands.ray_batch import lost_on_cluster

    assert lost_on_cluster(ray, ValueError("a bug in the task"), "auto") is None
    lost = lost_on_cluster(ray, ray.exceptions.WorkerCrashedError(), "auto")
    assert lost is not None and "\n" not in str(lost) and "WorkerCrashedError" in str(lost)
