"""Every form mindgames writes a binairo puzzle in (``--format NAME``), and the sites it links to.

:data:`WRITERS` maps a format's name to the function writing one puzzle as text that
mindgames reads back (a new format is one line here); :data:`LINKS` maps a site's name to
the function giving the link that opens a puzzle there.  What a format cannot carry is a
PuzzleError naming it.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ..errors import PuzzleError
from . import formats, sites
from .puzzle import Puzzle


def _with_rules(puzzle: Puzzle, text: str) -> str:
    """``text`` after the header naming the rules, unless they are takuzu (what a bare text reads as)."""
    return text if puzzle.rules == "takuzu" else f"{formats.header_line(puzzle.rules)}\n{text}"


def to_line(puzzle: Puzzle) -> str:
    """A square puzzle on one line of ``0``, ``1`` and ``.`` (rules other than takuzu: a header first)."""
    if puzzle.rows != puzzle.cols:
        raise PuzzleError(
            f"a {puzzle.rows}x{puzzle.cols} grid is not square: one line holds a square grid; use grid"
        )
    return _with_rules(puzzle, puzzle.line())


def to_grid(puzzle: Puzzle) -> str:
    """One row a line (rules other than takuzu: a header first)."""
    return _with_rules(puzzle, puzzle.text())


def to_json_text(puzzle: Puzzle) -> str:
    """The puzzle as one line of JSON (:func:`.formats.to_json`)."""
    return json.dumps(formats.to_json(puzzle), separators=(",", ":"))


#: ``--format NAME``: the puzzle as text in that format (each reads back as the same puzzle)
WRITERS: dict[str, Callable[[Puzzle], str]] = {
    "line": to_line,
    "grid": to_grid,
    "json": to_json_text,
    "tatham": sites.to_unruly,
}

#: ``--link SITE``: the link that opens the puzzle on that site
LINKS: dict[str, Callable[[Puzzle], str]] = {"tatham": sites.unruly_link}
