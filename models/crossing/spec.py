"""The crossing puzzle format: a TOML (or JSON) document checked into a :class:`Spec`.

Input: the parsed document (a dict).  Output: an immutable :class:`Spec`, or a
:class:`~mindgames.models.errors.PuzzleError` whose message names the offending key and
value.  Nothing in a puzzle file is ever evaluated: names, numbers and flags only.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

from mindgames.models.errors import PuzzleError, shorten

from .rules import PLACES, RULE_CLASSES, RULE_KINDS, CrossingRule, Groups

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

TOP_KEYS = {"name", "description", "boat", "pulley", "actors", "rules"}
BOAT_KEYS = {"capacity", "return_capacity", "min_load"}
PULLEY_KEYS = {"max_difference", "capacity"}
ACTOR_KEYS = {"name", "count", "groups", "rows", "weight", "cargo", "must_cross"}
# Size bounds of a puzzle document: what the solver stays bounded on (memory:
# the counted state graph and the models grow with copies and capacity).
MAX_ACTORS = 200  # [[actors]] entries
MAX_COUNT = 1000  # copies of one actor
MAX_COPIES = 2000  # copies of all actors together
MAX_CAPACITY = 20  # boat.capacity, boat.return_capacity, boat.min_load, pulley.capacity
MAX_WEIGHT = 1_000_000  # actors' weight, pulley.max_difference
MAX_RULES = 400  # [[rules]] entries
MAX_NAMES = 400  # names in one list (a rule's who/with_any/..., an actor's groups)
MAX_NAME_LENGTH = 64  # characters of an actor or group name
RULE_KEYS = {kind: {"kind", "where", *rule.roles} for kind, rule in RULE_CLASSES.items()}
REQUIRED_ROLES = {"who", "with_any", "protect", "by"}  # unless_any may be left out


@dataclass(frozen=True)
class Actor:
    name: str
    count: int = 1
    groups: tuple[str, ...] = ()
    rows: bool = False
    weight: int = 0
    cargo: bool = False
    must_cross: bool = True


@dataclass(frozen=True)
class Spec:
    """A checked crossing puzzle.

    ``vehicle`` is ``"boat"`` (a river: sides left/right) or ``"pulley"``
    (sides top/ground).  ``capacity`` bounds a trip's load (for the pulley: each
    basket's, ``None`` = unbounded), ``return_capacity`` the trips back."""

    name: str
    vehicle: str
    actors: tuple[Actor, ...]
    rules: tuple[CrossingRule, ...] = ()
    capacity: int | None = 2
    return_capacity: int | None = None
    min_load: int = 1
    max_difference: int = 0
    description: str = ""
    document: dict = field(default_factory=dict, compare=False, repr=False)

    # -- derived facts ----------------------------------------------------
    @property
    def is_river(self) -> bool:
        return self.vehicle == "boat"

    @property
    def sides(self) -> tuple[str, str]:
        return ("left", "right") if self.is_river else ("top", "ground")

    def actor(self, name: str) -> Actor:
        return next(a for a in self.actors if a.name == name)

    def capacity_towards(self, far: bool) -> int | None:
        """The most aboard on a trip towards the far side (``far``) or back."""
        if far or self.return_capacity is None:
            return self.capacity
        return self.return_capacity

    def rowers(self) -> frozenset[str]:
        """Who may operate the boat: the ``rows`` actors, or every person if none rows."""
        marked = {a.name for a in self.actors if a.rows}
        return frozenset(marked or {a.name for a in self.actors if not a.cargo})

    def total_copies(self) -> int:
        return sum(a.count for a in self.actors)


# -- parsing -----------------------------------------------------------------
def load_document(text: str, source: str = "puzzle") -> dict[str, Any]:
    """The table of keys in TOML or JSON text (JSON when the text starts with ``{``), unchecked."""
    stripped = text.lstrip()
    try:
        if stripped.startswith("{"):
            document = json.loads(text)
        else:
            document = tomllib.loads(text)
    except json.JSONDecodeError as error:
        raise PuzzleError(f"{source}: not valid JSON (line {error.lineno}: {error.msg})") from None
    except tomllib.TOMLDecodeError as error:
        raise PuzzleError(f"{source}: not valid TOML ({error})") from None
    except RecursionError:
        raise PuzzleError(f"{source}: nested too deeply") from None
    if not isinstance(document, dict):
        raise PuzzleError(f"{source}: a puzzle is a table of keys, not {type(document).__name__}")
    return document


def parse_text(text: str, source: str = "puzzle") -> Spec:
    """A spec from TOML or JSON text (JSON when the text starts with ``{``)."""
    return parse_document(load_document(text, source))


def parse_document(document: dict[str, Any]) -> Spec:
    """Check a parsed puzzle document and return its :class:`Spec`."""
    _no_unknown_keys(document, TOP_KEYS, "")
    name = _string(document.get("name", "crossing puzzle"), "name")
    description = _string(document.get("description", ""), "description")
    if ("boat" in document) == ("pulley" in document):
        raise PuzzleError("a puzzle has exactly one of [boat] or [pulley]")
    actors = _actors(document.get("actors"), pulley="pulley" in document)
    known = {a.name for a in actors}
    groups = tuple(
        (g, frozenset(a.name for a in actors if g in a.groups))
        for g in dict.fromkeys(g for a in actors for g in a.groups)
    )
    rules = tuple(
        _rule(raw, f"rules[{i}]", known, groups)
        for i, raw in enumerate(_list(document.get("rules", []), "rules", MAX_RULES))
    )
    if "boat" in document:
        boat = _table(document["boat"], "boat")
        _no_unknown_keys(boat, BOAT_KEYS, "boat.")
        if "capacity" not in boat:
            raise PuzzleError("boat.capacity is missing")
        capacity = _integer(boat["capacity"], "boat.capacity", 1, MAX_CAPACITY)
        back = boat.get("return_capacity")
        back = None if back is None else _integer(back, "boat.return_capacity", 1, MAX_CAPACITY)
        min_load = _integer(boat.get("min_load", 1), "boat.min_load", 1, MAX_CAPACITY)
        for key, limit in (("capacity", capacity), ("return_capacity", back)):
            if limit is not None and min_load > limit:
                raise PuzzleError(f"boat.min_load = {min_load} is above boat.{key} = {limit}")
        spec = Spec(name, "boat", actors, rules, capacity, back, min_load, 0, description, document)
        if not spec.rowers():
            raise PuzzleError("actors: nobody can row (every actor is cargo)")
        for a in actors:
            if a.weight:
                raise PuzzleError(f"actors: weight = {a.weight} of {a.name!r} is for [pulley] puzzles")
        return spec
    pulley = _table(document["pulley"], "pulley")
    _no_unknown_keys(pulley, PULLEY_KEYS, "pulley.")
    if "max_difference" not in pulley:
        raise PuzzleError("pulley.max_difference is missing")
    difference = _integer(pulley["max_difference"], "pulley.max_difference", 0, MAX_WEIGHT)
    basket = pulley.get("capacity")
    basket_capacity = None if basket is None else _integer(basket, "pulley.capacity", 1, MAX_CAPACITY)
    return Spec(name, "pulley", actors, rules, basket_capacity, None, 1, difference, description, document)


def _actors(raw: Any, pulley: bool) -> tuple[Actor, ...]:
    items = _list(raw if raw is not None else [], "actors", MAX_ACTORS)
    if not items:
        raise PuzzleError("actors: a puzzle needs at least one [[actors]] entry")
    actors: list[Actor] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        where = f"actors[{i}]"
        table = _table(item, where)
        _no_unknown_keys(table, ACTOR_KEYS, f"{where}.")
        if "name" not in table:
            raise PuzzleError(f"{where}.name is missing")
        name = _name(table["name"], f"{where}.name")
        if name in seen:
            raise PuzzleError(f"{where}.name = {name!r}: two actors have this name")
        seen.add(name)
        groups = tuple(
            _name(g, f"{where}.groups") for g in _list(table.get("groups", []), f"{where}.groups", MAX_NAMES)
        )
        cargo = _bool(table.get("cargo", False), f"{where}.cargo")
        rows = _bool(table.get("rows", False), f"{where}.rows")
        if cargo and rows:
            raise PuzzleError(f"{where}.rows = true: {name!r} is cargo and cannot row")
        if pulley and "weight" not in table:
            raise PuzzleError(f"{where}.weight is missing (every actor of a pulley has a weight)")
        actors.append(
            Actor(
                name=name,
                count=_integer(table.get("count", 1), f"{where}.count", 1, MAX_COUNT),
                groups=groups,
                rows=rows,
                weight=_integer(table.get("weight", 0), f"{where}.weight", 0, MAX_WEIGHT),
                cargo=cargo,
                must_cross=_bool(table.get("must_cross", True), f"{where}.must_cross"),
            )
        )
    copies = sum(a.count for a in actors)
    if copies > MAX_COPIES:
        raise PuzzleError(f"actors: {copies} copies in all is too many (allowed: 1..{MAX_COPIES})")
    return tuple(actors)


def _rule(raw: Any, where: str, known: set[str], groups: Groups) -> CrossingRule:
    table = _table(raw, where)
    kind = table.get("kind")
    if kind not in RULE_KINDS:
        raise PuzzleError(f"{where}.kind = {shorten(repr(kind))}: choose one of {', '.join(RULE_KINDS)}")
    _no_unknown_keys(table, RULE_KEYS[kind], f"{where}.")
    group_names = {g for g, _ in groups}

    def names(key: str, required: bool) -> tuple[str, ...]:
        if key not in table:
            if required:
                raise PuzzleError(f"{where}.{key} is missing")
            return ()
        value = table[key]
        values = [value] if isinstance(value, str) else _list(value, f"{where}.{key}", MAX_NAMES)
        out = []
        for v in values:
            ref = _string(v, f"{where}.{key}")
            if ref.startswith("@") and ref[1:] not in group_names:
                raise PuzzleError(f"{where}.{key}: unknown group {shorten(repr(ref))}")
            if not ref.startswith("@") and ref not in known:
                raise PuzzleError(f"{where}.{key}: unknown actor {shorten(repr(ref))}")
            out.append(ref)
        if required and not out:
            raise PuzzleError(f"{where}.{key} is empty")
        return tuple(out)

    raw_places = table.get("where", list(PLACES))
    places = [raw_places] if isinstance(raw_places, str) else _list(raw_places, f"{where}.where")
    for p in places:
        if p not in PLACES:
            raise PuzzleError(f"{where}.where: unknown place {shorten(repr(p))} (use banks, boat)")
    if not places:
        raise PuzzleError(f"{where}.where is empty")
    rule = RULE_CLASSES[kind]
    return rule(tuple(places), groups, **{role: names(role, role in REQUIRED_ROLES) for role in rule.roles})


# -- small checkers ----------------------------------------------------------
def _no_unknown_keys(table: dict, allowed: set[str], prefix: str) -> None:
    for key in table:
        if key not in allowed:
            raise PuzzleError(
                f"unknown key {prefix}{shorten(str(key))} (allowed: {', '.join(sorted(allowed))})"
            )


def _table(value: Any, key: str) -> dict:
    if not isinstance(value, dict):
        raise PuzzleError(f"{key} = {shorten(repr(value))}: expected a table")
    return value


def _list(value: Any, key: str, most: int | None = None) -> list:
    if not isinstance(value, list):
        raise PuzzleError(f"{key} = {shorten(repr(value))}: expected a list")
    if most is not None and len(value) > most:
        raise PuzzleError(f"{key}: {len(value)} entries is too many (allowed: at most {most})")
    return value


def _string(value: Any, key: str) -> str:
    if not isinstance(value, str):
        raise PuzzleError(f"{key} = {shorten(repr(value))}: expected a string")
    return value


def _name(value: Any, key: str) -> str:
    text = _string(value, key)
    if not text or text.startswith("@") or text != text.strip():
        raise PuzzleError(f"{key} = {shorten(repr(text))}: not a usable name")
    if len(text) > MAX_NAME_LENGTH:
        raise PuzzleError(
            f"{key} = {shorten(repr(text))}: a name of {len(text)} characters is too "
            f"long (allowed: at most {MAX_NAME_LENGTH})"
        )
    return text


def _bool(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise PuzzleError(f"{key} = {shorten(repr(value))}: expected true or false")
    return value


def _integer(value: Any, key: str, minimum: int, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleError(f"{key} = {shorten(repr(value))}: expected a whole number in {minimum}..{maximum}")
    if value < minimum:
        raise PuzzleError(f"{key} = {value}: must be at least {minimum} (allowed: {minimum}..{maximum})")
    if value > maximum:
        raise PuzzleError(f"{key} = {shorten(str(value))} is too big (allowed: {minimum}..{maximum})")
    return value
