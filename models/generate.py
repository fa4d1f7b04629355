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
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from mindgames.solver.deadline import Deadline

from .errors import PuzzleError, TimeLimitReached
from .kind import Cell, GridKind
from .runner import PuzzleSolver, Result

P = TypeVar("P")
Solution = list[list[Any]]
#: ``on_progress(stage, done, total)``: what the generator is doing, for a progress bar
Progress = Callable[[str, int, "int | None"], None]

FILLING, REMOVING = "filling a random grid", "removing givens"


class Unsolvable(PuzzleError):
    """The variant asked for has no solution at all, so there is nothing to generate."""


def cells_of(solution: Solution | list[Any]) -> dict[Cell, Any]:
    """Every cell of a solution grid with its value, row-major.  A kind whose grid is a single
    row may decode a solution as that row alone (its cells are then row 0's)."""
    if solution and not isinstance(solution[0], (list, tuple)):
        return {(0, c): value for c, value in enumerate(solution)}
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
        values = cells_of(current)
        symbols = sorted(set(values.values()), reverse=True)
        cells = list(values)
        rng.shuffle(cells)
        fixed: dict[Cell, Any] = {}
        for done, (r, c) in enumerate(cells):
            if on_progress is not None:
                on_progress(FILLING, done, len(cells))
            if deadline.passed():
                return None
            wanted = symbols[int(rng.random() * len(symbols))]
            if values[r, c] != wanted:
                trial = self.kind.with_givens(empty, {**fixed, (r, c): wanted})
                answer = self.solver.solve(trial, deadline.remaining())
                if answer.status == "unknown":
                    return None
                if answer.status == "solved":
                    current, values = answer.solution, cells_of(answer.solution)
            fixed[r, c] = values[r, c]
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


#: ``make(generator, empty, rng, deadline, on_progress)``: one puzzle and its solution (the
#: default: :meth:`Generator.generate`; Sudoku's ``--grade`` keeps generating until one has it)
Make = Callable[[Generator, Any, random.Random, Deadline, "Progress | None"], "tuple[Any, Solution]"]


@dataclass
class Generated(Generic[P]):
    """One puzzle of a batch: unique (checked again from scratch) and minimal."""

    index: int
    puzzle: P
    solution: Solution
    #: what reproduces it: the puzzle's own seed (per puzzle), or the batch's (one stream)
    seed: int
    #: generating and checking it
    seconds: float
    #: the from-scratch check that it is unique, with that very solution
    check: Result

    def to_json(self, kind: GridKind[P]) -> dict[str, Any]:
        """The record of ``KIND generate --json`` (and ``POST /v1/KIND/generate``): the
        from-scratch check's result (as ``check --json`` writes it) with ``status``
        ``generated``, the kind's own fields, ``puzzle`` in the kind's JSON form (read back
        by ``parse_value``), ``givens``, ``minimal`` and ``seed``."""
        result = self.check
        result.status, result.index, result.seconds = "generated", self.index, self.seconds
        result.extra.update(kind.result_fields(self.puzzle))
        result.extra.update(
            puzzle=kind.to_json(self.puzzle),
            givens=len(kind.given_cells(self.puzzle)),
            minimal=True,
            seed=self.seed,
        )
        return result.to_json()


def new_seed() -> int:
    """A seed for a run that was given none, to be reported so that it can be repeated."""
    return random.SystemRandom().randrange(2**32)


def generate_puzzles(
    kind: GridKind[P],
    empty: P,
    count: int,
    seed: int,
    engine: str = "sat",
    deadline: Deadline = Deadline(None),
    on_progress: Callable[[int, str, int, int | None], None] | None = None,
    one_stream: bool = False,
    make: Make | None = None,
    first: int = 0,
) -> Iterator[Generated[P]]:
    """Up to ``count`` minimal unique puzzles of ``empty``'s variant, one after another on one
    session, each checked again from scratch by a second solver before it is yielded.

    Reproducible: the same seed gives the same puzzles in the same order on the same engine.
    Puzzle ``i`` is drawn from ``random.Random(seed + i)`` on the session the puzzles before it
    used (an engine's learnt clauses and phases choose among equally good values, so alone,
    from a fresh session, ``seed + i`` may give another puzzle); with ``one_stream``, every
    puzzle is drawn from one ``random.Random(seed)`` (binairo's command line did so before
    this loop was shared, and its seeds keep giving the same puzzles).  Stops early, without an error, when
    ``deadline`` passes: the caller sees how many came.  ``on_progress(index, stage, done,
    total)`` hears what the generator is doing; Unsolvable (a PuzzleError) when the variant
    has no solution at all.  ``first``: start at puzzle ``first`` (the earlier ones were made
    before: a resumed job; the puzzles after them are of the same seeds, on a fresh
    session), for per-puzzle seeds only."""
    if one_stream and first:
        raise ValueError("one stream of random numbers cannot start after its first puzzle")
    generator: Generator[P] = Generator(kind, engine=engine)
    checker = PuzzleSolver(kind, engine)
    stream = random.Random(seed)
    for index in range(first, count):
        started = time.perf_counter()
        rng = stream if one_stream else random.Random(seed + index)
        show = None if on_progress is None else _for_puzzle(on_progress, index)
        try:
            if make is None:
                puzzle, solution = generator.generate(empty, rng, deadline, show)
            else:
                puzzle, solution = make(generator, empty, rng, deadline, show)
        except TimeLimitReached:
            return
        check = checker.check(puzzle, deadline.remaining())
        if check.status == "unknown":
            return
        if check.uniqueness != "unique" or check.solution != solution:
            raise AssertionError(f"a generated {kind.name} puzzle is not unique: this is a bug")
        yield Generated(
            index,
            puzzle,
            solution,
            seed if one_stream else seed + index,
            time.perf_counter() - started,
            check,
        )


def _for_puzzle(on_progress: Callable[[int, str, int, int | None], None], index: int) -> Progress:
    return lambda stage, done, total: on_progress(index, stage, done, total)
