"""The solve / check / count actions, the same for every grid kind."""

from __future__ import annotations

import argparse
from typing import Any, Callable

from models.runner import PuzzleSolver, Result

from .io import emit_json


def answer(
    solver: PuzzleSolver, puzzle: Any, args: argparse.Namespace,
    on_solution: Callable[[], None] | None = None,
) -> Result:
    """Run ``args.action`` on one valid puzzle; a count calls ``on_solution()`` per solution.

    An interrupted count (Ctrl-C) still reports how many solutions it had
    found, marked incomplete, before the interrupt stops the whole run."""
    if args.action == "solve":
        return solver.solve(puzzle, args.time_limit)
    if args.action == "check":
        return solver.check(puzzle, args.time_limit)
    found = [0]

    def seen(_solution: Any) -> None:
        found[0] += 1
        if on_solution is not None:
            on_solution()

    try:
        return solver.count(puzzle, args.limit, args.time_limit, on_solution=seen)
    except KeyboardInterrupt:
        result = Result(status="unknown", count=found[0], complete=False, engine=args.engine,
                        message="interrupted")
        emit_json(result.to_json()) if args.json else print(f"interrupted after {found[0]} solutions")
        raise
