"""The built-in puzzles (the seeds' five), as puzzle documents built from parameters.

Each preset is a function of its parameters returning the same document a
user would write in TOML; ``mindgames crossing export`` prints it.  Kept in
Python so that they ship inside the package.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

from models.errors import PuzzleError, shorten


def wolf_goat_cabbage(capacity: int = 2) -> dict[str, Any]:
    """The farmer ferries a wolf, a goat and a cabbage; only he rows."""
    return {
        "name": "Wolf, goat and cabbage",
        "boat": {"capacity": capacity},
        "actors": [
            {"name": "farmer", "rows": True},
            {"name": "wolf"},
            {"name": "goat"},
            {"name": "cabbage", "cargo": True},
        ],
        "rules": [
            {"kind": "not_together", "who": ["goat"], "with_any": ["wolf", "cabbage"],
             "unless_any": ["farmer"]},
        ],
    }


def missionaries_cannibals(pairs: int = 3, capacity: int = 2) -> dict[str, Any]:
    """Missionaries may never be outnumbered by cannibals, on a bank or in the boat."""
    _at_least(pairs, "pairs", 1)
    return {
        "name": f"Missionaries and cannibals ({pairs} pairs, boat of {capacity})",
        "boat": {"capacity": capacity},
        "actors": [
            {"name": "missionary", "count": pairs, "groups": ["m"]},
            {"name": "cannibal", "count": pairs, "groups": ["c"]},
        ],
        "rules": [{"kind": "not_outnumbered", "protect": "@m", "by": "@c"}],
    }


def jealous_husbands(couples: int = 3, capacity: int = 2, return_capacity: int = 0) -> dict[str, Any]:
    """No wife with another man unless her husband is there (banks and boat).
    ``return_capacity = 0`` means: as many back as over."""
    _at_least(couples, "couples", 1)
    husbands = [f"husband{i}" for i in range(1, couples + 1)]
    wives = [f"wife{i}" for i in range(1, couples + 1)]
    boat: dict[str, Any] = {"capacity": capacity}
    if return_capacity:
        boat["return_capacity"] = return_capacity
    rules = [
        {"kind": "not_together", "who": [wife],
         "with_any": [h for h in husbands if h != husband], "unless_any": [husband]}
        for husband, wife in zip(husbands, wives)
        if couples > 1
    ]
    back = f", {return_capacity} back" if return_capacity else ""
    return {
        "name": f"Jealous husbands ({couples} couples, boat of {capacity}{back})",
        "boat": boat,
        "actors": [{"name": n, "groups": ["men"]} for n in husbands]
        + [{"name": n, "groups": ["women"]} for n in wives],
        "rules": rules,
    }


def dangerous_family(capacity: int = 2) -> dict[str, Any]:
    """Father, mother, two sons, two daughters, a maid and a dog; only the
    parents and the maid row."""
    return {
        "name": "The dangerous family",
        "boat": {"capacity": capacity},
        "actors": [
            {"name": "father", "rows": True, "groups": ["family"]},
            {"name": "mother", "rows": True, "groups": ["family"]},
            {"name": "son1", "groups": ["family", "sons"]},
            {"name": "son2", "groups": ["family", "sons"]},
            {"name": "daughter1", "groups": ["family", "daughters"]},
            {"name": "daughter2", "groups": ["family", "daughters"]},
            {"name": "maid", "rows": True},
            {"name": "dog"},
        ],
        "rules": [
            {"kind": "not_together", "who": ["father"], "with_any": ["@daughters"],
             "unless_any": ["mother"]},
            {"kind": "not_together", "who": ["mother"], "with_any": ["@sons"],
             "unless_any": ["father"]},
            {"kind": "not_together", "who": ["dog"], "with_any": ["@family"],
             "unless_any": ["maid"]},
        ],
    }


def queens_tower(
    queen: int = 195, daughter: int = 105, son: int = 90, cannonball: int = 75,
    max_difference: int = 15,
) -> dict[str, Any]:
    """Lewis Carroll's pulley: two baskets on a rope; a person may ride only when
    the baskets differ by at most ``max_difference``; the cannonball may fall alone."""
    return {
        "name": "The queen's tower",
        "pulley": {"max_difference": max_difference},
        "actors": [
            {"name": "queen", "weight": queen},
            {"name": "daughter", "weight": daughter},
            {"name": "son", "weight": son},
            {"name": "cannonball", "weight": cannonball, "cargo": True, "must_cross": False},
        ],
    }


PRESETS: dict[str, Callable[..., dict[str, Any]]] = {
    "wolf-goat-cabbage": wolf_goat_cabbage,
    "missionaries-cannibals": missionaries_cannibals,
    "jealous-husbands": jealous_husbands,
    "dangerous-family": dangerous_family,
    "queens-tower": queens_tower,
}


def parameters(name: str) -> dict[str, Any]:
    """A preset's parameters and their defaults."""
    signature = inspect.signature(PRESETS[name])
    return {p.name: p.default for p in signature.parameters.values()}


def build(name: str, settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """The document of preset ``name`` with ``settings`` (parameter -> value) applied."""
    if name not in PRESETS:
        raise PuzzleError(f"no built-in puzzle {shorten(repr(name))}; see `mindgames crossing list`")
    known = parameters(name)
    values: dict[str, Any] = {}
    for key, value in (settings or {}).items():
        if key not in known:
            raise PuzzleError(
                f"--set {shorten(key)}: {name} has no such parameter (it has {', '.join(known)})"
            )
        if isinstance(value, bool) or not isinstance(value, int):
            raise PuzzleError(f"--set {key}={shorten(repr(value))}: expected a whole number")
        values[key] = value
    return PRESETS[name](**values)


def _at_least(value: int, key: str, minimum: int) -> None:
    if value < minimum:
        raise PuzzleError(f"--set {key}={value}: must be at least {minimum}")
