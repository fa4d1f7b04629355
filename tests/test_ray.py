"""``--ray``: a batch answered as Ray tasks writes what ``--jobs`` writes (timings and solver
statistics aside), in input order; a generation run on Ray, interrupted and resumed, ends
with the files of an uninterrupted local run.  On a local Ray started by the test
(``ray.init()``); skipped where the ``ray`` extra is not installed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mindgames.cli import main

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_ray_missing_is_a_one_line_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if not installed
    puzzles = tmp_path / "two.txt"
    puzzles.write_text(HARD + "\n" + HARD + "\n")
    assert main(["sudoku", "solve", str(puzzles), "--ray", "auto"]) == 2
    error = capsys.readouterr().err
    assert error.strip().count("\n") == 0 and "pip install 'mindgames[ray]'" in error


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install 'mindgames[ray]')")
    if ray.is_initialized():  # a command run in this process earlier left its Ray up
        ray.shutdown()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="error")
    yield ray
    ray.shutdown()


def relabelled(count: int) -> list[str]:
    """Distinct puzzles with one solution each: HARD with its digits rotated."""
    lines = []
    for shift in range(count):
        lines.append("".join(c if c == "." else str((int(c) - 1 + shift) % 9 + 1) for c in HARD))
    return lines


def without_timings(text: str) -> list[dict]:
    records = [json.loads(line) for line in text.splitlines()]
    for record in records:
        record.pop("seconds", None)
        record.pop("stats", None)
    return records


@pytest.mark.parametrize("action", ["solve", "check", "count"])
def test_a_batch_on_ray_is_the_jobs_output_in_input_order(ray_cluster, action, tmp_path, capsys):
    puzzles = tmp_path / "batch.txt"
    puzzles.write_text("\n".join(relabelled(9) + ["not a puzzle"] + relabelled(9)[:3]) + "\n")
    assert main(["sudoku", action, str(puzzles), "--json", "--jobs", "2"]) == 0
    by_jobs = capsys.readouterr().out
    assert main(["sudoku", action, str(puzzles), "--json", "--ray", "auto"]) == 0
    by_ray = capsys.readouterr().out
    assert without_timings(by_ray) == without_timings(by_jobs)
    assert [r["index"] for r in without_timings(by_ray)] == list(range(13))


def test_ray_and_jobs_together_are_refused(tmp_path, capsys):
    puzzles = tmp_path / "two.txt"
    puzzles.write_text(HARD + "\n" + HARD + "\n")
    assert main(["sudoku", "solve", str(puzzles), "--ray", "auto", "--jobs", "2"]) == 2
    assert "exclude each other" in capsys.readouterr().err


def run_generation(out: Path, *extra: str) -> int:
    return main(
        ["sudoku", "generate", "--count", "12", "--seed", "7", "--part-size", "4", "--out", str(out), *extra]
    )


def test_a_generation_run_on_ray_interrupted_and_resumed_equals_an_uninterrupted_local_one(
    ray_cluster, tmp_path
):
    assert run_generation(tmp_path / "local") == 0
    assert run_generation(tmp_path / "ray", "--ray", "auto") == 0
    (tmp_path / "ray" / "parts" / "part-000002.jsonl").unlink()  # interrupted before its last part
    for shard in (tmp_path / "ray").glob("puzzles-*.jsonl"):
        shard.unlink()
    assert run_generation(tmp_path / "ray", "--ray", "auto") == 0
    local = sorted((tmp_path / "local").glob("puzzles-*.jsonl"))
    on_ray = sorted((tmp_path / "ray").glob("puzzles-*.jsonl"))
    assert [p.read_text() for p in on_ray] == [p.read_text() for p in local]


def test_ctrl_c_cancels_the_tasks_and_leaves_the_answers_written_in_order(tmp_path):
    pytest.importorskip("ray", reason="the ray extra is not installed (pip install 'mindgames[ray]')")
    import signal
    import subprocess
    import time

    from mindgames.service.settings import child_env

    puzzles = tmp_path / "many.txt"
    puzzles.write_text("\n".join(relabelled(9) * 20000) + "\n")
    out = tmp_path / "out.jsonl"
    with open(out, "w") as written:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mindgames.cli",
                "sudoku",
                "solve",
                str(puzzles),
                "--json",
                "--ray",
                "local",
            ],
            stdout=written,
            stderr=subprocess.PIPE,
            env=child_env(),
            preexec_fn=lambda: signal.signal(
                signal.SIGINT, signal.SIG_DFL
            ),  # not ignored as in a background job
        )
        deadline = time.monotonic() + 120
        while out.stat().st_size == 0:
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=60)
        assert code == 130, process.stderr.read().decode()[-3000:]
    lines = out.read_text().splitlines()
    indices = [json.loads(line)["index"] for line in lines if line.endswith("}")]
    assert indices == list(range(len(indices))) and len(indices) < 180000
