"""What every grid kind's files share: headers, comments and blocks, JSON documents, positions.

A kind's puzzle file is cut the same way whatever the kind:

* ``#`` starts a comment, except a header ``# mindgames KIND key=value word ...``
  (:func:`header_line` writes it, :func:`read_header` reads it), which states the
  settings of the puzzles after it (Sudoku's box and diagonals, binairo's rules).
  A header for another kind of the registry is an error naming that kind.
* Blank lines (and headers) separate *blocks*; a block is one puzzle drawn over
  its lines, or one puzzle per line, as the kind decides (:class:`TextFormat`).
* A text whose first content starts with ``[`` or ``{`` may be one JSON document
  (:func:`json_document`): a puzzle, a list of puzzles or ``{"puzzles": [...]}``
  (:func:`json_puzzles`); otherwise its lines are read one by one (JSON Lines).
  A kind with sections (:attr:`TextFormat.puzzle_sections`: SadMan Sudoku's ``[Puzzle]``)
  takes a first line ``[Name]`` as a section, never as JSON.

:func:`units` cuts an input into :class:`Unit`\\ s as its lines come, one puzzle's
text each, not parsed: a long input is never held whole.  A kind parses a unit
into a :class:`~mindgames.models.kind.Parsed` (the puzzle, or the error naming
where it is wrong: :func:`place`, :func:`error_at`).

A kind supplies only what is its own (:class:`TextFormat`): how a header's
words read, whether a block is one puzzle, and how one puzzle is read from a
line, a block or a JSON value.  The formats of a line and of a JSON value are
*recognisers* tried in order (:class:`Recogniser`, :func:`recognise`): each claims
a text at sight, or not, and reads what it claims (PuzzleError when it is wrong);
a kind's list ends with its catch-all.  So a new format (a puz.link URL, say) is
one function and one entry in a kind's list (Sudoku: ``LINE_READERS``,
``JSON_READERS``; binairo: ``LINE_READERS``), and it is read wherever the kind
reads a puzzle: files, standard input, ``--jobs`` workers, the service's text.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar

from . import registry
from .errors import PuzzleError, shorten

S = TypeVar("S")  # what is stated about the puzzles of a part of the input (Sudoku: a Variant)
T = TypeVar("T")  # what one header states, read by the kind


# ---------------------------------------------------------------------------
# Positions in messages
# ---------------------------------------------------------------------------
def place(
    within: str = "",
    *,
    line: int | None = None,
    lines: tuple[int, int] | None = None,
    puzzle: int | None = None,
    row: int | None = None,
    character: int | None = None,
    column: int | None = None,
) -> str:
    """Where something is, for a message: ``line 3, character 5``, ``lines 2-10``,
    ``puzzle 2, row 1, column 4`` (every number counts from 1), after ``within``, the place
    it is in (``place("line 3", character=5)``)."""
    named = (("puzzle", puzzle), ("line", line), ("row", row), ("character", character), ("column", column))
    parts = [within] if within else []
    parts += [f"{name} {value}" for name, value in named[:2] if value is not None]
    if lines is not None:
        parts.append(f"lines {lines[0]}-{lines[1]}")
    parts += [f"{name} {value}" for name, value in named[2:] if value is not None]
    return ", ".join(parts)


def error_at(where: str, message: str) -> PuzzleError:
    """The PuzzleError ``WHERE: MESSAGE`` (just the message when ``where`` is empty)."""
    return PuzzleError(f"{where}: {message}" if where else message)


# ---------------------------------------------------------------------------
# Headers: # mindgames KIND key=value word ...
# ---------------------------------------------------------------------------
PROGRAM = "mindgames"


@dataclass(frozen=True)
class Header:
    """A header comment for this kind: its settings in order, as written."""

    settings: tuple[tuple[str, str | None], ...]  # (key, value); value None: a bare word (``diagonals``)
    where: str  # where it is, for messages: ``line N``


def header_line(kind: str, /, **settings: str | bool | None) -> str:
    """``# mindgames KIND key=value word``: a setting True is a bare word, False or None left out."""
    words = ["#", PROGRAM, kind]
    for key, value in settings.items():
        if value is True:
            words.append(key)
        elif value is not None and value is not False:
            words.append(f"{key}={value}")
    return " ".join(words)


@dataclass(frozen=True)
class HeaderWords:
    """How a kind answers a ``# mindgames`` comment that is not its own header.

    ``other_kind``: the message for a header naming another kind (``{where}``, ``{kind}``);
    ``any_name``: True when ``# mindgames WORD`` is a header for WORD whatever it is (and a
    bare ``# mindgames`` is one for "no kind"); False when only a kind of the registry
    makes a header, other comments starting with the program's name being prose."""

    kind: str
    other_kind: str
    any_name: bool = False


def read_header(comment: str, where: str, words: HeaderWords) -> Header | None:
    """The header a comment line (``#...``) is, None for a plain comment; PuzzleError naming
    ``where`` for a header for another kind."""
    parts = comment.lstrip("#").split()
    if parts[:1] != [PROGRAM]:
        return None
    named = parts[1] if len(parts) > 1 else None
    if named == words.kind:
        settings = tuple((key, value if equals else None) for key, equals, value in _partitioned(parts[2:]))
        return Header(settings, where)
    if named in registry.KIND_NAMES or (words.any_name and named != words.kind):  # the names as they are now
        raise PuzzleError(words.other_kind.format(where=where, kind=shorten(named or "no kind")))
    return None  # prose that happens to start with the program's name


def _partitioned(words: list[str]) -> Iterator[tuple[str, str, str]]:
    return (word.partition("=") for word in words)


# ---------------------------------------------------------------------------
# JSON documents
# ---------------------------------------------------------------------------
#: how the first content of a text that may be one JSON document starts
JSON_STARTS = "[{"
#: a JSON document written over several lines is read whole: up to this size
MAX_DOCUMENT_CHARS = 256 * 2**20


def json_document(held: list[str], lines: Iterator[str]) -> tuple[Any, list[str]]:
    """(the value, the lines read) when the whole input is one JSON value, else (None,
    the lines read: JSON Lines, or lines to read one by one).  ``held`` ends with the
    first content line, which starts like JSON (:data:`JSON_STARTS`); ``lines`` are the
    rest, read only as far as needed to tell: a one-line document is known by the next
    content line, a document over several lines is read whole (up to
    :data:`MAX_DOCUMENT_CHARS`)."""
    try:
        value = json.loads(held[-1].strip())
    except (json.JSONDecodeError, RecursionError):
        # Perhaps a document over several lines: only the whole text tells.
        size = sum(map(len, held))
        for line in lines:
            held.append(line)
            size += len(line)
            if size > MAX_DOCUMENT_CHARS:
                raise PuzzleError(
                    f"a JSON document over several lines larger than "
                    f"{MAX_DOCUMENT_CHARS // 2**20} MiB is not read (write one puzzle per line)"
                ) from None
        try:
            return json.loads("".join(held).strip()), held
        except (json.JSONDecodeError, RecursionError):
            return None, held  # perhaps JSON Lines, one of them broken: read line by line
    # One value on the first line: it is the whole input when only whitespace follows.
    for line in lines:
        held.append(line)
        if line.strip():
            return None, held  # JSON Lines
    return value, held


def json_puzzles(document: Any, is_one_puzzle: Callable[[list], bool]) -> list[tuple[str, Any]]:
    """The puzzles of one JSON document, each with its name for messages: the items of
    ``{"puzzles": [...]}`` or of a list (``puzzle 1``, ...), or the document itself
    (``JSON``).  ``is_one_puzzle`` tells a list that is one puzzle (rows of cells); an empty
    ``"puzzles"`` list holds no puzzle."""
    listed = isinstance(document, dict) and "puzzles" in document
    if listed:
        document = document["puzzles"]
    if isinstance(document, list) and (listed and not document or not is_one_puzzle(document)):
        return [(place(puzzle=i + 1), item) for i, item in enumerate(document)]
    return [("JSON", document)]


def rows_of_cells(value: list) -> bool:
    """Is a JSON list rows of cells (one grid), rather than a list of puzzles?"""
    return all(isinstance(row, list) and all(not isinstance(v, (list, dict)) for v in row) for row in value)


# ---------------------------------------------------------------------------
# Cutting an input into units
# ---------------------------------------------------------------------------
class Unit(NamedTuple):
    """One puzzle's part of an input, cut out as the lines come and not yet parsed
    (what ``--jobs`` sends a worker, read by the kind's ``parse_unit``)."""

    form: str  # "line": one line; "block": a puzzle drawn over lines; "json": a value of a JSON document
    where: Any  # the line number (line); the block's numbered lines (block); the value's name (json)
    text: Any  # the line's content, stripped (line); None (block); the JSON value (json)
    stated: Any  # what the caller and the last header state about it (the kind's type)


NumberedLines = Sequence[tuple[int, str]]


@dataclass(frozen=True)
class TextFormat(Generic[S, T]):
    """What one kind says about cutting its files (the rest is :func:`units`' convention).

    ``header_settings`` reads a header's settings (PuzzleError naming a bad key or value);
    ``within`` gives what holds after that header, given what the caller stated (None: nothing)
    and the header's settings (PuzzleError when the two contradict); ``one_puzzle`` tells
    whether a block of several lines is one puzzle drawn over them (else one puzzle per line);
    ``json_one_puzzle`` whether a JSON list is one puzzle (else a list of puzzles)."""

    header: HeaderWords
    header_settings: Callable[[Header], T]
    within: Callable[[S, T, Header], S]
    one_puzzle: Callable[[NumberedLines], bool]
    json_one_puzzle: Callable[[list], bool] = rows_of_cells
    #: a block of more lines than this is one puzzle per line, each read as it comes (None: no limit)
    block_lines_at_most: int | None = None
    #: does a comment end a block (as a blank line does), or is it passed over?
    comments_end_blocks: bool = False
    #: the sections (a line ``[Name]``, as SadMan Sudoku's ``[Puzzle]``) whose lines hold
    #: puzzles, in lower case; a section of another name is passed over to the next section
    #: line.  Empty: the kind has no sections (a line ``[...]`` is content).
    puzzle_sections: tuple[str, ...] = ()


def section_name(line: str) -> str | None:
    """The name of a section line ``[Name]`` (words only: JSON such as ``[1, 2]`` is none),
    in lower case; None for any other line."""
    found = _SECTION.fullmatch(line.strip())
    return found[1].lower() if found else None


_SECTION = re.compile(r"\[([A-Za-z][A-Za-z ]{0,30})\]")


def units(lines: Iterable[str], text_format: TextFormat[S, Any], stated: S) -> Iterator[Unit]:
    """The puzzles of ``lines`` (with or without their line ends), cut apart without parsing
    them, as the lines come: a JSON document's puzzles, else :func:`line_units`.  A bad
    header raises PuzzleError when it is reached."""
    lines = iter(lines)
    held: list[str] = []  # the lines read to find the first content line, it included
    for line in lines:
        held.append(line)
        if line.strip():
            break
    else:
        return  # nothing but whitespace
    first = held[-1]
    is_section = bool(text_format.puzzle_sections) and section_name(first) is not None
    if first.lstrip()[:1] in JSON_STARTS and not is_section:
        value, held = json_document(held, lines)
        if value is not None:
            for where, item in json_puzzles(value, text_format.json_one_puzzle):
                yield Unit("json", where, item, stated)
            return
    yield from line_units(itertools.chain(held, lines), text_format, stated)


def line_units(lines: Iterable[str], text_format: TextFormat[S, Any], stated: S) -> Iterator[Unit]:
    """Blocks of lines (between blank lines and headers) cut into puzzles: a block that is
    one puzzle is one unit, any other holds one puzzle per line.  Lines are numbered from 1."""
    at_most = text_format.block_lines_at_most
    header_words, end_on_comment = text_format.header, text_format.comments_end_blocks
    block: list[tuple[int, str]] = []
    current = stated
    long_block = False  # more lines than a puzzle has: the rest of the block goes one by one
    sections = text_format.puzzle_sections
    skipping = False  # within a section that holds no puzzle
    for number, line in enumerate(lines, start=1):
        content = line.strip()
        if sections and content.startswith("["):
            name = section_name(content)
            if name is not None:  # a section line ends the block, as a blank line does
                yield from _block_units(block, current, text_format)
                block, long_block = [], False
                skipping = name not in sections
                continue
        if skipping:
            continue
        if content.startswith("#"):
            if end_on_comment:
                yield from _block_units(block, current, text_format)
                block, long_block = [], False
            header = read_header(content, place(line=number), header_words)
            if header is not None:
                settings = text_format.header_settings(header)  # a bad header: before the block ends
                yield from _block_units(block, current, text_format)
                block, long_block = [], False
                current = text_format.within(stated, settings, header)
            continue
        if not content:
            yield from _block_units(block, current, text_format)
            block, long_block = [], False
        elif long_block:
            yield Unit("line", number, content, current)
        else:
            block.append((number, content))
            if at_most is not None and len(block) > at_most:
                for held_number, held_content in block:
                    yield Unit("line", held_number, held_content, current)
                block, long_block = [], True
    yield from _block_units(block, current, text_format)


def _block_units(block: list[tuple[int, str]], stated: Any, text_format: TextFormat) -> Iterator[Unit]:
    if not block:
        return
    if text_format.one_puzzle(block):
        yield Unit("block", block, None, stated)
        return
    for number, content in block:
        yield Unit("line", number, content, stated)


# ---------------------------------------------------------------------------
# Recognisers: the formats one line (or one JSON value) can be in, tried in order
# ---------------------------------------------------------------------------
class Recogniser(NamedTuple):
    """One format a puzzle can be in (a line's, or a JSON value's).

    ``claims`` tells at sight, without reading it, whether a text (or value) is in this
    format (None: every one is, the kind's catch-all, asked last); ``read`` reads it:
    ``read(text, where, stated)`` -> the puzzle, or PuzzleError naming what is wrong."""

    claims: Callable[[Any], bool] | None
    read: Callable[[Any, str, Any], Any]


def recognise(recognisers: Sequence[Recogniser], text: Any, where: str, stated: Any) -> Any:
    """The puzzle of a line (or a JSON value) read by the first of ``recognisers`` that
    claims it; PuzzleError when none does."""
    for recogniser in recognisers:
        if recogniser.claims is None or recogniser.claims(text):
            return recogniser.read(text, where, stated)
    raise error_at(where, f"{shorten(text)!r} is in no format this kind reads")


def claimed_at_sight(recognisers: Sequence[Recogniser], text: Any) -> bool:
    """Does a format other than the catch-all claim ``text``?  (A line in such a format is a
    puzzle of its own, never a row of a grid drawn over lines.)"""
    return any(r.claims is not None and r.claims(text) for r in recognisers)


def json_line(text: str, where: str) -> Any:
    """One line of JSON Lines as its value; PuzzleError ``WHERE: invalid JSON (..., column C)``."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        detail = (
            f"{error.msg}, column {error.colno}" if isinstance(error, json.JSONDecodeError) else "too deep"
        )
        raise error_at(where, f"invalid JSON ({detail})") from None


# ---------------------------------------------------------------------------
# Writing for other programs and sites: a kind's ``writers`` and ``links``
# ---------------------------------------------------------------------------
def solved_puzzle(kind: Any, puzzle: Any, solution: Sequence[Sequence[Any]]) -> Any:
    """The puzzle with every cell of ``solution`` given: how a site that holds no answers
    shows one (its link opens the filled grid)."""
    cells = {(r, c): value for r, row in enumerate(solution) for c, value in enumerate(row)}
    return kind.with_givens(puzzle, cells)


def share_links(kind: Any, puzzle: Any, solution: Sequence[Sequence[Any]] | None = None) -> dict[str, Any]:
    """Every site of ``kind.links`` with the link opening the puzzle there (``puzzle``) and,
    given a solution, the link opening the filled grid (``solution``); a site that cannot
    show this puzzle has ``error``, what it lacks."""
    links: dict[str, Any] = {}
    for site, link in kind.links.items():
        try:
            entry = {"puzzle": link(puzzle)}
            if solution is not None:
                entry["solution"] = link(solved_puzzle(kind, puzzle, solution))
        except PuzzleError as error:
            entry = {"error": str(error)}
        links[site] = entry
    return links


__all__ = [
    "JSON_STARTS",
    "MAX_DOCUMENT_CHARS",
    "Header",
    "HeaderWords",
    "Recogniser",
    "claimed_at_sight",
    "TextFormat",
    "Unit",
    "error_at",
    "header_line",
    "json_document",
    "json_line",
    "json_puzzles",
    "line_units",
    "place",
    "read_header",
    "recognise",
    "rows_of_cells",
    "section_name",
    "share_links",
    "solved_puzzle",
    "units",
]
