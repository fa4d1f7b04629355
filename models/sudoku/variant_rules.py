"""The variant rules (:mod:`.variants`) stated as clauses and linear constraints of the model.

Each cell is a one-hot choice of its digit (``cells[r][c].is_(v)``: "r,c holds v"), as
:func:`.rules.compile` makes it; each rule adds what it says about those literals, so
every engine (``sat``, ``cpsat``, ``backtrack``) and the certificates (the model as CNF)
get it.  The rules, once each, in plain words:

* **cage**: no digit twice in the cage; with a total, the cage's digits are one of the
  sets of distinct digits adding up to it (one choice among those sets; a cage with too
  many such sets for clauses is a linear sum instead);
* **little killer**: the digits on the diagonal add up to the total (a linear sum);
* **sandwich**: the digits strictly between the 1 and the N of the row or column add up
  to the total (a cell lies between when a 1 is on one side of it and an N on the other);
* **thermo**: each cell's digit is greater than the one before it (slow: not smaller);
* **arrow**: the digits on the path add up to the circle's number; a circle of several
  cells is a number of several decimal digits, first cell first (``10 * a + b``);
* **kropki dot**: white: the two digits differ by 1; black: one is twice the other;
  with ``negative_kropki``, orthogonal neighbours without a dot are neither;
* **XV**: X: the two digits add up to 10; V: to 5; with ``negative_xv``, orthogonal
  neighbours without a letter add up to neither;
* **lines**: whisper: neighbours on the line differ by at least the gap; renban: the
  digits are distinct and consecutive (all within some window of as many digits as cells);
  palindrome: cell i equals cell L-1-i; between: each inner digit lies strictly between
  the two ends' digits;
* **parity**: the cell's digit is even / odd;
* **extra region**: no digit twice in it (each digit once when it has N cells);
* **candidates**: the cell's digit is one of its pencil marks;
* **anti-knight / anti-king**: two cells a knight's / king's move apart differ;
* **non-consecutive**: orthogonal neighbours do not differ by 1;
* **disjoint groups**: cells at the same position of their boxes hold different digits.

The checker of the same rules, sharing no code with this, is :mod:`.variant_checks`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from itertools import combinations

from mindgames.solver import Choice, Model

from ..grid import Cell
from .variants import Constraints, Line

Cells = tuple[tuple[Choice, ...], ...]

#: a cage total with more digit sets than this is a sum (a unary count) rather than a choice of sets
COMBINATIONS_AT_MOST = 64
#: a pair rule ruling out at most this many pairs of digits per digit is written "not both" per pair
FEW_PAIRS = 2


def add_constraints(
    model: Model, cells: Cells, constraints: Constraints, box: tuple[int, int] | None
) -> None:
    """Every rule of ``constraints`` into ``model``, over the cells' choices of digits."""
    size = len(cells)
    rule = _Rules(model, cells, size)
    for cage in constraints.cages:
        rule.cage(cage.cells, cage.total)
    for killer in constraints.little_killers:
        rule.sum_is(killer.cells, killer.total)
    for sandwich in constraints.sandwiches:
        across = (
            tuple((sandwich.index, c) for c in range(size))
            if sandwich.line == "row"
            else tuple((r, sandwich.index) for r in range(size))
        )
        rule.sandwich(across, sandwich.total)
    for thermo in constraints.thermos:
        rule.thermo(thermo.cells, thermo.slow)
    for arrow in constraints.arrows:
        rule.arrow(arrow.circle, arrow.path)
    marked: set[frozenset[Cell]] = set()
    for dot in constraints.dots:
        rule.pair(*dot.cells, _white if dot.colour == "white" else _black)
        marked.add(frozenset(dot.cells))
    if constraints.negative_kropki:
        for a, b in _neighbours(size):
            if frozenset((a, b)) not in marked:
                rule.pair(a, b, lambda u, v: not _white(u, v) and not _black(u, v))
    lettered: set[frozenset[Cell]] = set()
    for xv in constraints.xv:
        rule.pair(*xv.cells, _adds_up_to(10 if xv.letter == "X" else 5))
        lettered.add(frozenset(xv.cells))
    if constraints.negative_xv:
        for a, b in _neighbours(size):
            if frozenset((a, b)) not in lettered:
                rule.pair(a, b, lambda u, v: u + v not in (5, 10))
    for line in constraints.lines:
        rule.line(line)
    for mark in constraints.parity:
        rule.only(mark.cell, [v for v in range(1, size + 1) if v % 2 == (mark.parity == "odd")])
    for region in constraints.extra_regions:
        rule.distinct(region)
    for marks in constraints.candidates:
        rule.only(marks.cell, sorted(marks.digits))
    if constraints.anti_knight:
        for a, b in _apart(size, ((1, 2), (2, 1), (1, -2), (2, -1))):
            rule.pair(a, b, lambda u, v: u != v)
    if constraints.anti_king:
        for a, b in _apart(size, ((1, 1), (1, -1))):  # orthogonal neighbours share a row or column
            rule.pair(a, b, lambda u, v: u != v)
    if constraints.non_consecutive:
        for a, b in _neighbours(size):
            rule.pair(a, b, lambda u, v: abs(u - v) != 1)
    if constraints.disjoint_groups:
        assert box is not None, "make_puzzle refuses disjoint groups without boxes"
        rows, cols = box
        for i in range(rows):
            for j in range(cols):
                rule.distinct(tuple((r, c) for r in range(i, size, rows) for c in range(j, size, cols)))


def _adds_up_to(total: int) -> Callable[[int, int], bool]:
    return lambda u, v: u + v == total


def _white(u: int, v: int) -> bool:
    return abs(u - v) == 1


def _black(u: int, v: int) -> bool:
    return u == 2 * v or v == 2 * u


@lru_cache(maxsize=8)
def _neighbours(size: int) -> tuple[tuple[Cell, Cell], ...]:
    """Every pair of orthogonal neighbours, each once."""
    return _apart(size, ((0, 1), (1, 0)))


@lru_cache(maxsize=32)
def _apart(size: int, moves: tuple[tuple[int, int], ...]) -> tuple[tuple[Cell, Cell], ...]:
    """Every pair of cells one of ``moves`` apart (moves pointing downwards or right: each pair once)."""
    return tuple(
        ((r, c), (r + dr, c + dc))
        for r in range(size)
        for c in range(size)
        for dr, dc in moves
        if 0 <= r + dr < size and 0 <= c + dc < size
    )


def digit_sets(count: int, total: int, digits: Sequence[int]) -> list[tuple[int, ...]]:
    """The sets of ``count`` distinct ``digits`` adding up to ``total``."""
    return [chosen for chosen in combinations(digits, count) if sum(chosen) == total]


class _Rules:
    """How each rule is written into the model, over the cells' literals."""

    def __init__(self, model: Model, cells: Cells, size: int):
        self.model, self.cells, self.size = model, cells, size
        self.digits = range(1, size + 1)
        self._units: dict[Cell, list[int]] = {}

    def holds(self, cell: Cell, value: int) -> int:
        return self.cells[cell[0]][cell[1]].is_(value)

    def pair(self, a: Cell, b: Cell, allowed: Callable[[int, int], bool]) -> None:
        """Only the pairs of digits (u in ``a``, v in ``b``) that ``allowed(u, v)`` accepts.

        A relation ruling out a few pairs (two cells differ, are not consecutive) is "not
        both" for each of them; any other, for each digit of one cell, the digits of the
        other it allows (one clause each, both ways: propagation from either cell)."""
        forbidden = [(u, v) for u in self.digits for v in self.digits if not allowed(u, v)]
        if len(forbidden) <= FEW_PAIRS * self.size:
            self.model.add_clauses((-self.holds(a, u), -self.holds(b, v)) for u, v in forbidden)
            return
        clauses: list[tuple[int, ...]] = []
        for u in self.digits:
            partners = [self.holds(b, v) for v in self.digits if allowed(u, v)]
            clauses.append((-self.holds(a, u), *partners))
        for v in self.digits:  # both directions: propagation from either cell
            partners = [self.holds(a, u) for u in self.digits if allowed(u, v)]
            clauses.append((-self.holds(b, v), *partners))
        self.model.add_clauses(clauses)

    def only(self, cell: Cell, values: Iterable[int]) -> None:
        keep = set(values)
        self.model.add_clauses((-self.holds(cell, v),) for v in self.digits if v not in keep)

    def distinct(self, cells: Sequence[Cell]) -> None:
        self.model.add_all_different([self.cells[r][c] for r, c in cells])

    def cage(self, cells: tuple[Cell, ...], total: int | None) -> None:
        self.distinct(cells)
        if total is None:
            return
        sets = digit_sets(len(cells), total, self.digits)
        if len(sets) > COMBINATIONS_AT_MOST:
            self.sum_is(cells, total)
            return
        # "the cage holds digit d": at least one of its cells does (at most one: distinct)
        has = {d: self.model.new_var() for d in self.digits}
        for d, var in has.items():
            self.model.add_or(var, [self.holds(cell, d) for cell in cells])
        if len(sets) == 1:
            (chosen,) = sets
            self.model.add_clauses((has[d],) if d in chosen else (-has[d],) for d in self.digits)
            return
        which = [self.model.new_var() for _ in sets]
        self.model.add_choice(which)
        for var, chosen in zip(which, sets):
            self.model.add_clauses((-var, has[d]) if d in chosen else (-var, -has[d]) for d in self.digits)

    def at_least(self, cell: Cell) -> list[int]:
        """The cell's digit as an order-encoded count: ``units[k - 1]`` <-> digit >= k (made once)."""
        units = self._units.get(cell)
        if units is None:
            model = self.model
            units = self._units[cell] = model.new_count(self.size)
            for k, unit in enumerate(units, 1):
                above = [self.holds(cell, v) for v in range(k, self.size + 1)]
                model.add_or(unit, above)
        return units

    def sum_is(self, cells: Sequence[Cell], total: int) -> None:
        """The digits of ``cells`` add up to ``total``: their sum as a unary count (a
        totalizer: propagation is arc consistent, where a pseudo-Boolean equation is not)."""
        count = self.model.unary_sum([self.at_least(cell) for cell in cells], cap=total + 1)
        self._equals(count, total)

    def _equals(self, count: list[int], total: int) -> None:
        if total > len(count):
            self.model.add_clause(())
            return
        if total:
            self.model.add_clause((count[total - 1],))
        if total < len(count):
            self.model.add_clause((-count[total],))

    def sandwich(self, line: tuple[Cell, ...], total: int) -> None:
        model, size = self.model, self.size
        one = [self.holds(cell, 1) for cell in line]
        top = [self.holds(cell, size) for cell in line]
        # before[i]: a 1 (resp. an N) lies before position i; after likewise
        one_before, top_before = self._prefix_or(one), self._prefix_or(top)
        one_after, top_after = self._prefix_or(one[::-1])[::-1], self._prefix_or(top[::-1])[::-1]
        counted: list[list[int]] = []  # per cell: its digit when it lies inside, else 0, as a count
        for i, cell in enumerate(line):
            inside = model.new_var()  # the cell lies strictly between the 1 and the N
            first, second = model.new_var(), model.new_var()
            model.add_and(first, [one_before[i], top_after[i]])
            model.add_and(second, [top_before[i], one_after[i]])
            model.add_or(inside, [first, second])
            units = model.new_vars(size)
            for unit, at_least in zip(units, self.at_least(cell)):
                model.add_and(unit, [inside, at_least])
            counted.append(units)
        self._equals(model.unary_sum(counted, cap=total + 1), total)
        # Redundant, for propagation: with the 1 and the N at positions p < q (either way
        # round), the q - p - 1 digits between are distinct, from 2..N-1, adding up to the
        # total: a placement no such set fits is forbidden, and a digit in no such set is
        # kept out of the cells between.
        middle = range(2, size)
        for p in range(len(line)):
            for q in range(p + 1, len(line)):
                fitting = digit_sets(q - p - 1, total, middle)
                allowed = {d for chosen in fitting for d in chosen}
                for low, high in ((p, q), (q, p)):
                    ends = (-one[low], -top[high])
                    if not fitting:
                        model.add_clause(ends)
                        continue
                    model.add_clauses(
                        (*ends, -self.holds(line[i], d))
                        for i in range(p + 1, q)
                        for d in middle
                        if d not in allowed
                    )

    def _prefix_or(self, literals: list[int]) -> list[int]:
        """out[i] <-> any of literals[:i] (out[0] is false)."""
        model = self.model
        out: list[int] = []
        seen = model.new_var()
        model.add_clause((-seen,))
        for literal in literals:
            out.append(seen)
            nxt = model.new_var()
            model.add_or(nxt, [seen, literal])
            seen = nxt
        return out

    def thermo(self, cells: tuple[Cell, ...], slow: bool) -> None:
        length = len(cells)
        for i, cell in enumerate(cells):
            if not slow:  # strictly increasing: position i needs i smaller digits before it
                self.only(cell, range(i + 1, self.size - length + i + 2))
        for a, b in zip(cells, cells[1:]):
            self.pair(a, b, (lambda u, v: v >= u) if slow else (lambda u, v: v > u))

    def arrow(self, circle: tuple[Cell, ...], path: tuple[Cell, ...]) -> None:
        # the circle's number as a count: place * digit >= j <-> digit >= ceil(j / place)
        places = [10 ** (len(circle) - 1 - i) for i in range(len(circle))]
        parts = [
            [units[-(-j // place) - 1] for j in range(1, place * self.size + 1)]
            for cell, place in zip(circle, places)
            for units in [self.at_least(cell)]
        ]
        cap = min(self.size * len(path), sum(place * self.size for place in places))
        number = self.model.unary_sum(parts, cap=cap)
        total = self.model.unary_sum([self.at_least(cell) for cell in path], cap=cap)
        self.model.add_equal_counts(number, total)

    def line(self, line: Line) -> None:
        cells = line.cells
        if line.kind == "whisper":
            gap = line.whisper_gap(self.size)
            for a, b in zip(cells, cells[1:]):
                self.pair(a, b, lambda u, v: abs(u - v) >= gap)
        elif line.kind == "palindrome":
            for i in range(len(cells) // 2):
                self.pair(cells[i], cells[-1 - i], lambda u, v: u == v)
        elif line.kind == "renban":
            self.distinct(cells)
            starts = range(1, self.size - len(cells) + 2)  # the window's lowest digit
            window = [self.model.new_var() for _ in starts]
            self.model.add_choice(window)
            for var, low in zip(window, starts):
                self.model.add_clauses(
                    (-var, -self.holds(cell, v))
                    for cell in cells
                    for v in self.digits
                    if not low <= v < low + len(cells)
                )
        else:  # between
            first, last = cells[0], cells[-1]
            for inner in cells[1:-1]:
                clauses: list[tuple[int, ...]] = []
                for v in self.digits:
                    for u in self.digits:
                        # inner holds v and the first end u: the last end lies beyond v, away from u
                        beyond = [self.holds(last, w) for w in self.digits if (u < v < w or w < v < u)]
                        clauses.append((-self.holds(inner, v), -self.holds(first, u), *beyond))
                self.model.add_clauses(clauses)
