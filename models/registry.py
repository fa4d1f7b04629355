"""Every puzzle kind mindgames knows, by name: the one list the interfaces are made from.

Adding a kind means writing its module (a :class:`~mindgames.models.kind.PuzzleKind`)
and one line here; the command line, the service and the web page find it.
Kinds are imported when first asked for, so a command that needs one kind does
not pay for importing the others.
"""

from __future__ import annotations

import importlib

from .kind import GridKind, PuzzleKind

#: kind name -> "module:attribute" of its kind object
KIND_PATHS: dict[str, str] = {
    "sudoku": "mindgames.models.sudoku:SUDOKU",
    "binairo": "mindgames.models.binairo:BINAIRO",
    "crossing": "mindgames.models.crossing:CROSSING",
}
KIND_NAMES: tuple[str, ...] = tuple(KIND_PATHS)


def get_kind(name: str) -> PuzzleKind:
    """The kind called ``name``; ValueError naming the known ones otherwise.

    >>> get_kind("binairo").name
    'binairo'
    >>> get_kind("chess")
    Traceback (most recent call last):
    ...
    ValueError: unknown puzzle kind 'chess'; known: sudoku, binairo, crossing
    """
    try:
        module, attribute = KIND_PATHS[name].split(":")
    except KeyError:
        raise ValueError(f"unknown puzzle kind {name!r}; known: {', '.join(KIND_NAMES)}") from None
    return getattr(importlib.import_module(module), attribute)


def kinds() -> list[PuzzleKind]:
    return [get_kind(name) for name in KIND_NAMES]


def grid_kinds() -> list[GridKind]:
    return [kind for kind in kinds() if isinstance(kind, GridKind)]
