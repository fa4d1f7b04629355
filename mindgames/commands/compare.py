"""``mindgames compare KIND FILE|PUZZLE``: the same puzzles on several engines, side by side.

For a grid kind (every kind of the registry) each puzzle of FILE is asked the
same question by each engine (``--engines``, ``--action``), each under
``--time-limit`` seconds; for crossing puzzles the methods are the
time-expanded SAT model, a networkx BFS and the seeds' depth-first search.
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

from mindgames.models import compare
from mindgames.models.compare import Row
from mindgames.models.kind import GridKind
from mindgames.models.registry import KIND_NAMES, get_kind

from ..io import UsageError, emit_json, fail, progress
from ..options import nonnegative_int, positive_float
from .grid import add_kind_options, read_puzzles

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
    engines, methods = compare.default_engines(), compare.crossing_methods()
    for name in KIND_NAMES:
        kind = get_kind(name)
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
        sub.add_argument("--action", choices=compare.ACTIONS, default="check", help="default: check")
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
    crossing = kinds.add_parser("crossing", help="compare the SAT model, BFS and the seeds' DFS")
    crossing.add_argument("puzzle", metavar="PUZZLE", help="a built-in name, a .toml/.json file, or -")
    crossing.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="set a parameter (repeatable)"
    )
    crossing.add_argument(
        "--engines",
        type=engine_list(methods),
        default=list(methods),
        metavar="M,M",
        help=f"methods (default: {','.join(methods)})",
    )
    _common(crossing)
    crossing.set_defaults(func=run_crossing)


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
    shown.add_argument("--csv", action="store_true", help=f"columns: {','.join(compare.CSV_COLUMNS)}")
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
    if args.plot and not args.plot.lower().endswith(compare.PLOT_FORMATS):
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


def run_crossing(args: argparse.Namespace) -> int:
    _check_plot(args)
    from mindgames.models.crossing import parse_document

    from .crossing import load_document

    spec = parse_document(load_document(args.puzzle, args.set))
    with progress(len(args.engines), "compare crossing") as bar:

        def step(_index: int, method: str) -> None:
            bar.update(description=f"compare crossing: {method}")

        rows = compare.crossing_rows(spec, args.engines, args.time_limit, on_step=step)
        return report(_advancing(rows, bar), args.engines, args, spec.name)


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
        sys.stdout.write(compare.csv_text(finished))
    else:
        print(compare.table(finished, engines, interrupted))
    sys.stdout.flush()
    if args.plot and finished:
        try:
            compare.plot(finished, engines, args.plot, title)
        except OSError as error:
            raise UsageError(f"{args.plot}: cannot write ({error.strerror or error})") from None
    if interrupted:
        print("mindgames: interrupted", file=sys.stderr)
        return 130
    found = compare.disagreements(finished)
    if found:
        return fail("; ".join(found) + " -- a bug in one of the engines", code=1)
    return 0
