"""The memory cap every command runs under (``--memory-limit MB``).

A runaway search must end as a clear error, not as the kernel's out-of-memory
kill of the whole machine: the process's address space is capped with
``RLIMIT_AS``, so an allocation past the cap raises :class:`MemoryError`,
which the command line reports in one line (exit code 3).  Worker processes
inherit the cap.  ``mindgames serve`` has no such option: the server caps each
solver and job process itself (``--worker-memory-mb``, ``--job-memory-mb``).
"""

from __future__ import annotations

import argparse
import os

MIB = 2**20
#: Never more than this by default, whatever the machine has.
DEFAULT_CAP_MB = 8192
#: Below this the interpreter and the engines cannot even start.
MIN_MEMORY_MB = 256


def physical_memory_mb() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // MIB
    except (ValueError, OSError, AttributeError):
        return None


def default_memory_limit_mb() -> int:
    """min(8192 MB, 80 % of the physical memory)."""
    physical = physical_memory_mb()
    return DEFAULT_CAP_MB if physical is None else max(MIN_MEMORY_MB, min(DEFAULT_CAP_MB, physical * 4 // 5))


def memory_mb(text: str) -> int:
    """A ``--memory-limit`` value: megabytes, at least 256, or 0 for no limit."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of megabytes") from None
    if value != 0 and value < MIN_MEMORY_MB:
        raise argparse.ArgumentTypeError(f"{text!r}: at least {MIN_MEMORY_MB} MB (or 0 for no limit)")
    return value


#: Commands that manage the memory of their processes themselves.
OWN_LIMITS = ("serve",)


def add_memory_limit_option(parser: argparse.ArgumentParser) -> None:
    """Give every leaf command (``mindgames KIND ACTION``) the ``--memory-limit`` option."""
    subcommands = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if parser.prog.split()[-1] in OWN_LIMITS:
        return
    if not subcommands:
        parser.add_argument(
            "--memory-limit",
            type=memory_mb,
            default=default_memory_limit_mb(),
            metavar="MB",
            help="cap on this process's memory; reaching it is a clear error, exit 3 "
            f"(default {default_memory_limit_mb()}: min(8192, 80%% of RAM); 0: no cap)",
        )
        return
    for action in subcommands:
        for child in dict.fromkeys(action.choices.values()):
            add_memory_limit_option(child)


def apply_memory_limit(megabytes: int | None) -> None:
    """Cap this process's address space (0 or None: leave it as it is); never raises the hard limit."""
    if not megabytes:
        return
    try:
        import resource  # imported here: only the commands that cap themselves need it
    except ImportError:  # pragma: no cover - not on Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    wanted = megabytes * MIB
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft == resource.RLIM_INFINITY or wanted < soft:
        resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))


def memory_limit_message(megabytes: int | None) -> str:
    if megabytes:
        return (
            f"out of memory: the memory limit of {megabytes} MB was reached "
            "(--memory-limit MB raises it; the puzzle may be too large for this machine)"
        )
    return "out of memory (the machine has no more to give)"
