"""Every form mindgames writes a Sudoku in (``--format NAME``), and the sites it links to (``--link SITE``).

:data:`WRITERS` maps a format's name to the function writing one puzzle as text that
mindgames reads back (a new format is one line here); :data:`LINKS` maps a site's name to
the function giving the link that opens a puzzle on that site.  A puzzle a format cannot
carry (a jigsaw on puzz.link, diagonals in a Sukaku line) is a PuzzleError naming what
the format lacks: nothing is dropped.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ..errors import PuzzleError
from ..grid import box_shape
from . import formats, fpuzzles, pencilmarks, sites, sudokupad
from .puzzle import Sudoku


def is_plain_variant(puzzle: Sudoku) -> bool:
    """Does a bare line read back as this puzzle (the default box for its size, or a jigsaw
    with its labels, and no diagonals)?"""
    return not puzzle.diagonals and (puzzle.regions is not None or puzzle.box == box_shape(puzzle.size))


def to_line(puzzle: Sudoku) -> str:
    """One line of symbols (a jigsaw's region labels after it); the ``# mindgames sudoku``
    header before it when the box or the diagonals are not what a bare line reads as."""
    _no_rules(puzzle, "a line of symbols")
    return with_header(puzzle, formats.to_text(puzzle))


def _no_rules(puzzle: Sudoku, what: str) -> None:
    """PuzzleError when the puzzle has variant rules, which ``what`` cannot hold (never dropped)."""
    if puzzle.constraints:
        names = puzzle.constraints.names()
        marks = " (or sukaku, candidates: pencil marks)" if names == ["candidates"] else ""
        raise PuzzleError(f"{what} holds no variant rules ({', '.join(names)}): write it as json{marks}")


def to_grid(puzzle: Sudoku) -> str:
    """The puzzle drawn over N lines: ``|`` between boxes, ``-`` and ``+`` between bands."""
    if puzzle.regions is not None:
        raise PuzzleError("a grid drawn over lines has no jigsaw regions: use the line or json format")
    _no_rules(puzzle, "a grid of symbols")
    assert puzzle.box is not None, "a puzzle without regions has a box"
    box_rows, box_cols = puzzle.box
    rows = []
    for row in puzzle.grid:
        cells = formats.to_line([row])
        bands = [" ".join(cells[c : c + box_cols]) for c in range(0, puzzle.size, box_cols)]
        rows.append(" " + " | ".join(bands))
    rule = "+".join("-" * (2 * box_cols + 1) for _ in range(puzzle.size // box_cols))[: len(rows[0])]
    rows = [
        line for r, row in enumerate(rows) for line in ([rule, row] if r and r % box_rows == 0 else [row])
    ]
    return with_header(puzzle, "\n".join(rows))


def with_header(puzzle: Sudoku, body: str) -> str:
    """``body`` after the ``# mindgames sudoku`` header when the box or the diagonals are not
    what the text alone reads as."""
    return body if is_plain_variant(puzzle) else f"{formats.header(puzzle)}\n{body}"


def to_candidates(puzzle: Sudoku) -> str:
    """The candidate grid (:func:`.pencilmarks.to_candidate_grid`), after the header it needs."""
    return with_header(puzzle, pencilmarks.to_candidate_grid(puzzle))


def to_json_text(puzzle: Sudoku) -> str:
    """The puzzle as one line of JSON (:func:`.formats.to_json`)."""
    return json.dumps(formats.to_json(puzzle), separators=(",", ":"))


def to_sdk(puzzle: Sudoku) -> str:
    """SudoCue's and SadMan's ``.sdk``: nine lines of nine, ``.`` for a blank (9x9, 3x3 boxes)."""
    _classic_9x9(puzzle, ".sdk")
    return "\n".join(formats.to_line([row]) for row in puzzle.grid)


def to_sdm(puzzle: Sudoku) -> str:
    """A line of a ``.sdm`` collection (SudoCue, SadMan): 81 symbols (9x9, 3x3 boxes)."""
    _classic_9x9(puzzle, ".sdm")
    return formats.to_line(puzzle.grid)


def _classic_9x9(puzzle: Sudoku, name: str) -> None:
    if puzzle.size != 9 or puzzle.box != (3, 3) or puzzle.diagonals or puzzle.constraints:
        raise PuzzleError(f"{name} holds a 9x9 Sudoku with 3x3 boxes, not {puzzle.variant}")


def solo_link(puzzle: Sudoku) -> str:
    """The link that opens the puzzle in Solo's web version."""
    return f"{sites.SOLO_PAGE}#{sites.to_tatham(puzzle)}"


#: ``--format NAME``: the puzzle as text in that format (each reads back as the same puzzle)
WRITERS: dict[str, Callable[[Sudoku], str]] = {
    "line": to_line,
    "grid": to_grid,
    "json": to_json_text,
    "puzzlink": sites.to_puzzlink,
    "tatham": sites.to_tatham,
    "sdk": to_sdk,
    "sdm": to_sdm,
    "sukaku": pencilmarks.to_sukaku,
    "candidates": to_candidates,
    "fpuzzles": fpuzzles.to_fpuzzles,
}

#: ``--link SITE``: the link that opens the puzzle on that site
LINKS: dict[str, Callable[[Sudoku], str]] = {
    "puzzlink": sites.to_puzzlink,
    "tatham": solo_link,
    "fpuzzles": fpuzzles.to_fpuzzles,
    "sudokupad": sudokupad.to_sudokupad,
}
