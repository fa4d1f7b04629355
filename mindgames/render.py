"""Grids as text: box lines, givens told apart from filled-in cells.

On a terminal, givens are bold and filled-in cells red (the seeds draw
givens black and the solver's digits red); in plain text the puzzle is
printed beside its solution so the difference stays visible.  The grid drawing
itself lives in :mod:`mindgames.models.draw` (the kinds draw their puzzles) and counted nouns in
:mod:`mindgames.models.words`; both are re-exported here."""

from __future__ import annotations

from mindgames.models.draw import BOLD, RED, RESET, grid_lines, marked_rows  # noqa: F401 - drawn in models
from mindgames.models.words import plural  # noqa: F401 - one rule for counted nouns, in models


def _visible(text: str) -> str:
    return text.replace(BOLD, "").replace(RED, "").replace(RESET, "")


def side_by_side(left: list[str], right: list[str], gap: str = "    ") -> list[str]:
    # Widths are measured without colour codes, which take no room on screen.
    width = max((len(_visible(line)) for line in left), default=0)
    return [f"{a}{' ' * (width - len(_visible(a)))}{gap}{b}" for a, b in zip(left, right)]
