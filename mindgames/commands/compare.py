"""``mindgames compare KIND FILE|PUZZLE``: the same puzzles on several engines, side by side.

For a grid kind (every kind of the registry) each puzzle of FILE is asked the
same question by each engine (``--engines``, ``--action``), each under
``--time-limit`` seconds; a plan kind's puzzle is answered by each of the kind's
methods (crossing: the time-expanded SAT model, a networkx BFS and the seeds'
depth-first search).
Output: a table (per puzzle and engine, a summary per engine, an agreement
line), or ``--json`` / ``--csv`` rows; ``--plot FILE`` (.svg/.png) also draws
them.  Engines that disagree are a bug: the table, then a one-line error
naming the puzzle, exit code 1.  Ctrl-C prints the table of what finished
(exit code 130).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable

from mindgames.models import compare, registry
from mindgames.models.compare import Row
from mindgames.models.kind import GridKind, PlanKind
from mindgames.models.registry import get_kind

from .. import plots, tables
from ..io import UsageError, emit_json, fail, progress
from ..options import add_kind_options, nonnegative_int, positive_float
from .answering import read_puzzles

DEFAULT_TIME_LIMIT = 10.0  # seconds per puzzle and engine: plain backtracking can take hours


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="the same puzzles on several engines: time, work, agreement",
        description="Run puzzles on several engines (or, for crossings, methods) and compare "
        "their answers, time and search statistics.",
    )
    kinds = parser.add_subparsers(dest="compare_kind", metavar="KIND")
    kinds.required = True
    engines = compare.default_engines()  # (read when asked: a test may register an engine)
    for name in registry.KIND_NAMES:  # (read when asked: a test may register a kind)
        kind = get_kind(name)
        if isinstance(kind, PlanKind) and "compare" in kind.actions:
            add_plan_kind(kinds, kind)
        if not isinstance(kind, GridKind):
            continue
        sub = kinds.add_parser(name, help=f"compare engines on {name} puzzles")
        sub.add_argument("file", metavar="FILE", help="puzzle file, or - for standard input")
        sub.add_argument(
            "--engines",
            type=engine_list(engines),
            default=list(engines),
            metavar="E,E",
            help=f"default: {','.join(engines)}",
        )
        sub.add_argument(
            "--action", choices=compare.COMPARABLE_ACTIONS, default="check", help="default: check"
        )
        sub.add_argument(
            "--limit",
            type=nonnegative_int,
            default=10_000,
            metavar="N",
            help="count: stop at N solutions (default 10,000; 0: no limit)",
        )
        add_kind_options(sub, kind.options)
        _common(sub)
        sub.set_defaults(func=run_grid)


def add_plan_kind(kinds: argparse._SubParsersAction, kind: PlanKind) -> None:
    """``mindgames compare KIND PUZZLE`` for a plan kind: its puzzle by each of its methods."""
    sub = kinds.add_parser(kind.name, help=kind.compare_help)
    sub.add_argument("puzzle", metavar="PUZZLE", help="a built-in name, a .toml/.json file, or -")
    sub.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="set a parameter (repeatable)"
    )
    sub.add_argument(
        "--engines",
        type=engine_list(kind.compare_methods),
        default=list(kind.compare_methods),
        metavar="M,M",
        help=f"methods (default: {','.join(kind.compare_methods)})",
    )
    _common(sub)
    sub.set_defaults(func=run_plan)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--time-limit",
        type=positive_float,
        default=DEFAULT_TIME_LIMIT,
        metavar="S",
        help=f"seconds per puzzle and engine (default {DEFAULT_TIME_LIMIT:g})",
    )
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument(
        "--json", action="store_true", help='one object per puzzle and engine, then one with "summary": true'
    )
    shown.add_argument("--csv", action="store_true", help=f"columns: {','.join(tables.CSV_COLUMNS)}")
    parser.add_argument(
        "--plot",
        metavar="FILE",
        help="also draw the comparison: .svg or .png (cactus plot, or bars for one puzzle)",
    )


def engine_list(known: Iterable[str]) -> Callable[[str], list[str]]:
    known = tuple(known)

    def engines(text: str) -> list[str]:
        names = [name.strip() for name in text.split(",") if name.strip()]
        unknown = [name for name in names if name not in known]
        if unknown or not names:
            raise argparse.ArgumentTypeError(
                f"{text!r}: unknown {', '.join(unknown) or 'empty list'}; known: {','.join(known)}"
            )
        return list(dict.fromkeys(names))

    engines.__name__ = "engines"
    return engines


def _check_plot(args: argparse.Namespace) -> None:
    if args.plot and not args.plot.lower().endswith(plots.PLOT_FORMATS):
        raise UsageError(f"--plot {args.plot}: the file must end in .svg or .png")


def run_grid(args: argparse.Namespace) -> int:
    _check_plot(args)
    kind = get_kind(args.compare_kind)
    items = read_puzzles(kind, args)
    engines = args.engines
    total = len(items) * len(engines)
    with progress(total, f"compare {kind.name}") as bar:

        def step(index: int, engine: str) -> None:
            bar.update(description=f"compare {kind.name}: puzzle {index + 1} of {len(items)}, {engine}")

        rows = compare.grid_rows(
            kind, items, engines, args.action, args.time_limit, args.limit or None, on_step=step
        )
        return report(_advancing(rows, bar), engines, args, kind.name)


def run_plan(args: argparse.Namespace) -> int:
    _check_plot(args)
    from .plan import load_document

    kind = get_kind(args.compare_kind)
    assert isinstance(kind, PlanKind)  # add_plan_kind made this command for plan kinds only
    puzzle = kind.parse_document(load_document(kind, args.puzzle, args.set))
    with progress(len(args.engines), f"compare {kind.name}") as bar:

        def step(_index: int, method: str) -> None:
            bar.update(description=f"compare {kind.name}: {method}")

        rows = kind.compare_rows(puzzle, args.engines, args.time_limit, on_step=step)
        return report(_advancing(rows, bar), args.engines, args, kind.describe(puzzle))


def _advancing(rows: Iterable[Row], bar) -> Iterable[Row]:
    for row in rows:
        bar.advance()
        yield row


def report(rows: Iterable[Row], engines: list[str], args: argparse.Namespace, title: str) -> int:
    """Collect the rows (Ctrl-C keeps those finished), then write the table, JSON or CSV, and
    the plot; exit 1 when the engines disagree, 130 after Ctrl-C."""
    finished: list[Row] = []
    interrupted = False
    try:
        for row in rows:
            finished.append(row)
    except KeyboardInterrupt:
        interrupted = True
    if args.json:
        for record in compare.json_records(finished, engines, interrupted):
            emit_json(record)
    elif args.csv:
        sys.stdout.write(tables.csv_text(finished))
    else:
        print(tables.table(finished, engines, interrupted))
    sys.stdout.flush()
    if args.plot and finished:
        try:
            plots.plot(finished, engines, args.plot, title)
        except OSError as error:
            raise UsageError(f"{args.plot}: cannot write ({error.strerror or error})") from None
    if interrupted:
        print("mindgames: interrupted", file=sys.stderr)
        return 130
    found = compare.disagreements(finished)
    if found:
        return fail("; ".join(found) + " -- a bug in one of the engines", code=1)
    return 0
