"""The variant rules a Sudoku can carry beyond rows, columns and boxes: what they are, as data.

Each rule is a small frozen dataclass saying *what* the setter drew (a cage and
its sum, a thermometer from bulb to tip, a dot between two cells); how a rule
is compiled into the model and how it is checked live elsewhere, each once.
A puzzle's rules are one :class:`Constraints`, hashable, so puzzles with the
same rules share one compiled model.

Cells are ``(row, column)``, 0-based, as everywhere in mindgames.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

from ..grid import Cell

Cells = tuple[Cell, ...]
Side = Literal["top", "bottom", "left", "right"]


@dataclass(frozen=True)
class Cage:
    """Killer cage: its digits do not repeat and, when ``total`` is given, add up to it."""

    cells: Cells
    total: int | None = None


@dataclass(frozen=True)
class LittleKiller:
    """The digits on a diagonal line of cells add up to ``total`` (repeats allowed).

    ``cells`` lists the diagonal from the clue outwards; the clue itself sits
    outside the grid and is not a cell."""

    cells: Cells
    total: int


@dataclass(frozen=True)
class Sandwich:
    """The digits strictly between 1 and N in row or column ``index`` (0-based) add up to ``total``."""

    line: Literal["row", "column"]
    index: int
    total: int


@dataclass(frozen=True)
class Thermo:
    """Digits increase strictly from the bulb (``cells[0]``) to the tip; ``slow``: or stay equal."""

    cells: Cells
    slow: bool = False


@dataclass(frozen=True)
class Arrow:
    """The digits on the arrow's ``path`` add up to the number in its ``circle``.

    A circle of several cells reads as a multi-digit number, first cell first
    (as f-puzzles draws a two-cell pill); the path's digits may repeat."""

    circle: Cells
    path: Cells


@dataclass(frozen=True)
class Dot:
    """Kropki dot between two orthogonally adjacent cells: white = consecutive, black = one is double."""

    cells: tuple[Cell, Cell]
    colour: Literal["white", "black"]


@dataclass(frozen=True)
class XV:
    """Between two adjacent cells: X = they add up to 10, V = they add up to 5."""

    cells: tuple[Cell, Cell]
    letter: Literal["X", "V"]


@dataclass(frozen=True)
class Line:
    """A line of cells drawn through the grid, with the rule ``kind`` names:

    - ``whisper``: neighbours on the line differ by at least ``gap`` (German whispers: 5 on 9x9);
    - ``renban``: the digits form a set of consecutive numbers, in any order, no repeats;
    - ``palindrome``: the line reads the same from either end;
    - ``between``: digits strictly between the two ends' values (the ends are the circles)."""

    kind: Literal["whisper", "renban", "palindrome", "between"]
    cells: Cells
    gap: int = 5


@dataclass(frozen=True)
class Parity:
    """The digit in ``cell`` is even (a square in f-puzzles) or odd (a circle)."""

    cell: Cell
    parity: Literal["even", "odd"]


@dataclass(frozen=True)
class Candidates:
    """Pencil marks read as a rule: the digit in ``cell`` is one of ``digits`` (Sukaku)."""

    cell: Cell
    digits: frozenset[int]


@dataclass(frozen=True)
class Constraints:
    """Every variant rule of one puzzle; the default is classic Sudoku (no extra rule).

    The global rules are flags: ``anti_knight`` (cells a chess knight's move
    apart differ), ``anti_king`` (cells a king's move apart differ),
    ``non_consecutive`` (orthogonal neighbours do not differ by 1),
    ``disjoint_groups`` (cells at the same position in their boxes differ).
    ``negative_kropki`` / ``negative_xv``: every dot / every X and V is given,
    so adjacent cells without one must not have that relation."""

    cages: tuple[Cage, ...] = ()
    little_killers: tuple[LittleKiller, ...] = ()
    sandwiches: tuple[Sandwich, ...] = ()
    thermos: tuple[Thermo, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    dots: tuple[Dot, ...] = ()
    xv: tuple[XV, ...] = ()
    lines: tuple[Line, ...] = ()
    parity: tuple[Parity, ...] = ()
    extra_regions: tuple[Cells, ...] = ()
    candidates: tuple[Candidates, ...] = ()
    anti_knight: bool = False
    anti_king: bool = False
    non_consecutive: bool = False
    disjoint_groups: bool = False
    negative_kropki: bool = False
    negative_xv: bool = False

    def __bool__(self) -> bool:
        """True when the puzzle has any rule beyond classic Sudoku."""
        return any(getattr(self, field.name) for field in fields(self))

    def names(self) -> list[str]:
        """The rule families present, in field order, as messages and variants name them.

        >>> Constraints(cages=(Cage(((0, 0), (0, 1)), 3),), anti_king=True).names()
        ['cages', 'anti king']
        """
        return [field.name.replace("_", " ") for field in fields(self) if getattr(self, field.name)]


CLASSIC = Constraints()
