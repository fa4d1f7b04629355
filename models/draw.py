"""Grids as lines of text, for any interface that prints them: box lines, givens told
apart from filled-in cells (bold givens and red filled-in cells with ``color``, ANSI)."""

from __future__ import annotations

from collections.abc import Sequence

from .grid import symbol_char

BOLD, RED, RESET = "\033[1m", "\033[31m", "\033[0m"


def grid_lines(
    grid: Sequence[Sequence[int]],
    box: tuple[int, int] | None,
    givens: Sequence[Sequence[int]] | None = None,
    color: bool = False,
    regions: Sequence[Sequence[int]] | None = None,
) -> list[str]:
    """Rows of text with ``|`` and ``-`` between boxes; colour marks givens vs filled cells.

    With ``regions`` (a jigsaw: each cell's region number) the borders are
    drawn wherever two neighbouring cells lie in different regions, so the
    regions read in plain text: a ``|`` between cells, a ``-`` line under
    them, ``+`` where borders meet.

    >>> for line in grid_lines([[1, 3, 2, 4], [4, 2, 3, 1], [2, 4, 1, 3], [3, 1, 4, 2]], (2, 2)):
    ...     print(line)
    1 3 | 2 4
    4 2 | 3 1
    ----+----
    2 4 | 1 3
    3 1 | 4 2
    >>> jigsaw = [[0, 0, 0, 1], [0, 2, 1, 1], [2, 2, 3, 1], [2, 3, 3, 3]]
    >>> grid = [[1, 2, 3, 4], [3, 0, 0, 2], [2, 0, 0, 0], [4, 0, 0, 0]]
    >>> for line in grid_lines(grid, None, regions=jigsaw):
    ...     print(line)
    1 2 3|4
     +-+-+
    3|.|. 2
    -+ +-+
    2 .|.|.
     +-+ +-
    4|. . .
    """
    size = len(grid)
    width = 1 if size <= 35 else 2

    def cell_text(r: int, c: int) -> str:
        value = grid[r][c]
        text = symbol_char(value).rjust(width)
        if color and value:
            given = givens is not None and givens[r][c]
            text = f"{BOLD}{text}{RESET}" if given else f"{RED}{text}{RESET}"
        return text

    lines = []
    if regions is not None:
        for r in range(size):
            if r:
                # Under-line between row r-1 and row r: "-" below a cell whose
                # region changes, "+" / "|" at the gaps where borders meet.
                parts = []
                for c in range(size):
                    across = regions[r - 1][c] != regions[r][c]
                    if c:
                        up = regions[r - 1][c - 1] != regions[r - 1][c]
                        down = regions[r][c - 1] != regions[r][c]
                        left = regions[r - 1][c - 1] != regions[r][c - 1]
                        if (up or down) and (left or across):
                            parts.append("+")
                        elif up and down:
                            parts.append("|")
                        elif left and across:
                            parts.append("-")
                        else:
                            parts.append(" ")
                    parts.append(("-" if across else " ") * width)
                lines.append("".join(parts).rstrip())
            parts = [cell_text(r, 0)]
            for c in range(1, size):
                parts.append("|" if regions[r][c - 1] != regions[r][c] else " ")
                parts.append(cell_text(r, c))
            lines.append("".join(parts))
        return lines
    for r in range(size):
        if box and r and r % box[0] == 0:
            parts = ["-" * ((width + 1) * box[1] - 1) for _ in range(size // box[1])]
            lines.append("-+-".join(parts))
        cells = []
        for c in range(size):
            if box and c and c % box[1] == 0:
                cells.append("|")
            cells.append(cell_text(r, c))
        lines.append(" ".join(cells))
    return lines


def marked_rows(
    rows: Sequence[str], givens: Sequence[Sequence[object]] | None = None, color: bool = False
) -> list[str]:
    """Rows of one-character cells, givens bold and filled-in cells red when ``color``.

    For grids whose symbols include ``0`` (Binairo), which :func:`grid_lines` prints as a
    blank; a cell counts as given where ``givens`` holds anything but None there.

    >>> marked_rows(["1.", "01"])
    ['1.', '01']
    >>> marked_rows(["1.", "01"], [[1, None], [None, None]], color=True)[0] == BOLD + "1" + RESET + "."
    True
    """
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
