"""Sudoku puzzles with exactly one solution and no removable given (the shared loop of
:mod:`mindgames.models.generate`, under the names and messages the command line knows)."""

from __future__ import annotations

import random

from mindgames.solver.deadline import Deadline

from ..errors import PuzzleError
from ..generate import Generator, Progress, Unsolvable
from ..runner import PuzzleSolver
from .kind import SUDOKU
from .puzzle import Sudoku
from .variants import refuse_constraints


def generate(
    empty: Sudoku,
    seed: int | None = None,
    engine: str = "sat",
    deadline: Deadline | None = None,
    on_progress: Progress | None = None,
    using: PuzzleSolver | None = None,
    grade: str | None = None,
) -> tuple[Sudoku, list[list[int]]]:
    """A puzzle of ``empty``'s shape with exactly one solution and no removable given
    (with ``grade``, one of that grade by :mod:`mindgames.models.sudoku.techniques`: see :func:`_graded`).

    Reproducible for a given ``seed``.  Uniqueness checks run on one
    incremental session (the givens are assumptions), never a rebuilt solver;
    pass ``using`` to share that session between calls.  ``on_progress(stage,
    done, total)`` hears what it is doing; TimeLimitReached when ``deadline``
    passes before the puzzle is done."""
    generator = Generator(SUDOKU, using, engine)
    return generate_with(
        generator, empty, random.Random(seed), deadline or Deadline(None), on_progress, grade
    )


def generate_with(
    generator: Generator,
    empty: Sudoku,
    rng: random.Random,
    deadline: Deadline,
    on_progress: Progress | None = None,
    grade: str | None = None,
) -> tuple[Sudoku, list[list[int]]]:
    """:func:`generate` on a generator and a random generator of the caller's (the ``make``
    of :func:`mindgames.models.generate.generate_puzzles`)."""
    refuse_constraints(empty.constraints, "generate")
    try:
        if grade is not None:
            return _graded(generator, empty, grade, rng, deadline, on_progress)
        return generator.generate(empty, rng, deadline, on_progress)
    except Unsolvable:
        raise PuzzleError(f"a {empty.variant} Sudoku has no solution at all: nothing to generate") from None


#: how many puzzles a graded generation tries before it gives up on the grade
GRADED_ATTEMPTS = 200


def _graded(
    generator: Generator,
    empty: Sudoku,
    grade_name: str,
    rng: random.Random,
    deadline: Deadline,
    on_progress: Progress | None,
) -> tuple[Sudoku, list[list[int]]]:
    """Puzzles generated one after another (from ``rng``: reproducible) until one has the
    grade; PuzzleError after :data:`GRADED_ATTEMPTS` misses (the hardest grades are rare
    among random minimal puzzles)."""
    from .techniques import grade

    for _attempt in range(GRADED_ATTEMPTS):
        puzzle, solution = generator.generate(
            empty, random.Random(rng.randrange(2**32)), deadline, on_progress
        )
        if grade(puzzle, deadline)[1] == grade_name:
            return puzzle, solution
    raise PuzzleError(
        f"no {grade_name} puzzle among {GRADED_ATTEMPTS} generated; try another grade or --seed"
    )
