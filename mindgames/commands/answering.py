"""Answering one puzzle of a grid command, and writing its answer: what ``mindgames KIND
solve|check|count`` does for each puzzle, the same in one process (:mod:`.grid`) and in
the ``--jobs`` workers (:mod:`.grid_jobs`); and reading a whole FILE (explain, compare).

Nothing here builds a command line: :mod:`.grid` does, and imports this module, as the
workers and :mod:`.explain` do, so no command module imports another in a circle.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

from mindgames.models.actions import ACTIONS
from mindgames.models.kind import GridKind, Parsed
from mindgames.models.runner import PuzzleSolver, Result

from ..io import UsageError, emit_json, read_text
from ..options import unread_fields
from ..render import plural, side_by_side
from . import writing


def stated_options(kind: GridKind, args: argparse.Namespace) -> dict[str, Any]:
    """The kind's options as the user gave them (None: not given)."""
    return {option.name: getattr(args, option.name, None) for option in kind.options}


def read_puzzles(kind: GridKind, args: argparse.Namespace) -> list[Parsed]:
    """The puzzles of FILE, read whole; one unusable puzzle alone is an error (exit 2), in a
    collection a result.  (solve, check and count read as they go: :func:`.grid.read_collection`.)"""
    items = kind.read(read_text(args.file), **stated_options(kind, args))
    if not items:
        raise UsageError(f"{args.file}: no puzzle in it (only comments and blank lines)")
    if len(items) == 1 and not items[0].ok:
        raise items[0].error
    return items


def answer(
    solver: PuzzleSolver,
    kind: GridKind,
    item: Parsed,
    args: argparse.Namespace,
    index: int = 0,
    time_limit: float | None = None,
    on_count: Callable[[int], None] | None = None,
    on_solution: Callable[[], None] | None = None,
) -> Result:
    """``args.action`` on one item of the input: its result, numbered ``index``, with the
    kind's own fields (an unreadable item: ``invalid``, naming what is wrong)."""
    if not item.ok:
        result = Result(status="invalid", error=str(item.error), engine=args.engine)
        result.extra.update(unread_fields(kind, stated_options(kind, args)))
    else:
        result = ask(solver, item.puzzle, args, time_limit, on_count, on_solution, name=f"puzzle-{index + 1}")
        result.extra.update(kind.result_fields(item.puzzle))
        if args.json and writing.asked(args):
            solution = result.solution if args.action == "solve" else None
            result.extra.update(writing.json_fields(kind, args, item.puzzle, solution))
    result.index = index
    return result


def ask(
    solver: PuzzleSolver,
    puzzle: Any,
    args: argparse.Namespace,
    time_limit: float | None = None,
    on_count: Callable[[int], None] | None = None,
    on_solution: Callable[[], None] | None = None,
    name: str = "puzzle",
) -> Result:
    """Run ``args.action`` (solve, check or count) on one valid puzzle.

    A count stops at ``args.limit`` solutions (None: no limit), tells
    ``on_count`` how many it has so far (a few times a second, for progress),
    and says in ``message`` why it stopped early.  An interrupted count
    (Ctrl-C) still reports how many solutions it had found, marked
    incomplete, before the interrupt stops the whole run."""
    if ACTIONS[args.action].certifiable:
        proof_dir = getattr(args, "proof_dir", None)
        proof_format = getattr(args, "proof_format", None)
        certify = (
            {"certify": True, "proof_dir": proof_dir, "name": name, "proof_format": proof_format or "drat"}
            if getattr(args, "certify", False) or proof_dir or proof_format
            else {}
        )
        question = solver.solve if args.action == "solve" else solver.check
        return question(puzzle, time_limit, **certify)
    found = [0]
    shown = [time.monotonic()]

    def seen(_solution: Any) -> None:
        found[0] += 1
        if on_count is not None and time.monotonic() - shown[0] >= 0.1:
            shown[0] = time.monotonic()
            on_count(found[0])
        if on_solution is not None:
            on_solution()

    try:
        result = solver.count(puzzle, args.limit, time_limit, on_solution=seen)
    except KeyboardInterrupt:
        result = Result(
            status="unknown", count=found[0], complete=False, engine=args.engine, message="interrupted"
        )
        emit_json(result.to_json()) if args.json else print(
            f"interrupted after {plural(found[0], 'solution')}"
        )
        raise
    if not result.complete and result.count:
        stopped_by_limit = args.limit is not None and result.count >= args.limit
        result.message = f"stopped at --limit {args.limit}" if stopped_by_limit else "time limit"
    return result


# -- text output -------------------------------------------------------------------------------


def count_text(result: Result) -> str:
    """``1 solution``, ``at least 10 solutions (stopped at --limit 10)``, ``at least 3 solutions (time limit)``."""
    if result.complete:
        return plural(result.count, "solution")
    if not result.count:
        return "unknown (no solution found before the time limit)"
    return f"at least {plural(result.count, 'solution')} ({result.message or 'stopped early'})"


def certified_text(certificate: dict[str, Any] | None) -> str:
    """`` (certified: DRAT, checked)``, or why the answer is not certified; empty without one."""
    if not certificate:
        return ""
    if certificate.get("checked"):
        return f" (certified: {str(certificate.get('kind', 'drat')).upper()}, checked)"
    return f" (not certified: {certificate.get('reason') or 'the proof was not checked'})"


def status_text(result: Result, action: str) -> str:
    """The answer in words: ``solved``, ``unique solution``, ``multiple solutions``, a count, ..."""
    if action == "count":
        return count_text(result)
    certificate = result.extra.get("certificate")
    if certificate:  # the answer the proof is about, then what the proof says
        return f"{result.uniqueness or result.status}{certified_text(certificate)}"
    if action == "check" and result.uniqueness:
        return "unique solution" if result.uniqueness == "unique" else "multiple solutions"
    return result.status


def print_result(
    kind: GridKind,
    result: Result,
    puzzle: Any,
    action: str,
    color: bool,
    numbered: bool,
    args: argparse.Namespace | None = None,
) -> None:
    """The answer's line (``puzzle N:`` when the input held several), then the puzzle
    beside its solution (or beside both witnesses of ``multiple``); with ``--format`` or
    ``--link`` in ``args``, the answer's grid written so (:mod:`.writing`)."""
    head = f"puzzle {result.index + 1}: " if numbered else ""
    if args is not None and writing.asked(args):
        status = result.error if result.status == "invalid" else status_text(result, action)
        solution = result.solution if action == "solve" else None
        shown = None if action == "solve" and solution is None else puzzle
        writing.print_written(kind, args, shown, solution, f"{status}", head)
        return
    if result.status == "invalid":
        print(f"{head}invalid: {result.error}")
        return
    timing = f"{result.seconds * 1000:.1f} ms [{result.engine}]"
    status = status_text(result, action)
    print(f"{head}{kind.describe(puzzle)}: {status}, {timing}")
    if result.message and result.message not in status:  # a count's may be in its status
        print(f"  {result.message}")
    lines = kind.draw(puzzle, None, color)
    if action == "check" and result.uniqueness == "multiple":
        for witness in result.solutions[:2]:
            lines = side_by_side(lines, kind.draw(puzzle, witness, color))
    elif result.solution is not None and action != "count":
        lines = side_by_side(lines, kind.draw(puzzle, result.solution, color))
    print("\n".join(lines))
    print()
    sys.stdout.flush()
