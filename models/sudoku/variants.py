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

from ..errors import PuzzleError, shorten
from ..grid import Cell, cell_name

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

    - ``whisper``: neighbours on the line differ by at least ``gap`` (German whispers: 5 on 9x9;
      without a ``gap``, ceil(N/2) on an NxN grid: 5 on 9x9, 2 on 4x4, 3 on 6x6, 8 on 16x16);
    - ``renban``: the digits form a set of consecutive numbers, in any order, no repeats;
    - ``palindrome``: the line reads the same from either end;
    - ``between``: digits strictly between the two ends' values (the ends are the circles)."""

    kind: Literal["whisper", "renban", "palindrome", "between"]
    cells: Cells
    gap: int | None = None

    def whisper_gap(self, size: int) -> int:
        """The least difference of neighbours on a whisper line of an NxN grid (``gap``, else ceil(N/2))."""
        return self.gap if self.gap is not None else -(-size // 2)


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


LINE_KINDS = ("whisper", "renban", "palindrome", "between")
FLAGS = ("anti_knight", "anti_king", "non_consecutive", "disjoint_groups", "negative_kropki", "negative_xv")


def validate(constraints: Constraints, size: int, at: str = "") -> None:
    """Raise PuzzleError naming the rule and the cell when ``constraints`` cannot be rules of an
    NxN grid: a cell outside it, a cage repeating a cell, a dot between cells that do not touch,
    a total no digits can make...  (What it accepts may still have no solution: the engines say.)

    >>> validate(Constraints(cages=(Cage(((0, 0), (0, 1)), 18),)), 9)
    Traceback (most recent call last):
    ...
    mindgames.models.errors.PuzzleError: cage 1 (r1c1): total 18 is out of range (3..17 for 2 cells)
    """
    checker = _Validator(size, at)
    for number, cage in enumerate(constraints.cages, 1):
        name = checker.cells(f"cage {number}", cage.cells, distinct=True, most=size)
        if cage.total is not None:
            k = len(cage.cells)
            checker.total(name, cage.total, k * (k + 1) // 2, k * (2 * size - k + 1) // 2, f"{k} cells")
    for number, killer in enumerate(constraints.little_killers, 1):
        name = checker.cells(f"little killer {number}", killer.cells, distinct=True)
        checker.steps(name, killer.cells, diagonal=True)
        length = len(killer.cells)
        checker.total(name, killer.total, length, length * size, f"{length} cells")
    seen_sandwiches: set[tuple[str, int]] = set()
    for sandwich in constraints.sandwiches:
        if (
            sandwich.line not in ("row", "column")
            or not _is_int(sandwich.index)
            or not 0 <= sandwich.index < size
        ):
            raise PuzzleError(
                f"{at}sandwich: {shorten(repr((sandwich.line, sandwich.index)))} is not a row or column 0..{size - 1}"
            )
        name = f"sandwich {sandwich.line} {sandwich.index + 1}"
        if (sandwich.line, sandwich.index) in seen_sandwiches:
            raise PuzzleError(f"{at}{name}: given twice")
        seen_sandwiches.add((sandwich.line, sandwich.index))
        checker.total(name, sandwich.total, 0, sum(range(2, size)), "the digits between 1 and N")
    for number, thermo in enumerate(constraints.thermos, 1):
        name = checker.cells(f"thermo {number}", thermo.cells, distinct=True, least=2)
        if not isinstance(thermo.slow, bool):
            raise PuzzleError(f"{at}{name}: slow must be true or false")
        if not thermo.slow and len(thermo.cells) > size:
            raise PuzzleError(
                f"{at}{name}: {len(thermo.cells)} cells cannot increase strictly through 1..{size}"
            )
    for number, arrow in enumerate(constraints.arrows, 1):
        name = checker.cells(f"arrow {number}", arrow.circle + arrow.path, distinct=True)
        if not arrow.circle or not arrow.path:
            raise PuzzleError(f"{at}{name}: an arrow needs a circle and a path of at least one cell each")
    checker.pairs("dot", [(dot.cells, dot.colour) for dot in constraints.dots], ("white", "black"))
    checker.pairs("XV", [(xv.cells, xv.letter) for xv in constraints.xv], ("X", "V"))
    for number, line in enumerate(constraints.lines, 1):
        if line.kind not in LINE_KINDS:
            raise PuzzleError(
                f"{at}line {number}: kind {shorten(repr(line.kind))} is not one of {', '.join(LINE_KINDS)}"
            )
        name = checker.cells(f"{line.kind} line {number}", line.cells, distinct=True, least=2)
        if line.kind == "renban" and len(line.cells) > size:
            raise PuzzleError(f"{at}{name}: {len(line.cells)} cells cannot hold distinct digits 1..{size}")
        if (
            line.kind == "whisper"
            and line.gap is not None
            and (not _is_int(line.gap) or not 1 <= line.gap < size)
        ):
            raise PuzzleError(f"{at}{name}: gap {shorten(repr(line.gap))} is out of range (1..{size - 1})")
    seen: dict[Cell, str] = {}
    for mark in constraints.parity:
        name = checker.cells("parity", (mark.cell,))
        if mark.parity not in ("even", "odd"):
            raise PuzzleError(f"{at}{name}: parity {shorten(repr(mark.parity))} is not even or odd")
        if seen.setdefault(mark.cell, mark.parity) != mark.parity:
            raise PuzzleError(f"{at}{name}: both even and odd")
    for number, region in enumerate(constraints.extra_regions, 1):
        checker.cells(f"extra region {number}", region, distinct=True, most=size)
    marked: set[Cell] = set()
    for marks in constraints.candidates:
        name = checker.cells("candidates", (marks.cell,))
        if marks.cell in marked:
            raise PuzzleError(f"{at}{name}: candidates given twice")
        marked.add(marks.cell)
        if (
            not isinstance(marks.digits, frozenset)
            or not marks.digits
            or not all(_is_int(d) and 1 <= d <= size for d in marks.digits)
        ):
            raise PuzzleError(
                f"{at}{name}: candidates {shorten(repr(marks.digits))} are not digits 1..{size}"
            )
    flags = (
        constraints.anti_knight,
        constraints.anti_king,
        constraints.non_consecutive,
        constraints.disjoint_groups,
        constraints.negative_kropki,
        constraints.negative_xv,
    )
    for flag, value in zip(FLAGS, flags):
        if not isinstance(value, bool):
            raise PuzzleError(f"{at}{flag.replace('_', ' ')} must be true or false")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Validator:
    """The checks :func:`validate` makes of every rule, phrased once."""

    def __init__(self, size: int, at: str):
        self.size, self.at = size, at

    def cells(
        self, rule: str, cells: Cells, distinct: bool = False, least: int = 1, most: int | None = None
    ) -> str:
        """``rule`` named with its first cell; every cell inside the grid; a cell count in range."""
        if not isinstance(cells, tuple) or not cells:
            raise PuzzleError(f"{self.at}{rule}: it has no cells")
        for cell in cells:
            if (
                not isinstance(cell, tuple)
                or len(cell) != 2
                or not all(_is_int(i) and 0 <= i < self.size for i in cell)
            ):
                raise PuzzleError(
                    f"{self.at}{rule}: cell {shorten(repr(cell))} is outside the {self.size}x{self.size} grid"
                )
        name = f"{rule} ({cell_name(cells[0])})"
        if distinct and len(set(cells)) != len(cells):
            twice = next(cell for cell in cells if cells.count(cell) > 1)
            raise PuzzleError(f"{self.at}{name}: cell {cell_name(twice)} appears twice")
        if len(cells) < least:
            raise PuzzleError(f"{self.at}{name}: it needs at least {least} cells")
        if most is not None and len(cells) > most:
            raise PuzzleError(
                f"{self.at}{name}: {len(cells)} cells cannot hold distinct digits 1..{self.size}"
            )
        return name

    def total(self, name: str, total: object, low: int, high: int, what: str) -> None:
        if not _is_int(total) or not low <= total <= high:  # type: ignore[operator]
            raise PuzzleError(
                f"{self.at}{name}: total {shorten(repr(total))} is out of range ({low}..{high} for {what})"
            )

    def steps(self, name: str, cells: Cells, diagonal: bool) -> None:
        """Consecutive cells are diagonal neighbours, all one way."""
        moves = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(cells, cells[1:])}
        if len(moves) > 1 or any(abs(dr) != 1 or abs(dc) != 1 for dr, dc in moves):
            raise PuzzleError(f"{self.at}{name}: its cells do not run along one diagonal")

    def pairs(self, rule: str, clues: list[tuple[tuple[Cell, Cell], str]], allowed: tuple[str, ...]) -> None:
        """Dots and XV, as (cells, colour or letter): two orthogonal neighbours each, one clue per pair."""
        seen: set[frozenset[Cell]] = set()
        for cells, label in clues:
            if not isinstance(cells, tuple) or len(cells) != 2:
                raise PuzzleError(f"{self.at}{rule}: {shorten(repr(cells))} is not a pair of cells")
            name = self.cells(rule, cells)
            (r1, c1), (r2, c2) = cells
            if abs(r1 - r2) + abs(c1 - c2) != 1:
                raise PuzzleError(
                    f"{self.at}{rule} between {cell_name(cells[0])} and {cell_name(cells[1])}: "
                    "the cells are not orthogonal neighbours"
                )
            if label not in allowed:
                raise PuzzleError(f"{self.at}{name}: {shorten(repr(label))} is not {' or '.join(allowed)}")
            pair = frozenset(cells)
            if pair in seen:
                raise PuzzleError(f"{self.at}{name}: two {rule}s between the same cells")
            seen.add(pair)


def refuse_constraints(constraints: Constraints, what: str) -> None:
    """PuzzleError when ``constraints`` holds a rule ``what`` cannot honour yet: a rule is
    never dropped silently (an answer without it would be an answer to another puzzle)."""
    if constraints:
        raise PuzzleError(
            f"{what} cannot take variant rules yet ({', '.join(constraints.names())}): "
            "only classic, X and jigsaw Sudoku"
        )
