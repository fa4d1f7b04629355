"""Run one collection of puzzles on several engines and compare them (``mindgames compare``).

Each puzzle is asked the same question (solve, check or count) by every engine
in turn, each under its own time limit; every answer is a :class:`Row` (the
kind's usual result fields, ``seconds`` and the engine's search ``stats``).
Then:

* :func:`disagreements`: engines that answered (not ``unknown``) must agree
  on the status, the uniqueness and a complete count; a disagreement is a bug
  somewhere, and :func:`check_agreement` raises :class:`Disagreement` naming the
  puzzle and every engine's answer;
* :func:`summarize`: per engine, puzzles answered within the limit, median and
  total seconds, and the ratio of backtracking's time to the engine's
  (``">"`` where backtracking hit the limit: its real time is longer);
* :func:`json_records`, :func:`compare_json`: the rows and the summary as data (for
  ``--json`` and the service); the table, the CSV and the plots that present them live
  in :mod:`mindgames.tables` and :mod:`mindgames.plots`.

Crossing puzzles are compared the same way with *methods* instead of engines
(:func:`mindgames.models.crossing.compare.crossing_rows`: the time-expanded SAT model, a networkx BFS on the
state graph, the seeds' depth-first search over loop-free plans).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mindgames.solver.registry import engine_names

from .actions import ACTIONS, select
from .kind import GridKind, Parsed

if TYPE_CHECKING:  # the service's API process reads rows without loading the engines
    from .runner import PuzzleSolver, Result

BASELINE = "backtrack"  # what every other engine is measured against
CROSSING_BASELINE = "dfs"  # for crossings: the seeds' depth-first search
#: the questions every engine is asked in turn
COMPARABLE_ACTIONS = select(ACTIONS, comparable=True)


def default_engines() -> tuple[str, ...]:
    """What is compared unless told: every engine of the registry."""
    return engine_names()


@dataclass
class Row:
    """One puzzle answered by one engine (or, for crossings, one method)."""

    index: int
    engine: str
    status: str  # solved | unsolvable | unknown | invalid
    answer: str  # what is compared: "unique", "multiple", "3 solutions", "11 crossings", ...
    seconds: float
    stats: dict[str, int] = field(default_factory=dict)
    fields: dict[str, Any] = field(default_factory=dict)  # the kind's usual result fields

    @property
    def limit_reached(self) -> bool:
        """No answer within the time limit (a check may have found one solution by then)."""
        return self.answer.startswith("unknown")

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> Row:
        """A row back from :meth:`to_json` (the service sums up its workers' rows)."""
        return cls(
            record["index"],
            record["engine"],
            record["status"],
            record["answer"],
            record["seconds"],
            record["stats"],
            record,
        )

    def to_json(self) -> dict[str, Any]:
        """``index``, ``engine``, the kind's fields, then ``seconds`` and ``stats``."""
        record = {"index": self.index, "engine": self.engine}
        record.update(
            {k: v for k, v in self.fields.items() if k not in ("index", "engine", "seconds", "stats")}
        )
        record.update(answer=self.answer, seconds=round(self.seconds, 6), stats=self.stats)
        return record


class Disagreement(Exception):
    """Two engines gave different answers to one puzzle: a bug in one of them."""


def make_solver(kind: GridKind, engine: str) -> PuzzleSolver:
    """The solver that answers for ``engine`` (tests put a deliberately wrong one here)."""
    from .runner import PuzzleSolver

    return PuzzleSolver(kind, engine, max_shapes=8)


def answer_of(result: Result, action: str) -> str:
    """What engines must agree on, in words."""
    if result.status in ("unknown", "invalid"):
        return result.status
    if action == "count":
        return f"{result.count} solutions" if result.complete else f"at least {result.count} solutions"
    if action == "check":  # solved without a uniqueness: the time limit came in between
        return result.uniqueness or "unknown (one solution found)"
    return result.status


def grid_rows(
    kind: GridKind,
    items: Sequence[Parsed],
    engines: Sequence[str],
    action: str = "check",
    time_limit: float | None = None,
    limit: int | None = 10_000,
    on_step: Callable[[int, str], None] | None = None,
    solver_for: Callable[[GridKind, str], PuzzleSolver] | None = None,
) -> Iterable[Row]:
    """Every puzzle on every engine, puzzle by puzzle, as rows (a generator: stopping it,
    by Ctrl-C, keeps the rows made so far).  ``on_step(index, engine)`` is told before
    each run (for a progress bar); ``time_limit`` is per puzzle and engine; ``solver_for``
    (default :func:`make_solver`) makes each engine's solver."""
    make = solver_for or make_solver
    solvers = {engine: make(kind, engine) for engine in engines}
    for index, item in enumerate(items):
        for engine, solver in solvers.items():
            if on_step is not None:
                on_step(index, engine)
            if not item.ok:
                yield Row(index, engine, "invalid", "invalid", 0.0, {}, {"error": str(item.error)})
                continue
            started = time.perf_counter()
            if action == "count":
                result = solver.count(item.puzzle, limit, time_limit)
            else:
                result = getattr(solver, action)(item.puzzle, time_limit)
            seconds = time.perf_counter() - started
            result.extra.update(kind.result_fields(item.puzzle))
            yield Row(
                index,
                engine,
                result.status,
                answer_of(result, action),
                seconds,
                dict(result.stats),
                result.to_json(),
            )


def disagreements(rows: Iterable[Row]) -> list[str]:
    """Each puzzle whose answering engines disagree, in words (empty: they all agree).

    ``unknown`` (a time limit) and ``invalid`` rows are no answer; an incomplete
    count (stopped at --limit) agrees with any count at least as large."""
    by_puzzle: dict[int, list[Row]] = {}
    for row in rows:
        if not row.limit_reached and row.status != "invalid":
            by_puzzle.setdefault(row.index, []).append(row)
    found = []
    for index, answered in sorted(by_puzzle.items()):
        exact = {row.answer for row in answered if not row.answer.startswith("at least")}
        if len(exact) > 1:
            said = ", ".join(f"{row.engine}: {row.answer}" for row in answered)
            found.append(f"puzzle {index + 1}: the engines disagree ({said})")
    return found


def check_agreement(rows: Iterable[Row]) -> None:
    """Raise :class:`Disagreement` naming every puzzle the engines disagree on."""
    found = disagreements(rows)
    if found:
        raise Disagreement("; ".join(found) + " -- a bug in one of the engines")


@dataclass
class EngineSummary:
    engine: str
    puzzles: int
    answered: int  # within the time limit
    median_seconds: float
    total_seconds: float
    vs_baseline: str  # "12.3x" (baseline's time / this engine's), ">12.3x", or "" without one
    baseline: str = BASELINE

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "puzzles": self.puzzles,
            "answered": self.answered,
            "median_seconds": round(self.median_seconds, 6),
            "total_seconds": round(self.total_seconds, 6),
            "baseline": self.baseline,
            "vs_baseline": self.vs_baseline,
        }


def ratio(baseline: Sequence[Row], rows: Sequence[Row]) -> str:
    """Baseline's total time over the engine's, on the puzzles both were run on;
    ``>`` when the baseline hit its limit on one of them (its real time is longer)."""
    theirs = {row.index: row for row in baseline}
    shared = [row for row in rows if row.index in theirs and row.status != "invalid"]
    mine = sum(row.seconds for row in shared)
    base = sum(theirs[row.index].seconds for row in shared)
    if not shared or mine <= 0:
        return ""
    bound = ">" if any(theirs[row.index].limit_reached for row in shared) else ""
    times = base / mine
    return f"{bound}{times:,.0f}x" if times >= 10 else f"{bound}{times:.1f}x"


def baseline_of(engines: Sequence[str]) -> str:
    """Backtracking for grid kinds, the seeds' DFS for crossings."""
    return CROSSING_BASELINE if CROSSING_BASELINE in engines else BASELINE


def summarize(rows: Sequence[Row], engines: Sequence[str]) -> list[EngineSummary]:
    """Per engine, in the order given."""
    name = baseline_of(engines)
    baseline = [row for row in rows if row.engine == name]
    summaries = []
    for engine in engines:
        mine = [row for row in rows if row.engine == engine]
        times = [row.seconds for row in mine] or [0.0]
        summaries.append(
            EngineSummary(
                engine,
                len(mine),
                sum(1 for row in mine if not row.limit_reached and row.status != "invalid"),
                statistics.median(times),
                sum(times),
                "1x" if engine == name else ratio(baseline, mine) if baseline else "",
                name,
            )
        )
    return summaries


def agreement_line(rows: Sequence[Row]) -> str:
    found = disagreements(rows)
    if found:
        return "DISAGREEMENT: " + "; ".join(found)
    puzzles = len({row.index for row in rows})
    undecided = len({row.index for row in rows if row.limit_reached})
    tail = f" ({undecided} with an engine at its time limit)" if undecided else ""
    which = "the puzzle" if puzzles == 1 else f"all {puzzles} puzzles"
    return f"agreement: the engines agree on {which}{tail}"


def json_records(rows: Sequence[Row], engines: Sequence[str], interrupted: bool = False) -> list[dict]:
    """One object per puzzle and engine, then one with ``"summary": true``."""
    found = disagreements(rows)
    summary = {
        "summary": True,
        "engines": [s.to_json() for s in summarize(rows, engines)],
        "agree": not found,
        "disagreements": found,
        "interrupted": interrupted,
    }
    return [row.to_json() for row in rows] + [summary]


def compare_json(rows: Sequence[Row], engines: Sequence[str], stopped: bool = False) -> dict:
    """The service's answer: ``rows`` (as in ``--json``), ``summary``, ``agreement`` (the line)."""
    *records, summary = json_records(rows, engines, stopped)
    return {"rows": records, "summary": summary, "agreement": agreement_line(rows)}
