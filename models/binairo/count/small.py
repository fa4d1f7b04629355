"""The two counting methods for small grids (up to 64 cells, rows of at most 8 cells) in plain
numpy, so that ``count --size 8`` does not pay about a second to import numba and load its
compiled kernels.  Same cubes, same answers; whole arrays instead of loops:

``mitm_cube``
    the halves of a cube, grown a row at a time for all of them at once (each partial half
    followed by each row that may come next), then every pair of halves with matching keys
    tested by AND on bitmasks (as the compiled pair-test kernel does).
``fixed_rows_count``
    every grid with some rows fixed, grown row by row from the top (the ``dfs`` method's rules:
    column counts, triples, distinct rows; distinct columns at the end), for cross-checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from . import Tables

# Shapes counted here: few cells (a cube is small), and rows of at most 8 cells (at most 34
# valid rows, so a set of rows is one 64-bit word).
MAX_CELLS = 64
MAX_WIDTH = 8


def handles(rows: int, cols: int) -> bool:
    return rows * cols <= MAX_CELLS and cols <= MAX_WIDTH


def successors(bits: np.ndarray, mask: int) -> tuple[np.ndarray, np.ndarray]:
    """For each pair of rows (p, q), q under p, the rows that may follow q (no column with
    three equal cells): ``flat[start[p * n + q]:start[p * n + q + 1]]``."""
    n = len(bits)
    same = ~(bits[:, None] ^ bits[None, :]) & mask  # [p, q]: columns where p and q agree
    # r may follow (p, q) where it differs from q on every such column
    ok = ((bits[None, None, :] ^ bits[None, :, None]) & same[:, :, None]) == same[:, :, None]
    counts = ok.reshape(n * n, n).sum(axis=1)
    start = np.concatenate(([0], np.cumsum(counts)))
    flat = np.nonzero(ok.reshape(n * n, n))[1]
    return start, flat


def _grow(seqs: np.ndarray, start: np.ndarray, flat: np.ndarray, n: int, takuzu: bool) -> np.ndarray:
    """Every sequence followed by every row that may come next (and, takuzu, is new)."""
    s = seqs[:, -2] * n + seqs[:, -1]
    counts = start[s + 1] - start[s]
    owner = np.repeat(np.arange(len(seqs)), counts)
    offset = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    nxt = flat[np.repeat(start[s], counts) + offset]
    grown = np.concatenate([seqs[owner], nxt[:, None]], axis=1)
    if takuzu:
        grown = grown[~(grown[:, :-1] == nxt[:, None]).any(axis=1)]
    return grown


def _halves(
    t: Tables, first: int, before: int, start: np.ndarray, flat: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A cube's halves: keys (packed column counts), equal column pairs, used-row sets."""
    seqs = np.array([[before, first]], dtype=np.int64)
    for _ in range(t.rows // 2 - 1):
        seqs = _grow(seqs, start, flat, len(t.bits), t.takuzu)
    rows = seqs[:, 1:]
    keys = t.spread[rows].sum(axis=1)
    pairs = np.bitwise_and.reduce(t.eqpairs[rows][:, :, 0], axis=1)
    used = (
        np.bitwise_or.reduce(np.int64(1) << rows[:, 1:], axis=1)
        if rows.shape[1] > 1
        else np.zeros(len(rows), np.int64)
    )
    return keys, pairs, used


class SmallTables:
    """What the numpy methods need beside the row tables."""

    def __init__(self, t: Tables) -> None:
        self.t = t
        self.start, self.flat = successors(t.bits, (1 << t.cols) - 1)

    def mitm_cube(self, a: int, b: int) -> int:
        t = self.t
        h = t.rows // 2
        tk, tp, tu = _halves(t, a, b, self.start, self.flat)
        bk, bp, bu = _halves(t, b, a, self.start, self.flat)
        full = sum(h << (t.field * c) for c in range(t.cols))
        bk = full - bk  # the top key each bottom half completes
        order = np.argsort(bk, kind="stable")
        bk, bp, bu = bk[order], bp[order], bu[order]
        lo = np.searchsorted(bk, tk, "left")
        hi = np.searchsorted(bk, tk, "right")
        if not t.takuzu:
            return int((hi - lo).sum())
        counts = hi - lo
        top = np.repeat(np.arange(len(tk)), counts)
        bottom = (
            np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts) + np.repeat(lo, counts)
        )
        fine = ((tp[top] & bp[bottom]) == 0) & ((tu[top] & bu[bottom]) == 0)
        return int(fine.sum())

    def fixed_rows_count(self, fixed: dict[int, int]) -> int:
        """Grids whose row d is ``fixed[d]`` (indices of valid rows), grown from the top."""
        t = self.t
        n, h = len(t.bits), t.rows // 2
        column_bits = (t.bits[:, None] >> np.arange(t.cols)) & 1  # [row, column]
        seqs = np.arange(n)[:, None] if 0 not in fixed else np.array([[fixed[0]]])
        for depth in range(1, t.rows):
            if depth == 1:
                nxt = np.arange(n) if 1 not in fixed else np.array([fixed[1]])
                grown = np.concatenate(
                    [np.repeat(seqs, len(nxt), axis=0), np.tile(nxt, len(seqs))[:, None]], axis=1
                )
                if t.takuzu:
                    grown = grown[grown[:, 0] != grown[:, 1]]
            else:
                grown = _grow(seqs, self.start, self.flat, n, t.takuzu)
                if depth in fixed:
                    grown = grown[grown[:, -1] == fixed[depth]]
            ones = column_bits[grown].sum(axis=1)  # [grid, column]
            placed = depth + 1
            seqs = grown[((ones <= h) & (placed - ones <= h)).all(axis=1)]
        if not t.takuzu:
            return len(seqs)
        pairs = np.bitwise_and.reduce(t.eqpairs[seqs][:, :, 0], axis=1)
        return int((pairs == 0).sum())
