"""Sudoku as pencil marks: each cell's candidates, read as the rule "this cell is one of these digits".

Two layouts are read (and written, so that what mindgames writes reads back):

* a **Sukaku line**: 729 characters, nine a cell in reading order; in a cell's nine, the
  character at place k (from 1) is the digit k when k is a candidate, else ``.`` or ``0``
  (``123456789`` is an open cell, ``....5....`` a cell that is 5).  A line of 729 symbols
  could also be a 27x27 Sudoku: it is a Sukaku line when every digit stands at its own place
  in its cell's nine (a 27x27 puzzle whose givens all do so is taken as Sukaku);
* a **candidate grid**: N rows (N = 4..9) of N groups of digits, one group a cell, with
  or without a frame (``|`` between boxes, ``+---+`` or ``.---.`` lines between bands),
  as Hodoku and most solvers print them.  A grid with some group of several digits is a
  candidate grid; with none it is the usual grid of givens.

Either way a cell with one candidate is a given, a cell with every digit is open, and any
other cell carries a :class:`~.variants.Candidates` rule (so a pencil-mark grid that marks
every cell open or solved is a plain Sudoku).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..errors import PuzzleError
from ..formats import error_at, place
from ..grid import cell_name
from .puzzle import Sudoku, make_puzzle
from .variants import Candidates, Constraints

SUKAKU_SIZE = 9
SUKAKU_LENGTH = SUKAKU_SIZE**3  # 729
_BLANK_MARKS = ".0"


def claims_sukaku(text: str) -> bool:
    """Is a line a Sukaku line: 729 characters, each a blank mark or the digit of its place?"""
    if len(text) != SUKAKU_LENGTH:
        return False
    return all(char in _BLANK_MARKS or char == str(i % 9 + 1) for i, char in enumerate(text))


def read_sukaku(text: str, where: str, box: tuple[int, int] = (3, 3), diagonals: bool = False) -> Sudoku:
    """A Sukaku line (:func:`claims_sukaku`) as its puzzle: givens and candidates."""
    groups = []
    for cell in range(SUKAKU_SIZE * SUKAKU_SIZE):
        marks = text[cell * 9 : cell * 9 + 9]
        groups.append(frozenset(int(char) for char in marks if char not in _BLANK_MARKS))
    rows = [groups[r * SUKAKU_SIZE : (r + 1) * SUKAKU_SIZE] for r in range(SUKAKU_SIZE)]
    return puzzle_of_marks(rows, where, box, diagonals)


def is_candidate_token(token: str) -> bool:
    """Is a token of a grid row a group of several candidate digits (1-9, each once, no blank)?"""
    return len(token) > 1 and token.isdigit() and "0" not in token and len(set(token)) == len(token)


def candidate_rows(rows: Sequence[tuple[int, list[str]]]) -> list[list[frozenset[int]]]:
    """The candidates of a candidate grid's rows: (line number, the row's tokens) each;
    PuzzleError naming the line and the group that is not digits 1..N each once."""
    size = len(rows)
    marks: list[list[frozenset[int]]] = []
    for number, tokens in rows:
        row = []
        for column, token in enumerate(tokens, start=1):
            digits = frozenset(int(char) for char in token) if token.isdigit() else None
            if digits is None or len(digits) != len(token) or not all(1 <= d <= size for d in digits):
                raise error_at(
                    place(line=number, column=column),
                    f"{token!r} is not a group of candidates 1..{size}, each once",
                )
            row.append(digits)
        if len(row) != size:
            raise error_at(place(line=number), f"{len(row)} cells in a row of a {size}x{size} candidate grid")
        marks.append(row)
    return marks


def puzzle_of_marks(
    marks: Sequence[Sequence[frozenset[int]]],
    where: str,
    box: tuple[int, int] | None,
    diagonals: bool,
) -> Sudoku:
    """The puzzle the pencil marks of every cell make: one candidate is a given, every digit
    an open cell, others a :class:`Candidates` rule; PuzzleError for a cell with none."""
    size = len(marks)
    grid = [[0] * size for _ in range(size)]
    rules: list[Candidates] = []
    for r, row in enumerate(marks):
        for c, digits in enumerate(row):
            if not digits:
                raise error_at(where, f"{cell_name((r, c))} has no candidate")
            if len(digits) == 1:
                grid[r][c] = next(iter(digits))
            elif len(digits) < size:
                rules.append(Candidates((r, c), digits))
    return with_candidates(grid, box, diagonals, tuple(rules), where)


def with_candidates(
    grid: list[list[int]],
    box: tuple[int, int] | None,
    diagonals: bool,
    candidates: tuple[Candidates, ...],
    where: str,
) -> Sudoku:
    """The puzzle of givens and candidate rules."""
    return make_puzzle(grid, box, None, diagonals, where, Constraints(candidates=candidates))


def cell_marks(puzzle: Sudoku) -> list[list[frozenset[int]]]:
    """Every cell's candidates as the puzzle states them: a given's digit, a rule's digits, or all."""
    size = puzzle.size
    every = frozenset(range(1, size + 1))
    marks = [[frozenset({v}) if v else every for v in row] for row in puzzle.grid]
    for rule in candidate_rules(puzzle):
        r, c = rule.cell
        marks[r][c] = marks[r][c] & rule.digits
    return marks


def candidate_rules(puzzle: Sudoku) -> tuple[Candidates, ...]:
    """The puzzle's candidate rules; PuzzleError when it has other variant rules, which pencil
    marks cannot show (a rule is never dropped)."""
    others = replace(puzzle.constraints, candidates=())
    if others:
        raise PuzzleError(f"pencil marks show candidates only, not {', '.join(others.names())}")
    return puzzle.constraints.candidates


def to_sukaku(puzzle: Sudoku) -> str:
    """The 729-character Sukaku line of a 9x9 puzzle with boxes (``.`` for a digit not a candidate)."""
    if puzzle.size != SUKAKU_SIZE or puzzle.regions is not None or puzzle.box != (3, 3):
        raise PuzzleError(f"a Sukaku line is a 9x9 Sudoku with 3x3 boxes, not {puzzle.variant}")
    if puzzle.diagonals:
        raise PuzzleError("a Sukaku line has no diagonals")
    return "".join(
        "".join(str(d) if d in digits else "." for d in range(1, 10))
        for row in cell_marks(puzzle)
        for digits in row
    )


def to_candidate_grid(puzzle: Sudoku) -> str:
    """The candidate grid of a puzzle of boxes (size 4..9): groups in columns as wide as the
    widest group, ``|`` between boxes, ``+---`` lines between bands."""
    size = puzzle.size
    if size > 9 or puzzle.regions is not None or puzzle.box is None:
        raise PuzzleError(f"a candidate grid is drawn for boxes up to 9x9, not {puzzle.variant}")
    box_rows, box_cols = puzzle.box
    marks = cell_marks(puzzle)
    width = max(len(digits) for row in marks for digits in row)
    lines = []
    rule = "-+-".join("-" * ((width + 1) * box_cols - 1) for _ in range(size // box_cols))
    for r, row in enumerate(marks):
        if r and r % box_rows == 0:
            lines.append(rule)
        cells = ["".join(map(str, sorted(digits))).ljust(width) for digits in row]
        bands = [" ".join(cells[c : c + box_cols]) for c in range(0, size, box_cols)]
        lines.append(" | ".join(bands).rstrip())
    return "\n".join(lines)
