"""Binairo puzzles with exactly one solution and no removable given: the shared loop of
:mod:`mindgames.models.generate`, under the names and messages the command line knows."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence

from mindgames.solver.deadline import Deadline

from .. import generate as shared
from ..errors import PuzzleError
from .kind import BINAIRO
from .puzzle import Puzzle
from .rules import Encoding, givens


def _deadline(monotonic_end: float | None) -> Deadline:
    """A ``time.monotonic()`` end (the command line's form) as a Deadline."""
    return Deadline(None if monotonic_end is None else monotonic_end - time.monotonic())


def _each_step(on_step: Callable[[], None] | None) -> shared.Progress | None:
    return None if on_step is None else lambda stage, done, total: on_step()


class Generator:
    """Makes and minimizes binairo puzzles of one shape on one engine session, the givens
    and solutions as literals of the compiled rules (the form ``mindgames binairo
    generate`` and ``minimize`` work in).

    Deadlines are ``time.monotonic()`` values; ``on_step()`` is called once per cell
    filled and once per given tried."""

    def __init__(self, rows: int, cols: int, rules: str = "takuzu"):
        self.rows, self.cols, self.rules = rows, cols, rules
        self.empty = BINAIRO.empty((rows, cols), rules)
        self.generator = shared.Generator(BINAIRO)
        encoding, _ = self.generator.solver.session(self.empty)
        assert isinstance(encoding, Encoding), "BINAIRO compiles every shape to a binairo Encoding"
        self.encoding = encoding

    @property
    def checks(self) -> int:
        """Uniqueness questions asked so far."""
        return self.generator.checks

    def random_solution(
        self,
        rng: random.Random,
        deadline: float | None = None,
        on_step: Callable[[], None] | None = None,
    ) -> list[int] | None:
        """A random complete grid as literals; None if ``deadline`` passes first."""
        try:
            solution = self.generator.random_solution(
                self.empty, rng, _deadline(deadline), _each_step(on_step)
            )
        except shared.Unsolvable:
            raise PuzzleError(
                f"no {self.rows}x{self.cols} grid exists under the {self.rules} rules"
            ) from None
        if solution is None:
            return None
        return self.literals(BINAIRO.with_givens(self.empty, shared.cells_of(solution)))

    def minimize(
        self,
        solution: list[int],
        keep: Sequence[int],
        rng: random.Random,
        deadline: float | None = None,
        on_step: Callable[[], None] | None = None,
    ) -> tuple[list[int], bool]:
        """Remove givens of ``keep`` one at a time (random order) while ``solution``, the only
        solution of ``keep``, stays the only one.  Returns (givens, finished).  (The loop needs
        ``keep`` alone; ``solution`` stays in the signature for the command line.)"""
        puzzle, finished = self.generator.minimize(
            self.to_puzzle(keep), rng, _deadline(deadline), _each_step(on_step)
        )
        return self.literals(puzzle), finished

    def to_puzzle(self, given: Sequence[int]) -> Puzzle:
        """The puzzle whose givens are these literals."""
        true = set(given)
        return BINAIRO.with_givens(
            self.empty,
            {
                (r, c): value
                for r, row in enumerate(self.encoding.cells)
                for c, cell in enumerate(row)
                for value in cell.values
                if cell.is_(value) in true
            },
        )

    def to_grid(self, solution: Sequence[int]) -> list[list[int | None]]:
        """The grid that a complete set of literals describes (None where a cell has no literal)."""
        return [list(row) for row in self.to_puzzle(solution).cells]

    def literals(self, puzzle: Puzzle) -> list[int]:
        """The puzzle's givens as literals, row-major."""
        return givens(self.encoding, puzzle)


def generate(
    rows: int, cols: int, rules: str = "takuzu", seed: int | None = None, count: int = 1
) -> Iterator[tuple[Puzzle, list[list[int]]]]:
    """``count`` minimal puzzles with exactly one solution, reproducible from ``seed``.

    >>> from mindgames.models.binairo import generate
    >>> [(puzzle, solution)] = generate(4, 4, seed=1)
    >>> print(puzzle.text())
    1...
    ...0
    1..1
    .1..
    >>> solution
    [[1, 0, 1, 0], [0, 1, 1, 0], [1, 0, 0, 1], [0, 1, 0, 1]]
    """
    rng = random.Random(seed)
    empty = BINAIRO.empty((rows, cols), rules)
    generator = shared.Generator(BINAIRO)
    for _ in range(count):
        yield generate_with(generator, empty, rng)


def generate_with(
    generator: shared.Generator,
    empty: Puzzle,
    rng: random.Random,
    deadline: Deadline = Deadline(None),
    on_progress: shared.Progress | None = None,
) -> tuple[Puzzle, list[list[int]]]:
    """One puzzle of ``empty``'s size and rules from the shared loop, saying in binairo's
    words when that size has no grid at all (the ``make`` of ``generate_puzzles``)."""
    try:
        return generator.generate(empty, rng, deadline, on_progress)
    except shared.Unsolvable:
        raise PuzzleError(f"no {empty.rows}x{empty.cols} grid exists under the {empty.rules} rules") from None
