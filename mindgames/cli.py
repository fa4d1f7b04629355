"""The ``mindgames`` command: ``mindgames KIND ACTION ...``.

Each kind's subcommands live in :mod:`mindgames.commands`; this module only
wires them together, caps the process's memory (``--memory-limit``, on every
command) and turns every user error into a one-line message (never a
traceback).  Exit codes: 0 every input was read (an unsolvable puzzle is a
result), 2 unusable arguments or input, 3 the memory limit was reached,
130 Ctrl-C.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from typing import Sequence

from models.errors import PuzzleError

from . import __version__
from .commands import KINDS
from .io import UsageError, fail
from .limits import add_memory_limit_option, apply_memory_limit, memory_limit_message


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mindgames",
        description="Solve, check, count and generate logic puzzles with real constraint engines.",
    )
    parser.add_argument("--version", action="version", version=f"mindgames {__version__}")
    subparsers = parser.add_subparsers(dest="kind", metavar="KIND")
    subparsers.required = True
    for kind in KINDS:
        name = f"mindgames.commands.{kind}"
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name).register(subparsers)
    add_memory_limit_option(parser)
    return parser


def main(argv: Sequence[str] | None = None, cap_memory: bool = False) -> int:
    """Run one command; its exit code.

    ``cap_memory`` applies ``--memory-limit`` to this process: the console
    script does, a program that calls ``main`` in its own process (a test, a
    notebook) is left uncapped: the cap would hold for all else it runs."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if cap_memory:
            apply_memory_limit(getattr(args, "memory_limit", None))
        return int(args.func(args) or 0)
    except (UsageError, PuzzleError) as error:
        return fail(str(error))
    except MemoryError:
        return fail(memory_limit_message(getattr(args, "memory_limit", None)), code=3)
    except ModuleNotFoundError as error:  # a broken install, never a traceback
        return fail(f"mindgames is not completely installed: no module named {error.name!r} "
                    "(reinstall it: pip install --force-reinstall mindgames)")
    except KeyboardInterrupt:
        print("mindgames: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `mindgames ... | head`
        return 0


def entry() -> None:
    """The console script: ``main`` with a hard exit after Ctrl-C.

    After an interrupted search, native solver threads may still be winding
    down; skipping interpreter finalisation avoids a crash report on the way out."""
    code = main(cap_memory=True)
    if code == 130:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    entry()
