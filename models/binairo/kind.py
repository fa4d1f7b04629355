"""Binairo as a kind object (:data:`BINAIRO`): what the interfaces and the runner ask of binairo."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..draw import marked_rows
from ..kind import Cell, GridKind, Option, Parsed
from . import formats, rules
from .puzzle import RULE_SETS, Puzzle, grid_rows, make_puzzle, parse_size

RULES_OPTION = Option(
    "rules",
    "takuzu (all rules) or unruly (rows/columns may repeat); "
    "default: what the file says (header or JSON), else takuzu",
    choices=RULE_SETS,
)
SIZE_OPTION = Option(
    "size", "grid size: N or ROWSxCOLS (both even), e.g. 10 or 6x8", parse=parse_size, required=True
)


class BinairoKind(GridKind[Puzzle]):
    """Binairo (takuzu, unruly)."""

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

    # -- reading and writing ------------------------------------------------------------
    def read(self, text: str, rules: str | None = None) -> list[Parsed[Puzzle]]:
        return formats.read(text, rules)

    def parse_value(self, value: Any, rules: str | None = None) -> Puzzle:
        """One puzzle; ``rules`` None: as the puzzle says (header or "rules" key), else takuzu."""
        return formats.parse_value(value, rules)

    def write(self, puzzle: Puzzle) -> str:
        return formats.write(puzzle)

    def to_json(self, puzzle: Puzzle) -> dict[str, Any]:
        return formats.to_json(puzzle)

    # -- the rules, as rules.py states them -----------------------------------------------
    shape = staticmethod(rules.shape)
    compile = staticmethod(rules.compile)
    givens = staticmethod(rules.givens)
    decode = staticmethod(rules.decode)
    verify = staticmethod(rules.verify)
    explain_unsolvable = staticmethod(rules.explain_unsolvable)
    clashing_cells = staticmethod(rules.clashing_cells)

    # -- explanations: the deduction ladder (models.binairo.techniques) ------------------
    def grade(self, puzzle: Puzzle, deadline: Any = None) -> tuple[int, str, list[str]]:
        """(grade, grade name, techniques used) by the ladder; for a puzzle with one solution
        (a line at a time, quick at every size binairo allows: no ``deadline`` needed)."""
        from . import techniques

        return techniques.grade(puzzle)

    def hint(self, puzzle: Puzzle, deadline: Any = None) -> dict[str, Any] | None:
        """The next cell the ladder fills, as JSON; None when it is stuck."""
        from . import techniques

        return techniques.hint_json(puzzle)

    # -- words for people ---------------------------------------------------------------
    def describe(self, puzzle: Puzzle) -> str:
        return f"{puzzle.rows}x{puzzle.cols} {puzzle.rules}"

    def draw(self, puzzle: Puzzle, solution: Any = None, color: bool = False) -> list[str]:
        if solution is None:
            return marked_rows(grid_rows(puzzle.cells), None, color)
        return marked_rows(grid_rows(solution), puzzle.cells, color)

    def result_fields(self, puzzle: Puzzle) -> dict[str, Any]:
        return {"rules": puzzle.rules}

    # -- what generation needs ----------------------------------------------------------
    def empty(self, size: tuple[int, int] | str, rules: str | None = None) -> Puzzle:
        rows, cols = parse_size(size) if isinstance(size, str) else size
        return make_puzzle([[None] * cols for _ in range(rows)], rules or "takuzu")

    def given_cells(self, puzzle: Puzzle) -> dict[Cell, int]:
        return {(r, c): v for r, row in enumerate(puzzle.cells) for c, v in enumerate(row) if v is not None}

    def with_givens(self, puzzle: Puzzle, givens: dict[Cell, int]) -> Puzzle:
        cells = tuple(tuple(givens.get((r, c)) for c in range(puzzle.cols)) for r in range(puzzle.rows))
        return replace(puzzle, cells=cells)


BINAIRO = BinairoKind()
