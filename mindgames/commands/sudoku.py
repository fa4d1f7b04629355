"""``mindgames sudoku solve|check|count FILE|-``: a thin layer over :mod:`models.sudoku`."""

from __future__ import annotations

import argparse
import sys

from models import sudoku
from models.errors import PuzzleError
from models.runner import Result
from solver import ENGINE_NAMES

from ..actions import answer as run_action
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

    sub = actions.add_parser(
        "generate", help="puzzles with exactly one solution and no removable given"
    )
    sub.add_argument("--box", type=box_shape, default=(3, 3), metavar="RxC", help="box shape (default 3x3)")
    sub.add_argument("--diagonals", action="store_true", help="X-Sudoku: both diagonals too")
    sub.add_argument("--seed", type=int, default=None, help="make the output reproducible")
    sub.add_argument("--count", type=positive_int, default=1, metavar="K", help="how many puzzles")
    sub.add_argument("--engine", choices=ENGINE_NAMES, default="sat", help="default: sat")
    sub.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    sub.set_defaults(func=run_generate)


def box_shape(text: str) -> tuple[int, int]:
    """``RxC`` with R, C >= 1 and 4 <= R*C <= 35."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"{text!r} is not a box shape like 3x3 or 2x3")
    rows, cols = int(parts[0]), int(parts[1])
    if min(rows, cols) < 1 or not sudoku.MIN_SIZE <= rows * cols <= sudoku.MAX_SIZE:
        raise argparse.ArgumentTypeError(
            f"box {text} makes a {rows * cols}x{rows * cols} grid; sizes {sudoku.MIN_SIZE}..{sudoku.MAX_SIZE} are supported"
        )
    return rows, cols


def run_generate(args: argparse.Namespace) -> int:
    size = args.box[0] * args.box[1]
    empty = sudoku.make_puzzle([[0] * size for _ in range(size)], list(args.box), None, args.diagonals)
    base_seed = args.seed
    with progress(args.count, "sudoku generate") as bar:
        for index in range(args.count):
            seed = None if base_seed is None else base_seed + index
            puzzle, solution = sudoku.generate(empty, seed, args.engine)
            givens = sum(1 for row in puzzle.grid for v in row if v)
            if args.json:
                emit_json({
                    "index": index, "status": "generated", "puzzle": sudoku.to_line(puzzle.grid),
                    "grid": [list(row) for row in puzzle.grid], "box": list(args.box),
                    "diagonals": args.diagonals, "givens": givens, "uniqueness": "unique",
                    "minimal": True, "solution": solution, "seed": seed, "engine": args.engine,
                })
            else:
                print(f"# {puzzle.variant}: {givens} givens, unique, minimal (seed {seed})")
                print(sudoku.to_line(puzzle.grid))
            bar.advance()
    return 0


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
    return run_action(solver, puzzle, args)


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
