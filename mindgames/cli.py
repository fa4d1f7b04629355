"""The ``mindgames`` command: ``mindgames KIND ACTION ...``.

The kinds of :mod:`mindgames.models.registry` get their subcommands from their kind
objects: grid kinds from :mod:`mindgames.commands.grid`, plan kinds from
:mod:`mindgames.commands.plan`; the other commands (serve, certify, compare, ...)
are modules of :mod:`mindgames.commands`.  This module only wires them
together (building fully just the command asked for, so that ``mindgames
sudoku ...`` does not import the plan kinds, networkx or the service), caps the process's memory (``--memory-limit``, on every
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
from collections.abc import Sequence

from mindgames.models import registry
from mindgames.models.errors import CrossCheckFailed, PuzzleError, VerificationError
from mindgames.models.kind import GridKind, PlanKind

from . import __version__
from .commands import COMMANDS
from .io import UsageError, fail
from .limits import add_memory_limit_option, apply_memory_limit, memory_limit_message


def command_names() -> tuple[str, ...]:
    """Every ``mindgames NAME``: the kinds of the registry, then the other commands."""
    return tuple(dict.fromkeys((*registry.KIND_NAMES, *COMMANDS)))


def register(subparsers: argparse._SubParsersAction, name: str) -> None:
    """``mindgames NAME ...`` with all its subcommands and options."""
    module = f"mindgames.commands.{name}"
    if name in registry.KIND_NAMES:
        kind = registry.get_kind(name)
        if isinstance(kind, GridKind):
            from .commands import grid

            grid.register(subparsers, kind)
            return
        if isinstance(kind, PlanKind):
            from .commands import plan

            plan.register(subparsers, kind)
            return
    if importlib.util.find_spec(module) is not None:
        importlib.import_module(module).register(subparsers)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line; given ``argv`` naming a command, only that command is built in
    full (the others are names only: importing every kind and command takes ~0.5 s)."""
    parser = argparse.ArgumentParser(
        prog="mindgames",
        description="Solve, check, count and generate logic puzzles with real constraint engines.",
        epilog="`mindgames KIND --help` lists a kind's actions, `mindgames KIND ACTION --help` their "
        "options. Documentation: README.md and docs/ (the site: mkdocs serve).",
    )
    parser.add_argument("--version", action="version", version=f"mindgames {__version__}")
    subparsers = parser.add_subparsers(dest="kind", metavar="KIND")
    subparsers.required = True
    names = command_names()
    asked = next((arg for arg in argv or () if arg in names), None)
    for name in names:
        if asked is None or name == asked:
            register(subparsers, name)
        else:
            subparsers.add_parser(name)
    add_memory_limit_option(parser)
    return parser


def main(argv: Sequence[str] | None = None, cap_memory: bool = False) -> int:
    """Run one command; its exit code.

    ``cap_memory`` applies ``--memory-limit`` to this process: the console
    script does, a program that calls ``main`` in its own process (a test, a
    notebook) is left uncapped: the cap would hold for all else it runs."""
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    try:
        # Not with --ray: Ray maps its shared object store into this process (the cap made
        # it abort), and the work runs in Ray's own worker processes, watched by Ray.
        if cap_memory and not getattr(args, "ray", None):
            apply_memory_limit(getattr(args, "memory_limit", None))
        return int(args.func(args) or 0)
    except (UsageError, PuzzleError) as error:
        return fail(str(error))
    except MemoryError:
        return fail(memory_limit_message(getattr(args, "memory_limit", None)), code=3)
    except ModuleNotFoundError as error:  # a broken install, never a traceback
        return fail(
            f"mindgames is not completely installed: no module named {error.name!r} "
            "(reinstall it: pip install --force-reinstall mindgames)"
        )
    except KeyboardInterrupt:
        print("mindgames: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `mindgames ... | head`
        return 0
    except (VerificationError, CrossCheckFailed) as error:  # an answer that failed its check: a bug
        return fail(f"bug: {error} (please report it)", code=1)
    except Exception as error:
        if not is_certification_error(error):
            raise
        return fail(f"certification failed: {error}", code=1)  # never a silent answer


def is_certification_error(error: Exception) -> bool:
    """A proof that did not check (--certify): imported only when something went wrong."""
    from mindgames.solver.proof import CertificationError

    return isinstance(error, CertificationError)


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
