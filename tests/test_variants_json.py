"""Variant rules in mindgames' own JSON (models/sudoku/variant_json.py): written, read back the same.

One schema (docs/variants.md): ``{"grid": ..., "cages": [{"cells": ["r1c1", "r1c2"], "sum": 15}],
"thermos": [{"cells": [...]}], ...}``; a puzzle written as JSON or as text (a header and a
JSON line) reads back as the same puzzle, and a malformed rule is named with where it is.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.models.errors import PuzzleError
from mindgames.models.sudoku import SUDOKU, Sudoku, make_puzzle, read, write
from mindgames.models.sudoku.variants import Cage, Constraints, Line, Sandwich

from .test_variants import BOXES, FAMILIES, merged, random_grid


@st.composite
def variant_puzzles(draw: st.DrawFn) -> Sudoku:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    size = draw(st.sampled_from(sorted(BOXES)))
    grid = random_grid(size, rng)
    families = draw(st.lists(st.sampled_from(sorted(FAMILIES)), min_size=1, max_size=4, unique=True))
    constraints = merged([FAMILIES[name](grid, rng) for name in families])
    givens = [[v if rng.random() < 0.3 else 0 for v in row] for row in grid]
    return make_puzzle(givens, BOXES[size], None, draw(st.booleans()), "", constraints)


@settings(max_examples=150, deadline=None)
@given(puzzle=variant_puzzles())
def test_a_puzzle_written_as_json_reads_back_the_same(puzzle: Sudoku) -> None:
    text = json.dumps(SUDOKU.to_json(puzzle))
    assert SUDOKU.parse_value(json.loads(text)) == puzzle
    assert SUDOKU.parse_value(text) == puzzle  # a JSON text, as the service's "puzzle" string


@settings(max_examples=50, deadline=None)
@given(puzzle=variant_puzzles())
def test_a_puzzle_written_as_text_reads_back_the_same(puzzle: Sudoku) -> None:
    (item,) = read(write(puzzle))
    assert item.require() == puzzle


def test_the_schema_reads_as_documented() -> None:
    value: dict[str, Any] = {
        "grid": [[0] * 9 for _ in range(9)],
        "cages": [{"cells": ["r1c1", "r1c2"], "sum": 3}, {"cells": ["r9c9", "r9c8"]}],
        "sandwiches": [{"column": 3, "sum": 0}],
        "lines": [{"kind": "whisper", "cells": ["r5c5", "r5c6"]}],
        "anti_knight": True,
    }
    puzzle = SUDOKU.parse_value(value)
    assert puzzle.constraints == Constraints(
        cages=(Cage(((0, 0), (0, 1)), 3), Cage(((8, 8), (8, 7)))),
        sandwiches=(Sandwich("column", 2, 0),),
        lines=(Line("whisper", ((4, 4), (4, 5))),),
        anti_knight=True,
    )
    assert SUDOKU.to_json(puzzle)["cages"] == value["cages"][:1] + [{"cells": ["r9c9", "r9c8"]}]


def test_a_16x16_puzzle_names_cells_past_9() -> None:
    puzzle = make_puzzle([[0] * 16] * 16, constraints=Constraints(cages=(Cage(((9, 11), (10, 11)), 31),)))
    assert SUDOKU.to_json(puzzle)["cages"] == [{"cells": ["r10c12", "r11c12"], "sum": 31}]
    assert SUDOKU.parse_value(SUDOKU.to_json(puzzle)) == puzzle


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"cages": [{"cells": ["x1"], "sum": 3}]}, 'cages[0].cells[0]: a cell is written "r1c1"'),
        ({"cages": {"cells": []}}, "cages: must be a list"),
        ({"thermos": [["r1c1", "r1c2"]]}, "thermos[0]: must be an object"),
        (
            {"dots": [{"cells": ["r1c1", "r1c2"], "colour": "red"}]},
            "dots[0].colour: must be 'white' or 'black'",
        ),
        ({"xv": [{"cells": ["r1c1"], "letter": "X"}]}, "xv[0].cells: must be two cells, not 1"),
        ({"sandwiches": [{"row": 1, "column": 2, "sum": 3}]}, 'a sandwich gives either "row" or "column"'),
        ({"arrows": [{"circle": ["r1c1"]}]}, 'arrows[0]: has no "path"'),
        ({"anti_king": "yes"}, '"anti_king" must be true or false'),
        ({"cages": [{"cells": ["r1c1", "r1c2"], "sum": 30}]}, "cage 1 (r1c1): total 30 is out of range"),
    ],
)
def test_a_malformed_rule_is_named_where_it_is(rules: dict, message: str) -> None:
    with pytest.raises(PuzzleError) as raised:
        SUDOKU.parse_value({"grid": [[0] * 9 for _ in range(9)], **rules})
    assert message in str(raised.value)
