"""Sudoku in the forms puzzle sites use: puzz.link (pzprjs) URLs, Simon Tatham's Solo game IDs.

Each form has a reader (``read_*``: a line's text, where it is, the stated variant -> a
:class:`Sudoku` or PuzzleError naming what is wrong) that :mod:`.formats` registers in its
``TEXT_READERS``, and a writer (``to_*``) whose text the reader reads back.  The encodings
follow the sites' public sources: pzprjs (``src/variety/sudoku.js``,
``src/variety-common/Encode.js``) and Tatham's ``solo.c``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..errors import PuzzleError, shorten
from .puzzle import Sudoku, make_puzzle

#: resolves a puzzle's own box and diagonals against the stated variant (``formats._resolve``)
Resolve = Callable[[Any, Any, Any, bool, str], tuple[Any, bool]]

# ---------------------------------------------------------------------------
# puzz.link / pzprjs
# ---------------------------------------------------------------------------
PUZZLINK_HOSTS = ("puzz.link", "pzprxs.vercel.app", "pzv.jp")
_PUZZLINK_URL = re.compile(r"^(?:https?://)?(?:www\.)?(" + "|".join(map(re.escape, PUZZLINK_HOSTS)) + r")/")
#: the grid sizes pzprjs offers for Sudoku and the box (rows, cols) it draws for each
#: (its rule: boxes of floor(sqrt(size)) cells each way, except 6x6, whose boxes are 3 wide)
PUZZLINK_BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4), 25: (5, 5)}
_HEX = "0123456789abcdef"
_MAX_BLANK_RUN = 20  # a run letter g..z stands for 1..20 blank cells


def claims_puzzlink(text: str) -> bool:
    """Is the line a URL on a pzprjs host?"""
    return _PUZZLINK_URL.match(text.strip()) is not None


def read_puzzlink(text: str, where: str, resolve: Resolve, variant: Any) -> Sudoku:
    """A puzz.link Sudoku URL (``https://puzz.link/p?sudoku/9/9/<body>``, ``_edit``/``_play``
    forms and the other pzprjs hosts too) as its puzzle."""
    at = f"{where}: " if where else ""
    url = text.strip()
    _, query_mark, query = url.partition("?")
    if not query_mark:
        raise PuzzleError(f"{at}the puzz.link URL has no '?' followed by the puzzle")
    query = re.sub(r"^(?:\w+=\w+&)*", "", query)  # leading settings such as type=editor&
    genre, _, data = query.partition("/")
    genre = re.sub(r"_(?:edit|play)$", "", genre)
    if genre != "sudoku":
        raise PuzzleError(
            f"{at}a puzz.link {shorten(genre)!r} puzzle, not a Sudoku (mindgames reads puzz.link Sudoku)"
        )
    fields = data.split("/")
    if len(fields) != 3 or not fields[0].isdigit() or not fields[1].isdigit():
        raise PuzzleError(f"{at}expected sudoku/COLUMNS/ROWS/CELLS after '?', found {shorten(data)!r}")
    cols, rows, body = int(fields[0]), int(fields[1]), fields[2]
    if cols != rows or cols not in PUZZLINK_BOXES:
        sizes = ", ".join(f"{n}x{n}" for n in PUZZLINK_BOXES)
        raise PuzzleError(f"{at}a {cols}x{rows} puzz.link Sudoku; pzprjs draws Sudoku boxes for {sizes}")
    size = cols
    values = _number16_cells(body, size * size, f"{at}puzz.link cells")
    box, diagonals = resolve(variant, PUZZLINK_BOXES[size], False, False, where)
    grid = [values[r * size : (r + 1) * size] for r in range(size)]
    return make_puzzle(grid, box, None, diagonals, where)


def _number16_cells(body: str, cells: int, at: str) -> list[int]:
    """The cells of a pzprjs "number16" body: a hex digit, ``-`` and two hex digits
    (16..255) or ``+`` and three, a given each; a letter g..z, a run of 1..20 blanks."""
    size = round(cells**0.5)
    values: list[int] = []
    i = 0
    while i < len(body):
        char = body[i]
        width = {"-": 2, "+": 3}.get(char, 0)
        if char in _HEX or width:
            digits = body[i + 1 : i + 1 + width] if width else char
            if len(digits) != max(width, 1) or not all(d in _HEX for d in digits):
                raise PuzzleError(f"{at}, character {i + 1}: {char!r} needs {width} hex digits after it")
            value = int(digits, 16)
            if not 1 <= value <= size:
                cell = len(values)
                raise PuzzleError(
                    f"{at}, character {i + 1}: r{cell // size + 1}c{cell % size + 1} is given {value}, "
                    f"out of range (1..{size})"
                )
            values.append(value)
        elif "g" <= char <= "z":
            values.extend([0] * (ord(char) - ord("g") + 1))
        elif char == ".":
            raise PuzzleError(f"{at}, character {i + 1}: a '?' given (a clue of unknown value)")
        else:
            raise PuzzleError(f"{at}, character {i + 1}: unexpected {char!r}")
        i += 1 + width
        if len(values) > cells:
            raise PuzzleError(f"{at}, character {i}: more cells than the {cells} of the grid")
    if len(values) < cells:
        raise PuzzleError(f"{at}: {len(values)} cells for a grid of {cells} (the URL is cut short?)")
    return values


def to_puzzlink(puzzle: Sudoku, host: str = "puzz.link") -> str:
    """The puzz.link URL of a puzzle, encoded as pzprjs encodes it (byte for byte).

    Only what pzprjs draws can go: a size it offers, its box for that size, no regions
    nor diagonals; anything else is a PuzzleError naming it."""
    size = puzzle.size
    if puzzle.regions is not None or puzzle.diagonals:
        raise PuzzleError("puzz.link Sudoku has no jigsaw regions nor diagonals")
    if PUZZLINK_BOXES.get(size) != puzzle.box:
        raise PuzzleError(f"puzz.link draws no {size}x{size} Sudoku with {puzzle.variant}")
    body: list[str] = []
    run = 0
    for value in (v for row in puzzle.grid for v in row):
        if value == 0:
            run += 1
            if run == _MAX_BLANK_RUN:
                body.append(_run_letter(run))
                run = 0
            continue
        if run:
            body.append(_run_letter(run))
            run = 0
        body.append(format(value, "x") if value < 16 else f"-{value:02x}")
    if run:
        body.append(_run_letter(run))
    return f"https://{host}/p?sudoku/{size}/{size}/{''.join(body)}"


def _run_letter(run: int) -> str:
    return chr(ord("g") + run - 1)
