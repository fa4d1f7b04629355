"""Small reusable pieces for grid puzzles: cells, lines of cells, regions, symbols.

A cell is ``(row, column)``, 0-based; messages name cells 1-based as ``r1c2``.
A *unit* is a named group of cells that a rule speaks about (a row, a
column, a box, a region, a diagonal).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

Cell = tuple[int, int]

# Symbols for cell values in text: 1-9, then A=10 ... Z=35.
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BLANKS = ".0_"


@dataclass(frozen=True)
class Unit:
    """A named group of cells, e.g. ``Unit("row 3", ((2, 0), (2, 1), ...))``."""

    name: str
    cells: tuple[Cell, ...]


def cell_name(cell: Cell) -> str:
    """A 0-based cell as messages name it, 1-based.

    >>> cell_name((0, 1))
    'r1c2'
    """
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def rows(height: int, width: int) -> list[Unit]:
    return [Unit(f"row {r + 1}", tuple((r, c) for c in range(width))) for r in range(height)]


def columns(height: int, width: int) -> list[Unit]:
    return [Unit(f"column {c + 1}", tuple((r, c) for r in range(height))) for c in range(width)]


def boxes(size: int, box_rows: int, box_cols: int) -> list[Unit]:
    """The ``box_rows x box_cols`` boxes tiling a ``size x size`` grid, numbered row-major.

    >>> [box.name for box in boxes(6, 2, 3)]
    ['box 1', 'box 2', 'box 3', 'box 4', 'box 5', 'box 6']
    >>> boxes(4, 2, 2)[1]
    Unit(name='box 2', cells=((0, 2), (0, 3), (1, 2), (1, 3)))
    """
    units: list[Unit] = []
    for top in range(0, size, box_rows):
        for left in range(0, size, box_cols):
            cells = tuple((r, c) for r in range(top, top + box_rows) for c in range(left, left + box_cols))
            units.append(Unit(f"box {len(units) + 1}", cells))
    return units


def diagonals(size: int) -> list[Unit]:
    return [
        Unit("main diagonal", tuple((i, i) for i in range(size))),
        Unit("anti-diagonal", tuple((i, size - 1 - i) for i in range(size))),
    ]


def regions(labels: Sequence[Sequence[Hashable]]) -> list[Unit]:
    """Units from a grid of region labels, in order of first appearance.

    >>> for unit in regions(["aab", "abb"]):
    ...     print(unit.name, unit.cells)
    region a ((0, 0), (0, 1), (1, 0))
    region b ((0, 2), (1, 1), (1, 2))
    """
    cells_of: dict[Hashable, list[Cell]] = {}
    for r, row in enumerate(labels):
        for c, label in enumerate(row):
            cells_of.setdefault(label, []).append((r, c))
    return [Unit(f"region {label}", tuple(cells)) for label, cells in cells_of.items()]


#: every text symbol -> the value it stands for (0 for a blank); letters either case
SYMBOL_VALUES: dict[str, int] = {
    **{blank: 0 for blank in BLANKS},
    **{char: i + 1 for i, char in enumerate(SYMBOLS)},
    **{char.lower(): i + 1 for i, char in enumerate(SYMBOLS) if char.isalpha()},
}


def symbol_value(char: str) -> int | None:
    """The value a text symbol stands for: 0 for a blank, None if it is no symbol.

    >>> symbol_value("7"), symbol_value("A"), symbol_value("a"), symbol_value("."), symbol_value("?")
    (7, 10, 10, 0, None)
    >>> symbol_char(10), symbol_char(0)
    ('A', '.')
    """
    if char in BLANKS:
        return 0
    index = SYMBOLS.find(char.upper())
    return index + 1 if index >= 0 else None


def symbol_char(value: int) -> str:
    return "." if value == 0 else SYMBOLS[value - 1]


def box_shape(size: int) -> tuple[int, int] | None:
    """The most square box shape ``(rows, cols)`` with rows <= cols for ``size`` symbols.

    ``None`` when ``size`` is prime (no box shape besides a whole row).

    >>> box_shape(9), box_shape(6), box_shape(12), box_shape(7)
    ((3, 3), (2, 3), (3, 4), None)
    """
    best = None
    for box_rows in range(2, int(size**0.5) + 1):
        if size % box_rows == 0:
            best = (box_rows, size // box_rows)
    return best
