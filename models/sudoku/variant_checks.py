"""The variant rules (:mod:`.variants`) checked on a filled grid, with no model involved.

Written apart from :mod:`.variant_rules` (the encoding) and sharing no code with it, so a
wrong encoding or a wrong engine cannot hide: :func:`broken_rules` reads each rule off the
puzzle's :class:`~.variants.Constraints` and looks at the digits.  Each message names the
rule and its first cell, e.g. ``"cage 3 (r1c1): digits add up to 14, not 15"``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..grid import Cell, cell_name
from .variants import Constraints

Grid = Sequence[Sequence[int]]


def broken_rules(constraints: Constraints, grid: Grid, box: tuple[int, int] | None) -> list[str]:
    """Every variant rule ``grid`` (filled, digits 1..N) breaks, in words; empty when none."""
    size = len(grid)

    def at(cell: Cell) -> int:
        return grid[cell[0]][cell[1]]

    def named(rule: str, cells: Sequence[Cell]) -> str:
        return f"{rule} ({cell_name(cells[0])})"

    broken: list[str] = []
    for number, cage in enumerate(constraints.cages, 1):
        digits = [at(cell) for cell in cage.cells]
        if len(set(digits)) < len(digits):
            broken.append(f"{named(f'cage {number}', cage.cells)}: a digit repeats")
        if cage.total is not None and sum(digits) != cage.total:
            broken.append(
                f"{named(f'cage {number}', cage.cells)}: digits add up to {sum(digits)}, not {cage.total}"
            )
    for number, clue in enumerate(constraints.little_killers, 1):
        total = sum(at(cell) for cell in clue.cells)
        if total != clue.total:
            broken.append(
                f"{named(f'little killer {number}', clue.cells)}: digits add up to {total}, not {clue.total}"
            )
    for sandwich in constraints.sandwiches:
        if sandwich.line == "row":
            digits = list(grid[sandwich.index])
        else:
            digits = [row[sandwich.index] for row in grid]
        ends = sorted((digits.index(1), digits.index(size))) if 1 in digits and size in digits else None
        between = sum(digits[ends[0] + 1 : ends[1]]) if ends else None
        if between != sandwich.total:
            broken.append(
                f"sandwich {sandwich.line} {sandwich.index + 1}: the digits between 1 and {size} "
                f"add up to {between}, not {sandwich.total}"
            )
    for number, thermo in enumerate(constraints.thermos, 1):
        digits = [at(cell) for cell in thermo.cells]
        rises = all(b >= a if thermo.slow else b > a for a, b in zip(digits, digits[1:]))
        if not rises:
            how = "never decrease" if thermo.slow else "increase strictly"
            broken.append(f"{named(f'thermo {number}', thermo.cells)}: digits {digits} do not {how}")
    for number, arrow in enumerate(constraints.arrows, 1):
        if size <= 9:  # the circle's digits, read as one number
            circle = int("".join(str(at(cell)) for cell in arrow.circle))
        else:  # digits above 9: the number is still read place by place, in base 10
            circle = 0
            for cell in arrow.circle:
                circle = circle * 10 + at(cell)
        path = sum(at(cell) for cell in arrow.path)
        if path != circle:
            broken.append(
                f"{named(f'arrow {number}', arrow.circle)}: the path adds up to {path}, the circle reads {circle}"
            )
    dotted = {frozenset(dot.cells) for dot in constraints.dots}
    for dot in constraints.dots:
        a, b = at(dot.cells[0]), at(dot.cells[1])
        if dot.colour == "white" and abs(a - b) != 1 or dot.colour == "black" and a != 2 * b and b != 2 * a:
            broken.append(
                f"{dot.colour} dot {cell_name(dot.cells[0])}-{cell_name(dot.cells[1])}: digits {a} and {b}"
            )
    lettered = {frozenset(xv.cells) for xv in constraints.xv}
    for xv in constraints.xv:
        a, b = at(xv.cells[0]), at(xv.cells[1])
        if a + b != {"X": 10, "V": 5}[xv.letter]:
            broken.append(
                f"{xv.letter} {cell_name(xv.cells[0])}-{cell_name(xv.cells[1])}: digits {a} and {b}"
            )
    for number, line in enumerate(constraints.lines, 1):
        digits = [at(cell) for cell in line.cells]
        name = named(f"{line.kind} line {number}", line.cells)
        if line.kind == "whisper":
            gap = line.gap if line.gap is not None else (size + 1) // 2
            if any(abs(a - b) < gap for a, b in zip(digits, digits[1:])):
                broken.append(f"{name}: neighbours {digits} differ by less than {gap}")
        elif line.kind == "renban":
            if sorted(digits) != list(range(min(digits), min(digits) + len(digits))):
                broken.append(f"{name}: digits {digits} are not a run of consecutive digits")
        elif line.kind == "palindrome":
            if digits != digits[::-1]:
                broken.append(f"{name}: digits {digits} do not read the same backwards")
        else:
            low, high = sorted((digits[0], digits[-1]))
            if not all(low < d < high for d in digits[1:-1]):
                broken.append(f"{name}: digits {digits[1:-1]} are not all between {low} and {high}")
    for mark in constraints.parity:
        if at(mark.cell) % 2 != (0 if mark.parity == "even" else 1):
            broken.append(f"{mark.parity} cell {cell_name(mark.cell)}: holds {at(mark.cell)}")
    for number, region in enumerate(constraints.extra_regions, 1):
        digits = [at(cell) for cell in region]
        if len(set(digits)) < len(digits):
            broken.append(f"{named(f'extra region {number}', region)}: a digit repeats")
    for marks in constraints.candidates:
        if at(marks.cell) not in marks.digits:
            broken.append(
                f"candidates {cell_name(marks.cell)}: holds {at(marks.cell)}, not one of {sorted(marks.digits)}"
            )
    every_cell = [(r, c) for r in range(size) for c in range(size)]
    for flag, moves, what in (
        (constraints.anti_knight, {(1, 2), (2, 1), (1, -2), (2, -1)}, "anti-knight"),
        (constraints.anti_king, {(1, 1), (1, -1), (0, 1), (1, 0)}, "anti-king"),
    ):
        for r, c in every_cell if flag else ():
            for dr, dc in moves:
                if 0 <= r + dr < size and 0 <= c + dc < size and grid[r][c] == grid[r + dr][c + dc]:
                    broken.append(
                        f"{what}: {cell_name((r, c))} and {cell_name((r + dr, c + dc))} both hold {grid[r][c]}"
                    )
    pairwise = constraints.non_consecutive or constraints.negative_kropki or constraints.negative_xv
    for r, c in every_cell if pairwise else ():
        for other in ((r, c + 1), (r + 1, c)):
            if other[0] >= size or other[1] >= size:
                continue
            a, b, pair = grid[r][c], at(other), frozenset(((r, c), other))
            where = f"{cell_name((r, c))}-{cell_name(other)}"
            if constraints.non_consecutive and abs(a - b) == 1:
                broken.append(f"non-consecutive: {where} hold {a} and {b}")
            if (
                constraints.negative_kropki
                and pair not in dotted
                and (abs(a - b) == 1 or a == 2 * b or b == 2 * a)
            ):
                broken.append(f"negative kropki: {where} hold {a} and {b} but have no dot")
            if constraints.negative_xv and pair not in lettered and a + b in (5, 10):
                broken.append(f"negative XV: {where} hold {a} and {b} but have no X or V")
    if constraints.disjoint_groups and box is not None:
        groups: dict[tuple[int, int, int], Cell] = {}
        for r, c in every_cell:
            key = (r % box[0], c % box[1], grid[r][c])
            if key in groups:
                broken.append(
                    f"disjoint groups: {cell_name(groups[key])} and {cell_name((r, c))} both hold {grid[r][c]}"
                )
            groups.setdefault(key, (r, c))
    return broken
