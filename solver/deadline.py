"""One way to say "stop by then", used by every engine and search.

>>> Deadline(None).remaining() is None
True
>>> Deadline(60).passed()
False
>>> Deadline(60).within(0).passed()
True
"""

from __future__ import annotations

import time


class Deadline:
    """A point in time by which work must stop, or none (``time_limit=None``: no limit)."""

    def __init__(self, time_limit: float | None):
        self.time_limit = time_limit
        self.end = None if time_limit is None else time.perf_counter() + max(0.0, time_limit)

    def remaining(self) -> float | None:
        """Seconds left (never negative), or None without a limit."""
        if self.end is None:
            return None
        return max(0.0, self.end - time.perf_counter())

    def passed(self) -> bool:
        return self.end is not None and time.perf_counter() >= self.end

    def within(self, seconds: float | None) -> Deadline:
        """The earlier of this deadline and ``seconds`` from now (a budget for one step)."""
        if seconds is None:
            return self
        left = self.remaining()
        return Deadline(seconds if left is None else min(left, seconds))

    def __repr__(self) -> str:
        left = self.remaining()
        return "Deadline(no limit)" if left is None else f"Deadline({left:.3f} s left)"
