"""Sudoku as a kind object (:data:`SUDOKU`): what the interfaces and the runner ask of Sudoku."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

from mindgames.solver.deadline import Deadline

from ..draw import grid_lines
from ..errors import PuzzleError
from ..kind import Cell, GridKind, Option, Parsed
from ..runner import PuzzleSolver, Result
from . import formats, rules
from .formats import Unit, Variant, checked_box
from .puzzle import Sudoku, make_puzzle
from .writers import LINKS, WRITERS

BOX = Option(
    "box", "box shape RxC (e.g. 3x3, 2x3); default: as the file says, else the most square", parse=checked_box
)
#: the box of a grid to generate: there is no file to say it
GENERATE_BOX = Option("box", "box shape RxC, e.g. 2x3 (default 3x3)", parse=checked_box)
DIAGONALS = Option("diagonals", "X-Sudoku: both diagonals too", flag=True)
REGIONS = Option("regions", "jigsaw: N*N region labels, one per cell, row by row")


class SudokuKind(GridKind[Sudoku, "rules.Encoding | rules.PuzzleEncoding"]):
    """Sudoku of any box shape, X-Sudoku and jigsaw Sudoku."""

    name = "sudoku"
    summary = "Sudoku of any box shape, X-Sudoku (diagonals) and jigsaw Sudoku (regions), 4x4 to 35x35"
    formats = (
        "a line of N*N symbols ('.' or '0' blank, 1-9, A-Z), optionally followed by N*N jigsaw region labels",
        "a grid drawn over several lines (separators | - + allowed)",
        "a list of rows of numbers (0 blank)",
        'an object {"grid", "box": [rows, cols], "diagonals": true|false, "regions"}',
        "puzz.link, f-puzzles and SudokuPad links, Simon Tatham's Solo game IDs",
        ".sdk / .sdm files (SadMan, SudoCue), .ss grids, Sukaku lines and candidate grids (pencil marks)",
    )
    options = (BOX, DIAGONALS)
    generate_options = (GENERATE_BOX, DIAGONALS, REGIONS)

    @staticmethod
    def _stated(box: tuple[int, int] | None = None, diagonals: bool | None = None) -> Variant | None:
        """What the options state, as the variant the reader holds the puzzles to (None: nothing)."""
        diagonals = diagonals or None  # a flag: on, or not stated
        if box is None and diagonals is None:
            return None
        source = " and ".join(n for n, given in (("--box", box), ("--diagonals", diagonals)) if given)
        return Variant(box, diagonals, source)

    # -- reading and writing ------------------------------------------------------------
    def read(self, text: str, **options: Any) -> list[Parsed[Sudoku]]:
        return list(formats.read(text, self._stated(**options)))

    def units(self, lines: Iterable[str], **options: Any) -> Iterator[Unit]:
        return formats.units(lines, self._stated(**options))  # streams: see formats.units

    def parse_unit(self, unit: Unit) -> Parsed[Sudoku]:
        return formats.parse_unit(unit)

    def parse_value(self, value: Any, **options: Any) -> Sudoku:
        if isinstance(value, str):
            return formats.parse(value, self._stated(**options))
        return formats.parse_json_value(value, "puzzle", self._stated(**options))

    def write(self, puzzle: Sudoku) -> str:
        return formats.write(puzzle)

    def to_json(self, puzzle: Sudoku) -> dict[str, Any]:
        return formats.to_json(puzzle)

    writers = WRITERS
    links = LINKS

    # -- the rules, as rules.py states them -----------------------------------------------
    shape = staticmethod(rules.shape)
    compile = staticmethod(rules.compile)
    compile_alone = staticmethod(rules.compile_alone)
    compile_puzzle = staticmethod(rules.compile_puzzle)
    givens = staticmethod(rules.givens)
    decode = staticmethod(rules.decode)
    verify = staticmethod(rules.verify)
    explain_unsolvable = staticmethod(rules.explain_unsolvable)
    clashing_cells = staticmethod(rules.clashing_cells)

    def result_fields(self, puzzle: Sudoku) -> dict[str, Any]:
        """A puzzle with variant rules: the puzzle as read (mindgames' JSON object, its rules
        included), so that a page that sent a link (read only here) can draw its givens and
        rules (``static/variants.js``)."""
        return {"drawing": formats.to_json(puzzle)} if puzzle.constraints else {}

    # -- explanations: the deduction ladder (models.sudoku.ladder) -------------------------
    def grade(self, puzzle: Sudoku, deadline: Deadline = Deadline(None)) -> tuple[int, str, list[str]] | None:
        """(grade, grade name, techniques used) by the ladder; for a puzzle with one solution.
        None for a puzzle with variant rules: the ladder knows units only (``explain`` then
        says "one solution", which the engines proved under every rule)."""
        if puzzle.constraints:
            return None
        from . import ladder  # imported when asked: solving needs none of it

        return ladder.grade(puzzle, deadline)

    def rating(self, puzzle: Sudoku, deadline: Deadline = Deadline(None)) -> dict[str, float]:
        """Sudoku Explainer's ER, EP and ED (:mod:`mindgames.models.sudoku.rating`)."""
        from . import ladder

        solving = ladder.solve_by_ladder(puzzle, deadline)
        return {"rating": solving.rating, "rating_ep": solving.rating_ep, "rating_ed": solving.rating_ed}

    def hint(self, puzzle: Sudoku, deadline: Deadline = Deadline(None)) -> dict[str, Any] | None:
        """The next value the ladder deduces, as JSON; None when it is stuck.  A puzzle with
        variant rules gets the first single under every rule (the ladder knows units only:
        :func:`.variant_explain.hint`, which names the rules it used)."""
        if puzzle.constraints:
            from . import variant_explain

            return variant_explain.hint(puzzle, deadline)
        from . import ladder

        return ladder.hint_json(puzzle, deadline)

    def rules_in_clash(self, puzzle: Sudoku, solvable: Callable[[Sudoku], bool]) -> list[str]:
        """The variant rules (cages, thermos...) a clash of givens needs, by name (each removal checked)."""
        from . import variant_explain

        return variant_explain.rules_in_clash(puzzle, solvable)

    # -- words for people ---------------------------------------------------------------
    def describe(self, puzzle: Sudoku) -> str:
        return puzzle.variant

    def draw(self, puzzle: Sudoku, solution: Any = None, color: bool = False) -> list[str]:
        if solution is None:
            return grid_lines(puzzle.grid, puzzle.box, None, False, puzzle.regions)
        return grid_lines(solution, puzzle.box, puzzle.grid, color, puzzle.regions)

    # -- what generation needs ----------------------------------------------------------
    def empty(
        self, box: tuple[int, int] | None = None, diagonals: bool = False, regions: str | None = None
    ) -> Sudoku:
        """The blank grid of a box shape (default 3x3) or of jigsaw region labels (N*N, row by row)."""
        if regions is None:
            box = box or (3, 3)
            size = box[0] * box[1]
            return make_puzzle([[0] * size for _ in range(size)], list(box), None, bool(diagonals))
        if box is not None:
            raise PuzzleError("give either a box or jigsaw regions (a jigsaw has no boxes), not both")
        size = round(len(regions) ** 0.5)
        if size * size != len(regions):
            raise PuzzleError(f"regions: {len(regions)} labels do not make a square grid (36 for 6x6)")
        labels = [list(regions[r * size : (r + 1) * size]) for r in range(size)]
        return make_puzzle([[0] * size for _ in range(size)], None, labels, bool(diagonals), "regions")

    def given_cells(self, puzzle: Sudoku) -> dict[Cell, int]:
        return {(r, c): v for r, row in enumerate(puzzle.grid) for c, v in enumerate(row) if v}

    def with_givens(self, puzzle: Sudoku, givens: dict[Cell, int]) -> Sudoku:
        size = puzzle.size
        grid = tuple(tuple(givens.get((r, c), 0) for c in range(size)) for r in range(size))
        return replace(puzzle, grid=grid)


SUDOKU = SudokuKind()


# -- the library in a few calls -----------------------------------------------------------
def solver(engine: str = "sat") -> PuzzleSolver:
    """A reusable solver: keep it for a batch, it compiles each shape once."""
    return PuzzleSolver(SUDOKU, engine)


def solve(puzzle: Sudoku, engine: str = "sat", time_limit: float | None = None) -> Result:
    return solver(engine).solve(puzzle, time_limit)


def check(puzzle: Sudoku, engine: str = "sat", time_limit: float | None = None) -> Result:
    """Solved and unique, solved with several solutions, or unsolvable (proved by ``engine``).

    >>> from mindgames.models.sudoku import check, make_puzzle
    >>> result = check(make_puzzle([[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]))
    >>> result.status, result.uniqueness, result.solution
    ('solved', 'unique', [[1, 3, 2, 4], [4, 2, 3, 1], [2, 4, 1, 3], [3, 1, 4, 2]])
    >>> check(make_puzzle([[1, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])).status
    'unsolvable'
    """
    return solver(engine).check(puzzle, time_limit)


def count(
    puzzle: Sudoku, engine: str = "sat", limit: int | None = None, time_limit: float | None = None
) -> Result:
    return solver(engine).count(puzzle, limit, time_limit)
