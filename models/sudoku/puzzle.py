"""What a Sudoku puzzle is: a frozen grid of givens and the variant it is played under.

Every :class:`Sudoku` is built by :func:`make_puzzle`, which checks it; a
puzzle derived from another (other givens, same variant) is
``dataclasses.replace(puzzle, grid=...)``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..errors import PuzzleError, shorten
from ..grid import box_shape, cell_name
from .variants import CLASSIC, Constraints, validate

MIN_SIZE, MAX_SIZE = 4, 35
Grid = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Sudoku:
    """A puzzle: ``grid[r][c]`` is a given 1..N or 0 for a blank.

    ``box`` is the box shape (rows, cols); ``regions`` (jigsaw) gives each
    cell's region number 0..N-1 instead; ``diagonals`` adds the X-Sudoku rule;
    ``constraints`` the variant rules beyond those (:mod:`.variants`: cages,
    thermos, arrows, dots...), classic Sudoku by default."""

    grid: Grid
    box: tuple[int, int] | None = (3, 3)
    regions: Grid | None = None
    diagonals: bool = False
    constraints: Constraints = CLASSIC

    @property
    def size(self) -> int:
        return len(self.grid)

    @property
    def variant(self) -> str:
        if self.regions is not None:
            kind = "jigsaw"
        else:
            assert self.box is not None, "make_puzzle gives every puzzle without regions a box"
            kind = f"{self.box[0]}x{self.box[1]} boxes"
        rules = ["diagonals"] if self.diagonals else []
        rules += self.constraints.names()
        return ", ".join([f"{self.size}x{self.size}", kind, *rules])


class Shape(NamedTuple):
    """What the rules depend on: puzzles of one shape share one compiled model."""

    size: int
    box: tuple[int, int] | None
    regions: Grid | None
    diagonals: bool
    constraints: Constraints = CLASSIC


def shape(puzzle: Sudoku) -> Shape:
    return Shape(puzzle.size, puzzle.box, puzzle.regions, puzzle.diagonals, puzzle.constraints)


def make_puzzle(
    grid: Sequence[Sequence[int]],
    box: Sequence[int] | None = None,
    region_labels: Sequence[Sequence[Hashable]] | None = None,
    with_diagonals: bool = False,
    where: str = "",
    constraints: Constraints = CLASSIC,
) -> Sudoku:
    """A checked :class:`Sudoku` from a grid of ints (0 blank); errors name the cell.

    Without ``box`` the box is the most square shape for the size.  ``constraints``
    (the variant rules) are checked against the grid too (:func:`.variants.validate`:
    cells inside it, totals in range...); errors name the rule and the cell.

    >>> from mindgames.models.sudoku import make_puzzle
    >>> puzzle = make_puzzle([[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]])
    >>> puzzle.box, puzzle.variant
    ((2, 2), '4x4, 2x2 boxes')
    >>> make_puzzle([[1, 0, 0, 0], [0, 0, 3, 0], [0, 5, 0, 0], [0, 0, 0, 2]])
    Traceback (most recent call last):
    ...
    mindgames.models.errors.PuzzleError: r3c2: value 5 is out of range (1..4, or 0 for a blank)
    """
    at = f"{where}: " if where else ""
    size = len(grid)
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise PuzzleError(f"{at}a Sudoku has {MIN_SIZE} to {MAX_SIZE} rows, not {size}")
    for r, row in enumerate(grid):
        if len(row) != size:
            raise PuzzleError(f"{at}row {r + 1} has {len(row)} cells, a {size}x{size} Sudoku needs {size}")
        if set(map(type, row)) == {int} and min(row) >= 0 and max(row) <= size:
            continue  # the usual case, checked in C; a bad row is searched below for its cell
        for c, value in enumerate(row):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= size:
                raise PuzzleError(
                    f"{at}{cell_name((r, c))}: value {shorten(repr(value))} is out of range "
                    f"(1..{size}, or 0 for a blank)"
                )
    region_grid = None
    if region_labels is not None:
        region_grid = _region_grid(region_labels, size, at)
        box_tuple = None
    elif box is not None:
        if (
            len(box) != 2
            or not all(isinstance(b, int) and not isinstance(b, bool) for b in box)
            or box[0] * box[1] != size
            or min(box) < 1
        ):
            raise PuzzleError(
                f"{at}box {shorten(str(list(box)))} does not tile a {size}x{size} grid (rows x cols must be {size})"
            )
        box_tuple = (box[0], box[1])
    else:
        box_tuple = box_shape(size)
        if box_tuple is None:
            raise PuzzleError(f"{at}size {size} has no box shape (it is prime): give jigsaw regions")
    if not isinstance(constraints, Constraints):
        raise PuzzleError(f"{at}constraints must be a Constraints, not {shorten(repr(constraints))}")
    validate(constraints, size, at)
    if constraints.disjoint_groups and region_grid is not None:
        raise PuzzleError(f"{at}disjoint groups: a jigsaw has no boxes to compare positions in")
    return Sudoku(
        tuple(tuple(row) for row in grid), box_tuple, region_grid, bool(with_diagonals), constraints
    )


def _region_grid(labels: Sequence[Sequence[Hashable]], size: int, at: str) -> Grid:
    if len(labels) != size or any(len(row) != size for row in labels):
        raise PuzzleError(f"{at}regions must be a {size}x{size} grid of labels")
    number: dict[Hashable, int] = {}
    cells: dict[Hashable, int] = {}
    for row in labels:
        for label in row:
            if not isinstance(label, (int, str)) or isinstance(label, bool):
                raise PuzzleError(f"{at}region label {shorten(repr(label))} is not a number or text")
            number.setdefault(label, len(number))
            cells[label] = cells.get(label, 0) + 1
    if len(number) != size:
        raise PuzzleError(f"{at}a {size}x{size} jigsaw needs {size} regions, found {len(number)}")
    for label, count in cells.items():
        if count != size:
            raise PuzzleError(f"{at}region {label} has {count} cells, it needs {size}")
    return tuple(tuple(number[label] for label in row) for row in labels)
