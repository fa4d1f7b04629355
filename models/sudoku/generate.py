"""Sudoku puzzles with exactly one solution and no removable given (the shared loop of
:mod:`mindgames.models.generate`, under the names and messages the command line knows)."""

from __future__ import annotations

import math
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
    rating: tuple[float, float] | None = None,
) -> tuple[Sudoku, list[list[int]]]:
    """A puzzle of ``empty``'s shape with exactly one solution and no removable given
    (with ``grade``, one of that grade by :mod:`mindgames.models.sudoku.techniques`; with
    ``rating`` (low, high), one rated in that range on Sudoku Explainer's scale, both
    inclusive: found by :func:`search_rated`).

    Reproducible for a given ``seed``.  Uniqueness checks run on one
    incremental session (the givens are assumptions), never a rebuilt solver;
    pass ``using`` to share that session between calls.  ``on_progress(stage,
    done, total)`` hears what it is doing; TimeLimitReached when ``deadline``
    passes before the puzzle is done."""
    generator = Generator(SUDOKU, using, engine)
    return generate_with(
        generator, empty, random.Random(seed), deadline or Deadline(None), on_progress, grade, rating
    )


def generate_with(
    generator: Generator,
    empty: Sudoku,
    rng: random.Random,
    deadline: Deadline,
    on_progress: Progress | None = None,
    grade: str | None = None,
    rating: tuple[float, float] | None = None,
    killer: bool = False,
) -> tuple[Sudoku, list[list[int]]]:
    """:func:`generate` on a generator and a random generator of the caller's (the ``make``
    of :func:`mindgames.models.generate.generate_puzzles`).

    ``empty`` may carry variant rules: the givens are then made minimal under them (the
    rules stay as they are); ``killer``: cages made here too (:func:`killer`)."""
    if grade is not None or rating is not None:  # the ladder knows units only
        refuse_constraints(empty.constraints, "generate --grade" if grade else "generate --rating")
    try:
        if killer:
            return _killer(generator, empty, rng, deadline, on_progress)
        if grade is not None:
            return _graded(generator, empty, grade, rng, deadline, on_progress)
        if rating is not None:
            low, high = rating
            return search_rated(generator, empty, low - 0.05, high, rng, deadline, on_progress)
        return generator.generate(empty, rng, deadline, on_progress)
    except Unsolvable:
        raise PuzzleError(f"a {empty.variant} Sudoku has no solution at all: nothing to generate") from None


#: how many puzzles a graded search starts from, and how many mutations it tries from each
SEARCH_STARTS = 8
SEARCH_MUTATIONS = 25
#: the longest one rating may take in a search (a puzzle that takes longer is not a candidate)
RATING_SECONDS = 20.0


def grade_range(grade_name: str) -> tuple[float, float]:
    """The SE ratings (low exclusive, high inclusive) of a grade: :data:`GRADE_TOPS`."""
    from .techniques import GRADE_NAMES, GRADE_TOPS

    level = next(level for level, name in GRADE_NAMES.items() if name == grade_name)
    return GRADE_TOPS.get(level - 1, 0.0), GRADE_TOPS[level]


def _graded(
    generator: Generator,
    empty: Sudoku,
    grade_name: str,
    rng: random.Random,
    deadline: Deadline,
    on_progress: Progress | None,
) -> tuple[Sudoku, list[list[int]]]:
    low, high = grade_range(grade_name)
    return search_rated(generator, empty, low, high, rng, deadline, on_progress, f"{grade_name} puzzle")


def search_rated(
    generator: Generator,
    empty: Sudoku,
    low: float,
    high: float,
    rng: random.Random,
    deadline: Deadline,
    on_progress: Progress | None = None,
    wanted: str | None = None,
) -> tuple[Sudoku, list[list[int]]]:
    """A minimal unique puzzle rated above ``low`` and at most ``high`` on Sudoku Explainer's
    scale, by search: from a random minimal puzzle (or, for the standard 9x9 above what
    random puzzles reach, from a bundled exemplar of the range under a random symmetry), each
    mutation (a given removed, givens of the solution added until it is unique again, then
    minimized) is kept when its rating is no farther from the range; a few starts of
    :data:`SEARCH_MUTATIONS` mutations each.  Reproducible from ``rng``; PuzzleError when the
    search ends without one, TimeLimitReached when ``deadline`` passes first."""
    from .exemplars import exemplar
    from .rating import rate

    def distance(rating: float) -> float:
        """How far ``rating`` is from the range (a rating of ``low`` itself is outside it)."""
        if low < rating <= high:
            return 0.0
        return low - rating + 0.1 if rating <= low else rating - high

    def rated(puzzle: Sudoku) -> float:
        """The puzzle's rating; infinitely far when rating it takes longer than
        :data:`RATING_SECONDS` (the chain rungs of a sparse variant can take minutes)."""
        try:
            return rate(puzzle, deadline.within(RATING_SECONDS)).er
        except TimeLimitReached:
            if deadline.passed():
                raise
            return math.inf

    for _start in range(SEARCH_STARTS):
        seeded = exemplar(empty, low, high, rng)
        if seeded is not None:  # minimal as every generated puzzle (its rating is checked below)
            puzzle, solution = seeded
            puzzle, finished = generator.minimize(puzzle, rng, deadline)
            if not finished:
                raise TimeLimitReached("time limit reached while generating")
        else:
            puzzle, solution = generator.generate(
                empty, random.Random(rng.randrange(2**32)), deadline, on_progress
            )
        here = distance(rated(puzzle))
        for _mutation in range(SEARCH_MUTATIONS):
            if here == 0.0:
                return puzzle, solution
            if deadline.passed():
                raise TimeLimitReached("time limit reached while generating")
            if on_progress is not None:
                on_progress(f"searching for a rating in ({low:g}, {high:g}]", _mutation, SEARCH_MUTATIONS)
            other = mutate(generator, puzzle, solution, rng, deadline)
            there = distance(rated(other))
            if there <= here:
                puzzle, here = other, there
        if here == 0.0:
            return puzzle, solution
    raise PuzzleError(
        f"no {wanted or f'puzzle rated {low:g}-{high:g}'} found by {SEARCH_STARTS} searches of "
        f"{SEARCH_MUTATIONS} mutations; try another --seed"
    )


def mutate(
    generator: Generator, puzzle: Sudoku, solution: list[list[int]], rng: random.Random, deadline: Deadline
) -> Sudoku:
    """Another minimal unique puzzle with the same solution: one given removed, cells of the
    solution (in random order, never that one) added until the solution is the only one,
    then every given that can go removed."""
    kind = generator.kind
    givens = kind.given_cells(puzzle)
    gone = rng.choice(sorted(givens))
    del givens[gone]
    encoding, session = generator.solver.session(puzzle)
    extra = [
        (r, c)
        for r, row in enumerate(solution)
        for c, _ in enumerate(row)
        if (r, c) not in givens and (r, c) != gone
    ]
    rng.shuffle(extra)
    while True:
        answer = session.check_unique(
            kind.givens(encoding, kind.with_givens(puzzle, givens)), deadline.remaining()
        )
        if answer.status == "unknown":
            raise TimeLimitReached("time limit reached while generating")
        if answer.status == "unique":
            break
        cell = extra.pop()
        givens[cell] = solution[cell[0]][cell[1]]
    minimal, finished = generator.minimize(kind.with_givens(puzzle, givens), rng, deadline)
    if not finished:
        raise TimeLimitReached("time limit reached while generating")
    return minimal


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
