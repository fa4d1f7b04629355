"""f-puzzles: ``https://www.f-puzzles.com/?load=<data>`` links and their JSON, read and written.

The link's data is the puzzle's JSON packed by LZString's ``compressToBase64``
(:mod:`.lzstring`).  The JSON is an object with ``size``, ``grid`` (rows of cells:
``{"value": 5, "given": true, "region": 0, "givenPencilMarks": [1, 2]}``) and a key per
constraint the setter used (``killercage``, ``thermometer``, ...).  The key names and their
entries are those of f-puzzles' own save format, as its importers read it (SudokuPad's
``fpuzzlesdecoder.js``, Rangsk's solver, whose test puzzles are this module's fixtures).

Every key is one of three things (:data:`RULES`, :data:`COSMETIC`, :data:`DRAWINGS`):

- a rule mindgames holds (:mod:`.variants`), read into the puzzle's ``Constraints``;
- known to carry no rule (a title, the rules text, the setter's solution): ignored;
- a drawing (``line``, ``circle``, ``rectangle``, ``cage``): f-puzzles gives it no rule,
  but setters draw rules f-puzzles lacks with them, so one is accepted only where it
  draws a rule that the puzzle carries anyway (the same cells), else refused.

Any other key with content, or an option mindgames cannot honour (a white dot of
difference 3, a cage whose text is no sum, a single "negative" half), is a PuzzleError
naming it: a constraint is never dropped, since the answer would be another puzzle's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any, Literal
from urllib.parse import unquote

from ..errors import PuzzleError, shorten
from ..grid import Cell
from .lzstring import compress_to_base64, decompress_from_base64
from .puzzle import MAX_SIZE, MIN_SIZE, Sudoku, make_puzzle
from .variants import (
    XV,
    Arrow,
    Cage,
    Candidates,
    Constraints,
    Dot,
    Line,
    LittleKiller,
    Parity,
    Sandwich,
    Thermo,
)

#: resolves a puzzle's own box and diagonals against the stated variant (``formats._resolve``)
Resolve = Callable[[Any, Any, Any, bool, str], tuple[Any, bool]]

FPUZZLES_HOST = "www.f-puzzles.com"
_LINK = re.compile(r"^(?:https?://)?(?:www\.)?f-puzzles\.com(?:[/?#]|$)", re.IGNORECASE)
#: the longest JSON object read (a 16x16 puzzle with every constraint is well under it)
MAX_JSON = 1_000_000

# ---------------------------------------------------------------------------
# The keys: rules read, keys known to be cosmetic, drawings
# ---------------------------------------------------------------------------
#: every f-puzzles key mindgames reads as a rule, with the rule it becomes
RULES = {
    "diagonal+": "the anti-diagonal (both diagonals: X-Sudoku; one: an extra region)",
    "diagonal-": "the main diagonal",
    "killercage": "killer cages (a sum, or none)",
    "littlekillersum": "little killer diagonal sums",
    "sandwichsum": "sandwich sums",
    "thermometer": "thermometers",
    "slowthermometer": "slow thermometers",
    "arrow": "arrows (a circle of one or more cells, each line a sum)",
    "difference": "white kropki dots (consecutive)",
    "ratio": "black kropki dots (one is double the other)",
    "xv": "X and V",
    "negative": "negative constraints: 'difference' with 'ratio' (every kropki dot given), 'xv'",
    "nonconsecutive": "non-consecutive neighbours",
    "antiknight": "anti-knight",
    "antiking": "anti-king",
    "disjointgroups": "disjoint groups",
    "odd": "odd cells",
    "even": "even cells",
    "extraregion": "extra regions",
    "whispers": "German whispers lines",
    "renban": "renban lines",
    "palindrome": "palindrome lines",
    "betweenline": "between lines",
}
#: keys f-puzzles and SudokuPad write that carry no rule: the puzzle's name and author, its
#: rules as prose, the setter's solution, the editor's and solver's settings, and fog of war
#: (it hides cells while solving; the digits and their rules are the same)
COSMETIC = frozenset(
    {
        "title",
        "author",
        "ruleset",
        "solution",
        "highlightConflicts",
        "disabledlogic",
        "truecandidatesoptions",
        "fogofwar",
        "foglight",
    }
)
#: f-puzzles' drawing tools: no rule of their own, accepted where they draw one the puzzle carries
DRAWINGS = ("line", "circle", "rectangle", "cage", "text")
#: keys of a grid cell: the given digit and its region are read, the given pencil marks are
#: a rule (:class:`~.variants.Candidates`); the rest is the solver's own work or colour
_CELL_READ = frozenset({"value", "given", "region", "givenPencilMarks"})
_CELL_COSMETIC = frozenset({"c", "cArray", "centerPencilMarks", "cornerPencilMarks", "highlight"})
#: keys of a constraint's entry that only style it (colours, sizes, which tool drew it)
_STYLE = frozenset(
    {"outlineC", "fontC", "baseC", "width", "height", "angle", "size", "isNewConstraint", "fromRangskSolver"}
)
#: the keys of kropki dots (colour, and the one value f-puzzles' entry may state) and of lines
_DOT_KEYS: tuple[tuple[str, Literal["white", "black"], str], ...] = (
    ("difference", "white", "1"),
    ("ratio", "black", "2"),
)
_LINE_KEYS: tuple[tuple[str, Literal["whisper", "renban", "palindrome", "between"]], ...] = (
    ("whispers", "whisper"),
    ("renban", "renban"),
    ("palindrome", "palindrome"),
    ("betweenline", "between"),
)
_DIRECTIONS = {"UL": (-1, -1), "UR": (-1, 1), "DL": (1, -1), "DR": (1, 1)}
_CELL_NAME = re.compile(r"^R(\d+)C(\d+)$")
_METADATA = re.compile(r"^[^: ]+:\s*\S")  # SudokuPad's "title: ..." cages carry metadata, not a rule


# ---------------------------------------------------------------------------
# Recognising and decoding
# ---------------------------------------------------------------------------
def claims_link(text: str) -> bool:
    """Is the line an f-puzzles link?"""
    return _LINK.match(text.strip()) is not None


def claims_json(value: Any) -> bool:
    """Is the JSON value f-puzzles' (an object with ``size`` and ``grid``)?  mindgames' own
    objects never have ``size``: a Sudoku's size is its grid's."""
    return isinstance(value, dict) and "size" in value and "grid" in value


def decode_data(data: str, what: str = "f-puzzles data") -> dict[str, Any]:
    """The JSON object that LZString base64 ``data`` packs (as a URL carries it: percent
    escapes and a '+' turned into a space are undone); PuzzleError naming what is wrong."""
    data = unquote(data.strip()).replace(" ", "+")
    text = decompress_from_base64(data, what)
    if len(text) > MAX_JSON:
        raise PuzzleError(f"{what} unpacks to {len(text)} characters, more than a puzzle's {MAX_JSON}")
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        detail = (
            f"{error.msg}, column {error.colno}" if isinstance(error, json.JSONDecodeError) else "too deep"
        )
        raise PuzzleError(f"{what} unpacks to no JSON ({detail}): the link is damaged") from None
    if not isinstance(value, dict):
        raise PuzzleError(f"{what} unpacks to JSON that is not an object: not an f-puzzles puzzle")
    return value


def read_link(text: str, where: str, resolve: Resolve, variant: Any) -> Sudoku:
    """An f-puzzles link (``?load=<data>``) as its puzzle; a short ``?id=`` link names a
    puzzle stored on f-puzzles' server, which mindgames does not fetch: an error saying so."""
    at = f"{where}: " if where else ""
    query = text.strip().partition("?")[2]
    fields = dict(part.partition("=")[::2] for part in query.split("&") if part)
    if "load" in fields:
        # the data is base64: it has no '&', but may end in '=' (split on the first '=' only)
        data = query[query.index("load=") + len("load=") :].split("&")[0]
        return read_json(decode_data(data, f"{at}the f-puzzles link's data"), where, resolve, variant)
    if "id" in fields:
        raise PuzzleError(
            f"{at}the f-puzzles link names puzzle {shorten(fields['id'])!r} stored on f-puzzles' server; "
            "mindgames reads links that carry the puzzle: in f-puzzles, Export > Link gives one (?load=...)"
        )
    raise PuzzleError(f"{at}an f-puzzles link carries its puzzle after '?load=', this one has none")


def read_json(data: dict[str, Any], where: str, resolve: Resolve, variant: Any) -> Sudoku:
    """f-puzzles' JSON object as its puzzle: every rule it carries, or PuzzleError."""
    return _Reader(data, f"{where}: f-puzzles" if where else "f-puzzles").puzzle(where, resolve, variant)


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------
class _Reader:
    """One f-puzzles object read into a puzzle; ``at`` starts every message."""

    def __init__(self, data: dict[str, Any], at: str):
        self.data, self.at = data, at
        size = data.get("size")
        grid = data.get("grid")
        if isinstance(size, bool) or not isinstance(size, int):
            raise PuzzleError(f"{at} 'size' must be a whole number, not {shorten(repr(size))}")
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise PuzzleError(f"{at} 'size' {size}: sizes {MIN_SIZE}..{MAX_SIZE} are supported")
        if not isinstance(grid, list) or len(grid) != size:
            rows = len(grid) if isinstance(grid, list) else shorten(repr(grid))
            raise PuzzleError(f"{at} 'size' is {size} but 'grid' has {rows} rows")
        for r, row in enumerate(grid):
            if not isinstance(row, list) or len(row) != size:
                cells = len(row) if isinstance(row, list) else "no list of"
                raise PuzzleError(f"{at} 'grid' row {r + 1} has {cells} cells, 'size' is {size}")
            for c, cell in enumerate(row):
                if not isinstance(cell, dict):
                    raise PuzzleError(f"{at} cell R{r + 1}C{c + 1} is {shorten(repr(cell))}, not an object")
        self.size, self.grid = size, grid
        #: the cells of every rule read, as sets: a drawing on the same cells draws that rule
        self.drawn: set[frozenset[Cell]] = set()

    # -- the whole puzzle ------------------------------------------------------------
    def puzzle(self, where: str, resolve: Resolve, variant: Any) -> Sudoku:
        data = self.data
        self._refuse_unknown()
        givens, candidates = self._cells()
        labels = self._regions()
        both = bool(data.get("diagonal+")) and bool(data.get("diagonal-"))
        constraints = self._constraints(candidates, both)
        self._check_drawings()
        box = _box_of(labels, self.size)
        if box is None:
            _, diagonals = resolve(variant, None, both, True, where)
            return make_puzzle(givens, None, labels, diagonals, self._where(where), constraints)
        box, diagonals = resolve(variant, box, both, False, where)
        return make_puzzle(givens, box, None, diagonals, self._where(where), constraints)

    def _where(self, where: str) -> str:
        return f"{where}: f-puzzles" if where else "f-puzzles"

    def _refuse_unknown(self) -> None:
        """Every key with content that is neither read, cosmetic nor a drawing: one error naming all."""
        known = set(RULES) | COSMETIC | set(DRAWINGS) | {"size", "grid"}
        unknown = [key for key, value in self.data.items() if key not in known and _has_content(value)]
        if unknown:
            names = ", ".join(repr(key) for key in unknown)
            raise PuzzleError(
                f"{self.at} constraint{'s' if len(unknown) > 1 else ''} {names} "
                f"{'are' if len(unknown) > 1 else 'is'} not supported (mindgames reads: "
                f"{', '.join(RULES)}); a puzzle is never solved without one of its rules"
            )

    # -- cells: givens, regions, given pencil marks -----------------------------------
    def _cells(self) -> tuple[list[list[int]], list[Candidates]]:
        givens = [[0] * self.size for _ in range(self.size)]
        candidates: list[Candidates] = []
        for r, row in enumerate(self.grid):
            for c, cell in enumerate(row):
                name = f"cell R{r + 1}C{c + 1}"
                unknown = sorted(set(cell) - _CELL_READ - _CELL_COSMETIC)
                if unknown:
                    raise PuzzleError(
                        f"{self.at} {name}: key {shorten(unknown[0])!r} is not supported "
                        "(a cell's rules mindgames reads: value, given, region, givenPencilMarks)"
                    )
                if cell.get("given"):  # a value not given is the solver's own entry
                    value = cell.get("value")
                    if isinstance(value, bool) or not isinstance(value, int):
                        raise PuzzleError(f"{self.at} {name}: given value {shorten(repr(value))} is no digit")
                    givens[r][c] = value  # its range: make_puzzle names the cell
                marks = cell.get("givenPencilMarks")
                if marks:
                    if not isinstance(marks, list) or not all(_is_int(m) for m in marks):
                        raise PuzzleError(
                            f"{self.at} {name}: givenPencilMarks {shorten(repr(marks))} are no digits"
                        )
                    candidates.append(Candidates((r, c), frozenset(marks)))
        return givens, candidates

    def _regions(self) -> list[list[int]]:
        """Each cell's region: its ``region``, or (none given) its box by f-puzzles' default shape."""
        rows, cols = default_box(self.size)
        labels: list[list[int]] = []
        for r, row in enumerate(self.grid):
            labels.append([])
            for c, cell in enumerate(row):
                region = cell.get("region", r // rows * rows + c // cols)
                if region is None:
                    raise PuzzleError(
                        f"{self.at} cell R{r + 1}C{c + 1} is in no region ('region': null): "
                        "mindgames reads Sudoku whose every cell is in a region"
                    )
                if not _is_int(region):
                    raise PuzzleError(
                        f"{self.at} cell R{r + 1}C{c + 1}: region {shorten(repr(region))} is no number"
                    )
                labels[-1].append(region)
        return labels

    # -- the rules ---------------------------------------------------------------------
    def _constraints(self, candidates: list[Candidates], both_diagonals: bool) -> Constraints:
        data, size = self.data, self.size
        extra_regions = [self.cells_of(entry, "extraregion", i) for i, entry in self.entries("extraregion")]
        if not both_diagonals and data.get("diagonal-"):
            extra_regions.append(tuple((i, i) for i in range(size)))
        if not both_diagonals and data.get("diagonal+"):
            extra_regions.append(tuple((size - 1 - i, i) for i in range(size)))
        dots = [
            Dot(self.pair(entry, key, i), colour)
            for key, colour, default in _DOT_KEYS
            for i, entry in self.entries(key, default)
        ]
        lines = [
            Line(kind, path)
            for key, kind in _LINE_KEYS
            for i, entry in self.entries(key)
            for path in self.lines_of(entry, key, i)
        ]
        flags = self._negative(bool(dots))
        constraints = Constraints(
            cages=tuple(self._cage(entry, i) for i, entry in self.entries("killercage", None)),
            little_killers=tuple(
                self._little_killer(entry, i) for i, entry in self.entries("littlekillersum", None)
            ),
            sandwiches=tuple(self._sandwich(entry, i) for i, entry in self.entries("sandwichsum", None)),
            thermos=tuple(
                Thermo(path, slow)
                for key, slow in (("thermometer", False), ("slowthermometer", True))
                for i, entry in self.entries(key)
                for path in self.lines_of(entry, key, i)
            ),
            arrows=tuple(arrow for i, entry in self.entries("arrow") for arrow in self._arrows(entry, i)),
            dots=tuple(dots),
            xv=tuple(self._xv(entry, i) for i, entry in self.entries("xv", None)),
            lines=tuple(lines),
            parity=tuple(
                Parity(self.cell_of(entry, key, i), key)
                for key in ("odd", "even")
                for i, entry in self.entries(key)
            ),
            extra_regions=tuple(extra_regions),
            candidates=tuple(candidates),
            anti_knight=self.flag("antiknight"),
            anti_king=self.flag("antiking"),
            disjoint_groups=self.flag("disjointgroups"),
            **flags,
        )
        for cells in (
            [cage.cells for cage in constraints.cages]
            + [thermo.cells for thermo in constraints.thermos]
            + [thermo.cells[:1] for thermo in constraints.thermos]
            + [arrow.circle + arrow.path for arrow in constraints.arrows]
            + [arrow.circle for arrow in constraints.arrows]
            + [line.cells for line in constraints.lines]
            + [line.cells[i : i + 1] for line in constraints.lines if line.kind == "between" for i in (0, -1)]
            + list(constraints.extra_regions)
        ):
            self.drawn.add(frozenset(cells))
        return constraints

    def _negative(self, has_dots: bool) -> dict[str, bool]:
        """The negative constraints and non-consecutive, as mindgames' flags.

        f-puzzles' ``nonconsecutive`` and negative ``difference`` both say "no two orthogonal
        neighbours without a dot are consecutive"; negative ``ratio``: "... none is double".
        mindgames holds both halves together (``negative_kropki``) or non-consecutive for every
        pair (the same as f-puzzles' only when no dot is drawn)."""
        negative = self.data.get("negative") or []
        if not isinstance(negative, list) or not all(isinstance(name, str) for name in negative):
            raise PuzzleError(
                f"{self.at} 'negative' must be a list of constraint names, not {shorten(repr(negative))}"
            )
        unknown = [name for name in negative if name not in ("difference", "ratio", "xv")]
        if unknown:
            raise PuzzleError(
                f"{self.at} negative {shorten(unknown[0])!r} is not supported "
                "(mindgames reads negative 'difference' with 'ratio', and 'xv')"
            )
        no_consecutive = "difference" in negative or self.flag("nonconsecutive")
        no_double = "ratio" in negative
        flags = {"negative_xv": "xv" in negative, "negative_kropki": False, "non_consecutive": False}
        if no_consecutive and no_double:
            flags["negative_kropki"] = True
        elif no_double:
            raise PuzzleError(
                f"{self.at} negative 'ratio' alone (no neighbours double unless a black dot says so) is not "
                "supported: mindgames holds the negative kropki rule for both colours at once"
            )
        elif no_consecutive and has_dots:
            raise PuzzleError(
                f"{self.at} non-consecutive (or negative 'difference') with kropki dots is not supported: "
                "f-puzzles exempts the pairs with a dot, mindgames' non-consecutive rule holds for every pair"
            )
        elif no_consecutive:
            flags["non_consecutive"] = True
        return flags

    def _cage(self, entry: dict[str, Any], index: int) -> Cage:
        cells = self.cells_of(entry, "killercage", index)
        value = entry.get("value")
        if value in (None, ""):
            return Cage(cells)
        return Cage(cells, self.number(value, f"killercage {index} (at {_name(cells[0])}): text"))

    def _little_killer(self, entry: dict[str, Any], index: int) -> LittleKiller:
        what = f"littlekillersum {index}"
        r, c = self.outside(entry, what)
        direction = entry.get("direction")
        if direction not in _DIRECTIONS:
            raise PuzzleError(
                f"{self.at} {what} (at R{r + 1}C{c + 1}): direction {shorten(repr(direction))} "
                f"is not one of {', '.join(_DIRECTIONS)}"
            )
        dr, dc = _DIRECTIONS[direction]
        cells = []
        r, c = r + dr, c + dc
        while 0 <= r < self.size and 0 <= c < self.size:
            cells.append((r, c))
            r, c = r + dr, c + dc
        if not cells:
            raise PuzzleError(
                f"{self.at} {what} at {entry.get('cell')}: its arrow points at no cell of the grid"
            )
        return LittleKiller(
            tuple(cells), self.number(entry.get("value"), f"{what} at {entry.get('cell')}: total")
        )

    def _sandwich(self, entry: dict[str, Any], index: int) -> Sandwich:
        what = f"sandwichsum {index}"
        r, c = self.outside(entry, what)
        total = self.number(entry.get("value"), f"{what} at {entry.get('cell')}: total")
        if 0 <= c < self.size:
            return Sandwich("column", c, total)
        if 0 <= r < self.size:
            return Sandwich("row", r, total)
        raise PuzzleError(f"{self.at} {what} at {entry.get('cell')}: a corner is in no row nor column")

    def _arrows(self, entry: dict[str, Any], index: int) -> list[Arrow]:
        """One arrow per line: each line's digits add up to the circle's number."""
        circle = self.cells_of(entry, "arrow", index)
        return [
            Arrow(circle, tuple(cell for cell in line if cell not in circle))
            for line in self.lines_of(entry, "arrow", index)
        ]

    def _xv(self, entry: dict[str, Any], index: int) -> XV:
        cells = self.pair(entry, "xv", index)
        letter = entry.get("value")
        if not isinstance(letter, str) or letter.upper() not in ("X", "V"):
            raise PuzzleError(
                f"{self.at} xv {index} (at {_name(cells[0])}): {shorten(repr(letter))} is not X nor V"
            )
        return XV(cells, "X" if letter.upper() == "X" else "V")

    # -- pieces of entries ---------------------------------------------------------------
    def flag(self, key: str) -> bool:
        value = self.data.get(key, False)
        if not isinstance(value, bool):
            raise PuzzleError(f"{self.at} {key!r} must be true or false, not {shorten(repr(value))}")
        return value

    def entries(self, key: str, value: str | None = "") -> Iterable[tuple[int, dict[str, Any]]]:
        """The entries of list ``key``, numbered from 1, each checked for keys mindgames cannot
        honour; ``value``: the one text a ``value`` may have ("" none; None: the rule reads it)."""
        items = self.data.get(key) or []
        if not isinstance(items, list):
            raise PuzzleError(f"{self.at} {key!r} must be a list, not {shorten(repr(items))}")
        structural = {"cells", "cell", "lines", "direction"} | ({"value"} if value is None else set())
        for index, entry in enumerate(items, 1):
            if not isinstance(entry, dict):
                raise PuzzleError(f"{self.at} {key} {index}: {shorten(repr(entry))} is not an object")
            unknown = sorted(set(entry) - structural - _STYLE - {"value", "fromConstraint"})
            if unknown:
                raise PuzzleError(f"{self.at} {key} {index}: option {shorten(unknown[0])!r} is not supported")
            if value is not None and entry.get("value") not in (None, "", value):
                raise PuzzleError(
                    f"{self.at} {key} {index}: value {shorten(repr(entry.get('value')))} is not supported"
                    + (f" (only {value}, the default)" if value else " (this constraint takes none)")
                )
            yield index, entry

    def cell(self, name: Any, what: str, inside: bool = True) -> Cell:
        """``R3C4`` as (2, 3); inside the grid, or (``inside`` False) on the ring around it."""
        found = _CELL_NAME.match(name) if isinstance(name, str) else None
        low, high = (1, self.size) if inside else (0, self.size + 1)
        if found is None or not all(low <= int(n) <= high for n in found.groups()):
            place = "the grid" if inside else "the grid or the ring of clues around it"
            raise PuzzleError(
                f"{self.at} {what}: {shorten(repr(name))} is not a cell of {place} (R1C1..R{self.size}C{self.size})"
            )
        return int(found[1]) - 1, int(found[2]) - 1

    def cells_of(self, entry: dict[str, Any], key: str, index: int) -> tuple[Cell, ...]:
        names = entry.get("cells")
        if not isinstance(names, list) or not names:
            raise PuzzleError(f"{self.at} {key} {index}: 'cells' must be a list of cells like R1C1")
        return tuple(self.cell(name, f"{key} {index}") for name in names)

    def cell_of(self, entry: dict[str, Any], key: str, index: int) -> Cell:
        return self.cell(entry.get("cell"), f"{key} {index}")

    def pair(self, entry: dict[str, Any], key: str, index: int) -> tuple[Cell, Cell]:
        cells = self.cells_of(entry, key, index)
        if len(cells) != 2:
            raise PuzzleError(f"{self.at} {key} {index}: {len(cells)} cells, a clue between cells has 2")
        return cells[0], cells[1]

    def lines_of(self, entry: dict[str, Any], key: str, index: int) -> list[tuple[Cell, ...]]:
        lines = entry.get("lines")
        if not isinstance(lines, list) or not lines or not all(isinstance(line, list) for line in lines):
            raise PuzzleError(f"{self.at} {key} {index}: 'lines' must be a list of lines of cells")
        return [tuple(self.cell(name, f"{key} {index}") for name in line) for line in lines]

    def outside(self, entry: dict[str, Any], what: str) -> Cell:
        """A clue's cell, on the ring around the grid (0-based: -1 and size are outside)."""
        r, c = self.cell(entry.get("cell"), what, inside=False)
        r, c = r + 1, c + 1  # back to f-puzzles' numbers, whose 0 and size+1 are the ring
        if 1 <= r <= self.size and 1 <= c <= self.size:
            raise PuzzleError(
                f"{self.at} {what}: its clue {entry.get('cell')} is inside the grid, not around it"
            )
        return r - 1, c - 1

    def number(self, value: Any, what: str) -> int:
        text = str(value).strip() if isinstance(value, (str, int)) and not isinstance(value, bool) else None
        if text is None or not re.fullmatch(r"\d{1,4}", text):
            raise PuzzleError(f"{self.at} {what} {shorten(repr(value))} is not a whole number: not supported")
        return int(text)

    # -- drawings -------------------------------------------------------------------------
    def _check_drawings(self) -> None:
        """Each drawing must draw a rule the puzzle carries (the same cells), or be metadata."""
        for key in DRAWINGS:
            items = self.data.get(key) or []
            if not isinstance(items, list):
                raise PuzzleError(f"{self.at} {key!r} must be a list, not {shorten(repr(items))}")
            for index, entry in enumerate(items, 1):
                if not isinstance(entry, dict):
                    raise PuzzleError(f"{self.at} {key} {index}: {shorten(repr(entry))} is not an object")
                if key == "cage" and not entry.get("cells") and _METADATA.match(str(entry.get("value", ""))):
                    continue  # SudokuPad's metadata ("title: ...", "solution: ...")
                if key != "text" and entry.get("value") in (None, ""):
                    shapes = (
                        self.lines_of(entry, key, index)
                        if key == "line"
                        else [self.cells_of(entry, key, index)]
                    )
                    if all(frozenset(shape) in self.drawn for shape in shapes):
                        continue
                first = (entry.get("lines") or [[]])[0] if key == "line" else entry.get("cells")
                at = f" at {shorten(first[0])}" if isinstance(first, list) and first else ""
                origin = entry.get("fromConstraint")
                raise PuzzleError(
                    f"{self.at} {key} {index}{at}"
                    + (f" (drawn for f-puzzles' {origin!r})" if origin else "")
                    + " draws no rule mindgames reads: f-puzzles gives its drawings no rule, the rules text "
                    "may; refused rather than solved without it"
                )


def _has_content(value: Any) -> bool:
    return value not in (None, False, "", [], {})


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _name(cell: Cell) -> str:
    return f"R{cell[0] + 1}C{cell[1] + 1}"


def default_box(size: int) -> tuple[int, int]:
    """The box (rows, cols) f-puzzles gives a size whose cells name no region: the most
    square shape, rows the largest divisor up to the square root (1 x size for a prime)."""
    rows = int(size**0.5)
    while size % rows:
        rows -= 1
    return rows, size // rows


def _box_of(labels: list[list[int]], size: int) -> tuple[int, int] | None:
    """The box shape whose boxes are exactly these regions, None for a jigsaw."""
    partition = _first_seen(labels)
    for rows in range(1, size + 1):
        if size % rows == 0:
            cols = size // rows
            if (
                _first_seen([[r // rows * rows + c // cols for c in range(size)] for r in range(size)])
                == partition
            ):
                return None if rows == 1 or cols == 1 else (rows, cols)
    return None


def _first_seen(regions: Any) -> list[int]:
    numbers: dict[Any, int] = {}
    return [numbers.setdefault(label, len(numbers)) for row in regions for label in row]


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------
def to_fpuzzles_json(puzzle: Sudoku) -> dict[str, Any]:
    """The puzzle as f-puzzles' JSON object, which :func:`read_json` reads back; PuzzleError
    for a rule f-puzzles cannot say (a little killer short of the grid's edge, say)."""
    size, rules = puzzle.size, puzzle.constraints
    regions = puzzle.regions
    if regions is None:
        assert puzzle.box is not None, "make_puzzle gives every puzzle without regions a box"
        rows, cols = puzzle.box
        if (rows, cols) != default_box(size):
            regions = tuple(tuple(r // rows * rows + c // cols for c in range(size)) for r in range(size))
    marks = {clue.cell: sorted(clue.digits) for clue in rules.candidates}
    grid = []
    for r in range(size):
        row = []
        for c in range(size):
            cell: dict[str, Any] = {}
            if puzzle.grid[r][c]:
                cell.update(value=puzzle.grid[r][c], given=True)
            if regions is not None:
                cell["region"] = regions[r][c]
            if (r, c) in marks:
                cell["givenPencilMarks"] = marks[(r, c)]
            row.append(cell)
        grid.append(row)
    data: dict[str, Any] = {"size": size, "grid": grid}
    if puzzle.diagonals:
        data["diagonal+"] = data["diagonal-"] = True
    names = lambda cells: [_name(cell) for cell in cells]
    entries: dict[str, list[dict[str, Any]]] = {
        "killercage": [
            {"cells": names(cage.cells), **({} if cage.total is None else {"value": str(cage.total)})}
            for cage in rules.cages
        ],
        "littlekillersum": [_little_killer_entry(clue, size) for clue in rules.little_killers],
        "sandwichsum": [
            {
                "cell": f"R0C{clue.index + 1}" if clue.line == "column" else f"R{clue.index + 1}C0",
                "value": str(clue.total),
            }
            for clue in rules.sandwiches
        ],
        "thermometer": [{"lines": [names(t.cells)]} for t in rules.thermos if not t.slow],
        "slowthermometer": [{"lines": [names(t.cells)]} for t in rules.thermos if t.slow],
        "arrow": [
            {
                "cells": names(arrow.circle),
                "lines": [names((_nearest(arrow.circle, arrow.path[0]), *arrow.path))],
            }
            for arrow in rules.arrows
        ],
        "difference": [{"cells": names(dot.cells)} for dot in rules.dots if dot.colour == "white"],
        "ratio": [{"cells": names(dot.cells)} for dot in rules.dots if dot.colour == "black"],
        "xv": [{"cells": names(xv.cells), "value": xv.letter} for xv in rules.xv],
        "odd": [{"cell": _name(clue.cell)} for clue in rules.parity if clue.parity == "odd"],
        "even": [{"cell": _name(clue.cell)} for clue in rules.parity if clue.parity == "even"],
        "extraregion": [{"cells": names(region)} for region in rules.extra_regions],
    }
    for key, kind in _LINE_KEYS:
        entries[key] = [{"lines": [names(line.cells)]} for line in rules.lines if line.kind == kind]
    for line in rules.lines:
        if line.kind == "whisper" and line.whisper_gap(size) != -(-size // 2):
            raise PuzzleError(
                f"f-puzzles' whispers differ by at least {-(-size // 2)} on {size}x{size}; "
                f"the whisper line at {_name(line.cells[0])} asks {line.gap}"
            )
    data.update({key: value for key, value in entries.items() if value})
    for flag, key in (
        ("anti_knight", "antiknight"),
        ("anti_king", "antiking"),
        ("disjoint_groups", "disjointgroups"),
    ):
        if getattr(rules, flag):
            data[key] = True
    if rules.non_consecutive:
        if rules.dots or rules.negative_kropki:
            raise PuzzleError(
                "f-puzzles' non-consecutive exempts the pairs with a kropki dot: with dots (or the negative "
                "kropki rule) mindgames' non-consecutive rule has no f-puzzles form"
            )
        data["nonconsecutive"] = True
    negative = (["difference", "ratio"] if rules.negative_kropki else []) + (
        ["xv"] if rules.negative_xv else []
    )
    if negative:
        data["negative"] = negative
    return data


def to_fpuzzles(puzzle: Sudoku) -> str:
    """The f-puzzles link of a puzzle (``https://www.f-puzzles.com/?load=...``), every rule in it."""
    text = json.dumps(to_fpuzzles_json(puzzle), separators=(",", ":"))
    return f"https://{FPUZZLES_HOST}/?load={compress_to_base64(text)}"


def _little_killer_entry(clue: LittleKiller, size: int) -> dict[str, Any]:
    """A little killer as f-puzzles draws it: its clue outside the grid and a direction;
    the cells must run from the grid's edge to the edge across."""
    first, cells = clue.cells[0], clue.cells
    inside = lambda cell: 0 <= cell[0] < size and 0 <= cell[1] < size
    steps = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(cells, cells[1:])]
    candidates = [steps[0]] if steps else list(_DIRECTIONS.values())
    for dr, dc in candidates:
        clue_cell = (first[0] - dr, first[1] - dc)
        after = (cells[-1][0] + dr, cells[-1][1] + dc)
        if all(step == (dr, dc) for step in steps) and not inside(clue_cell) and not inside(after):
            direction = next(name for name, step in _DIRECTIONS.items() if step == (dr, dc))
            return {
                "cell": f"R{clue_cell[0] + 1}C{clue_cell[1] + 1}",
                "cells": [_name(cell) for cell in cells],
                "direction": direction,
                "value": str(clue.total),
            }
    raise PuzzleError(
        f"the little killer from {_name(first)} does not run along a whole diagonal from the grid's edge: "
        "f-puzzles draws only those"
    )


def _nearest(circle: tuple[Cell, ...], cell: Cell) -> Cell:
    """The circle's cell an arrow leaves from: the one nearest its first cell."""
    return min(circle, key=lambda c: max(abs(c[0] - cell[0]), abs(c[1] - cell[1])))
