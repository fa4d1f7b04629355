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
from ..formats import error_at, place
from .puzzle import MAX_SIZE, MIN_SIZE, Sudoku, make_puzzle
from .variants import refuse_constraints

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
    if len(fields) != 3 or not all(f.isdigit() and f.isascii() and len(f) <= 6 for f in fields[:2]):
        raise PuzzleError(f"{at}expected sudoku/COLUMNS/ROWS/CELLS after '?', found {shorten(data)!r}")
    cols, rows, body = int(fields[0]), int(fields[1]), fields[2]
    if cols != rows or cols not in PUZZLINK_BOXES:
        sizes = ", ".join(f"{n}x{n}" for n in PUZZLINK_BOXES)
        raise PuzzleError(f"{at}a {cols}x{rows} puzz.link Sudoku; pzprjs draws Sudoku boxes for {sizes}")
    size = cols
    values = _number16_cells(body, size * size, where, len(text) - len(text.lstrip()) + len(url) - len(body))
    box, diagonals = resolve(variant, PUZZLINK_BOXES[size], False, False, where)
    grid = [values[r * size : (r + 1) * size] for r in range(size)]
    return make_puzzle(grid, box, None, diagonals, where)


def _number16_cells(body: str, cells: int, where: str, offset: int) -> list[int]:
    """The cells of a pzprjs "number16" body: a hex digit, ``-`` and two hex digits
    (16..255) or ``+`` and three, a given each; a letter g..z, a run of 1..20 blanks.
    Errors name the character in the whole text (the body starts after ``offset`` of them)."""
    size = round(cells**0.5)
    values: list[int] = []
    i = 0

    def wrong(at: int, message: str) -> PuzzleError:
        return error_at(place(where, character=offset + at + 1), f"{message} in the puzz.link cells")

    while i < len(body):
        char = body[i]
        width = {"-": 2, "+": 3}.get(char, 0)
        if char in _HEX or width:
            digits = body[i + 1 : i + 1 + width] if width else char
            if len(digits) != max(width, 1) or not all(d in _HEX for d in digits):
                raise wrong(i, f"{char!r} needs {width} hex digits after it")
            value = int(digits, 16)
            if not 1 <= value <= size:
                cell = len(values)
                raise wrong(
                    i, f"r{cell // size + 1}c{cell % size + 1} is given {value}, out of range (1..{size})"
                )
            values.append(value)
        elif "g" <= char <= "z":
            values.extend([0] * (ord(char) - ord("g") + 1))
        elif char == ".":
            raise wrong(i, "a '?' given (a clue of unknown value)")
        else:
            raise wrong(i, f"unexpected {char!r}")
        if len(values) > cells:
            raise wrong(i, f"more cells than the {cells} of the grid")
        i += 1 + width
    if len(values) < cells:
        raise error_at(where, f"{len(values)} cells in the puzz.link URL for a grid of {cells} (cut short?)")
    return values


def to_puzzlink(puzzle: Sudoku, host: str = "puzz.link") -> str:
    """The puzz.link URL of a puzzle, encoded as pzprjs encodes it (byte for byte).

    Only what pzprjs draws can go: a size it offers, its box for that size, no regions
    nor diagonals; anything else is a PuzzleError naming it."""
    size = puzzle.size
    refuse_constraints(puzzle.constraints, "puzz.link")
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


# ---------------------------------------------------------------------------
# Simon Tatham's Solo
# ---------------------------------------------------------------------------
#: the start of a Solo ID: C, maybe xR, then letters and digits up to ":" or "#" (each part
#: starts with a character the one before cannot match, so a long line is looked at once)
_TATHAM_ID = re.compile(r"\d+(?:x\d+)?(?:[a-z][a-z\d]*)?[:#]")
_TATHAM_PARAMS_AT_MOST = 40  # characters before ":" or "#": a longer start is no Solo ID
#: the parameters of a Solo game ID: C and R (C only for a jigsaw), then letters: ``j``
#: jigsaw, ``x`` diagonals, ``k`` killer, and the symmetry and difficulty a generator used
#: (``r2``, ``m4``, ``md2``, ``a``, ``dt`` ... ``du``), which say nothing about the puzzle
_TATHAM_PARAMS = re.compile(r"^(\d+)(?:x(\d+))?((?:j|x|k|r\d+|md?\d+|a|d[tbieu])*)$")
_RUN_LETTERS = 26  # a letter a..z stands for 1..26 blank cells


#: Solo's web page: the game ID after ``#`` (what ``--link tatham`` writes)
SOLO_PAGE = "https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/solo.html"
_SOLO_PAGE = re.compile(r"(?:https?://)?(?:www\.)?chiark\.greenend\.org\.uk/~sgtatham/puzzles/js/solo\.html#")


def claims_tatham(text: str) -> bool:
    """Does the line start like a Solo game ID (``3x3:``, ``2x3x:``, ``9j:``, ``3x3#seed``), or is
    it a link to Solo's web page with one?"""
    start = text.lstrip()
    return _TATHAM_ID.match(start[: _TATHAM_PARAMS_AT_MOST + 1]) is not None or bool(_SOLO_PAGE.match(start))


def read_tatham(text: str, where: str, resolve: Resolve, variant: Any) -> Sudoku:
    """A Solo game ID (``CxR:CELLS``; ``x`` after the parameters for diagonals; ``Nj:CELLS,WALLS``
    for a jigsaw) as its puzzle.  Solo's C and R are the rows and columns of a box: a ``2x3``
    puzzle has boxes 2 cells tall and 3 wide.  Killer IDs are refused: their cages are constraints
    mindgames does not hold, and a constraint is never dropped."""
    at = f"{where}: " if where else ""
    game_id, lead = text.strip(), len(text) - len(text.lstrip())  # lead: characters before the ID
    page = _SOLO_PAGE.match(game_id)
    if page is not None:  # Solo's web page: the ID after '#'
        game_id, lead = game_id[page.end() :], lead + page.end()
    params, separator, description = game_id.partition(":")
    if not separator:
        raise PuzzleError(
            f"{at}{shorten(game_id)!r} is a Solo random-seed ID: Solo makes a puzzle from the seed; "
            "give its game ID (Game > Specific) instead"
        )
    found = _TATHAM_PARAMS.match(params)
    if found is None:
        raise PuzzleError(f"{at}{shorten(params)!r} is not Solo's parameters (like 3x3, 2x3x or 9j)")
    # as solo.c: "N" alone is NxN boxes; "j" makes a jigsaw of C*R cells a side ("9j": of C),
    # and so does R = 1
    box_rows = int(found[1])
    box_cols = int(found[2]) if found[2] is not None else box_rows
    flags = re.sub(r"r\d+|md?\d+|d[tbieu]", "", found[3])  # symmetry and difficulty: dropped
    if "k" in flags:
        raise PuzzleError(f"{at}a Killer Solo ID: killer cages are not supported")
    jigsaw = "j" in flags or box_cols == 1
    size = box_rows if "j" in flags and found[2] is None else box_rows * box_cols
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise PuzzleError(
            f"{at}Solo parameters {params!r} make a {size}x{size} grid; sizes {MIN_SIZE}..{MAX_SIZE} are supported"
        )
    cells, _, walls = description.partition(",")
    start = lead + len(params) + 1  # the characters before the cells
    values = _tatham_cells(cells, size, where, start)
    grid = [values[r * size : (r + 1) * size] for r in range(size)]
    if jigsaw:
        if not _:
            raise PuzzleError(f"{at}a jigsaw Solo ID needs ',' and its block walls after the cells")
        labels = _tatham_regions(walls, size, where, start + len(cells) + 1)
        _, diagonals = resolve(variant, None, "x" in flags, True, where)
        return make_puzzle(grid, None, labels, diagonals, where)
    if _:
        raise PuzzleError(
            f"{at}unexpected {shorten(',' + walls)!r} after the cells (only a jigsaw has walls)"
        )
    box, diagonals = resolve(variant, (box_rows, box_cols), "x" in flags, False, where)
    return make_puzzle(grid, box, None, diagonals, where)


def _tatham_cells(text: str, size: int, where: str, offset: int) -> list[int]:
    """Solo's cells: a number 1..size a given (``_`` between two numbers), a letter a..z a run
    of 1..26 blanks.  Errors name the character in the whole ID (the cells start after
    ``offset`` of them)."""
    values: list[int] = []
    found = re.finditer(r"[1-9]\d*|[a-z]|_|.", text)
    for token in found:
        piece, position = token[0], offset + token.start() + 1
        at = place(where, character=position)
        if piece.isdigit():
            if int(piece) > size:
                cell = len(values)
                raise error_at(
                    at,
                    f"r{cell // size + 1}c{cell % size + 1} is given {piece}, out of range (1..{size}) "
                    "in the Solo cells",
                )
            values.append(int(piece))
        elif "a" <= piece <= "z":
            values.extend([0] * (ord(piece) - ord("a") + 1))
        elif piece != "_":
            raise error_at(at, f"unexpected {piece!r} in the Solo cells")
        if len(values) > size * size:
            raise error_at(at, f"more cells than the {size * size} of the grid in the Solo cells")
    if len(values) < size * size:
        raise error_at(where, f"{len(values)} cells in the Solo ID for a grid of {size * size} (cut short?)")
    return values


def _solo_edges(size: int) -> list[tuple[int, int]]:
    """The pairs of neighbouring cells (as indexes) in Solo's order of block walls: the
    vertical lines inside the grid in reading order, then the horizontal ones column by column."""
    across = [(y * size + x, y * size + x + 1) for y in range(size) for x in range(size - 1)]
    down = [(y * size + x, (y + 1) * size + x) for x in range(size) for y in range(size - 1)]
    return across + down


def _tatham_regions(text: str, size: int, where: str, offset: int = 0) -> list[list[int]]:
    """The jigsaw regions that Solo's walls draw: each letter a..y is that many (1..25) open
    lines then a wall, ``_`` a wall, ``z`` 26 open lines and no wall (as solo.c reads them);
    one wall more than the lines closes the text."""
    edges = _solo_edges(size)
    region = list(range(size * size))  # union-find: each cell's representative

    def root(cell: int) -> int:
        while region[cell] != cell:
            region[cell] = region[region[cell]]
            cell = region[cell]
        return cell

    position = 0
    for index, char in enumerate(text):
        at = place(where, character=offset + index + 1)
        if char != "_" and not "a" <= char <= "z":
            raise error_at(at, f"unexpected {char!r} in the Solo jigsaw walls")
        open_lines = 0 if char == "_" else ord(char) - ord("a") + 1
        if position + open_lines > len(edges):
            raise error_at(at, f"more lines than the {len(edges)} of the grid in the Solo jigsaw walls")
        for first, second in edges[position : position + open_lines]:
            region[root(first)] = root(second)
        position += open_lines + (open_lines != _RUN_LETTERS)
    if position != len(edges) + 1:
        raise error_at(
            where,
            f"{position} lines of jigsaw walls in the Solo ID for a grid of {len(edges) + 1} (cut short?)",
        )
    numbers: dict[int, int] = {}
    return [
        [numbers.setdefault(root(y * size + x), len(numbers) + 1) for x in range(size)] for y in range(size)
    ]


def to_tatham(puzzle: Sudoku) -> str:
    """The Solo game ID of a puzzle, as solo.c writes it: ``RxC[x]:CELLS`` for boxes of R rows
    and C columns, ``N j[x]:CELLS,WALLS`` for a jigsaw."""
    refuse_constraints(puzzle.constraints, "Solo game IDs")
    size = puzzle.size
    diagonals = "x" if puzzle.diagonals else ""
    cells = _tatham_cell_text([v for row in puzzle.grid for v in row])
    if puzzle.regions is not None:
        walls = _tatham_wall_text(puzzle.regions, size)
        if _first_seen(_tatham_regions(walls, size, "")) != _first_seen(puzzle.regions):
            raise PuzzleError("Solo draws a jigsaw by its walls: a region in pieces cannot be drawn")
        return f"{size}j{diagonals}:{cells},{walls}"
    if puzzle.box is None or min(puzzle.box) < 2:
        raise PuzzleError(f"Solo has no {puzzle.variant}: its boxes are at least 2x2, or jigsaw regions")
    return f"{puzzle.box[0]}x{puzzle.box[1]}{diagonals}:{cells}"


def _tatham_cell_text(values: list[int]) -> str:
    parts: list[str] = []
    run = 0
    for value in values:
        if value == 0:
            run += 1
            continue
        if run:
            parts.append(_tatham_runs(run))
        elif parts:
            parts.append("_")  # two numbers side by side
        parts.append(str(value))
        run = 0
    if run:
        parts.append(_tatham_runs(run))
    return "".join(parts)


def _tatham_runs(run: int) -> str:
    """A run of blanks as letters: as many ``z`` (26) as fit, then the rest's letter."""
    full, rest = divmod(run, _RUN_LETTERS)
    return "z" * full + (chr(ord("a") + rest - 1) if rest else "")


def _tatham_wall_text(regions: Any, size: int) -> str:
    flat = [number for row in regions for number in row]
    parts: list[str] = []
    open_lines = 0
    for first, second in [*_solo_edges(size), (0, -1)]:  # the closing wall past the last line
        if second >= 0 and flat[first] == flat[second]:
            open_lines += 1
            if open_lines == _RUN_LETTERS:
                parts.append("z")
                open_lines = 0
            continue
        parts.append(chr(ord("a") + open_lines - 1) if open_lines else "_")
        open_lines = 0
    return "".join(parts)


def _first_seen(regions: Any) -> list[int]:
    """Regions as numbers in order of first appearance: two layouts equal by it are the same."""
    numbers: dict[Any, int] = {}
    return [numbers.setdefault(label, len(numbers)) for row in regions for label in row]
