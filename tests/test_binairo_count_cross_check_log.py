"""``count --size N --cross-check K`` keeps a log of its recounts: an interrupted cross-check
resumes, recounting only the cubes the log does not hold, and a recount that differs from the
count still fails the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindgames.models.binairo import count as binairo_count
from tests.test_binairo_limits import cli


def logged_cubes(log: Path) -> list[int]:
    lines = log.read_text().splitlines()
    assert json.loads(lines[0]) == {
        "rows": 8,
        "cols": 8,
        "rules": "takuzu",
        "method": "mitm",
        "cubes": len(binairo_count.cubes(binairo_count.tables(8, 8, "takuzu"), "mitm")),
        "log": "cross-check",
    }
    return [json.loads(line)["cube"] for line in lines[1:]]


def test_an_interrupted_cross_check_resumes_from_its_log_recounting_only_the_rest(tmp_path, monkeypatch):
    log = tmp_path / "recounts.jsonl"

    def interrupt_after_two(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        binairo_count.check_cubes(8, 8, "takuzu", sample=6, seed=4, log=log, on_progress=interrupt_after_two)
    first = logged_cubes(log)
    assert len(first) == 2
    entry = json.loads(log.read_text().splitlines()[1])
    assert set(entry) == {"cube", "rows", "count", "recount", "agrees", "method", "cpu_seconds"}

    recounted = []
    run_cubes = binairo_count.run_cubes

    def watched(t, rules, method, pending, *rest):
        recounted.extend(index for index, _, _ in pending)
        return run_cubes(t, rules, method, pending, *rest)

    monkeypatch.setattr(binairo_count, "run_cubes", watched)
    recounts = binairo_count.check_cubes(8, 8, "takuzu", sample=6, seed=4, log=log)
    assert len(recounts) == 6 and all(x.agrees for x in recounts)
    assert sorted(x.cube for x in recounts if x.logged) == sorted(first)
    assert sorted(recounted) == sorted(x.cube for x in recounts if not x.logged)
    assert sorted(logged_cubes(log)) == sorted(x.cube for x in recounts)  # each recount once


def test_the_command_reads_the_log_reports_what_it_read_and_exits_1_on_a_logged_difference(tmp_path):
    log = tmp_path / "recounts.jsonl"
    argv = ["binairo", "count", "--size", "8", "--method", "mitm", "--cross-check", "5"]
    code, out, _ = cli(*argv, "--cross-check-log", str(log), "--json")
    assert code == 0
    assert not any("logged" in r for r in json.loads(out)["recounts"])
    lines = log.read_text().splitlines()
    assert len(lines) == 6
    # cut short after two recounts, the third line half written
    log.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])
    code, out, _ = cli(*argv, "--cross-check-log", str(log), "--json")
    result = json.loads(out)
    assert code == 0 and len(result["recounts"]) == 5
    assert sum(r.get("logged", False) for r in result["recounts"]) == 2
    assert f"cross-check: 2 of 5 recounts read from {log}" in result["checked"]
    assert len(logged_cubes(log)) == 5
    # a recount on record that differs from the count is a failure, read or recounted
    lines = log.read_text().splitlines()
    wrong = json.loads(lines[1])
    wrong["recount"] += 1
    log.write_text("\n".join([lines[0], json.dumps(wrong), *lines[2:]]) + "\n")
    code, out, err = cli(*argv, "--cross-check-log", str(log))
    assert code == 1 and "cross-check failed: 1 of 5" in err
    assert "DIFFERENT" in out and "from the cross-check log" in out


def test_a_count_checkpoint_is_not_taken_for_a_cross_check_log(tmp_path):
    checkpoint = tmp_path / "c8.jsonl"
    code, _, _ = cli("binairo", "count", "--size", "8", "--checkpoint", str(checkpoint), "--cross-check", "1")
    assert code == 0 and (tmp_path / "c8.cross-check.jsonl").exists()  # beside the checkpoint
    code, _, err = cli(
        "binairo", "count", "--size", "8", "--cross-check", "1", "--cross-check-log", str(checkpoint)
    )
    assert code != 0 and "cross-check log of another job" in err and "Traceback" not in err
