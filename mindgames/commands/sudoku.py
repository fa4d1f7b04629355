"""What Sudoku adds to the shared solve / check / count / generate (:mod:`mindgames.commands.grid`):
``generate --grade``, and the output ``generate`` has always had (a ``# mindgames sudoku``
header, then each puzzle's comment and line; JSON records of the Sudoku's own fields)."""

from __future__ import annotations

import argparse
import functools
import sys
from typing import Any

from mindgames.models import sudoku
from mindgames.models.generate import Generated, Make
from mindgames.models.kind import GridKind
from mindgames.models.sudoku import ladder, techniques
from mindgames.models.sudoku.generate import generate_with

from ..io import UsageError
from ..render import plural
from .explain import register_path
from .grid_generate import GenerateOutput

GRADES = tuple(techniques.GRADE_NAMES.values())


def extend(
    actions: argparse._SubParsersAction,
    parsers: dict[str, argparse.ArgumentParser],
    kind: GridKind,
    started: float,
) -> None:
    """``--grade`` and Sudoku's output on the shared ``generate``."""
    # --grade is a search over finished puzzles by the deduction ladder, which only Sudoku has
    generate = parsers["generate"]
    generate.add_argument(
        "--grade",
        choices=GRADES,
        metavar="GRADE",
        help=f"a puzzle of this grade, found by search ({', '.join(GRADES)}; each a range of "
        "Sudoku Explainer ratings: docs/explain.md)",
    )
    generate.add_argument(
        "--rating",
        type=rating_range,
        metavar="A-B",
        help="a puzzle rated A to B on Sudoku Explainer's scale (e.g. 2.6-4.4), found by search",
    )
    generate.add_argument(
        "--killer",
        action="store_true",
        help="killer Sudoku: cages cut from each solution, givens removed while unique (often all)",
    )
    generate.set_defaults(output=SudokuOutput())
    register_path(actions, started)


def rating_range(text: str) -> tuple[float, float]:
    """``A-B`` (or one number ``A``: exactly that rating) as (low, high)."""
    low, _, high = text.partition("-")
    try:
        bounds = (float(low), float(high or low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give a range of ratings such as 2.6-4.4") from None
    if bounds[0] > bounds[1] or bounds[0] < 1.0:
        raise argparse.ArgumentTypeError(f"{text!r}: a range from low to high, from 1.0 up")
    return bounds


def graded_fields(puzzle: sudoku.Sudoku) -> dict[str, Any]:
    """The grade and the Sudoku Explainer rating of a generated puzzle, for its JSON record."""
    solving = ladder.solve_by_ladder(puzzle)
    return {
        "grade": solving.grade,
        "grade_name": solving.grade_name,
        "rating": solving.rating,
        "rating_ep": solving.rating_ep,
        "rating_ed": solving.rating_ed,
    }


class SudokuOutput(GenerateOutput):
    """``sudoku generate`` as it wrote before the command was shared by every grid kind."""

    def empty(self, kind: GridKind, options: dict[str, Any]) -> sudoku.Sudoku:
        """The blank grid, with the command line's words for a layout it cannot make."""
        regions = options.get("regions")
        if regions is not None:
            if options.get("box") is not None:
                raise UsageError("give either --box or --regions (a jigsaw has no boxes), not both")
            size = round(len(regions) ** 0.5)
            if size * size != len(regions):
                raise UsageError(f"--regions: {len(regions)} labels do not make a square grid (36 for 6x6)")
            labels = [list(regions[r * size : (r + 1) * size]) for r in range(size)]
            grid = [[0] * size for _ in range(size)]
            return sudoku.make_puzzle(grid, None, labels, bool(options.get("diagonals")), "--regions")
        return kind.empty(**options)

    def make(self, args: argparse.Namespace) -> Make:
        if args.grade is not None and args.rating is not None:
            raise UsageError("give either --grade or --rating, not both")
        return functools.partial(generate_with, grade=args.grade, rating=args.rating, killer=args.killer)

    def json(self, kind: GridKind, item: Generated, args: argparse.Namespace) -> dict[str, Any]:
        puzzle = item.puzzle
        return {
            "index": item.index,
            "status": "generated",
            "puzzle": sudoku.to_line(puzzle.grid),
            "grid": [list(row) for row in puzzle.grid],
            "box": list(puzzle.box) if puzzle.box else None,
            "diagonals": puzzle.diagonals,
            "regions": sudoku.region_labels(puzzle),
            **sudoku.constraints_to_json(puzzle.constraints),
            "givens": len(kind.given_cells(puzzle)),
            "uniqueness": "unique",
            "minimal": True,
            "solution": item.solution,
            "seed": item.seed,
            "engine": args.engine,
            **(graded_fields(puzzle) if args.grade or args.rating else {}),
        }

    def text(self, kind: GridKind, item: Generated, args: argparse.Namespace) -> None:
        puzzle = item.puzzle
        if item.index == 0:  # the reader takes the puzzles below as this variant
            print(sudoku.header(puzzle))
        givens = len(kind.given_cells(puzzle))
        print(f"# {puzzle.variant}: {plural(givens, 'given')}, unique, minimal (seed {item.seed})")
        # a puzzle with variant rules is its JSON line (no line of symbols holds cages)
        print(sudoku.write(puzzle).splitlines()[1] if puzzle.constraints else sudoku.to_text(puzzle))
        sys.stdout.flush()
