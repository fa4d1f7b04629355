"""Sudoku as text and JSON: reading every accepted format, writing what reads back.

Formats: a line of N*N symbols (optionally followed by N*N jigsaw region
labels), a grid drawn over several lines, a list of rows of numbers, a JSON
object ``{"grid", "box", "diagonals", "regions"}`` (and mindgames' own output
records), JSON Lines.  A header comment ``# mindgames sudoku box=RxC
[diagonals]`` states the variant of the puzzles after it; the command line
may state it too (a :class:`Variant`), and the two must agree.

Reading follows the library's one convention: :func:`read` gives a
:class:`~mindgames.models.kind.Parsed` per puzzle, the puzzle or the error naming what
is wrong with it.  How a file is cut (headers, comments, blocks, JSON documents and
JSON Lines) is every kind's (:mod:`mindgames.models.formats`); this module says how a
Sudoku is read from a line (:data:`LINE_READERS`), a block of lines or a JSON value.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import PuzzleError, shorten
from ..formats import (
    Header,
    HeaderWords,
    Recogniser,
    TextFormat,
    Unit,
    error_at,
    header_line,
    json_line,
    place,
    read_header,
    recognise,
    rows_of_cells,
)
from ..formats import units as cut_units
from ..grid import SYMBOL_VALUES, SYMBOLS, box_shape, cell_name, symbol_char
from ..kind import Parsed
from . import fpuzzles, pencilmarks, sudokupad
from .puzzle import MAX_SIZE, MIN_SIZE, Sudoku, make_puzzle
from .sites import claims_puzzlink, claims_tatham, read_puzzlink, read_tatham
from .variant_json import RULE_KEYS, constraints_from_json, constraints_to_json


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
HEADER_WORDS = HeaderWords(HEADER_KIND, "{where}: the header is for {kind} puzzles, not Sudoku")


def header(puzzle: Sudoku) -> str:
    """The header comment that makes the reader take the puzzles after it as ``puzzle``'s variant.

    Jigsaw regions are not in it: they travel with each puzzle's line."""
    box = None if puzzle.box is None or puzzle.regions is not None else f"{puzzle.box[0]}x{puzzle.box[1]}"
    return header_line(HEADER_KIND, box=box, diagonals=puzzle.diagonals)


def parse_box(text: str) -> tuple[int, int] | None:
    """``RxC`` as (R, C), or None when it is not of that shape (the caller names the problem)."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() and len(p) <= 3 for p in parts):
        return None
    return int(parts[0]), int(parts[1])


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


def parse_header(comment: str, where: str) -> Variant | None:
    """The variant a ``# mindgames sudoku box=RxC [diagonals]`` comment states; None for other comments."""
    stated = read_header(comment, where, HEADER_WORDS)
    return None if stated is None else header_variant(stated)


def header_variant(stated: Header) -> Variant:
    """The variant a Sudoku header states; PuzzleError naming a key or value it does not know.

    A header states the whole variant: without ``diagonals`` it says "no diagonals"."""
    where = stated.where
    box, diagonals = None, False
    for key, value in stated.settings:
        if key == "box" and value is not None:
            box = parse_box(value)
            if box is None:
                raise PuzzleError(
                    f"{where}: header box={shorten(value)!r} is not a box shape like 3x3 or 3x2"
                )
        elif key == "diagonals" and value is None:
            diagonals = True
        else:
            raise PuzzleError(
                f"{where}: unknown key {shorten(key)!r} in the header (known: box=RxC, diagonals)"
            )
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
            raise PuzzleError(
                f"{at}a jigsaw puzzle (it has regions), but {variant.source} says {_describe('box', variant.box)}"
            )
        if box is not None and tuple(box) != variant.box:
            raise PuzzleError(
                f'{at}"box" {shorten(list(box))} contradicts {variant.source} ({_describe("box", variant.box)})'
            )
        box = variant.box
    if variant.diagonals is not None:
        if diagonals is not None and diagonals != variant.diagonals:
            raise PuzzleError(
                f'{at}"diagonals" {str(diagonals).lower()} contradicts {variant.source} ({_describe("diagonals", variant.diagonals)})'
            )
        diagonals = variant.diagonals
    return box, bool(diagonals)


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------
def _cells_of_text(text: str, where: str) -> list[int]:
    """Values of a run of symbols ('.' or '0' blank, 1-9, A-Z)."""
    values = [SYMBOL_VALUES.get(char) for char in text]  # one dict look-up a cell: the hot path
    if None in values:
        i = values.index(None)
        raise error_at(place(where, character=i + 1), f"unknown symbol {text[i]!r}")
    return values  # type: ignore[return-value]  # no None left: checked just above


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
    puzzle = _plain_line(line, variant)
    if puzzle is not None:
        return puzzle
    fields = line.split()
    if len(fields) not in (1, 2):
        raise PuzzleError(
            f"{where}: expected a puzzle and optional region labels, found {len(fields)} fields"
        )
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


# The sizes a line of N*N symbols can have, and each size's default box (None: prime).
_SIZE_OF_CELLS = {size * size: size for size in range(MIN_SIZE, MAX_SIZE + 1)}
_DEFAULT_BOX = {size: box_shape(size) for size in range(MIN_SIZE, MAX_SIZE + 1)}
# Each ASCII symbol's value as a byte, 255 (out of every range) for any other character.
_SYMBOL_BYTES = bytes(SYMBOL_VALUES.get(chr(code), 255) for code in range(256))


def _plain_line(line: str, variant: Variant | None) -> Sudoku | None:
    """The usual line, N*N symbols in range and nothing else, as its puzzle; None for
    anything else (region labels, a wrong length, an unknown or out-of-range symbol,
    a box that does not tile), which the full reader handles and names.

    The hot path of reading a collection: the checks :func:`make_puzzle` makes,
    done on the whole line at once."""
    size = _SIZE_OF_CELLS.get(len(line))
    if size is None or not line.isascii() or size == 27 and pencilmarks.claims_sukaku(line):
        return None
    values = line.encode().translate(_SYMBOL_BYTES)  # the cells' values, at C speed
    if max(values) > size:  # a symbol out of range, unknown, or a space (region labels follow)
        return None
    box, diagonals = _DEFAULT_BOX[size], False
    if variant is not None:
        if variant.box is not None:
            box = variant.box
            if box[0] * box[1] != size or min(box) < 1:
                return None
        diagonals = bool(variant.diagonals)
    if box is None:
        return None
    grid = tuple(zip(*[iter(values)] * size))  # the rows: `size` values at a time
    return Sudoku(grid, box, None, diagonals)


# '*': the corners of Simple Sudoku's (.ss) frame; '.', ':', "'": the corners of Hodoku's candidate grids
_SEPARATOR_CHARS = set("-+=|_*.:' \t")


def _is_separator(line: str) -> bool:
    return bool(line.strip()) and set(line) <= _SEPARATOR_CHARS and any(ch in "-+=" for ch in line)


def _row_cells(line: str, where: str) -> list[int]:
    """A grid row: symbols with optional '|' and spaces, or space-separated numbers (10, 11, ...)."""
    tokens = line.replace("|", " ").split()
    # numbers when one of them has several digits; symbols in boxes (.ss: |...|.2.|...|) otherwise
    if len(tokens) > 1 and any(len(t) > 1 and t.isdigit() for t in tokens):
        values = []
        for i, token in enumerate(tokens):
            if token in (".", "_"):
                values.append(0)
            elif token.isdigit():
                values.append(int(token))
            else:
                raise error_at(place(where, column=i + 1), f"{shorten(token)!r} is not a number")
        return values
    return _cells_of_text("".join(tokens), where)


def parse_grid_lines(numbered_lines: Sequence[tuple[int, str]], variant: Variant | None = None) -> Sudoku:
    """A puzzle drawn as a grid, one row per line, separators (| - +) allowed."""
    first = numbered_lines[0][0]
    where = place(lines=(first, numbered_lines[-1][0]))
    rows = [(n, text.replace("|", " ").split()) for n, text in numbered_lines if not _is_separator(text)]
    # groups of several digits are candidates in a grid of up to 9 rows (a grid whose
    # numbers go to 10 and beyond has 10 rows and more)
    small = len(rows) <= pencilmarks.SUKAKU_SIZE
    if small and any(
        len(tokens) > 1 and any(map(pencilmarks.is_candidate_token, tokens)) for _, tokens in rows
    ):
        box, diagonals = _resolve(variant, None, None, False, where)
        return pencilmarks.puzzle_of_marks(pencilmarks.candidate_rows(rows), where, box, diagonals)
    grid = [_row_cells(text, place(line=n)) for n, text in numbered_lines if not _is_separator(text)]
    for i, row in enumerate(grid):
        if len(row) != len(grid):
            raise PuzzleError(f"{where}: row {i + 1} has {len(row)} cells but the grid has {len(grid)} rows")
    _check_range(grid, where)
    box, diagonals = _resolve(variant, None, None, False, where)
    return make_puzzle(grid, box, None, diagonals, where)


_JSON_KEYS = ("grid", "puzzle", "box", "diagonals", "regions", *RULE_KEYS)
# Keys of the records mindgames itself writes (generate, solve, check, count --json):
# a record read back as a puzzle keeps its puzzle keys and these are passed over.
_OUTPUT_KEYS = frozenset(
    {
        "index",
        "status",
        "givens",
        "uniqueness",
        "minimal",
        "solution",
        "solutions",
        "seed",
        "engine",
        "seconds",
        "stats",
        "count",
        "complete",
        "error",
        "message",
        "drawing",
    }
)


def parse_json_value(value: Any, where: str = "JSON", variant: Variant | None = None) -> Sudoku:
    """The seeds' list of rows (0 blank), or ``{"grid", "box", "diagonals", "regions"}`` and
    the variant rules' keys (:mod:`.variant_json`: ``"cages"``, ``"thermos"``...).

    Records that mindgames writes are read too: their ``"puzzle"`` line stands
    for ``"grid"`` and their result keys are passed over."""
    if isinstance(value, list):
        box, diagonals = _resolve(variant, None, None, False, where)
        return make_puzzle(_json_grid(value, where), box, None, diagonals, where)
    if isinstance(value, str):
        return recognise(TEXT_READERS, value, where, variant)
    if not isinstance(value, dict):
        raise PuzzleError(f'{where}: a puzzle is a list of rows or an object with a "grid"')
    unknown = sorted(set(value) - set(_JSON_KEYS) - _OUTPUT_KEYS)
    if unknown:
        raise PuzzleError(
            f"{where}: unknown key {shorten(unknown[0])!r} (known: {', '.join(sorted(_JSON_KEYS))})"
        )
    if "grid" not in value and "puzzle" not in value:
        raise PuzzleError(f'{where}: the object has no "grid" (nor a "puzzle" line)')
    grid = _json_cells(value.get("grid", value.get("puzzle")), where)
    if "grid" in value and "puzzle" in value and _json_cells(value["puzzle"], where) != grid:
        raise PuzzleError(f'{where}: "puzzle" and "grid" are different puzzles')
    labels = value.get("regions")
    if isinstance(labels, str):
        size = len(grid)
        if len(labels) != size * size:
            raise PuzzleError(f"{where}: {len(labels)} region labels for {size * size} cells")
        labels = [list(labels[r * size : (r + 1) * size]) for r in range(size)]
    elif labels is not None and not (isinstance(labels, list) and all(isinstance(r, list) for r in labels)):
        raise PuzzleError(f'{where}: "regions" must be a grid (list of rows) of labels')
    diag = value.get("diagonals")
    if diag is not None and not isinstance(diag, bool):
        raise PuzzleError(f'{where}: "diagonals" must be true or false, not {shorten(repr(diag))}')
    box = value.get("box")
    if box is not None and not isinstance(box, list):
        raise PuzzleError(f'{where}: "box" must be [rows, cols], not {shorten(repr(box))}')
    box, diag = _resolve(variant, box, diag, labels is not None, where)
    return make_puzzle(grid, box, labels, diag, where, constraints_from_json(value, where))


def _json_cells(raw: Any, where: str) -> list[list[int]]:
    """A ``"grid"`` (list of rows) or a one-line ``"puzzle"`` as rows of values."""
    if isinstance(raw, str):
        grid = _square(_cells_of_text(raw, where), where)
        _check_range(grid, where)
        return grid
    return _json_grid(raw, where)


def _json_grid(rows_value: Any, where: str) -> list[list[int]]:
    if not isinstance(rows_value, list) or not all(isinstance(row, list) for row in rows_value):
        raise PuzzleError(f'{where}: "grid" must be a list of rows')
    return [[0 if v is None else v for v in row] for row in rows_value]


def parse(text: str, variant: Variant | None = None) -> Sudoku:
    """Exactly one puzzle from text in any accepted format."""
    items = list(read(text, variant))
    if not items:
        raise PuzzleError("no puzzle found")
    if len(items) > 1:
        raise PuzzleError(f"expected one puzzle, found {len(items)}")
    return items[0].require()


def read(text: str, variant: Variant | None = None) -> Iterator[Parsed[Sudoku]]:
    """Every puzzle in a text, in order; a puzzle that does not parse is its error.

    Accepts a whole-text JSON value (one puzzle, a list of puzzles or ``{"puzzles":
    [...]}``), JSON Lines, one puzzle per line, or grids drawn over several lines
    (separated by blank lines).  Lines starting with ``#`` are comments, except a header
    ``# mindgames sudoku box=RxC [diagonals]``, which states the variant of the
    puzzles after it (an unusable or contradicting header raises PuzzleError).
    ``variant`` is what the command line states; it holds until a header.

    >>> from mindgames.models.sudoku import read
    >>> found = list(read("1...\\n..3.\\n.4..\\n...2\\n\\n1.....3..4.....29"))
    >>> [item.ok for item in found], found[0].puzzle.size
    ([True, False], 4)
    >>> print(found[1].error)
    line 6: 17 cells do not make a square grid (81 for 9x9, 16 for 4x4, 256 for 16x16)
    """
    return map(parse_unit, units(text.splitlines(keepends=True), variant))


# ---------------------------------------------------------------------------
# Reading a stream: cut into units (one puzzle's text each), then parse each
# ---------------------------------------------------------------------------
#: a block of more lines than this draws no grid (35 rows and the separator lines around
#: them at most): its lines are puzzles one per line, read as they come, never held together
GRID_LINES_AT_MOST = 2 * MAX_SIZE + 1


def _is_grid_block(block: Sequence[tuple[int, str]]) -> bool:
    """Several lines that draw one square grid (as many cells per row as rows)?"""
    if len(block) < 2:
        return False
    content = [text for _, text in block if not _is_separator(text)]
    if len(content) < MIN_SIZE or any(text[:1] in "[{" for text in content):
        return False
    try:
        return all(len(_row_cells(text, "")) == len(content) for text in content)
    except PuzzleError:
        return any(_is_separator(text) for _, text in block) or len(content[0]) < 16


def _one_grid(value: list) -> bool:
    """Is a JSON list one puzzle (rows of cells; an empty list is read as one, and named)?"""
    return not value or rows_of_cells(value)


#: how a Sudoku file is cut (the convention is every kind's: :mod:`mindgames.models.formats`)
TEXT_FORMAT: TextFormat[Variant | None, Variant] = TextFormat(
    header=HEADER_WORDS,
    header_settings=header_variant,
    within=lambda stated, variant, _: combine(stated, variant),
    one_puzzle=_is_grid_block,
    json_one_puzzle=_one_grid,
    block_lines_at_most=GRID_LINES_AT_MOST,
    puzzle_sections=("puzzle",),  # SadMan Sudoku (.sdk): [Puzzle]; its [State] and others are passed over
)


def units(lines: Iterable[str], variant: Variant | None = None) -> Iterator[Unit]:
    """The puzzles of ``lines`` (with or without their line ends), cut apart without
    parsing them, as the lines come: a long input is never held whole.

    The forms are those of :func:`read`; a JSON document over several lines is read
    whole (up to :data:`~mindgames.models.formats.MAX_DOCUMENT_CHARS`), to tell it
    from JSON Lines.  An unusable or contradicting header raises PuzzleError when it
    is reached.  Each unit's ``stated`` is the variant the command line and the last
    header state."""
    return cut_units(lines, TEXT_FORMAT, variant)


def _read_sukaku(text: str, where: str, variant: Variant | None) -> Sudoku:
    box, diagonals = _resolve(variant, (3, 3), None, False, where)
    return pencilmarks.read_sukaku(text, where, box, diagonals)


def _read_json_line(text: str, where: str, variant: Variant | None) -> Sudoku:
    """A line of JSON Lines: its value read as :data:`JSON_READERS` read a JSON value."""
    return recognise(JSON_READERS, json_line(text, where), where, variant)


#: the formats of a text that is one puzzle by itself, a line's or a JSON string's (the
#: service's ``"puzzle"``), tried in order: the sites' links and IDs (:mod:`.sites`), then
#: the symbols of :func:`parse_line`, which take every text
TEXT_READERS: list[Recogniser] = [
    Recogniser(pencilmarks.claims_sukaku, lambda text, where, variant: _read_sukaku(text, where, variant)),
    Recogniser(claims_puzzlink, lambda text, where, variant: read_puzzlink(text, where, _resolve, variant)),
    Recogniser(claims_tatham, lambda text, where, variant: read_tatham(text, where, _resolve, variant)),
    Recogniser(
        fpuzzles.claims_link, lambda text, where, variant: fpuzzles.read_link(text, where, _resolve, variant)
    ),
    Recogniser(
        sudokupad.claims_link,
        lambda text, where, variant: sudokupad.read_link(text, where, _resolve, variant),
    ),
    Recogniser(None, parse_line),
]
#: the formats of a line that holds one puzzle, tried in order after the usual line
#: (read at once): a JSON value, then :data:`TEXT_READERS`
LINE_READERS: list[Recogniser] = [Recogniser(lambda text: text[:1] in "[{", _read_json_line), *TEXT_READERS]
#: the forms of a JSON value that is one puzzle (a value of a JSON document or of JSON Lines),
#: tried in order; the last, :func:`parse_json_value`, takes every value
JSON_READERS: list[Recogniser] = [
    Recogniser(
        fpuzzles.claims_json,
        lambda value, where, variant: fpuzzles.read_json(value, where, _resolve, variant),
    ),
    Recogniser(None, parse_json_value),
]


def parse_unit(unit: Unit) -> Parsed[Sudoku]:
    """The puzzle of one unit of the input, or the error naming what is wrong with it."""
    form, where, text, variant = unit
    if form == "line":
        puzzle = _plain_line(text, variant)  # the usual line, read at once
        if puzzle is not None:
            return Parsed(puzzle)
        return Parsed.attempt(recognise, LINE_READERS, text, place(line=where), variant)
    if form == "block":
        return Parsed.attempt(parse_grid_lines, where, variant)
    return Parsed.attempt(recognise, JSON_READERS, text, where, variant)


# ---------------------------------------------------------------------------
# Writing: what reading reads back
# ---------------------------------------------------------------------------
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


def write(puzzle: Sudoku) -> str:
    """The puzzle as text that :func:`read` reads back, variant included (by the header).

    >>> from mindgames.models.sudoku import make_puzzle, parse, write
    >>> puzzle = make_puzzle([[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]], box=(2, 2))
    >>> print(write(puzzle), end="")
    # mindgames sudoku box=2x2
    1.....3..4.....2
    >>> parse(write(puzzle)) == puzzle
    True
    """
    if puzzle.constraints:  # no line of symbols holds cages or thermos: a JSON line does
        return f"{header(puzzle)}\n{json.dumps(to_json(puzzle), separators=(',', ':'))}\n"
    return f"{header(puzzle)}\n{to_text(puzzle)}\n"


def to_json(puzzle: Sudoku) -> dict[str, Any]:
    """The puzzle as a JSON object that :func:`parse_json_value` reads back."""
    record: dict[str, Any] = {"grid": [list(row) for row in puzzle.grid]}
    if puzzle.box is not None:
        record["box"] = list(puzzle.box)
    record["diagonals"] = puzzle.diagonals
    if puzzle.regions is not None:
        record["regions"] = region_labels(puzzle)
    record.update(constraints_to_json(puzzle.constraints))
    return record
