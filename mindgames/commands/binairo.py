"""What binairo adds to the shared solve / check / count / generate (:mod:`mindgames.commands.grid`):
``count --size`` (every grid of a size, through ``BINAIRO.count_all``), ``minimize``, and the
output ``generate`` has always had; a thin layer over :mod:`mindgames.models.binairo` (rules,
generation) and :mod:`mindgames.models.binairo_count` (exact counts of every grid of a size)."""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from mindgames.models import binairo
from mindgames.models.binairo import BINAIRO, Puzzle
from mindgames.models.generate import Generated, Make
from mindgames.models.kind import GridKind
from mindgames.models.runner import PuzzleSolver, Result
from mindgames.solver.deadline import Deadline

from ..io import UsageError, emit_json, fail, progress, stdout_is_terminal
from ..options import add_kind_options, nonnegative_int, positive_float, positive_int
from ..render import plural
from . import answering, grid
from .grid_generate import GenerateOutput

COUNT_METHODS = ("mitm", "dfs", "engine")


#: count may go without FILE: ``count --size N`` counts every grid of a size
FILE_OPTIONAL = ("count",)
HELP = {"count": "count solutions of each puzzle, or every grid of a --size"}


def extend(
    actions: argparse._SubParsersAction,
    parsers: dict[str, argparse.ArgumentParser],
    kind: GridKind,
    started: float,
) -> None:
    """``count --size`` (every grid of a size), ``minimize`` and ``generate``, beside the
    shared solve / check / count."""
    count = parsers["count"]
    count.add_argument(
        "--size",
        metavar="N|RxC",
        help="count every N x N (or R rows x C columns) grid; --time-limit is then for the whole run",
    )
    count.add_argument(
        "--method",
        choices=COUNT_METHODS,
        default="mitm",
        help="for --size: mitm (default, fastest), dfs (row by row), engine",
    )
    # --jobs (shared by every grid kind's count) also sets the worker processes of --size
    count.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="finished cubes go here and the file is kept; the same command "
        "resumes from it (default for 10x10 and up: a file in the user "
        "cache directory, removed when the count completes)",
    )
    count.add_argument("--no-checkpoint", action="store_true", help="keep no checkpoint file")
    # --ray (shared by every grid kind's solve / check / count: ray_batch) also runs --size's cubes
    count.add_argument(
        "--cross-check",
        type=nonnegative_int,
        metavar="K",
        help="when the count is complete, recount K random mitm cubes by a "
        "second method (dfs; 12x12 takuzu: the bucketed pair tests) and "
        "compare each with its count (the checkpoint's, when resumed); a "
        "difference exits 1 (default: 2 below 10x10, else 0: one 10x10 "
        "cube takes dfs about 30 s)",
    )
    count.add_argument(
        "--cross-check-log",
        metavar="FILE",
        help="each finished recount of --cross-check goes here (one JSON line); the same "
        "command resumes from it, recounting only the cubes it does not hold (default: "
        "beside the checkpoint, CHECKPOINT.cross-check.jsonl; none without a checkpoint)",
    )
    count.add_argument(
        "--estimate",
        type=positive_int,
        metavar="K",
        help="do not count every cube: count about K random cubes (stratified by "
        "orbit size and size) and estimate the count (95 %% interval) and "
        "the job's CPU time",
    )
    count.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="S",
        help="with --estimate or --cross-check: which random cubes (same seed, same sample; default 0)",
    )
    count.add_argument(
        "--auxiliary",
        metavar="FILE",
        help="with --estimate of a takuzu count: the checkpoint of a complete "
        "`count --size SAME --rules unruly --checkpoint FILE`; each cube's "
        "exact unruly count makes the interval about half as wide",
    )
    count.set_defaults(func=run_count)
    minimize = actions.add_parser(
        "minimize", help="remove givens while the puzzle keeps exactly one solution"
    )
    minimize.add_argument("file", metavar="FILE", help="puzzle file, or - for standard input")
    add_kind_options(minimize, kind.options)
    minimize.add_argument("--json", action="store_true", help="one JSON object per line")
    minimize.add_argument("--time-limit", type=positive_float, metavar="S", help="seconds per puzzle")
    minimize.add_argument("--seed", type=int, help="random seed: same seed, same puzzles")
    # it checks what it makes with sat
    minimize.set_defaults(func=run_minimize, action="minimize", started=started, engine="sat")
    parsers["generate"].set_defaults(output=BinairoOutput())


def startup_seconds() -> float:
    """How long this process ran before now (Linux), so that a whole-process --time-limit
    includes interpreter start and imports.  0 when unknown, or when the process is
    long-lived (a test run, a host program): then only the command's own time counts."""
    try:
        with open("/proc/self/stat") as handle:
            ticks = int(handle.read().rsplit(")", 1)[1].split()[19])  # field 22: start time
        with open("/proc/uptime") as handle:
            uptime = float(handle.read().split()[0])
        age = uptime - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0
    return age if 0 <= age < 10 else 0.0


def whole_run_deadline(time_limit: float | None) -> float | None:
    """The ``time.monotonic()`` moment a whole-process time limit runs out."""
    return None if time_limit is None else time.monotonic() + time_limit - startup_seconds()


def remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.001, deadline - time.monotonic())


def run_count(args: argparse.Namespace) -> int:
    """``count FILE`` as every grid kind counts; ``count --size`` counts every grid of a size."""
    if args.size is not None:
        if args.file is not None:
            raise UsageError("give either FILE or --size, not both")
        return run_count_all(args)
    if args.file is None:
        raise UsageError("count needs FILE (solutions of puzzles) or --size (every grid)")
    if args.method != "mitm":
        raise UsageError("--method applies to --size only; puzzles are counted by --engine")
    return grid.run(args)


# -- generate / minimize ---------------------------------------------------------------------


class BinairoOutput(GenerateOutput):
    """``binairo generate`` as it wrote before the command was shared by every grid kind: one
    random stream for the whole run (a seed gives the same puzzles as then), a header with the
    rules, each puzzle's comment and rows; JSON: the check's result with binairo's fields."""

    one_stream = True

    def title(self, kind: GridKind, empty: Puzzle, args: argparse.Namespace) -> str:
        return f"binairo generate {plural(args.count, 'puzzle')} {empty.rows}x{empty.cols} {empty.rules}"

    def make(self, args: argparse.Namespace) -> Make:
        return binairo.generate_with

    def json(self, kind: GridKind, item: Generated, args: argparse.Namespace) -> dict[str, Any]:
        return self.result(item).to_json()

    def text(self, kind: GridKind, item: Generated, args: argparse.Namespace) -> None:
        if item.index == 0:  # read back by binairo.parse: the rules travel along
            print(binairo.header_line(item.puzzle.rules))
        emit_made(self.result(item), item.puzzle, args)

    def stopped(self, made: int, args: argparse.Namespace) -> str:
        return (
            f"mindgames: time limit reached: {made} of {plural(args.count, 'puzzle')} made "
            f"(--time-limit {args.time_limit:g} s for the whole run)"
        )

    @staticmethod
    def result(item: Generated) -> Result:
        puzzle: Puzzle = item.puzzle
        result = made_result(item.check, puzzle, True)
        result.status, result.index, result.seconds = "generated", item.index, item.seconds
        result.extra.update(seed=item.seed, size=f"{puzzle.rows}x{puzzle.cols}")
        return result


def confirmed(
    checker: PuzzleSolver,
    puzzle: Puzzle,
    solution: list[list[int]],
    minimal: bool,
    time_limit: float | None = None,
) -> Result | None:
    """Check the made puzzle again from scratch (a separate session): unique, and its solution
    is the one it was made from.  None if the time limit ran out first."""
    result = checker.check(puzzle, time_limit)
    if result.status == "unknown":
        return None
    if result.uniqueness != "unique" or result.solution != solution:
        raise AssertionError("a made puzzle is not unique: this is a bug")
    return made_result(result, puzzle, minimal)


def made_result(result: Result, puzzle: Puzzle, minimal: bool) -> Result:
    """The check of a made puzzle with the fields its JSON record carries."""
    result.extra.update(
        puzzle=puzzle.line(),
        grid=[list(row) for row in puzzle.cells],
        givens=puzzle.givens,
        minimal=minimal,
        rules=puzzle.rules,
    )
    return result


def emit_made(result: Result, puzzle: Puzzle, args: argparse.Namespace) -> None:
    if args.json:
        emit_json(result.to_json())
        return
    minimal = "minimal" if result.extra["minimal"] else "not minimal (time limit)"
    extra = f", seed {result.extra['seed']}" if "seed" in result.extra else ""
    print(
        f"# puzzle {result.index + 1}: {puzzle.rows}x{puzzle.cols} {puzzle.rules}, "
        f"{plural(puzzle.givens, 'given')}, unique, {minimal}{extra}, {result.seconds:.3f} s"
    )
    print("\n".join(BINAIRO.draw(puzzle, None, stdout_is_terminal())))
    print()
    sys.stdout.flush()


def show(
    result: Result, puzzle: Puzzle | None, action: str, args: argparse.Namespace, numbered: bool
) -> None:
    """A puzzle minimize leaves alone, shown as the shared actions show their answers."""
    if args.json:
        emit_json(result.to_json())
    else:
        answering.print_result(BINAIRO, result, puzzle, action, stdout_is_terminal(), numbered)


def run_minimize(args: argparse.Namespace) -> int:
    parsed = answering.read_puzzles(BINAIRO, args)
    numbered = len(parsed) > 1
    seed = args.seed if args.seed is not None else 0
    rng = random.Random(seed)
    generators: dict[tuple, binairo.Generator] = {}
    checker = PuzzleSolver(BINAIRO, "sat")
    header_rules = None  # the rules the last header written says
    steps = sum(item.puzzle.givens for item in parsed if item.puzzle is not None)
    with progress(steps, "binairo minimize: givens tried", elapsed=True) as bar:
        for index, item in enumerate(parsed):
            start = time.perf_counter()
            deadline = None if args.time_limit is None else time.monotonic() + args.time_limit
            puzzle = item.puzzle
            if puzzle is None:
                result = answering.answer(checker, BINAIRO, item, args, index)
                show(result, puzzle, "minimize", args, numbered)
                continue
            result = checker.check(puzzle, args.time_limit)
            if result.uniqueness != "unique":
                result.index = index
                result.extra.update(BINAIRO.result_fields(puzzle))
                if result.uniqueness == "multiple":
                    result.message = "not minimized: the puzzle has more than one solution"
                show(result, puzzle, "check", args, numbered)
                bar.advance(puzzle.givens)
                continue
            key = binairo.shape(puzzle)
            if key not in generators:
                generators[key] = binairo.Generator(*key)
            generator = generators[key]
            solution = generator.literals(Puzzle(tuple(map(tuple, result.solution)), puzzle.rules))
            given, finished = generator.minimize(
                solution, generator.literals(puzzle), rng, deadline, bar.advance
            )
            smaller = generator.to_puzzle(given)
            made = confirmed(checker, smaller, result.solution, finished)
            assert made is not None  # no time limit on the confirmation
            made.index = index
            made.seconds = time.perf_counter() - start
            made.extra.update(seed=seed, givens_before=puzzle.givens)
            if not args.json and smaller.rules != header_rules:
                print(binairo.header_line(smaller.rules))
                header_rules = smaller.rules
            emit_made(made, smaller, args)
    return 0


# -- counting every grid -----------------------------------------------------------------------


def run_count_all(args: argparse.Namespace) -> int:
    # Imported here: numba takes a second or more to import, and only this needs it.
    from mindgames.models import binairo_count

    deadline = whole_run_deadline(args.time_limit)
    rows, cols = binairo.parse_size(args.size)
    rules = args.rules or "takuzu"
    if args.method == "engine":
        return count_all_by_engine(rows, cols, rules, deadline, args)
    binairo_count.orient(rows, cols, args.method)  # a shape too big is an error before any work
    if args.estimate:
        return estimate_count(rows, cols, rules, deadline, args)
    if args.auxiliary:
        raise UsageError("--auxiliary serves --estimate only")
    if args.ray and args.jobs:
        raise UsageError("--ray and --jobs exclude each other (Ray decides where cubes run)")
    checkpoint = args.checkpoint
    automatic = False
    if checkpoint is None and not args.no_checkpoint and rows * cols >= 100:
        checkpoint = str(default_checkpoint(f"binairo-count-{rows}x{cols}-{rules}-{args.method}.jsonl"))
        automatic = True
    what = f"binairo count {rows}x{cols} {rules} ({args.method}): cubes"
    if checkpoint and sys.stderr.isatty():  # on its own line: in the bar it would crowd out M/N
        resuming = "resuming from" if os.path.exists(checkpoint) else "checkpoint:"
        print(f"{what} {resuming} {checkpoint}", file=sys.stderr)
    try:
        with progress(None, what, elapsed=True) as bar:
            result = BINAIRO.count_all(
                {"size": (rows, cols), "rules": rules},
                args.method,
                jobs=args.jobs,
                checkpoint=checkpoint,
                on_progress=lambda done, total: bar.update(completed=done, total=total),
                deadline=None if deadline is None else Deadline(remaining(deadline)),
                ray_address=args.ray,
                isolate=True,
                cross_check=0,  # recounted below, with its own progress and time limit
            )
    except KeyboardInterrupt:
        where = (
            f"finished cubes are in {checkpoint}; run the same command to resume"
            if checkpoint
            else "no checkpoint was kept (--no-checkpoint)"
        )
        print(f"mindgames: interrupted; {where}", file=sys.stderr)
        return 130  # the console script then exits at once, without waiting on any worker
    sample = (
        args.cross_check if args.cross_check is not None else binairo_count.default_cross_check(rows, cols)
    )
    wrong: list = []
    cut_short = False
    log = args.cross_check_log or (cross_check_log_beside(checkpoint) if checkpoint else None)
    if result.complete and args.method == "mitm" and sample:
        wrong, cut_short = cross_check(result, rules, sample, deadline, args, log)
    if result.complete and not result.checked:
        result.checked.append("none in this run (--cross-check K recounts K cubes by a second method)")
    if result.complete and automatic and checkpoint and not cut_short:
        os.remove(checkpoint)  # an automatic checkpoint has done its job
        result.checkpoint = None
        if log and not args.cross_check_log and os.path.exists(log):
            os.remove(log)  # and so has the cross-check log beside it
    if args.json:
        emit_json(result.to_json())
        return cross_check_failed(wrong, result)
    how = f"{result.method}, {plural(result.cubes, 'cube')}, {result.backend}, {result.seconds:.2f} s"
    if result.complete:
        print(f"{rows}x{cols} {rules} grids: {result.count:,} ({how})")
    else:
        kept = f"; finished cubes kept in {checkpoint}" if checkpoint else ""
        print(f"{rows}x{cols} {rules} grids: unknown ({result.message}{kept}) ({how})")
    for note in result.checked:
        print(f"  checked: {note}")
    return cross_check_failed(wrong, result)


def cross_check_failed(wrong: list, result) -> int:
    """The exit code after a cross-check: 1 when a cube counted twice has two counts (a bug,
    never to be hidden: the count printed is not to be trusted), else 0."""
    if not wrong:
        return 0
    return fail(
        f"cross-check failed: {len(wrong)} of {len(result.recounts)} cubes counted "
        f"twice differ ({'; '.join(x.note() for x in wrong[:3])})",
        code=1,
    )


def cross_check_log_beside(checkpoint: str) -> str:
    """The cross-check log that goes with a count's checkpoint (x.jsonl: x.cross-check.jsonl)."""
    path = Path(checkpoint)
    return str(path.with_name(f"{path.stem if path.suffix == '.jsonl' else path.name}.cross-check.jsonl"))


def cross_check(
    result, rules: str, sample: int, deadline: float | None, args: argparse.Namespace, log: str | None
) -> tuple[list, bool]:
    """Recount ``sample`` random cubes of a complete count by a second method, each set beside
    the count's own record of it (the checkpoint's, when resumed); notes go into ``result``.
    Each finished recount goes into ``log``, and the cubes it holds are not recounted.
    Returns the recounts that differ, and whether the cross-check was cut short (time limit,
    Ctrl-C)."""
    from mindgames.models import binairo_count

    r, c = (int(v) for v in result.orientation.split("x"))
    jobs = args.jobs or (1 if r * c < 100 else os.cpu_count() or 1)
    what = f"binairo count {result.rows}x{result.cols} {rules}: cross-check, cubes"
    try:
        with progress(None, what, elapsed=True) as bar:
            recounts = binairo_count.check_cubes(
                r,
                c,
                rules,
                sample,
                seed=args.seed,
                recorded=result.counts,
                jobs=jobs,
                deadline=deadline,
                on_progress=lambda done, total: bar.update(completed=done, total=total),
                log=log,
            )
    except KeyboardInterrupt:  # the count stands; the check was cut short
        kept = f"; finished recounts are in {log}, the same command resumes" if log else ""
        result.checked.append(f"cross-check interrupted{kept}")
        return [], True
    result.checked += [x.note() for x in recounts]
    result.recounts = [x.to_json() for x in recounts]
    logged = sum(x.logged for x in recounts)
    if logged:
        result.checked.append(f"cross-check: {logged} of {len(recounts)} recounts read from {log}")
    cut_short = len(recounts) < min(sample, result.cubes)
    if cut_short:
        kept = f"; finished recounts are in {log}, the same command resumes" if log else ""
        result.checked.append(
            f"cross-check: time limit reached after {len(recounts)} of {min(sample, result.cubes)} "
            f"recounts{kept}"
        )
    return [x for x in recounts if not x.agrees], cut_short


def default_checkpoint(name: str) -> Path:
    """Where an automatic checkpoint lives: the user's cache directory, not the current one."""
    import platformdirs

    folder = Path(platformdirs.user_cache_dir("mindgames"))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(
            f"cannot create the cache directory {folder} ({error.strerror or error}); "
            "give --checkpoint FILE or --no-checkpoint"
        ) from None
    return folder / name


def count_all_by_engine(
    rows: int, cols: int, rules: str, deadline: float | None, args: argparse.Namespace
) -> int:
    """Every grid of a size enumerated by an engine (the reference for small sizes)."""
    empty = Puzzle(tuple((None,) * cols for _ in range(rows)), rules)
    args.action = "count"
    limit = args.limit or None
    solver = PuzzleSolver(BINAIRO, args.engine)
    with progress(limit, f"binairo count {rows}x{cols} {rules} (engine {args.engine}): grids") as bar:
        result = solver.count(empty, limit, remaining(deadline), on_solution=lambda _s: bar.advance())
    if not result.complete:
        stopped_by_limit = limit is not None and (result.count or 0) >= limit
        result.message = f"stopped at --limit {limit}" if stopped_by_limit else "time limit"
    result.extra.update(rules=rules, size=f"{rows}x{cols}", method=f"engine:{args.engine}")
    if args.json:
        emit_json(result.to_json())
    else:
        counted = answering.count_text(result).replace("solution", "grid")
        print(f"{rows}x{cols} {rules} grids: {counted} (engine {args.engine}, {result.seconds:.2f} s)")
    return 0


def cpu_time(seconds: float | None) -> str:
    if seconds is None:  # every sampled cube was read from a log that another join timed
        return "an unknown CPU time (no cube of this sample was timed with this join)"
    return f"{seconds:,.1f} CPU s" if seconds < 3600 else f"{seconds / 3600:,.1f} CPU hours"


def estimate_count(rows: int, cols: int, rules: str, deadline: float | None, args: argparse.Namespace) -> int:
    """Count about --estimate K random cubes exactly (stratified by orbit size and size);
    estimate the whole count with a 95 % interval and the job's CPU time.  A time limit or Ctrl-C ends the sample:
    the estimate is then made from the cubes counted by then."""
    import json

    from mindgames.models import binairo_count
    from mindgames.models.binairo.count.sampling import read_sample_log

    r, c = binairo_count.orient(rows, cols, args.method)
    jobs = args.jobs or os.cpu_count() or 1
    join = binairo_count.cube_join(binairo_count.tables(r, c, rules), args.method)

    def counted(bar, cube, found: int, seconds: float) -> None:
        bar.advance()
        if args.checkpoint:  # a log of the sampled cubes, one JSON line each
            with open(args.checkpoint, "a") as handle:
                handle.write(
                    json.dumps(
                        {
                            "middle_rows": list(cube.rows),
                            "weight": cube.weight,
                            "count": found,
                            "cpu_seconds": round(seconds, 3),
                            "shape": f"{r}x{c}",
                            "rules": rules,
                            "join": join,
                        }
                    )
                    + "\n"
                )

    # cubes an earlier run with this log counted are not counted again
    # (their CPU seconds only where this join counted them: another join's are another cost)
    known = read_sample_log(args.checkpoint, f"{r}x{c}", rules, join) if args.checkpoint else {}
    with progress(
        args.estimate, f"binairo count {rows}x{cols} {rules} --estimate: sampled cubes", elapsed=True
    ) as bar:
        guess = binairo_count.estimate(
            r,
            c,
            rules,
            args.method,
            args.estimate,
            seed=args.seed,
            jobs=jobs,
            on_cube=lambda *cube: counted(bar, *cube),
            deadline=deadline,
            isolate=True,
            auxiliary=args.auxiliary,
            on_sample=lambda total, done: bar.update(total=total, completed=done),
            known=known,
        )
    guess.update(rows=rows, cols=cols, rules=rules, method=args.method)
    if args.json:
        emit_json(guess)
    elif guess["estimated_count"] is None:
        print(f"{rows}x{cols} {rules} [{args.method}]: unknown ({guess['message']})")
    else:
        note = f" ({guess['message']})" if guess["message"] else ""
        interval = guess["interval_95"]
        within = f", 95 % interval {interval[0]:.4e} .. {interval[1]:.4e}" if interval else ""
        print(
            f"{rows}x{cols} {rules} [{args.method}]: {plural(guess['cubes'], 'cube')}; "
            f"{guess['sampled']} counted ({guess['reused']} of them read from the log) in "
            f"{guess['seconds_sampled']} CPU s; count about "
            f"{guess['estimated_count']:.4e}{within}; whole job about "
            f"{cpu_time(guess['cpu_seconds_projected'])}{note}"
        )
    return 0
