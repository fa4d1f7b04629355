"""SudokuPad links: those that carry their puzzle (f-puzzles data, SCL) read; stored ones named.

A SudokuPad link (``https://sudokupad.app/<id>``, ``?puzzleid=<id>``, the older
``app.crackingthecryptic.com/sudoku/<id>``) names its puzzle by an id whose prefix says
what follows (SudokuPad's ``puzzleloader.js``):

- ``fpuzzles`` / ``fpuz``: f-puzzles' data, LZString base64 (:mod:`.fpuzzles` reads it);
- ``scl`` / ``ctc``: SudokuPad's own format (SCL), LZString base64 of its JSON, the JSON
  often "zipped" (short keys, quotes swapped: ``PuzzleZipper``).  SCL draws most rules as
  pictures (lines, arrows, overlays); what it states as data is read: givens, regions,
  killer cages (a cage with a sum) and the global rules (anti-knight, anti-king,
  non-consecutive, disjoint groups).  A picture is refused by name, never guessed at;
- anything else: a puzzle stored on SudokuPad's server, which mindgames does not fetch
  (an error saying so).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from itertools import combinations
from typing import Any
from urllib.parse import parse_qs, unquote

from ..errors import PuzzleError, shorten
from ..grid import Cell
from . import fpuzzles
from .lzstring import decompress_from_base64
from .puzzle import MAX_SIZE, MIN_SIZE, Sudoku, make_puzzle
from .variants import Cage, Constraints

Resolve = Callable[[Any, Any, Any, bool, str], tuple[Any, bool]]

HOSTS = ("sudokupad.app", "beta.sudokupad.app", "app.crackingthecryptic.com", "sudokupad.svencodes.com")
_LINK = re.compile(
    r"^(?:https?://)?(?:www\.)?(" + "|".join(map(re.escape, HOSTS)) + r")(?:/|$)", re.IGNORECASE
)
_FORMAT = re.compile(r"^(scl|ctc|fpuzzles|fpuz|scf)(.*)$", re.DOTALL)
#: SCL keys that carry no rule: the puzzle's id, drawing scale, metadata and settings
SCL_COSMETIC = frozenset(
    {"id", "cellSize", "metadata", "settings", "duration", "videos", "title", "author", "rules"}
)
#: SCL keys that draw rules as pictures: refused, since a picture's rule is not data
SCL_PICTURES = ("lines", "arrows", "overlays", "underlays", "foglight")
SCL_GLOBALS = {
    "antiknight": "anti_knight",
    "antiking": "anti_king",
    "nonconsecutive": "non_consecutive",
    "disjoint": "disjoint_groups",
}
_METADATA = re.compile(r"^[^: ]+:\s*\S")


def claims_link(text: str) -> bool:
    """Is the line a SudokuPad link?"""
    return _LINK.match(text.strip()) is not None


def puzzle_id(text: str) -> str:
    """The puzzle id a SudokuPad link names: ``?puzzleid=`` or the path after the host
    (``/sudoku/`` dropped, the data's own '/' kept)."""
    url = re.sub(r"^(?:https?://)?[^/?#]+", "", text.strip())
    path, _, query = url.partition("?")
    asked = parse_qs(query).get("puzzleid")
    if asked:
        return asked[0]
    return re.sub(r"^/(?:sudoku/)?", "", path).split("#")[0]


def read_link(text: str, where: str, resolve: Resolve, variant: Any) -> Sudoku:
    """A SudokuPad link as its puzzle (see the module's doc for the forms read)."""
    at = f"{where}: " if where else ""
    identifier = puzzle_id(text)
    if not identifier:
        raise PuzzleError(f"{at}the SudokuPad link names no puzzle (expected sudokupad.app/<puzzle>)")
    found = _FORMAT.match(identifier)
    if found is None:
        raise PuzzleError(
            f"{at}the SudokuPad link names puzzle {shorten(identifier)!r}, stored on SudokuPad's server; "
            "mindgames reads links that carry the puzzle (sudokupad.app/fpuzzles..., /scl...): "
            "give the puzzle's f-puzzles link instead"
        )
    prefix, data = found[1], found[2]
    if prefix == "scf":
        raise PuzzleError(
            f"{at}SudokuPad's 'scf' format is not supported (mindgames reads fpuzzles and scl links)"
        )
    if prefix.startswith("fpuz"):
        what = f"{at}the SudokuPad link's f-puzzles data"
        value = _repaired(data, lambda d: fpuzzles.decode_data(d, what))
        return fpuzzles.read_json(value, where, resolve, variant)
    what = f"{at}the SudokuPad link's SCL data"
    value = _repaired(
        unquote(data).replace(" ", "+"), lambda d: unzip(decompress_from_base64(d, what), f"{at}SCL")
    )
    return read_scl(value, where, resolve, variant)


#: how many repairs of merged slashes are tried (SudokuPad's own limit) before the error stands
SLASH_REPAIRS_AT_MOST = 400


def _repaired(data: str, decode: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """``decode(data)``; if that fails, ``data`` with one or two of its single '/' doubled.

    The data sits in the link's path, where a browser or a chat program may merge "//" into
    "/"; SudokuPad repairs it the same way (``fixFPuzzleSlashes``).  A wrong repair does
    not decode to a JSON object, so the one that does is the link's data."""
    try:
        return decode(data)
    except PuzzleError as error:
        first = error
    singles = [m.start() for m in re.finditer(r"(?<!/)/(?!/)", data)]
    tries = 0
    for count in (1, 2):
        for chosen in combinations(singles, count):
            tries += 1
            if tries > SLASH_REPAIRS_AT_MOST:
                raise first
            repaired = data
            for position in reversed(chosen):
                repaired = repaired[:position] + "/" + repaired[position:]
            try:
                return decode(repaired)
            except PuzzleError:
                continue
    raise first


def to_sudokupad(puzzle: Sudoku) -> str:
    """The SudokuPad link of a puzzle: its f-puzzles data after ``sudokupad.app/fpuzzles``
    (how SudokuPad's author tells setters to link f-puzzles puzzles), every rule in it."""
    return "https://sudokupad.app/fpuzzles" + fpuzzles.to_fpuzzles(puzzle).partition("?load=")[2]


# ---------------------------------------------------------------------------
# SCL: unzipping (SudokuPad's PuzzleZipper) and reading
# ---------------------------------------------------------------------------
#: PuzzleZipper's short names of SCL's keys
_SHORT_KEYS = {
    "c": "color",
    "ca": "cages",
    "ct": "center",
    "c1": "borderColor",
    "c2": "backgroundColor",
    "ce": "cells",
    "cs": "cellSize",
    "a": "arrows",
    "o": "overlays",
    "u": "underlays",
    "w": "width",
    "h": "height",
    "v": "value",
    "vd": "videos",
    "l": "lines",
    "r": "rounded",
    "re": "regions",
    "fs": "fontSize",
    "th": "thickness",
    "hl": "headLength",
    "wp": "wayPoints",
    "t": "title",
    "te": "text",
    "d": "duration",
    "d2": "d",
}
_STRING = re.compile(r'("(?:[^"\\]|\\.)*")')


def unzip(text: str, what: str = "SCL") -> dict[str, Any]:
    """SCL's JSON object from its text: plain JSON, or zipped as PuzzleZipper zips it
    (keys unquoted and shortened, ``'`` for ``"``, ``f``/``t`` for false/true, colours short)."""
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        value = _unzipped(text, what)
    if not isinstance(value, dict):
        raise PuzzleError(f"{what} is not a JSON object: not a SudokuPad puzzle")
    return value


def _unzipped(text: str, what: str) -> Any:
    if '"' not in text:
        text = text.replace("\\'", "\u2019").replace("'", '"').replace("\u2019", "'")
    parts = _STRING.split(text)  # odd parts: the strings, left as they are
    for i in range(0, len(parts), 2):
        piece = parts[i]
        piece = re.sub(r"([,{\[])([a-zA-Z0-9]+):", r'\1"\2":', piece)
        piece = re.sub(r"([,{\[])(?=[,}\]])", r"\1_", piece)
        piece = piece.replace("{_}", "{}")
        piece = re.sub(r"([,{\[])_", r"\1{}", piece)
        piece = re.sub(r"(:)f(?=[,}\]])", r"\1false", piece)
        piece = re.sub(r"(:)t(?=[,}\]])", r"\1true", piece)
        piece = re.sub(r"(:)#0(?=[,}\]])", r'\1"#000000"', piece)
        piece = re.sub(r"(:)#F(?=[,}\]])", r'\1"#FFFFFF"', piece)
        piece = re.sub(r"(:)([0-9a-fA-F]{6})(?=[,}\]])", r'\1"#\2"', piece)
        parts[i] = piece
    try:
        value = json.loads("".join(parts))
    except (json.JSONDecodeError, RecursionError) as error:
        detail = (
            f"{error.msg}, column {error.colno}" if isinstance(error, json.JSONDecodeError) else "too deep"
        )
        raise PuzzleError(f"{what} data unpacks to no JSON ({detail}): the link is damaged") from None
    return _long_keys(value)


def _long_keys(value: Any) -> Any:
    if isinstance(value, list):
        return [_long_keys(item) for item in value]
    if isinstance(value, dict):
        return {_SHORT_KEYS.get(key, key): _long_keys(item) for key, item in value.items()}
    return value


def read_scl(data: dict[str, Any], where: str, resolve: Resolve, variant: Any) -> Sudoku:
    """SCL's object as its puzzle: givens, regions, killer cages, global rules; PuzzleError
    naming anything else it carries (a rule drawn as a picture is not read)."""
    at = f"{where}: SudokuPad" if where else "SudokuPad"
    pictures = [key for key in SCL_PICTURES if data.get(key)]
    if pictures:
        raise PuzzleError(
            f"{at} draws rules as pictures ({', '.join(repr(k) for k in pictures)}), which mindgames does not "
            "read: it reads SCL's givens, regions, killer cages and global rules; give the puzzle's "
            "f-puzzles link instead"
        )
    known = {"cells", "regions", "cages", "global", *SCL_COSMETIC}
    unknown = [
        key for key, value in data.items() if key not in known and value not in (None, False, "", [], {})
    ]
    if unknown:
        raise PuzzleError(f"{at} key {shorten(unknown[0])!r} is not supported")
    cells = data.get("cells")
    if not isinstance(cells, list) or not all(isinstance(row, list) for row in cells):
        raise PuzzleError(f"{at}: 'cells' must be a list of rows")
    size = len(cells)
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise PuzzleError(f"{at}: a grid of {size} rows; sizes {MIN_SIZE}..{MAX_SIZE} are supported")
    givens = [[0] * size for _ in range(size)]
    for r, row in enumerate(cells):
        if len(row) != size:
            raise PuzzleError(f"{at}: row {r + 1} has {len(row)} cells, the grid has {size} rows")
        for c, cell in enumerate(row):
            cell = cell if isinstance(cell, dict) else {}
            extra = sorted(set(cell) - {"value", "color", "highlight"})  # colours carry no rule
            if extra:
                raise PuzzleError(f"{at}: cell r{r + 1}c{c + 1}: {shorten(extra[0])!r} is not supported")
            value = cell.get("value")
            if value not in (None, ""):
                if not re.fullmatch(r"\d{1,2}", str(value)):
                    raise PuzzleError(
                        f"{at}: cell r{r + 1}c{c + 1}: given {shorten(repr(value))} is no digit"
                    )
                givens[r][c] = int(value)
    labels = _scl_regions(data.get("regions"), size, at)
    rules: dict[str, Any] = {}
    names = data.get("global") or []
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise PuzzleError(f"{at}: 'global' must be a list of rule names, not {shorten(repr(names))}")
    for name in names:
        if name not in SCL_GLOBALS:
            raise PuzzleError(
                f"{at}: global rule {shorten(name)!r} is not supported (mindgames reads {', '.join(SCL_GLOBALS)})"
            )
        rules[SCL_GLOBALS[name]] = True
    cages = []
    listed = data.get("cages") or []
    if not isinstance(listed, list):
        raise PuzzleError(f"{at}: 'cages' must be a list, not {shorten(repr(listed))}")
    for index, cage in enumerate(listed, 1):
        if not isinstance(cage, dict):
            raise PuzzleError(f"{at}: cage {index} is not an object")
        value = cage.get("value", cage.get("sum"))
        members = cage.get("cells") or []
        if (
            not isinstance(members, list)
            or not isinstance(value, (str, int, type(None)))
            or isinstance(value, bool)
        ):
            raise PuzzleError(f"{at}: cage {index}: 'cells' must be a list and its value a text or number")
        if not members and _METADATA.match(str(value or "")):
            continue  # metadata: "title: ...", "rules: ...", "solution: ..."
        if cage.get("type") == "disjoint" and rules.get("disjoint_groups"):
            continue  # the groups that the global disjoint rule draws
        style = cage.get("style")
        if cage.get("unique", True) is not True or cage.get("hidden") or style not in (None, "killer"):
            raise PuzzleError(
                f"{at}: cage {index} ({shorten(repr(style) if style else 'not unique')}) is no killer cage: not supported"
            )
        cells_of = tuple(_scl_cell(cell, size, f"{at}: cage {index}") for cell in members)
        if value in (None, ""):
            cages.append(Cage(cells_of))
        elif re.fullmatch(r"\d{1,4}", str(value)):
            cages.append(Cage(cells_of, int(value)))
        else:
            raise PuzzleError(f"{at}: cage {index}: text {shorten(repr(value))} is no sum: not supported")
    constraints = Constraints(cages=tuple(cages), **rules)
    box = fpuzzles._box_of(labels, size)
    if box is None:
        _, diagonals = resolve(variant, None, False, True, where)
        return make_puzzle(givens, None, labels, diagonals, at, constraints)
    box, diagonals = resolve(variant, box, False, False, where)
    return make_puzzle(givens, box, None, diagonals, at, constraints)


def _scl_cell(value: Any, size: int, what: str) -> Cell:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < size for i in value)
    ):
        raise PuzzleError(f"{what}: {shorten(repr(value))} is not a cell [row, column] of the grid")
    return value[0], value[1]


def _scl_regions(regions: Any, size: int, at: str) -> list[list[int]]:
    """Each cell's region number; without ``regions``, f-puzzles' default boxes (SudokuPad's too)."""
    if regions in (None, []):
        rows, cols = fpuzzles.default_box(size)
        return [[r // rows * rows + c // cols for c in range(size)] for r in range(size)]
    if not isinstance(regions, list):
        raise PuzzleError(f"{at}: 'regions' must be a list of regions")
    labels: list[list[int | None]] = [[None] * size for _ in range(size)]
    for number, region in enumerate(regions):
        for cell in region if isinstance(region, list) else [region]:
            r, c = _scl_cell(cell, size, f"{at}: region {number + 1}")
            if labels[r][c] is not None:
                raise PuzzleError(f"{at}: cell r{r + 1}c{c + 1} is in two regions")
            labels[r][c] = number
    for r, row in enumerate(labels):
        for c, label in enumerate(row):
            if label is None:
                raise PuzzleError(f"{at}: cell r{r + 1}c{c + 1} is in no region: not supported")
    return labels  # type: ignore[return-value]  # every None was refused just above
