"""Binairo (Takuzu, Unruly): fill a grid with 0s and 1s.

The rules, stated once (:data:`RULES`), for an ``rows x cols`` grid, both even:

* ``balance``  every row and every column has as many 0s as 1s;
* ``triples``  no three equal cells next to each other in a row or column;
* ``distinct`` no two rows are equal and no two columns are equal
  (``takuzu`` rules only: Simon Tatham's ``unruly`` drops it).

One module per concern:

``puzzle``    the frozen :class:`Puzzle` (``cells[r][c]`` is 0, 1 or None), built and checked by :func:`make_puzzle`;
``rules``     the lines, the model (:func:`compile`), givens, decoding, :func:`verify`, explanations;
``formats``   reading every accepted format, the header, writing what reads back;
``generate``  puzzles with one solution and no removable given (the shared loop of :mod:`mindgames.models.generate`);
``techniques`` the deduction ladder a person uses (hints, grades; imported when asked for);
``kind``      :data:`BINAIRO`, the kind object the interfaces and the runner use;
``count``     exact counts of every valid grid (numba; imported only when asked for).

Everything but ``count`` and ``techniques`` is importable from ``models.binairo`` itself, which
also serves as a kind module for :class:`mindgames.models.runner.PuzzleSolver`.
"""

from __future__ import annotations

from .formats import (
    HEADER,
    HEADER_KEYS,
    INPUT_KEYS,
    OUTPUT_KEYS,
    header_line,
    parse_one,
    parse_value,
    read,
    to_json,
    write,
)
from .generate import Generator, generate, generate_with
from .kind import BINAIRO, RULES_OPTION, SIZE_OPTION, BinairoKind
from .puzzle import (
    BLANK,
    MAX_SIDE,
    RULE_SETS,
    Grid,
    Puzzle,
    Shape,
    check_rules_set,
    check_size,
    grid_rows,
    make_puzzle,
    parse_size,
)
from .rules import (
    RULES,
    Encoding,
    clashing_cells,
    compile,
    decode,
    explain_unsolvable,
    families,
    givens,
    grid_problems,
    lines,
    shape,
    verify,
)

name = "binairo"

__all__ = [
    "BINAIRO",
    "BLANK",
    "BinairoKind",
    "Encoding",
    "Generator",
    "Grid",
    "HEADER",
    "HEADER_KEYS",
    "INPUT_KEYS",
    "MAX_SIDE",
    "OUTPUT_KEYS",
    "Puzzle",
    "RULES",
    "RULES_OPTION",
    "RULE_SETS",
    "SIZE_OPTION",
    "Shape",
    "check_rules_set",
    "check_size",
    "clashing_cells",
    "compile",
    "decode",
    "explain_unsolvable",
    "families",
    "generate",
    "generate_with",
    "givens",
    "grid_problems",
    "grid_rows",
    "header_line",
    "lines",
    "make_puzzle",
    "name",
    "parse_one",
    "parse_size",
    "parse_value",
    "read",
    "shape",
    "to_json",
    "verify",
    "write",
]
