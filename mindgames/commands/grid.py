"""``mindgames KIND solve|check|count FILE|-`` for every grid kind of :mod:`mindgames.models.registry`
(and ``generate``: :mod:`mindgames.commands.grid_generate`).

Nothing here names a kind: the subcommands, the kind's own options
(:class:`mindgames.models.kind.Option`: ``--box``, ``--rules``, ...), reading, the text
output and the JSON all come from the kind object, so a new grid kind gets
these commands from its object and one registry line.  What one kind does
beyond them (Sudoku's ``generate --grade``; binairo's ``minimize`` and
``count --size``) lives in an *extension*: the module ``mindgames.commands.KIND``,
when it exists, whose ``extend(actions, parsers, kind, started)`` adds
subcommands and options (whose ``FILE_OPTIONAL`` names the shared actions that
may go without FILE, and ``HELP`` their help texts where they do more).

The actions registered here are the kind's (:attr:`GridKind.actions`) that a solver
answers puzzle by puzzle; what each is (its help, ``--certify``) is
:data:`mindgames.models.actions.ACTIONS`'s.  Answering a puzzle and writing the answer
is :mod:`.answering`'s, shared with the ``--jobs`` workers (:mod:`.grid_jobs`).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import itertools
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from mindgames.models.actions import ACTIONS, select
from mindgames.models.kind import GridKind
from mindgames.models.registry import get_kind
from mindgames.models.runner import DEFAULT_COUNT_LIMIT, PuzzleSolver, count_limit
from mindgames.solver import engine_info, engine_names

from ..io import (
    MAX_INPUT_BYTES,
    InputLines,
    UsageError,
    fail,
    json_line,
    progress,
    seconds_left,
    stdout_is_terminal,
)
from ..options import add_kind_options, nonnegative_int, positive_float, positive_int
from ..render import plural
from . import explain, grid_generate, ray_batch, writing
from .answering import answer, print_result, stated_options
from .grid_jobs import AUTO_JOBS_FROM, WorkerDied, answer_in_workers, job_count, worker_pool


def extension(kind_name: str) -> ModuleType | None:
    """The kind's extension module (``mindgames.commands.KIND``), if it has one."""
    name = f"{__package__}.{kind_name}"
    return importlib.import_module(name) if importlib.util.find_spec(name) is not None else None


def register(subparsers: argparse._SubParsersAction, kind: GridKind) -> None:
    """``mindgames KIND ...``: the shared actions, then whatever the kind's extension adds."""
    # The command line is built at the start of each run, before the engines
    # load: time limits count from here (``args.started``), so that a one-puzzle
    # run holds its limit as a whole process.
    started = time.perf_counter()
    parser = subparsers.add_parser(kind.name, help=kind.summary, description=kind.summary)
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    more = extension(kind.name)
    file_optional = getattr(more, "FILE_OPTIONAL", ())
    parsers: dict[str, argparse.ArgumentParser] = {}
    for action in select(kind.actions, per_puzzle=True, explains=False):
        help_text = ACTIONS[action].help
        sub = actions.add_parser(action, help=getattr(more, "HELP", {}).get(action, help_text))
        sub.add_argument(
            "file",
            metavar="FILE",
            nargs="?" if action in file_optional else None,
            help="puzzle file, or - for standard input",
        )
        sub.add_argument("--engine", choices=engine_names(), default="sat", help="default: sat")
        sub.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
        sub.add_argument("--time-limit", type=positive_float, metavar="S", help="seconds per puzzle")
        sub.add_argument(
            "--jobs",
            type=positive_int,
            metavar="N",
            help="worker processes for a collection, output in input order "
            f"(default: all cores from {AUTO_JOBS_FROM} puzzles up, else 1)",
        )
        ray_batch.add_option(sub)  # --ray ADDRESS: the chunks as Ray tasks
        add_kind_options(sub, kind.options)
        writing.add_options(sub, kind)
        if action == "count":
            sub.add_argument(
                "--limit",
                type=nonnegative_int,
                default=DEFAULT_COUNT_LIMIT,
                metavar="N",
                help=f"stop counting at N solutions (default {DEFAULT_COUNT_LIMIT:,}; 0: no limit)",
            )
        if ACTIONS[action].certifiable:
            sub.add_argument(
                "--certify",
                action="store_true",
                help="prove 'unique' / 'unsolvable' with a DRAT proof that our own checker verifies",
            )
            sub.add_argument(
                "--proof-dir",
                metavar="DIR",
                help="keep each proof there (puzzle-N.cnf, puzzle-N.drat); implies --certify",
            )
            sub.add_argument(
                "--proof-format",
                choices=("drat", "lrat"),
                help="drat (default) or lrat: the checked DRAT proof turned into LRAT (puzzle-N.lrat), "
                "which our LRAT checker checks, and formally verified checkers such as cake_lpr can; "
                "implies --certify",
            )
        sub.set_defaults(func=run, action=action, started=started)
        parsers[action] = sub
    grid_generate.register(actions, parsers, kind, started)  # generate, for every grid kind
    if more is not None:
        more.extend(actions, parsers, kind, started)
    explain.register(actions, kind, started)  # explain / hint (models.explain)


#: units read before the first answer: enough to tell one puzzle from several, and a
#: small collection (one process by default) from a large one
READ_AHEAD = AUTO_JOBS_FROM
#: seconds an answer written may wait in the output buffer (one write per answer is slow)
FLUSH_EVERY = 0.1


@dataclass
class Collection:
    """The puzzles of FILE as units (:meth:`GridKind.units`), read as they are answered:
    the first :data:`READ_AHEAD` are read ahead, the rest as they come, so a long input
    is never held whole."""

    ahead: list[Any]
    rest: Iterator[Any]
    source: InputLines
    #: how many puzzles there are, when all were read ahead (None: more to come)
    count: int | None
    #: several puzzles (the answers are numbered)
    numbered: bool

    def units(self) -> Iterator[Any]:
        yield from self.ahead
        self.ahead = []  # answered: not held
        yield from self.rest

    def which(self, index: int) -> str:
        """``puzzle 3 of 10``, or ``puzzle 3`` while the end is not known."""
        return f"puzzle {index + 1} of {self.count}" if self.count is not None else f"puzzle {index + 1}"


def read_collection(kind: GridKind, args: argparse.Namespace) -> Collection:
    """FILE opened and its first puzzles read; one unusable puzzle alone is an error (exit 2),
    in a collection a result."""
    # A kind that cuts its input as it comes has no limit on its length; another one holds
    # it whole, so its length is limited as when it is read whole.
    streams = type(kind).units is not GridKind.units
    source = InputLines(args.file, max_bytes=None if streams else MAX_INPUT_BYTES)
    units = kind.units(source, **stated_options(kind, args))
    ahead = list(itertools.islice(units, READ_AHEAD))
    if not ahead:
        raise UsageError(f"{args.file}: no puzzle in it (only comments and blank lines)")
    if len(ahead) == 1:
        item = kind.parse_unit(ahead[0])
        if not item.ok:
            raise item.error
    return Collection(ahead, units, source, len(ahead) if len(ahead) < READ_AHEAD else None, len(ahead) > 1)


@contextlib.contextmanager
def collection_progress(collection: Collection, description: str, total: int | None = None) -> Iterator[Any]:
    """The bar of a collection: in puzzles (or ``total`` things) when all were read ahead,
    else in bytes of the input (of its size, when it is a file)."""
    if total is not None or collection.count is not None:
        with progress(total if total is not None else collection.count, description) as bar:
            yield bar
    else:
        with progress(collection.source.size, description, in_bytes=True) as bar:
            yield bar


def run(args: argparse.Namespace) -> int:
    kind = get_kind(args.kind)
    # --time-limit is per puzzle; the first puzzle's budget also pays for
    # starting up, reading the file and loading the engine.
    turn_started = args.started
    if args.action == "count":
        args.limit = count_limit(args.limit)  # 0: no limit
    default_limit = engine_info(args.engine).default_time_limit
    if args.time_limit is None and default_limit is not None:
        args.time_limit = default_limit
        print(
            f"mindgames: no --time-limit given: with the {args.engine} engine each puzzle stops at "
            f"{default_limit:g} s (status unknown); --time-limit S sets another",
            file=sys.stderr,
        )
    color = stdout_is_terminal() and not args.json
    requested = getattr(args, "jobs", None)
    if args.ray is not None:
        if requested is not None:
            raise UsageError("--ray and --jobs exclude each other (Ray decides where chunks run)")
        collection = read_collection(kind, args)
        if collection.numbered:  # one puzzle: answered here, as --jobs answers it
            return ray_batch.run_on_ray(collection, args, color, f"{kind.name} {args.action}")
        return run_in_process(kind, collection, args, color, turn_started)
    with contextlib.ExitStack() as stack:
        # Workers asked for start before the input is read: they load while it is parsed.
        early = stack.enter_context(worker_pool(args, color, requested)) if (requested or 1) > 1 else []
        collection = read_collection(kind, args)
        jobs = job_count(requested, len(collection.ahead))
        if jobs > 1:
            workers = early[:jobs] or stack.enter_context(worker_pool(args, color, jobs))
            return run_in_workers(collection, workers, f"{kind.name} {args.action}")
    return run_in_process(kind, collection, args, color, turn_started)


def run_in_process(
    kind: GridKind, collection: Collection, args: argparse.Namespace, color: bool, turn_started: float
) -> int:
    """The puzzles answered one after the other by one solver in this process."""
    solver = PuzzleSolver(kind, args.engine)
    numbered = collection.numbered
    # One puzzle counted: progress in solutions (up to --limit); else in puzzles.
    by_solution = args.action == "count" and not numbered
    what = f"{kind.name} {args.action}"
    out = sys.stdout
    flushed = time.perf_counter()
    with collection_progress(
        collection, f"{what}: solutions" if by_solution else what, args.limit if by_solution else None
    ) as bar:
        found = None
        for index, unit in enumerate(collection.units()):
            item = kind.parse_unit(unit)
            if bar.visible and numbered:
                bar.update(description=f"{what}: {collection.which(index)}")

                def found(count: int, index: int = index) -> None:
                    bar.update(
                        description=f"{what}: {collection.which(index)}, {plural(count, 'solution')} so far"
                    )

            result = answer(
                solver,
                kind,
                item,
                args,
                index,
                seconds_left(args.time_limit, turn_started),
                found,
                bar.advance if by_solution else None,
            )
            turn_started = time.perf_counter()
            if args.json:
                out.write(json_line(result.to_json()))
            else:
                print_result(kind, result, item.puzzle, args.action, color, numbered, args)
            if bar.visible and not by_solution:
                bar.advance() if collection.count is not None else bar.update(
                    completed=collection.source.bytes_read
                )
            if turn_started - flushed >= FLUSH_EVERY:  # the answers stream, a few writes a second
                out.flush()
                flushed = turn_started
    out.flush()
    return 0


def run_in_workers(collection: Collection, workers: list[Any], what: str) -> int:
    """The collection answered by worker processes, written as one process writes it."""

    def write(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    described = f"{what} ({plural(len(workers), 'process', 'processes')})"
    with collection_progress(collection, described) as bar:

        def written(puzzles: int) -> None:
            if collection.count is not None:
                bar.advance(puzzles)
            elif bar.visible:
                bar.update(completed=collection.source.bytes_read)

        try:
            answer_in_workers(collection.units(), collection.count, workers, write, written)
        except WorkerDied as error:
            return fail(str(error), code=1)
    return 0
