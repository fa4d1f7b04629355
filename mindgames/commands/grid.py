"""``mindgames KIND solve|check|count FILE|-`` for every grid kind of :mod:`mindgames.models.registry`.

Nothing here names a kind: the subcommands, the kind's own options
(:class:`mindgames.models.kind.Option`: ``--box``, ``--rules``, ...), reading, the text
output and the JSON all come from the kind object, so a new grid kind gets
these commands from its object and one registry line.  What one kind does
beyond them (Sudoku's ``generate``; binairo's ``generate``, ``minimize`` and
``count --size``) lives in an *extension*: the module ``mindgames.commands.KIND``,
when it exists, whose ``extend(actions, parsers, kind, started)`` adds
subcommands and options (whose ``FILE_OPTIONAL`` names the shared actions that
may go without FILE, and ``HELP`` their help texts where they do more).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import itertools
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from mindgames.models.errors import PuzzleError
from mindgames.models.kind import GridKind, Option, Parsed
from mindgames.models.registry import get_kind
from mindgames.models.runner import PuzzleSolver, Result
from mindgames.solver import ENGINE_NAMES

from ..io import (
    MAX_INPUT_BYTES,
    InputLines,
    UsageError,
    emit_json,
    fail,
    json_line,
    progress,
    read_text,
    seconds_left,
    stdout_is_terminal,
)
from ..options import nonnegative_int, positive_float, positive_int, unread_fields
from ..render import plural, side_by_side
from .grid_jobs import AUTO_JOBS_FROM, WorkerDied, answer_in_workers, job_count, worker_pool

DEFAULT_COUNT_LIMIT = 10_000  # solutions a count stops at (--limit 0: none)

#: the actions every grid kind answers, with their help texts
SHARED_ACTIONS: dict[str, str] = {
    "solve": "solve each puzzle",
    "check": "unique / multiple (two witnesses) / unsolvable",
    "count": "count solutions (up to --limit)",
}
#: the actions whose answer can come with a proof (--certify)
CERTIFIABLE = ("solve", "check")


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
    for action, help_text in SHARED_ACTIONS.items():
        sub = actions.add_parser(action, help=getattr(more, "HELP", {}).get(action, help_text))
        sub.add_argument(
            "file",
            metavar="FILE",
            nargs="?" if action in file_optional else None,
            help="puzzle file, or - for standard input",
        )
        sub.add_argument("--engine", choices=ENGINE_NAMES, default="sat", help="default: sat")
        sub.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
        sub.add_argument("--time-limit", type=positive_float, metavar="S", help="seconds per puzzle")
        sub.add_argument(
            "--jobs",
            type=positive_int,
            metavar="N",
            help="worker processes for a collection, output in input order "
            f"(default: all cores from {AUTO_JOBS_FROM} puzzles up, else 1)",
        )
        add_kind_options(sub, kind.options)
        if action == "count":
            sub.add_argument(
                "--limit",
                type=nonnegative_int,
                default=DEFAULT_COUNT_LIMIT,
                metavar="N",
                help=f"stop counting at N solutions (default {DEFAULT_COUNT_LIMIT:,}; 0: no limit)",
            )
        if action in CERTIFIABLE:
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
    if more is not None:
        more.extend(actions, parsers, kind, started)
    from . import explain  # explain / hint (models.explain), for every grid kind

    explain.register(actions, kind, started)


def add_kind_options(parser: argparse.ArgumentParser, options: tuple[Option, ...]) -> None:
    """Each of the kind's options as ``--name``; left unset, the file (a header) decides."""
    for option in options:
        flag = f"--{option.name.replace('_', '-')}"
        if option.flag:
            parser.add_argument(flag, action="store_true", default=None, help=option.help)
        else:
            parser.add_argument(
                flag,
                type=argument_type(option),
                choices=option.choices,
                metavar=None if option.choices else option.name.upper(),
                help=option.help,
            )


def argument_type(option: Option) -> Callable[[str], Any]:
    """``option.value`` with its PuzzleError as argparse's own kind of error (exit 2, usage)."""

    def value(text: str) -> Any:
        try:
            return option.value(text)
        except PuzzleError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    value.__name__ = option.name  # argparse names the type in "invalid NAME value"
    return value


def stated_options(kind: GridKind, args: argparse.Namespace) -> dict[str, Any]:
    """The kind's options as the user gave them (None: not given)."""
    return {option.name: getattr(args, option.name, None) for option in kind.options}


def read_puzzles(kind: GridKind, args: argparse.Namespace) -> list[Parsed]:
    """The puzzles of FILE, read whole; one unusable puzzle alone is an error (exit 2), in a
    collection a result.  (solve, check and count read as they go: :func:`read_collection`.)"""
    items = kind.read(read_text(args.file), **stated_options(kind, args))
    if not items:
        raise UsageError(f"{args.file}: no puzzle in it (only comments and blank lines)")
    if len(items) == 1 and not items[0].ok:
        raise items[0].error
    return items


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
    if args.action == "count" and args.limit == 0:
        args.limit = None  # 0: no limit
    color = stdout_is_terminal() and not args.json
    requested = getattr(args, "jobs", None)
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
                print_result(kind, result, item.puzzle, args.action, color, numbered)
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


def answer(
    solver: PuzzleSolver,
    kind: GridKind,
    item: Parsed,
    args: argparse.Namespace,
    index: int = 0,
    time_limit: float | None = None,
    on_count: Callable[[int], None] | None = None,
    on_solution: Callable[[], None] | None = None,
) -> Result:
    """``args.action`` on one item of the input: its result, numbered ``index``, with the
    kind's own fields (an unreadable item: ``invalid``, naming what is wrong)."""
    if not item.ok:
        result = Result(status="invalid", error=str(item.error), engine=args.engine)
        result.extra.update(unread_fields(kind, stated_options(kind, args)))
    else:
        result = ask(solver, item.puzzle, args, time_limit, on_count, on_solution, name=f"puzzle-{index + 1}")
        result.extra.update(kind.result_fields(item.puzzle))
    result.index = index
    return result


def ask(
    solver: PuzzleSolver,
    puzzle: Any,
    args: argparse.Namespace,
    time_limit: float | None = None,
    on_count: Callable[[int], None] | None = None,
    on_solution: Callable[[], None] | None = None,
    name: str = "puzzle",
) -> Result:
    """Run ``args.action`` (solve, check or count) on one valid puzzle.

    A count stops at ``args.limit`` solutions (None: no limit), tells
    ``on_count`` how many it has so far (a few times a second, for progress),
    and says in ``message`` why it stopped early.  An interrupted count
    (Ctrl-C) still reports how many solutions it had found, marked
    incomplete, before the interrupt stops the whole run."""
    if args.action in CERTIFIABLE:
        proof_dir = getattr(args, "proof_dir", None)
        proof_format = getattr(args, "proof_format", None)
        certify = (
            {"certify": True, "proof_dir": proof_dir, "name": name, "proof_format": proof_format or "drat"}
            if getattr(args, "certify", False) or proof_dir or proof_format
            else {}
        )
        question = solver.solve if args.action == "solve" else solver.check
        return question(puzzle, time_limit, **certify)
    found = [0]
    shown = [time.monotonic()]

    def seen(_solution: Any) -> None:
        found[0] += 1
        if on_count is not None and time.monotonic() - shown[0] >= 0.1:
            shown[0] = time.monotonic()
            on_count(found[0])
        if on_solution is not None:
            on_solution()

    try:
        result = solver.count(puzzle, args.limit, time_limit, on_solution=seen)
    except KeyboardInterrupt:
        result = Result(
            status="unknown", count=found[0], complete=False, engine=args.engine, message="interrupted"
        )
        emit_json(result.to_json()) if args.json else print(
            f"interrupted after {plural(found[0], 'solution')}"
        )
        raise
    if not result.complete and result.count:
        stopped_by_limit = args.limit is not None and result.count >= args.limit
        result.message = f"stopped at --limit {args.limit}" if stopped_by_limit else "time limit"
    return result


# -- text output -------------------------------------------------------------------------------


def count_text(result: Result) -> str:
    """``1 solution``, ``at least 10 solutions (stopped at --limit 10)``, ``at least 3 solutions (time limit)``."""
    if result.complete:
        return plural(result.count, "solution")
    if not result.count:
        return "unknown (no solution found before the time limit)"
    return f"at least {plural(result.count, 'solution')} ({result.message or 'stopped early'})"


def certified_text(certificate: dict[str, Any] | None) -> str:
    """`` (certified: DRAT, checked)``, or why the answer is not certified; empty without one."""
    if not certificate:
        return ""
    if certificate.get("checked"):
        return f" (certified: {str(certificate.get('kind', 'drat')).upper()}, checked)"
    return f" (not certified: {certificate.get('reason') or 'the proof was not checked'})"


def status_text(result: Result, action: str) -> str:
    """The answer in words: ``solved``, ``unique solution``, ``multiple solutions``, a count, ..."""
    if action == "count":
        return count_text(result)
    certificate = result.extra.get("certificate")
    if certificate:  # the answer the proof is about, then what the proof says
        return f"{result.uniqueness or result.status}{certified_text(certificate)}"
    if action == "check" and result.uniqueness:
        return "unique solution" if result.uniqueness == "unique" else "multiple solutions"
    return result.status


def print_result(
    kind: GridKind, result: Result, puzzle: Any, action: str, color: bool, numbered: bool
) -> None:
    """The answer's line (``puzzle N:`` when the input held several), then the puzzle
    beside its solution (or beside both witnesses of ``multiple``)."""
    head = f"puzzle {result.index + 1}: " if numbered else ""
    if result.status == "invalid":
        print(f"{head}invalid: {result.error}")
        return
    timing = f"{result.seconds * 1000:.1f} ms [{result.engine}]"
    status = status_text(result, action)
    print(f"{head}{kind.describe(puzzle)}: {status}, {timing}")
    if result.message and result.message not in status:  # a count's may be in its status
        print(f"  {result.message}")
    lines = kind.draw(puzzle, None, color)
    if action == "check" and result.uniqueness == "multiple":
        for witness in result.solutions[:2]:
            lines = side_by_side(lines, kind.draw(puzzle, witness, color))
    elif result.solution is not None and action != "count":
        lines = side_by_side(lines, kind.draw(puzzle, result.solution, color))
    print("\n".join(lines))
    print()
    sys.stdout.flush()
