"""A Norvig-style Sudoku solver: constraint propagation plus search.

This is the algorithm of Peter Norvig's essay "Solving Every Sudoku Puzzle"
(norvig.com/sudoku.html), kept faithful so that it can stand in the
benchmark as the strongest pure-Python peer a user would reach for:

* every cell holds the string of the symbols still possible there;
* ``assign(values, s, d)`` eliminates every other symbol from cell ``s``;
* ``eliminate(values, s, d)`` removes ``d`` from ``s`` and propagates:
  (1) a cell reduced to one symbol removes it from all its peers (naked
  single), (2) a unit with only one place left for ``d`` puts it there
  (hidden single); a cell or unit left with no option is a contradiction;
* ``search`` picks an unfilled cell with the fewest options (MRV), tries
  each on a copy of ``values`` and returns the first that succeeds.

Two liberties, neither changing the algorithm: cells are numbered 0..N*N-1
and ``values`` is a list rather than a dict keyed by names like ``"A1"``;
and the units are passed in, so the same code runs 9x9, 16x16 and jigsaw
puzzles (the essay's 9x9 units are what :func:`classic` builds).
``solutions`` enumerates (the essay stops at the first), which gives a
uniqueness check to compare with.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

Values = list[str]  # values[cell] = the symbols still possible in that cell


class NorvigSolver:
    """The essay's solver for one puzzle shape (its cells' units and peers)."""

    def __init__(self, unit_list: Sequence[Sequence[int]], size: int):
        self.size = size
        self.cells = range(size * size)
        self.digits = SYMBOLS[:size]
        # units[s]: the units containing s; peers[s]: every other cell of those units.
        self.units: list[list[tuple[int, ...]]] = [[] for _ in self.cells]
        for unit in unit_list:
            for s in unit:
                self.units[s].append(tuple(unit))
        self.peers: list[tuple[int, ...]] = [
            tuple(sorted({s2 for u in self.units[s] for s2 in u} - {s})) for s in self.cells
        ]

    # -- parsing ---------------------------------------------------------
    def grid_values(self, grid: str) -> list[str]:
        """The grid's characters, one per cell ('.' or '0' for a blank)."""
        chars = [ch for ch in grid.upper() if ch in self.digits or ch in "0."]
        if len(chars) != self.size * self.size:
            raise ValueError(f"expected {self.size * self.size} cells, got {len(chars)}")
        return chars

    def parse_grid(self, grid: str) -> Values | None:
        """Every cell open, then each given assigned (with propagation); None on a contradiction."""
        values = [self.digits for _ in self.cells]
        for s, d in enumerate(self.grid_values(grid)):
            if d in self.digits and not self.assign(values, s, d):
                return None
        return values

    # -- constraint propagation ------------------------------------------
    def assign(self, values: Values, s: int, d: str) -> Values | None:
        """Eliminate all the other symbols from ``values[s]`` and propagate."""
        other_values = values[s].replace(d, "")
        if all(self.eliminate(values, s, d2) for d2 in other_values):
            return values
        return None

    def eliminate(self, values: Values, s: int, d: str) -> Values | None:
        """Remove ``d`` from ``values[s]``; propagate when a cell or a unit is down to one place."""
        if d not in values[s]:
            return values  # already eliminated
        values[s] = values[s].replace(d, "")
        # (1) A cell with no value left is a contradiction; with one, remove it from the peers.
        if len(values[s]) == 0:
            return None
        if len(values[s]) == 1:
            d2 = values[s]
            if not all(self.eliminate(values, s2, d2) for s2 in self.peers[s]):
                return None
        # (2) A unit with no place left for d is a contradiction; with one, put d there.
        for u in self.units[s]:
            dplaces = [s2 for s2 in u if d in values[s2]]
            if len(dplaces) == 0:
                return None
            if len(dplaces) == 1 and not self.assign(values, dplaces[0], d):
                return None
        return values

    # -- search ----------------------------------------------------------
    def search(self, values: Values | None) -> Values | None:
        """Depth-first search over the cell with the fewest options, propagating each try."""
        if values is None:
            return None
        if all(len(values[s]) == 1 for s in self.cells):
            return values  # solved
        _, s = min((len(values[s]), s) for s in self.cells if len(values[s]) > 1)
        for d in values[s]:
            result = self.search(self.assign(values.copy(), s, d))
            if result is not None:
                return result
        return None

    def solutions(self, values: Values | None) -> Iterator[Values]:
        """Every solution below ``values``, in the order ``search`` would meet them."""
        if values is None:
            return
        if all(len(values[s]) == 1 for s in self.cells):
            yield values
            return
        _, s = min((len(values[s]), s) for s in self.cells if len(values[s]) > 1)
        for d in values[s]:
            yield from self.solutions(self.assign(values.copy(), s, d))

    # -- the essay's entry point, returning a grid of ints -------------------
    def solve(self, grid: str) -> list[list[int]] | None:
        """The solution of ``grid`` as rows of ints, or None if it has none."""
        return self._rows(self.search(self.parse_grid(grid)))

    def check(self, grid: str) -> tuple[str, list[list[int]] | None]:
        """``unique`` / ``multiple`` / ``unsat``, and the first solution found."""
        found = []
        for values in self.solutions(self.parse_grid(grid)):
            found.append(values)
            if len(found) == 2:
                break
        status = ("unsat", "unique", "multiple")[len(found)]
        return status, self._rows(found[0] if found else None)

    def _rows(self, values: Values | None) -> list[list[int]] | None:
        if values is None:
            return None
        n = self.size
        flat = [self.digits.index(v) + 1 for v in values]
        return [flat[r * n : (r + 1) * n] for r in range(n)]


def line_units(size: int) -> list[list[int]]:
    """The rows and columns of a ``size x size`` grid, as cell numbers."""
    rows = [[r * size + c for c in range(size)] for r in range(size)]
    cols = [[r * size + c for r in range(size)] for c in range(size)]
    return rows + cols


def box_units(size: int, box_rows: int, box_cols: int) -> list[list[int]]:
    """Rows, columns and ``box_rows x box_cols`` boxes of a ``size x size`` grid, as cell numbers."""
    boxes = [
        [r * size + c for r in range(top, top + box_rows) for c in range(left, left + box_cols)]
        for top in range(0, size, box_rows)
        for left in range(0, size, box_cols)
    ]
    return line_units(size) + boxes


def classic() -> NorvigSolver:
    """The essay's 9x9 Sudoku."""
    return NorvigSolver(box_units(9, 3, 3), 9)


def jigsaw(region_grid: Sequence[Sequence[object]]) -> NorvigSolver:
    """Rows, columns and irregular regions given as a grid of labels."""
    size = len(region_grid)
    regions: dict[object, list[int]] = {}
    for r, row in enumerate(region_grid):
        for c, label in enumerate(row):
            regions.setdefault(label, []).append(r * size + c)
    return NorvigSolver(line_units(size) + list(regions.values()), size)


def solve_lines(lines: Iterator[str]) -> Iterator[str]:
    """Each puzzle line's solution as a line of symbols ("no solution" if none).

    A line is a puzzle of any size (N*N symbols), optionally followed by N*N jigsaw
    region labels; the units and peers of each shape are built once, as the essay
    builds them once at import."""
    solvers: dict[tuple[int, str | None], NorvigSolver] = {}
    for line in lines:
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        grid, labels = fields[0], (fields[1] if len(fields) > 1 else None)
        size = round(len(grid) ** 0.5)
        solver = solvers.get((size, labels))
        if solver is None:
            if labels is not None:
                solver = jigsaw([labels[r * size : (r + 1) * size] for r in range(size)])
            else:
                box_rows = next(b for b in range(round(size**0.5), 0, -1) if size % b == 0)
                solver = NorvigSolver(box_units(size, box_rows, size // box_rows), size)
            solvers[size, labels] = solver
        solution = solver.solve(grid)
        yield "".join(SYMBOLS[v - 1] for row in solution for v in row) if solution else "no solution"


if __name__ == "__main__":  # python3 -m benchmarks.norvig [FILE] (default: standard input)
    import sys

    with open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin as source:
        for answer in solve_lines(source):
            print(answer)
