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

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

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


class ProofInputError(ValueError):
    """A CNF or proof file that cannot be used at all (exit code 2)."""


@dataclass
class CNF:
    """A formula in conjunctive normal form; literals in DIMACS convention."""

    num_vars: int
    clauses: list[Sequence[int]]  # tuples when read from a file; never modified


@dataclass
class Proof:
    """A parsed clausal proof.

    DRAT: ``steps`` holds ``(deleted, literals)`` pairs, in proof order.
    LRAT: ``steps`` holds ``(clause_id, literals, hints)`` for additions and
    ``(0, (), ids)`` for deletions (``ids`` are the deleted clauses).
    ``defect`` says why the file is a broken proof (e.g. truncated); the
    checker rejects a proof with a defect before looking at any lemma."""

    kind: ProofKind
    steps: list = field(default_factory=list)
    binary: bool = False
    defect: str | None = None

    @property
    def lemmas(self) -> int:
        """Added clauses (deletions not counted)."""
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


def read_cnf(path: str | Path, max_bytes: int = MAX_BYTES, max_clauses: int = MAX_CLAUSES) -> CNF:
    data = read_bytes(path, max_bytes, "DIMACS CNF file")
    return parse_dimacs(data, str(path), max_clauses)


def read_proof(
    path: str | Path,
    max_bytes: int = MAX_BYTES,
    max_clauses: int = MAX_CLAUSES,
    kind: Literal["auto", "drat", "lrat"] = "auto",
) -> Proof:
    data = read_bytes(path, max_bytes, "proof file")
    return parse_proof(data, str(path), max_clauses, kind)


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


def _ints(tokens: list[str], name: str, number: int) -> list[int]:
    try:
        return list(map(int, tokens))
    except ValueError:
        bad = next(t for t in tokens if not t.lstrip("-").isdigit())
        raise ProofInputError(f"{name}: line {number}: {bad!r} is not a literal") from None


def parse_dimacs(data: bytes, name: str = "CNF", max_clauses: int = MAX_CLAUSES) -> CNF:
    """A DIMACS CNF; the ``p cnf V C`` header must tell the truth about V and C."""
    text = _text(data, name, "DIMACS CNF file")
    num_vars = declared = -1
    clauses: list[tuple[int, ...]] = []
    pending: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        tokens = line.split()
        if not tokens or tokens[0].startswith("c"):
            continue
        if tokens[0] == "%":  # SATLIB files end with "%" and a stray "0"
            break
        if tokens[0] == "p":
            if num_vars >= 0:
                raise ProofInputError(f"{name}: line {number}: a second 'p cnf' header")
            if len(tokens) != 4 or tokens[1] != "cnf" or not (tokens[2].isdigit() and tokens[3].isdigit()):
                raise ProofInputError(
                    f"{name}: line {number}: the header must read 'p cnf VARIABLES CLAUSES'"
                )
            num_vars, declared = int(tokens[2]), int(tokens[3])
            if num_vars > MAX_VARIABLES:
                raise ProofInputError(f"{name}: {num_vars:,} variables, over the limit of {MAX_VARIABLES:,}")
            if declared > max_clauses:
                raise ProofInputError(f"{name}: {declared:,} clauses, over the limit of {max_clauses:,}")
            continue
        if num_vars < 0:
            raise ProofInputError(
                f"{name}: line {number}: a clause before the 'p cnf' header (not DIMACS CNF)"
            )
        lits = _ints(tokens, name, number)
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
) -> Proof:
    """DRAT (text or binary, told apart as drat-trim does) or LRAT text."""
    if is_binary_drat(data):
        if kind == "lrat":
            raise ProofInputError(f"{name}: binary data, not an LRAT text proof")
        return parse_binary_drat(data, name, max_clauses)
    text = _text(data, name, "DRAT or LRAT proof")
    if kind == "auto":
        kind = "lrat" if _looks_like_lrat(text) else "drat"
    if kind == "lrat":
        return parse_lrat(text, name, max_clauses)
    return parse_text_drat(text, name, max_clauses)


def is_binary_drat(data: bytes) -> bool:
    """Binary DRAT starts with 'a' (which no text proof does) or with 'd' and
    non-text bytes soon after; anything else is read as text."""
    if not data or data[0] not in (0x61, 0x64):
        return False
    return data[0] == 0x61 or any(b not in _TEXT_BYTES for b in data[:_SNIFF_BYTES])


def _looks_like_lrat(text: str) -> bool:
    """LRAT lines start with a clause id and carry two 0s (``id lits 0 hints 0``) or ``id d``."""
    for line in text.splitlines():
        tokens = line.split()
        if not tokens or tokens[0].startswith("c"):
            continue
        if len(tokens) >= 2 and tokens[0] != "d" and tokens[1] == "d":
            return True
        return tokens.count("0") >= 2
    return False


# ---------------------------------------------------------------------------
# DRAT
# ---------------------------------------------------------------------------
def _too_many(name: str, max_clauses: int) -> ProofInputError:
    return ProofInputError(f"{name}: more than {max_clauses:,} proof steps, over the limit")


def parse_text_drat(text: str, name: str = "proof", max_clauses: int = MAX_CLAUSES) -> Proof:
    steps: list[tuple[bool, tuple[int, ...]]] = []
    deleted = False
    pending: list[int] = []
    lines = text.splitlines()
    # A file cut just after a minus sign: a truncated proof, not a malformed one.
    cut_at_sign = bool(lines) and not text.endswith(("\n", "\r")) and lines[-1].endswith("-")
    if cut_at_sign:
        lines[-1] = lines[-1][:-1]
    for number, line in enumerate(lines, 1):
        tokens = line.split()
        if not tokens or tokens[0].startswith("c"):
            continue
        if tokens[0] == "d":
            if pending:
                raise ProofInputError(f"{name}: line {number}: 'd' inside an unterminated clause")
            deleted = True
            tokens = tokens[1:]
        lits = _ints(tokens, name, number)
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


def parse_binary_drat(data: bytes, name: str = "proof", max_clauses: int = MAX_CLAUSES) -> Proof:
    """Binary DRAT: 'a' or 'd', then literals as variable-length 2*var+sign numbers, then 0."""
    steps: list[tuple[bool, tuple[int, ...]]] = []
    position, end = 0, len(data)
    while position < end:
        mark = data[position]
        if mark not in (0x61, 0x64):
            raise ProofInputError(
                f"{name}: byte 0x{mark:02x} at offset {position} starts no step "
                "(binary DRAT steps start with 'a' or 'd'): not a DRAT proof"
            )
        position += 1
        lits: list[int] = []
        while True:
            value = shift = 0
            while True:
                if position >= end:
                    proof = Proof("drat", steps, binary=True)
                    proof.defect = "the proof is truncated: its last clause is not terminated by 0"
                    return proof
                byte = data[position]
                position += 1
                value |= (byte & 0x7F) << shift
                if byte < 0x80:
                    break
                shift += 7
            if value == 0:
                break
            if value == 1:
                raise ProofInputError(f"{name}: offset {position - 1}: the number 1 encodes no literal")
            lits.append(-(value >> 1) if value & 1 else value >> 1)
        steps.append((mark == 0x64, tuple(lits)))
        if len(steps) > max_clauses:
            raise _too_many(name, max_clauses)
    return Proof("drat", steps, binary=True)


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
def parse_lrat(text: str, name: str = "proof", max_clauses: int = MAX_CLAUSES) -> Proof:
    """``id lits 0 hints 0`` adds a clause; ``id d ids 0`` deletes clauses."""
    steps: list = []
    proof = Proof("lrat", steps)
    lines = text.rstrip().splitlines()
    for number, line in enumerate(lines, 1):
        tokens = line.split()
        if not tokens or tokens[0].startswith("c"):
            continue
        if len(tokens) >= 2 and tokens[1] == "d":
            numbers = _ints(tokens[2:], name, number)
            if not numbers or numbers[-1] != 0:
                proof.defect = f"the proof is truncated: line {number} is not terminated by 0"
                return proof
            steps.append((0, (), tuple(numbers[:-1])))
        else:
            numbers = _ints(tokens, name, number)
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
