"""What every engine offers, and the results it returns.

An :class:`Engine` turns a :class:`~solver.model.Model` into a prepared
:class:`Session` once; the session then answers many questions about that
model, each under its own *assumptions* (literals forced true, e.g. the
givens of one puzzle).  Preparing once and assuming per question is what
makes a batch of same-shaped puzzles fast on an incremental SAT solver.

Every operation takes a time limit in seconds (``None``: no limit).  Running
out of time is not an error: the answer says ``unknown`` (or, for a count,
``complete=False``).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable, Literal, Sequence

from .model import Assignment, Model

SolveStatus = Literal["sat", "unsat", "unknown"]
UniquenessStatus = Literal["unique", "multiple", "unsat", "unknown"]


@dataclass
class SolveResult:
    status: SolveStatus
    assignment: Assignment | None = None
    seconds: float = 0.0


@dataclass
class Enumeration:
    """Solutions found by :meth:`Session.enumerate`.

    ``complete`` is True only when the search proved there are no others
    (it is False when the limit or the time limit stopped it first)."""

    count: int
    complete: bool
    solutions: list[Assignment] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class Uniqueness:
    """``unique`` / ``multiple`` (with two distinct witnesses) / ``unsat`` / ``unknown``."""

    status: UniquenessStatus
    witnesses: list[Assignment] = field(default_factory=list)
    seconds: float = 0.0


OnSolution = Callable[[Assignment], None]


class Session(ABC):
    """A model prepared for one engine; answers questions under assumptions."""

    def __init__(self, model: Model):
        self.model = model

    @abstractmethod
    def solve(
        self, assumptions: Sequence[int] = (), time_limit: float | None = None
    ) -> SolveResult:
        """One solution, or a proof there is none, or ``unknown``."""

    @abstractmethod
    def enumerate(
        self,
        assumptions: Sequence[int] = (),
        limit: int | None = None,
        time_limit: float | None = None,
        keep: int = 0,
        on_solution: OnSolution | None = None,
    ) -> Enumeration:
        """Distinct solutions (distinct on the primary variables), up to ``limit``.

        The first ``keep`` are returned; ``on_solution`` sees every one as it
        is found (for progress reports)."""

    def count(
        self,
        assumptions: Sequence[int] = (),
        limit: int | None = None,
        time_limit: float | None = None,
        on_solution: OnSolution | None = None,
    ) -> Enumeration:
        """How many solutions; ``complete`` says whether that is all of them."""
        return self.enumerate(assumptions, limit, time_limit, 0, on_solution)

    def check_unique(
        self, assumptions: Sequence[int] = (), time_limit: float | None = None
    ) -> Uniqueness:
        """Exactly one solution?  ``multiple`` comes with two distinct witnesses."""
        found = self.enumerate(assumptions, limit=2, time_limit=time_limit, keep=2)
        if found.count >= 2:
            status: UniquenessStatus = "multiple"
        elif not found.complete:
            status = "unknown"
        else:
            status = "unique" if found.count == 1 else "unsat"
        return Uniqueness(status, found.solutions, found.seconds)


class Engine(ABC):
    """A solving back end.  It knows Boolean models, never puzzles."""

    name: str = "?"
    description: str = ""

    @abstractmethod
    def prepare(self, model: Model) -> Session:
        """Build the engine's form of ``model`` once, for many questions."""


class Deadline:
    """A point in time, or none; tells how much time is left."""

    def __init__(self, time_limit: float | None):
        self.time_limit = time_limit
        self.end = None if time_limit is None else time.perf_counter() + time_limit

    def remaining(self) -> float | None:
        if self.end is None:
            return None
        return max(0.0, self.end - time.perf_counter())

    def passed(self) -> bool:
        return self.end is not None and time.perf_counter() >= self.end
