"""What every engine offers, and the results it returns.

An :class:`Engine` turns a :class:`~mindgames.solver.model.Model` into a prepared
:class:`Session` once; the session then answers many questions about that
model, each under its own *assumptions* (literals forced true, e.g. the
givens of one puzzle).  Preparing once and assuming per question is what
makes a batch of same-shaped puzzles fast on an incremental SAT solver.

Every operation takes a time limit in seconds (``None``: no limit).  Running
out of time is not an error: the answer says ``unknown`` (or, for a count,
``complete=False``).

Every result carries ``stats``: how much search the engine did for that one
question, as counters named by the engine (``STATS`` on each session class
lists them; README.md's "Search statistics" says what each means).

What an engine offers beyond that is one of its :class:`Capability` values, asked
with :meth:`Engine.supports` (or, without importing any engine,
:func:`mindgames.solver.registry.engines_with`).  Every optional hook is declared
here with a default, so a caller never probes for a method: a session without unsat
cores raises :class:`NotSupported` naming the engine.

>>> from mindgames.solver import Model, get_engine
>>> m = Model(); a = m.new_var(primary=True)
>>> m.add_clause([a])
>>> session = get_engine("backtrack").prepare(m)
>>> session.unsat_core([-a])
Traceback (most recent call last):
...
mindgames.solver.engine.NotSupported: engine backtrack does not offer unsat cores
>>> get_engine("sat").prepare(m).unsat_core([-a])
[-1]
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .capabilities import Capability
from .deadline import Deadline
from .model import Assignment, Model, projection

SolveStatus = Literal["sat", "unsat", "unknown"]
UniquenessStatus = Literal["unique", "multiple", "unsat", "unknown"]


class NotSupported(NotImplementedError):
    """An engine was asked for something it does not offer (a :class:`Capability`)."""

    def __init__(self, engine: str, capability: Capability):
        super().__init__(f"engine {engine} does not offer {capability.phrase}")
        self.engine, self.capability = engine, capability


@dataclass
class SolveResult:
    status: SolveStatus
    assignment: Assignment | None = None
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)


@dataclass
class Enumeration:
    """Solutions found by :meth:`Session.enumerate`.

    ``complete`` is True only when the search proved there are no others
    (it is False when the limit or the time limit stopped it first)."""

    count: int
    complete: bool
    solutions: list[Assignment] = field(default_factory=list)
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)


@dataclass
class Uniqueness:
    """``unique`` / ``multiple`` (with two distinct witnesses) / ``unsat`` / ``unknown``."""

    status: UniquenessStatus
    witnesses: list[Assignment] = field(default_factory=list)
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)


OnSolution = Callable[[Assignment], None]


class Solutions:
    """What an enumeration does with each solution an engine finds.

    Counts the distinct ones (by their primary projection), keeps the first
    ``keep``, shows each to ``on_solution``, and says when ``limit`` is reached."""

    def __init__(
        self,
        model: Model,
        limit: int | None = None,
        keep: int = 0,
        on_solution: OnSolution | None = None,
        distinct: bool = False,
    ):
        self.model, self.limit, self.keep, self.on_solution = model, limit, keep, on_solution
        self.seen: set[tuple[int, ...]] | None = None if distinct else set()
        self.count = 0
        self.kept: list[Assignment] = []
        self.reached_limit = limit is not None and limit <= 0

    def add(self, assignment: Assignment) -> bool:
        """Record one solution; False once no more are wanted."""
        if self.seen is not None:
            key = projection(self.model, assignment)
            if key in self.seen:
                return True
            self.seen.add(key)
        self.count += 1
        if len(self.kept) < self.keep:
            self.kept.append(assignment)
        if self.on_solution is not None:
            self.on_solution(assignment)
        if self.limit is not None and self.count >= self.limit:
            self.reached_limit = True
        return not self.reached_limit


class Session(ABC):
    """A model prepared for one engine; answers questions under assumptions."""

    #: the names of the counters in every result's ``stats``, in order
    STATS: tuple[str, ...] = ()
    #: the name of the engine that made it (for messages: :class:`NotSupported`)
    engine_name: str = "?"

    def __init__(self, model: Model):
        self.model = model
        #: the counters of the last search (:meth:`_search` fills them)
        self.search_stats: dict[str, int] = {}

    @abstractmethod
    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> SolveResult:
        """One solution, or a proof there is none, or ``unknown``."""

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
        is found (for progress reports).  The bookkeeping is the same for every
        engine and lives here; an engine supplies only :meth:`_search`."""
        start = time.perf_counter()
        solutions = Solutions(self.model, limit, keep, on_solution, self.distinct_by_construction)
        if solutions.reached_limit:  # limit 0: nothing wanted, nothing searched
            return Enumeration(0, False, [], 0.0, dict.fromkeys(self.STATS, 0))
        self.search_stats = dict.fromkeys(self.STATS, 0)
        complete = self._search(list(assumptions), Deadline(time_limit), solutions)
        return Enumeration(
            solutions.count,
            complete and not solutions.reached_limit,
            solutions.kept,
            time.perf_counter() - start,
            dict(self.search_stats),
        )

    #: True when the search itself never reports one primary projection twice
    #: (a SAT solver blocking each solution), so no set of seen ones is kept.
    distinct_by_construction: bool = False

    @abstractmethod
    def _search(self, assumptions: list[int], deadline: Deadline, solutions: Solutions) -> bool:
        """Offer every solution to ``solutions.add`` until it returns False (the
        limit is reached) or the deadline passes; True when the search space was
        exhausted (so the solutions offered are all there are).  The search's
        counters go into ``self.search_stats`` (its keys are :attr:`STATS`)."""

    def count(
        self,
        assumptions: Sequence[int] = (),
        limit: int | None = None,
        time_limit: float | None = None,
        on_solution: OnSolution | None = None,
    ) -> Enumeration:
        """How many solutions; ``complete`` says whether that is all of them."""
        return self.enumerate(assumptions, limit, time_limit, 0, on_solution)

    def check_unique(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> Uniqueness:
        """Exactly one solution?  ``multiple`` comes with two distinct witnesses."""
        found = self.enumerate(assumptions, limit=2, time_limit=time_limit, keep=2)
        if found.count >= 2:
            status: UniquenessStatus = "multiple"
        elif not found.complete:
            status = "unknown"
        else:
            status = "unique" if found.count == 1 else "unsat"
        return Uniqueness(status, found.solutions, found.seconds, found.stats)

    # -- optional hooks: an engine offering one says so in its capabilities ---------------
    def unsat_core(self, assumptions: Sequence[int], time_limit: float | None = None) -> list[int] | None:
        """Assumptions that cannot all hold together (a subset of ``assumptions``, not
        necessarily minimal), or None when they can or time ran out.

        Only engines with :attr:`Capability.UNSAT_CORES`; others raise :class:`NotSupported`."""
        raise NotSupported(self.engine_name, Capability.UNSAT_CORES)

    def close(self) -> None:
        """Release what the engine holds (a native solver) now, not when collected."""
        return None  # most sessions hold only Python objects


class Engine(ABC):
    """A solving back end.  It knows Boolean models, never puzzles."""

    name: str = "?"
    description: str = ""

    @abstractmethod
    def prepare(self, model: Model) -> Session:
        """Build the engine's form of ``model`` once, for many questions."""

    @property
    def capabilities(self) -> frozenset[Capability]:
        """What it offers beyond the common questions: its registry entry's, by its name
        (the one statement of them, which :mod:`~mindgames.solver.registry` reads without
        importing the engine); none for an engine not registered."""
        from .registry import capabilities_of  # (the registry imports this module)

        return capabilities_of(self.name)

    def supports(self, capability: Capability) -> bool:
        return capability in self.capabilities

    def require(self, capability: Capability) -> None:
        """:class:`NotSupported` unless the engine offers ``capability``."""
        if not self.supports(capability):
            raise NotSupported(self.name, capability)
