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
from typing import Any

from ..errors import PuzzleError, shorten
from ..kind import Parsed
from .puzzle import MAX_SIDE, RULE_SETS, Puzzle, check_rules_set, make_puzzle

name = "binairo"
_CELL = {"0": 0, "1": 1, ".": None}


def _row(text: str, where: str) -> tuple[int | None, ...]:
    cells = []
    for i, ch in enumerate(text):
        if ch not in _CELL:
            raise PuzzleError(f"{where}, character {i + 1}: {shorten(repr(ch))} is not 0, 1 or '.'")
        cells.append(_CELL[ch])
    return tuple(cells)


def _side(length: int) -> int | None:
    """The side of a square puzzle written on one line of ``length`` cells (4x4 and up)."""
    side = int(round(length**0.5))
    return side if side * side == length and side % 2 == 0 and side >= 4 else None


HEADER = "# mindgames binairo"  # then key=value words: rules=takuzu|unruly
HEADER_KEYS = ("rules",)


def _read_header(line: str, number: int) -> dict[str, str] | None:
    """The settings of a ``# mindgames KIND key=value ...`` header line, None for a plain comment."""
    words = line.lstrip("#").split()
    if words[:1] != ["mindgames"]:
        return None
    where = f"line {number}"
    if len(words) < 2 or words[1] != name:
        stated = words[1] if len(words) > 1 else "no kind"
        raise PuzzleError(f"{where}: a mindgames header for {shorten(stated)}, not for binairo")
    settings: dict[str, str] = {}
    for word in words[2:]:
        key, sep, value = word.partition("=")
        if key not in HEADER_KEYS:
            raise PuzzleError(
                f"{where}: unknown header key {shorten(repr(key))} (known: {', '.join(HEADER_KEYS)})"
            )
        if not sep or value not in RULE_SETS:
            raise PuzzleError(f"{where}: rules={shorten(value)} is not {' or '.join(RULE_SETS)}")
        settings[key] = value
    return settings


def _agreed_rules(found: str | None, asked: str | None, where: str) -> str:
    """The rule set a file (header or record) says, checked against the one asked for."""
    if found is not None and asked is not None and found != asked:
        raise PuzzleError(f"{where} says rules={found}, but rules {asked} were asked for")
    return found or asked or "takuzu"


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


def _parse_text(text: str, rules: str | None) -> list[Parsed[Puzzle]]:
    """Grids (one row per line, blank line between puzzles) or one puzzle per line.

    A line-per-puzzle line holds n*n cells, optionally followed by a known
    solution (the format of the shared data sets), which is ignored here.
    A ``# mindgames binairo rules=...`` header sets the rules of the puzzles after it."""
    found: list[Parsed[Puzzle]] = []
    block: list[tuple[int, str]] = []  # (line number, text) of the lines since a blank or comment
    header_at, header_rules = 0, None  # the last header's line and rules
    for number, line in enumerate([*text.splitlines(), ""], 1):  # "": the last block ends too
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            block.append((number, stripped))
            continue
        if block:
            agreed = _agreed_rules(header_rules, rules, f"the header at line {header_at}")
            found += _read_block(block, agreed)
            block = []
        settings = _read_header(stripped, number) if stripped else None
        if settings is not None:
            header_at, header_rules = number, settings.get("rules")
    return found


def _read_block(block: list[tuple[int, str]], rules: str) -> list[Parsed[Puzzle]]:
    """The puzzles of lines without a blank between them: one grid, or one puzzle per line."""
    tokens = [line.split() for _, line in block]
    if _one_per_line(tokens):
        return [_read_line(cells[0], number, rules) for (number, _), cells in zip(block, tokens)]
    first = block[0][0]
    try:
        rows = [_row("".join(line.split()), f"line {n}") for n, line in block]
        for (number, _), row in zip(block, rows):
            if len(row) != len(rows[0]):
                raise PuzzleError(
                    f"line {number} has {len(row)} cells, line {first} (the first row) has {len(rows[0])}"
                )
        return [Parsed(puzzle=make_puzzle(rows, rules))]
    except PuzzleError as error:
        return [Parsed(error=PuzzleError(f"puzzle at line {first}: {error}"))]


def _read_line(text: str, number: int, rules: str) -> Parsed[Puzzle]:
    """A square puzzle written on one line."""
    where = f"line {number}"
    try:
        side = _side(len(text)) or 0
        flat = _row(text, where)
        return Parsed(puzzle=make_puzzle([flat[i : i + side] for i in range(0, len(flat), side)], rules))
    except PuzzleError as error:
        message = str(error) if str(error).startswith("line") else f"{where}: {error}"
        return Parsed(error=PuzzleError(message))


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
    where = f"puzzle {index + 1}"
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
            item_rules = _agreed_rules(item_rules, rules, "the record")
            grid = item["grid"]
        else:
            item_rules, grid = rules or "takuzu", item
        if isinstance(grid, str):
            inner = _parse_text(grid, item_rules)
            if len(inner) != 1:
                raise PuzzleError(f'"grid" holds {len(inner)} puzzles, not one')
            return inner[0]
        if not isinstance(grid, list) or not all(isinstance(row, list) for row in grid):
            raise PuzzleError('"grid" must be a list of rows')
        cells = [
            [_json_cell(v, f"row {r + 1}, column {c + 1}") for c, v in enumerate(row)]
            for r, row in enumerate(grid)
        ]
        return Parsed(puzzle=make_puzzle(cells, item_rules))
    except PuzzleError as error:
        return Parsed(error=PuzzleError(f"{where}: {error}"))


def _is_grid(data: list) -> bool:
    """A bare grid (a list of rows of cells), rather than a list of puzzles."""
    return bool(data) and isinstance(data[0], list) and not any(isinstance(v, (list, dict)) for v in data[0])


def _json_documents(text: str) -> list[Any]:
    """One JSON document, or JSON lines (one record per line, as ``--json`` writes them)."""
    try:
        return [json.loads(text)]
    except json.JSONDecodeError as error:
        whole = error
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) < 2:
        raise PuzzleError(f"invalid JSON at line {whole.lineno}, column {whole.colno}: {whole.msg}")
    documents = []
    for number, line in lines:
        try:
            documents.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise PuzzleError(f"invalid JSON at line {number}, column {error.colno}: {error.msg}") from None
    return documents


def read(text: str, rules: str | None = None) -> list[Parsed[Puzzle]]:
    """Every puzzle in ``text``; a bad puzzle is a :class:`Parsed` with its error.

    ``rules`` None: as the text says (header or record), else takuzu; a rule
    set given here that contradicts the text is an error.  Raises
    :class:`PuzzleError` only when the text as a whole is unusable."""
    if rules is not None:
        check_rules_set(rules)
    stripped = text.strip()
    if stripped[:1] in "{[":
        items: list[Any] = []
        for data in _json_documents(stripped):
            if isinstance(data, dict) and "puzzles" in data:
                data = data["puzzles"]
            items += data if isinstance(data, list) and not _is_grid(data) else [data]
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
    first = read(text, rules)[0]
    if not first.ok:
        raise first.error
    return first.puzzle


def parse_value(value: Any, rules: str | None = None) -> Puzzle:
    """Exactly one puzzle from text or a JSON value; ``rules`` None: as the puzzle says
    (header or "rules" key), else takuzu."""
    text = value if isinstance(value, str) else json.dumps(value)
    found = read(text, rules)
    if len(found) != 1:
        raise PuzzleError(f"expected one puzzle, found {len(found)}")
    if not found[0].ok:
        raise found[0].error
    return found[0].puzzle


def header_line(rules: str) -> str:
    """The header comment that makes a text file say its rule set (read back by :func:`read`)."""
    return f"{HEADER} rules={rules}"


def write(puzzle: Puzzle) -> str:
    """The puzzle as text that :func:`read` reads back, rules included (by the header)."""
    return f"{header_line(puzzle.rules)}\n{puzzle.text()}\n"


def to_json(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle as a JSON object that :func:`parse_value` reads back."""
    return {"grid": [list(row) for row in puzzle.cells], "rules": puzzle.rules}
