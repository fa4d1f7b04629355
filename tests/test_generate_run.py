"""A publisher's generation run (``KIND generate --count N --out DIR``) and the canonical forms
that remove its duplicates: a puzzle and any symmetric image of it (validity-preserving
symmetries, relabelling included) have one form; a run interrupted and resumed ends with the
same shards as an uninterrupted one."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.cli import main
from mindgames.models.binairo.puzzle import make_puzzle as make_binairo
from mindgames.models.canonical import (
    Duplicates,
    binairo_canonical,
    canonical_form,
    sudoku_canonical,
    sudoku_invariant,
)
from mindgames.models.registry import get_kind
from mindgames.service.settings import child_env

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = [
    [7, 3, 8, 1, 4, 6, 5, 2, 9],
    [6, 1, 9, 5, 2, 7, 3, 8, 4],
    [5, 4, 2, 9, 8, 3, 1, 7, 6],
    [9, 2, 4, 6, 3, 5, 7, 1, 8],
    [3, 5, 1, 8, 7, 9, 4, 6, 2],
    [8, 7, 6, 2, 1, 4, 9, 3, 5],
    [1, 9, 5, 7, 6, 8, 2, 4, 3],
    [4, 8, 7, 3, 9, 2, 6, 5, 1],
    [2, 6, 3, 4, 5, 1, 8, 9, 7],
]


def grid_of(line: str) -> list[list[int]]:
    return [[0 if c == "." else int(c) for c in line[r * 9 : r * 9 + 9]] for r in range(9)]


def symmetric_image(grid: list[list[int]], rng: random.Random) -> list[list[int]]:
    """A random validity-preserving image: rows within bands, bands, columns within stacks,
    stacks, perhaps the transpose, and a relabelling of the digits."""
    bands, stacks = rng.sample(range(3), 3), rng.sample(range(3), 3)
    rows = [b * 3 + r for b in bands for r in rng.sample(range(3), 3)]
    cols = [s * 3 + c for s in stacks for c in rng.sample(range(3), 3)]
    image = [[grid[r][c] for c in cols] for r in rows]
    if rng.random() < 0.5:
        image = [list(col) for col in zip(*image)]
    labels = [0, *rng.sample(range(1, 10), 9)]
    return [[labels[v] for v in row] for row in image]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([grid_of(HARD), SOLUTION]))
def test_every_symmetric_image_of_a_sudoku_has_its_canonical_form_and_its_invariant(seed, grid):
    image = symmetric_image(grid, random.Random(seed))
    assert sudoku_canonical(image, (3, 3)) == sudoku_canonical(grid, (3, 3))
    assert sudoku_invariant(image, (3, 3)) == sudoku_invariant(grid, (3, 3))


def test_the_canonical_form_is_the_least_image_blanks_first_digits_in_order_of_appearance():
    form = sudoku_canonical(grid_of(HARD), (3, 3))
    assert form <= "".join("." if c == "." else c for c in HARD)
    digits = [c for c in form if c != "."]
    assert digits[0] == "1" and sorted(set(digits)) == list("123456789")[: len(set(digits))]
    assert sudoku_canonical(SOLUTION, (3, 3)).startswith("123456789")


def test_puzzles_that_differ_beyond_symmetry_have_different_forms():
    grid = grid_of(HARD)
    fewer = [row[:] for row in grid]
    fewer[0][0] = 0
    assert sudoku_canonical(fewer, (3, 3)) != sudoku_canonical(grid, (3, 3))


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from([0, 1, None]), min_size=24, max_size=24), st.integers(0, 15))
def test_every_image_of_a_binairo_under_the_square_and_complement_has_its_form(values, transform):
    cells = [values[r * 6 : r * 6 + 6] for r in range(4)] + [[None] * 6, [None] * 6]
    image = [row[::-1] for row in cells] if transform & 1 else cells
    image = image[::-1] if transform & 2 else image
    image = [list(col) for col in zip(*image)] if transform & 4 else image
    image = [[None if v is None else 1 - v for v in row] for row in image] if transform & 8 else image
    assert binairo_canonical(image, "takuzu") == binairo_canonical(cells, "takuzu")


def test_duplicates_are_found_up_to_symmetry_and_other_puzzles_are_new():
    sudoku = get_kind("sudoku")
    seen = Duplicates(sudoku)
    puzzle = sudoku.parse_value(HARD)
    image = sudoku.parse_value(
        "".join(
            "." if v == 0 else str(v) for row in symmetric_image(grid_of(HARD), random.Random(3)) for v in row
        )
    )
    assert seen.add(puzzle)
    assert not seen.add(image)
    assert not seen.add(puzzle)
    assert seen.add(sudoku.parse_value("." + HARD[1:]))
    binairo = get_kind("binairo")
    grid = make_binairo([[1, None, None, None], [None] * 4, [None] * 4, [None] * 4])
    swapped = make_binairo([[None] * 4, [None] * 4, [None] * 4, [None, None, None, 0]])
    assert canonical_form(binairo, grid) == canonical_form(binairo, swapped)


# -- the run -----------------------------------------------------------------------------------
def generate(tmp_path: Path, folder: str, *args: str) -> tuple[int, Path]:
    out = tmp_path / folder
    code = main([*args, "--out", str(out), "--seed", "11", "--part-size", "4", "--shard-size", "5"])
    return code, out


def shards(folder: Path) -> list[str]:
    return [p.read_text() for p in sorted(folder.glob("puzzles-*.jsonl"))]


def test_a_run_writes_shards_of_records_and_a_summary(tmp_path):
    code, out = generate(tmp_path, "run", "sudoku", "generate", "--count", "9")
    assert code == 0
    records = [json.loads(line) for text in shards(out) for line in text.splitlines()]
    assert [len(text.splitlines()) for text in shards(out)] == [5, 4]
    assert len({json.dumps(r["puzzle"], sort_keys=True) for r in records}) == 9
    first = records[0]
    assert {"puzzle", "solution", "grade", "seed", "generator"} <= set(first)
    assert first["generator"]["parameters"]["kind"] == "sudoku" and first["generator"]["seed"] == 11
    summary = json.loads((out / "summary.json").read_text())
    assert summary["count"] == 9 and sum(summary["per_grade"].values()) == 9
    assert summary["duplicates"] == 0 and summary["cpu_seconds"] > 0


def test_an_interrupted_run_resumed_ends_as_an_uninterrupted_one(tmp_path):
    whole = generate(tmp_path, "whole", "sudoku", "generate", "--count", "10")[1]
    _, resumed = generate(tmp_path, "resumed", "sudoku", "generate", "--count", "10")
    # Interrupted: a part lost (never renamed into place), the shards not yet written.
    (resumed / "parts" / "part-000001.jsonl").unlink()
    for shard in resumed.glob("puzzles-*.jsonl"):
        shard.unlink()
    code, _ = generate(tmp_path, "resumed", "sudoku", "generate", "--count", "10")
    assert code == 0
    assert shards(resumed) == shards(whole)
    summary = json.loads((resumed / "summary.json").read_text())
    assert (summary["parts_made_now"], summary["parts_reused"]) == (1, 2)


def test_a_run_on_two_worker_processes_ends_as_a_run_on_one_and_resumes_with_either(tmp_path):
    _, one = generate(tmp_path, "one", "sudoku", "generate", "--count", "10")
    code, two = generate(tmp_path, "two", "sudoku", "generate", "--count", "10", "--jobs", "2")
    assert code == 0
    assert shards(two) == shards(one)
    (two / "parts" / "part-000002.jsonl").unlink()  # lost by an interruption
    assert generate(tmp_path, "two", "sudoku", "generate", "--count", "10")[0] == 0  # one process now
    assert shards(two) == shards(one)


def test_ctrl_c_stops_a_run_on_worker_processes_in_one_line_and_the_same_command_finishes_it(tmp_path):
    out = tmp_path / "interrupted"
    command = [
        sys.executable, "-m", "mindgames.cli", "sudoku", "generate", "--count", "40", "--out", str(out),
        "--seed", "11", "--part-size", "4", "--shard-size", "5", "--jobs", "2",
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=child_env(),
        start_new_session=True,  # its own process group, as a terminal's Ctrl-C reaches it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # not ignored as in a background job
    )
    deadline = time.monotonic() + 120
    while len(list((out / "parts").glob("part-*.jsonl"))) < 2:
        assert time.monotonic() < deadline and process.poll() is None, "no part was made"
        time.sleep(0.1)
    os.killpg(process.pid, signal.SIGINT)  # Ctrl-C: the command and its workers
    _, errors = process.communicate(timeout=60)
    assert process.returncode == 130
    assert errors.decode().splitlines() == [
        f"mindgames: interrupted: the parts finished are kept in {out / 'parts'}; rerun the same command to continue"
    ]
    assert list(out.glob("puzzles-*.jsonl")) == []
    finished = subprocess.run(command, capture_output=True, env=child_env(), timeout=300)
    assert finished.returncode == 0, finished.stderr.decode()
    _, whole = generate(tmp_path, "whole", "sudoku", "generate", "--count", "40")
    assert shards(out) == shards(whole)


def test_jobs_belongs_to_a_generation_run(capsys):
    assert main(["sudoku", "generate", "--count", "2", "--jobs", "2"]) == 2
    assert "--jobs: a generation run's option (with --out DIR)" in capsys.readouterr().err


def test_a_larger_count_extends_a_run_to_what_one_run_makes(tmp_path):
    generate(tmp_path, "grown", "sudoku", "generate", "--count", "3")
    _, grown = generate(tmp_path, "grown", "sudoku", "generate", "--count", "7")
    _, once = generate(tmp_path, "once", "sudoku", "generate", "--count", "7")
    assert shards(grown) == shards(once)


def test_duplicates_are_dropped_and_counted(tmp_path):
    code, out = generate(tmp_path, "small", "binairo", "generate", "--size", "4", "--count", "50")
    assert code == 0
    summary = json.loads((out / "summary.json").read_text())
    binairo = get_kind("binairo")
    records = [json.loads(line) for text in shards(out) for line in text.splitlines()]
    forms = {canonical_form(binairo, binairo.parse_value(r["puzzle"])) for r in records}
    assert len(forms) == len(records) == summary["count"]
    assert summary["duplicates"] > 0


def test_a_rerun_with_other_parameters_in_the_same_folder_is_refused(tmp_path, capsys):
    generate(tmp_path, "fixed", "sudoku", "generate", "--count", "2")
    code, _ = generate(tmp_path, "fixed", "sudoku", "generate", "--count", "2", "--engine", "cpsat")
    assert code == 2
    assert "other parameters" in capsys.readouterr().err


@pytest.mark.parametrize("flag", ["--ray=auto"])
def test_ray_without_out_is_refused(flag, capsys):
    assert main(["sudoku", "generate", flag]) == 2
    assert "--out" in capsys.readouterr().err
