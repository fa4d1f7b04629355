"""``mindgames sudoku solve|check|count FILE|-``: a thin layer over :mod:`models.sudoku`."""

from __future__ import annotations

import argparse
import sys
import time

from models import sudoku
from models.errors import PuzzleError, TimeLimitReached
from models.runner import Result
from solver import ENGINE_NAMES
from solver.deadline import Deadline

from ..actions import answer as run_action
from ..io import UsageError, emit_json, progress, read_text, seconds_left, stdout_is_terminal
from ..options import nonnegative_int, positive_float, positive_int
from ..render import grid_lines, plural, side_by_side


DEFAULT_COUNT_LIMIT = 10_000


def register(subparsers: argparse._SubParsersAction) -> None:
    # The command line is built at the start of each run, before the other
    # kinds and the engines load: time limits count from here (``args.started``),
    # so that they hold for the whole process.
    started = time.perf_counter()
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
        sub.add_argument("--box", type=box_shape, metavar="RxC",
                         help="box shape of the puzzles (default: a header in the file, else the most square)")
        sub.add_argument("--diagonals", action="store_true", default=None,
                         help="X-Sudoku: both diagonals too (default: as a header in the file says)")
        if action == "count":
            sub.add_argument("--limit", type=nonnegative_int, default=DEFAULT_COUNT_LIMIT, metavar="N",
                             help=f"stop counting at N solutions (default {DEFAULT_COUNT_LIMIT:,}; 0: no limit)")
        sub.set_defaults(func=run, action=action, started=started)

    sub = actions.add_parser(
        "generate", help="puzzles with exactly one solution and no removable given"
    )
    sub.add_argument("--box", type=box_shape, metavar="RxC", help="box shape (default 3x3)")
    sub.add_argument("--regions", metavar="LABELS",
                     help="jigsaw: N*N region labels, row by row (e.g. 36 for 6x6), instead of --box")
    sub.add_argument("--diagonals", action="store_true", help="X-Sudoku: both diagonals too")
    sub.add_argument("--seed", type=int, default=None, help="make the output reproducible")
    sub.add_argument("--count", type=positive_int, default=1, metavar="K", help="how many puzzles")
    sub.add_argument("--engine", choices=ENGINE_NAMES, default="sat", help="default: sat")
    sub.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    sub.add_argument("--time-limit", type=positive_float, metavar="S",
                     help="seconds for the whole run; the puzzles finished by then are written")
    sub.set_defaults(func=run_generate, started=started)


def box_shape(text: str) -> tuple[int, int]:
    """``RxC`` with R, C >= 1 and 4 <= R*C <= 35."""
    box = sudoku.parse_box(text)
    if box is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a box shape like 3x3 or 2x3")
    rows, cols = box
    if min(rows, cols) < 1 or not sudoku.MIN_SIZE <= rows * cols <= sudoku.MAX_SIZE:
        raise argparse.ArgumentTypeError(
            f"box {text} makes a {rows * cols}x{rows * cols} grid; sizes {sudoku.MIN_SIZE}..{sudoku.MAX_SIZE} are supported"
        )
    return rows, cols


def empty_puzzle(args: argparse.Namespace) -> sudoku.Sudoku:
    """The blank grid of the asked variant: --box (default 3x3) or --regions, --diagonals."""
    if args.regions is None:
        box = args.box or (3, 3)
        size = box[0] * box[1]
        return sudoku.make_puzzle([[0] * size for _ in range(size)], list(box), None, args.diagonals)
    if args.box is not None:
        raise UsageError("give either --box or --regions (a jigsaw has no boxes), not both")
    size = round(len(args.regions) ** 0.5)
    if size * size != len(args.regions):
        raise UsageError(f"--regions: {len(args.regions)} labels do not make a square grid (36 for 6x6)")
    labels = [list(args.regions[r * size : (r + 1) * size]) for r in range(size)]
    return sudoku.make_puzzle([[0] * size for _ in range(size)], None, labels, args.diagonals, "--regions")


def run_generate(args: argparse.Namespace) -> int:
    deadline = Deadline(seconds_left(args.time_limit, args.started))  # the whole run
    empty = empty_puzzle(args)
    solver = sudoku.solver(args.engine)
    base_seed = args.seed
    with progress(None, "sudoku generate") as bar:
        for index in range(args.count):
            seed = None if base_seed is None else base_seed + index

            def show(stage: str, done: int, total: int | None) -> None:
                of = f"puzzle {index + 1} of {args.count}: " if args.count > 1 else ""
                bar.update(description=f"sudoku generate: {of}{stage}", completed=done, total=total)

            try:
                puzzle, solution = sudoku.generate(empty, seed, args.engine, deadline, show, solver)
            except TimeLimitReached:
                print(
                    f"mindgames: time limit of {args.time_limit:g} s reached: "
                    f"{plural(index, 'puzzle')} of {args.count} generated",
                    file=sys.stderr,
                )
                break
            givens = sum(1 for row in puzzle.grid for v in row if v)
            if args.json:
                emit_json({
                    "index": index, "status": "generated", "puzzle": sudoku.to_line(puzzle.grid),
                    "grid": [list(row) for row in puzzle.grid],
                    "box": list(puzzle.box) if puzzle.box else None, "diagonals": puzzle.diagonals,
                    "regions": sudoku.region_labels(puzzle), "givens": givens,
                    "uniqueness": "unique", "minimal": True, "solution": solution, "seed": seed,
                    "engine": args.engine,
                })
            else:
                if index == 0:  # the reader takes the puzzles below as this variant
                    print(sudoku.header(empty))
                print(f"# {puzzle.variant}: {plural(givens, 'given')}, unique, minimal (seed {seed})")
                print(sudoku.to_text(puzzle))
            sys.stdout.flush()
    return 0


def run(args: argparse.Namespace) -> int:
    # --time-limit is per puzzle; the first puzzle's budget also pays for
    # starting up, reading the file and loading the engine, so that a
    # one-puzzle run holds the limit as a whole process.
    turn_started = args.started
    text = read_text(args.file)
    stated = None
    if args.box is not None or args.diagonals is not None:
        options = " and ".join(
            option for option, given in (("--box", args.box), ("--diagonals", args.diagonals)) if given
        )
        stated = sudoku.Variant(args.box, args.diagonals, options)
    puzzles = list(sudoku.read_puzzles(text, stated))
    if not puzzles:
        raise UsageError(f"{args.file}: no puzzle in it (only comments and blank lines)")
    if len(puzzles) == 1 and isinstance(puzzles[0], PuzzleError):
        raise puzzles[0]
    solver = sudoku.solver(args.engine)
    color = stdout_is_terminal() and not args.json
    with progress(len(puzzles), f"sudoku {args.action}") as bar:
        for index, puzzle in enumerate(puzzles):
            if len(puzzles) > 1:
                bar.update(description=f"sudoku {args.action}: puzzle {index + 1} of {len(puzzles)}")

            def found(count: int) -> None:
                of = f"puzzle {index + 1} of {len(puzzles)}, " if len(puzzles) > 1 else ""
                bar.update(description=f"sudoku count: {of}{plural(count, 'solution')} so far")

            result = answer(solver, puzzle, args, found, seconds_left(args.time_limit, turn_started))
            turn_started = time.perf_counter()
            result.index = index
            if args.json:
                emit_json(result.to_json())
            else:
                print_result(result, puzzle, args, color, len(puzzles) > 1)
            bar.advance()
    return 0


def answer(solver, puzzle, args: argparse.Namespace, found=None, time_limit: float | None = None) -> Result:
    if isinstance(puzzle, PuzzleError):
        return Result(status="invalid", error=str(puzzle), engine=args.engine)
    return run_action(solver, puzzle, args, found, time_limit)


def count_status(result: Result, limit: int | None) -> str:
    """``1 solution``, ``at least 10 solutions (stopped at --limit 10)``, ``at least 3 solutions (time limit)``."""
    if result.complete:
        return plural(result.count, "solution")
    if not result.count:
        return "unknown (no solution found before the time limit)"
    if limit and result.count >= limit:
        return f"at least {plural(result.count, 'solution')} (stopped at --limit {limit})"
    return f"at least {plural(result.count, 'solution')} (time limit)"


def print_result(result: Result, puzzle, args: argparse.Namespace, color: bool, numbered: bool) -> None:
    action = args.action
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
        status = count_status(result, args.limit)
    print(f"{head}{puzzle.variant}: {status}, {timing}")
    if result.message and result.status != "solved":
        print(f"  {result.message}")

    def draw(grid, givens=None) -> list[str]:
        return grid_lines(grid, box, givens, color and givens is not None, puzzle.regions)

    left = draw(puzzle.grid)
    if action == "check" and result.uniqueness == "multiple":
        first, second = (draw(w, puzzle.grid) for w in result.solutions[:2])
        lines = side_by_side(side_by_side(left, first), second)
    elif result.solution is not None and action != "count":
        lines = side_by_side(left, draw(result.solution, puzzle.grid))
    else:
        lines = left
    print("\n".join(lines))
    print()
    sys.stdout.flush()
