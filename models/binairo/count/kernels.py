"""The compiled (numba) kernels of the first counting method: halves enumerated and joined by
testing every pair of matching keys (``mitm_cube``), and the row-by-row count (``dfs_cube``).
Imported only when a cube needs them: numba costs about a second to import and load."""

from __future__ import annotations

import numpy as np
from numba import njit

# -- meet in the middle ------------------------------------------------------------------


@njit(cache=True)
def _fits(prev2: int, prev1: int, row: int, mask: int) -> bool:
    """No column has three equal cells in prev2, prev1, row."""
    same = ~(prev2 ^ prev1) & mask
    return ((row ^ prev1) & same) == same


@njit(cache=True)
def _half(first, before, free, bits, spread, eqpairs, words, takuzu, mask, store, keys, pairs, used_sets):
    """Enumerate the halves ``first, r1, .., r_free`` (``before`` sits on the other side of
    ``first``).  With ``store`` False only count them; else fill keys/pairs/used_sets."""
    n = bits.shape[0]
    seq = np.empty(free + 2, np.int64)
    nxt = np.zeros(free + 2, np.int64)
    used = np.zeros(words, np.int64)
    count = 0
    if takuzu:
        used[first >> 6] |= np.int64(1) << (first & 63)
        used[before >> 6] |= np.int64(1) << (before & 63)
    # seq[0] = before, seq[1] = first, then free rows at seq[2..]
    seq[0] = before
    seq[1] = first
    depth = 2
    nxt[2] = 0
    while True:
        if depth == free + 2:
            if store:
                key = spread[first]
                p0 = eqpairs[first, 0]
                p1 = eqpairs[first, 1]
                for d in range(2, free + 2):
                    k = seq[d]
                    key += spread[k]
                    p0 &= eqpairs[k, 0]
                    p1 &= eqpairs[k, 1]
                    used_sets[count, k >> 6] |= np.int64(1) << (k & 63)
                keys[count] = key
                pairs[count, 0] = p0
                pairs[count, 1] = p1
            count += 1
            depth -= 1
            if depth < 2:
                break
            if takuzu:
                k = seq[depth]
                used[k >> 6] &= ~(np.int64(1) << (k & 63))
            continue
        k = nxt[depth]
        placed = False
        while k < n:
            if not (takuzu and (used[k >> 6] >> (k & 63)) & 1):
                if _fits(bits[seq[depth - 2]], bits[seq[depth - 1]], bits[k], mask):
                    placed = True
                    break
            k += 1
        if placed:
            seq[depth] = k
            nxt[depth] = k + 1
            if takuzu:
                used[k >> 6] |= np.int64(1) << (k & 63)
            depth += 1
            if depth < free + 2:
                nxt[depth] = 0
        else:
            depth -= 1
            if depth < 2:
                break
            if takuzu:
                k = seq[depth]
                used[k >> 6] &= ~(np.int64(1) << (k & 63))
    return count


@njit(cache=True)
def _collect(first, before, free, bits, spread, eqpairs, words, takuzu, mask):
    dummy_k = np.empty(0, np.int64)
    dummy_p = np.empty((0, 2), np.int64)
    dummy_u = np.empty((0, words), np.int64)
    n = _half(
        first, before, free, bits, spread, eqpairs, words, takuzu, mask, False, dummy_k, dummy_p, dummy_u
    )
    keys = np.empty(n, np.int64)
    pairs = np.empty((n, 2), np.int64)
    used_sets = np.zeros((n, words), np.int64)
    _half(first, before, free, bits, spread, eqpairs, words, takuzu, mask, True, keys, pairs, used_sets)
    return keys, pairs, used_sets


@njit(cache=True)
def _join_group(T, B, i, i2, j, j2, width):
    """Pairs (top x, bottom y) of one key group with no conflict in any word.

    Branch-free counting over contiguous words, so LLVM can vectorize it."""
    found = 0
    if width == 3:  # up to 11 columns with at most 128 valid rows (10x10 and below)
        b0 = B[0, j:j2]
        b1 = B[1, j:j2]
        b2 = B[2, j:j2]
        for x in range(i, i2):
            t0 = T[0, x]
            t1 = T[1, x]
            t2 = T[2, x]
            for y in range(j2 - j):
                found += ((t0 & b0[y]) | (t1 & b1[y]) | (t2 & b2[y])) == 0
        return found
    clash = np.empty(j2 - j, np.int64)
    for x in range(i, i2):
        clash[:] = 0
        for w in range(width):  # word by word over contiguous rows: vectorizes too
            tw = T[w, x]
            bw = B[w, j:j2]
            for y in range(j2 - j):
                clash[y] |= tw & bw[y]
        for y in range(j2 - j):
            found += clash[y] == 0
    return found


@njit(cache=True)
def mitm_cube(a, b, rows, cols, bits, spread, eqpairs, words, takuzu, field, work_only=False):
    """Grids whose middle rows are ``a`` (row h-1) and ``b`` (row h).

    ``work_only``: return instead the number of (top, bottom) pairs the join
    would test (the pairs whose column counts fit), to estimate big jobs."""
    h = rows // 2
    mask = (np.int64(1) << cols) - 1
    tk, tp, tu = _collect(a, b, h - 1, bits, spread, eqpairs, words, takuzu, mask)
    bk, bp, bu = _collect(b, a, h - 1, bits, spread, eqpairs, words, takuzu, mask)
    full = np.int64(0)
    for c in range(cols):
        full += np.int64(h) << (field * c)
    for i in range(bk.shape[0]):
        bk[i] = full - bk[i]  # the top key that completes this bottom half
    to = np.argsort(tk)
    bo = np.argsort(bk)
    tks = tk[to]
    bks = bk[bo]
    # The join's inner loop tests "no conflict" as AND == 0 on a few words per half: the
    # column pairs equal in the half (one word up to 11 columns), then the rows it uses.
    # They are gathered into contiguous rows in sorted order: the loop then streams memory.
    pw = 1 if cols <= 11 else 2
    width = pw + words
    # Struct of arrays (one contiguous array per word): the inner loop then vectorizes.
    T = np.empty((width, tk.shape[0]), np.int64)
    B = np.empty((width, bk.shape[0]), np.int64)
    for i in range(tk.shape[0]):
        for w in range(pw):
            T[w, i] = tp[to[i], w]
        for w in range(words):
            T[pw + w, i] = tu[to[i], w]
    for i in range(bk.shape[0]):
        for w in range(pw):
            B[w, i] = bp[bo[i], w]
        for w in range(words):
            B[pw + w, i] = bu[bo[i], w]
    i = 0
    j = 0
    total = np.int64(0)
    nt = tks.shape[0]
    nb = bks.shape[0]
    while i < nt and j < nb:
        ki = tks[i]
        kj = bks[j]
        if ki < kj:
            i += 1
        elif ki > kj:
            j += 1
        else:
            i2 = i
            while i2 < nt and tks[i2] == ki:
                i2 += 1
            j2 = j
            while j2 < nb and bks[j2] == ki:
                j2 += 1
            if not takuzu or work_only:
                total += (i2 - i) * (j2 - j)
            else:
                total += _join_group(T, B, i, i2, j, j2, width)
            i = i2
            j = j2
    return total


# -- row-by-row depth-first --------------------------------------------------------------


@njit(cache=True)
def dfs_cube(fixed, rows, cols, bits, eqpairs, words, takuzu):
    """Grids whose row ``r`` is ``fixed[r]`` wherever that is >= 0."""
    n = bits.shape[0]
    mask = (np.int64(1) << cols) - 1
    half = rows // 2
    seq = np.empty(rows, np.int64)
    nxt = np.zeros(rows, np.int64)
    ones = np.zeros((rows + 1, cols), np.int64)  # ones[d, c]: 1s in column c among rows < d
    pm = np.empty((rows + 1, 2), np.int64)  # column pairs equal in rows < d
    pm[0, 0] = -1
    pm[0, 1] = -1
    used = np.zeros(words, np.int64)
    total = np.int64(0)
    depth = 0
    nxt[0] = 0
    while depth >= 0:
        if depth == rows:
            if not takuzu or (pm[rows, 0] == 0 and pm[rows, 1] == 0):
                total += 1
            depth -= 1
            if depth >= 0 and takuzu:
                k = seq[depth]
                used[k >> 6] &= ~(np.int64(1) << (k & 63))
            continue
        k = nxt[depth]
        stop = n
        if fixed[depth] >= 0:
            if k <= fixed[depth]:
                k = fixed[depth]
                stop = k + 1
            else:
                k = n
        placed = False
        while k < stop:
            ok = not (takuzu and (used[k >> 6] >> (k & 63)) & 1)
            if ok and depth >= 2:
                ok = _fits(bits[seq[depth - 2]], bits[seq[depth - 1]], bits[k], mask)
            if ok:
                r = bits[k]
                for c in range(cols):
                    v = ones[depth, c] + ((r >> c) & 1)
                    if v > half or depth + 1 - v > half:
                        ok = False
                        break
            if ok:
                placed = True
                break
            k += 1
        if placed:
            seq[depth] = k
            nxt[depth] = k + 1
            r = bits[k]
            for c in range(cols):
                ones[depth + 1, c] = ones[depth, c] + ((r >> c) & 1)
            pm[depth + 1, 0] = pm[depth, 0] & eqpairs[k, 0]
            pm[depth + 1, 1] = pm[depth, 1] & eqpairs[k, 1]
            if takuzu:
                used[k >> 6] |= np.int64(1) << (k & 63)
            depth += 1
            if depth < rows:
                nxt[depth] = 0
        else:
            depth -= 1
            if depth >= 0 and takuzu:
                k = seq[depth]
                used[k >> 6] &= ~(np.int64(1) << (k & 63))
    return total
