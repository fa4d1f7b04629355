"""Sudoku of any box shape, X-Sudoku and jigsaw Sudoku.

The rules, once, in plain words:

* every cell holds exactly one symbol 1..N;
* every unit (each row, each column, each box or jigsaw region, and with
  ``diagonals`` both main diagonals) holds every symbol exactly once;
* a given stays as given.

One module per concern:

``puzzle``    the frozen :class:`Sudoku` and its :class:`Shape`, built and checked by :func:`make_puzzle`;
``rules``     units, the model (:func:`compile`), givens, decoding, :func:`verify`, explanations;
``formats``   reading every accepted format, headers, writing what reads back;
``generate``  puzzles with one solution and no removable given (the shared loop of :mod:`mindgames.models.generate`), also by grade;
``techniques`` the deduction ladder a person uses: named techniques over candidates, hints, grades;
``kind``      :data:`SUDOKU`, the kind object the interfaces and the runner use.

Everything is importable from ``models.sudoku`` itself, which also serves as
a kind module for :class:`mindgames.models.runner.PuzzleSolver` (``name``, ``shape``,
``compile``, ``givens``, ``decode``, ``verify``, ``explain_unsolvable``).
"""

from __future__ import annotations

from ..errors import PuzzleError
from ..grid import symbol_value
from .formats import (
    Variant,
    checked_box,
    combine,
    header,
    parse,
    parse_box,
    parse_grid_lines,
    parse_header,
    parse_json_value,
    parse_line,
    read,
    region_labels,
    to_json,
    to_line,
    to_text,
    write,
)
from .generate import generate
from .kind import BOX, DIAGONALS, REGIONS, SUDOKU, SudokuKind, check, count, solve, solver
from .puzzle import MAX_SIZE, MIN_SIZE, Grid, Shape, Sudoku, make_puzzle, shape
from .rules import (
    Encoding,
    PuzzleEncoding,
    clashing_cells,
    compile,
    compile_alone,
    compile_puzzle,
    decode,
    explain_unsolvable,
    givens,
    units,
    verify,
)
from .variant_json import constraints_from_json, constraints_to_json

name = "sudoku"

__all__ = [
    "BOX",
    "DIAGONALS",
    "Encoding",
    "Grid",
    "MAX_SIZE",
    "MIN_SIZE",
    "PuzzleEncoding",
    "PuzzleError",
    "REGIONS",
    "SUDOKU",
    "Shape",
    "Sudoku",
    "SudokuKind",
    "Variant",
    "check",
    "checked_box",
    "clashing_cells",
    "combine",
    "compile",
    "compile_alone",
    "compile_puzzle",
    "constraints_from_json",
    "constraints_to_json",
    "count",
    "decode",
    "explain_unsolvable",
    "generate",
    "givens",
    "header",
    "make_puzzle",
    "name",
    "parse",
    "parse_box",
    "parse_grid_lines",
    "parse_header",
    "parse_json_value",
    "parse_line",
    "read",
    "region_labels",
    "shape",
    "solve",
    "solver",
    "symbol_value",
    "to_json",
    "to_line",
    "to_text",
    "units",
    "verify",
    "write",
]
