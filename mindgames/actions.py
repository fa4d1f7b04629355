"""The solve / check / count actions, the same for every grid kind."""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable

from models.runner import PuzzleSolver, Result

from .io import emit_json
from .render import plural


def answer(
    solver: PuzzleSolver,
    puzzle: Any,
    args: argparse.Namespace,
    on_count: Callable[[int], None] | None = None,
    time_limit: float | None = None,
    on_solution: Callable[[], None] | None = None,
) -> Result:
    """Run ``args.action`` on one valid puzzle; a count calls ``on_solution()`` per solution.

    ``time_limit`` (default ``args.time_limit``) is this puzzle's budget in seconds.
    A count stops at ``args.limit`` solutions (0 or None: no limit) and tells
    ``on_count`` how many it has so far (a few times a second, for progress).
    An interrupted count (Ctrl-C) still reports how many solutions it had
    found, marked incomplete, before the interrupt stops the whole run."""
    if time_limit is None:
        time_limit = args.time_limit
    if args.action == "solve":
        return solver.solve(puzzle, time_limit)
    if args.action == "check":
        return solver.check(puzzle, time_limit)
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
        return solver.count(puzzle, args.limit or None, time_limit, on_solution=seen)
    except KeyboardInterrupt:
        result = Result(status="unknown", count=found[0], complete=False, engine=args.engine,
                        message="interrupted")
        emit_json(result.to_json()) if args.json else print(f"interrupted after {plural(found[0], 'solution')}")
        raise
