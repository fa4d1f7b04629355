"""Grids as text: box lines, givens told apart from filled-in cells.

On a terminal, givens are bold and filled-in cells red (the seeds draw
givens black and the solver's digits red); in plain text the puzzle is
printed beside its solution so the difference stays visible."""

from __future__ import annotations

from typing import Sequence

from models.grid import symbol_char

BOLD, RED, RESET = "\033[1m", "\033[31m", "\033[0m"


def grid_lines(
    grid: Sequence[Sequence[int]],
    box: tuple[int, int] | None,
    givens: Sequence[Sequence[int]] | None = None,
    color: bool = False,
) -> list[str]:
    """Rows of text with ``|`` and ``-`` between boxes; colour marks givens vs filled cells."""
    size = len(grid)
    width = 1 if size <= 35 else 2
    lines = []
    for r, row in enumerate(grid):
        if box and r and r % box[0] == 0:
            parts = ["-" * ((width + 1) * box[1] - 1) for _ in range(size // box[1])]
            lines.append("-+-".join(parts))
        cells = []
        for c, value in enumerate(row):
            if box and c and c % box[1] == 0:
                cells.append("|")
            text = symbol_char(value).rjust(width)
            if color and value:
                given = givens is not None and givens[r][c]
                text = f"{BOLD}{text}{RESET}" if given else f"{RED}{text}{RESET}"
            cells.append(text)
        lines.append(" ".join(cells))
    return lines


def side_by_side(left: list[str], right: list[str], gap: str = "    ") -> list[str]:
    width = max((len(line) for line in left), default=0)
    return [f"{a.ljust(width)}{gap}{b}" for a, b in zip(left, right)]


def marked_rows(
    rows: Sequence[str], givens: Sequence[Sequence[object]] | None = None, color: bool = False
) -> list[str]:
    """Rows of one-character cells, givens bold and filled-in cells red when ``color``.

    For grids whose symbols include ``0`` (Binairo), which :func:`grid_lines` prints as a
    blank; a cell counts as given where ``givens`` holds anything but None there."""
    if not color:
        return list(rows)
    marked = []
    for r, row in enumerate(rows):
        cells = []
        for c, char in enumerate(row):
            if char == ".":
                cells.append(char)
            elif givens is None or givens[r][c] is not None:
                cells.append(f"{BOLD}{char}{RESET}")
            else:
                cells.append(f"{RED}{char}{RESET}")
        marked.append("".join(cells))
    return marked
