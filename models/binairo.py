"""Binairo (Takuzu): fill a grid with 0s and 1s.

The rules, stated once (:data:`RULES`), for an ``rows x cols`` grid, both even:

* ``balance``  every row and every column has as many 0s as 1s;
* ``triples``  no three equal cells next to each other in a row or column;
* ``distinct`` no two rows are equal and no two columns are equal
  (``takuzu`` rules only: Simon Tatham's ``unruly`` drops it).

:func:`compile` turns them into a :class:`solver.Model`; :func:`verify`
checks a finished grid against them directly, without the model, so an
engine's answer is always judged by independent code.  :func:`generate` and
:func:`minimize` make puzzles with one solution from which no given can be
removed, on one incremental SAT session (no rebuild per uniqueness check).

A puzzle is a :class:`Puzzle`: ``cells[r][c]`` is 0, 1 or None (blank).
"""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator, Sequence

from solver import Assignment, Model, get_engine, is_true

from . import grid, kind
from .draw import marked_rows
from .errors import PuzzleError, shorten
from .grid import Unit
from .kind import GridKind, Option

name = "binairo"
RULE_SETS = ("takuzu", "unruly")
RULES = {
    "balance": "every row and column has as many 0s as 1s",
    "triples": "no three equal cells next to each other in a row or column",
    "distinct": "no two rows and no two columns are equal (takuzu only)",
}
BLANK = "."
MAX_SIDE = 64

Grid = tuple[tuple[int | None, ...], ...]


@dataclass(frozen=True)
class Puzzle:
    """A grid of 0, 1 and None, and the rule set it is to be solved under."""

    cells: Grid
    rules: str = "takuzu"

    @property
    def rows(self) -> int:
        return len(self.cells)

    @property
    def cols(self) -> int:
        return len(self.cells[0]) if self.cells else 0

    @property
    def givens(self) -> int:
        return sum(v is not None for row in self.cells for v in row)

    def text(self) -> str:
        return "\n".join(grid_rows(self.cells))

    def line(self) -> str:
        return self.text().replace("\n", "")


# -- lines of the grid: what every rule speaks about ---------------------------------------


def lines(rows: int, cols: int) -> list[Unit]:
    return grid.rows(rows, cols) + grid.columns(rows, cols)


def families(rows: int, cols: int) -> list[list[Unit]]:
    """The groups whose members must differ pairwise: all rows; all columns."""
    return [grid.rows(rows, cols), grid.columns(rows, cols)]


def check_rules_set(rules: str) -> str:
    if rules not in RULE_SETS:
        raise PuzzleError(f"unknown rule set {rules!r}; choose {' or '.join(RULE_SETS)}")
    return rules


def check_size(rows: int, cols: int) -> None:
    for what, n in (("rows", rows), ("columns", cols)):
        if n < 2 or n % 2 or n > MAX_SIDE:
            raise PuzzleError(
                f"a binairo grid needs an even number of {what} from 2 to {MAX_SIDE}, not {n}"
            )


# -- the model ------------------------------------------------------------------------------


@dataclass
class Encoding:
    model: Model
    rows: int
    cols: int
    rules: str
    x: list[list[int]]  # x[r][c] is true when the cell holds 1
    extra: dict[str, Any] = field(default_factory=dict)


def shape(puzzle: Puzzle) -> tuple[int, int, str]:
    return (puzzle.rows, puzzle.cols, puzzle.rules)


def compile(key: tuple[int, int, str]) -> Encoding:  # noqa: A001 - the runner's protocol name
    """The rules as a Boolean model over one primary variable per cell."""
    rows, cols, rules = key
    check_size(rows, cols)
    model = Model()
    x = [[model.new_var(f"r{r + 1}c{c + 1}", primary=True) for c in range(cols)] for r in range(rows)]
    for row in x:
        for var in row:
            # Each cell is a choice tried 0 first, then 1: the seed's order for backtracking.
            model.choices.append((-var, var))
    for line in lines(rows, cols):
        lits = [x[r][c] for r, c in line.cells]
        model.add_exactly(lits, len(lits) // 2)  # balance
        for a, b, c in zip(lits, lits[1:], lits[2:]):  # triples: not all 1, not all 0
            model.add_clause((-a, -b, -c))
            model.add_clause((a, b, c))
    if rules == "takuzu":
        for family in families(rows, cols):
            for i, first in enumerate(family):
                for second in family[i + 1 :]:
                    _add_different(model, x, first, second)
    return Encoding(model, rows, cols, rules, x)


def _add_different(model: Model, x: list[list[int]], first: Unit, second: Unit) -> None:
    """Two lines differ somewhere.  Each ``d_k <-> (a_k XOR b_k)`` is defined both ways,
    so every cell assignment has exactly one extension: counts over cells stay exact."""
    diffs = []
    for (r1, c1), (r2, c2) in zip(first.cells, second.cells):
        d = model.new_var()
        model.add_xor(d, x[r1][c1], x[r2][c2])
        diffs.append(d)
    model.add_clause(diffs)


def givens(encoding: Encoding, puzzle: Puzzle) -> list[int]:
    return [
        encoding.x[r][c] if v else -encoding.x[r][c]
        for r, row in enumerate(puzzle.cells)
        for c, v in enumerate(row)
        if v is not None
    ]


def decode(encoding: Encoding, assignment: Assignment) -> list[list[int]]:
    return [[int(is_true(assignment, v)) for v in row] for row in encoding.x]


# -- independent verification --------------------------------------------------------------


def _runs(values: Sequence[int | None]) -> Iterator[tuple[int, int]]:
    """(start, value) of every three equal, filled cells in a row."""
    for i in range(len(values) - 2):
        a, b, c = values[i : i + 3]
        if a is not None and a == b == c:
            yield i, a


def _cells_text(line: Unit, start: int, length: int) -> str:
    (r0, c0), (r1, c1) = line.cells[start], line.cells[start + length - 1]
    if line.name.startswith("row"):
        return f"{line.name}, columns {c0 + 1}-{c1 + 1}"
    return f"{line.name}, rows {r0 + 1}-{r1 + 1}"


def grid_problems(
    cells: Sequence[Sequence[int | None]], rules: str, complete: bool
) -> list[str]:
    """Every broken rule in a grid, named with where it breaks.

    ``complete=False`` judges a partial grid: only what the filled cells
    already break (a line with more than half 1s, three equal in a row, two
    *full* lines equal)."""
    rows, cols = len(cells), len(cells[0])
    problems: list[str] = []
    for line in lines(rows, cols):
        values = [cells[r][c] for r, c in line.cells]
        ones, zeros, half = values.count(1), values.count(0), len(values) // 2
        if (complete and ones != half) or ones > half or zeros > half:
            problems.append(
                f"balance: {line.name} has {ones} ones and {zeros} zeros (each must be {half})"
            )
        for start, value in _runs(values):
            problems.append(f"triples: {_cells_text(line, start, 3)} are three {value}s in a line")
    if rules == "takuzu":
        for family in families(rows, cols):
            seen: dict[tuple, str] = {}
            for line in family:
                values = tuple(cells[r][c] for r, c in line.cells)
                if None in values:
                    continue
                if values in seen:
                    problems.append(f"distinct: {seen[values]} and {line.name} are equal")
                else:
                    seen[values] = line.name
    return problems


def verify(puzzle: Puzzle, solution: Sequence[Sequence[int]]) -> list[str]:
    """The problems of ``solution`` as an answer to ``puzzle`` (empty: it is right)."""
    if len(solution) != puzzle.rows or any(len(row) != puzzle.cols for row in solution):
        return [f"the solution is not a {puzzle.rows}x{puzzle.cols} grid"]
    problems = [
        f"r{r + 1}c{c + 1} is {v!r}, not 0 or 1"
        for r, row in enumerate(solution)
        for c, v in enumerate(row)
        if v not in (0, 1)
    ]
    if problems:
        return problems
    problems += [
        f"given: r{r + 1}c{c + 1} was given as {g} but the solution has {solution[r][c]}"
        for r, row in enumerate(puzzle.cells)
        for c, g in enumerate(row)
        if g is not None and g != solution[r][c]
    ]
    return problems + grid_problems(solution, puzzle.rules, complete=True)


def explain_unsolvable(puzzle: Puzzle) -> str | None:
    """Where the givens alone already break a rule, if they do."""
    problems = grid_problems(puzzle.cells, puzzle.rules, complete=False)
    if problems:
        return "the givens break the rules: " + "; ".join(problems)
    return f"no grid satisfies the {puzzle.rules} rules with these givens"


# -- parsing -------------------------------------------------------------------------------

_CELL = {"0": 0, "1": 1, ".": None}


@dataclass
class Parsed:
    """One puzzle of a collection, or the error that makes it unusable."""

    puzzle: Puzzle | None
    error: str | None = None
    source: str = ""


def _row(text: str, where: str) -> tuple[int | None, ...]:
    cells = []
    for i, ch in enumerate(text):
        if ch not in _CELL:
            raise PuzzleError(f"{where}, character {i + 1}: {shorten(repr(ch))} is not 0, 1 or '.'")
        cells.append(_CELL[ch])
    return tuple(cells)


def make_puzzle(cells: Sequence[Sequence[int | None]], rules: str = "takuzu") -> Puzzle:
    """A checked :class:`Puzzle` (rectangular, even sides, values 0/1/None)."""
    check_rules_set(rules)
    if not cells or not cells[0]:
        raise PuzzleError("the grid is empty")
    width = len(cells[0])
    for r, row in enumerate(cells):
        if len(row) != width:
            raise PuzzleError(f"row {r + 1} has {len(row)} cells, row 1 has {width}")
    check_size(len(cells), width)
    return Puzzle(tuple(tuple(row) for row in cells), rules)


def _side(length: int) -> int | None:
    """The side of a square puzzle written on one line of ``length`` cells (4x4 and up)."""
    side = int(round(length**0.5))
    return side if side * side == length and side % 2 == 0 and side >= 4 else None


HEADER = "# mindgames binairo"  # then key=value words: rules=takuzu|unruly
HEADER_KEYS = ("rules",)


def header_line(rules: str) -> str:
    """The header comment that makes a text file say its rule set (read back by :func:`parse`)."""
    return f"{HEADER} rules={rules}"


def _read_header(line: str, number: int) -> dict[str, str] | None:
    """The settings of a ``# mindgames KIND key=value ...`` header line, None for a plain comment."""
    words = line.lstrip("#").split()
    if words[:1] != ["mindgames"]:
        return None
    where = f"line {number}"
    if len(words) < 2 or words[1] != name:
        stated = words[1] if len(words) > 1 else "no kind"
        raise PuzzleError(f"{where}: a mindgames header for {shorten(stated)}, not for binairo")
    settings: dict[str, str] = {}
    for word in words[2:]:
        key, sep, value = word.partition("=")
        if key not in HEADER_KEYS:
            raise PuzzleError(f"{where}: unknown header key {shorten(repr(key))} "
                              f"(known: {', '.join(HEADER_KEYS)})")
        if not sep or value not in RULE_SETS:
            raise PuzzleError(f"{where}: rules={shorten(value)} is not {' or '.join(RULE_SETS)}")
        settings[key] = value
    return settings


def _agreed_rules(found: str | None, asked: str | None, where: str) -> str:
    """The rule set a file (header or record) says, checked against the one asked for."""
    if found is not None and asked is not None and found != asked:
        raise PuzzleError(f"{where} says rules={found}, but rules {asked} were asked for")
    return found or asked or "takuzu"


def _one_per_line(tokens: list[list[str]]) -> bool:
    """Is a block of lines a list of one-line puzzles rather than one grid?

    A block is one grid (one row per line, whatever its shape) unless every
    line holds n*n cells (n even, at least 4) and the block cannot be a grid or
    says it is a list: some line carries a second field (its known solution),
    or the block has a single line, an odd number of lines, or lines longer
    than a grid row can be (64 cells)."""
    if any(len(t) > 2 for t in tokens) or not all(_side(len(t[0])) for t in tokens):
        return False
    return (
        any(len(t) == 2 for t in tokens)
        or len(tokens) % 2 == 1
        or any(len(t[0]) > MAX_SIDE for t in tokens)
    )


def _parse_text(text: str, rules: str | None) -> list[Parsed]:
    """Grids (one row per line, blank line between puzzles) or one puzzle per line.

    A line-per-puzzle line holds n*n cells, optionally followed by a known
    solution (the format of the shared data sets), which is ignored here.
    A ``# mindgames binairo rules=...`` header sets the rules of the puzzles after it."""
    found: list[Parsed] = []
    block: list[tuple[int, str]] = []
    header_rules: list[tuple[int, str | None]] = [(0, None)]  # (line, rules) of the last header

    def flush() -> None:
        if not block:
            return
        header_at, said = header_rules[-1]
        puzzle_rules = _agreed_rules(said, rules, f"the header at line {header_at}")
        tokens = [line.split() for _, line in block]
        if _one_per_line(tokens):
            for (number, _), t in zip(block, tokens):
                where = f"line {number}"
                try:
                    side = _side(len(t[0])) or 0
                    flat = _row(t[0], where)
                    cells = [flat[i : i + side] for i in range(0, len(flat), side)]
                    found.append(Parsed(make_puzzle(cells, puzzle_rules), source=where))
                except PuzzleError as error:
                    message = str(error) if str(error).startswith("line") else f"{where}: {error}"
                    found.append(Parsed(None, message, where))
        else:
            first = block[0][0]
            where = f"puzzle at line {first}"
            try:
                cells = [_row("".join(line.split()), f"line {n}") for n, line in block]
                for (number, _), row in zip(block, cells):
                    if len(row) != len(cells[0]):
                        raise PuzzleError(f"line {number} has {len(row)} cells, "
                                          f"line {first} (the first row) has {len(cells[0])}")
                found.append(Parsed(make_puzzle(cells, puzzle_rules), source=where))
            except PuzzleError as error:
                found.append(Parsed(None, f"{where}: {error}", where))
        block.clear()

    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            flush()
            settings = _read_header(stripped, number) if stripped else None
            if settings is not None:
                header_rules.append((number, settings.get("rules")))
        else:
            block.append((number, stripped))
    flush()
    return found


def _json_cell(value: Any, where: str) -> int | None:
    if value is None or value == -1 or value == ".":
        return None
    if value in (0, 1) and not isinstance(value, bool) or value in ("0", "1"):
        return int(value)
    raise PuzzleError(f"{where}: {shorten(json.dumps(value))} is not 0, 1, null or -1")


# Keys of the records mindgames writes (generate/solve/check/count --json): read back, ignored.
OUTPUT_KEYS = frozenset({
    "index", "status", "solution", "uniqueness", "solutions", "count", "complete", "engine",
    "seconds", "error", "message", "givens", "minimal", "seed", "size", "givens_before", "puzzle",
})
INPUT_KEYS = frozenset({"grid", "rules"})


def _parse_json_item(item: Any, index: int, rules: str | None) -> Parsed:
    where = f"puzzle {index + 1}"
    try:
        if isinstance(item, dict):
            unknown = sorted(set(item) - INPUT_KEYS - OUTPUT_KEYS)
            if unknown:
                raise PuzzleError(f"unknown key {shorten(repr(unknown[0]))} "
                                  f"(known: {', '.join(sorted(INPUT_KEYS))} and the keys of "
                                  "mindgames' own output records)")
            if "grid" not in item:
                raise PuzzleError("no \"grid\" key")
            item_rules = item.get("rules")
            if item_rules is not None and item_rules not in RULE_SETS:
                raise PuzzleError(f"\"rules\" is {shorten(json.dumps(item_rules))}, "
                                  f"not {' or '.join(RULE_SETS)}")
            item_rules = _agreed_rules(item_rules, rules, "the record")
            grid = item["grid"]
        else:
            item_rules, grid = rules or "takuzu", item
        if isinstance(grid, str):
            inner = _parse_text(grid, item_rules)
            if len(inner) != 1:
                raise PuzzleError(f"\"grid\" holds {len(inner)} puzzles, not one")
            return inner[0]
        if not isinstance(grid, list) or not all(isinstance(row, list) for row in grid):
            raise PuzzleError("\"grid\" must be a list of rows")
        cells = [
            [_json_cell(v, f"row {r + 1}, column {c + 1}") for c, v in enumerate(row)]
            for r, row in enumerate(grid)
        ]
        return Parsed(make_puzzle(cells, item_rules), source=where)
    except PuzzleError as error:
        return Parsed(None, f"{where}: {error}", where)


def _is_grid(data: list) -> bool:
    """A bare grid (a list of rows of cells), rather than a list of puzzles."""
    return bool(data) and isinstance(data[0], list) and not any(
        isinstance(v, (list, dict)) for v in data[0]
    )


def _json_documents(text: str) -> list[Any]:
    """One JSON document, or JSON lines (one record per line, as ``--json`` writes them)."""
    try:
        return [json.loads(text)]
    except json.JSONDecodeError as error:
        whole = error
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) < 2:
        raise PuzzleError(f"invalid JSON at line {whole.lineno}, column {whole.colno}: {whole.msg}")
    documents = []
    for number, line in lines:
        try:
            documents.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise PuzzleError(f"invalid JSON at line {number}, column {error.colno}: {error.msg}") from None
    return documents


def parse(text: str, rules: str | None = None) -> list[Parsed]:
    """Every puzzle in ``text``; a bad puzzle becomes a :class:`Parsed` with an error.

    ``rules`` None: as the text says (header or record), else takuzu; a rule
    set given here that contradicts the text is an error.  Raises
    :class:`PuzzleError` only when the text as a whole is unusable."""
    if rules is not None:
        check_rules_set(rules)
    stripped = text.strip()
    if stripped[:1] in "{[":
        items: list[Any] = []
        for data in _json_documents(stripped):
            if isinstance(data, dict) and "puzzles" in data:
                data = data["puzzles"]
            items += data if isinstance(data, list) and not _is_grid(data) else [data]
        if not items:
            raise PuzzleError("the JSON holds no puzzle")
        return [_parse_json_item(item, i, rules) for i, item in enumerate(items)]
    found = _parse_text(text, rules)
    if not found:
        raise PuzzleError("no puzzle found")
    return found


def parse_one(text: str, rules: str | None = None) -> Puzzle:
    """Exactly one puzzle, or PuzzleError."""
    found = parse(text, rules)
    if found[0].puzzle is None:
        raise PuzzleError(found[0].error or "not a puzzle")
    return found[0].puzzle


def parse_size(text: str) -> tuple[int, int]:
    """``N`` (square) or ``RxC`` (rows x columns) -> (rows, cols), both even."""
    match = re.fullmatch(r"\s*(\d+)\s*(?:[xX*]\s*(\d+))?\s*", text)
    if not match:
        raise PuzzleError(f"size {shorten(repr(text))} is not N or ROWSxCOLS (e.g. 10 or 6x8)")
    rows = int(match.group(1))
    cols = int(match.group(2) or rows)
    check_size(rows, cols)
    return rows, cols


# -- generation and minimization -----------------------------------------------------------


class Generator:
    """Makes and minimizes puzzles of one shape on one incremental SAT session.

    The rules are compiled once.  A candidate set of givens is tested for
    uniqueness by one call: solve under the givens plus "differ from the
    known solution somewhere", a clause guarded by an activation literal that
    is retired when that puzzle is done.  UNSAT means unique."""

    def __init__(self, rows: int, cols: int, rules: str = "takuzu"):
        self.encoding = compile((rows, cols, rules))
        self.session = get_engine("sat").prepare(self.encoding.model)
        self.rows, self.cols, self.rules = rows, cols, rules
        self.checks = 0

    def _cells(self) -> list[int]:
        return [v for row in self.encoding.x for v in row]

    def random_solution(
        self, rng: random.Random, deadline: float | None = None,
        on_step: Callable[[], None] | None = None,
    ) -> list[int] | None:
        """A random complete grid as literals: cells fixed in random order to random values,
        each kept if the rest can still be completed (one solve only when the current model
        disagrees).  None if ``deadline`` (a ``time.monotonic()`` value) passes first;
        ``on_step()`` is called per cell."""
        first = self.session.solve((), _left(deadline))
        if first.status == "unknown":
            return None
        if first.status != "sat":
            raise PuzzleError(f"no {self.rows}x{self.cols} grid exists under the {self.rules} rules")
        model = first.assignment
        fixed: list[int] = []
        cells = self._cells()
        rng.shuffle(cells)
        for var in cells:
            if on_step is not None:
                on_step()
            if deadline is not None and time.monotonic() > deadline:
                return None
            want = var if rng.random() < 0.5 else -var
            if is_true(model, want):
                fixed.append(want)
                continue
            answer = self.session.solve(fixed + [want], _left(deadline))
            if answer.status == "unknown":
                return None
            if answer.status == "sat":
                model = answer.assignment
                fixed.append(want)
            else:
                fixed.append(-want)
        return [v if is_true(model, v) else -v for v in self._cells()]

    def minimize(
        self, solution: list[int], keep: Sequence[int], rng: random.Random,
        deadline: float | None = None, on_step: Callable[[], None] | None = None,
    ) -> tuple[list[int], bool]:
        """Remove givens one at a time (random order) while the solution stays unique.

        One pass is enough for minimality: a given that could not be removed
        from a larger set cannot be removed from a smaller one either (fewer
        givens never remove solutions).  Stops at ``deadline`` (``time.monotonic()``);
        ``on_step()`` is called per given tried.  Returns (givens, finished)."""
        activation = self.session.new_activation()
        self.session.solver.add_clause([-activation, *(-lit for lit in solution)])
        current = list(keep)
        order = list(current)
        rng.shuffle(order)
        finished = True
        try:
            for lit in order:
                if on_step is not None:
                    on_step()
                if deadline is not None and time.monotonic() > deadline:
                    finished = False
                    break
                trial = [g for g in current if g != lit]
                self.checks += 1
                other = self._satisfiable(trial + [activation], deadline)
                if other is None:
                    finished = False
                    break
                if not other:
                    current = trial
        finally:
            self.session.solver.add_clause([-activation])
        return current, finished

    def _satisfiable(self, assumptions: list[int], deadline: float | None) -> bool | None:
        """One SAT call; None if ``deadline`` passes first (the plain call is cheaper: no model)."""
        if deadline is None:
            return self.session.solver.solve(assumptions=assumptions)
        answer = self.session.solve(assumptions, _left(deadline))
        return None if answer.status == "unknown" else answer.status == "sat"

    def is_unique(self, solution: list[int], given: Sequence[int]) -> bool:
        activation = self.session.new_activation()
        self.session.solver.add_clause([-activation, *(-lit for lit in solution)])
        try:
            self.checks += 1
            return not self.session.solver.solve(assumptions=list(given) + [activation])
        finally:
            self.session.solver.add_clause([-activation])

    def to_puzzle(self, given: Sequence[int]) -> Puzzle:
        values = {abs(lit): int(lit > 0) for lit in given}
        return Puzzle(
            tuple(tuple(values.get(v) for v in row) for row in self.encoding.x), self.rules
        )

    def to_grid(self, solution: Sequence[int]) -> list[list[int]]:
        values = {abs(lit): int(lit > 0) for lit in solution}
        return [[values[v] for v in row] for row in self.encoding.x]

    def literals(self, puzzle: Puzzle) -> list[int]:
        return givens(self.encoding, puzzle)


def _left(deadline: float | None) -> float | None:
    """Seconds until ``deadline`` (a ``time.monotonic()`` value), for an engine's time limit."""
    return None if deadline is None else max(0.001, deadline - time.monotonic())


def generate(
    rows: int, cols: int, rules: str = "takuzu", seed: int | None = None, count: int = 1
) -> Iterator[tuple[Puzzle, list[list[int]]]]:
    """``count`` minimal puzzles with exactly one solution, reproducible from ``seed``."""
    rng = random.Random(seed)
    generator = Generator(rows, cols, rules)
    for _ in range(count):
        solution = generator.random_solution(rng)
        assert solution is not None  # no deadline
        given, _ = generator.minimize(solution, solution, rng)
        yield generator.to_puzzle(given), generator.to_grid(solution)


# -- the kind object: what the interfaces and the runner ask of binairo ---------------------


def grid_rows(cells: Sequence[Sequence[int | None]]) -> list[str]:
    """A grid (a puzzle's cells or a solution) as rows of ``0``, ``1`` and ``.``."""
    return ["".join(BLANK if v is None else str(v) for v in row) for row in cells]


def clashing_cells(puzzle: Puzzle) -> list[tuple[int, int]]:
    """Given cells that already break a rule (:func:`grid_problems` on the givens), for highlighting."""
    cells = puzzle.cells
    found: set[tuple[int, int]] = set()
    for line in lines(puzzle.rows, puzzle.cols):
        values = [cells[r][c] for r, c in line.cells]
        half = len(values) // 2
        for v in (0, 1):
            if values.count(v) > half:  # balance
                found.update(cell for cell, x in zip(line.cells, values) if x == v)
        for start, _ in _runs(values):  # triples
            found.update(line.cells[start : start + 3])
    if puzzle.rules == "takuzu":  # distinct
        for family in families(puzzle.rows, puzzle.cols):
            seen: dict[tuple, Unit] = {}
            for line in family:
                values = tuple(cells[r][c] for r, c in line.cells)
                if None in values:
                    continue
                if values in seen:
                    found.update(seen[values].cells)
                    found.update(line.cells)
                seen.setdefault(values, line)
    return sorted(found)


RULES_OPTION = Option("rules", "takuzu (all rules) or unruly (rows/columns may repeat); "
                               "default: what the file says (header or JSON), else takuzu",
                      choices=RULE_SETS)
SIZE_OPTION = Option("size", "grid size: N or ROWSxCOLS (both even), e.g. 10 or 6x8", parse=parse_size)


class BinairoKind(GridKind[Puzzle]):
    """Binairo as a kind: every method is this module's functions, under the kind's names."""

    name = "binairo"
    summary = "binairo (takuzu, unruly): fill a grid with 0s and 1s"
    formats = (
        "one row per line of 0, 1 and '.' (a string with newlines)",
        "one puzzle on one line (N*N cells)",
        "a list of rows of 0, 1, null (or -1) for a blank",
        'an object {"grid": ..., "rules": "takuzu" | "unruly"}',
    )
    options = (RULES_OPTION,)
    generate_options = (SIZE_OPTION, RULES_OPTION)

    def read(self, text: str, rules: str | None = None) -> list[kind.Parsed[Puzzle]]:
        return [
            kind.Parsed(puzzle=item.puzzle) if item.puzzle is not None
            else kind.Parsed(error=PuzzleError(item.error or "not a puzzle"))
            for item in parse(text, rules)
        ]

    def parse_value(self, value: Any, rules: str | None = None) -> Puzzle:
        """One puzzle; ``rules`` None: as the puzzle says (header or "rules" key), else takuzu."""
        text = value if isinstance(value, str) else json.dumps(value)
        found = parse(text, rules)
        if len(found) != 1:
            raise PuzzleError(f"expected one puzzle, found {len(found)}")
        if found[0].puzzle is None:
            raise PuzzleError(found[0].error or "not a puzzle")
        return found[0].puzzle

    def write(self, puzzle: Puzzle) -> str:
        return f"{header_line(puzzle.rules)}\n{puzzle.text()}\n"

    def to_json(self, puzzle: Puzzle) -> dict[str, Any]:
        return {"grid": [list(row) for row in puzzle.cells], "rules": puzzle.rules}

    def shape(self, puzzle: Puzzle) -> tuple[int, int, str]:
        return shape(puzzle)

    def compile(self, shape: tuple[int, int, str]) -> Encoding:
        return compile(shape)

    def givens(self, encoding: Encoding, puzzle: Puzzle) -> list[int]:
        return givens(encoding, puzzle)

    def decode(self, encoding: Encoding, assignment: Assignment) -> list[list[int]]:
        return decode(encoding, assignment)

    def verify(self, puzzle: Puzzle, solution: Any) -> list[str]:
        return verify(puzzle, solution)

    def describe(self, puzzle: Puzzle) -> str:
        return f"{puzzle.rows}x{puzzle.cols} {puzzle.rules}"

    def draw(self, puzzle: Puzzle, solution: Any = None, color: bool = False) -> list[str]:
        if solution is None:
            return marked_rows(grid_rows(puzzle.cells), None, color)
        return marked_rows(grid_rows(solution), puzzle.cells, color)

    def explain_unsolvable(self, puzzle: Puzzle) -> str | None:
        return explain_unsolvable(puzzle)

    def clashing_cells(self, puzzle: Puzzle) -> list[tuple[int, int]]:
        return clashing_cells(puzzle)

    def result_fields(self, puzzle: Puzzle) -> dict[str, Any]:
        return {"rules": puzzle.rules}

    def empty(self, size: tuple[int, int] | str, rules: str | None = None) -> Puzzle:
        rows, cols = parse_size(size) if isinstance(size, str) else size
        return make_puzzle([[None] * cols for _ in range(rows)], rules or "takuzu")

    def given_cells(self, puzzle: Puzzle) -> dict[kind.Cell, int]:
        return {
            (r, c): v for r, row in enumerate(puzzle.cells) for c, v in enumerate(row) if v is not None
        }

    def with_givens(self, puzzle: Puzzle, givens: dict[kind.Cell, int]) -> Puzzle:
        cells = tuple(
            tuple(givens.get((r, c)) for c in range(puzzle.cols)) for r in range(puzzle.rows)
        )
        return replace(puzzle, cells=cells)


BINAIRO = BinairoKind()
