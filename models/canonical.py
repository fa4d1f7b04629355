"""Canonical forms: one string per class of puzzles that are the same puzzle up to the
symmetries that keep every solution valid, so that a generation run can drop duplicates.

* Sudoku (boxes, no jigsaw regions, no diagonals): the lexicographically least grid over row
  permutations within bands, band permutations, column permutations within stacks, stack
  permutations, the transpose (square boxes) and every relabelling of the digits, blanks
  first (for 9x9: 2 x 6^8 = 3,359,232 arrangements, each with 9! relabellings).  Found by a
  branch and bound, row by row: for a fixed arrangement the least relabelling numbers the
  digits in the order they first appear, and a prefix of rows fixes its own relabelling, so
  every partial arrangement whose rows so far are not least is dropped.
* Binairo: the least of the grid's images under the rectangle's symmetries (the 8 of a
  square, 4 otherwise) and the swap of 0 and 1.
* Any other puzzle (a jigsaw, an X-Sudoku, a kind without a form here): its own JSON text,
  so only identical puzzles are duplicates.

:class:`Duplicates` compares puzzles by a cheap invariant first and computes canonical forms
only for puzzles whose invariants meet (rare among 9x9 Sudoku): exact, and fast.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from .kind import GridKind

SYMBOLS = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


# -- Sudoku -----------------------------------------------------------------------------------
def _groups(size: int, width: int) -> list[list[int]]:
    return [list(range(start, start + width)) for start in range(0, size, width)]


def _orders(size: int, width: int) -> list[tuple[int, ...]]:
    """Every order of lines that keeps groups of ``width`` together (groups permuted, and
    lines permuted within each group)."""
    groups = _groups(size, width)
    within = [list(itertools.permutations(group)) for group in groups]
    orders = []
    for group_order in itertools.permutations(range(len(groups))):
        for inner in itertools.product(*(within[g] for g in group_order)):
            orders.append(tuple(line for part in inner for line in part))
    return orders


def sudoku_canonical(grid: Sequence[Sequence[int]], box: tuple[int, int]) -> str:
    """The canonical form of a boxed Sudoku grid (0 blank): see the module's docstring."""
    size = len(grid)
    box_rows, box_cols = box
    images = [[list(row) for row in grid]]
    if box_rows == box_cols:
        images.append([list(col) for col in zip(*grid)])
    columns = _orders(size, box_cols)
    bands = _groups(size, box_rows)
    # A state: (image, column order, rows taken so far, relabelling so far).
    states: list[tuple[int, tuple[int, ...], tuple[int, ...], dict[int, int]]] = [
        (image, order, (), {}) for image in range(len(images)) for order in columns
    ]
    best_rows: list[tuple[int, ...]] = []
    for position in range(size):
        offset = position % box_rows
        best: tuple[int, ...] | None = None
        kept: list[tuple[int, tuple[int, ...], tuple[int, ...], dict[int, int]]] = []
        seen: set[Hashable] = set()
        for image, order, taken, labels in states:
            if offset == 0:  # a new band: any row of a band not used yet
                used = {r // box_rows for r in taken}
                candidates = [r for band in bands if band[0] // box_rows not in used for r in band]
            else:  # the rest of the current band
                band = taken[-1] // box_rows
                candidates = [r for r in bands[band] if r not in taken]
            rows = images[image]
            for row in candidates:
                mapping = dict(labels)
                line = []
                for column in order:
                    value = rows[row][column]
                    if value:
                        if value not in mapping:
                            mapping[value] = len(mapping) + 1
                        value = mapping[value]
                    line.append(value)
                key = tuple(line)
                if best is None or key < best:
                    best, kept = key, []
                if key == best:
                    state_key = (image, order, taken + (row,))
                    if state_key not in seen:
                        seen.add(state_key)
                        kept.append((image, order, taken + (row,), mapping))
        assert best is not None
        best_rows.append(best)
        # Blanks in the row leave column orders that agree so far: merge those that agree on
        # everything left (a full row tells orders apart at once: nothing to merge).
        states = _merge_equivalent(kept, images) if 0 in best else kept
    return "".join(SYMBOLS[v] for row in best_rows for v in row)


def _merge_equivalent(
    states: list[tuple[int, tuple[int, ...], tuple[int, ...], dict[int, int]]],
    images: list[list[list[int]]],
) -> list[tuple[int, tuple[int, ...], tuple[int, ...], dict[int, int]]]:
    """One of the states whose futures are the same: the same rows left, each read in the
    same order of its values, under the same relabelling (column orders that differ only
    among blank columns, say; without this an empty grid would try every order to the end)."""
    merged: dict[Hashable, tuple[int, tuple[int, ...], tuple[int, ...], dict[int, int]]] = {}
    for state in states:
        image, order, taken, labels = state
        rows = images[image]
        left = tuple(tuple(rows[r][c] for c in order) if r not in taken else r for r in range(len(rows)))
        key = (left, tuple(sorted(labels.items())))
        merged.setdefault(key, state)
    return list(merged.values())


def sudoku_invariant(grid: Sequence[Sequence[int]], box: tuple[int, int]) -> Hashable:
    """What every symmetric image of the grid shares (cheap; equal for equal canonical forms).

    Each given is described by what the symmetries keep: how many givens share its row and
    its column, its band and its stack (pairs taken unordered when the transpose is one of the
    symmetries), its box, and its digit; the digits are then told apart only by the givens
    they describe (relabelling).  Puzzles that differ rarely meet here, so canonical forms,
    which cost far more, are computed for few of them."""
    size = len(grid)
    box_rows, box_cols = box
    transposable = box_rows == box_cols
    givens = [(r, c, v) for r in range(size) for c in range(size) if (v := grid[r][c])]
    in_row: dict[int, int] = {}
    in_col: dict[int, int] = {}
    in_band: dict[int, int] = {}
    in_stack: dict[int, int] = {}
    in_box: dict[tuple[int, int], int] = {}
    for r, c, _ in givens:
        in_row[r] = in_row.get(r, 0) + 1
        in_col[c] = in_col.get(c, 0) + 1
        in_band[r // box_rows] = in_band.get(r // box_rows, 0) + 1
        in_stack[c // box_cols] = in_stack.get(c // box_cols, 0) + 1
        in_box[r // box_rows, c // box_cols] = in_box.get((r // box_rows, c // box_cols), 0) + 1

    def pair(first: int, second: int) -> tuple[int, int]:
        return (min(first, second), max(first, second)) if transposable else (first, second)

    by_digit: dict[int, list[tuple]] = {}
    for r, c, v in givens:
        by_digit.setdefault(v, []).append(
            (
                pair(in_row[r], in_col[c]),
                pair(in_band[r // box_rows], in_stack[c // box_cols]),
                in_box[(r // box_rows, c // box_cols)],
            )
        )
    digits = tuple(sorted(tuple(sorted(cells)) for cells in by_digit.values()))
    return (size, box, digits)


# -- Binairo ----------------------------------------------------------------------------------
def binairo_canonical(cells: Sequence[Sequence[int | None]], rules: str) -> str:
    """The least text of the grid's images under the rectangle's symmetries and 0/1 swapped."""
    grid = [list(row) for row in cells]
    images = []
    for flip_rows, flip_cols in itertools.product((False, True), repeat=2):
        image = [row[::-1] if flip_cols else row for row in (grid[::-1] if flip_rows else grid)]
        images.append(image)
        if len(grid) == len(grid[0]):
            images.append([list(col) for col in zip(*image)])
    texts = []
    for image in images:
        for swap in (False, True):
            texts.append(
                "/".join(
                    "".join("." if v is None else str(1 - v if swap else v) for v in row) for row in image
                )
            )
    return f"{rules}:{min(texts)}"


# -- any kind -----------------------------------------------------------------------------------
def _sudoku_forms(puzzle: Any) -> tuple[Callable[[], str], Hashable] | None:
    if puzzle.regions is not None or puzzle.diagonals or puzzle.box is None:
        return None
    grid, box = puzzle.grid, tuple(puzzle.box)
    size = len(grid)
    cells = bytes(v for row in grid for v in row)  # what the form needs, kept small (a run holds millions)

    def form() -> str:
        return sudoku_canonical([list(cells[r * size : (r + 1) * size]) for r in range(size)], box)

    return form, sudoku_invariant(grid, box)


def _binairo_forms(puzzle: Any) -> tuple[Callable[[], str], Hashable]:
    form = binairo_canonical(puzzle.cells, puzzle.rules)
    return (lambda: form), form


FORMS: dict[str, Callable[[Any], tuple[Callable[[], str], Hashable] | None]] = {
    "sudoku": _sudoku_forms,
    "binairo": _binairo_forms,
}


def forms(kind: GridKind, puzzle: Any) -> tuple[Callable[[], str], Hashable]:
    """The puzzle's canonical form (computed when called) and a cheap invariant of it."""
    made = FORMS[kind.name](puzzle) if kind.name in FORMS else None
    if made is None:
        text = json.dumps(kind.to_json(puzzle), sort_keys=True)
        return (lambda: text), text
    return made


def canonical_form(kind: GridKind, puzzle: Any) -> str:
    """One string for the puzzle and every puzzle symmetric to it (see the module)."""
    return forms(kind, puzzle)[0]()


class Duplicates:
    """Remembers puzzles; :meth:`add` says whether a puzzle is new up to symmetry."""

    def __init__(self, kind: GridKind):
        self.kind = kind
        self.buckets: dict[bytes, list[list[Any]]] = {}  # invariant's digest: [[form or None, make form]]

    def add(self, puzzle: Any) -> bool:
        make, invariant = forms(self.kind, puzzle)
        # Buckets by a digest of the invariant (16 bytes, not the invariant's tuples): puzzles
        # whose digests meet are still compared by canonical form, so a clash costs time only.
        digest = hashlib.blake2b(repr(invariant).encode(), digest_size=16).digest()
        bucket = self.buckets.setdefault(digest, [])
        if bucket:
            form = make()
            for entry in bucket:
                if entry[0] is None:
                    entry[0] = entry[1]()
                if entry[0] == form:
                    return False
            bucket.append([form, make])
        else:
            bucket.append([None, make])
        return True
