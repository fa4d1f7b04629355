"""Large Sudoku puzzles for benchmarks, made from a pattern grid.

There is no public 25x25 set in ../shared/data, so :func:`puzzles` makes
some: a valid grid from the classic pattern ``value(r, c) = (B*(r mod b) +
r div b + c) mod N`` (boxes ``b x B``), shuffled by symmetries that keep it
valid (relabel symbols, permute rows within a band and bands, columns
within a stack and stacks), then cells blanked at random.  Such puzzles
need not have a unique solution; they exercise solving, not uniqueness.
"""

from __future__ import annotations

import random

Grid = list[list[int]]


def pattern_grid(box_rows: int, box_cols: int, rng: random.Random) -> Grid:
    """A random valid ``N x N`` solution grid, ``N = box_rows * box_cols``."""
    n = box_rows * box_cols

    def shuffled_lines(band: int, bands: int) -> list[int]:
        # bands of `band` lines each: shuffle the bands, then the lines in each band
        order = rng.sample(range(bands), bands)
        return [b * band + line for b in order for line in rng.sample(range(band), band)]

    # Rows come in bands of box_rows rows (n // box_rows = box_cols bands);
    # columns in stacks of box_cols columns (box_rows stacks).
    row_order = shuffled_lines(box_rows, box_cols)
    col_order = shuffled_lines(box_cols, box_rows)
    symbols = rng.sample(range(1, n + 1), n)

    def base(r: int, c: int) -> int:
        return (box_cols * (r % box_rows) + r // box_rows + c) % n

    return [[symbols[base(r, c)] for c in col_order] for r in row_order]


def blank(grid: Grid, fraction: float, rng: random.Random) -> Grid:
    """A copy of ``grid`` with ``fraction`` of its cells blanked (0)."""
    n = len(grid)
    cells = [(r, c) for r in range(n) for c in range(n)]
    holes = set(rng.sample(cells, round(fraction * n * n)))
    return [[0 if (r, c) in holes else v for c, v in enumerate(row)] for r, row in enumerate(grid)]


def puzzles(
    box_rows: int, box_cols: int, count: int, fraction: float, seed: int = 1
) -> list[tuple[Grid, Grid]]:
    """``count`` (puzzle, full grid) pairs with ``fraction`` of the cells blank."""
    rng = random.Random(seed)
    made = []
    for _ in range(count):
        full = pattern_grid(box_rows, box_cols, rng)
        made.append((blank(full, fraction, rng), full))
    return made
