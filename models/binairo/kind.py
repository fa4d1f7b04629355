"""Binairo as a kind object (:data:`BINAIRO`): what the interfaces and the runner ask of binairo."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from mindgames.solver.deadline import Deadline

from ..draw import marked_rows
from ..errors import CrossCheckFailed, PuzzleError
from ..kind import Cell, GridKind, Option, Parsed
from . import formats, rules
from .puzzle import RULE_SETS, Puzzle, check_rules_set, grid_rows, make_puzzle, parse_size
from .writers import LINKS, WRITERS

if TYPE_CHECKING:
    from .count import CountResult

RULES_OPTION = Option(
    "rules",
    "takuzu (all rules) or unruly (rows/columns may repeat); "
    "default: what the file says (header or JSON), else takuzu",
    choices=RULE_SETS,
)
SIZE_OPTION = Option(
    "size", "grid size: N or ROWSxCOLS (both even), e.g. 10 or 6x8", parse=parse_size, required=True
)

COUNT_SIZE_OPTION = Option("size", "N or RxC, count every grid of that size", parse=parse_size, required=True)


class BinairoKind(GridKind[Puzzle, rules.Encoding]):
    """Binairo (takuzu, unruly)."""

    name = "binairo"
    summary = "binairo (takuzu, unruly): fill a grid with 0s and 1s"
    formats = (
        "one row per line of 0, 1 and '.' (a string with newlines)",
        "one puzzle on one line (N*N cells)",
        "a list of rows of 0, 1, null (or -1) for a blank",
        'an object {"grid": ..., "rules": "takuzu" | "unruly"}',
        "Simon Tatham's Unruly game IDs (8x8:..., u: takuzu)",
    )
    options = (RULES_OPTION,)
    generate_options = (SIZE_OPTION, RULES_OPTION)
    counts_all_grids = True
    count_all_options = (COUNT_SIZE_OPTION, RULES_OPTION)
    count_all_methods = ("mitm", "dfs")  # (mindgames.models.binairo.count.METHODS)

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

    writers = WRITERS
    links = LINKS

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

    def rating(self, puzzle: Puzzle, deadline: Any = None) -> dict[str, Any]:
        """The level of Simon Tatham's Unruly the ladder's path reaches and the technique that
        decides it (``unruly_level``, ``unruly_technique``)."""
        from . import techniques

        level, technique = techniques.unruly_level(puzzle)
        return {"unruly_level": level, "unruly_technique": technique}

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

    # -- counting every grid ----------------------------------------------------------------
    def _count_all_settings(self, options: dict[str, Any], method: str | None) -> tuple[int, int, str, str]:
        size = options.get("size")
        if size is None:
            raise PuzzleError(f"size: needed to count every grid ({COUNT_SIZE_OPTION.help})")
        rows, cols = parse_size(size) if isinstance(size, str) else size
        rules = check_rules_set(options.get("rules") or "takuzu")
        method = method or self.count_all_methods[0]
        if method not in self.count_all_methods:
            raise PuzzleError(f"method {method!r}: one of {', '.join(self.count_all_methods)}")
        return rows, cols, rules, method

    def check_count_all(self, options: dict[str, Any], method: str | None = None) -> None:
        from .count import orient  # numpy, no numba: light enough for the API process

        rows, cols, _rules, method = self._count_all_settings(options, method)
        if method != "engine":
            orient(rows, cols, method)

    def count_all(
        self,
        options: dict[str, Any],
        method: str | None = None,
        *,
        jobs: int | None = None,
        checkpoint: str | None = None,
        on_progress: Callable[[int, int], None] | None = None,
        deadline: Deadline | None = None,
        cross_check: int | None = None,
        **backend: Any,
    ) -> CountResult:
        """:func:`mindgames.models.binairo.count.count_grids` of ``size`` under ``rules``
        (default takuzu); ``backend``: its ``ray_address``, ``isolate``, ``orientation``.  The
        cross-check recounts mitm cubes by the second method (:func:`check_cubes`)."""
        from .count import check_cubes, count_grids, default_cross_check  # numba: only to count

        rows, cols, rules, method = self._count_all_settings(options, method)
        if cross_check is None:
            cross_check = default_cross_check(rows, cols)
        left = None if deadline is None else deadline.remaining()
        result = count_grids(
            rows,
            cols,
            rules,
            method,
            jobs=jobs,
            checkpoint=checkpoint,
            on_progress=on_progress,
            deadline=None if left is None else time.monotonic() + left,
            **backend,
        )
        if cross_check and result.complete and method == "mitm":
            r, c = (int(v) for v in result.orientation.split("x"))
            recounts = check_cubes(r, c, rules, cross_check, recorded=result.counts)
            result.checked += [x.note() for x in recounts]
            wrong = [x.note() for x in recounts if not x.agrees]
            if wrong:
                raise CrossCheckFailed("; ".join(wrong))
        return result


BINAIRO = BinairoKind()
