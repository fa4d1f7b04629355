"""Sudoku puzzles with exactly one solution and no removable given (the shared loop of
:mod:`mindgames.models.generate`, under the names and messages the command line knows)."""

from __future__ import annotations

import random
from dataclasses import replace

from mindgames.solver.deadline import Deadline

from ..errors import PuzzleError, TimeLimitReached
from ..generate import Generator, Progress, Unsolvable, cells_of
from ..runner import PuzzleSolver
from .kind import SUDOKU
from .puzzle import Sudoku
from .variants import Cage, Constraints, refuse_constraints


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
    killer: bool = False,
) -> tuple[Sudoku, list[list[int]]]:
    """:func:`generate` on a generator and a random generator of the caller's (the ``make``
    of :func:`mindgames.models.generate.generate_puzzles`).

    ``empty`` may carry variant rules: the givens are then made minimal under them (the
    rules stay as they are); ``killer``: cages made here too (:func:`killer`)."""
    if grade is not None:  # the ladder knows units only
        refuse_constraints(empty.constraints, "generate --grade")
    try:
        if killer:
            return _killer(generator, empty, rng, deadline, on_progress)
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


#: the largest cage :func:`killer_cages` makes
CAGE_CELLS_AT_MOST = 5


def killer_cages(solution: list[list[int]], rng: random.Random) -> tuple[Cage, ...]:
    """Cages covering the grid, each of orthogonally connected cells with no digit twice,
    mostly 2 to 4 cells (a cell left alone joins a neighbouring cage: up to one more than
    :data:`CAGE_CELLS_AT_MOST`; it stays alone only when no neighbouring cage can take it), its total the sum of ``solution``'s
    digits in it."""
    size = len(solution)
    free = {(r, c) for r in range(size) for c in range(size)}
    cages: list[list[tuple[int, int]]] = []
    for start in sorted(free, key=lambda cell: rng.random()):
        if start not in free:
            continue
        wanted = rng.choice((2, 2, 3, 3, 3, 4, 4, 5))
        cells, digits = [start], {solution[start[0]][start[1]]}
        free.discard(start)
        while len(cells) < min(wanted, CAGE_CELLS_AT_MOST):
            around = [
                (r + dr, c + dc)
                for r, c in cells
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if (r + dr, c + dc) in free and solution[r + dr][c + dc] not in digits
            ]
            if not around:
                break
            cell = rng.choice(sorted(around))
            cells.append(cell)
            digits.add(solution[cell[0]][cell[1]])
            free.discard(cell)
        cages.append(cells)
    # a cage of one cell is a given in disguise: joined to a neighbouring cage where it can be
    cage_of = {cell: number for number, cells in enumerate(cages) for cell in cells}
    for number, cells in enumerate(cages):
        if len(cells) != 1:
            continue
        (r, c), digit = cells[0], solution[cells[0][0]][cells[0][1]]
        for other in sorted(
            {
                cage_of[r + dr, c + dc]
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if (r + dr, c + dc) in cage_of
            }
        ):
            joined = cages[other]
            if (
                other != number
                and len(joined) < CAGE_CELLS_AT_MOST + 1
                and all(solution[a][b] != digit for a, b in joined)
            ):
                joined.append((r, c))
                cage_of[r, c] = other
                cells.clear()
                break
    made = [Cage(tuple(sorted(cells)), sum(solution[r][c] for r, c in cells)) for cells in cages if cells]
    return tuple(sorted(made, key=lambda cage: cage.cells))


def _killer(
    generator: Generator,
    empty: Sudoku,
    rng: random.Random,
    deadline: Deadline,
    on_progress: Progress | None,
) -> tuple[Sudoku, list[list[int]]]:
    """A killer puzzle: a random solution, cages cut from it (:func:`killer_cages`), then its
    givens removed while the solution stays the only one (often all of them)."""
    refuse_constraints(empty.constraints, "generate --killer (it makes the cages itself)")
    solution = generator.random_solution(empty, rng, deadline, on_progress)
    if solution is None:
        raise TimeLimitReached("time limit reached while generating")
    caged = replace(empty, constraints=Constraints(cages=killer_cages(solution, rng)))
    full = generator.kind.with_givens(caged, cells_of(solution))
    puzzle, finished = generator.minimize(full, rng, deadline, on_progress)
    if not finished:
        raise TimeLimitReached("time limit reached while generating")
    return puzzle, solution
