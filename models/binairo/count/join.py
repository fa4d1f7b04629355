"""Joins that *count* the pairs of halves of a meet-in-the-middle cube instead of testing them.

A cube fixes the middle rows ``a`` (row h-1) and ``b`` (row h); a top half is ``a`` and the h-1
rows above it, a bottom half ``b`` and the h-1 rows below.  A top half T and a bottom half B make
a grid exactly when

1. their column counts add up to h in every column (same *key*: the bottom's key is stored
   complemented),
2. (takuzu) no column pair is equal in both: the partitions P_T, P_B of the columns into classes
   of equal columns meet in the discrete partition (P_T & P_B == 0 on the equal-pair bitmasks),
3. (takuzu) no row is used in both: U_T and U_B (the h-1 free rows of each) are disjoint.

Unruly has only (1): the cube's count is a dot product of two key histograms (``unruly_cube``).

Takuzu (``takuzu_cube``): within one key, (3) is expanded by inclusion-exclusion over the rows S
the two halves share,  [U_T & U_B empty] = sum over S within U_T & U_B of (-1)^|S|,  so

    pairs = sum_S (-1)^|S| * sum over partitions p, q with p & q discrete of N_T(S, p) * N_B(S, q)

where N_T(S, p) is the number of top halves of the key that use every row of S and have the
partition p.  Halves with the same partition are counted together: on 12x12 a cube's 2e10
candidate pairs become about 2e8 tests between distinct partitions.  Key groups too small to pay
for the bookkeeping are joined pair by pair (AND tests on bitmasks, as the ``mitm`` kernel does).
The sets S are visited depth first, only those both sides hold, and below a set held by few
halves the rest of the sum is counted pair by pair (``_group_depth_first``); the first way, codes
(S, p) made for every half and sorted (``_group_by_inclusion_exclusion``), is kept to compare.
For the join a half is only its key, its partition and its set of rows, all three fixed by the
set: halves with the same rows in another order are one record with a multiplicity
(``_merge_same_rows``; 12x12: ~1.56x fewer records), and every count the depth-first join and
the small groups make is a sum of products of multiplicities (the codes join is not merged).

The key of a half is a dense index: column counts of h rows without three equal cells in a line
lie in [h // 3, h - h // 3], a digit each.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Generator, Sequence
from itertools import combinations

import numpy as np
from numba import njit


def digit_range(h: int) -> tuple[int, int]:
    """The fewest and most 1s a column of ``h`` cells without three equal in a line can hold."""
    return h // 3, h - h // 3


def key_tables(rows: int, cols: int, bits: np.ndarray) -> tuple[np.ndarray, int, int]:
    """Per valid row its contribution to a half's dense key; the offset to subtract (the
    smallest count in every column) and the number of keys."""
    lo, hi = digit_range(rows // 2)
    base = hi - lo + 1
    weights = [base**c for c in range(cols)]
    digit = np.array([sum(w for c, w in enumerate(weights) if int(r) >> c & 1) for r in bits], dtype=np.int64)
    return digit, lo * sum(weights), base**cols


def subset_tables(free: int) -> tuple[np.ndarray, np.ndarray]:
    """Every k-subset of m positions, for m, k <= free: ``flat[start[m, k]:start[m, k + 1]]``
    holds C(m, k) subsets of k positions each (k-tuples one after another)."""
    start = np.zeros((free + 1, free + 2), np.int64)
    flat: list[int] = []
    for m in range(free + 1):
        for k in range(free + 1):
            start[m, k] = len(flat)
            if k <= m:
                for subset in combinations(range(m), k):
                    flat.extend(subset)
        start[m, free + 1] = len(flat)
    return start, np.array(flat + [0], dtype=np.int64)


@njit(cache=True)
def successors(bits, mask):
    """For each pair of rows (p, q), q under p, the rows that may follow q: no column with
    three equal cells.  Rows ``flat[start[p * n + q]:start[p * n + q + 1]]``."""
    n = bits.shape[0]
    start = np.zeros(n * n + 1, np.int64)
    for p in range(n):
        for q in range(n):
            same = ~(bits[p] ^ bits[q]) & mask
            c = 0
            for r in range(n):
                if ((bits[r] ^ bits[q]) & same) == same:
                    c += 1
            start[p * n + q + 1] = c
    for i in range(n * n):
        start[i + 1] += start[i]
    flat = np.empty(start[n * n], np.int64)
    for p in range(n):
        for q in range(n):
            at = start[p * n + q]
            same = ~(bits[p] ^ bits[q]) & mask
            for r in range(n):
                if ((bits[r] ^ bits[q]) & same) == same:
                    flat[at] = r
                    at += 1
    return start, flat


# -- unruly: histograms ----------------------------------------------------------------------


@njit(cache=True)
def _half_keys(first, before, free, n, start, flat, last_digit, digit, offset, hist, lookup):
    """Visit every half ``first, r1, .., r_free`` (``before`` on the other side) by its key index
    i: add 1 to hist[i]; with ``lookup`` instead sum hist[len(hist) - 1 - i] (the top halves
    that complete this bottom half) and return the sum.  ``last_digit`` is ``digit[flat]``."""
    keys = hist.shape[0]
    found = np.int64(0)
    if free == 0:
        i = digit[first] - offset
        if lookup:
            return hist[keys - 1 - i]
        hist[i] += 1
        return found
    seq = np.empty(free + 2, np.int64)
    pos = np.zeros(free + 2, np.int64)
    end = np.zeros(free + 2, np.int64)
    acc = np.zeros(free + 2, np.int64)
    seq[0] = before
    seq[1] = first
    acc[1] = digit[first] - offset
    last = free + 1  # the depth of the last row: its candidates are visited in one loop
    depth = 2
    s = seq[0] * n + seq[1]
    pos[2] = start[s]
    end[2] = start[s + 1]
    while depth >= 2:
        if depth == last:
            s = seq[depth - 2] * n + seq[depth - 1]
            base = acc[depth - 1]
            if lookup:
                base = keys - 1 - base
                for x in range(start[s], start[s + 1]):
                    found += hist[base - last_digit[x]]
            else:
                for x in range(start[s], start[s + 1]):
                    hist[base + last_digit[x]] += 1
            depth -= 1
            continue
        if pos[depth] == end[depth]:
            depth -= 1
            continue
        k = flat[pos[depth]]
        pos[depth] += 1
        seq[depth] = k
        acc[depth] = acc[depth - 1] + digit[k]
        depth += 1
        s = seq[depth - 2] * n + seq[depth - 1]
        pos[depth] = start[s]
        end[depth] = start[s + 1]
    return found


@njit(cache=True)
def unruly_cube(a, b, rows, n, start, flat, last_digit, digit, offset, hist):
    """Unruly grids whose middle rows are ``a`` (row h-1) and ``b`` (row h): the top halves go
    into a key histogram (``hist``, any contents), each bottom half then adds the top halves
    that complete it (a bottom key index i completes the top key index keys - 1 - i)."""
    free = rows // 2 - 1
    hist[:] = 0
    _half_keys(a, b, free, n, start, flat, last_digit, digit, offset, hist, False)
    return _half_keys(b, a, free, n, start, flat, last_digit, digit, offset, hist, True)


# -- takuzu: halves with their partition and rows, then counting within each key ---------------


@njit(cache=True)
def _part_of(key, parts):
    """The part of the keys a key falls in: a hash of the key modulo ``parts`` (the key itself
    would not do: a side's keys all have the same parity, their digits summing to a constant)."""
    h = key * np.int64(-7046029254386353131)
    return ((h ^ (h >> 29)) & 0x7FFFFFFFFFFF) % parts


@njit(cache=True)
def _takuzu_halves(
    first,
    before,
    free,
    n,
    start,
    flat,
    digit,
    offset,
    eqpairs,
    words,
    mode,
    rec,
    bits,
    parts,
    part,
    flip,
    nkeys,
    slot_of,
    seen,
    at,
):
    """Enumerate the takuzu halves ``first, r1, .., r_free`` (no row twice, neither ``first``
    nor ``before`` again) whose key k (``flip``: nkeys - 1 - k, the key they complete; their
    order key) falls in part ``part`` of ``parts`` (``_part_of``).  Returns how many there are,
    and (mode 1) the slots given.

    mode 0: only that.  Mode 1: also the halves per order key: slot_of[key] gets a slot (in
    order of first appearance; ``seen``: the slots' keys, ``at``: the halves per slot).
    Mode 2: each half stored at at[slot_of[key]] (then advanced) as a record of ``rec``: its
    equal column pairs (two words) and its rows, sorted, packed ``bits`` each from the lowest
    (one record, one cache line written, where three arrays took three)."""
    seq = np.empty(free + 2, np.int64)
    pos = np.zeros(free + 2, np.int64)
    end = np.zeros(free + 2, np.int64)
    srt = np.zeros(max(free, 1), np.int64)
    taken = np.zeros(words, np.int64)
    taken[first >> 6] |= np.int64(1) << (first & 63)
    taken[before >> 6] |= np.int64(1) << (before & 63)
    seq[0] = before
    seq[1] = first
    count = 0
    slots = 0
    depth = 2
    if free > 0:
        s = seq[0] * n + seq[1]
        pos[2] = start[s]
        end[2] = start[s + 1]
    while depth >= 2 or free == 0:
        if free > 0:
            if pos[depth] == end[depth]:
                depth -= 1
                if depth >= 2:
                    k = seq[depth]
                    taken[k >> 6] &= ~(np.int64(1) << (k & 63))
                continue
            k = flat[pos[depth]]
            pos[depth] += 1
            if (taken[k >> 6] >> (k & 63)) & 1:
                continue
            seq[depth] = k
        if free == 0 or depth == free + 1:
            if parts > 1 or mode > 0:  # the half's key, summed once for both uses
                key = digit[first] - offset
                for d in range(2, free + 2):
                    key += digit[seq[d]]
                if flip:
                    key = nkeys - 1 - key
                if parts > 1 and _part_of(key, parts) != part:
                    if free == 0:  # the one half (no rows to enumerate) is not in this part
                        break
                    continue
            if mode == 1:
                slot = slot_of[key]
                if slot < 0:
                    slot = slots
                    slot_of[key] = slot
                    seen[slot] = key
                    at[slot] = 0
                    slots += 1
                at[slot] += 1
            elif mode == 2:
                y = at[slot_of[key]]
                at[slot_of[key]] = y + 1
                p0 = eqpairs[first, 0]
                p1 = eqpairs[first, 1]
                for d in range(2, free + 2):
                    r = seq[d]
                    p0 &= eqpairs[r, 0]
                    p1 &= eqpairs[r, 1]
                    # insertion into the sorted list of rows
                    i = d - 2
                    while i > 0 and srt[i - 1] > r:
                        srt[i] = srt[i - 1]
                        i -= 1
                    srt[i] = r
                code = np.int64(0)
                for d in range(free - 1, -1, -1):
                    code = (code << bits) | srt[d]
                rec[y, 0] = p0
                rec[y, 1] = p1
                rec[y, 2] = code
            count += 1
            if free == 0:
                break
            continue
        taken[k >> 6] |= np.int64(1) << (k & 63)
        depth += 1
        s = seq[depth - 2] * n + seq[depth - 1]
        pos[depth] = start[s]
        end[depth] = start[s + 1]
    return count, slots


@njit(cache=True)
def _key_sizes(first, before, free, n, start, flat, digit, offset, eqpairs, words, flip, nkeys, slot_of):
    """A side's halves per order key (``flip``: nkeys - 1 - key, the key they complete), in one
    pass for all parts: slot_of[key] gets a slot (-1 everywhere on entry; the caller sets it
    back); the slots' keys, the halves per slot, the number of slots and of halves."""
    e3 = np.empty((0, 3), np.int64)
    seen = np.empty(nkeys, np.int64)
    size = np.empty(nkeys, np.int64)
    m, slots = _takuzu_halves(
        first,
        before,
        free,
        n,
        start,
        flat,
        digit,
        offset,
        eqpairs,
        words,
        1,
        e3,
        8,
        1,
        0,
        flip,
        nkeys,
        slot_of,
        seen,
        size,
    )
    return seen, size, slots, m


@njit(cache=True)
def _collect_takuzu(
    first,
    before,
    free,
    n,
    start,
    flat,
    digit,
    offset,
    eqpairs,
    words,
    parts,
    part,
    flip,
    nkeys,
    slot_of,
    seen,
    size,
    slots,
    bits,
):
    """The halves of one part (see ``_takuzu_halves``) sorted by order key: the part's distinct
    keys in order, where each one's halves begin (and the end), the halves' records (equal
    pairs, rows packed ``bits`` each).  A counting sort over the keys that occur (dense keys;
    ``slot_of``, ``seen``, ``size``, ``slots``: ``_key_sizes``), the halves placed as they are
    enumerated: linear, where a comparison sort of 1e7 halves is not, and no copy."""
    mine = np.empty(slots, np.int64)
    k = 0
    for x in range(slots):
        if parts == 1 or _part_of(seen[x], parts) == part:
            mine[k] = seen[x]
            k += 1
    order = np.sort(mine[:k])
    bounds = np.empty(k + 1, np.int64)
    at = np.empty(slots, np.int64)  # where the next half of a slot goes
    filled = 0
    for x in range(k):
        slot = slot_of[order[x]]
        bounds[x] = filled
        at[slot] = filled
        filled += size[slot]
    bounds[k] = filled
    rec = np.empty((filled, 3), np.int64)
    _takuzu_halves(
        first,
        before,
        free,
        n,
        start,
        flat,
        digit,
        offset,
        eqpairs,
        words,
        2,
        rec,
        bits,
        parts,
        part,
        flip,
        nkeys,
        slot_of,
        seen,
        at,
    )
    return order, bounds, rec


# Halves with the same rows in another order have the same key and partition: one record
# with a multiplicity (at most MOST_MULT: it rides in the low MULT_BITS bits of a depth-first
# entry's partition number).
MULT_BITS = 8
MOST_MULT = (1 << MULT_BITS) - 1


@njit(cache=True)
def _merge_same_rows(rec, bounds):
    """The records of each key group (``bounds``) with equal rows merged into one, in place:
    the records left, moved down to stay contiguous, new bounds, and each record's
    multiplicity (at most ``MOST_MULT``: a record full starts another).  By hashing the rows'
    word within a group (the rows fix the key and the partition)."""
    groups = bounds.shape[0] - 1
    most = 1
    for g in range(groups):
        most = max(most, bounds[g + 1] - bounds[g])
    size = 1
    while size < 2 * most:
        size *= 2
    table = np.zeros((size, 2), np.int64)  # per slot: rows' word, record number + 1 (0 free)
    mult = np.empty(rec.shape[0], np.int32)
    out = np.empty(groups + 1, np.int64)
    w = 0
    for g in range(groups):
        i, i2 = bounds[g], bounds[g + 1]
        out[g] = w
        m = 1
        while m < 2 * (i2 - i):
            m *= 2
        mask = m - 1
        table[:m, 1] = 0
        for x in range(i, i2):
            code = rec[x, 2]
            h = code * np.int64(-7046029254386353131)
            s = (h ^ (h >> 29)) & mask
            while True:
                v = table[s, 1]
                if v == 0:
                    break
                if table[s, 0] == code:
                    break
                s = (s + 1) & mask
            if v != 0 and mult[v - 1] < MOST_MULT:
                mult[v - 1] += 1
                continue
            rec[w, 0] = rec[x, 0]
            rec[w, 1] = rec[x, 1]
            rec[w, 2] = code
            mult[w] = 1
            w += 1
            table[s, 0] = code
            table[s, 1] = w
    out[groups] = w
    return rec[:w], out, mult[:w]


@njit(cache=True)
def _unpack_rows(rec, i, i2, free, bits):
    """The rows of the records i..i2 (packed ``bits`` each), one half a line (int16)."""
    rows = np.zeros((i2 - i, max(free, 1)), np.int16)
    low = (np.int64(1) << bits) - 1
    for x in range(i, i2):
        code = rec[x, 2]
        for d in range(free):
            rows[x - i, d] = code & low
            code >>= bits
    return rows


@njit(cache=True)
def _row_sets(rec, i, i2, free, bits, words):
    """The rows of the records i..i2 (packed ``bits`` each) as bitsets."""
    used = np.zeros((i2 - i, words), np.int64)
    low = (np.int64(1) << bits) - 1
    for x in range(i, i2):
        code = rec[x, 2]
        for _ in range(free):
            r = code & low
            used[x - i, r >> 6] |= np.int64(1) << (r & 63)
            code >>= bits
    return used


@njit(cache=True)
def _pairs_one_by_one(tp, tm, i, i2, bp, bm, j, j2, free, bits, words):
    """Pairs of one key group with no equal column pair and no row in common, tested one by one
    (``tp``/``bp``: the records, equal pairs then rows; ``tm``/``bm``: their multiplicities)."""
    tu = _row_sets(tp, i, i2, free, bits, words)
    bu = _row_sets(bp, j, j2, free, bits, words)
    found = np.int64(0)
    for x in range(i, i2):
        here = np.int64(0)
        for y in range(j, j2):
            if (tp[x, 0] & bp[y, 0]) != 0 or (tp[x, 1] & bp[y, 1]) != 0:
                continue
            clash = 0
            for w in range(words):
                clash |= tu[x - i, w] & bu[y - j, w]
            if clash == 0:
                here += bm[y]
        found += np.int64(tm[x]) * here
    return found


@njit(cache=True)
def _shared_rows(rows, x, free, present, kept):
    """The rows of half x that the other side uses too, into ``kept``; how many."""
    m = 0
    for d in range(free):
        r = np.int64(rows[x, d])
        if (present[r >> 6] >> (r & 63)) & 1:
            kept[m] = r
            m += 1
    return m


@njit(cache=True)
def _together(kept, sub_flat, s, k, together):
    """Whether every two rows of the subset at ``s`` are used together by some other-side half
    (else no other-side half uses the whole subset: it cannot be shared)."""
    for e in range(k):
        for f in range(e + 1, k):
            if not together[kept[sub_flat[s + e]], kept[sub_flat[s + f]]]:
                return False
    return True


@njit(cache=True)
def _mark_together(rows, i, i2, free, together, value):
    """together[r, s] = value for every two rows some half of rows[i:i2] uses."""
    for x in range(i, i2):
        for d in range(free):
            for e in range(d + 1, free):
                r = rows[x, d]
                q = rows[x, e]
                together[r, q] = value
                together[q, r] = value


@njit(cache=True)
def _runs(codes, pid_bits):
    """Runs of equal codes: (subset part, partition id, multiplicity) per distinct code."""
    m = codes.shape[0]
    sub = np.empty(m, np.int64)
    part = np.empty(m, np.int64)
    mult = np.empty(m, np.int64)
    low = (np.int64(1) << pid_bits) - 1
    d = -1
    for x in range(m):
        if d >= 0 and codes[x] == codes[x - 1]:
            mult[d] += 1
        else:
            d += 1
            sub[d] = codes[x] >> pid_bits
            part[d] = codes[x] & low
            mult[d] = 1
    return sub[: d + 1], part[: d + 1], mult[: d + 1]


@njit(cache=True)
def _insert_partition(table, count, p0, p1):
    """The number of the partition with equal-pair words (p0, p1) in the open-addressing
    ``table`` (rows: p0, p1, number + 1; 0 free); a new one gets number ``count``.  Returns the
    number and whether it is new."""
    mask = table.shape[0] - 1
    h = p0 * np.int64(-7046029254386353131) ^ p1 * np.int64(-4658895280553007687)
    x = (h ^ (h >> 31)) & mask
    while True:
        v = table[x, 2]
        if v == 0:
            table[x, 0] = p0
            table[x, 1] = p1
            table[x, 2] = count + 1
            return count, True
        if table[x, 0] == p0 and table[x, 1] == p1:
            return v - 1, False
        x = (x + 1) & mask


@njit(cache=True)
def _intern_partitions(tp, bp):
    """One number per distinct partition of the columns (its equal-pair words) over both sides
    of a cube, by hashing: each half's number, and each number's words."""
    table = np.zeros((1 << 16, 3), np.int64)
    count = 0
    tpid = np.empty(tp.shape[0], np.int64)
    bpid = np.empty(bp.shape[0], np.int64)
    for side in range(2):
        p = tp if side == 0 else bp
        out = tpid if side == 0 else bpid
        for x in range(p.shape[0]):
            if 2 * (count + 1) > table.shape[0]:  # half full: twice the room, numbers kept
                old = table
                table = np.zeros((2 * old.shape[0], 3), np.int64)
                for y in range(old.shape[0]):
                    if old[y, 2]:
                        _insert_partition(table, old[y, 2] - 1, old[y, 0], old[y, 1])
            number, new = _insert_partition(table, count, p[x, 0], p[x, 1])
            count += new
            out[x] = number
    w0 = np.empty(count, np.int64)
    w1 = np.empty(count, np.int64)
    for y in range(table.shape[0]):
        if table[y, 2]:
            w0[table[y, 2] - 1] = table[y, 0]
            w1[table[y, 2] - 1] = table[y, 1]
    return tpid, bpid, w0, w1


@njit(cache=True)
def _subset_codes(
    rows, i, i2, present, together, pid, pid_from, pid_bits, row_bits, free, sub_start, sub_flat, binom
):
    """For every half of rows[i:i2] and every set S of its rows that the other side uses (all
    pairs of S used together by some other-side half, else no other-side half holds S), the
    code (S, partition number pid[x - pid_from]): codes with |S| = k at
    out[base[k]:base[k] + size[k]], sorted."""
    m = i2 - i
    base = np.zeros(free + 2, np.int64)
    for k in range(free + 1):
        base[k + 1] = base[k] + m * binom[k]
    out = np.empty(base[free + 1], np.int64)
    size = np.zeros(free + 1, np.int64)
    kept = np.empty(max(free, 1), np.int64)
    for x in range(i, i2):
        shared = _shared_rows(rows, x, free, present, kept)
        number = pid[x - pid_from]
        out[base[0] + size[0]] = number
        size[0] += 1
        for k in range(1, shared + 1):
            for s in range(sub_start[shared, k], sub_start[shared, k + 1], k):
                if k >= 2 and not _together(kept, sub_flat, s, k, together):
                    continue
                code = np.int64(0)
                for e in range(k):
                    code = (code << row_bits) | kept[sub_flat[s + e]]
                out[base[k] + size[k]] = (code << pid_bits) | number
                size[k] += 1
    for k in range(free + 1):
        _sort_codes(out[base[k] : base[k] + size[k]], k * row_bits + pid_bits)
    return out, base, size


RADIX_BITS = 11


@njit(cache=True)
def _sort_codes(codes, bits):
    """Sort non-negative ``codes`` below 2^bits in place: a least-significant-digit radix sort
    (11 bits a pass) where there are many, a comparison sort where there are few."""
    m = codes.shape[0]
    if m < 4096:
        codes.sort()
        return
    digits = 1 << RADIX_BITS
    other = np.empty(m, np.int64)
    src = codes
    dst = other
    count = np.empty(digits + 1, np.int64)
    shift = 0
    while shift < bits:
        count[:] = 0
        for x in range(m):
            count[((src[x] >> shift) & (digits - 1)) + 1] += 1
        for d in range(digits):
            count[d + 1] += count[d]
        for x in range(m):
            d = (src[x] >> shift) & (digits - 1)
            dst[count[d]] = src[x]
            count[d] += 1
        src, dst = dst, src
        shift += RADIX_BITS
    if src is not codes:  # an odd number of passes: the sorted codes are in the other array
        codes[:] = src


@njit(cache=True)
def _group_by_inclusion_exclusion(
    tpid,
    trows,
    i,
    i2,
    bpid,
    brows,
    j,
    j2,
    w0,
    w1,
    pid_bits,
    free,
    words,
    row_bits,
    sub_start,
    sub_flat,
    binom,
    ttogether,
    btogether,
    code_bits,
):
    """Pairs of one key group without an equal column pair in both or a row in both, counted:
    sum over k of (-1)^k * (pairs sharing a k-set S of rows, with discrete partition meet).
    ``tpid``/``bpid``: each half's partition number, ``w0``/``w1`` each number's words; a code
    (a set of rows, a partition number) has ``code_bits`` bits at most."""
    tfrom, bfrom = 0, 0  # tpid[x - tfrom] is half x's number
    if free * row_bits + pid_bits > code_bits:  # too many partitions in the cube: number anew
        numbers = np.unique(np.concatenate((tpid[i:i2], bpid[j:j2])))  # the group's
        tpid = np.searchsorted(numbers, tpid[i:i2])
        bpid = np.searchsorted(numbers, bpid[j:j2])
        tfrom, bfrom = i, j
        w0 = w0[numbers]
        w1 = w1[numbers]
        pid_bits = 1
        while (np.int64(1) << pid_bits) < numbers.shape[0]:
            pid_bits += 1
    # the rows each side uses: only rows used on the other side can be shared
    tpresent = np.zeros(words, np.int64)
    bpresent = np.zeros(words, np.int64)
    for x in range(i, i2):
        for d in range(free):
            r = np.int64(trows[x, d])
            tpresent[r >> 6] |= np.int64(1) << (r & 63)
    for y in range(j, j2):
        for d in range(free):
            r = np.int64(brows[y, d])
            bpresent[r >> 6] |= np.int64(1) << (r & 63)
    # pairs of rows each side uses together: a set of rows is shared only if all its pairs are
    _mark_together(trows, i, i2, free, ttogether, True)
    _mark_together(brows, j, j2, free, btogether, True)
    tcodes, tbase, tsize = _subset_codes(
        trows, i, i2, bpresent, btogether, tpid, tfrom, pid_bits, row_bits, free, sub_start, sub_flat, binom
    )
    bcodes, bbase, bsize = _subset_codes(
        brows, j, j2, tpresent, ttogether, bpid, bfrom, pid_bits, row_bits, free, sub_start, sub_flat, binom
    )
    total = np.int64(0)
    sign = 1
    for k in range(free + 1):
        ts, tq, tm = _runs(tcodes[tbase[k] : tbase[k] + tsize[k]], pid_bits)
        bs, bq, bm = _runs(bcodes[bbase[k] : bbase[k] + bsize[k]], pid_bits)
        x = 0
        y = 0
        term = np.int64(0)
        common = 0
        while x < ts.shape[0] and y < bs.shape[0]:
            if ts[x] < bs[y]:
                x += 1
            elif ts[x] > bs[y]:
                y += 1
            else:
                x2 = x
                while x2 < ts.shape[0] and ts[x2] == ts[x]:
                    x2 += 1
                y2 = y
                while y2 < bs.shape[0] and bs[y2] == bs[y]:
                    y2 += 1
                common += 1
                for u in range(x, x2):
                    p0 = w0[tq[u]]
                    p1 = w1[tq[u]]
                    found = np.int64(0)
                    for v in range(y, y2):
                        if (p0 & w0[bq[v]]) == 0 and (p1 & w1[bq[v]]) == 0:
                            found += bm[v]
                    term += tm[u] * found
                x = x2
                y = y2
        total += sign * term
        sign = -sign
        if common == 0:
            break  # no shared k-set: no shared larger set either
    _mark_together(trows, i, i2, free, ttogether, False)  # all False again for the next group
    _mark_together(brows, j, j2, free, btogether, False)
    return total


# -- takuzu: the shared-row sets visited depth first -------------------------------------------
#
# The codes above are made for every half and every k-set of its shared rows, then sorted: most
# of a 12x12 cube's time, and most of the k = 3..5 codes find no partner on the other side.
# Depth first instead: a node is a set S = {r1 < r2 < ..} with the top and bottom halves that
# use every row of S, each as an entry: its rows above max S (packed, ``row_bits`` each, their
# number in the low 3 bits) and its partition number, all the node needs; a node's children
# S + {r}, r > max S, are made by one counting sort of its entries by their rows, and only for
# rows both sides' entries hold: no node where a side is empty.  Below a node with few halves
# the rest of the sum is counted pair by pair: for the pairs (t, b) that both use S, the sum
# over the extensions S + Y (Y within the shared rows above max S) of (-1)^|Y| is 1 when they
# share no row above max S, else 0.


@njit(cache=True)
def _entry_rows(code, row_bits, out, k):
    """The rows of an entry (``code``) as a bitset, into out[:, k] (zeroed first)."""
    for w in range(out.shape[0]):
        out[w, k] = 0
    low = (np.int64(1) << row_bits) - 1
    rest = code >> 3
    for _ in range(code & 7):
        r = rest & low
        out[r >> 6, k] |= np.int64(1) << (r & 63)
        rest >>= row_bits


@njit(cache=True)
def _node_pairs(tcode, tpid, t0, t1, bcode, bpid, b0, b1, w0, w1, row_bits, gp0, gp1, gw, gu, tu):
    """The pairs of a node (entries t0:t1 and b0:b1) without an equal column pair in both and
    without a row in both above max S, tested one by one (a pair counts the product of its
    entries' multiplicities): the node's whole subtree.  gp0, gp1, gw, gu: room for the bottom
    entries' partition words, multiplicities and row bitsets (4 words, or more: a loop over
    them), ``tu`` for a top entry's (one column)."""
    nb = b1 - b0
    W = gu.shape[0]
    for k in range(nb):
        q = bpid[b0 + k] >> MULT_BITS
        gp0[k] = w0[q]
        gp1[k] = w1[q]
        gw[k] = bpid[b0 + k] & MOST_MULT
        _entry_rows(bcode[b0 + k], row_bits, gu, k)
    found = np.int64(0)
    for e in range(t0, t1):
        q = tpid[e] >> MULT_BITS
        p0 = w0[q]
        p1 = w1[q]
        _entry_rows(tcode[e], row_bits, tu, 0)
        here = np.int64(0)
        if W == 4:
            u0, u1, u2, u3 = tu[0, 0], tu[1, 0], tu[2, 0], tu[3, 0]
            c0, c1, c2, c3 = gu[0, :nb], gu[1, :nb], gu[2, :nb], gu[3, :nb]
            f0, f1, fw = gp0[:nb], gp1[:nb], gw[:nb]
            for k in range(nb):
                here += (
                    fw[k]
                    if (
                        (p0 & f0[k])
                        | (p1 & f1[k])
                        | (u0 & c0[k])
                        | (u1 & c1[k])
                        | (u2 & c2[k])
                        | (u3 & c3[k])
                    )
                    == 0
                    else 0
                )
        else:
            for k in range(nb):
                clash = (p0 & gp0[k]) | (p1 & gp1[k])
                for w in range(W):
                    clash |= tu[w, 0] & gu[w, k]
                here += gw[k] if clash == 0 else 0
        found += (tpid[e] & MOST_MULT) * here
    return found


ONES = np.int64(0x0101010101010101)
HIGHS = np.int64(-0x7F7F7F7F7F7F7F80)  # 0x8080808080808080


@njit(cache=True)
def _bytes(code, pad):
    """An entry's rows (8 bits each, at most 4) as the bytes of 32 bits, ``pad`` in the others."""
    c = code & 7
    return ((code >> 3) & 0xFFFFFFFF) | ((np.int64(0xFFFFFFFF) << (8 * c)) & 0xFFFFFFFF & pad)


@njit(cache=True)
def _node_pairs_bytes(acode, apid, a0, a1, bcode, bpid, b0, b1, w0, w1, gp0, gp1, gw, gb):
    """``_node_pairs`` for entries of at most 4 rows below 255 (8 bits each: ``row_bits`` 8),
    without row bitsets: a bottom entry's rows are the 4 bytes of a word, twice; a top
    entry's rows each fill 4 bytes, two rows a word; a row in both makes a byte 0 (the "has a
    zero byte" test on the XOR).  Unused bytes: 0xFF bottom, 0xFE top, never equal.  The
    larger side is the inner loop (either side may be ``a``).  A pair counts the product of
    its entries' multiplicities (``gw``: room for the bottom ones)."""
    nb = b1 - b0
    for k in range(nb):
        q = bpid[b0 + k] >> MULT_BITS
        gp0[k] = w0[q]
        gp1[k] = w1[q]
        gw[k] = bpid[b0 + k] & MOST_MULT
        p = _bytes(bcode[b0 + k], 0xFFFFFFFF)
        gb[k] = p | (p << 32)
    f0, f1, fw, fb = gp0[:nb], gp1[:nb], gw[:nb], gb[:nb]
    found = np.int64(0)
    for e in range(a0, a1):
        q = apid[e] >> MULT_BITS
        p0 = w0[q]
        p1 = w1[q]
        p = _bytes(acode[e], 0xFEFEFEFE)
        u = ((p & 0xFF) | ((p & 0xFF00) << 24)) * 0x01010101  # rows 1 and 2, 4 bytes each
        v = (((p >> 16) & 0xFF) | ((p >> 24) << 32)) * 0x01010101  # rows 3 and 4
        here = np.int64(0)
        for k in range(nb):
            x = u ^ fb[k]
            y = v ^ fb[k]
            zero = ((x - ONES) & ~x) | ((y - ONES) & ~y)
            here += fw[k] if ((p0 & f0[k]) | (p1 & f1[k]) | (zero & HIGHS)) == 0 else 0
        found += (apid[e] & MOST_MULT) * here
    return found


@njit(cache=True)
def _node_partitions(tpid, t0, t1, bpid, b0, b1, w0, w1, tmult, bmult, tdist, bdist, gp0, gp1, gm):
    """The pairs of a node's halves whose partitions meet in the discrete partition, tested
    between distinct partitions with their multiplicities (the sums of their entries';
    ``tmult``/``bmult``: 0 per partition on entry and on return)."""
    nt = 0
    for e in range(t0, t1):
        q = tpid[e] >> MULT_BITS
        if tmult[q] == 0:
            tdist[nt] = q
            nt += 1
        tmult[q] += tpid[e] & MOST_MULT
    nb = 0
    for e in range(b0, b1):
        q = bpid[e] >> MULT_BITS
        if bmult[q] == 0:
            bdist[nb] = q
            nb += 1
        bmult[q] += bpid[e] & MOST_MULT
    for v in range(nb):
        q = bdist[v]
        gp0[v] = w0[q]
        gp1[v] = w1[q]
        gm[v] = bmult[q]
        bmult[q] = 0
    f0, f1, fm = gp0[:nb], gp1[:nb], gm[:nb]
    term = np.int64(0)
    for u in range(nt):
        q = tdist[u]
        p0 = w0[q]
        p1 = w1[q]
        found = np.int64(0)
        for v in range(nb):
            found += fm[v] if ((p0 & f0[v]) | (p1 & f1[v])) == 0 else 0
        term += tmult[q] * found
        tmult[q] = 0
    return term


@njit(cache=True)
def _count_rows(code, e0, e1, row_bits, cnt, other, touched, seen):
    """Count the rows of entries e0:e1 in ``cnt``; rows new to both counts into ``touched``."""
    low = (np.int64(1) << row_bits) - 1
    for e in range(e0, e1):
        rest = code[e] >> 3
        for _ in range(code[e] & 7):
            r = rest & low
            if cnt[r] == 0 and other[r] == 0:
                touched[seen] = r
                seen += 1
            cnt[r] += 1
            rest >>= row_bits
    return seen


@njit(cache=True)
def _place_rows(code, pid, e0, e1, row_bits, other, off, side, ccode, cpid):
    """Each entry of e0:e1 into the child of each of its rows that the other side holds too
    (``off[r, side]``: where its next entry goes), with the rows above r."""
    low = (np.int64(1) << row_bits) - 1
    for e in range(e0, e1):
        c = code[e] & 7
        rest = code[e] >> 3
        for k in range(c):
            r = rest & low
            rest >>= row_bits
            if other[r] > 0:
                at = off[r, side]
                ccode[at] = (rest << 3) | (c - 1 - k)
                cpid[at] = pid[e]
                off[r, side] = at + 1


@njit(cache=True)
def _node_children(
    tcode,
    tpid,
    bcode,
    bpid,
    level,
    t0,
    t1,
    b0,
    b1,
    row_bits,
    tcnt,
    bcnt,
    off,
    touched,
    kid_row,
    kid_t,
    kid_b,
    lo,
):
    """The children of a node at ``level`` (entries t0:t1 and b0:b1): its entries
    counting-sorted into level + 1 (from lo[level + 1] on) by each of their rows, only for the
    rows both sides hold; each child's row and entry ranges into kid_row, kid_t, kid_b (at
    level + 1).  Returns the number of children."""
    seen = _count_rows(tcode, t0, t1, row_bits, tcnt, bcnt, touched, 0)
    seen = _count_rows(bcode, b0, b1, row_bits, bcnt, tcnt, touched, seen)
    kids = 0
    child = level + 1
    tat = lo[child]
    bat = lo[child]
    for s in range(seen):
        r = touched[s]
        if tcnt[r] > 0 and bcnt[r] > 0:
            kid_row[child, kids] = r
            kid_t[child, kids] = tat
            kid_b[child, kids] = bat
            off[r, 0] = tat
            off[r, 1] = bat
            tat += tcnt[r]
            bat += bcnt[r]
            kids += 1
    kid_t[child, kids] = tat
    kid_b[child, kids] = bat
    _place_rows(tcode, tpid, t0, t1, row_bits, bcnt, off, 0, tcode, tpid)
    _place_rows(bcode, bpid, b0, b1, row_bits, tcnt, off, 1, bcode, bpid)
    for s in range(seen):
        r = touched[s]
        tcnt[r] = 0
        bcnt[r] = 0
    return kids


@njit(cache=True)
def _depth_first_room(free, words, n, most):
    """``_group_depth_first``'s buffers for key groups of at most ``most`` halves a side, made
    once per cube (fresh pages for every group cost more than the entries written there)."""
    W = max(words, 4)
    # entries of the levels one after another: the root's, then up to free + 1 - L rows of
    # each entry of one node at level L - 1
    width = most * (1 + free * (free + 1) // 2)
    return (
        np.empty(width, np.int64),
        np.empty(width, np.int32),
        np.empty(width, np.int64),
        np.empty(width, np.int32),
        np.empty(most, np.int64),
        np.empty(most, np.int64),
        np.empty(most, np.int64),
        np.empty(most, np.int64),
        np.empty(most, np.int64),
        np.empty(most, np.int64),
        np.zeros((W, most), np.int64),
        np.zeros((W, 1), np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.empty((n, 2), np.int64),
        np.empty(n, np.int64),
        np.empty((free + 1, n), np.int64),
        np.empty((free + 1, n + 1), np.int64),
        np.empty((free + 1, n + 1), np.int64),
    )


@njit(cache=True)
def _group_depth_first(
    tpid, trec, tm, i, i2, bpid, brec, bm, j, j2, w0, w1, free, row_bits, tmult, bmult, direct, in_bytes, room
):
    """Pairs of one key group without an equal column pair in both or a row in both, counted
    as ``_group_by_inclusion_exclusion`` does, the sets S of shared rows visited depth first
    (see above).  A node is counted pair by pair (with its subtree) when that takes at most
    ``direct`` tests per half; ``tmult``/``bmult``: one 0 per partition number (0 on return);
    ``in_bytes``: the pairs tested on rows as bytes (``_node_pairs_bytes``; ``row_bits``
    8, at most 4 rows above the first); ``room``: ``_depth_first_room`` for groups at least
    this big; ``tm``/``bm``: the records' multiplicities, carried in the low ``MULT_BITS``
    bits of the entries' partition numbers."""
    nt = i2 - i
    nb = j2 - j
    # entries per level (rows, partition number); distinct partitions, gathered bottom
    # entries, a top entry's rows; row counts and the children per level
    (
        tcode,
        tp,
        bcode,
        bp,
        tdist,
        bdist,
        gp0,
        gp1,
        gm,
        gw,
        gu,
        tu,
        tcnt,
        bcnt,
        off,
        touched,
        kid_row,
        kid_t,
        kid_b,
    ) = room
    most = tdist.shape[0]
    lo = np.empty(free + 2, np.int64)  # where each level's entries begin
    lo[0] = 0
    lo[1] = most
    for level in range(1, free + 1):
        lo[level + 1] = lo[level] + (free + 1 - level) * most
    for x in range(nt):  # the records' rows are packed ``row_bits`` each, as entries' are
        tcode[x] = (trec[i + x, 2] << 3) | free
        tp[x] = (tpid[i + x] << MULT_BITS) | np.int64(tm[i + x])
    for y in range(nb):
        bcode[y] = (brec[j + y, 2] << 3) | free
        bp[y] = (bpid[j + y] << MULT_BITS) | np.int64(bm[j + y])
    nkids = np.zeros(free + 1, np.int64)
    at = np.zeros(free + 1, np.int64)  # the next child to visit per level
    # the root: S empty, every half of the group
    total = _node_partitions(tp, 0, nt, bp, 0, nb, w0, w1, tmult, bmult, tdist, bdist, gp0, gp1, gm)
    if free == 0:
        return total
    nkids[1] = _node_children(
        tcode, tp, bcode, bp, 0, 0, nt, 0, nb, row_bits, tcnt, bcnt, off, touched, kid_row, kid_t, kid_b, lo
    )
    level = 1
    while level >= 1:
        if at[level] == nkids[level]:
            level -= 1
            continue
        k = at[level]
        at[level] = k + 1
        t0, t1 = kid_t[level, k], kid_t[level, k + 1]
        b0, b1 = kid_b[level, k], kid_b[level, k + 1]
        ct = t1 - t0
        cb = b1 - b0
        whole = level < free and ct * cb <= direct * (ct + cb)  # the subtree pair by pair
        if whole and in_bytes:
            if ct <= cb:
                term = _node_pairs_bytes(tcode, tp, t0, t1, bcode, bp, b0, b1, w0, w1, gp0, gp1, gw, gm)
            else:
                term = _node_pairs_bytes(bcode, bp, b0, b1, tcode, tp, t0, t1, w0, w1, gp0, gp1, gw, gm)
        elif whole:
            term = _node_pairs(tcode, tp, t0, t1, bcode, bp, b0, b1, w0, w1, row_bits, gp0, gp1, gw, gu, tu)
        else:
            term = _node_partitions(tp, t0, t1, bp, b0, b1, w0, w1, tmult, bmult, tdist, bdist, gp0, gp1, gm)
        total += term if level % 2 == 0 else -term  # sign (-1)^|S|
        if level < free and not whole:
            nkids[level + 1] = _node_children(
                tcode,
                tp,
                bcode,
                bp,
                level,
                t0,
                t1,
                b0,
                b1,
                row_bits,
                tcnt,
                bcnt,
                off,
                touched,
                kid_row,
                kid_t,
                kid_b,
                lo,
            )
            at[level + 1] = 0
            level += 1
    return total


# A key group is counted pair by pair while that costs less than this many tests per half.
ONE_BY_ONE = 48
# Depth first, a node's subtree is counted pair by pair while that costs at most this many
# tests per half.
DIRECT = 48
# The most halves of a side held at once (about 60 bytes each while sorting: ~0.7 GB).
MOST_HALVES = 12_000_000
# The same for the counting join: a half is a record of 24 bytes, a partition number of 8 and
# a multiplicity of 4 (~0.9 GB a side at most).
MOST_RECORDS = 24_000_000


@njit(cache=True)
def takuzu_cube(
    a,
    b,
    rows,
    cols,
    n,
    start,
    flat,
    digit,
    offset,
    keys,
    eqpairs,
    words,
    row_bits,
    sub_start,
    sub_flat,
    one_by_one,
    most,
    slot_of,
    code_bits,
    depth_first,
    direct,
    in_bytes,
):
    """Takuzu grids whose middle rows are ``a`` (row h-1) and ``b`` (row h).  A key group is
    joined pair by pair when that takes at most ``one_by_one`` tests per half.  The keys are
    split into parts (by a hash of the key, ``_part_of``) so that a part holds about ``most``
    halves of a side at most: a cube with many halves is enumerated once per part instead of
    being held whole (12x12 cubes have 4e6 to 1e8 halves a side).  The other key groups are
    counted by inclusion-exclusion over the shared rows: ``depth_first`` (with ``direct`` and
    ``in_bytes``, see ``_group_depth_first``) or by sorted codes
    (``_group_by_inclusion_exclusion``)."""
    free = rows // 2 - 1
    # the halves per key of each side (the bottom halves by the top key each completes)
    bslot_of = np.full(keys, -1, np.int32)
    tseen, tsize, tslots, tm = _key_sizes(
        a, b, free, n, start, flat, digit, offset, eqpairs, words, False, keys, slot_of
    )
    bseen, bsize, bslots, bm = _key_sizes(
        b, a, free, n, start, flat, digit, offset, eqpairs, words, True, keys, bslot_of
    )
    parts = max(1, (max(tm, bm) + most - 1) // most)
    ttogether = np.zeros((n, n), np.bool_)
    btogether = np.zeros((n, n), np.bool_)
    binom = np.empty(free + 1, np.int64)  # C(free, k): the most k-sets of rows a half has
    binom[0] = 1
    for k in range(1, free + 1):
        binom[k] = binom[k - 1] * (free - k + 1) // k
    total = np.int64(0)
    # the halves' rows packed in their records (and depth-first entries): 8 bits each where
    # they are tested as bytes
    bits = 8 if in_bytes else row_bits
    room_for = 1  # the depth-first join's buffers, for key groups of this many halves a side
    room = _depth_first_room(free, words, n, room_for)
    for part in range(parts):
        tk, ti, tp = _collect_takuzu(
            a,
            b,
            free,
            n,
            start,
            flat,
            digit,
            offset,
            eqpairs,
            words,
            parts,
            part,
            False,
            keys,
            slot_of,
            tseen,
            tsize,
            tslots,
            bits,
        )
        bk, bj, bp = _collect_takuzu(
            b,
            a,
            free,
            n,
            start,
            flat,
            digit,
            offset,
            eqpairs,
            words,
            parts,
            part,
            True,
            keys,
            bslot_of,
            bseen,
            bsize,
            bslots,
            bits,
        )
        if depth_first:  # halves with the same rows in another order: one record
            tp, ti, tmr = _merge_same_rows(tp, ti)
            bp, bj, bmr = _merge_same_rows(bp, bj)
        else:
            tmr = np.ones(tp.shape[0], np.int32)
            bmr = np.ones(bp.shape[0], np.int32)
        tpid, bpid, w0, w1 = _intern_partitions(tp, bp)
        if depth_first and w0.shape[0] >= 1 << (31 - MULT_BITS):
            raise ValueError("too many partitions for an entry's int32 with its multiplicity")
        pid_bits = 1
        while (np.int64(1) << pid_bits) < w0.shape[0]:
            pid_bits += 1
        tmult = np.zeros(w0.shape[0], np.int64)  # depth first: halves per partition of a node
        bmult = np.zeros(w0.shape[0], np.int64)
        x = 0
        y = 0
        while x < tk.shape[0] and y < bk.shape[0]:  # the keys both sides have
            if tk[x] < bk[y]:
                x += 1
                continue
            if tk[x] > bk[y]:
                y += 1
                continue
            i, i2 = ti[x], ti[x + 1]
            j, j2 = bj[y], bj[y + 1]
            x += 1
            y += 1
            if free == 0 or (i2 - i) * (j2 - j) <= one_by_one * ((i2 - i) + (j2 - j)):
                total += _pairs_one_by_one(tp, tmr, i, i2, bp, bmr, j, j2, free, bits, words)
            elif depth_first:
                if max(i2 - i, j2 - j) > room_for:  # more room: twice as much at least
                    room_for = max(i2 - i, j2 - j, 2 * room_for)
                    room = _depth_first_room(free, words, n, room_for)
                total += _group_depth_first(
                    tpid,
                    tp,
                    tmr,
                    i,
                    i2,
                    bpid,
                    bp,
                    bmr,
                    j,
                    j2,
                    w0,
                    w1,
                    free,
                    bits,
                    tmult,
                    bmult,
                    direct,
                    in_bytes,
                    room,
                )
            else:  # the group's rows unpacked, numbered from 0
                total += _group_by_inclusion_exclusion(
                    tpid[i:i2],
                    _unpack_rows(tp, i, i2, free, bits),
                    0,
                    i2 - i,
                    bpid[j:j2],
                    _unpack_rows(bp, j, j2, free, bits),
                    0,
                    j2 - j,
                    w0,
                    w1,
                    pid_bits,
                    free,
                    words,
                    row_bits,
                    sub_start,
                    sub_flat,
                    binom,
                    ttogether,
                    btogether,
                    code_bits,
                )
    for x in range(tslots):  # -1 again for the next cube
        slot_of[tseen[x]] = -1
    return total


# -- takuzu: pair tests with the bottom halves looked up, never stored --------------------------
#
# Up to 10x10 a cube's key groups are small (a few hundred halves): testing every pair with a few
# AND instructions, vectorized over a group, is cheaper than counting.  What costs there is the
# rest: enumerating, sorting and gathering the halves.  So the top halves are bucketed by their
# dense key (a counting sort: one pass to count them per key, one to place them), and each bottom
# half, as it is enumerated, is tested against the top halves of the key it completes.
#
# A half is W words, packed: the column pairs it has equal (bits 0 .. pairs-1), then the rows it
# uses (one bit per row other than the middle rows a and b, which no half uses): two halves make
# a grid exactly when their words AND to 0.  10x10: 45 + 82 bits, two words.


def packed_pairs(eqpairs: np.ndarray, cols: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's equal column pairs in the packed layout, with 1s in the used-row bits (so that
    AND over a half's rows keeps them), and the mask of the pair bits."""
    pairs = cols * (cols - 1) // 2
    width = (pairs + n - 2 + 63) // 64
    bits = [0] * width
    for p in range(pairs):
        bits[p >> 6] |= 1 << (p & 63)
    mask = np.array([w - (1 << 64) if w >= 1 << 63 else w for w in bits], np.int64)  # signed
    eq = np.empty((n, width), np.int64)
    for w in range(width):
        eq[:, w] = (eqpairs[:, w] if w < 2 else 0) | ~mask[w]
    return eq, mask


@njit(cache=True)
def _row_bits(a, b, n, pairs):
    """Word and bit of each row's "used" bit in the packed layout (rows a and b have none)."""
    word = np.zeros(n, np.int64)
    bit = np.zeros(n, np.int64)
    for k in range(n):
        p = pairs + k - (k > a) - (k > b)
        word[k] = p >> 6
        bit[k] = np.int64(1) << (p & 63)
    return word, bit


@njit(cache=True)
def _clash_free(G, g0, g1, leaf, W):
    """Top halves g0..g1 (columns of ``G``) whose words AND with ``leaf`` to 0.  Written out for
    the common widths (10x10: 2, 12x12: 5) so that LLVM vectorizes over the group."""
    found = 0
    m = g1 - g0
    if W == 2:
        l0, l1 = leaf[0], leaf[1]
        c0, c1 = G[0, g0:g1], G[1, g0:g1]
        for x in range(m):
            found += ((c0[x] & l0) | (c1[x] & l1)) == 0
        return found
    if W == 5:
        l0, l1, l2, l3, l4 = leaf[0], leaf[1], leaf[2], leaf[3], leaf[4]
        c0, c1, c2 = G[0, g0:g1], G[1, g0:g1], G[2, g0:g1]
        c3, c4 = G[3, g0:g1], G[4, g0:g1]
        for x in range(m):
            found += ((c0[x] & l0) | (c1[x] & l1) | (c2[x] & l2) | (c3[x] & l3) | (c4[x] & l4)) == 0
        return found
    for x in range(g0, g1):
        clash = np.int64(0)
        for w in range(W):
            clash |= G[w, x] & leaf[w]
        found += clash == 0
    return found


@njit(cache=True)
def _visit_takuzu(
    first,
    before,
    free,
    n,
    start,
    flat,
    digit,
    offset,
    eq,
    pair_mask,
    rword,
    rbit,
    words,
    nkeys,
    mode,
    slot_of,
    part_of,
    part,
    fill,
    G,
    slot_start,
):
    """Visit every takuzu half ``first, r1, .., r_free`` (no row twice, neither ``first`` nor
        ``before`` again) with its key k (row ``first`` included) and its packed words (``eq``: each
        row's equal pairs, 1s beyond them, so that AND keeps the used-row bits; ``pair_mask``: the
    pair bits; ``rword``/``rbit``: a row's used bit; ``words``: 64-bit words in a set of rows):

        mode 0 (count): slot_of[k] gets a slot (in order of first appearance; ``slot_start`` holds
          the keys of the slots, ``fill`` the halves per slot); returns the number of slots.
        mode 1 (place): halves whose key's slot is in part ``part`` (``part_of``) go into the
          columns of ``G`` at ``fill[slot]`` (then advanced).
        mode 2 (look up, a bottom half): the top halves of slot_of[nkeys - 1 - k], if that slot is
          in part ``part``, tested against it; returns the grids found.
        mode 3 (count and keep): as mode 0, and the first G.shape[1] halves' words go into the
          columns of ``G`` in order of enumeration, their slots into ``part_of``.
        mode 4 (keep, a bottom half): halves that complete some top half's key k (with a slot):
          the first G.shape[1] of them into the columns of ``G``, the slot of k into ``part_of``,
          fill[slot] counts them; returns how many there are."""
    W = eq.shape[1]
    seq = np.empty(free + 2, np.int64)
    pos = np.zeros(free + 2, np.int64)
    end = np.zeros(free + 2, np.int64)
    kacc = np.zeros(free + 2, np.int64)
    acc = np.zeros((free + 2, W), np.int64)  # equal pairs (AND) | used rows (OR), so far
    leaf = np.zeros(W, np.int64)
    taken = np.zeros(words, np.int64)
    taken[first >> 6] |= np.int64(1) << (first & 63)
    taken[before >> 6] |= np.int64(1) << (before & 63)
    seq[0] = before
    seq[1] = first
    kacc[1] = digit[first] - offset
    for w in range(W):
        acc[1, w] = eq[first, w] & pair_mask[w]
    result = np.int64(0)
    kept = 0  # mode 3: the halves kept in G so far
    last = free + 1  # the depth of the last row: its candidates are visited in one loop
    depth = 1 if free == 0 else 2
    if free > 0:
        s = seq[0] * n + seq[1]
        pos[2] = start[s]
        end[2] = start[s + 1]
    while depth >= 1:
        if depth == last:
            if free == 0:
                lo, hi = 0, 1
            else:
                s = seq[depth - 2] * n + seq[depth - 1]
                lo, hi = start[s], start[s + 1]
            for x in range(lo, hi):
                if free == 0:
                    key = kacc[1]
                    for w in range(W):
                        leaf[w] = acc[1, w]
                else:
                    k = flat[x]
                    if (taken[k >> 6] >> (k & 63)) & 1:
                        continue
                    key = kacc[depth - 1] + digit[k]
                    for w in range(W):
                        leaf[w] = acc[depth - 1, w] & eq[k, w]
                    leaf[rword[k]] |= rbit[k]
                if mode == 0 or mode == 3:
                    slot = slot_of[key]
                    if slot < 0:
                        slot = result
                        slot_of[key] = slot
                        slot_start[slot] = key
                        fill[slot] = 0
                        result += 1
                    fill[slot] += 1
                    if mode == 3 and kept < G.shape[1]:
                        for w in range(W):
                            G[w, kept] = leaf[w]
                        part_of[kept] = slot
                        kept += 1
                elif mode == 1:
                    slot = slot_of[key]
                    if part_of[slot] == part:
                        at = fill[slot]
                        fill[slot] = at + 1
                        for w in range(W):
                            G[w, at] = leaf[w]
                elif mode == 2:
                    slot = slot_of[nkeys - 1 - key]
                    if slot >= 0 and part_of[slot] == part:
                        result += _clash_free(G, slot_start[slot], slot_start[slot + 1], leaf, W)
                else:
                    slot = slot_of[nkeys - 1 - key]
                    if slot >= 0:
                        fill[slot] += 1
                        if result < G.shape[1]:
                            for w in range(W):
                                G[w, result] = leaf[w]
                            part_of[result] = slot
                        result += 1
            if free == 0:
                break
            depth -= 1
            if depth >= 2:
                k = seq[depth]
                taken[k >> 6] &= ~(np.int64(1) << (k & 63))
            continue
        if pos[depth] == end[depth]:
            depth -= 1
            if depth >= 2:
                k = seq[depth]
                taken[k >> 6] &= ~(np.int64(1) << (k & 63))
            continue
        k = flat[pos[depth]]
        pos[depth] += 1
        if (taken[k >> 6] >> (k & 63)) & 1:
            continue
        seq[depth] = k
        taken[k >> 6] |= np.int64(1) << (k & 63)
        kacc[depth] = kacc[depth - 1] + digit[k]
        for w in range(W):
            acc[depth, w] = acc[depth - 1, w] & eq[k, w]
        acc[depth, rword[k]] |= rbit[k]
        depth += 1
        if depth < last:
            s = seq[depth - 2] * n + seq[depth - 1]
            pos[depth] = start[s]
            end[depth] = start[s + 1]
    return result


@njit(cache=True)
def _clash_free_4(G, g0, g1, bottoms, y):
    """``_clash_free`` of two-word halves for the 4 bottom halves y .. y + 3 (columns of
    ``bottoms``) in one pass over the top halves: each top half loaded once for 4 tests."""
    c0, c1 = G[0, g0:g1], G[1, g0:g1]
    a0, a1 = bottoms[0, y], bottoms[1, y]
    b0, b1 = bottoms[0, y + 1], bottoms[1, y + 1]
    d0, d1 = bottoms[0, y + 2], bottoms[1, y + 2]
    e0, e1 = bottoms[0, y + 3], bottoms[1, y + 3]
    found = 0
    for x in range(g1 - g0):
        u = c0[x]
        v = c1[x]
        found += (
            (((u & a0) | (v & a1)) == 0)
            + (((u & b0) | (v & b1)) == 0)
            + (((u & d0) | (v & d1)) == 0)
            + (((u & e0) | (v & e1)) == 0)
        )
    return found


@njit(cache=True)
def _join_buckets(G, bounds, bottoms, first, slots):
    """The grids of a cube whose top halves are bucketed in ``G`` (bucket s: columns
    bounds[s] .. bounds[s + 1] - 1) and bottom halves in ``bottoms`` (first[s] .. first[s + 1] - 1
    complete bucket s): every pair of a bucket tested."""
    W = G.shape[0]
    total = 0
    for slot in range(slots):
        g0 = bounds[slot]
        g1 = bounds[slot + 1]
        y = first[slot]
        y2 = first[slot + 1]
        if W == 2:
            while y + 4 <= y2:
                total += _clash_free_4(G, g0, g1, bottoms, y)
                y += 4
        while y < y2:
            total += _clash_free(G, g0, g1, bottoms[:, y], W)
            y += 1
    return total


# Halves a bucket is padded to a multiple of (one AVX-512 vector of 64-bit words).
LANES = 8


@njit(cache=True)
def _pad_buckets(G, fill, bounds, slots):
    """Fill each bucket's room between its last half (``fill``) and the next bucket with halves
    that clash with everything (all 1s)."""
    for slot in range(slots):
        for y in range(fill[slot], bounds[slot + 1]):
            for w in range(G.shape[0]):
                G[w, y] = -1


@njit(cache=True, nogil=True)  # nogil: several threads count cubes at once
def lookup_cube(
    a,
    b,
    rows,
    n,
    start,
    flat,
    digit,
    offset,
    nkeys,
    eq,
    pair_mask,
    words,
    slot_of,
    most,
    kept,
    kept_slot,
    placed,
    bottoms,
    slot_keys,
    size,
):
    """Takuzu grids whose middle rows are ``a`` (row h-1) and ``b`` (row h), by pair tests: the
    top halves bucketed by key, each bottom half tested against the bucket it completes.

    The top halves are enumerated once, kept in ``kept`` (W x capacity; ``kept_slot`` their
    buckets) and sorted into their buckets in ``placed`` (as big, buckets padded) from there,
    when they fit and number at most ``most``.  Then the bottom halves are enumerated once, kept
    in ``kept`` too and sorted into ``bottoms`` by the bucket they complete, when they fit;
    else each is tested as it is enumerated.  ``slot_keys`` and ``size`` (one entry per key) are
    scratch: the buffers belong to the caller, so that a cube allocates nothing big.  When the
    top halves do not fit, the keys are dealt into parts of at most about ``most`` top halves
    (whole keys, in order of appearance), and the halves are enumerated again per part.
    ``slot_of`` (one entry per key) is -1 everywhere on entry and on return."""
    free = rows // 2 - 1
    W = eq.shape[1]
    pairs = 0
    for w in range(W):
        for i in range(64):
            pairs += (pair_mask[w] >> i) & 1
    rword, rbit = _row_bits(a, b, n, pairs)
    slots = _visit_takuzu(
        a,
        b,
        free,
        n,
        start,
        flat,
        digit,
        offset,
        eq,
        pair_mask,
        rword,
        rbit,
        words,
        nkeys,
        3,
        slot_of,
        kept_slot,
        0,
        size,
        kept,
        slot_keys,
    )
    halves = 0
    for slot in range(slots):
        halves += size[slot]
    bounds = np.empty(slots + 1, np.int64)
    fill = np.empty(slots, np.int64)
    total = np.int64(0)
    # Buckets padded to a multiple of LANES halves that clash with every bottom half (all 1s; a
    # bottom half uses some row, except in 2-row grids: no padding there), so that the pair
    # tests run in whole vectors, without a scalar tail.
    align = LANES if free > 0 else 1
    padded = 0
    for slot in range(slots):
        padded += -(-size[slot] // align) * align
    if halves <= kept.shape[1] and halves <= most and padded <= placed.shape[1]:
        part_of = np.zeros(slots, np.int64)  # one part
        at = 0
        for slot in range(slots):
            bounds[slot] = at
            fill[slot] = at
            at += -(-size[slot] // align) * align
        bounds[slots] = at
        for x in range(halves):  # a counting sort of the kept halves by bucket
            slot = kept_slot[x]
            y = fill[slot]
            fill[slot] = y + 1
            for w in range(W):
                placed[w, y] = kept[w, x]
        _pad_buckets(placed, fill, bounds, slots)
        # the bottom halves that complete some top half, kept (``kept`` is free again), then
        # sorted by bucket: a bucket's top halves are then tested against all its bottom halves
        # while they are in the L1 cache, several bottom halves a pass
        fill[:] = 0
        found = _visit_takuzu(
            b,
            a,
            free,
            n,
            start,
            flat,
            digit,
            offset,
            eq,
            pair_mask,
            rword,
            rbit,
            words,
            nkeys,
            4,
            slot_of,
            kept_slot,
            0,
            fill,
            kept,
            bounds,
        )
        if found <= kept.shape[1] and found <= bottoms.shape[1]:
            first = np.empty(slots + 1, np.int64)
            at = 0
            for slot in range(slots):
                first[slot] = at
                at += fill[slot]
                fill[slot] = first[slot]
            first[slots] = at
            for x in range(found):
                slot = kept_slot[x]
                y = fill[slot]
                fill[slot] = y + 1
                for w in range(W):
                    bottoms[w, y] = kept[w, x]
            total += _join_buckets(placed, bounds, bottoms, first, slots)
        else:
            total += _visit_takuzu(
                b,
                a,
                free,
                n,
                start,
                flat,
                digit,
                offset,
                eq,
                pair_mask,
                rword,
                rbit,
                words,
                nkeys,
                2,
                slot_of,
                part_of,
                0,
                fill,
                placed,
                bounds,
            )
    else:
        part_of = np.empty(slots, np.int64)
        parts = 0
        held = 0
        for slot in range(slots):
            if held > 0 and held + size[slot] > most:
                parts += 1
                held = 0
            part_of[slot] = parts
            held += size[slot]
        parts += 1
        for part in range(parts):
            at = 0
            for slot in range(slots):
                bounds[slot] = at
                fill[slot] = at
                if part_of[slot] == part:
                    at += -(-size[slot] // align) * align
            bounds[slots] = at
            G = np.empty((W, at), np.int64)
            _visit_takuzu(
                a,
                b,
                free,
                n,
                start,
                flat,
                digit,
                offset,
                eq,
                pair_mask,
                rword,
                rbit,
                words,
                nkeys,
                1,
                slot_of,
                part_of,
                part,
                fill,
                G,
                bounds,
            )
            _pad_buckets(G, fill, bounds, slots)
            total += _visit_takuzu(
                b,
                a,
                free,
                n,
                start,
                flat,
                digit,
                offset,
                eq,
                pair_mask,
                rword,
                rbit,
                words,
                nkeys,
                2,
                slot_of,
                part_of,
                part,
                fill,
                G,
                bounds,
            )
    for slot in range(slots):
        slot_of[slot_keys[slot]] = -1
    return total


# Halves of a side a cube keeps from its one enumeration (10x10: at most 210,472 top halves).
KEPT_HALVES = 1 << 18


def deal(costs: list[int], chunks: int) -> list[list[int]]:
    """The items (by index) dealt into ``chunks`` of about equal total cost: largest first, each
    to the chunk with the least so far (greedy; within 4/3 of the best); a chunk's items in
    order of cost, largest first."""
    held = [0] * chunks
    dealt: list[list[int]] = [[] for _ in range(chunks)]
    for x in sorted(range(len(costs)), key=lambda x: -costs[x]):
        least = held.index(min(held))
        dealt[least].append(x)
        held[least] += costs[x]
    return dealt


# -- what the joins need beside the row tables -------------------------------------------------


class JoinTables:
    """Successor lists, dense key digits and subset lists of one counted shape."""

    def __init__(self, rows: int, cols: int, bits: np.ndarray, words: int):
        self.rows, self.cols, self.words = rows, cols, words
        self.n = len(bits)
        self.start, self.flat = successors(bits, np.int64((1 << cols) - 1))
        self.digit, self.offset, self.keys = key_tables(rows, cols, bits)
        self.row_bits = max(1, (self.n - 1).bit_length())
        self.sub_start, self.sub_flat = subset_tables(rows // 2 - 1)
        self.hist: np.ndarray | None = None  # unruly's key histogram, made when first needed
        self.slot_of: np.ndarray | None = None  # key -> bucket of the counting sorts (all -1)
        self.packed: tuple[np.ndarray, np.ndarray] | None = None  # packed_pairs, for lookup
        self.kept: tuple[np.ndarray, ...] | None = None  # lookup's buffers (see lookup_cube)

    def unruly(self, a: int, b: int) -> int:
        if self.hist is None:  # int32: a cube has far fewer than 2^31 halves (12x12: ~1.3e7)
            self.hist = np.zeros(self.keys, np.int32)
        return int(
            unruly_cube(
                a,
                b,
                self.rows,
                self.n,
                self.start,
                self.flat,
                self.digit[self.flat],
                self.digit,
                self.offset,
                self.hist,
            )
        )

    def takuzu(
        self,
        a: int,
        b: int,
        eqpairs: np.ndarray,
        one_by_one: int = ONE_BY_ONE,
        most: int = MOST_RECORDS,
        code_bits: int = 63,
        depth_first: bool = True,
        direct: int = DIRECT,
        in_bytes: bool | None = None,
    ) -> int:
        """``takuzu_cube``: the shared-row sets visited depth first, or (``depth_first``
        False) by sorted codes, the earlier way (kept to compare and cross-check).  The rows
        are tested as bytes where they fit (``in_bytes`` None; False: as bitsets, for tests)."""
        fits = self.n <= 255 and self.rows // 2 - 1 <= 5
        if in_bytes is None:
            in_bytes = fits
        assert fits or not in_bytes, "rows as bytes: at most 255 rows, 4 above the first"
        return int(
            takuzu_cube(
                a,
                b,
                self.rows,
                self.cols,
                self.n,
                self.start,
                self.flat,
                self.digit,
                self.offset,
                self.keys,
                eqpairs,
                self.words,
                self.row_bits,
                self.sub_start,
                self.sub_flat,
                one_by_one,
                most,
                self._slots(),
                code_bits,
                depth_first,
                direct,
                in_bytes,
            )
        )

    def ready(self, join: str, eqpairs: np.ndarray) -> None:
        """Make (and touch: a page's first use costs the kernel's time) what ``join`` uses
        beside the tables, so that the first cube counted costs what the others do (10x10:
        31 MB of lookup buffers, 0.03 CPU s, ten cubes' worth)."""
        if join == "histogram":
            if self.hist is None:
                self.hist = np.zeros(self.keys, np.int32)
            self.hist.fill(0)
            return
        self._slots()
        if join == "bucketed pair tests":
            eq, _ = self._packed(eqpairs)
            if self.kept is None:
                self.kept = self._scratch(eq.shape[1], KEPT_HALVES, KEPT_HALVES)
            for buffer in self.kept:
                buffer.fill(0)

    def _slots(self) -> np.ndarray:
        """Key -> bucket for the counting sorts, -1 everywhere between uses."""
        if self.slot_of is None:
            self.slot_of = np.full(self.keys, -1, np.int32)
        return self.slot_of

    def _packed(self, eqpairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.packed is None:
            self.packed = packed_pairs(eqpairs, self.cols, self.n)
        return self.packed

    def _scratch(self, width: int, capacity: int, bottom_capacity: int) -> tuple[np.ndarray, ...]:
        """``lookup_cube``'s buffers after ``slot_of``: kept, kept_slot, placed, bottoms,
        slot_keys, size."""
        return (
            np.empty((width, capacity), np.int64),
            np.empty(capacity, np.int64),
            np.empty((width, capacity), np.int64),
            np.empty((width, bottom_capacity), np.int64),
            np.empty(self.keys, np.int64),
            np.empty(self.keys, np.int64),
        )

    def lookup(
        self,
        a: int,
        b: int,
        eqpairs: np.ndarray,
        most: int = MOST_HALVES,
        capacity: int = KEPT_HALVES,
        bottom_capacity: int | None = None,
    ) -> int:
        """``lookup_cube``; ``capacity`` and ``bottom_capacity`` (as much if None): the top and
        bottom halves kept from one enumeration (fewer than a cube has: the slower ways, for
        tests)."""
        eq, pair_mask = self._packed(eqpairs)
        shape = (capacity, capacity if bottom_capacity is None else bottom_capacity)
        if self.kept is None or (self.kept[1].shape[0], self.kept[3].shape[1]) != shape:
            self.kept = self._scratch(eq.shape[1], *shape)
        return int(
            lookup_cube(
                a,
                b,
                self.rows,
                self.n,
                self.start,
                self.flat,
                self.digit,
                self.offset,
                self.keys,
                eq,
                pair_mask,
                self.words,
                self._slots(),
                most,
                *self.kept,
            )
        )

    def lookup_threads(
        self, middle: Sequence[tuple[int, int]], eqpairs: np.ndarray, threads: int, most: int = MOST_HALVES
    ) -> Generator[tuple[int, int, float], None, None]:
        """``lookup`` for many cubes (their middle rows) on ``threads`` threads, each with its own
        buffers; yields (position in ``middle``, count, the thread's CPU seconds on it) as cubes
        finish.  A thread takes the next cube when it is done with one, the largest cost
        estimate first: the threads finish together, whatever the load and the estimate's
        errors.  Closing the generator stops the threads after the cubes under way."""
        eq, pair_mask = self._packed(eqpairs)
        order = iter(sorted(range(len(middle)), key=lambda x: -self.cost(*middle[x])))
        taking = threading.Lock()
        stop = threading.Event()
        results: queue.SimpleQueue = queue.SimpleQueue()

        def work() -> None:
            try:
                slot_of = np.full(self.keys, -1, np.int32)
                scratch = self._scratch(eq.shape[1], KEPT_HALVES, KEPT_HALVES)
                while not stop.is_set():
                    with taking:
                        x = next(order, None)
                    if x is None:
                        break
                    began = time.thread_time()
                    found = lookup_cube(
                        *middle[x],
                        self.rows,
                        self.n,
                        self.start,
                        self.flat,
                        self.digit,
                        self.offset,
                        self.keys,
                        eq,
                        pair_mask,
                        self.words,
                        slot_of,
                        most,
                        *scratch,
                    )
                    results.put((x, int(found), time.thread_time() - began))
            except BaseException as error:  # noqa: BLE001 - handed to the caller's thread
                results.put(error)
            finally:
                results.put(None)

        workers = [
            threading.Thread(target=work, daemon=True) for _ in range(max(1, min(threads, len(middle))))
        ]
        for worker in workers:
            worker.start()
        try:
            running = len(workers)
            while running:
                try:
                    item = results.get(timeout=0.5)  # a timeout: Ctrl-C is seen while waiting
                except queue.Empty:
                    continue
                if item is None:
                    running -= 1
                elif isinstance(item, BaseException):
                    raise item
                else:
                    yield item
        finally:
            stop.set()
            for worker in workers:
                worker.join()

    def lookup_many(
        self, middle: list[tuple[int, int]], eqpairs: np.ndarray, threads: int, most: int = MOST_HALVES
    ) -> list[int]:
        """``lookup_threads``' counts, in the order of ``middle``."""
        counts = [0] * len(middle)
        for x, count, _ in self.lookup_threads(middle, eqpairs, threads, most):
            counts[x] = count
        return counts

    def cost(self, a: int, b: int) -> int:
        """A cube's cost estimate, for ordering the cubes the threads take: the candidate first
        rows of its two halves, multiplied (10x10: correlation 0.96 with the time a cube took
        before the bottom halves were kept)."""
        n, start = self.n, self.start
        return int(start[b * n + a + 1] - start[b * n + a]) * int(start[a * n + b + 1] - start[a * n + b])


def valid_digit_range(h: int) -> tuple[int, int]:
    """``digit_range`` found the slow way: the 1s of every column of ``h`` cells without three
    equal cells in a line (for tests)."""
    ones = [bin(c).count("1") for c in range(1 << h) if not any((c >> i & 7) in (0, 7) for i in range(h - 2))]
    return min(ones), max(ones)
