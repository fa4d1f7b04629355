"""A Sudoku as the web page draws it: its grid, boxes or regions, and its variant rules as JSON.

The answers of a puzzle with variant rules carry it (``"drawing"``, by
:meth:`SudokuKind.result_fields <.kind.SudokuKind.result_fields>`), so that a puzzle pasted
as a link, which only the server reads, appears on the page with its cages, thermos and
dots (``static/variants.js`` draws them).  Each rule family is the list of its rules, each
rule its fields (:mod:`.variants`), cells as ``[row, column]`` from 0; a flag is ``true``
when on and absent when off; a family without rules is absent.

>>> from mindgames.models.sudoku import make_puzzle
>>> from mindgames.models.sudoku.variants import Cage, Constraints
>>> puzzle = make_puzzle([[0] * 4] * 4, constraints=Constraints(cages=(Cage(((0, 0), (0, 1)), 3),)))
>>> drawing(puzzle)["constraints"]
{'cages': [{'cells': [[0, 0], [0, 1]], 'total': 3}]}
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from .puzzle import Sudoku
from .variants import Constraints


def drawing(puzzle: Sudoku) -> dict[str, Any]:
    """The puzzle as the page draws it: givens, box or regions, diagonals, and its rules."""
    return {
        "grid": [list(row) for row in puzzle.grid],
        "box": None if puzzle.box is None else list(puzzle.box),
        "regions": None if puzzle.regions is None else [list(row) for row in puzzle.regions],
        "diagonals": puzzle.diagonals,
        "constraints": constraints_json(puzzle.constraints),
    }


def constraints_json(constraints: Constraints) -> dict[str, Any]:
    """Every rule family present, as plain JSON (see the module's doc)."""
    return {
        field.name: _plain(value) if not isinstance(value, bool) else value
        for field in fields(constraints)
        if (value := getattr(constraints, field.name))
    }


def _plain(value: Any) -> Any:
    """Rules as JSON values: a rule an object of its fields, tuples lists, digit sets sorted lists."""
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    if isinstance(value, frozenset):
        return sorted(value)
    if is_dataclass(value):
        return {field.name: _plain(getattr(value, field.name)) for field in fields(value)}
    return value
