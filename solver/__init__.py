"""Engines and the engine-neutral Boolean model they share.

>>> from mindgames.solver import Model, get_engine
>>> m = Model(); a, b = m.new_var(primary=True), m.new_var(primary=True)
>>> m.add_exactly([a, b], 1)
>>> get_engine("sat").prepare(m).count().count
2
"""

from __future__ import annotations

from .deadline import Deadline
from .engine import (
    Capability,
    Engine,
    Enumeration,
    NotSupported,
    Session,
    Solutions,
    SolveResult,
    Uniqueness,
)
from .model import Assignment, Choice, Model, is_true, projection
from .registry import (
    ENGINE_NAMES,
    EngineInfo,
    engine_info,
    engine_names,
    engines,
    engines_with,
    get_engine,
    register_engine,
    unregister_engine,
)

__all__ = [
    "Assignment",
    "Capability",
    "Choice",
    "Deadline",
    "ENGINE_NAMES",
    "Engine",
    "EngineInfo",
    "Enumeration",
    "Model",
    "NotSupported",
    "Session",
    "Solutions",
    "SolveResult",
    "Uniqueness",
    "engine_info",
    "engine_names",
    "engines",
    "engines_with",
    "get_engine",
    "is_true",
    "projection",
    "register_engine",
    "unregister_engine",
]
