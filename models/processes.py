"""Worker processes that never outlive the process that started them.

A command killed by SIGKILL (a timeout, the OOM killer, a CI runner) gets no chance to
stop its workers; left alone they would run on with parent 1 for as long as their work
takes (two counting workers of a 12x12 estimate ran 16 minutes).  Each worker therefore
asks, as it starts, to end when its parent does: on Linux the kernel sends it SIGKILL
(``prctl(PR_SET_PDEATHSIG)``); elsewhere, and as a second line, a thread watches the
parent's pid and exits the process when it changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def exit_with_parent(parent: int | None = None, poll_seconds: float = 0.25) -> None:
    """End this process when ``parent`` (default: the current parent) is gone.

    Call it first thing in a worker.  If the parent is already gone, exits at once
    (status 3); the kernel's signal covers a worker busy in compiled code that never
    lets the watching thread run."""
    parent = os.getppid() if parent is None else parent
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl: the thread below still watches
    if os.getppid() != parent:  # gone before we asked
        os._exit(3)
    threading.Thread(target=_watch, args=(parent, poll_seconds), daemon=True, name="exit-with-parent").start()


def _watch(parent: int, poll_seconds: float) -> None:
    while True:
        time.sleep(poll_seconds)
        if os.getppid() != parent:
            os._exit(3)


__all__ = ["exit_with_parent"]
