"""Sudoku puzzles with exactly one solution and no removable given (the shared loop of
:mod:`models.generate`, under the names and messages the command line knows)."""

from __future__ import annotations

import random

from solver.deadline import Deadline

from ..errors import PuzzleError
from ..generate import Generator, Progress, Unsolvable
from ..runner import PuzzleSolver
from .kind import SUDOKU
from .puzzle import Sudoku


def generate(
    empty: Sudoku,
    seed: int | None = None,
    engine: str = "sat",
    deadline: Deadline | None = None,
    on_progress: Progress | None = None,
    using: PuzzleSolver | None = None,
) -> tuple[Sudoku, list[list[int]]]:
    """A puzzle of ``empty``'s shape with exactly one solution and no removable given.

    Reproducible for a given ``seed``.  Uniqueness checks run on one
    incremental session (the givens are assumptions), never a rebuilt solver;
    pass ``using`` to share that session between calls.  ``on_progress(stage,
    done, total)`` hears what it is doing; TimeLimitReached when ``deadline``
    passes before the puzzle is done."""
    generator = Generator(SUDOKU, using, engine)
    try:
        return generator.generate(empty, random.Random(seed), deadline or Deadline(None), on_progress)
    except Unsolvable:
        raise PuzzleError(f"a {empty.variant} Sudoku has no solution at all: nothing to generate") from None


#: how many puzzles ``generate_graded`` tries before it gives up on a grade
GRADED_ATTEMPTS = 200


def generate_graded(
    empty: Sudoku,
    grade_name: str,
    seed: int | None = None,
    engine: str = "sat",
    deadline: Deadline | None = None,
    on_progress: Progress | None = None,
    using: PuzzleSolver | None = None,
) -> tuple[Sudoku, list[list[int]]]:
    """A unique, minimal puzzle whose grade (:mod:`models.sudoku.techniques`) is ``grade_name``.

    Puzzles are generated from seeds drawn from ``seed`` (reproducible) until
    one has the grade; PuzzleError after :data:`GRADED_ATTEMPTS` misses (the
    hardest grades are rare among random minimal puzzles)."""
    from .techniques import grade

    seeds = random.Random(seed)
    using = using or PuzzleSolver(SUDOKU, engine)
    for _attempt in range(GRADED_ATTEMPTS):
        puzzle, solution = generate(empty, seeds.randrange(2**32), engine, deadline, on_progress, using)
        if grade(puzzle)[1] == grade_name:
            return puzzle, solution
    raise PuzzleError(f"no {grade_name} puzzle among {GRADED_ATTEMPTS} generated; "
                      f"try another grade or --seed")
