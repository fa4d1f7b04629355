"""An engine that can search for hours stops by itself when no time limit is given
(issue 24, item 10): the seed's second Sudoku on plain backtracking ran 11 minutes with
no output on a pipe.  The engine's registry entry says how long a puzzle may take when
the user says nothing; the command says so on stderr, and ``--time-limit`` overrides it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindgames.cli import main
from mindgames.solver import engine_info
from mindgames.solver.backtrack import BacktrackEngine
from mindgames.solver.registry import EngineInfo, register_engine, unregister_engine

SEED = Path(__file__).resolve().parent.parent / "data" / "sudoku" / "seed.txt"


def test_backtracking_has_a_default_time_limit_and_the_fast_engines_none():
    assert engine_info("backtrack").default_time_limit == 60.0
    assert engine_info("sat").default_time_limit is None
    assert engine_info("cpsat").default_time_limit is None


class HastyEngine(BacktrackEngine):
    name = "hasty"


@pytest.fixture
def hasty():
    """Backtracking with a one-second default, so that the test waits seconds, not a minute."""
    register_engine(
        EngineInfo(
            "hasty",
            f"{__name__}:HastyEngine",
            "backtracking with a short default",
            engine_info("backtrack").capabilities,
            default_time_limit=1.0,
        )
    )
    yield "hasty"
    unregister_engine("hasty")


def test_a_run_without_a_limit_stops_at_the_engines_default_and_says_so(hasty, capsys):
    code = main(["sudoku", "solve", str(SEED), "--engine", hasty, "--json"])
    out, err = capsys.readouterr()
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [r["status"] for r in records] == ["solved", "unknown"]  # the second is the hard one
    assert "no --time-limit given" in err and "1 s" in err


def test_a_stated_time_limit_is_kept_and_nothing_is_said(capsys):
    code = main(["sudoku", "check", str(SEED), "--engine", "backtrack", "--time-limit", "0.5", "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and "time-limit" not in err
    assert [json.loads(line)["status"] for line in out.splitlines()][1] == "unknown"
