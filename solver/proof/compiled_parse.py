"""DRAT proofs read in one compiled (numba) pass over their bytes: literals, step starts and
deletion flags as flat arrays, what :class:`.formats.DratSteps` holds.

Only large files come here (:data:`.formats.COMPILED_PARSE_FROM_BYTES`); anything unusual
(a long token, a stray byte) goes back to the Python parsers, which read it or word its error.
This module imports nothing of mindgames, so the readers in :mod:`.formats` can use it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# ---------------------------------------------------------------------------
# Parsing DRAT in one pass over the bytes
# ---------------------------------------------------------------------------
PARSED, UNUSUAL, TOO_MANY = 0, 1, 2  # UNUSUAL: the Python parser reads it (and words the error, if any)
MAX_TOKEN = 18  # as formats.MAX_DIGITS: longer tokens go to the Python parser


@njit(cache=True)
def _text_drat(data, max_steps):
    """Text DRAT as formats.parse_text_drat reads it, for the usual files: lines of
    numbers (a first token ``d`` for a deletion), comment lines (a first token
    starting with ``c``), blank lines.  Anything else (a byte that is no digit,
    sign, ``d``, blank or line end outside a comment, a long token, a file cut
    after a minus sign, too many steps) gives UNUSUAL, and the Python parser
    reads the file.  (status, literals, step starts, deleted flags, truncated)."""
    n = data.shape[0]
    lits = np.empty(n // 2 + 1, np.int64)
    starts = np.empty(n // 2 + 2, np.int64)
    deleted = np.empty(n // 2 + 1, np.uint8)
    n_lits = 0
    n_steps = 0
    starts[0] = 0
    pending = 0  # literals of the step being read
    deleting = False
    i = 0
    if n and data[n - 1] == 45:  # '-' at the very end: a cut-off file
        return UNUSUAL, lits[:0], starts[:1], deleted[:0], False
    while i < n:
        # a line: its first token decides
        while i < n and (data[i] == 32 or data[i] == 9):
            i += 1
        if i >= n:
            break
        b = data[i]
        if b == 10 or b == 13:
            i += 1
            continue
        if b == 99:  # 'c': a comment line
            while i < n and data[i] != 10 and data[i] != 13:
                if data[i] == 11 or data[i] == 12 or 28 <= data[i] <= 30 or data[i] == 0 or data[i] >= 128:
                    return UNUSUAL, lits[:0], starts[:1], deleted[:0], False
                i += 1
            continue
        if b == 100:  # 'd'
            if i + 1 < n and data[i + 1] not in (32, 9, 10, 13):
                return UNUSUAL, lits[:0], starts[:1], deleted[:0], False
            if pending:
                return UNUSUAL, lits[:0], starts[:1], deleted[:0], False
            deleting = True
            i += 1
        # numbers up to the line's end
        while i < n:
            b = data[i]
            if b == 32 or b == 9:
                i += 1
                continue
            if b == 10 or b == 13:
                i += 1
                break
            first = i
            negative = False
            if b == 45:
                negative = True
                i += 1
            value = 0
            digits = 0
            while i < n and 48 <= data[i] <= 57:
                value = value * 10 + (data[i] - 48)
                digits += 1
                i += 1
                if i - first > MAX_TOKEN:
                    return UNUSUAL, lits[:0], starts[:1], deleted[:0], False
            if digits == 0 or (i < n and data[i] not in (32, 9, 10, 13)):
                return UNUSUAL, lits[:0], starts[:1], deleted[:0], False
            if value == 0:
                deleted[n_steps] = deleting
                n_steps += 1
                starts[n_steps] = n_lits
                pending = 0
                deleting = False
            else:
                lits[n_lits] = -value if negative else value
                n_lits += 1
                pending += 1
    truncated = pending > 0 or deleting
    if n_steps > max_steps:  # only once the whole file is known to have no other error
        return TOO_MANY, lits[:0], starts[:1], deleted[:0], False
    return PARSED, lits[:n_lits].copy(), starts[: n_steps + 1].copy(), deleted[:n_steps].copy(), truncated


@njit(cache=True)
def _binary_drat(data, max_steps, max_varint):
    """Binary DRAT as formats.parse_binary_drat reads it, for files it accepts;
    UNUSUAL for anything it would refuse (it then words the error)."""
    n = data.shape[0]
    lits = np.empty(n, np.int64)
    starts = np.empty(n // 2 + 2, np.int64)
    deleted = np.empty(n // 2 + 1, np.uint8)
    n_lits = 0
    n_steps = 0
    starts[0] = 0
    i = 0
    in_step = False
    while i < n:
        # one number
        value = 0
        shift = 0
        first = i
        while True:
            if i >= n:  # cut off inside a number
                if i - first > max_varint:
                    return UNUSUAL, lits[:0], starts[:1], deleted[:0], False
                in_step = True
                break
            b = data[i]
            i += 1
            value |= np.int64(b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                break
            if i - first >= max_varint:
                return UNUSUAL, lits[:0], starts[:1], deleted[:0], False
        if i >= n and data[n - 1] >= 0x80:
            break
        if not in_step:
            if i - first != 1 or (value != 0x61 and value != 0x64):
                return UNUSUAL, lits[:0], starts[:1], deleted[:0], False
            deleted[n_steps] = value == 0x64
            in_step = True
        elif value == 0:
            n_steps += 1
            starts[n_steps] = n_lits
            in_step = False
        elif value == 1:
            return UNUSUAL, lits[:0], starts[:1], deleted[:0], False
        else:
            lits[n_lits] = -(value >> 1) if value & 1 else value >> 1
            n_lits += 1
    if n_steps > max_steps:
        return TOO_MANY, lits[:0], starts[:1], deleted[:0], False
    return PARSED, lits[:n_lits].copy(), starts[: n_steps + 1].copy(), deleted[:n_steps].copy(), in_step


def parse_drat(data: bytes, binary: bool, max_steps: int, max_varint: int) -> tuple[int, tuple | None]:
    """(status, parsed): PARSED with (literals, step starts, deleted flags, whether the last step
    is cut off); UNUSUAL (the Python parser reads it, and words the error, if any) or TOO_MANY
    (more than ``max_steps`` steps) with None."""
    buffer = np.frombuffer(data, dtype=np.uint8)
    if binary:
        status, lits, starts, deleted, truncated = _binary_drat(buffer, max_steps, max_varint)
    else:
        status, lits, starts, deleted, truncated = _text_drat(buffer, max_steps)
    if status != PARSED:
        return int(status), None
    return PARSED, (lits, starts, deleted, bool(truncated))
