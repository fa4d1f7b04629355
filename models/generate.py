"""Making puzzles, the same way for every grid kind: a random full grid, then every given that can go, goes.

The loop knows a kind only through its object (:class:`~mindgames.models.kind.GridKind`:
``with_givens``, ``given_cells``, ``givens``) and the engines only through
:class:`~mindgames.models.runner.PuzzleSolver` and its engine-neutral session: the rules
are compiled once per shape and every question is asked under assumptions,
so no solver is rebuilt between two uniqueness checks.

A solution is a grid (rows of values), as every grid kind decodes one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from mindgames.solver.deadline import Deadline

from .errors import PuzzleError, TimeLimitReached
from .kind import Cell, GridKind
from .runner import PuzzleSolver

P = TypeVar("P")
Solution = list[list[Any]]
#: ``on_progress(stage, done, total)``: what the generator is doing, for a progress bar
Progress = Callable[[str, int, "int | None"], None]

FILLING, REMOVING = "filling a random grid", "removing givens"


class Unsolvable(PuzzleError):
    """The variant asked for has no solution at all, so there is nothing to generate."""


def cells_of(solution: Solution) -> dict[Cell, Any]:
    """Every cell of a solution grid with its value, row-major."""
    return {(r, c): value for r, row in enumerate(solution) for c, value in enumerate(row)}


class Generator(Generic[P]):
    """Makes puzzles of one grid kind with exactly one solution and no removable given.

    Reproducible: the same random generator state gives the same puzzle on the
    same engine.  Keep one generator for a batch: it keeps the solver's sessions.

    >>> import random
    >>> from mindgames.models.sudoku import SUDOKU, make_puzzle
    >>> puzzle, solution = Generator(SUDOKU).generate(make_puzzle([[0] * 4] * 4), random.Random(1))
    >>> puzzle.grid
    ((3, 0, 4, 0), (0, 0, 0, 0), (0, 0, 0, 2), (0, 1, 0, 0))
    >>> solution
    [[3, 2, 4, 1], [1, 4, 2, 3], [4, 3, 1, 2], [2, 1, 3, 4]]
    """

    def __init__(self, kind: GridKind[P], solver: PuzzleSolver | None = None, engine: str = "sat"):
        self.kind = kind
        self.solver = solver or PuzzleSolver(kind, engine)
        self.checks = 0  # uniqueness questions asked, for benchmarks

    def generate(
        self,
        empty: P,
        rng: random.Random,
        deadline: Deadline = Deadline(None),
        on_progress: Progress | None = None,
    ) -> tuple[P, Solution]:
        """A minimal unique puzzle of ``empty``'s variant and its solution.

        Unsolvable when the variant has no solution; TimeLimitReached when
        ``deadline`` passes first."""
        solution = self.random_solution(empty, rng, deadline, on_progress)
        if solution is None:
            raise TimeLimitReached("time limit reached while generating")
        full = self.kind.with_givens(empty, cells_of(solution))
        puzzle, finished = self.minimize(full, rng, deadline, on_progress)
        if not finished:
            raise TimeLimitReached("time limit reached while generating")
        return puzzle, solution

    def random_solution(
        self,
        empty: P,
        rng: random.Random,
        deadline: Deadline = Deadline(None),
        on_progress: Progress | None = None,
    ) -> Solution | None:
        """A random solution of ``empty``'s variant; None if ``deadline`` passes first.

        The cells are visited in random order and each is fixed to a random
        symbol if the cells fixed so far still have a solution with it, else
        to the value it has in the solution at hand (one solve per cell at
        most, none when the solution at hand already agrees)."""
        first = self.solver.solve(empty, deadline.remaining())
        if first.status == "unsolvable":
            raise Unsolvable(f"{self.kind.describe(empty)}: no solution at all, nothing to generate")
        if first.status != "solved":
            return None
        current: Solution = first.solution
        # Highest first, drawn by one random number: binairo's generator drew 1 for a number
        # below one half, and so does this, so a seed keeps giving the same binairo puzzle.
        symbols = sorted(set(cells_of(current).values()), reverse=True)
        cells = list(cells_of(current))
        rng.shuffle(cells)
        fixed: dict[Cell, Any] = {}
        for done, (r, c) in enumerate(cells):
            if on_progress is not None:
                on_progress(FILLING, done, len(cells))
            if deadline.passed():
                return None
            wanted = symbols[int(rng.random() * len(symbols))]
            if current[r][c] != wanted:
                trial = self.kind.with_givens(empty, {**fixed, (r, c): wanted})
                answer = self.solver.solve(trial, deadline.remaining())
                if answer.status == "unknown":
                    return None
                if answer.status == "solved":
                    current = answer.solution
            fixed[r, c] = current[r][c]
        return current

    def minimize(
        self,
        puzzle: P,
        rng: random.Random,
        deadline: Deadline = Deadline(None),
        on_progress: Progress | None = None,
    ) -> tuple[P, bool]:
        """Remove givens in random order while the solution stays the only one.

        ``puzzle`` must have exactly one solution.  Then the puzzle without
        one given has another solution exactly when one differs from it in
        that cell: one engine call per given, under assumptions.  One pass is enough for minimality: a given that could not
        be removed from a larger set cannot be removed from a smaller one
        either (fewer givens never remove solutions).  Returns the puzzle and
        whether the pass finished before ``deadline``."""
        givens = self.kind.given_cells(puzzle)
        order = list(givens)
        rng.shuffle(order)
        encoding, session = self.solver.session(puzzle)
        for tried, cell in enumerate(order):
            if on_progress is not None:
                on_progress(REMOVING, tried, len(order))
            if deadline.passed():
                return self.kind.with_givens(puzzle, givens), False
            value = givens.pop(cell)
            others = self.kind.givens(encoding, self.kind.with_givens(puzzle, givens))
            elsewhere = -self._holds(encoding, puzzle, cell, value)
            self.checks += 1
            answer = session.solve([*others, elsewhere], deadline.remaining())
            if answer.status != "unsat":  # another solution (or no answer in time): it stays
                givens[cell] = value
            if answer.status == "unknown":
                return self.kind.with_givens(puzzle, givens), False
        return self.kind.with_givens(puzzle, givens), True

    def _holds(self, encoding: Any, puzzle: P, cell: Cell, value: Any) -> int:
        """The literal "``cell`` holds ``value``" of the compiled shape."""
        (literal,) = self.kind.givens(encoding, self.kind.with_givens(puzzle, {cell: value}))
        return literal
