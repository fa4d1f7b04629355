"""Reading and writing the standard proof formats: DIMACS CNF, DRAT (text and binary), LRAT.

Two kinds of trouble are kept apart, because the command line answers them
differently:

* :class:`ProofInputError` -- the file is unusable (missing, not DIMACS, a
  header that lies about its counts, a binary file that is not DRAT, over a
  size limit).  Nothing was checked (exit 2).
* a *defect* recorded on the parsed :class:`Proof` -- the file is a proof, but
  a broken one (cut off in the middle of a clause).  The checker rejects it
  (exit 1) with that reason.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

ProofKind = Literal["drat", "lrat"]

# Hard limits; callers may pass smaller or larger ones.  A clause costs the checker
# ~150 bytes of Python objects: 2,000,000 clauses (a 25x25 Sudoku CNF has 752,500)
# stay under ~0.5 GB.
MAX_BYTES = 128 * 2**20
MAX_CLAUSES = 2_000_000
MAX_VARIABLES = 1_000_000  # the checker keeps ~250 bytes per variable

# Close to drat-trim's rule for telling text from binary DRAT: a text proof's
# first bytes are digits, '-', 'd', 'c' (comments), 'p' and white space only.
_TEXT_BYTES = frozenset(b"0123456789-dcp \t\r\n")
_SNIFF_BYTES = 10


# The longest number read: a literal names at most MAX_VARIABLES (7 digits), a clause
# id at most a few times MAX_CLAUSES; longer tokens are refused before int() reads
# them (Python's int() refuses more than 4,300 digits, and is quadratic below that).
MAX_DIGITS = 18
# Binary DRAT numbers (2*variable + sign) of more than 5 bytes (35 bits) are refused
# as they are read: a literal needs 3 bytes, and reading on would be quadratic.
MAX_VARINT_BYTES = 5
# DRAT files of this size or more are read by the compiled parser (solver.proof.compiled_parse):
# such a proof has some 40,000 literals or more, past the compiled checker's threshold.
COMPILED_PARSE_FROM_BYTES = 256 * 1024
CHECK_TIME_EVERY = 1 << 16  # lines or steps between time-limit checks while parsing

# What a line of numbers may hold; anything else is diagnosed token by token.
_NUMBERS_LINE = re.compile(r"[-0-9 \t\r\n\f\v]*")
_NUMBER = re.compile(r"-?[0-9]+")


class ProofInputError(ValueError):
    """A CNF or proof file that cannot be used at all (exit code 2)."""


class ParseTimeLimit(Exception):
    """The time limit came while a file was being read (the check did not start)."""


def _check_time(end: float | None) -> None:
    if end is not None and time.perf_counter() > end:
        raise ParseTimeLimit("time limit reached while reading the files")


@dataclass
class CNF:
    """A formula in conjunctive normal form; literals in DIMACS convention."""

    num_vars: int
    clauses: list[Sequence[int]]  # tuples when read from a file; never modified


class DratSteps(Sequence):
    """A DRAT proof's steps as parsed into arrays: read as ``(deleted, literals)`` pairs
    (made on first use), or handed as they are to the compiled checker.

    ``lits``: every step's literals, one after the other; step ``i`` holds
    ``lits[starts[i]:starts[i + 1]]``; ``deleted[i]``: whether it is a deletion."""

    def __init__(self, lits: np.ndarray, starts: np.ndarray, deleted: np.ndarray):
        self.lits, self.starts, self.deleted = lits, starts, deleted
        self._pairs: list[tuple[bool, tuple[int, ...]]] | None = None

    @property
    def lemmas(self) -> int:
        return len(self.deleted) - int(np.count_nonzero(self.deleted))

    def pairs(self) -> list[tuple[bool, tuple[int, ...]]]:
        if self._pairs is None:
            lits, starts = self.lits.tolist(), self.starts.tolist()
            self._pairs = [
                (bool(deleted), tuple(lits[first:last]))
                for deleted, first, last in zip(self.deleted.tolist(), starts, starts[1:])
            ]
        return self._pairs

    def __len__(self) -> int:
        return len(self.deleted)

    def __getitem__(self, index):  # type: ignore[no-untyped-def]  # int or slice, as a list's
        return self.pairs()[index]

    def __iter__(self) -> Iterator[tuple[bool, tuple[int, ...]]]:
        return iter(self.pairs())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self.pairs() == list(other)

    __hash__ = None  # type: ignore[assignment]


@dataclass
class Proof:
    """A parsed clausal proof.

    DRAT: ``steps`` holds ``(deleted, literals)`` pairs, in proof order.
    LRAT: ``steps`` holds ``(clause_id, literals, hints)`` for additions and
    ``(0, (), ids)`` for deletions (``ids`` are the deleted clauses).
    ``defect`` says why the file is a broken proof (e.g. truncated); the
    checker rejects a proof with a defect before looking at any lemma."""

    kind: ProofKind
    steps: Sequence = field(default_factory=list)  # a list, or DratSteps as parsed
    binary: bool = False
    defect: str | None = None

    @property
    def lemmas(self) -> int:
        """Added clauses (deletions not counted)."""
        if isinstance(self.steps, DratSteps):
            return self.steps.lemmas
        if self.kind == "drat":
            return sum(1 for deleted, _ in self.steps if not deleted)
        return sum(1 for clause_id, _, _ in self.steps if clause_id)


# ---------------------------------------------------------------------------
# Reading files
# ---------------------------------------------------------------------------
def read_bytes(path: str | Path, max_bytes: int = MAX_BYTES, what: str = "file") -> bytes:
    """The bytes of ``path``; ProofInputError when missing, unreadable or too large."""
    name = str(path)
    try:
        target = Path(path)
        if target.is_dir():
            raise ProofInputError(f"{name}: is a directory, not a {what}")
        with target.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise ProofInputError(f"{name}: no such file") from None
    except PermissionError:
        raise ProofInputError(f"{name}: permission denied") from None
    except OSError as error:
        raise ProofInputError(f"{name}: cannot read ({error.strerror or error})") from None
    if len(data) > max_bytes:
        raise ProofInputError(f"{name}: larger than the limit of {max_bytes:,} bytes")
    return data


def read_cnf(
    path: str | Path, max_bytes: int = MAX_BYTES, max_clauses: int = MAX_CLAUSES, end: float | None = None
) -> CNF:
    """``end``: a ``time.perf_counter()`` time by which reading must be done (ParseTimeLimit)."""
    data = read_bytes(path, max_bytes, "DIMACS CNF file")
    return parse_dimacs(data, str(path), max_clauses, end)


def read_proof(
    path: str | Path,
    max_bytes: int = MAX_BYTES,
    max_clauses: int = MAX_CLAUSES,
    kind: Literal["auto", "drat", "lrat"] = "auto",
    end: float | None = None,
) -> Proof:
    data = read_bytes(path, max_bytes, "proof file")
    return parse_proof(data, str(path), max_clauses, kind, end)


# ---------------------------------------------------------------------------
# DIMACS CNF
# ---------------------------------------------------------------------------
def _text(data: bytes, name: str, what: str) -> str:
    nul = data.find(b"\0")
    if nul >= 0:
        raise ProofInputError(f"{name}: not a {what} (a NUL byte at offset {nul})")
    try:
        return data.decode("ascii")
    except UnicodeDecodeError as error:
        raise ProofInputError(
            f"{name}: not a {what} (byte 0x{data[error.start]:02x} at offset {error.start})"
        ) from None


def _ints(tokens: list[str], line: str, name: str, number: int, what: str = "literal") -> list[int]:
    """The line's tokens as numbers: optional minus sign and ASCII digits, at most MAX_DIGITS."""
    if _NUMBERS_LINE.fullmatch(line) and (not tokens or max(map(len, tokens)) <= MAX_DIGITS):
        try:
            return list(map(int, tokens))
        except ValueError:  # '--1', '1-2'
            pass
    for token in tokens:
        if not _NUMBER.fullmatch(token):
            shown = token if len(token) <= 20 else token[:20] + "..."
            raise ProofInputError(f"{name}: line {number}: {shown!r} is not a {what}")
        if len(token.lstrip("-")) > MAX_DIGITS:
            raise ProofInputError(
                f"{name}: line {number}: the number {token[:12]}... ({len(token):,} characters) is too large"
            )
    raise ProofInputError(f"{name}: line {number}: unreadable numbers")  # not reached


def _header_number(token: str) -> int | None:
    return int(token) if token.isascii() and token.isdigit() and len(token) <= MAX_DIGITS else None


def parse_dimacs(
    data: bytes, name: str = "CNF", max_clauses: int = MAX_CLAUSES, end: float | None = None
) -> CNF:
    """A DIMACS CNF; the ``p cnf V C`` header must tell the truth about V and C."""
    text = _text(data, name, "DIMACS CNF file")
    num_vars = declared = -1
    clauses: list[Sequence[int]] = []
    pending: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        if number % CHECK_TIME_EVERY == 0:
            _check_time(end)
        tokens = line.split()
        if not tokens or tokens[0].startswith("c"):
            continue
        if tokens[0] == "%":  # SATLIB files end with "%" and a stray "0"
            break
        if tokens[0] == "p":
            if num_vars >= 0:
                raise ProofInputError(f"{name}: line {number}: a second 'p cnf' header")
            counts = [_header_number(token) for token in tokens[2:]]
            if len(tokens) != 4 or tokens[1] != "cnf" or None in counts:
                raise ProofInputError(
                    f"{name}: line {number}: the header must read 'p cnf VARIABLES CLAUSES'"
                    + (" (numbers of at most 18 digits)" if len(tokens) == 4 and tokens[1] == "cnf" else "")
                )
            num_vars, declared = counts[0] or 0, counts[1] or 0
            if num_vars > MAX_VARIABLES:
                raise ProofInputError(f"{name}: {num_vars:,} variables, over the limit of {MAX_VARIABLES:,}")
            if declared > max_clauses:
                raise ProofInputError(f"{name}: {declared:,} clauses, over the limit of {max_clauses:,}")
            continue
        if num_vars < 0:
            raise ProofInputError(
                f"{name}: line {number}: a clause before the 'p cnf' header (not DIMACS CNF)"
            )
        lits = _ints(tokens, line, name, number)
        if lits and lits[-1] == 0 and not pending and 0 not in lits[:-1]:  # the usual line
            lits.pop()
            if lits and (max(lits) > num_vars or -min(lits) > num_vars):
                bad = next(lit for lit in lits if abs(lit) > num_vars)
                raise ProofInputError(
                    f"{name}: line {number}: literal {bad} is beyond the header's {num_vars} variables"
                )
            if len(clauses) == declared:
                raise ProofInputError(f"{name}: line {number}: more clauses than the header's {declared}")
            clauses.append(tuple(lits))
            continue
        for lit in lits:
            if lit == 0:
                if len(clauses) == declared:
                    raise ProofInputError(f"{name}: line {number}: more clauses than the header's {declared}")
                clauses.append(tuple(pending))
                pending = []
            elif abs(lit) > num_vars:
                raise ProofInputError(
                    f"{name}: line {number}: literal {lit} is beyond the header's {num_vars} variables"
                )
            else:
                pending.append(lit)
    if num_vars < 0:
        raise ProofInputError(f"{name}: no 'p cnf' header (not a DIMACS CNF file)")
    if pending:
        raise ProofInputError(f"{name}: the last clause is not terminated by 0")
    if len(clauses) != declared:
        raise ProofInputError(f"{name}: the header says {declared} clauses, the file has {len(clauses)}")
    return CNF(num_vars, clauses)


def write_dimacs(cnf: CNF, path: str | Path) -> None:
    with open(path, "w", encoding="ascii") as out:
        out.write(f"p cnf {cnf.num_vars} {len(cnf.clauses)}\n")
        out.writelines(" ".join(map(str, c)) + " 0\n" if c else "0\n" for c in cnf.clauses)


# ---------------------------------------------------------------------------
# Proofs: detection
# ---------------------------------------------------------------------------
def parse_proof(
    data: bytes,
    name: str = "proof",
    max_clauses: int = MAX_CLAUSES,
    kind: Literal["auto", "drat", "lrat"] = "auto",
    end: float | None = None,
) -> Proof:
    """DRAT (text or binary, told apart as drat-trim does) or LRAT text.  In time linear
    in the file's size; ``end``: see :func:`read_cnf`."""
    if is_binary_drat(data):
        if kind == "lrat":
            raise ProofInputError(f"{name}: binary data, not an LRAT text proof")
        return _compiled_drat(data, True, name, max_clauses, end) or parse_binary_drat(
            data, name, max_clauses, end
        )
    text = _text(data, name, "DRAT or LRAT proof")
    if kind == "auto":
        kind = "lrat" if _looks_like_lrat(text) else "drat"
    if kind == "lrat":
        return parse_lrat(text, name, max_clauses, end)
    return _compiled_drat(data, False, name, max_clauses, end) or parse_text_drat(
        text, name, max_clauses, end
    )


def _compiled_drat(data: bytes, binary: bool, name: str, max_clauses: int, end: float | None) -> Proof | None:
    """A large DRAT file read in one compiled pass (the checker will import numba for
    it anyway); None for a small file, or an unusual one (the parsers below read
    those, and word their errors)."""
    if len(data) < COMPILED_PARSE_FROM_BYTES:
        return None
    from .compiled_parse import PARSED, TOO_MANY, parse_drat

    status, parsed = parse_drat(data, binary, max_clauses, MAX_VARINT_BYTES)
    _check_time(end)
    if status == TOO_MANY:
        raise ProofInputError(f"{name}: more than {max_clauses:,} proof steps, over the limit")
    if status != PARSED or parsed is None:
        return None
    lits, starts, deleted, truncated = parsed
    proof = Proof("drat", DratSteps(lits, starts, deleted), binary=binary)
    if truncated:
        proof.defect = "the proof is truncated: its last clause is not terminated by 0"
    return proof


def is_binary_drat(data: bytes) -> bool:
    """Binary DRAT starts with 'a' (which no text proof does) or with 'd' and
    non-text bytes soon after; anything else is read as text."""
    if not data or data[0] not in (0x61, 0x64):
        return False
    return data[0] == 0x61 or any(b not in _TEXT_BYTES for b in data[:_SNIFF_BYTES])


def _looks_like_lrat(text: str) -> bool:
    """LRAT lines start with a clause id and carry two 0s (``id lits 0 hints 0``) or ``id d``.

    Only the first line that is not a comment decides: the text is split into lines
    a growing prefix at a time, not all at once (a million lines of a large proof)."""
    size = 1 << 12
    while True:
        lines = text[:size].splitlines()
        whole = size >= len(text)
        for line in lines if whole else lines[:-1]:  # the prefix's last line may go on
            tokens = line.split()
            if not tokens or tokens[0].startswith("c"):
                continue
            if len(tokens) >= 2 and tokens[0] != "d" and tokens[1] == "d":
                return True
            return tokens.count("0") >= 2
        if whole:
            return False
        size *= 4


# ---------------------------------------------------------------------------
# DRAT
# ---------------------------------------------------------------------------
def _too_many(name: str, max_clauses: int) -> ProofInputError:
    return ProofInputError(f"{name}: more than {max_clauses:,} proof steps, over the limit")


def parse_text_drat(
    text: str, name: str = "proof", max_clauses: int = MAX_CLAUSES, end: float | None = None
) -> Proof:
    steps: list[tuple[bool, tuple[int, ...]]] = []
    deleted = False
    pending: list[int] = []
    lines = text.splitlines()
    # A file cut just after a minus sign: a truncated proof, not a malformed one.
    cut_at_sign = bool(lines) and not text.endswith(("\n", "\r")) and lines[-1].endswith("-")
    if cut_at_sign:
        lines[-1] = lines[-1][:-1]
    for number, line in enumerate(lines, 1):
        if number % CHECK_TIME_EVERY == 0:
            _check_time(end)
        tokens = line.split()
        if not tokens or tokens[0].startswith("c"):
            continue
        if tokens[0] == "d":
            if pending:
                raise ProofInputError(f"{name}: line {number}: 'd' inside an unterminated clause")
            deleted = True
            tokens = tokens[1:]
            line = line.replace("d", " ", 1)
        lits = _ints(tokens, line, name, number)
        if lits and lits[-1] == 0 and not pending and 0 not in lits[:-1]:  # the usual line
            lits.pop()
            steps.append((deleted, tuple(lits)))
            deleted = False
        else:
            for lit in lits:
                if lit:
                    pending.append(lit)
                else:
                    steps.append((deleted, tuple(pending)))
                    pending, deleted = [], False
        if len(steps) > max_clauses:
            raise _too_many(name, max_clauses)
    proof = Proof("drat", steps)
    if pending or deleted or cut_at_sign:
        proof.defect = "the proof is truncated: its last clause is not terminated by 0"
    return proof


def parse_binary_drat(
    data: bytes, name: str = "proof", max_clauses: int = MAX_CLAUSES, end: float | None = None
) -> Proof:
    """Binary DRAT: 'a' or 'd', then literals as variable-length 2*var+sign numbers, then 0.

    Decoded with numpy, in time linear in the size: every byte below 0x80 ends a
    number (the step marks 'a' and 'd' are one-byte numbers), the numbers are
    assembled from their 7-bit groups at once, then cut into steps at the zeros."""
    buffer = np.frombuffer(data, dtype=np.uint8)
    stops = np.flatnonzero(buffer < 0x80)  # the last byte of each number
    tail = len(data) - (int(stops[-1]) + 1 if len(stops) else 0)  # a number cut off at the end
    starts = np.empty_like(stops)
    if len(stops):
        starts[0] = 0
        starts[1:] = stops[:-1] + 1
    lengths = stops - starts + 1
    too_long = np.flatnonzero(lengths > MAX_VARINT_BYTES)
    if len(too_long) or tail > MAX_VARINT_BYTES:
        offset = int(starts[too_long[0]]) if len(too_long) else len(data) - tail
        raise ProofInputError(
            f"{name}: offset {offset:,}: a number of more than {MAX_VARINT_BYTES} bytes, "
            f"beyond any variable (the limit is {MAX_VARIABLES:,})"
        )
    values = np.zeros(len(stops), dtype=np.int64)
    for k in range(int(lengths.max()) if len(lengths) else 0):
        reach = np.flatnonzero(lengths > k)
        values[reach] |= (buffer[starts[reach] + k].astype(np.int64) & 0x7F) << (7 * k)
    _check_time(end)
    # Marks: the first number, and each one after a zero that ends a step.  A mark is
    # never 0, so every zero after the first valid mark ends a step, up to a bad mark.
    zeros = np.flatnonzero(values == 0)
    marks = np.concatenate(([0], zeros + 1))[: len(zeros) + 1]
    marks = marks[marks < len(values)]
    bad = np.flatnonzero((lengths[marks] != 1) | ((values[marks] != 0x61) & (values[marks] != 0x64)))
    if len(bad):
        offset = int(starts[marks[bad[0]]])
        raise ProofInputError(
            f"{name}: byte 0x{data[offset]:02x} at offset {offset:,} starts no step "
            "(binary DRAT steps start with 'a' or 'd'): not a DRAT proof"
        )
    is_mark = np.zeros(len(values), dtype=bool)
    is_mark[marks] = True
    ones = np.flatnonzero((values == 1) & ~is_mark)
    if len(ones):
        raise ProofInputError(f"{name}: offset {int(starts[ones[0]]):,}: the number 1 encodes no literal")
    complete = min(len(marks), len(zeros))  # steps that end in a zero
    if complete > max_clauses:
        raise _too_many(name, max_clauses)
    _check_time(end)
    # a step's literals: the numbers after its mark, up to its zero
    limit = int(zeros[complete - 1]) if complete else 0
    literal = ~is_mark[:limit] & (values[:limit] != 0)
    chosen = values[:limit][literal]
    literals = np.where(chosen & 1, -(chosen >> 1), chosen >> 1)
    starts = np.zeros(complete + 1, dtype=np.int64)
    np.cumsum(zeros[:complete] - marks[:complete] - 1, out=starts[1:])
    deleted = (values[marks[:complete]] == 0x64).astype(np.uint8)
    proof = Proof("drat", DratSteps(literals, starts, deleted), binary=True)
    if len(marks) > complete or tail:
        proof.defect = "the proof is truncated: its last clause is not terminated by 0"
    return proof


def drat_text(steps: Sequence[tuple[bool, Sequence[int]]]) -> str:
    return "".join(
        ("d " if deleted else "") + "".join(f"{lit} " for lit in lits) + "0\n" for deleted, lits in steps
    )


def drat_binary(steps: Sequence[tuple[bool, Sequence[int]]]) -> bytes:
    out = bytearray()
    for deleted, lits in steps:
        out.append(0x64 if deleted else 0x61)
        for lit in lits:
            value = 2 * lit if lit > 0 else -2 * lit + 1
            while value > 0x7F:
                out.append(value & 0x7F | 0x80)
                value >>= 7
            out.append(value)
        out.append(0)
    return bytes(out)


# ---------------------------------------------------------------------------
# LRAT
# ---------------------------------------------------------------------------
def parse_lrat(
    text: str, name: str = "proof", max_clauses: int = MAX_CLAUSES, end: float | None = None
) -> Proof:
    """``id lits 0 hints 0`` adds a clause; ``id d ids 0`` deletes clauses."""
    steps: list = []
    proof = Proof("lrat", steps)
    lines = text.rstrip().splitlines()
    for number, line in enumerate(lines, 1):
        if number % CHECK_TIME_EVERY == 0:
            _check_time(end)
        tokens = line.split()
        if not tokens or tokens[0].startswith("c"):
            continue
        if len(tokens) >= 2 and tokens[1] == "d":
            numbers = _ints(tokens[2:], " ".join(tokens[2:]), name, number, "clause id")
            if not numbers or numbers[-1] != 0:
                proof.defect = f"the proof is truncated: line {number} is not terminated by 0"
                return proof
            steps.append((0, (), tuple(numbers[:-1])))
        else:
            numbers = _ints(tokens, line, name, number, "number")
            zeros = [i for i, n in enumerate(numbers) if n == 0]
            if len(zeros) < 2 or zeros[1] != len(numbers) - 1 or zeros[0] == 0:
                if number == len(lines):
                    proof.defect = f"the proof is truncated or malformed at line {number} (an LRAT step reads 'id literals 0 hints 0')"
                    return proof
                raise ProofInputError(f"{name}: line {number}: an LRAT step reads 'id literals 0 hints 0'")
            clause_id = numbers[0]
            if clause_id <= 0:
                raise ProofInputError(f"{name}: line {number}: clause id {clause_id} is not positive")
            steps.append((clause_id, tuple(numbers[1 : zeros[0]]), tuple(numbers[zeros[0] + 1 : -1])))
        if len(steps) > max_clauses:
            raise _too_many(name, max_clauses)
    return proof
