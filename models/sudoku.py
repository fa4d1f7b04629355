"""Sudoku of any box shape, X-Sudoku and jigsaw Sudoku.

The rules, once, in plain words:

* every cell holds exactly one symbol 1..N;
* every unit (each row, each column, each box or jigsaw region, and with
  ``diagonals`` both main diagonals) holds every symbol exactly once;
* a given stays as given.

This module parses puzzles, compiles the rules into a :class:`solver.Model`
(the complete encoding: "each cell one symbol" and "each symbol once per
unit", which lets unit propagation do most of the work), decodes an
engine's answer into a grid, and verifies a grid against the rules directly.
It is a *kind* for :class:`models.runner.PuzzleSolver`.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from functools import lru_cache
from operator import itemgetter
from typing import Any, Callable, Hashable, Iterator, Sequence

from solver import Assignment, Model
from solver.deadline import Deadline

from .draw import grid_lines
from .errors import PuzzleError, TimeLimitReached, shorten
from .grid import Unit, box_shape, boxes, cell_name, columns, diagonals, regions, rows
from .grid import SYMBOLS, Cell, symbol_char, symbol_value
from .kind import GridKind, Option, Parsed
from .runner import PuzzleSolver, Result

name = "sudoku"

MIN_SIZE, MAX_SIZE = 4, 35
Grid = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Sudoku:
    """A puzzle: ``grid[r][c]`` is a given 1..N or 0 for a blank.

    ``box`` is the box shape (rows, cols); ``regions`` (jigsaw) gives each
    cell's region number 0..N-1 instead; ``diagonals`` adds the X-Sudoku rule."""

    grid: Grid
    box: tuple[int, int] | None = (3, 3)
    regions: Grid | None = None
    diagonals: bool = False

    @property
    def size(self) -> int:
        return len(self.grid)

    @property
    def variant(self) -> str:
        kind = "jigsaw" if self.regions is not None else f"{self.box[0]}x{self.box[1]} boxes"
        return f"{self.size}x{self.size}, {kind}" + (", diagonals" if self.diagonals else "")


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------
Shape = tuple[int, "tuple[int, int] | None", "Grid | None", bool]


def shape(puzzle: Sudoku) -> Shape:
    return (puzzle.size, puzzle.box, puzzle.regions, puzzle.diagonals)


@lru_cache(maxsize=64)
def units(shape: Shape) -> tuple[Unit, ...]:
    """Every group of cells that must hold each symbol once."""
    size, box, region_grid, with_diagonals = shape
    found = rows(size, size) + columns(size, size)
    found += boxes(size, *box) if region_grid is None else regions(region_grid)
    if with_diagonals:
        found += diagonals(size)
    return tuple(found)


# ---------------------------------------------------------------------------
# Compile and decode
# ---------------------------------------------------------------------------
@dataclass
class Encoding:
    model: Model
    size: int

    def var(self, row: int, col: int, value: int) -> int:
        """The variable "cell (row, col) holds value"."""
        return (row * self.size + col) * self.size + value


@lru_cache(maxsize=16)
def compile(shape: Shape) -> Encoding:
    """The rules of this shape as a Boolean model (no givens: they come as assumptions)."""
    size = shape[0]
    model = Model()
    model.new_vars(size**3, primary=True)
    encoding = Encoding(model, size)
    symbols = range(1, size + 1)
    for r in range(size):
        for c in range(size):
            model.add_choice(encoding.var(r, c, v) for v in symbols)
    for unit in units(shape):
        for v in symbols:
            model.add_exactly([encoding.var(r, c, v) for r, c in unit.cells], 1)
    return encoding


def givens(encoding: Encoding, puzzle: Sudoku) -> list[int]:
    """The givens as literals "cell holds value", for the engine's assumptions."""
    size = encoding.size
    # var(r, c, v) == (r * size + c) * size + v == cell * size + v, cells row-major.
    flat = [v for row in puzzle.grid for v in row]
    return [cell * size + v for cell, v in enumerate(flat) if v]


def decode(encoding: Encoding, assignment: Assignment) -> list[list[int]]:
    """An engine's assignment as a grid of values (0 where no value is true)."""
    size = encoding.size
    cells = size * size
    # Hot path (run for every solution): the cell variables are 1..size**3, so
    # the true ones, in order, are one per cell when the assignment is well
    # formed; check that they are, and read each cell's value off its number.
    true_vars = [lit - 1 for lit in assignment[: cells * size] if lit > 0]
    if len(true_vars) == cells and [t // size for t in true_vars] == _cell_range(cells):
        flat = [t % size + 1 for t in true_vars]
        return [flat[i : i + size] for i in range(0, cells, size)]
    # Anything else (a cell with no or several true values): cell by cell,
    # the smallest true value, 0 for none.
    grid = []
    for r in range(size):
        row = []
        for c in range(size):
            base = (r * size + c) * size  # variable of value v is base + v
            row.append(next((v for v in range(1, size + 1) if assignment[base + v - 1] > 0), 0))
        grid.append(row)
    return grid


@lru_cache(maxsize=16)
def _cell_range(cells: int) -> list[int]:
    # Never mutated by callers: only compared against.
    return list(range(cells))


# ---------------------------------------------------------------------------
# Verify: the rules checked on the grid itself, no model involved
# ---------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _unit_getters(shape: Shape) -> tuple[Callable[[list[int]], tuple[int, ...]], ...]:
    """For each unit, a function picking its cells' values out of a row-major flat grid."""
    size = shape[0]
    return tuple(
        itemgetter(*(r * size + c for r, c in unit.cells)) for unit in units(shape)
    )


@lru_cache(maxsize=64)
def _symbols(size: int) -> frozenset[int]:
    return frozenset(range(1, size + 1))


def verify(puzzle: Sudoku, solution: Sequence[Sequence[int]]) -> list[str]:
    """The rules ``solution`` breaks (empty when it is a correct solution of ``puzzle``).

    The rules are read off the puzzle (its units, its givens), never off a
    compiled model, so a wrong encoding or a wrong engine cannot hide here."""
    size = puzzle.size
    if len(solution) != size or any(len(row) != size for row in solution):
        return [f"the solution is not a {size}x{size} grid"]
    # Fast acceptance, run for every solution an engine returns: plain ints in
    # 1..size, the givens kept, every unit holding `size` distinct values.
    # Whatever fails it is examined again below, which names the problems.
    flat = [v for row in solution for v in row]
    given = [v for row in puzzle.grid for v in row]
    if (
        set(map(type, flat)) == {int}
        and _symbols(size).issuperset(flat)
        and all(v == g for v, g in zip(flat, given) if g)
        and all(len(set(cells(flat))) == size for cells in _unit_getters(shape(puzzle)))
    ):
        return []
    return _problems(puzzle, solution)


def _problems(puzzle: Sudoku, solution: Sequence[Sequence[int]]) -> list[str]:
    """Every broken rule of a ``size x size`` grid, in words."""
    size = puzzle.size
    problems = []
    for r in range(size):
        for c in range(size):
            value, given = solution[r][c], puzzle.grid[r][c]
            if not isinstance(value, int) or not 1 <= value <= size:
                problems.append(f"{cell_name((r, c))} holds {value!r}, not a symbol 1..{size}")
            elif given and value != given:
                problems.append(f"{cell_name((r, c))} holds {value}, but the given is {given}")
    for unit in units(shape(puzzle)):
        values = [solution[r][c] for r, c in unit.cells]
        if len(set(values)) != size:
            twice = next(v for v in values if values.count(v) > 1)
            problems.append(f"{unit.name} holds {twice} more than once")
    return problems


def explain_unsolvable(puzzle: Sudoku) -> str:
    """Where the givens clash, if two equal givens share a unit; else a plain statement."""
    for unit in units(shape(puzzle)):
        first_at: dict[int, tuple[int, int]] = {}
        for cell in unit.cells:
            value = puzzle.grid[cell[0]][cell[1]]
            if value and value in first_at:
                return (
                    f"givens clash: {symbol_char(value)} appears twice in {unit.name} "
                    f"({cell_name(first_at[value])} and {cell_name(cell)})"
                )
            first_at.setdefault(value, cell)
    return "no solution: the givens admit no completion (proved by the engine)"


def clashing_cells(puzzle: Sudoku) -> list[tuple[int, int]]:
    """Cells whose given repeats a given of a shared unit (for highlighting)."""
    clashing = set()
    for unit in units(shape(puzzle)):
        by_value: dict[int, list[tuple[int, int]]] = {}
        for r, c in unit.cells:
            if puzzle.grid[r][c]:
                by_value.setdefault(puzzle.grid[r][c], []).append((r, c))
        for cells in by_value.values():
            if len(cells) > 1:
                clashing.update(cells)
    return sorted(clashing)


# ---------------------------------------------------------------------------
# Variant statements: a header comment or the command line
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    """What a header comment or the command line says about the puzzles it covers.

    ``None`` means "not stated": the puzzle's own statement or the default
    (the most square box for its size, no diagonals) applies.  ``source``
    names where it was stated, for messages."""

    box: tuple[int, int] | None = None
    diagonals: bool | None = None
    source: str = ""


HEADER_KIND = "sudoku"
OTHER_KINDS = ("binairo", "crossing")


def header(puzzle: Sudoku) -> str:
    """The header comment that makes the reader take the puzzles after it as ``puzzle``'s variant.

    Jigsaw regions are not in it: they travel with each puzzle's line."""
    words = ["#", "mindgames", HEADER_KIND]
    if puzzle.regions is None:
        words.append(f"box={puzzle.box[0]}x{puzzle.box[1]}")
    if puzzle.diagonals:
        words.append("diagonals")
    return " ".join(words)


def parse_box(text: str) -> tuple[int, int] | None:
    """``RxC`` as (R, C), or None when it is not of that shape (the caller names the problem)."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() and len(p) <= 3 for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def parse_header(comment: str, where: str) -> Variant | None:
    """The variant a ``# mindgames sudoku box=RxC [diagonals]`` comment states; None for other comments.

    A header states the whole variant: without ``diagonals`` it says "no diagonals"."""
    words = comment.lstrip("#").split()
    if len(words) < 2 or words[0] != "mindgames":
        return None
    if words[1] in OTHER_KINDS:
        raise PuzzleError(f"{where}: the header is for {words[1]} puzzles, not Sudoku")
    if words[1] != HEADER_KIND:
        return None  # prose that happens to start with the program's name
    box, diagonals = None, False
    for word in words[2:]:
        key, equals, value = word.partition("=")
        if key == "box" and equals:
            box = parse_box(value)
            if box is None:
                raise PuzzleError(f"{where}: header box={shorten(value)!r} is not a box shape like 3x3 or 3x2")
        elif key == "diagonals" and not equals:
            diagonals = True
        else:
            raise PuzzleError(f"{where}: unknown key {shorten(key)!r} in the header (known: box=RxC, diagonals)")
    return Variant(box, diagonals, f"the header on {where}")


def _describe(key: str, value: Any) -> str:
    if key == "box":
        return f"box {value[0]}x{value[1]}"
    return "diagonals" if value else "no diagonals"


def combine(outer: Variant | None, inner: Variant) -> Variant:
    """``inner`` (a header) within ``outer`` (the command line): stated twice must agree."""
    if outer is None:
        return inner
    for key in ("box", "diagonals"):
        mine, theirs = getattr(inner, key), getattr(outer, key)
        if mine is not None and theirs is not None and mine != theirs:
            raise PuzzleError(
                f"{inner.source} says {_describe(key, mine)}, but {outer.source} says {_describe(key, theirs)}"
            )
    return Variant(
        inner.box if inner.box is not None else outer.box,
        inner.diagonals if inner.diagonals is not None else outer.diagonals,
        inner.source,
    )


def _resolve(
    variant: Variant | None,
    box: Any,
    diagonals: Any,
    jigsaw: bool,
    where: str,
) -> tuple[Any, bool]:
    """The box and diagonals of one puzzle: its own statement (None if it makes none) and the variant's.

    A puzzle that states what the variant states differently is an error naming both."""
    at = f"{where}: " if where else ""
    if variant is None:
        return box, bool(diagonals)
    if variant.box is not None:
        if jigsaw:
            raise PuzzleError(f"{at}a jigsaw puzzle (it has regions), but {variant.source} says {_describe('box', variant.box)}")
        if box is not None and tuple(box) != variant.box:
            raise PuzzleError(f"{at}\"box\" {shorten(list(box))} contradicts {variant.source} ({_describe('box', variant.box)})")
        box = variant.box
    if variant.diagonals is not None:
        if diagonals is not None and diagonals != variant.diagonals:
            raise PuzzleError(f"{at}\"diagonals\" {str(diagonals).lower()} contradicts {variant.source} ({_describe('diagonals', variant.diagonals)})")
        diagonals = variant.diagonals
    return box, bool(diagonals)


# ---------------------------------------------------------------------------
# Parse
# ---------------------------------------------------------------------------
def make_puzzle(
    grid: Sequence[Sequence[int]],
    box: Sequence[int] | None = None,
    region_labels: Sequence[Sequence[Hashable]] | None = None,
    with_diagonals: bool = False,
    where: str = "",
) -> Sudoku:
    """A checked :class:`Sudoku` from a grid of ints (0 blank); errors name the cell."""
    at = f"{where}: " if where else ""
    size = len(grid)
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise PuzzleError(f"{at}a Sudoku has {MIN_SIZE} to {MAX_SIZE} rows, not {size}")
    for r, row in enumerate(grid):
        if len(row) != size:
            raise PuzzleError(f"{at}row {r + 1} has {len(row)} cells, a {size}x{size} Sudoku needs {size}")
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
            raise PuzzleError(f"{at}box {shorten(list(box))} does not tile a {size}x{size} grid (rows x cols must be {size})")
        box_tuple = (box[0], box[1])
    else:
        box_tuple = box_shape(size)
        if box_tuple is None:
            raise PuzzleError(f"{at}size {size} has no box shape (it is prime): give jigsaw regions")
    return Sudoku(
        tuple(tuple(row) for row in grid), box_tuple, region_grid, bool(with_diagonals)
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


def _cells_of_text(text: str, where: str) -> list[int]:
    """Values of a run of symbols ('.' or '0' blank, 1-9, A-Z)."""
    values = []
    for i, char in enumerate(text):
        value = symbol_value(char)
        if value is None:
            raise PuzzleError(f"{where}, character {i + 1}: unknown symbol {char!r}")
        values.append(value)
    return values


def _square(values: list[int], where: str) -> list[list[int]]:
    size = round(len(values) ** 0.5)
    if size * size != len(values):
        raise PuzzleError(
            f"{where}: {len(values)} cells do not make a square grid (81 for 9x9, 16 for 4x4, 256 for 16x16)"
        )
    return [values[r * size : (r + 1) * size] for r in range(size)]


def _check_range(grid: list[list[int]], where: str) -> None:
    size = len(grid)
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value > size:
                raise PuzzleError(
                    f"{where}, {cell_name((r, c))}: {symbol_char(value)!r} is out of range for a "
                    f"{size}x{size} Sudoku (1..{symbol_char(size)})"
                )


def parse_line(line: str, where: str = "line 1", variant: Variant | None = None) -> Sudoku:
    """One puzzle on one line: N*N symbols, optionally followed by N*N region labels (jigsaw)."""
    fields = line.split()
    if len(fields) not in (1, 2):
        raise PuzzleError(f"{where}: expected a puzzle and optional region labels, found {len(fields)} fields")
    if len(fields[0]) > 35 * 35:
        raise PuzzleError(f"{where}: {len(fields[0])} characters is too long for a puzzle (at most 35x35)")
    grid = _square(_cells_of_text(fields[0], where), where)
    _check_range(grid, where)
    labels = None
    if len(fields) == 2:
        if len(fields[1]) != len(fields[0]):
            raise PuzzleError(f"{where}: {len(fields[1])} region labels for {len(fields[0])} cells")
        size = len(grid)
        labels = [list(fields[1][r * size : (r + 1) * size]) for r in range(size)]
    box, diagonals = _resolve(variant, None, None, labels is not None, where)
    return make_puzzle(grid, box, labels, diagonals, where)


_SEPARATOR_CHARS = set("-+=|_ \t")


def _is_separator(line: str) -> bool:
    return bool(line.strip()) and set(line) <= _SEPARATOR_CHARS and any(ch in "-+=" for ch in line)


def _row_cells(line: str, where: str) -> list[int]:
    """A grid row: symbols with optional '|' and spaces, or space-separated numbers (10, 11, ...)."""
    tokens = line.replace("|", " ").split()
    if len(tokens) > 1 and any(len(t) > 1 for t in tokens):
        values = []
        for i, token in enumerate(tokens):
            if token in (".", "_"):
                values.append(0)
            elif token.isdigit():
                values.append(int(token))
            else:
                raise PuzzleError(f"{where}, column {i + 1}: {shorten(token)!r} is not a number")
        return values
    return _cells_of_text("".join(tokens), where)


def parse_grid_lines(numbered_lines: Sequence[tuple[int, str]], variant: Variant | None = None) -> Sudoku:
    """A puzzle drawn as a grid, one row per line, separators (| - +) allowed."""
    first = numbered_lines[0][0]
    grid = [_row_cells(text, f"line {n}") for n, text in numbered_lines if not _is_separator(text)]
    where = f"lines {first}-{numbered_lines[-1][0]}"
    for i, row in enumerate(grid):
        if len(row) != len(grid):
            raise PuzzleError(
                f"{where}: row {i + 1} has {len(row)} cells but the grid has {len(grid)} rows"
            )
    _check_range(grid, where)
    box, diagonals = _resolve(variant, None, None, False, where)
    return make_puzzle(grid, box, None, diagonals, where)


_JSON_KEYS = ("grid", "puzzle", "box", "diagonals", "regions")
# Keys of the records mindgames itself writes (generate, solve, check, count --json):
# a record read back as a puzzle keeps its puzzle keys and these are passed over.
_OUTPUT_KEYS = frozenset({
    "index", "status", "givens", "uniqueness", "minimal", "solution", "solutions", "seed",
    "engine", "seconds", "count", "complete", "error", "message",
})


def parse_json_value(value: Any, where: str = "JSON", variant: Variant | None = None) -> Sudoku:
    """The seeds' list of rows (0 blank), or ``{"grid", "box", "diagonals", "regions"}``.

    Records that mindgames writes are read too: their ``"puzzle"`` line stands
    for ``"grid"`` and their result keys are passed over."""
    if isinstance(value, list):
        box, diagonals = _resolve(variant, None, None, False, where)
        return make_puzzle(_json_grid(value, where), box, None, diagonals, where)
    if isinstance(value, str):
        return parse_line(value, where, variant)
    if not isinstance(value, dict):
        raise PuzzleError(f"{where}: a puzzle is a list of rows or an object with a \"grid\"")
    unknown = sorted(set(value) - set(_JSON_KEYS) - _OUTPUT_KEYS)
    if unknown:
        raise PuzzleError(f"{where}: unknown key {shorten(unknown[0])!r} (known: {', '.join(sorted(_JSON_KEYS))})")
    if "grid" not in value and "puzzle" not in value:
        raise PuzzleError(f"{where}: the object has no \"grid\" (nor a \"puzzle\" line)")
    grid = _json_cells(value.get("grid", value.get("puzzle")), where)
    if "grid" in value and "puzzle" in value and _json_cells(value["puzzle"], where) != grid:
        raise PuzzleError(f"{where}: \"puzzle\" and \"grid\" are different puzzles")
    labels = value.get("regions")
    if isinstance(labels, str):
        size = len(grid)
        if len(labels) != size * size:
            raise PuzzleError(f"{where}: {len(labels)} region labels for {size * size} cells")
        labels = [list(labels[r * size : (r + 1) * size]) for r in range(size)]
    elif labels is not None and not (isinstance(labels, list) and all(isinstance(r, list) for r in labels)):
        raise PuzzleError(f"{where}: \"regions\" must be a grid (list of rows) of labels")
    diag = value.get("diagonals")
    if diag is not None and not isinstance(diag, bool):
        raise PuzzleError(f"{where}: \"diagonals\" must be true or false, not {shorten(repr(diag))}")
    box = value.get("box")
    if box is not None and not isinstance(box, list):
        raise PuzzleError(f"{where}: \"box\" must be [rows, cols], not {shorten(repr(box))}")
    box, diag = _resolve(variant, box, diag, labels is not None, where)
    return make_puzzle(grid, box, labels, diag, where)


def _json_cells(raw: Any, where: str) -> list[list[int]]:
    """A ``"grid"`` (list of rows) or a one-line ``"puzzle"`` as rows of values."""
    if isinstance(raw, str):
        grid = _square(_cells_of_text(raw, where), where)
        _check_range(grid, where)
        return grid
    return _json_grid(raw, where)


def _json_grid(rows_value: Any, where: str) -> list[list[int]]:
    if not isinstance(rows_value, list) or not all(isinstance(row, list) for row in rows_value):
        raise PuzzleError(f"{where}: \"grid\" must be a list of rows")
    return [[0 if v is None else v for v in row] for row in rows_value]


def parse(text: str, variant: Variant | None = None) -> Sudoku:
    """Exactly one puzzle from text in any accepted format."""
    puzzles = list(read_puzzles(text, variant))
    if not puzzles:
        raise PuzzleError("no puzzle found")
    if len(puzzles) > 1:
        raise PuzzleError(f"expected one puzzle, found {len(puzzles)}")
    if isinstance(puzzles[0], PuzzleError):
        raise puzzles[0]
    return puzzles[0]


def read_puzzles(text: str, variant: Variant | None = None) -> Iterator[Sudoku | PuzzleError]:
    """Every puzzle in a text, in order; a puzzle that does not parse yields its error.

    Accepts a whole-text JSON value (one puzzle, or a list of puzzles), JSON
    Lines, one puzzle per line, or grids drawn over several lines (separated by
    blank lines).  Lines starting with ``#`` are comments, except a header
    ``# mindgames sudoku box=RxC [diagonals]``, which states the variant of the
    puzzles after it (an unusable or contradicting header raises PuzzleError).
    ``variant`` is what the command line states; it holds until a header."""
    stripped = text.strip()
    if stripped[:1] in "[{":
        try:
            value = json.loads(stripped)
        except (json.JSONDecodeError, RecursionError):
            value = None  # perhaps JSON Lines: read line by line below
        else:
            if isinstance(value, list) and value and not _looks_like_rows(value):
                for i, item in enumerate(value):
                    yield _attempt(parse_json_value, item, f"puzzle {i + 1}", variant)
            else:
                yield _attempt(parse_json_value, value, "JSON", variant)
            return
    block: list[tuple[int, str]] = []
    current = variant
    for number, line in enumerate(text.splitlines(), start=1):
        content = line.strip()
        if content.startswith("#"):
            stated = parse_header(content, f"line {number}")
            if stated is not None:
                yield from _read_block(block, current)
                block = []
                current = combine(variant, stated)
            continue
        if content:
            block.append((number, content))
            continue
        yield from _read_block(block, current)
        block = []
    yield from _read_block(block, current)


def _looks_like_rows(value: list) -> bool:
    return all(isinstance(row, list) and all(not isinstance(v, (list, dict)) for v in row) for row in value)


def _read_block(block: list[tuple[int, str]], variant: Variant | None) -> Iterator[Sudoku | PuzzleError]:
    if not block:
        return
    if len(block) > 1 and _is_grid_block(block):
        yield _attempt(parse_grid_lines, block, variant)
        return
    for number, content in block:
        where = f"line {number}"
        if content[:1] in "[{":
            try:
                value = json.loads(content)
            except (json.JSONDecodeError, RecursionError) as error:
                yield PuzzleError(f"{where}: invalid JSON ({error.msg}, column {error.colno})")
                continue
            yield _attempt(parse_json_value, value, where, variant)
        else:
            yield _attempt(parse_line, content, where, variant)


def _is_grid_block(block: list[tuple[int, str]]) -> bool:
    """Several lines that draw one square grid (as many cells per row as rows)?"""
    content = [text for _, text in block if not _is_separator(text)]
    if len(content) < MIN_SIZE or any(text[:1] in "[{" for text in content):
        return False
    try:
        return all(len(_row_cells(text, "")) == len(content) for text in content)
    except PuzzleError:
        return any(_is_separator(text) for _, text in block) or len(content[0]) < 16


def _attempt(parser, *args) -> Sudoku | PuzzleError:
    try:
        return parser(*args)
    except PuzzleError as error:
        return error


def to_line(grid: Sequence[Sequence[int]]) -> str:
    """A grid as one line of symbols ('.' for a blank)."""
    return "".join(symbol_char(v) for row in grid for v in row)


def region_labels(puzzle: Sudoku) -> str | None:
    """A jigsaw's regions as one line of labels (1-9, A-Z by region number), None for boxes."""
    if puzzle.regions is None:
        return None
    return "".join(SYMBOLS[number] for row in puzzle.regions for number in row)


def to_text(puzzle: Sudoku) -> str:
    """The puzzle's line as :func:`parse_line` reads it: its symbols, then a jigsaw's region labels."""
    labels = region_labels(puzzle)
    return to_line(puzzle.grid) + (f" {labels}" if labels else "")


# ---------------------------------------------------------------------------
# The library in a few calls
# ---------------------------------------------------------------------------
def solver(engine: str = "sat") -> PuzzleSolver:
    """A reusable solver: keep it for a batch, it compiles each shape once."""
    return PuzzleSolver(SUDOKU, engine)


def solve(puzzle: Sudoku, engine: str = "sat", time_limit: float | None = None) -> Result:
    return solver(engine).solve(puzzle, time_limit)


def check(puzzle: Sudoku, engine: str = "sat", time_limit: float | None = None) -> Result:
    return solver(engine).check(puzzle, time_limit)


def count(
    puzzle: Sudoku, engine: str = "sat", limit: int | None = None, time_limit: float | None = None
) -> Result:
    return solver(engine).count(puzzle, limit, time_limit)


# ---------------------------------------------------------------------------
# Generate: a random full grid, then every given that can go, goes
# ---------------------------------------------------------------------------
Progress = Callable[[str, int, "int | None"], None]


def _time_left(deadline: Deadline | None) -> float | None:
    """Seconds left before ``deadline``; TimeLimitReached once it has passed."""
    if deadline is None:
        return None
    if deadline.passed():
        raise TimeLimitReached("time limit reached while generating")
    return deadline.remaining()


def random_solution(
    empty: Sudoku, rng: random.Random, solver: PuzzleSolver, deadline: Deadline | None = None
) -> list[list[int]]:
    """A random complete grid of ``empty``'s shape (random first row and a few random seeds)."""
    size = empty.size
    while True:
        grid = [list(row) for row in empty.grid]
        grid[0] = rng.sample(range(1, size + 1), size)
        for _ in range(size // 2):
            grid[rng.randrange(1, size)][rng.randrange(size)] = rng.randrange(1, size + 1)
        seeded = Sudoku(tuple(map(tuple, grid)), empty.box, empty.regions, empty.diagonals)
        result = solver.solve(seeded, _time_left(deadline))
        if result.status == "solved":
            return result.solution
        _time_left(deadline)  # an unknown answer: out of time, or a retry


def minimize(
    puzzle: Sudoku,
    rng: random.Random,
    solver: PuzzleSolver,
    deadline: Deadline | None = None,
    on_progress: Progress | None = None,
) -> Sudoku:
    """Remove givens in random order while the solution stays unique.

    One pass is enough for minimality: a given that could not be removed
    earlier cannot be removed later either, since removing more givens only
    adds solutions.  TimeLimitReached when ``deadline`` passes first."""
    grid = [list(row) for row in puzzle.grid]
    cells = [(r, c) for r in range(puzzle.size) for c in range(puzzle.size) if grid[r][c]]
    rng.shuffle(cells)
    for tried, (r, c) in enumerate(cells):
        if on_progress is not None:
            on_progress("removing givens", tried, len(cells))
        kept, grid[r][c] = grid[r][c], 0
        candidate = Sudoku(tuple(map(tuple, grid)), puzzle.box, puzzle.regions, puzzle.diagonals)
        result = solver.check(candidate, _time_left(deadline))
        if result.uniqueness is None and result.status == "unknown":
            _time_left(deadline)
        if result.uniqueness != "unique":
            grid[r][c] = kept
    return Sudoku(tuple(map(tuple, grid)), puzzle.box, puzzle.regions, puzzle.diagonals)


def generate(
    empty: Sudoku,
    seed: int | None = None,
    engine: str = "sat",
    deadline: Deadline | None = None,
    on_progress: Progress | None = None,
    using: PuzzleSolver | None = None,
) -> tuple[Sudoku, list[list[int]]]:
    """A puzzle of ``empty``'s shape with exactly one solution and no removable given.

    Reproducible for a given ``seed``.  Uniqueness checks run on one
    incremental session (the givens are assumptions), never a rebuilt solver;
    pass ``using`` to share that session between calls.  ``on_progress(stage,
    done, total)`` hears what it is doing; TimeLimitReached when ``deadline``
    passes before the puzzle is done."""
    rng = random.Random(seed)
    solver_ = using or solver(engine)
    if on_progress is not None:
        on_progress("filling a random grid", 0, None)
    # A layout with no solution at all (a jigsaw, say) would keep the random filling going forever.
    if solver_.solve(empty, _time_left(deadline)).status == "unsolvable":
        raise PuzzleError(f"a {empty.variant} Sudoku has no solution at all: nothing to generate")
    full = random_solution(empty, rng, solver_, deadline)
    start = Sudoku(tuple(map(tuple, full)), empty.box, empty.regions, empty.diagonals)
    return minimize(start, rng, solver_, deadline, on_progress), full


# ---------------------------------------------------------------------------
# The kind object: what the interfaces and the runner ask of Sudoku
# ---------------------------------------------------------------------------
def checked_box(text: str) -> tuple[int, int]:
    """``RxC`` as a box shape whose grid size is supported; PuzzleError naming the problem."""
    box = parse_box(text)
    if box is None:
        raise PuzzleError(f"{shorten(text)!r} is not a box shape like 3x3 or 2x3")
    rows_, cols = box
    if min(rows_, cols) < 1 or not MIN_SIZE <= rows_ * cols <= MAX_SIZE:
        raise PuzzleError(
            f"box {text} makes a {rows_ * cols}x{rows_ * cols} grid; sizes {MIN_SIZE}..{MAX_SIZE} are supported"
        )
    return box


BOX = Option("box", "box shape RxC (e.g. 3x3, 2x3); default: as the file says, else the most square",
             parse=checked_box)
DIAGONALS = Option("diagonals", "X-Sudoku: both diagonals too", flag=True)
REGIONS = Option("regions", "jigsaw: N*N region labels, one per cell, row by row")


class SudokuKind(GridKind[Sudoku]):
    """Sudoku as a kind: every method is this module's functions, under the kind's names."""

    name = "sudoku"
    summary = "Sudoku of any box shape, X-Sudoku (diagonals) and jigsaw Sudoku (regions), 4x4 to 35x35"
    formats = (
        "a line of N*N symbols ('.' or '0' blank, 1-9, A-Z), optionally followed by N*N jigsaw region labels",
        "a grid drawn over several lines (separators | - + allowed)",
        "a list of rows of numbers (0 blank)",
        'an object {"grid", "box": [rows, cols], "diagonals": true|false, "regions"}',
    )
    options = (BOX, DIAGONALS)
    generate_options = (BOX, DIAGONALS, REGIONS)

    @staticmethod
    def _stated(box: tuple[int, int] | None = None, diagonals: bool | None = None) -> Variant | None:
        """What the options state, as the variant the reader holds the puzzles to (None: nothing)."""
        diagonals = diagonals or None  # a flag: on, or not stated
        if box is None and diagonals is None:
            return None
        source = " and ".join(n for n, given in (("--box", box), ("--diagonals", diagonals)) if given)
        return Variant(box, diagonals, source)

    def read(self, text: str, **options: Any) -> list[Parsed[Sudoku]]:
        return [
            Parsed(error=item) if isinstance(item, PuzzleError) else Parsed(puzzle=item)
            for item in read_puzzles(text, self._stated(**options))
        ]

    def parse_value(self, value: Any, **options: Any) -> Sudoku:
        if isinstance(value, str):
            return parse(value, self._stated(**options))
        return parse_json_value(value, "puzzle", self._stated(**options))

    def write(self, puzzle: Sudoku) -> str:
        return f"{header(puzzle)}\n{to_text(puzzle)}\n"

    def to_json(self, puzzle: Sudoku) -> dict[str, Any]:
        record: dict[str, Any] = {"grid": [list(row) for row in puzzle.grid]}
        if puzzle.box is not None:
            record["box"] = list(puzzle.box)
        record["diagonals"] = puzzle.diagonals
        if puzzle.regions is not None:
            record["regions"] = region_labels(puzzle)
        return record

    def shape(self, puzzle: Sudoku) -> Shape:
        return shape(puzzle)

    def compile(self, shape: Shape) -> Encoding:
        return compile(shape)

    def givens(self, encoding: Encoding, puzzle: Sudoku) -> list[int]:
        return givens(encoding, puzzle)

    def decode(self, encoding: Encoding, assignment: Assignment) -> list[list[int]]:
        return decode(encoding, assignment)

    def verify(self, puzzle: Sudoku, solution: Any) -> list[str]:
        return verify(puzzle, solution)

    def describe(self, puzzle: Sudoku) -> str:
        return puzzle.variant

    def draw(self, puzzle: Sudoku, solution: Any = None, color: bool = False) -> list[str]:
        if solution is None:
            return grid_lines(puzzle.grid, puzzle.box, None, False, puzzle.regions)
        return grid_lines(solution, puzzle.box, puzzle.grid, color, puzzle.regions)

    def explain_unsolvable(self, puzzle: Sudoku) -> str:
        return explain_unsolvable(puzzle)

    def clashing_cells(self, puzzle: Sudoku) -> list[tuple[int, int]]:
        return clashing_cells(puzzle)

    def empty(
        self, box: tuple[int, int] | None = None, diagonals: bool = False, regions: str | None = None
    ) -> Sudoku:
        """The blank grid of a box shape (default 3x3) or of jigsaw region labels (N*N, row by row)."""
        if regions is None:
            box = box or (3, 3)
            size = box[0] * box[1]
            return make_puzzle([[0] * size for _ in range(size)], list(box), None, bool(diagonals))
        if box is not None:
            raise PuzzleError("give either a box or jigsaw regions (a jigsaw has no boxes), not both")
        size = round(len(regions) ** 0.5)
        if size * size != len(regions):
            raise PuzzleError(f"regions: {len(regions)} labels do not make a square grid (36 for 6x6)")
        labels = [list(regions[r * size : (r + 1) * size]) for r in range(size)]
        return make_puzzle([[0] * size for _ in range(size)], None, labels, bool(diagonals), "regions")

    def given_cells(self, puzzle: Sudoku) -> dict[Cell, int]:
        return {(r, c): v for r, row in enumerate(puzzle.grid) for c, v in enumerate(row) if v}

    def with_givens(self, puzzle: Sudoku, givens: dict[Cell, int]) -> Sudoku:
        size = puzzle.size
        grid = tuple(tuple(givens.get((r, c), 0) for c in range(size)) for r in range(size))
        return replace(puzzle, grid=grid)


SUDOKU = SudokuKind()
