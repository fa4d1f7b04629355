"""How a person solves a binairo: a ladder of named techniques, hints and a grade.

Each technique is a function ``(position) -> Step | None``: the first cell it
can fill (lines in order: rows, then columns), or None.  The ladder:

====  ================================  ==================================================
 1    no three in a row                 two equal cells beside (or around) an empty one
 2    balance                           a line has half its cells of one value already
 3    pair completions                  every way to complete the line agrees on a cell
 4    distinct rows and columns         the same, once completions equal to a full line go
 5    needs search                      none of the above fills a cell
====  ================================  ==================================================

The grade is the highest level the ladder needed (deterministic); under the
``unruly`` rules (no distinct lines) rung 4 never applies.

The same path is also named on the levels of Simon Tatham's Unruly (its solver, unruly.c):
**trivial** (no three in a row; a line's last empty cell), **easy** (a line with all its cells
of one colour: the rest are the other; with distinct lines, a line two cells short of a full
line's copy), **normal** (a line missing only one of a colour: where it can go), and **beyond
normal** for the steps Unruly's solver does not make (other pair completions, other distinct
line steps, search).  :func:`unruly_level` gives the level and the technique that decides it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..grid import Unit, cell_name
from .puzzle import Puzzle
from .rules import families

Cell = tuple[int, int]
Position = list[list[int | None]]


@dataclass(frozen=True)
class Step:
    technique: str
    place: tuple[Cell, int]
    because: tuple[Cell, ...]
    text: str


def _filled(position: Position, cells: tuple[Cell, ...]) -> list[int | None]:
    return [position[r][c] for r, c in cells]


def no_three(position: Position, units: list[Unit]) -> Step | None:
    """Among three cells in a row, two equal ones force the third to differ."""
    for unit in units:
        for start in range(len(unit.cells) - 2):
            window = unit.cells[start : start + 3]
            values = _filled(position, window)
            if values.count(None) != 1:
                continue
            known = [v for v in values if v is not None]
            if known[0] == known[1]:
                empty = window[values.index(None)]
                others = tuple(cell for cell in window if cell != empty)
                value = 1 - known[0]
                return Step(
                    "no three in a row",
                    (empty, value),
                    others,
                    f"{cell_name(others[0])} and {cell_name(others[1])} are both {known[0]}: "
                    f"{cell_name(empty)} is {value}",
                )
    return None


def balance(position: Position, units: list[Unit]) -> Step | None:
    """A line holding half its cells of one value already: the rest are the other value."""
    for unit in units:
        values = _filled(position, unit.cells)
        if None not in values:
            continue
        for value in (0, 1):
            if values.count(value) == len(values) // 2:
                empty = unit.cells[values.index(None)]
                because = tuple(cell for cell, v in zip(unit.cells, values) if v == value)
                return Step(
                    "balance",
                    (empty, 1 - value),
                    because,
                    f"{unit.name} has its {len(because)} {value}s already: {cell_name(empty)} is {1 - value}",
                )
    return None


def completions(values: list[int | None]) -> Iterator[tuple[int, ...]]:
    """Every way to fill the line that keeps it balanced and free of three in a row."""
    half = len(values) // 2

    def extend(prefix: list[int], zeros: int, ones: int) -> Iterator[tuple[int, ...]]:
        if len(prefix) == len(values):
            yield tuple(prefix)
            return
        given = values[len(prefix)]
        for value in (0, 1) if given is None else (given,):
            if (zeros, ones)[value] == half or prefix[-2:] == [value, value]:
                continue
            prefix.append(value)
            yield from extend(prefix, zeros + (value == 0), ones + (value == 1))
            prefix.pop()

    yield from extend([], 0, 0)


def _forced(values: list[int | None], ways: list[tuple[int, ...]]) -> tuple[int, int] | None:
    """(index, value) of the first empty cell on which every way agrees."""
    if not ways:
        return None
    for index, given in enumerate(values):
        if given is None and len({way[index] for way in ways}) == 1:
            return index, ways[0][index]
    return None


def pair_completions(position: Position, units: list[Unit]) -> Step | None:
    for unit in units:
        values = _filled(position, unit.cells)
        if None not in values:
            continue
        forced = _forced(values, list(completions(values)))
        if forced is not None:
            index, value = forced
            because = tuple(cell for cell, v in zip(unit.cells, values) if v is not None)
            return Step(
                "pair completions",
                (unit.cells[index], value),
                because,
                f"every way to complete {unit.name} puts {value} in {cell_name(unit.cells[index])}",
            )
    return None


def distinct_lines(position: Position, groups: list[list[Unit]]) -> Step | None:
    """Completions equal to a full line of the same family are excluded (takuzu)."""
    for family in groups:
        full = {
            tuple(_filled(position, u.cells)): u for u in family if None not in _filled(position, u.cells)
        }
        for unit in family:
            values = _filled(position, unit.cells)
            if None not in values:
                continue
            every = list(completions(values))
            twins = [full[way] for way in every if way in full]
            if not twins:  # nothing excluded: the line's own completions say as much
                continue
            forced = _forced(values, [way for way in every if way not in full])
            if forced is not None:
                index, value = forced
                because = tuple(cell for twin in twins for cell in twin.cells)
                return Step(
                    "distinct rows and columns",
                    (unit.cells[index], value),
                    because,
                    f"{unit.name} must differ from {', '.join(t.name for t in twins)}: "
                    f"{cell_name(unit.cells[index])} is {value}",
                )
    return None


GRADE_NAMES = {1: "easy", 2: "medium", 3: "hard", 4: "expert", 5: "needs search"}
LEVELS = {
    "no three in a row": 1,
    "balance": 2,
    "pair completions": 3,
    "distinct rows and columns": 4,
    "needs search": 5,
}


def next_step(position: Position, rules: str) -> tuple[int, Step] | None:
    groups = families(len(position), len(position[0]))
    units = groups[0] + groups[1]
    for level, found in (
        (1, lambda: no_three(position, units)),
        (2, lambda: balance(position, units)),
        (3, lambda: pair_completions(position, units)),
    ):
        step = found()
        if step is not None:
            return level, step
    if rules == "takuzu":
        step = distinct_lines(position, groups)
        if step is not None:
            return 4, step
    return None


def solve_by_ladder(puzzle: Puzzle) -> tuple[list[Step], int]:
    """The steps the ladder takes and the grade (5, needs search, when it gets stuck)."""
    position = [list(row) for row in puzzle.cells]
    steps: list[Step] = []
    hardest = 1
    while any(v is None for row in position for v in row):
        found = next_step(position, puzzle.rules)
        if found is None:
            return steps, 5
        level, step = found
        (r, c), value = step.place
        position[r][c] = value
        steps.append(step)
        hardest = max(hardest, level)
    return steps, hardest


def grade(puzzle: Puzzle) -> tuple[int, str, list[str]]:
    """(grade, its name, the techniques used, easiest first) of a puzzle with one solution."""
    steps, level = solve_by_ladder(puzzle)
    used = {step.technique for step in steps} | ({"needs search"} if level == 5 else set())
    return level, GRADE_NAMES[level], sorted(used, key=LEVELS.__getitem__)


def hint_json(puzzle: Puzzle) -> dict | None:
    """The next cell the ladder fills, as the interfaces show it (1-based); None when stuck."""
    found = next_step([list(row) for row in puzzle.cells], puzzle.rules)
    if found is None:
        return None
    _level, step = found
    (r, c), value = step.place
    return {
        "row": r + 1,
        "col": c + 1,
        "value": value,
        "technique": step.technique,
        "because": [[br + 1, bc + 1] for br, bc in step.because],
        "text": step.text,
    }


#: the levels of Simon Tatham's Unruly, easiest first, and what is beyond its solver
UNRULY_LEVELS = ("trivial", "easy", "normal", "beyond normal")


def _line_of(position: Position, step: Step) -> list[int | None]:
    """The values of the line a step argues in: the row of its cell when the cells it names
    share that row (a distinct-lines step names the twin lines: rows for a row), else the column."""
    (r, c), _value = step.place
    if step.because and all(br == r for br, _bc in step.because):
        return list(position[r])
    if step.technique == "distinct rows and columns":
        first_twin = step.because[: len(position[0])]
        if all(br == first_twin[0][0] for br, _bc in first_twin):
            return list(position[r])
    return [row[c] for row in position]


def unruly_level_of(position: Position, step: Step) -> int:
    """The index in :data:`UNRULY_LEVELS` of the Unruly deduction that makes ``step``."""
    line = _line_of(position, step)
    empty = line.count(None)
    if step.technique == "no three in a row" or (step.technique == "balance" and empty == 1):
        return 0
    if step.technique == "balance":
        return 1
    if step.technique == "distinct rows and columns":
        return 1 if empty == 2 else 3
    half = len(line) // 2
    missing_one = any(half - line.count(value) == 1 for value in (0, 1))
    return 2 if step.technique == "pair completions" and missing_one else 3


def unruly_level(puzzle: Puzzle) -> tuple[str, str]:
    """(Unruly level, the technique of the first step at that level) of a puzzle with one
    solution, along the ladder's path ("needs search" decides "beyond normal" when it is stuck)."""
    position = [list(row) for row in puzzle.cells]
    hardest, deciding = 0, "no three in a row"
    while any(v is None for row in position for v in row):
        found = next_step(position, puzzle.rules)
        if found is None:
            return UNRULY_LEVELS[3], "needs search"
        _level, step = found
        level = unruly_level_of(position, step)
        if level > hardest:
            hardest, deciding = level, step.technique
        (r, c), value = step.place
        position[r][c] = value
    return UNRULY_LEVELS[hardest], deciding
