"""Binairo in the form Simon Tatham's Unruly writes it: game IDs ``WxH[u]:CELLS``.

The encoding follows ``unruly.c`` (Simon Tatham's Portable Puzzle Collection): the
parameters are the width, ``x`` and the height (one number: a square), then ``u`` when rows
and columns must be unique (mindgames' ``takuzu`` rules; without ``u``: ``unruly``), and a
generator's difficulty ``d`` and a letter, which says nothing about the puzzle.  The cells,
in reading order, are letters: a lower-case letter is that many blank cells (``a`` none,
``b`` one, ... ``y`` 24) and then a 0, an upper-case one blanks and then a 1, and ``z`` /
``Z`` 25 blanks and nothing; the last letter stands one past the last cell.  ``WxH#SEED`` is
a random seed Unruly makes a puzzle from, which is no puzzle by itself.
"""

from __future__ import annotations

import re

from ..errors import PuzzleError, shorten
from ..formats import error_at, place
from .puzzle import Puzzle, check_size, make_puzzle

#: the start of an Unruly ID: its parameters up to ``:`` or ``#``
_UNRULY_ID = re.compile(r"(\d{1,6})(?:x(\d{1,6}))?(u?)(?:d[a-z])?([:#])")
_LONGEST_RUN = 25  # a letter a..y (A..Y) is 0..24 blanks then a cell; z (Z) is 25 blanks alone
#: the least width and height Unruly plays (unruly.c, validate_params)
UNRULY_MIN_SIDE = 6
UNRULY_PAGE = "https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/unruly.html"


_UNRULY_PAGE = re.compile(
    r"(?:https?://)?(?:www\.)?chiark\.greenend\.org\.uk/~sgtatham/puzzles/js/unruly\.html#"
)


def claims_unruly(text: str) -> bool:
    """Does the text start like an Unruly game ID (``8x8:``, ``10x10u:``, ``8x8#seed``), or is it
    a link to Unruly's web page with one?"""
    start = text.strip()
    return _UNRULY_ID.match(start[:24]) is not None or bool(_UNRULY_PAGE.match(start))


def rules_of_id(unique: bool) -> str:
    """The rule set an Unruly ID states: ``u`` (unique rows and columns) is takuzu."""
    return "takuzu" if unique else "unruly"


def read_unruly(text: str, where: str, rules: str | None) -> Puzzle:
    """An Unruly game ID as its puzzle; ``rules``: what the file or the caller states (None:
    nothing), which must agree with the ID's ``u``."""
    text = text.strip()
    page = _UNRULY_PAGE.match(text)
    lead = 0  # characters before the ID
    if page is not None:  # Unruly's web page: the ID after '#'
        text, lead = text[page.end() :], page.end()
    found = _UNRULY_ID.match(text)
    if found is None:
        raise error_at(where, f"{shorten(text)!r} is not an Unruly game ID like 8x8:... or 10x10u:...")
    if found[4] == "#":
        raise error_at(
            where,
            f"{shorten(text)!r} is an Unruly random-seed ID: Unruly makes a puzzle from the seed; "
            "give its game ID (Game > Specific) instead",
        )
    width = int(found[1])
    height = int(found[2]) if found[2] is not None else width
    id_rules = rules_of_id(found[3] == "u")
    if rules is not None and rules != id_rules:
        unique = "with 'u', unique rows and columns" if found[3] else "without 'u', rows may repeat"
        raise error_at(where, f"the Unruly ID is {id_rules} ({unique}), but rules {rules} were asked for")
    try:
        check_size(height, width)  # before the cells: an absurd size is named, never allocated
    except PuzzleError as error:
        raise error_at(where, f"the Unruly ID's {width}x{height}: {error}") from None
    offset = found.end()
    cells: list[int | None] = [None] * (width * height)
    position = 0
    for index, char in enumerate(text[offset:], start=lead + offset + 1):
        if not char.isascii() or not char.isalpha():
            raise error_at(
                place(where, character=index), f"unexpected {char!r} in Unruly's cells (letters a-z, A-Z)"
            )
        run = ord(char.lower()) - ord("a")
        position += run
        if char.lower() != "z":
            if position < len(cells):
                cells[position] = 1 if char.isupper() else 0
            position += 1
        if position > len(cells) + 1:
            raise error_at(
                place(where, character=index), f"more cells than the {len(cells)} of a {width}x{height} grid"
            )
    if position != len(cells) + 1:
        raise error_at(
            where, f"{position - 1} cells for a {width}x{height} grid of {len(cells)} (cut short?)"
        )
    try:
        return make_puzzle([cells[r * width : (r + 1) * width] for r in range(height)], id_rules)
    except PuzzleError as error:
        raise error_at(where, str(error)) from None


def to_unruly(puzzle: Puzzle) -> str:
    """The Unruly game ID of a puzzle, as unruly.c encodes it (byte for byte)."""
    if min(puzzle.rows, puzzle.cols) < UNRULY_MIN_SIDE:
        raise PuzzleError(
            f"Unruly plays grids of {UNRULY_MIN_SIDE}x{UNRULY_MIN_SIDE} and up, not {puzzle.cols}x{puzzle.rows}"
        )
    unique = "u" if puzzle.rules == "takuzu" else ""
    parts: list[str] = []
    run = 0
    for value in [*(v for row in puzzle.cells for v in row), 0]:  # the closing letter past the end
        if value is None:
            run += 1
            continue
        full, run = divmod(run, _LONGEST_RUN)
        blanks, cell = ("z", "a") if value == 0 else ("Z", "A")
        parts.append(blanks * full + chr(ord(cell) + run))
        run = 0
    return f"{puzzle.cols}x{puzzle.rows}{unique}:{''.join(parts)}"


def unruly_link(puzzle: Puzzle) -> str:
    """The link that opens the puzzle in Unruly's web version."""
    return f"{UNRULY_PAGE}#{to_unruly(puzzle)}"
