"""Variant rules in explanations: which rules a clash needs, and hints by singles under every rule.

* :func:`rules_in_clash`: the puzzle's rules, each named (``"cage 3 (r2c4)"``, ``"anti
  knight"``), shrunk one at a time: a rule stays exactly when the givens of the clash have
  a solution without it (each removal checked by the engine), so no rule can go.
* :func:`hint`: candidates are what the givens leave by the units (row, column, box...),
  then what each variant rule allows: a digit stays in a cell of a rule only when some
  choice of candidates for the rule's other cells satisfies the rule (asked of the checker,
  :mod:`.variant_checks`, on the rule alone), repeated until nothing changes; the first
  naked single (a cell with one candidate left) or hidden single (a digit with one place
  left in a unit) is the hint, with the rules that removed candidates named.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields, replace
from typing import Any

from mindgames.solver.deadline import Deadline

from ..errors import TimeLimitReached
from ..grid import Cell, cell_name
from .puzzle import Sudoku, shape
from .rules import units
from .variant_checks import broken_rules
from .variants import Constraints

#: a rule is used in a hint only when the choices of candidates for its cells are at most this
#: many (a long blank cage would take too long to enumerate: it is simply left out)
CHOICES_AT_MOST = 10_000


Groups = list[tuple[Cell, ...]]


def each_rule(
    constraints: Constraints, size: int, box: tuple[int, int] | None
) -> Iterator[tuple[str, Constraints, Groups]]:
    """Every single rule of ``constraints``: its name, the Constraints of that rule alone, and
    the groups of cells it speaks about, each checkable apart (a global rule, such as anti
    knight, speaks about every pair of cells a knight's move apart)."""
    c = constraints
    for number, cage in enumerate(c.cages, 1):
        yield f"cage {number} ({cell_name(cage.cells[0])})", Constraints(cages=(cage,)), [cage.cells]
    for number, killer in enumerate(c.little_killers, 1):
        name = f"little killer {number} ({cell_name(killer.cells[0])})"
        yield name, Constraints(little_killers=(killer,)), [killer.cells]
    for sandwich in c.sandwiches:
        index = sandwich.index
        line = (
            [(index, i) for i in range(size)] if sandwich.line == "row" else [(i, index) for i in range(size)]
        )
        yield f"sandwich {sandwich.line} {index + 1}", Constraints(sandwiches=(sandwich,)), [tuple(line)]
    for number, thermo in enumerate(c.thermos, 1):
        yield (
            f"thermo {number} ({cell_name(thermo.cells[0])})",
            Constraints(thermos=(thermo,)),
            [thermo.cells],
        )
    for number, arrow in enumerate(c.arrows, 1):
        name = f"arrow {number} ({cell_name(arrow.circle[0])})"
        yield name, Constraints(arrows=(arrow,)), [arrow.circle + arrow.path]
    for dot in c.dots:
        name = f"{dot.colour} dot {cell_name(dot.cells[0])}-{cell_name(dot.cells[1])}"
        yield name, Constraints(dots=(dot,)), [dot.cells]
    for xv in c.xv:
        yield (
            f"{xv.letter} {cell_name(xv.cells[0])}-{cell_name(xv.cells[1])}",
            Constraints(xv=(xv,)),
            [xv.cells],
        )
    for number, line_rule in enumerate(c.lines, 1):
        name = f"{line_rule.kind} line {number} ({cell_name(line_rule.cells[0])})"
        yield name, Constraints(lines=(line_rule,)), [line_rule.cells]
    for mark in c.parity:
        yield f"{mark.parity} cell {cell_name(mark.cell)}", Constraints(parity=(mark,)), [(mark.cell,)]
    for number, region in enumerate(c.extra_regions, 1):
        yield (
            f"extra region {number} ({cell_name(region[0])})",
            Constraints(extra_regions=(region,)),
            [region],
        )
    for marks in c.candidates:
        yield f"candidates {cell_name(marks.cell)}", Constraints(candidates=(marks,)), [(marks.cell,)]
    knight, king, orthogonal = ((1, 2), (2, 1), (1, -2), (2, -1)), ((1, 1), (1, -1)), ((0, 1), (1, 0))
    if c.anti_knight:
        yield "anti knight", Constraints(anti_knight=True), _pairs(size, knight)
    if c.anti_king:  # (orthogonal neighbours differ anyway: they share a row or a column)
        yield "anti king", Constraints(anti_king=True), _pairs(size, king)
    if c.non_consecutive:
        yield "non consecutive", Constraints(non_consecutive=True), _pairs(size, orthogonal)
    if c.disjoint_groups and box is not None:
        groups = [
            tuple((r, col) for r in range(i, size, box[0]) for col in range(j, size, box[1]))
            for i in range(box[0])
            for j in range(box[1])
        ]
        yield "disjoint groups", Constraints(disjoint_groups=True), groups
    # the negative rules, on pairs without a dot / a letter (those are left to their own rule)
    if c.negative_kropki:
        rule = Constraints(dots=c.dots, negative_kropki=True)
        yield (
            "negative kropki",
            rule,
            _pairs(size, orthogonal, frozenset(frozenset(dot.cells) for dot in c.dots)),
        )
    if c.negative_xv:
        rule = Constraints(xv=c.xv, negative_xv=True)
        yield "negative XV", rule, _pairs(size, orthogonal, frozenset(frozenset(xv.cells) for xv in c.xv))


def _pairs(
    size: int, moves: tuple[tuple[int, int], ...], leave: frozenset[frozenset[Cell]] = frozenset()
) -> Groups:
    return [
        ((r, c), (r + dr, c + dc))
        for r in range(size)
        for c in range(size)
        for dr, dc in moves
        if 0 <= r + dr < size and 0 <= c + dc < size and frozenset(((r, c), (r + dr, c + dc))) not in leave
    ]


def _together(rules: list[tuple[str, Constraints, Groups]]) -> Constraints:
    """One Constraints holding every rule of ``rules`` (flags are on when any has them)."""
    merged: dict[str, Any] = {}
    for _name, rule, _groups in rules:
        for field in fields(rule):
            value = getattr(rule, field.name)
            if isinstance(value, tuple):
                merged[field.name] = merged.get(field.name, ()) + value
            elif value:
                merged[field.name] = True
    return Constraints(**merged)


def rules_in_clash(puzzle: Sudoku, solvable: Callable[[Sudoku], bool]) -> list[str]:
    """The rules of ``puzzle`` (which holds the clashing givens only) that its clash needs, by name."""
    if not puzzle.constraints:
        return []
    kept = list(each_rule(puzzle.constraints, puzzle.size, puzzle.box))
    for rule in list(kept):
        fewer = [other for other in kept if other is not rule]
        if not solvable(replace(puzzle, constraints=_together(fewer))):
            kept = fewer  # no solution without it either: it is not needed
    return [name for name, _rule, _groups in kept]


# ---------------------------------------------------------------------------
# Hints: singles under every rule
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _Scope:
    """A rule as the hint uses it: its name, a group of its cells, and the rule alone to check."""

    name: str
    cells: tuple[Cell, ...]
    rule: Constraints


def _filler(size: int) -> list[list[int]]:
    """A grid of numbers far from every digit and from each other (no two equal, none twice
    another, no two adding up to 5 or 10, none 1 apart): the checker, on it, sees only the
    relations among the digits a scope puts in."""
    return [[1_000_000 + 1000 * (r * size + c) for c in range(size)] for r in range(size)]


def _restrict(
    scope: _Scope,
    candidates: dict[Cell, set[int]],
    peers: dict[Cell, set[Cell]],
    filler: list[list[int]],
    box: Any,
) -> list[tuple[Cell, int]]:
    """Remove from the scope's cells the candidates that no choice satisfying its rule uses (two
    of its cells sharing a unit never hold one digit: such choices are not tried); what was
    removed, as (cell, digit).  A scope of too many choices is left alone."""
    cells = scope.cells
    choices = 1
    for cell in cells:
        choices *= len(candidates[cell])
    if choices > CHOICES_AT_MOST or choices == 0:
        return []
    earlier_peers = [[j for j in range(i) if cells[j] in peers[cell]] for i, cell in enumerate(cells)]
    options = [sorted(candidates[cell]) for cell in cells]
    used: list[set[int]] = [set() for _ in cells]
    grid = [row[:] for row in filler]
    digits = [0] * len(cells)

    def choose(i: int) -> None:
        if i == len(cells):
            if not broken_rules(scope.rule, grid, box):
                for seen, digit in zip(used, digits):
                    seen.add(digit)
            return
        r, c = cells[i]
        for digit in options[i]:
            if any(digits[j] == digit for j in earlier_peers[i]):
                continue
            digits[i] = grid[r][c] = digit
            choose(i + 1)
        grid[r][c] = filler[r][c]

    choose(0)
    removed: list[tuple[Cell, int]] = []
    for cell, seen in zip(cells, used):
        removed += [(cell, digit) for digit in sorted(candidates[cell] - seen)]
        candidates[cell] &= seen
    return removed


def hint(puzzle: Sudoku, deadline: Deadline = Deadline(None)) -> dict[str, Any] | None:
    """The first single under every rule, as :func:`.ladder.hint_json` writes a step (cells
    1-based); None when the candidates leave no single."""
    size = puzzle.size
    every_unit = units(shape(puzzle))
    peers: dict[Cell, set[Cell]] = {}
    for unit in every_unit:
        for cell in unit.cells:
            peers.setdefault(cell, set()).update(unit.cells)
    givens = {(r, c): v for r, row in enumerate(puzzle.grid) for c, v in enumerate(row) if v}
    candidates: dict[Cell, set[int]] = {}
    for r in range(size):
        for c in range(size):
            if (r, c) in givens:
                candidates[r, c] = {givens[r, c]}
            else:
                seen = {givens[p] for p in peers[r, c] if p in givens}
                candidates[r, c] = set(range(1, size + 1)) - seen
    scopes = [
        _Scope(name, group, rule)
        for name, rule, groups in each_rule(puzzle.constraints, size, puzzle.box)
        for group in groups
    ]
    scopes_of: dict[Cell, list[int]] = {}
    for number, scope in enumerate(scopes):
        for cell in scope.cells:
            scopes_of.setdefault(cell, []).append(number)
    filler = _filler(size)
    removed_by: dict[tuple[Cell, int], str] = {}  # (cell, digit) -> the rule that removed it
    waiting = list(range(len(scopes)))  # the scopes to look at: all, then those whose cells lost candidates
    while waiting:
        again: set[int] = set()
        for number in waiting:
            if deadline.passed():
                raise TimeLimitReached("time limit reached while looking for a hint")
            scope = scopes[number]
            for cell, digit in _restrict(scope, candidates, peers, filler, puzzle.box):
                removed_by[cell, digit] = scope.name
                again.update(scopes_of[cell])
        if any(not options for options in candidates.values()):
            return None  # the givens clash: no hint (explain says why)
        single = _single(candidates, givens, every_unit)
        if single is not None:
            technique, cell, value, why, gone = single
            rules = list(dict.fromkeys(removed_by[where] for where in gone if where in removed_by))
            return _step(technique, cell, value, why, rules, sorted(p for p in peers[cell] if p in givens))
        waiting = sorted(again)
    return None


def _single(
    candidates: dict[Cell, set[int]], givens: dict[Cell, int], every_unit: Any
) -> tuple[str, Cell, int, str, list[tuple[Cell, int]]] | None:
    """The first naked single, else the first hidden single: (technique, cell, digit, why, the
    candidates whose removal made it)."""
    for cell, options in sorted(candidates.items()):
        if cell not in givens and len(options) == 1:
            (value,) = options
            gone = [(cell, digit) for digit in range(1, len(candidates) + 1) if digit != value]
            return "naked single", cell, value, f"{cell_name(cell)} has one candidate left", gone
    for unit in every_unit:
        open_cells = [cell for cell in unit.cells if cell not in givens]
        placed = {givens[cell] for cell in unit.cells if cell in givens}
        for digit in sorted({d for cell in open_cells for d in candidates[cell]} - placed):
            places = [cell for cell in open_cells if digit in candidates[cell]]
            if len(places) == 1:
                gone = [(cell, digit) for cell in open_cells if cell != places[0]]
                return "hidden single", places[0], digit, f"{digit} has one place left in {unit.name}", gone
    return None


def _step(
    technique: str, cell: Cell, value: int, why: str, rules: list[str], because: list[Cell]
) -> dict[str, Any]:
    by = (
        f"the givens and the rule{'s' if len(rules) > 1 else ''} {'; '.join(rules)}"
        if rules
        else "the givens"
    )
    return {
        "row": cell[0] + 1,
        "col": cell[1] + 1,
        "value": value,
        "technique": technique,
        "because": [[r + 1, c + 1] for r, c in because],
        "rules": rules,
        "text": f"{cell_name(cell)} is {value}: {why}, by {by}",
    }
