"""The built-in puzzles (the seeds' five), as puzzle documents built from parameters.

Each preset is a function of its parameters returning the same document a
user would write in TOML; ``mindgames crossing export`` prints it.  Kept in
Python so that they ship inside the package.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from mindgames.models.errors import PuzzleError, shorten
from mindgames.models.words import plural

# Each parameter's allowed values.  Chosen so that every puzzle in range stays
# bounded in memory and, on a typical machine, is answered (solved, proved
# unsolvable, or `unknown` at --time-limit) within about a minute; the document
# itself grows with couples**2 (each wife's rule names every other husband).
BOUNDS: dict[str, dict[str, tuple[int, int]]] = {
    "wolf-goat-cabbage": {"capacity": (1, 4)},
    "missionaries-cannibals": {"pairs": (1, 1000), "capacity": (1, 20)},
    "jealous-husbands": {"couples": (1, 100), "capacity": (1, 10), "return_capacity": (0, 10)},
    "dangerous-family": {"capacity": (1, 8)},
    "queens-tower": {
        "queen": (1, 10_000),
        "daughter": (1, 10_000),
        "son": (1, 10_000),
        "cannonball": (1, 10_000),
        "max_difference": (0, 10_000),
    },
}


def check_value(preset: str, key: str, value: Any) -> int:
    """``value`` if it is a whole number within ``key``'s bounds, else a PuzzleError
    naming the parameter, the value and the range (checked before any work)."""
    low, high = BOUNDS[preset][key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleError(
            f"{preset}: {key} = {shorten(repr(value))}: expected a whole number in {low}..{high}"
        )
    if value < low or value > high:
        size = "small" if value < low else "big"
        raise PuzzleError(f"{preset}: {key} = {value} is too {size} (allowed: {low}..{high})")
    return value


Preset = Callable[..., dict[str, Any]]  # keyword parameters -> a puzzle document


def _bounded(preset: str) -> Callable[[Preset], Preset]:
    """Check every parameter of a preset function against ``BOUNDS[preset]``."""

    def wrap(function: Preset) -> Preset:
        @functools.wraps(function)
        def checked(**values: Any) -> dict[str, Any]:
            for key, value in values.items():
                check_value(preset, key, value)
            return function(**values)

        return checked

    return wrap


def _boat(capacity: int, back: int = 0) -> str:
    return f"boat of {capacity}" + (f", {back} back" if back else "")


@_bounded("wolf-goat-cabbage")
def wolf_goat_cabbage(capacity: int = 2) -> dict[str, Any]:
    """The farmer ferries a wolf, a goat and a cabbage; only he rows."""
    return {
        "name": f"Wolf, goat and cabbage ({_boat(capacity)})",
        "description": f"The farmer ferries a wolf, a goat and a cabbage in a {_boat(capacity)}; "
        f"only he rows. The wolf may not be left with the goat, nor the goat with "
        f"the cabbage, without him.",
        "boat": {"capacity": capacity},
        "actors": [
            {"name": "farmer", "rows": True},
            {"name": "wolf"},
            {"name": "goat"},
            {"name": "cabbage", "cargo": True},
        ],
        "rules": [
            {
                "kind": "not_together",
                "who": ["goat"],
                "with_any": ["wolf", "cabbage"],
                "unless_any": ["farmer"],
            },
        ],
    }


@_bounded("missionaries-cannibals")
def missionaries_cannibals(pairs: int = 3, capacity: int = 2) -> dict[str, Any]:
    """Missionaries may never be outnumbered by cannibals, on a bank or in the boat."""
    return {
        "name": f"Missionaries and cannibals ({plural(pairs, 'pair')}, {_boat(capacity)})",
        "description": f"{plural(pairs, 'missionary', 'missionaries')} and "
        f"{plural(pairs, 'cannibal')} cross in a {_boat(capacity)}; missionaries "
        f"may never be outnumbered by cannibals, on a bank or in the boat.",
        "boat": {"capacity": capacity},
        "actors": [
            {"name": "missionary", "count": pairs, "groups": ["m"]},
            {"name": "cannibal", "count": pairs, "groups": ["c"]},
        ],
        "rules": [{"kind": "not_outnumbered", "protect": "@m", "by": "@c"}],
    }


@_bounded("jealous-husbands")
def jealous_husbands(couples: int = 3, capacity: int = 2, return_capacity: int = 0) -> dict[str, Any]:
    """No wife with another man unless her husband is there (banks and boat).
    return_capacity = 0 means: as many back as over."""
    husbands = [f"husband{i}" for i in range(1, couples + 1)]
    wives = [f"wife{i}" for i in range(1, couples + 1)]
    boat: dict[str, Any] = {"capacity": capacity}
    if return_capacity:
        boat["return_capacity"] = return_capacity
    rules = [
        {
            "kind": "not_together",
            "who": [wife],
            "with_any": [h for h in husbands if h != husband],
            "unless_any": [husband],
        }
        for husband, wife in zip(husbands, wives)
        if couples > 1
    ]
    boat_text = _boat(capacity, return_capacity)
    return {
        "name": f"Jealous husbands ({plural(couples, 'couple')}, {boat_text})",
        "description": f"{plural(couples, 'couple')} cross in a {boat_text}; no wife may be "
        f"with another man unless her husband is there, on a bank or in the boat.",
        "boat": boat,
        "actors": [{"name": n, "groups": ["men"]} for n in husbands]
        + [{"name": n, "groups": ["women"]} for n in wives],
        "rules": rules,
    }


@_bounded("dangerous-family")
def dangerous_family(capacity: int = 2) -> dict[str, Any]:
    """Father, mother, two sons, two daughters, a maid and a dog; only the
    parents and the maid row."""
    return {
        "name": f"The dangerous family ({_boat(capacity)})",
        "description": f"Father, mother, two sons, two daughters, a maid and a dog cross in a "
        f"{_boat(capacity)}; only the parents and the maid row. The father may not "
        f"be with a daughter without the mother, the mother not with a son "
        f"without the father, the dog not with the family without the maid.",
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
            {"kind": "not_together", "who": ["father"], "with_any": ["@daughters"], "unless_any": ["mother"]},
            {"kind": "not_together", "who": ["mother"], "with_any": ["@sons"], "unless_any": ["father"]},
            {"kind": "not_together", "who": ["dog"], "with_any": ["@family"], "unless_any": ["maid"]},
        ],
    }


@_bounded("queens-tower")
def queens_tower(
    queen: int = 195,
    daughter: int = 105,
    son: int = 90,
    cannonball: int = 75,
    max_difference: int = 15,
) -> dict[str, Any]:
    """Lewis Carroll's pulley: two baskets on a rope; a person may ride only when
    the baskets differ by at most max_difference; the cannonball may fall alone."""
    return {
        "name": "The queen's tower",
        "description": f"Lewis Carroll's pulley: the queen ({queen} lb), her daughter "
        f"({daughter} lb) and son ({son} lb) come down from the tower in two "
        f"baskets on a rope, the heavier going down; a person may ride only when "
        f"the baskets differ by at most {max_difference} lb; the cannonball "
        f"({cannonball} lb) may fall alone.",
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
    """The document of preset ``name`` with ``settings`` (parameter -> value) applied.

    >>> from mindgames.models.crossing import presets
    >>> presets.parameters("missionaries-cannibals")
    {'pairs': 3, 'capacity': 2}
    >>> document = presets.build("missionaries-cannibals", {"pairs": 2})
    >>> document["name"], document["boat"]
    ('Missionaries and cannibals (2 pairs, boat of 2)', {'capacity': 2})
    >>> presets.build("missionaries-cannibals", {"pairs": 0})
    Traceback (most recent call last):
    ...
    mindgames.models.errors.PuzzleError: missionaries-cannibals: pairs = 0 is too small (allowed: 1..1000)
    """
    if name not in PRESETS:
        raise PuzzleError(f"no built-in puzzle {shorten(repr(name))}; see `mindgames crossing list`")
    known = parameters(name)
    values: dict[str, Any] = {}
    for key, value in (settings or {}).items():
        if key not in known:
            raise PuzzleError(
                f"--set {shorten(key)}: {name} has no such parameter (it has {', '.join(known)})"
            )
        values[key] = check_value(name, key, value)
    return PRESETS[name](**values)


def describe(name: str, settings: dict[str, Any] | None = None) -> str:
    """The plain-text description of a preset's puzzle with ``settings`` applied
    (its values in the text, no markup)."""
    return build(name, settings)["description"]
