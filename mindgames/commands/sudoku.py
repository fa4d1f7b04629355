"""``mindgames sudoku generate``: what Sudoku adds to the shared solve / check / count
(:mod:`mindgames.commands.grid`), a thin layer over :mod:`mindgames.models.sudoku`."""

from __future__ import annotations

import argparse
import sys

from mindgames.models import sudoku
from mindgames.models.errors import TimeLimitReached
from mindgames.models.kind import GridKind
from mindgames.models.sudoku import techniques
from mindgames.solver import engine_names
from mindgames.solver.deadline import Deadline

from ..io import UsageError, emit_json, progress, seconds_left
from ..options import positive_float, positive_int
from ..render import plural
from .grid import argument_type

GRADES = tuple(techniques.GRADE_NAMES.values())


def extend(
    actions: argparse._SubParsersAction,
    parsers: dict[str, argparse.ArgumentParser],
    kind: GridKind,
    started: float,
) -> None:
    """``mindgames sudoku generate``, beside the shared solve / check / count."""
    sub = actions.add_parser("generate", help="puzzles with exactly one solution and no removable given")
    box = next(option for option in kind.options if option.name == "box")
    sub.add_argument("--box", type=argument_type(box), metavar="RxC", help="box shape (default 3x3)")
    sub.add_argument(
        "--regions",
        metavar="LABELS",
        help="jigsaw: N*N region labels, row by row (e.g. 36 for 6x6), instead of --box",
    )
    sub.add_argument("--diagonals", action="store_true", help="X-Sudoku: both diagonals too")
    sub.add_argument("--seed", type=int, default=None, help="make the output reproducible")
    sub.add_argument(
        "--grade",
        choices=GRADES,
        metavar="GRADE",
        help=f"only puzzles of this grade by the deduction ladder ({', '.join(GRADES)})",
    )
    sub.add_argument("--count", type=positive_int, default=1, metavar="K", help="how many puzzles")
    sub.add_argument("--engine", choices=engine_names(), default="sat", help="default: sat")
    sub.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    sub.add_argument(
        "--time-limit",
        type=positive_float,
        metavar="S",
        help="seconds for the whole run; the puzzles finished by then are written",
    )
    sub.set_defaults(func=run_generate, started=started)


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

            def show(stage: str, done: int, total: int | None, index: int = index) -> None:
                of = f"puzzle {index + 1} of {args.count}: " if args.count > 1 else ""
                bar.update(description=f"sudoku generate: {of}{stage}", completed=done, total=total)

            try:
                puzzle, solution = sudoku.generate(
                    empty, seed, args.engine, deadline, show, solver, args.grade
                )
            except TimeLimitReached:
                print(
                    f"mindgames: time limit of {args.time_limit:g} s reached: "
                    f"{plural(index, 'puzzle')} of {args.count} generated",
                    file=sys.stderr,
                )
                break
            givens = sum(1 for row in puzzle.grid for v in row if v)
            if args.json:
                emit_json(
                    {
                        "index": index,
                        "status": "generated",
                        "puzzle": sudoku.to_line(puzzle.grid),
                        "grid": [list(row) for row in puzzle.grid],
                        "box": list(puzzle.box) if puzzle.box else None,
                        "diagonals": puzzle.diagonals,
                        "regions": sudoku.region_labels(puzzle),
                        "givens": givens,
                        "uniqueness": "unique",
                        "minimal": True,
                        "solution": solution,
                        "seed": seed,
                        "engine": args.engine,
                    }
                )
            else:
                if index == 0:  # the reader takes the puzzles below as this variant
                    print(sudoku.header(empty))
                print(f"# {puzzle.variant}: {plural(givens, 'given')}, unique, minimal (seed {seed})")
                print(sudoku.to_text(puzzle))
            sys.stdout.flush()
    return 0
