"""`mindgames compare`: engines side by side, their search statistics, agreement, plots, limits."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mindgames import tables
from mindgames.cli import main
from mindgames.models import compare
from mindgames.models.crossing.compare import CROSSING_METHODS
from mindgames.models.registry import get_kind
from mindgames.models.runner import PuzzleSolver
from mindgames.solver import get_engine
from mindgames.solver.model import Model
from tests.conftest import REPO
from tests.test_sudoku import SEED_PUZZLE, WIKI_PUZZLE

SEED = str(REPO / "data" / "sudoku" / "seed.txt")
TAKUZU_6 = str(REPO / "data" / "binairo" / "takuzu_6x6.txt")


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def records(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


# -- agreement -----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind, path", [("sudoku", SEED), ("binairo", TAKUZU_6)])
def test_the_engines_agree_on_the_bundled_puzzles(capsys, kind, path):
    code, out, _ = run(capsys, "compare", kind, path, "--time-limit", "2", "--json")
    assert code == 0
    *rows, summary = records(out)
    assert summary["summary"] is True and summary["agree"] is True and summary["disagreements"] == []
    assert {row["engine"] for row in rows} == {"sat", "cpsat", "backtrack"}
    answered = [row for row in rows if row["status"] != "unknown"]
    for index in {row["index"] for row in rows}:
        assert len({row["answer"] for row in answered if row["index"] == index}) == 1


class WrongSolver(PuzzleSolver):
    """A deliberately wrong engine: says every unique puzzle has several solutions."""

    def check(self, puzzle, time_limit=None, **certify):
        result = super().check(puzzle, time_limit)
        if result.uniqueness == "unique":
            result.uniqueness = "multiple"
        return result


def test_a_wrong_engine_is_a_loud_error_naming_the_puzzle(capsys, monkeypatch):
    def make_solver(kind, engine):
        return WrongSolver(kind, "sat") if engine == "cpsat" else PuzzleSolver(kind, engine)

    monkeypatch.setattr(compare, "make_solver", make_solver)
    code, out, err = run(capsys, "compare", "sudoku", SEED, "--engines", "sat,cpsat")
    assert code == 1
    assert "DISAGREEMENT" in out  # the table is still printed
    assert "puzzle 1: the engines disagree (sat: unique, cpsat: multiple)" in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_check_stopped_after_one_solution_is_no_answer():
    sudoku = get_kind("sudoku")
    result = PuzzleSolver(sudoku, "sat").solve(sudoku.read(SEED_PUZZLE)[0].puzzle)  # no uniqueness
    assert compare.answer_of(result, "check").startswith("unknown")
    row = compare.Row(0, "backtrack", result.status, compare.answer_of(result, "check"), 2.0)
    assert (
        row.limit_reached
        and compare.disagreements([row, compare.Row(0, "sat", "solved", "unique", 0.1)]) == []
    )


answers = st.sampled_from(["unique", "multiple", "unsolvable", "unknown", "unknown (one solution found)"])


@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.sampled_from(["sat", "cpsat", "backtrack"]), answers), max_size=12
    )
)
def test_engines_disagree_exactly_when_two_answers_within_the_limit_differ(said):
    rows = [
        compare.Row(i, engine, "unknown" if a.startswith("unknown") else "solved", a, 0.1)
        for i, engine, a in said
    ]
    found = compare.disagreements(rows)
    for index in {i for i, _, _ in said}:
        decided = {a for i, _, a in said if i == index and not a.startswith("unknown")}
        assert any(f.startswith(f"puzzle {index + 1}:") for f in found) == (len(decided) > 1)


def test_an_unknown_answer_is_no_disagreement():
    rows = [
        compare.Row(0, "sat", "solved", "unique", 0.1),
        compare.Row(0, "backtrack", "unknown", "unknown", 1.0),
    ]
    assert compare.disagreements(rows) == []
    assert "1 with an engine at its time limit" in compare.agreement_line(rows)


# -- search statistics ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "engine, work", [("sat", "propagations"), ("cpsat", "booleans"), ("backtrack", "nodes")]
)
def test_every_result_has_the_engines_statistics(capsys, engine, work):
    code, out, _ = run(capsys, "sudoku", "solve", SEED, "--engine", engine, "--json", "--time-limit", "5")
    first = records(out)[0]
    names = type(get_engine(engine).prepare(Model())).STATS  # the names each engine documents
    assert code == 0 and list(first["stats"]) == list(names)
    assert all(isinstance(value, int) and value >= 0 for value in first["stats"].values())


def test_statistics_are_positive_where_search_happened():
    sudoku = get_kind("sudoku")
    puzzle = sudoku.read(SEED_PUZZLE)[0].puzzle
    backtrack = PuzzleSolver(sudoku, "backtrack").check(puzzle).stats
    assert backtrack["nodes"] > 0 and backtrack["backtracks"] > 0 and backtrack["max_depth"] > 0
    sat = PuzzleSolver(sudoku, "sat").check(puzzle).stats
    assert sat["propagations"] > 0  # the second call, blocking the solution, propagates
    hard = sudoku.read(WIKI_PUZZLE)[0].puzzle
    assert PuzzleSolver(sudoku, "sat").solve(hard).stats["decisions"] > 0


def test_crossing_methods_agree_and_count_their_work(capsys):
    code, out, _ = run(capsys, "compare", "crossing", "wolf-goat-cabbage", "--json")
    assert code == 0
    *rows, summary = records(out)
    assert [row["engine"] for row in rows] == list(CROSSING_METHODS)
    assert {row["crossings"] for row in rows} == {7} and summary["agree"]
    by_method = {row["engine"]: row["stats"] for row in rows}
    assert by_method["bfs"]["states"] > 0 and by_method["bfs"]["edges"] > 0
    assert by_method["dfs"]["expanded"] > 0 and by_method["dfs"]["paths"] > 0
    assert summary["engines"][0]["baseline"] == "dfs"


# -- output forms ----------------------------------------------------------------------------------


def test_the_table_has_rows_a_summary_and_an_agreement_line(capsys):
    code, out, _ = run(
        capsys,
        "compare",
        "sudoku",
        SEED,
        "--engines",
        "sat,backtrack",
        "--action",
        "solve",
        "--time-limit",
        "1",
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["puzzle", "engine", "answer", "seconds", "work"]
    assert sum(line.startswith(("1 ", "2 ")) for line in lines) == 4
    assert any(line.split()[:2] == ["sat", "2/2"] for line in lines)
    assert lines[-1].startswith("agreement: the engines agree on all 2 puzzles")


def test_json_and_csv_columns_are_stable(capsys):
    code, out, _ = run(capsys, "compare", "sudoku", SEED, "--engines", "sat,cpsat", "--json")
    *rows, summary = records(out)
    assert list(rows[0])[:2] == ["index", "engine"] and list(rows[0])[-3:] == ["answer", "seconds", "stats"]
    assert {"status", "solution", "uniqueness"} <= set(rows[0])
    assert set(summary) == {"summary", "engines", "agree", "disagreements", "interrupted"}
    assert set(summary["engines"][0]) == {
        "engine",
        "puzzles",
        "answered",
        "median_seconds",
        "total_seconds",
        "baseline",
        "vs_baseline",
    }
    code, out, _ = run(capsys, "compare", "sudoku", SEED, "--engines", "sat,cpsat", "--csv")
    table = list(csv.reader(io.StringIO(out)))
    assert code == 0 and tuple(table[0]) == tables.CSV_COLUMNS and len(table) == 5
    assert table[1][:4] == ["0", "sat", "solved", "unique"]


@pytest.mark.parametrize("name", ["cactus.svg", "cactus.png"])
def test_a_collection_is_drawn_as_a_cactus_plot(capsys, tmp_path, name):
    path = tmp_path / name
    code, _, _ = run(capsys, "compare", "sudoku", SEED, "--engines", "sat,cpsat", "--plot", str(path))
    assert code == 0 and path.stat().st_size > 5_000
    if name.endswith(".png"):
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    else:
        assert ElementTree.parse(path).getroot().tag.endswith("svg")


def test_one_puzzle_is_drawn_as_bars(capsys, tmp_path):
    source = tmp_path / "one.txt"
    source.write_text(SEED_PUZZLE + "\n")
    path = tmp_path / "bars.svg"
    code, _, _ = run(capsys, "compare", "sudoku", str(source), "--plot", str(path))
    assert code == 0 and path.stat().st_size > 5_000
    assert ElementTree.parse(path).getroot().tag.endswith("svg")


@pytest.mark.parametrize(
    "args, named",
    [
        (["--plot", "x.pdf"], "--plot x.pdf"),
        (["--engines", "sat,dlx"], "dlx"),
        (["--time-limit", "0"], "time-limit"),
    ],
)
def test_bad_arguments_are_one_line_errors(capsys, args, named):
    try:
        code, _, err = run(capsys, "compare", "sudoku", SEED, *args)
    except SystemExit as stop:  # argparse's own errors
        code, err = stop.code, capsys.readouterr().err
    assert code == 2 and named in err and "Traceback" not in err


# -- limits ------------------------------------------------------------------------------------------


def test_the_time_limit_holds_per_puzzle_and_engine(capsys):
    # backtracking needs minutes for the second seed puzzle's uniqueness
    code, out, _ = run(
        capsys, "compare", "sudoku", SEED, "--engines", "sat,backtrack", "--time-limit", "0.5", "--json"
    )
    *rows, summary = records(out)
    assert code == 0 and len(rows) == 4
    slow = [row for row in rows if row["index"] == 1 and row["engine"] == "backtrack"][0]
    assert slow["status"] == "unknown" and slow["stats"]["nodes"] > 0
    assert summary["engines"][0]["vs_baseline"].startswith(">")


def test_ctrl_c_prints_the_table_of_what_finished(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mindgames.cli",
            "compare",
            "sudoku",
            SEED,
            "--engines",
            "sat,backtrack",
            "--time-limit",
            "600",
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    time.sleep(6)  # well into backtracking on the second puzzle (minutes)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "Traceback" not in err
    *rows, summary = records(out)
    assert summary["interrupted"] is True and 1 <= len(rows) <= 3
    assert rows[0]["index"] == 0 and rows[0]["engine"] == "sat"
