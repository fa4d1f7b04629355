"""``mindgames sudoku solve|check|count FILE|-``: a thin layer over :mod:`models.sudoku`."""

from __future__ import annotations

import argparse
import sys

from models import sudoku
from models.errors import PuzzleError
from models.runner import Result
from solver import ENGINE_NAMES

from ..io import UsageError, emit_json, progress, read_text, stdout_is_terminal
from ..options import positive_float, positive_int
from ..render import grid_lines, side_by_side


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("sudoku", help="Sudoku of any box shape, X-Sudoku, jigsaw")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    for action, help_text in (
        ("solve", "solve each puzzle"),
        ("check", "unique / multiple (two witnesses) / unsolvable"),
        ("count", "count solutions (up to --limit)"),
    ):
        sub = actions.add_parser(action, help=help_text)
        sub.add_argument("file", metavar="FILE", help="puzzle file, or - for standard input")
        sub.add_argument("--engine", choices=ENGINE_NAMES, default="sat", help="default: sat")
        sub.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
        sub.add_argument("--time-limit", type=positive_float, metavar="S", help="seconds per puzzle")
        if action == "count":
            sub.add_argument("--limit", type=positive_int, metavar="N", help="stop counting at N")
        sub.set_defaults(func=run, action=action)


def run(args: argparse.Namespace) -> int:
    text = read_text(args.file)
    puzzles = list(sudoku.read_puzzles(text))
    if not puzzles:
        raise UsageError(f"{args.file}: no puzzle in it (only comments and blank lines)")
    if len(puzzles) == 1 and isinstance(puzzles[0], PuzzleError):
        raise puzzles[0]
    solver = sudoku.solver(args.engine)
    color = stdout_is_terminal() and not args.json
    with progress(len(puzzles), f"sudoku {args.action}") as bar:
        for index, puzzle in enumerate(puzzles):
            result = answer(solver, puzzle, args)
            result.index = index
            if args.json:
                emit_json(result.to_json())
            else:
                print_result(result, puzzle, args.action, color, len(puzzles) > 1)
            bar.advance()
    return 0


def answer(solver, puzzle, args: argparse.Namespace) -> Result:
    if isinstance(puzzle, PuzzleError):
        return Result(status="invalid", error=str(puzzle), engine=args.engine)
    if args.action == "solve":
        return solver.solve(puzzle, args.time_limit)
    if args.action == "check":
        return solver.check(puzzle, args.time_limit)
    found = [0]

    def seen(_solution) -> None:
        found[0] += 1

    try:
        return solver.count(puzzle, args.limit, args.time_limit, on_solution=seen)
    except KeyboardInterrupt:
        # Report what was counted, then stop the whole run.
        result = Result(status="unknown", count=found[0], complete=False, engine=args.engine,
                        message="interrupted")
        emit_json(result.to_json()) if args.json else print(f"interrupted after {found[0]} solutions")
        raise


def print_result(result: Result, puzzle, action: str, color: bool, numbered: bool) -> None:
    head = f"puzzle {result.index + 1}: " if numbered else ""
    if result.status == "invalid":
        print(f"{head}invalid: {result.error}")
        return
    timing = f"{result.seconds * 1000:.1f} ms [{result.engine}]"
    box = puzzle.box
    status = result.status
    if action == "check" and result.uniqueness:
        status = f"{result.uniqueness} solution" if result.uniqueness == "unique" else "multiple solutions"
    if action == "count":
        more = "" if result.complete else " or more (stopped early)"
        status = f"{result.count}{more} solution{'s' if result.count != 1 else ''}"
    print(f"{head}{puzzle.variant}: {status}, {timing}")
    if result.message and result.status != "solved":
        print(f"  {result.message}")
    left = grid_lines(puzzle.grid, box)
    if action == "check" and result.uniqueness == "multiple":
        first, second = (grid_lines(w, box, puzzle.grid, color) for w in result.solutions[:2])
        lines = side_by_side(side_by_side(left, first), second)
    elif result.solution is not None and action != "count":
        lines = side_by_side(left, grid_lines(result.solution, box, puzzle.grid, color))
    else:
        lines = left
    print("\n".join(lines))
    print()
    sys.stdout.flush()
