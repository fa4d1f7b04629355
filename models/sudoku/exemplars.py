"""Puzzles of the hardest grades to start a graded search from (standard 9x9 only).

Random minimal puzzles almost never rate above Sudoku Explainer's 8.5 (among the 49,151
17-clue puzzles, none needed more than the chains), so :func:`~mindgames.models.sudoku.generate.
search_rated` starts those grades from one of these, under a random symmetry of the grid
(digits relabelled, rows within bands, bands, columns within stacks, stacks, a transpose):
a different puzzle with the same logic.  The puzzles are from the public lists in
``../shared/data/sudoku`` (magictour top 95 and top 1465, the forum's hardest), each rated by
:func:`~mindgames.models.sudoku.rating.rate` when it was chosen (the rating stated beside it).
"""

from __future__ import annotations

import random

from .puzzle import Sudoku, make_puzzle

#: (the rating by :func:`~mindgames.models.sudoku.rating.rate` when chosen, the puzzle)
EXEMPLARS: tuple[tuple[float, str], ...] = (
    # magictour top 95 (SE 8.5, 8.9, 8.5, 8.5: dynamic forcing chains)
    (8.6, "6..3.2....5.....1..........7.26............543.........8.15........4.2........7.."),
    (8.7, ".6.5.1.9.1...9..539....7....4.8...7.......5.8.817.5.3.....5.2............76..8..."),
    (8.6, "6..3.2....4.....1..........7.26............543.........8.15........4.2........7.."),
    (8.6, "6..3.2....4.....8..........7.26............543.........8.15........8.2........7.."),
    # the forum's hardest (SE 10.5 and up)
    (11.0, "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"),
    (11.0, "..4..3....7..8....2.81....6..3....9..8..2....1..7....3......45....8..9....9..5..8"),
    (11.0, "..6..1....5..3....9..4....7..1....2..3..9....4..5....13.....68....3..2....2..8..3"),
)


def _symmetry(grid: list[list[int]], rng: random.Random) -> list[list[int]]:
    """``grid`` under a random symmetry of the standard 9x9 Sudoku (the same solving logic)."""
    digits = list(range(1, 10))
    rng.shuffle(digits)
    bands, stacks = [0, 1, 2], [0, 1, 2]
    rng.shuffle(bands)
    rng.shuffle(stacks)
    rows = [band * 3 + r for band in bands for r in rng.sample(range(3), 3)]
    cols = [stack * 3 + c for stack in stacks for c in rng.sample(range(3), 3)]
    moved = [[grid[r][c] for c in cols] for r in rows]
    if rng.random() < 0.5:
        moved = [list(column) for column in zip(*moved)]
    return [[digits[v - 1] if v else 0 for v in row] for row in moved]


def exemplar(
    empty: Sudoku, low: float, high: float, rng: random.Random
) -> tuple[Sudoku, list[list[int]]] | None:
    """A bundled puzzle rated in (``low``, ``high``] under a random symmetry, with its solution;
    None for another layout than the standard 9x9, or a range the bundled ones miss (or
    reached by random puzzles: below 8.5)."""
    from .kind import solve

    if empty.size != 9 or empty.box != (3, 3) or empty.diagonals or empty.regions or low < 8.4:
        return None
    chosen = [line for rating, line in EXEMPLARS if low < rating <= high]
    if not chosen:
        return None
    line = rng.choice(chosen)
    grid = _symmetry(
        [[int(ch) if ch.isdigit() else 0 for ch in line[r * 9 : r * 9 + 9]] for r in range(9)], rng
    )
    puzzle = make_puzzle(grid)
    return puzzle, solve(puzzle).solution
