"""Every engine by name, with what it can do: the one table the interfaces are made from.

An entry names the engine's class as ``"module:attribute"``, imported only when the
engine is asked for (``mindgames crossing ...`` does not load OR-Tools to list its
choices), says what it is in a few words, and lists its :class:`Capability` values:
the one statement of them (:attr:`Engine.capabilities` reads them here).  The command
line's ``--engine`` choices, the service's request schema and ``GET /v1/kinds``,
``compare``'s default engines and the crossing kind's engine option all come from
this table; a caller that needs an ability asks :func:`engines_with` (or
:meth:`Engine.supports`), never an engine's name.

>>> from mindgames.solver import Capability, Model
>>> engine_names()
('sat', 'cpsat', 'backtrack')
>>> engines_with(Capability.PLAN_SEARCH)
('sat', 'cpsat')
>>> m = Model(); a, b = m.new_var(primary=True), m.new_var(primary=True)
>>> m.add_exactly([a, b], 1)
>>> get_engine("cpsat").prepare(m).count().count
2
>>> get_engine("cpsat").supports(Capability.NATIVE_LINEAR)
True

A new engine is an :class:`Engine` subclass and one entry (a plug-in registers it the
same way; ``tests/test_new_engine.py`` shows one seen by every interface):

>>> register_engine(EngineInfo("sat2", "mindgames.solver.sat:SatEngine", "sat again"))
>>> "sat2" in engine_names()
True
>>> unregister_engine("sat2")
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .capabilities import Capability

if TYPE_CHECKING:  # (the engine interface reads the capabilities here: no import back)
    from .engine import Engine

_C = Capability


@dataclass(frozen=True)
class EngineInfo:
    """One engine: its name, where its class is, what it is, what it can do."""

    name: str
    #: "module:attribute" of its :class:`Engine` class (or of anything called with no
    #: arguments that returns the engine), imported when the engine is first asked for
    path: str
    summary: str
    capabilities: frozenset[Capability] = frozenset()

    def supports(self, capability: Capability) -> bool:
        return capability in self.capabilities


#: the engines mindgames ships, in the order interfaces list them (the default first)
BUILT_IN: tuple[EngineInfo, ...] = (
    EngineInfo(
        "sat",
        "mindgames.solver.sat:SatEngine",
        "CaDiCaL via python-sat",
        frozenset(
            {
                _C.INCREMENTAL,
                _C.UNSAT_CORES,
                _C.PROOF_OUTPUT,
                _C.SEARCH_STATS,
                _C.SHARES_MODELS,
                _C.PLAN_SEARCH,
            }
        ),
    ),
    EngineInfo(
        "cpsat",
        "mindgames.solver.cpsat:CpSatEngine",
        "OR-Tools CP-SAT",
        frozenset({_C.NATIVE_LINEAR, _C.SEARCH_STATS, _C.PLAN_SEARCH}),
    ),
    EngineInfo(
        "backtrack",
        "mindgames.solver.backtrack:BacktrackEngine",
        "plain backtracking, the seeds' textbook baseline",
        frozenset({_C.SEARCH_STATS}),
    ),
)

#: the names of the engines built in (kept for compatibility: registered ones are in
#: :func:`engine_names`, which every interface asks)
ENGINE_NAMES: tuple[str, ...] = tuple(info.name for info in BUILT_IN)

_ENGINES: dict[str, EngineInfo] = {info.name: info for info in BUILT_IN}


def engine_names() -> tuple[str, ...]:
    """Every engine's name: the built-in ones, then those registered, in order."""
    return tuple(_ENGINES)


def engines() -> tuple[EngineInfo, ...]:
    return tuple(_ENGINES.values())


def engine_info(name: str) -> EngineInfo:
    """The entry of the engine called ``name``; ValueError naming the known ones otherwise."""
    try:
        return _ENGINES[name]
    except KeyError:
        raise ValueError(f"unknown engine {name!r}; choose one of {', '.join(_ENGINES)}") from None


def engines_with(capability: Capability) -> tuple[str, ...]:
    """The names of the engines that offer ``capability``, in :func:`engine_names` order."""
    return tuple(name for name, info in _ENGINES.items() if capability in info.capabilities)


def capabilities_of(name: str) -> frozenset[Capability]:
    """What the engine called ``name`` offers; nothing for a name not registered."""
    info = _ENGINES.get(name)
    return frozenset() if info is None else info.capabilities


def get_engine(name: str) -> Engine:
    """A new engine called ``name`` (one of :func:`engine_names`); ValueError otherwise."""
    module, attribute = engine_info(name).path.split(":")
    engine = getattr(importlib.import_module(module), attribute)()
    if engine.name != name:  # its capabilities are looked up by that name
        raise TypeError(f"the engine registered as {name!r} calls itself {engine.name!r}")
    return engine


def register_engine(info: EngineInfo) -> None:
    """Make ``info``'s engine known to every interface (after the built-in ones)."""
    if info.name in _ENGINES:
        raise ValueError(f"an engine called {info.name!r} is registered already")
    if ":" not in info.path:
        raise ValueError(f"engine {info.name!r}: path {info.path!r} is not 'module:attribute'")
    _ENGINES[info.name] = info


def unregister_engine(name: str) -> None:
    """Forget a registered engine (a test's, a plug-in's); the built-in ones stay."""
    if name in ENGINE_NAMES:
        raise ValueError(f"engine {name!r} is built in")
    engine_info(name)  # ValueError for an unknown name
    del _ENGINES[name]
