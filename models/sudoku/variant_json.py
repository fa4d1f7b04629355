"""The variant rules in mindgames' own JSON: one schema, read and written here.

A puzzle object carries its rules beside ``"grid"`` (docs/variants.md shows each with an
example).  Cells are written ``"r1c1"`` (1-based, as every message names them); a key
that is absent means no such rule.

=====================  ===============================================================
key                    value
=====================  ===============================================================
``cages``              ``[{"cells": [cell, ...], "sum": 15}]`` (``"sum"`` optional)
``little_killers``     ``[{"cells": [cell, ...], "sum": 12}]``: the diagonal, clue side first
``sandwiches``         ``[{"row": 1, "sum": 10}]`` or ``[{"column": 3, "sum": 0}]`` (1-based)
``thermos``            ``[{"cells": [bulb, ..., tip]}]``, ``"slow": true`` for a slow thermo
``arrows``             ``[{"circle": [cell, ...], "path": [cell, ...]}]``
``dots``               ``[{"cells": [a, b], "colour": "white" | "black"}]``
``xv``                 ``[{"cells": [a, b], "letter": "X" | "V"}]``
``lines``              ``[{"kind": "whisper" | "renban" | "palindrome" | "between",
                       "cells": [...]}]`` (a whisper may give ``"gap"``)
``parity``             ``[{"cell": cell, "parity": "even" | "odd"}]``
``extra_regions``      ``[[cell, ...], ...]`` (windoku / hyper regions)
``candidates``         ``[{"cell": cell, "digits": [1, 2]}]`` (pencil marks as a rule)
``anti_knight`` ...    ``true``: the flags ``anti_knight``, ``anti_king``,
                       ``non_consecutive``, ``disjoint_groups``, ``negative_kropki``,
                       ``negative_xv``
=====================  ===============================================================
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import PuzzleError, shorten
from ..grid import Cell, cell_name
from .variants import (
    FLAGS,
    XV,
    Arrow,
    Cage,
    Candidates,
    Constraints,
    Dot,
    Line,
    LittleKiller,
    Parity,
    Sandwich,
    Thermo,
)

#: the keys of the rules in a puzzle object, in the order they are written
RULE_KEYS = (
    "cages",
    "little_killers",
    "sandwiches",
    "thermos",
    "arrows",
    "dots",
    "xv",
    "lines",
    "parity",
    "extra_regions",
    "candidates",
    *FLAGS,
)

_CELL = re.compile(r"r(\d+)c(\d+)", re.IGNORECASE)


def constraints_to_json(constraints: Constraints) -> dict[str, Any]:
    """The rules as the keys of a puzzle object (none for classic Sudoku)."""
    c = constraints
    record: dict[str, Any] = {}

    def cells(found: tuple[Cell, ...]) -> list[str]:
        return [cell_name(cell) for cell in found]

    if c.cages:
        record["cages"] = [
            {"cells": cells(cage.cells), **({"sum": cage.total} if cage.total is not None else {})}
            for cage in c.cages
        ]
    if c.little_killers:
        record["little_killers"] = [{"cells": cells(k.cells), "sum": k.total} for k in c.little_killers]
    if c.sandwiches:
        record["sandwiches"] = [{s.line: s.index + 1, "sum": s.total} for s in c.sandwiches]
    if c.thermos:
        record["thermos"] = [
            {"cells": cells(t.cells), **({"slow": True} if t.slow else {})} for t in c.thermos
        ]
    if c.arrows:
        record["arrows"] = [{"circle": cells(a.circle), "path": cells(a.path)} for a in c.arrows]
    if c.dots:
        record["dots"] = [{"cells": cells(d.cells), "colour": d.colour} for d in c.dots]
    if c.xv:
        record["xv"] = [{"cells": cells(x.cells), "letter": x.letter} for x in c.xv]
    if c.lines:
        record["lines"] = [
            {
                "kind": line.kind,
                "cells": cells(line.cells),
                **({"gap": line.gap} if line.gap is not None else {}),
            }
            for line in c.lines
        ]
    if c.parity:
        record["parity"] = [{"cell": cell_name(p.cell), "parity": p.parity} for p in c.parity]
    if c.extra_regions:
        record["extra_regions"] = [cells(region) for region in c.extra_regions]
    if c.candidates:
        record["candidates"] = [{"cell": cell_name(m.cell), "digits": sorted(m.digits)} for m in c.candidates]
    flags = (
        c.anti_knight,
        c.anti_king,
        c.non_consecutive,
        c.disjoint_groups,
        c.negative_kropki,
        c.negative_xv,
    )
    record.update({flag: True for flag, on in zip(FLAGS, flags) if on})
    return record


def constraints_from_json(value: dict[str, Any], where: str = "JSON") -> Constraints:
    """The rules of a puzzle object (its keys of :data:`RULE_KEYS`); PuzzleError naming the
    key and the entry when one is not of the schema.  (Whether the rules fit the grid,
    cells inside it and totals in range, is :func:`.variants.validate`'s, in make_puzzle.)"""
    reader = _Reader(where)
    flags = {}
    for flag in FLAGS:
        on = value.get(flag, False)
        if not isinstance(on, bool):
            raise PuzzleError(f'{where}: "{flag}" must be true or false, not {shorten(repr(on))}')
        flags[flag] = on
    return Constraints(
        cages=tuple(
            Cage(reader.cells(e, "cells", at), reader.number(e, "sum", at, optional=True))
            for e, at in reader.entries(value, "cages")
        ),
        little_killers=tuple(
            LittleKiller(reader.cells(e, "cells", at), reader.number(e, "sum", at))
            for e, at in reader.entries(value, "little_killers")
        ),
        sandwiches=tuple(reader.sandwich(e, at) for e, at in reader.entries(value, "sandwiches")),
        thermos=tuple(
            Thermo(reader.cells(e, "cells", at), reader.flag(e, "slow", at))
            for e, at in reader.entries(value, "thermos")
        ),
        arrows=tuple(
            Arrow(reader.cells(e, "circle", at), reader.cells(e, "path", at))
            for e, at in reader.entries(value, "arrows")
        ),
        dots=tuple(
            Dot(reader.pair(e, at), reader.word(e, "colour", ("white", "black"), at))  # type: ignore[arg-type]
            for e, at in reader.entries(value, "dots")
        ),
        xv=tuple(
            XV(reader.pair(e, at), reader.word(e, "letter", ("X", "V"), at))  # type: ignore[arg-type]
            for e, at in reader.entries(value, "xv")
        ),
        lines=tuple(
            Line(
                reader.word(e, "kind", ("whisper", "renban", "palindrome", "between"), at),  # type: ignore[arg-type]
                reader.cells(e, "cells", at),
                reader.number(e, "gap", at, optional=True),
            )
            for e, at in reader.entries(value, "lines")
        ),
        parity=tuple(
            Parity(reader.cell(e.get("cell"), f"{at}.cell"), reader.word(e, "parity", ("even", "odd"), at))  # type: ignore[arg-type]
            for e, at in reader.entries(value, "parity")
        ),
        extra_regions=tuple(
            reader.cell_list(e, at) for e, at in reader.entries(value, "extra_regions", objects=False)
        ),
        candidates=tuple(
            Candidates(reader.cell(e.get("cell"), f"{at}.cell"), reader.digits(e, at))
            for e, at in reader.entries(value, "candidates")
        ),
        **flags,
    )


class _Reader:
    """Reading the entries of the schema, each error naming where it is (``cages[2].sum``)."""

    def __init__(self, where: str):
        self.where = where

    def fail(self, at: str, what: str) -> PuzzleError:
        return PuzzleError(f"{self.where}: {at}: {what}")

    def entries(self, value: dict[str, Any], key: str, objects: bool = True) -> list[tuple[Any, str]]:
        found = value.get(key, [])
        if not isinstance(found, list):
            raise self.fail(key, f"must be a list, not {shorten(repr(found))}")
        for index, entry in enumerate(found):
            if objects and not isinstance(entry, dict):
                raise self.fail(f"{key}[{index}]", f"must be an object, not {shorten(repr(entry))}")
        return [(entry, f"{key}[{index}]") for index, entry in enumerate(found)]

    def cell(self, text: Any, at: str) -> Cell:
        match = _CELL.fullmatch(text) if isinstance(text, str) else None
        if match is None or int(match[1]) < 1 or int(match[2]) < 1:
            raise self.fail(at, f'a cell is written "r1c1" (1-based), not {shorten(repr(text))}')
        return int(match[1]) - 1, int(match[2]) - 1

    def cell_list(self, cells: Any, at: str) -> tuple[Cell, ...]:
        if not isinstance(cells, list):
            raise self.fail(at, f"must be a list of cells, not {shorten(repr(cells))}")
        return tuple(self.cell(text, f"{at}[{i}]") for i, text in enumerate(cells))

    def cells(self, entry: dict[str, Any], key: str, at: str) -> tuple[Cell, ...]:
        if key not in entry:
            raise self.fail(at, f'has no "{key}"')
        return self.cell_list(entry[key], f"{at}.{key}")

    def pair(self, entry: dict[str, Any], at: str) -> tuple[Cell, Cell]:
        cells = self.cells(entry, "cells", at)
        if len(cells) != 2:
            raise self.fail(f"{at}.cells", f"must be two cells, not {len(cells)}")
        return cells[0], cells[1]

    def number(self, entry: dict[str, Any], key: str, at: str, optional: bool = False) -> Any:
        number = entry.get(key)
        if number is None and optional:
            return None
        if not isinstance(number, int) or isinstance(number, bool):
            raise self.fail(f"{at}.{key}", f"must be a whole number, not {shorten(repr(number))}")
        return number

    def flag(self, entry: dict[str, Any], key: str, at: str) -> bool:
        on = entry.get(key, False)
        if not isinstance(on, bool):
            raise self.fail(f"{at}.{key}", f"must be true or false, not {shorten(repr(on))}")
        return on

    def word(self, entry: dict[str, Any], key: str, allowed: tuple[str, ...], at: str) -> str:
        word = entry.get(key)
        if word not in allowed:
            raise self.fail(
                f"{at}.{key}", f"must be {' or '.join(map(repr, allowed))}, not {shorten(repr(word))}"
            )
        return word

    def sandwich(self, entry: dict[str, Any], at: str) -> Sandwich:
        lines = [key for key in ("row", "column") if key in entry]
        if len(lines) != 1:
            raise self.fail(at, 'a sandwich gives either "row" or "column" (1-based)')
        index = self.number(entry, lines[0], at)
        return Sandwich("row" if lines[0] == "row" else "column", index - 1, self.number(entry, "sum", at))

    def digits(self, entry: dict[str, Any], at: str) -> frozenset[int]:
        digits = entry.get("digits")
        if not isinstance(digits, list) or not all(
            isinstance(d, int) and not isinstance(d, bool) for d in digits
        ):
            raise self.fail(f"{at}.digits", f"must be a list of digits, not {shorten(repr(digits))}")
        return frozenset(digits)
