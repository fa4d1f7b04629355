"""What a binairo puzzle is: a frozen grid of 0, 1 and blanks, and the rule set it is played under.

Every :class:`Puzzle` is built by :func:`make_puzzle`, which checks it; a
puzzle derived from another (other givens, same rules) is
``dataclasses.replace(puzzle, cells=...)``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..errors import PuzzleError, shorten

RULE_SETS = ("takuzu", "unruly")
BLANK = "."
MAX_SIDE = 64

Grid = tuple[tuple[int | None, ...], ...]


class Shape(NamedTuple):
    """What the rules depend on: puzzles of one shape share one compiled model."""

    rows: int
    cols: int
    rules: str


@dataclass(frozen=True)
class Puzzle:
    """A grid of 0, 1 and None, and the rule set it is to be solved under."""

    cells: Grid
    rules: str = "takuzu"

    @property
    def rows(self) -> int:
        return len(self.cells)

    @property
    def cols(self) -> int:
        return len(self.cells[0]) if self.cells else 0

    @property
    def givens(self) -> int:
        return sum(v is not None for row in self.cells for v in row)

    def text(self) -> str:
        return "\n".join(grid_rows(self.cells))

    def line(self) -> str:
        return self.text().replace("\n", "")


def grid_rows(cells: Sequence[Sequence[int | None]]) -> list[str]:
    """A grid (a puzzle's cells or a solution) as rows of ``0``, ``1`` and ``.``."""
    return ["".join(BLANK if v is None else str(v) for v in row) for row in cells]


def check_rules_set(rules: str) -> str:
    if rules not in RULE_SETS:
        raise PuzzleError(f"unknown rule set {rules!r}; choose {' or '.join(RULE_SETS)}")
    return rules


def check_size(rows: int, cols: int) -> None:
    for what, n in (("rows", rows), ("columns", cols)):
        if n < 2 or n % 2 or n > MAX_SIDE:
            raise PuzzleError(f"a binairo grid needs an even number of {what} from 2 to {MAX_SIDE}, not {n}")


def make_puzzle(cells: Sequence[Sequence[int | None]], rules: str = "takuzu") -> Puzzle:
    """A checked :class:`Puzzle` (rectangular, even sides, values 0/1/None)."""
    check_rules_set(rules)
    if not cells or not cells[0]:
        raise PuzzleError("the grid is empty")
    width = len(cells[0])
    for r, row in enumerate(cells):
        if len(row) != width:
            raise PuzzleError(f"row {r + 1} has {len(row)} cells, row 1 has {width}")
    check_size(len(cells), width)
    return Puzzle(tuple(tuple(row) for row in cells), rules)


def parse_size(text: str) -> tuple[int, int]:
    """``N`` (square) or ``RxC`` (rows x columns) -> (rows, cols), both even."""
    match = re.fullmatch(r"\s*(\d+)\s*(?:[xX*]\s*(\d+))?\s*", text)
    if not match:
        raise PuzzleError(f"size {shorten(repr(text))} is not N or ROWSxCOLS (e.g. 10 or 6x8)")
    rows = int(match.group(1))
    cols = int(match.group(2) or rows)
    check_size(rows, cols)
    return rows, cols
