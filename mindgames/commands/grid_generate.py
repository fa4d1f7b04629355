"""``mindgames KIND generate`` for every grid kind: the one loop of :mod:`mindgames.models.generate`,
its flags from the kind's ``generate_options`` (Sudoku ``--box --diagonals --regions``, binairo
``--size --rules``), with ``--seed``, ``--count``, ``--engine``, ``--json``, ``--time-limit`` (for
the whole run: the puzzles finished by then are written), a progress bar on a terminal and Ctrl-C
(the puzzles written stay written).

Nothing here names a kind.  A kind whose command line wrote its puzzles its own way before this
command was shared (Sudoku, binairo) keeps that output through its extension: ``extend()`` finds
this command in ``parsers["generate"]``, may add flags to it (Sudoku's ``--grade``) and sets its
own :class:`GenerateOutput` as the parser's default ``output``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mindgames.models.generate import Generated, Make, generate_puzzles, new_seed
from mindgames.models.kind import GridKind
from mindgames.models.registry import get_kind
from mindgames.solver import engine_names
from mindgames.solver.deadline import Deadline

from ..io import UsageError, emit_json, progress, seconds_left, stdout_is_terminal
from ..options import add_kind_options, positive_float, positive_int
from ..render import plural
from . import generate_run, writing


class GenerateOutput:
    """How ``KIND generate`` makes and writes its puzzles: the default of every grid kind.

    JSON: :meth:`Generated.to_json` (what the service answers too).  Text: each puzzle's
    line and drawing, as ``check`` shows a puzzle."""

    #: every puzzle from one random stream seeded once (else puzzle i from seed + i)
    one_stream = False

    def empty(self, kind: GridKind, options: dict[str, Any]) -> Any:
        """The blank puzzle of the variant the options ask for (PuzzleError if none)."""
        return kind.empty(**options)

    def title(self, kind: GridKind, empty: Any, args: argparse.Namespace) -> str:
        """What the progress bar says the run is (each stage is said after it)."""
        return f"{kind.name} generate"

    def make(self, args: argparse.Namespace) -> Make | None:
        """How one puzzle is made (None: :meth:`Generator.generate`, the shared loop)."""
        return None

    def json(self, kind: GridKind, item: Generated, args: argparse.Namespace) -> dict[str, Any]:
        return item.to_json(kind)

    def text(self, kind: GridKind, item: Generated, args: argparse.Namespace) -> None:
        givens = len(kind.given_cells(item.puzzle))
        print(
            f"puzzle {item.index + 1}: {kind.describe(item.puzzle)}: {plural(givens, 'given')}, "
            f"unique, minimal, seed {item.seed}, {item.seconds:.3f} s"
        )
        print("\n".join(kind.draw(item.puzzle, None, stdout_is_terminal())))
        print()

    def stopped(self, made: int, args: argparse.Namespace) -> str:
        """The line on stderr when the time limit ends the run before ``--count`` puzzles."""
        return (
            f"mindgames: time limit of {args.time_limit:g} s reached: "
            f"{plural(made, 'puzzle')} of {args.count} generated"
        )


def register(
    actions: argparse._SubParsersAction,
    parsers: dict[str, argparse.ArgumentParser],
    kind: GridKind,
    started: float,
) -> None:
    """``mindgames KIND generate``, put into ``parsers`` for the kind's extension to extend."""

    sub = actions.add_parser("generate", help="puzzles with exactly one solution and no removable given")
    add_kind_options(sub, kind.generate_options)
    sub.add_argument("--seed", type=int, default=None, help="make the output reproducible")
    sub.add_argument("--count", type=positive_int, default=1, metavar="K", help="how many puzzles")
    sub.add_argument("--engine", choices=engine_names(), default="sat", help="default: sat")
    sub.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    sub.add_argument(
        "--time-limit",
        type=positive_float,
        metavar="S",
        help="seconds for the whole run; the puzzles finished by then are written",
    )
    writing.add_options(sub, kind)
    generate_run.add_options(sub)  # --out DIR: a resumable generation run (generate_run.py)
    sub.set_defaults(func=run, action="generate", started=started, output=GenerateOutput())
    parsers["generate"] = sub


def run(args: argparse.Namespace) -> int:
    kind: GridKind = get_kind(args.kind)
    output: GenerateOutput = args.output
    deadline = Deadline(seconds_left(args.time_limit, args.started))  # the whole run
    options = {
        option.name: getattr(args, option.name)
        for option in kind.generate_options
        if getattr(args, option.name) is not None
    }
    empty = output.empty(kind, options)
    if args.out is not None or args.ray is not None:
        return generate_run.run(args, kind, empty, options, output.make(args))
    if args.jobs > 1:
        raise UsageError("--jobs: a generation run's option (with --out DIR)")
    seed = args.seed if args.seed is not None else new_seed()
    made = 0
    title = output.title(kind, empty, args)
    with progress(None, title) as bar:

        def show(index: int, stage: str, done: int, total: int | None) -> None:
            of = f"puzzle {index + 1} of {args.count}: " if args.count > 1 else ""
            bar.update(description=f"{title}: {of}{stage}", completed=done, total=total)

        puzzles = generate_puzzles(
            kind, empty, args.count, seed, args.engine, deadline, show, output.one_stream, output.make(args)
        )
        try:
            for item in puzzles:
                if args.json:
                    record = output.json(kind, item, args)
                    record.update(writing.json_fields(kind, args, item.puzzle))
                    emit_json(record)
                elif writing.asked(args):
                    head = f"puzzle {item.index + 1}: " if args.count > 1 else ""
                    writing.print_written(kind, args, item.puzzle, None, f"unique, seed {item.seed}", head)
                    sys.stdout.flush()
                else:
                    output.text(kind, item, args)
                    sys.stdout.flush()
                made += 1
        except KeyboardInterrupt:
            sys.stdout.flush()
            print(
                f"mindgames: interrupted: {plural(made, 'puzzle')} of {args.count} generated", file=sys.stderr
            )
            return 130
    if made < args.count:
        print(output.stopped(made, args), file=sys.stderr)
    return 0
