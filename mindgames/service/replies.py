"""What a solver process answers to a task, and what the pool says instead of an answer.

Small records sent over the pipe (pickled), read by name; they live in a module of
their own because a worker runs :mod:`mindgames.service.pool` as ``__main__``, and
pickles must name a module both processes import alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

#: (index, record) pairs in the order the worker answered them
Records = list[tuple[int, dict]]


@dataclass(frozen=True)
class Ready:
    """A worker has started and takes tasks."""


@dataclass(frozen=True)
class Done:
    """Every puzzle of the task answered."""

    records: Records


@dataclass(frozen=True)
class Refused:
    """The task cannot be answered at all: an HTTP error naming the problem (and the limit)."""

    status: int
    message: str
    limit: str | None = None


@dataclass(frozen=True)
class Crashed:
    """The worker failed (a library bug) after answering ``records``."""

    records: Records
    why: str


@dataclass(frozen=True)
class TimedOut:
    """The worker overran the task's time and was stopped."""

    records: Records = field(default_factory=list)


@dataclass(frozen=True)
class Busy:
    """No worker became free in time."""


@dataclass(frozen=True)
class Broken:
    """No worker can start."""

    why: str


@dataclass(frozen=True)
class Died:
    """The worker's process ended before it answered (the pool tries another)."""


Reply = Union[Done, Refused, Crashed, TimedOut, Busy, Broken, Died]


def answered(reply: Reply) -> list[dict]:
    """The records a reply carries, one per puzzle index (the last one sent for an index)."""
    return list(dict(getattr(reply, "records", [])).values())


__all__ = ["Broken", "Busy", "Crashed", "Died", "Done", "Ready", "Refused", "Reply", "TimedOut", "answered"]
