"""Binairo as text and JSON: reading every accepted format, writing what reads back.

Formats: grids (one row per line of ``0``, ``1`` and ``.``, a blank line
between puzzles), one puzzle per line (N*N cells, optionally followed by its
known solution), a JSON grid, puzzle object or list of them, and JSON Lines
(mindgames' own output records).  A header ``# mindgames binairo
rules=takuzu|unruly`` sets the rule set of the puzzles after it.

Reading follows the library's one convention: :func:`read` gives a
:class:`~mindgames.models.kind.Parsed` per puzzle, the puzzle or the error naming what
is wrong with it (and where).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from ..errors import PuzzleError, shorten
from ..formats import (
    JSON_STARTS,
    Header,
    HeaderWords,
    Recogniser,
    TextFormat,
    Unit,
    claimed_at_sight,
    error_at,
    json_document,
    json_puzzles,
    line_units,
    place,
    recognise,
)
from ..formats import (
    header_line as kind_header_line,
)
from ..kind import Parsed
from .puzzle import MAX_SIDE, RULE_SETS, Puzzle, check_rules_set, make_puzzle
from .sites import claims_unruly, read_unruly

name = "binairo"
_CELL = {"0": 0, "1": 1, ".": None}


def _row(text: str, where: str) -> tuple[int | None, ...]:
    cells = []
    for i, ch in enumerate(text):
        if ch not in _CELL:
            raise error_at(place(where, character=i + 1), f"{shorten(repr(ch))} is not 0, 1 or '.'")
        cells.append(_CELL[ch])
    return tuple(cells)


def _side(length: int) -> int | None:
    """The side of a square puzzle written on one line of ``length`` cells (4x4 and up)."""
    side = int(round(length**0.5))
    return side if side * side == length and side % 2 == 0 and side >= 4 else None


HEADER = kind_header_line(name)  # then key=value words: rules=takuzu|unruly
HEADER_KEYS = ("rules",)
#: any ``# mindgames WORD`` comment is a header, and one for another kind is an error
HEADER_WORDS = HeaderWords(name, "{where}: a mindgames header for {kind}, not for binairo", any_name=True)


def _header_rules(header: Header) -> str | None:
    """The rule set a ``# mindgames binairo rules=...`` header states (None: it states none)."""
    where = header.where
    settings: dict[str, str] = {}
    for key, value in header.settings:
        if key not in HEADER_KEYS:
            raise PuzzleError(
                f"{where}: unknown header key {shorten(repr(key))} (known: {', '.join(HEADER_KEYS)})"
            )
        if value is None or value not in RULE_SETS:
            raise PuzzleError(f"{where}: rules={shorten(value or '')} is not {' or '.join(RULE_SETS)}")
        settings[key] = value
    return settings.get("rules")


def _stated_rules(found: str | None, asked: str | None, where: str) -> str | None:
    """The rule set a file (header or record) says, checked against the one asked for (None:
    neither states one)."""
    if found is not None and asked is not None and found != asked:
        raise PuzzleError(f"{where} says rules={found}, but rules {asked} were asked for")
    return found or asked


def _one_per_line(tokens: list[list[str]]) -> bool:
    """Is a block of lines a list of one-line puzzles rather than one grid?

    A block is one grid (one row per line, whatever its shape) unless every
    line holds n*n cells (n even, at least 4) and the block cannot be a grid or
    says it is a list: some line carries a second field (its known solution),
    or the block has a single line, an odd number of lines, or lines longer
    than a grid row can be (64 cells)."""
    if any(len(t) > 2 for t in tokens) or not all(_side(len(t[0])) for t in tokens):
        return False
    return (
        any(len(t) == 2 for t in tokens) or len(tokens) % 2 == 1 or any(len(t[0]) > MAX_SIDE for t in tokens)
    )


def _one_grid(block: Sequence[tuple[int, str]]) -> bool:
    """A block is one grid, unless it is one puzzle per line: as :func:`_one_per_line`
    says, or because some line is in a format of its own (not cells)."""
    tokens = [line.split() for _, line in block]
    return not (_one_per_line(tokens) or any(claimed_at_sight(LINE_READERS, t[0]) for t in tokens))


#: What a part of a text states: (where its header is, the rules the header states; None: none).
Stated = tuple[str, str | None]
NO_HEADER: Stated = ("line 0", None)

#: how a binairo text is cut (the convention is every kind's: :mod:`mindgames.models.formats`);
#: a comment ends a block, as a blank line does
TEXT_FORMAT: TextFormat[Stated, str | None] = TextFormat(
    header=HEADER_WORDS,
    header_settings=_header_rules,
    within=lambda _, rules, header: (header.where, rules),
    one_puzzle=_one_grid,
    comments_end_blocks=True,
)


def _parse_text(text: str, rules: str | None) -> list[Parsed[Puzzle]]:
    """Grids (one row per line, blank line between puzzles) or one puzzle per line.

    A line-per-puzzle line holds n*n cells, optionally followed by a known
    solution (the format of the shared data sets), which is ignored here.
    A ``# mindgames binairo rules=...`` header sets the rules of the puzzles after it."""
    found: list[Parsed[Puzzle]] = []
    for unit in line_units(text.splitlines(), TEXT_FORMAT, NO_HEADER):
        header_at, header_rules = unit.stated
        found.append(_parse_unit(unit, _stated_rules(header_rules, rules, f"the header at {header_at}")))
    return found


def _parse_unit(unit: Unit, rules: str | None) -> Parsed[Puzzle]:
    """One puzzle of a text: a grid over a block of lines, or a puzzle on one line; ``rules``:
    what the file or the caller states (None: nothing, takuzu unless the line says)."""
    if unit.form == "line":
        return Parsed.attempt(recognise, LINE_READERS, unit.text.split()[0], place(line=unit.where), rules)
    rules = rules or "takuzu"
    block = unit.where
    first = block[0][0]
    try:
        rows = [_row("".join(line.split()), place(line=n)) for n, line in block]
        for (number, _), row in zip(block, rows):
            if len(row) != len(rows[0]):
                raise PuzzleError(
                    f"line {number} has {len(row)} cells, line {first} (the first row) has {len(rows[0])}"
                )
        return Parsed(puzzle=make_puzzle(rows, rules))
    except PuzzleError as error:
        return Parsed(error=error_at(f"puzzle at line {first}", str(error)))


def _cells_line(text: str, where: str, rules: str | None) -> Puzzle:
    """A square puzzle written on one line: its n*n cells."""
    try:
        side = _side(len(text)) or 0
        flat = _row(text, where)
        return make_puzzle([flat[i : i + side] for i in range(0, len(flat), side)], rules or "takuzu")
    except PuzzleError as error:
        raise error if str(error).startswith("line") else error_at(where, str(error)) from None


#: the formats of a line that holds one puzzle (its first field: a known solution may follow),
#: tried in order (each reads ``(text, where, rules stated or None)``): Unruly game IDs
#: (:mod:`.sites`), then n*n cells, which take every line
LINE_READERS: list[Recogniser] = [Recogniser(claims_unruly, read_unruly), Recogniser(None, _cells_line)]


def _json_cell(value: Any, where: str) -> int | None:
    if value is None or value == -1 or value == ".":
        return None
    if value in (0, 1) and not isinstance(value, bool) or value in ("0", "1"):
        return int(value)
    raise PuzzleError(f"{where}: {shorten(json.dumps(value))} is not 0, 1, null or -1")


# Keys of the records mindgames writes (generate/solve/check/count --json): read back, ignored.
OUTPUT_KEYS = frozenset(
    {
        "index",
        "status",
        "solution",
        "uniqueness",
        "solutions",
        "count",
        "complete",
        "engine",
        "seconds",
        "stats",
        "error",
        "message",
        "givens",
        "minimal",
        "seed",
        "size",
        "givens_before",
        "puzzle",
    }
)
INPUT_KEYS = frozenset({"grid", "rules"})


def _parse_json_item(item: Any, index: int, rules: str | None) -> Parsed[Puzzle]:
    try:
        if isinstance(item, dict):
            unknown = sorted(set(item) - INPUT_KEYS - OUTPUT_KEYS)
            if unknown:
                raise PuzzleError(
                    f"unknown key {shorten(repr(unknown[0]))} "
                    f"(known: {', '.join(sorted(INPUT_KEYS))} and the keys of "
                    "mindgames' own output records)"
                )
            if "grid" not in item:
                raise PuzzleError('no "grid" key')
            item_rules = item.get("rules")
            if item_rules is not None and item_rules not in RULE_SETS:
                raise PuzzleError(
                    f'"rules" is {shorten(json.dumps(item_rules))}, not {" or ".join(RULE_SETS)}'
                )
            stated = _stated_rules(item_rules, rules, "the record")
            grid = item["grid"]
        else:
            stated, grid = rules, item
        item_rules = stated or "takuzu"
        if isinstance(grid, str):
            inner = _parse_text(grid, stated)
            if len(inner) != 1:
                raise PuzzleError(f'"grid" holds {len(inner)} puzzles, not one')
            return inner[0]
        if not isinstance(grid, list) or not all(isinstance(row, list) for row in grid):
            raise PuzzleError('"grid" must be a list of rows')
        cells = [
            [_json_cell(v, place(row=r + 1, column=c + 1)) for c, v in enumerate(row)]
            for r, row in enumerate(grid)
        ]
        return Parsed(puzzle=make_puzzle(cells, item_rules))
    except PuzzleError as error:
        return Parsed(error=error_at(place(puzzle=index + 1), str(error)))


def _is_grid(data: list) -> bool:
    """A bare grid (a list of rows of cells), rather than a list of puzzles."""
    return bool(data) and isinstance(data[0], list) and not any(isinstance(v, (list, dict)) for v in data[0])


def _json_documents(text: str) -> Iterator[Any]:
    """One JSON document, or JSON Lines (one record per line, as ``--json`` writes them):
    every content line JSON, else PuzzleError naming the first that is not."""
    lines = iter(text.splitlines(keepends=True))
    held: list[str] = []
    for line in lines:
        held.append(line)
        if line.strip():
            break
    document, held = json_document(held, lines)
    if document is not None:
        yield document
        return
    numbered = [(n, line) for n, line in enumerate([*held, *lines], 1) if line.strip()]
    alone = len(numbered) < 2  # one line that is no JSON: its error as the whole text's
    for number, line in numbered:
        content = line.strip() if alone else line.splitlines()[0]
        try:
            yield json.loads(content)
        except json.JSONDecodeError as error:
            raise PuzzleError(f"invalid JSON at line {number}, column {error.colno}: {error.msg}") from None
        except RecursionError:
            raise PuzzleError(f"invalid JSON at line {number}: nested too deeply") from None


def read(text: str, rules: str | None = None) -> list[Parsed[Puzzle]]:
    """Every puzzle in ``text``; a bad puzzle is a :class:`Parsed` with its error.

    ``rules`` None: as the text says (header or record), else takuzu; a rule
    set given here that contradicts the text is an error.  Raises
    :class:`PuzzleError` only when the text as a whole is unusable."""
    if rules is not None:
        check_rules_set(rules)
    first = text.strip()[:1]
    if first and first in JSON_STARTS:
        items = [item for document in _json_documents(text) for _, item in json_puzzles(document, _is_grid)]
        if not items:
            raise PuzzleError("the JSON holds no puzzle")
        return [_parse_json_item(item, i, rules) for i, item in enumerate(items)]
    found = _parse_text(text, rules)
    if not found:
        raise PuzzleError("no puzzle found")
    return found


def parse_one(text: str, rules: str | None = None) -> Puzzle:
    """The first puzzle of ``text``, or PuzzleError.

    >>> from mindgames.models.binairo import parse_one, write
    >>> puzzle = parse_one("1...\\n...0\\n1..1\\n.1..")
    >>> puzzle.rows, puzzle.cols, puzzle.givens, puzzle.rules
    (4, 4, 5, 'takuzu')
    >>> print(write(puzzle), end="")
    # mindgames binairo rules=takuzu
    1...
    ...0
    1..1
    .1..
    >>> parse_one(write(puzzle)) == puzzle
    True
    >>> parse_one("1.2.\\n....")
    Traceback (most recent call last):
    ...
    mindgames.models.errors.PuzzleError: puzzle at line 1: line 1, character 3: '2' is not 0, 1 or '.'
    """
    return read(text, rules)[0].require()


def parse_value(value: Any, rules: str | None = None) -> Puzzle:
    """Exactly one puzzle from text or a JSON value; ``rules`` None: as the puzzle says
    (header or "rules" key), else takuzu."""
    text = value if isinstance(value, str) else json.dumps(value)
    found = read(text, rules)
    if len(found) != 1:
        raise PuzzleError(f"expected one puzzle, found {len(found)}")
    return found[0].require()


def header_line(rules: str) -> str:
    """The header comment that makes a text file say its rule set (read back by :func:`read`)."""
    return kind_header_line(name, rules=rules)


def write(puzzle: Puzzle) -> str:
    """The puzzle as text that :func:`read` reads back, rules included (by the header)."""
    return f"{header_line(puzzle.rules)}\n{puzzle.text()}\n"


def to_json(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle as a JSON object that :func:`parse_value` reads back."""
    return {"grid": [list(row) for row in puzzle.cells], "rules": puzzle.rules}
