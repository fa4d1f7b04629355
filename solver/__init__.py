"""Engines and the engine-neutral Boolean model they share.

>>> from mindgames.solver import Model, get_engine
>>> m = Model(); a, b = m.new_var(primary=True), m.new_var(primary=True)
>>> m.add_exactly([a, b], 1)
>>> get_engine("sat").prepare(m).count().count
2
"""

from __future__ import annotations

from .deadline import Deadline
from .engine import Engine, Enumeration, Session, Solutions, SolveResult, Uniqueness
from .model import Assignment, Choice, Model, is_true, projection

ENGINE_NAMES = ("sat", "cpsat", "backtrack")


def get_engine(name: str) -> Engine:
    """The engine called ``name`` (one of :data:`ENGINE_NAMES`)."""
    if name == "sat":
        from .sat import SatEngine

        return SatEngine()
    if name == "cpsat":
        from .cpsat import CpSatEngine

        return CpSatEngine()
    if name == "backtrack":
        from .backtrack import BacktrackEngine

        return BacktrackEngine()
    raise ValueError(f"unknown engine {name!r}; choose one of {', '.join(ENGINE_NAMES)}")


__all__ = [
    "Assignment",
    "Choice",
    "Deadline",
    "ENGINE_NAMES",
    "Engine",
    "Enumeration",
    "Model",
    "Session",
    "Solutions",
    "SolveResult",
    "Uniqueness",
    "get_engine",
    "is_true",
    "projection",
]
