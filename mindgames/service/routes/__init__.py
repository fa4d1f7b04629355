"""The API's routes, one module per concern, each a router made for one server:

* :mod:`.health`: ``/healthz`` and ``GET /v1/kinds``;
* :mod:`.plans`: the built-in puzzles of every plan kind (``/v1/KIND/presets``, ``/v1/KIND/export``);
* :mod:`.puzzles`: answering at once (``/v1/{kind}/solve|check|count|compare|explain|hint``);
* :mod:`.generate`: making puzzles (``/v1/{kind}/generate``; many: a job);
* :mod:`.jobs`: long work (``/v1/jobs``);
* :mod:`.pages`: the web page and ``/docs``.

They share one :class:`Service`: the settings, and what the server's lifespan starts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from starlette.concurrency import run_in_threadpool

from ..inline import InlineAnswerer

T = TypeVar("T")


async def in_thread(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` in a worker thread: what blocks (the job store's SQLite, which may wait
    for another process's lock) never holds up the event loop, so /healthz and every other
    request keep answering."""
    return await run_in_threadpool(call, *args)


if TYPE_CHECKING:
    from ..jobs import JobRunner
    from ..pool import SolverPool
    from ..settings import Settings
    from ..store import JobStoreBase


@dataclass
class Service:
    """What every route may use: the settings, the answerer of small requests, and (once the
    server runs) the job store, the solver pool and the job runner."""

    settings: Settings
    inline: InlineAnswerer = field(default_factory=InlineAnswerer)
    store: JobStoreBase = None  # type: ignore[assignment]
    pool: SolverPool = None  # type: ignore[assignment]
    runner: JobRunner = None  # type: ignore[assignment]

    def started(self, **parts: Any) -> None:
        for name, part in parts.items():
            setattr(self, name, part)
