"""``mindgames binairo solve|check|count|generate|minimize``: a thin layer over
:mod:`models.binairo` (rules, engines, generation) and :mod:`models.binairo_count`
(exact counts of every grid of a size)."""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Any

from models import binairo
from models.binairo import Puzzle
from models.errors import PuzzleError
from models.runner import PuzzleSolver, Result
from solver import ENGINE_NAMES

from ..actions import answer as run_action
from ..io import UsageError, emit_json, progress, read_text
from ..options import nonnegative_int, positive_float, positive_int

COUNT_METHODS = ("mitm", "dfs", "engine")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("binairo", help="Binairo / Takuzu (and Unruly) grids of 0s and 1s")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    for action, help_text in (
        ("solve", "solve each puzzle"),
        ("check", "unique / multiple (two witnesses) / unsolvable"),
        ("count", "count solutions of each puzzle, or every grid of a --size"),
        ("minimize", "remove givens while the puzzle keeps exactly one solution"),
        ("generate", "make puzzles with one solution from which no given can be removed"),
    ):
        sub = actions.add_parser(action, help=help_text)
        if action == "count":
            sub.add_argument("file", metavar="FILE", nargs="?", help="puzzle file, or - for stdin")
        elif action != "generate":
            sub.add_argument("file", metavar="FILE", help="puzzle file, or - for standard input")
        sub.add_argument("--rules", choices=binairo.RULE_SETS, default="takuzu",
                         help="takuzu (default: all four rules) or unruly (rows/columns may repeat)")
        sub.add_argument("--json", action="store_true", help="one JSON object per line")
        sub.add_argument("--time-limit", type=positive_float, metavar="S", help="seconds per puzzle")
        if action in ("solve", "check", "count"):
            sub.add_argument("--engine", choices=ENGINE_NAMES, default="sat", help="default: sat")
        if action == "count":
            sub.add_argument("--limit", type=positive_int, metavar="N", help="stop counting at N")
            sub.add_argument("--size", metavar="N|RxC", help="count every N x N (or R rows x C columns) grid")
            sub.add_argument("--method", choices=COUNT_METHODS, default="mitm",
                             help="for --size: mitm (default, fastest), dfs (row by row), engine")
            sub.add_argument("--jobs", type=positive_int, metavar="N",
                             help="worker processes (default: all cores)")
            sub.add_argument("--checkpoint", metavar="FILE",
                             help="finished cubes go here; the same command resumes from it "
                                  "(default for 10x10 and up: binairo-count-RxC-RULES-METHOD.jsonl)")
            sub.add_argument("--no-checkpoint", action="store_true", help="keep no checkpoint file")
            sub.add_argument("--ray", metavar="ADDRESS",
                             help="run the cubes on a Ray cluster (ADDRESS, or 'local')")
            sub.add_argument("--cross-check", type=nonnegative_int, metavar="K",
                             help="recount K random mitm cubes with dfs (default: 2 below "
                                  "10x10, else 0: one 10x10 cube takes dfs about 30 s)")
            sub.add_argument("--estimate", type=positive_int, metavar="K",
                             help="do not count: time K random cubes and estimate the whole job")
        if action in ("generate", "minimize"):
            sub.add_argument("--seed", type=int, help="random seed: same seed, same puzzles")
        if action == "generate":
            sub.add_argument("--size", metavar="N|RxC", required=True, help="grid size, e.g. 10 or 6x8")
            sub.add_argument("--count", type=positive_int, default=1, metavar="K", help="how many")
        sub.set_defaults(func=run, action=action)


def run(args: argparse.Namespace) -> int:
    if args.action == "generate":
        return run_generate(args)
    if args.action == "count" and args.size is not None:
        if args.file is not None:
            raise UsageError("give either FILE or --size, not both")
        return run_count_all(args)
    if args.action == "count" and args.file is None:
        raise UsageError("count needs FILE (solutions of puzzles) or --size (every grid)")
    if args.action == "count" and args.method != "mitm":
        raise UsageError("--method applies to --size only; puzzles are counted by --engine")
    parsed = binairo.parse(read_text(args.file), args.rules)
    if len(parsed) == 1 and parsed[0].puzzle is None:
        raise PuzzleError(parsed[0].error or "not a puzzle")
    if args.action == "minimize":
        return run_minimize(args, parsed)
    solver = PuzzleSolver(binairo, args.engine)
    with progress(len(parsed), f"binairo {args.action}") as bar:
        for index, item in enumerate(parsed):
            result = answer(solver, item, args)
            result.index = index
            result.extra["rules"] = args.rules
            show(result, item.puzzle, args)
            bar.advance()
    return 0


def answer(solver: PuzzleSolver, item: binairo.Parsed, args: argparse.Namespace) -> Result:
    if item.puzzle is None:
        return Result(status="invalid", error=item.error, engine=args.engine)
    return run_action(solver, item.puzzle, args)


# -- output ----------------------------------------------------------------------------------


def grid_text(cells: Any) -> list[str]:
    return ["".join(binairo.BLANK if v is None else str(v) for v in row) for row in cells]


def side_by_side(*grids: list[str]) -> list[str]:
    return ["   ".join(parts) for parts in zip(*grids)]


def show(result: Result, puzzle: Puzzle | None, args: argparse.Namespace) -> None:
    if args.json:
        emit_json(result.to_json())
        return
    head = f"puzzle {result.index + 1}: "
    if result.status == "invalid":
        print(f"{head}invalid: {result.error}")
        return
    assert puzzle is not None
    status = result.status
    if args.action == "check" and result.uniqueness:
        status = "unique solution" if result.uniqueness == "unique" else "multiple solutions"
    if args.action == "count":
        more = "" if result.complete else " or more (stopped early)"
        status = f"{result.count}{more} solution{'s' if result.count != 1 else ''}"
    size = f"{puzzle.rows}x{puzzle.cols} {args.rules}"
    print(f"{head}{size}: {status}, {result.seconds * 1000:.1f} ms [{result.engine}]")
    if result.message and result.status != "solved":
        print(f"  {result.message}")
    grids = [grid_text(puzzle.cells)]
    if args.action == "check" and result.uniqueness == "multiple":
        grids += [grid_text(s) for s in result.solutions[:2]]
    elif result.solution is not None and args.action != "count":
        grids.append(grid_text(result.solution))
    print("\n".join(side_by_side(*grids)))
    print()
    sys.stdout.flush()


# -- generate / minimize ---------------------------------------------------------------------


def run_generate(args: argparse.Namespace) -> int:
    rows, cols = binairo.parse_size(args.size)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    generator = binairo.Generator(rows, cols, args.rules)
    checker = PuzzleSolver(binairo, "sat")
    with progress(args.count, f"binairo generate {rows}x{cols}") as bar:
        for index in range(args.count):
            start = time.perf_counter()
            deadline = None if args.time_limit is None else start + args.time_limit
            solution = generator.random_solution(rng)
            given, finished = generator.minimize(solution, solution, rng, deadline)
            puzzle = generator.to_puzzle(given)
            result = confirmed(checker, puzzle, generator.to_grid(solution), finished)
            result.index = index
            result.seconds = time.perf_counter() - start
            result.extra.update(seed=seed, size=f"{rows}x{cols}")
            emit_made(result, puzzle, args)
            bar.advance()
    return 0


def confirmed(checker: PuzzleSolver, puzzle: Puzzle, solution: list[list[int]], minimal: bool) -> Result:
    """Check the made puzzle again from scratch (a separate session): unique, and its solution
    is the one it was made from."""
    result = checker.check(puzzle)
    if result.uniqueness != "unique" or result.solution != solution:
        raise AssertionError("a made puzzle is not unique: this is a bug")
    result.extra.update(puzzle=puzzle.line(), givens=puzzle.givens, minimal=minimal,
                        rules=puzzle.rules)
    return result


def emit_made(result: Result, puzzle: Puzzle, args: argparse.Namespace) -> None:
    if args.json:
        emit_json(result.to_json())
        return
    minimal = "minimal" if result.extra["minimal"] else "not minimal (time limit)"
    extra = f", seed {result.extra['seed']}" if "seed" in result.extra else ""
    print(f"# puzzle {result.index + 1}: {puzzle.rows}x{puzzle.cols} {puzzle.rules}, "
          f"{puzzle.givens} givens, unique, {minimal}{extra}, {result.seconds:.3f} s")
    print("\n".join(grid_text(puzzle.cells)))
    print()
    sys.stdout.flush()


def run_minimize(args: argparse.Namespace, parsed: list[binairo.Parsed]) -> int:
    seed = args.seed if args.seed is not None else 0
    rng = random.Random(seed)
    generators: dict[tuple, binairo.Generator] = {}
    checker = PuzzleSolver(binairo, "sat")
    for index, item in enumerate(parsed):
        start = time.perf_counter()
        puzzle = item.puzzle
        if puzzle is None:
            result = Result(index=index, status="invalid", error=item.error, engine="sat")
            result.extra["rules"] = args.rules
            show(result, None, argparse.Namespace(**{**vars(args), "action": "minimize"}))
            continue
        result = checker.check(puzzle, args.time_limit)
        if result.uniqueness != "unique":
            result.index = index
            result.extra["rules"] = args.rules
            if result.uniqueness == "multiple":
                result.message = "not minimized: the puzzle has more than one solution"
            show(result, puzzle, argparse.Namespace(**{**vars(args), "action": "check"}))
            continue
        key = binairo.shape(puzzle)
        if key not in generators:
            generators[key] = binairo.Generator(*key)
        generator = generators[key]
        deadline = None if args.time_limit is None else start + args.time_limit
        solution = generator.literals(Puzzle(tuple(map(tuple, result.solution)), puzzle.rules))
        given, finished = generator.minimize(solution, generator.literals(puzzle), rng, deadline)
        smaller = generator.to_puzzle(given)
        result = confirmed(checker, smaller, result.solution, finished)
        result.index = index
        result.seconds = time.perf_counter() - start
        result.extra.update(seed=seed, givens_before=puzzle.givens)
        emit_made(result, smaller, args)
    return 0


# -- counting every grid -----------------------------------------------------------------------


def run_count_all(args: argparse.Namespace) -> int:
    # Imported here: numba takes a second or more to import, and only this needs it.
    from models import binairo_count

    rows, cols = binairo.parse_size(args.size)
    if args.method == "engine":
        empty = Puzzle(tuple((None,) * cols for _ in range(rows)), args.rules)
        args.action = "count"
        solver = PuzzleSolver(binairo, args.engine)
        with progress(None, f"binairo count {rows}x{cols} [{args.engine}]") as bar:
            result = solver.count(empty, args.limit, args.time_limit,
                                  on_solution=lambda _s: bar.advance())
        result.extra.update(rules=args.rules, size=f"{rows}x{cols}", method=f"engine:{args.engine}")
        show(result, empty, args) if args.json else print(
            f"{rows}x{cols} {args.rules} grids: {result.count}"
            f"{'' if result.complete else ' or more (stopped early)'} "
            f"(engine {args.engine}, {result.seconds:.2f} s)")
        return 0
    if args.estimate:
        r, c = binairo_count.orient(rows, cols, args.method)
        def report(cube: Any, found: int, seconds: float) -> None:
            print(f"cube {cube.rows} (weight {cube.weight}): {found} grids, {seconds:.1f} s",
                  file=sys.stderr, flush=True)

        guess = binairo_count.estimate(r, c, args.rules, args.method, args.estimate,
                                       jobs=args.jobs or os.cpu_count() or 1, on_cube=report)
        guess.update(rows=rows, cols=cols, rules=args.rules, method=args.method)
        if args.json:
            emit_json(guess)
        else:
            print(f"{rows}x{cols} {args.rules} [{args.method}]: {guess['cubes']} cubes; "
                  f"{guess['sampled']} took {guess['seconds_sampled']} s; whole job about "
                  f"{guess['estimated_seconds']:,.0f} s on {args.jobs or os.cpu_count()} cores; "
                  f"count about {guess['estimated_count']:.3e}")
        return 0
    if args.ray and args.jobs:
        raise UsageError("--ray and --jobs exclude each other (Ray decides where cubes run)")
    checkpoint = args.checkpoint
    automatic = False
    if checkpoint is None and not args.no_checkpoint and rows * cols >= 100:
        checkpoint = f"binairo-count-{rows}x{cols}-{args.rules}-{args.method}.jsonl"
        automatic = True
    if checkpoint and os.path.exists(checkpoint) and not args.json:
        print(f"resuming from {checkpoint}", file=sys.stderr)
    try:
        with progress(None, f"binairo count {rows}x{cols} [{args.method}] cubes") as bar:
            result = binairo_count.count_grids(
                rows, cols, args.rules, args.method, jobs=args.jobs, checkpoint=checkpoint,
                ray_address=args.ray,
                on_progress=lambda done, total: bar.update(completed=done, total=total),
            )
    except KeyboardInterrupt:
        where = f"finished cubes are in {checkpoint}; run the same command to resume" if checkpoint \
            else "no checkpoint was kept (--no-checkpoint)"
        print(f"mindgames: interrupted; {where}", file=sys.stderr)
        raise SystemExit(130) from None
    sample = args.cross_check if args.cross_check is not None else (2 if rows * cols < 100 else 0)
    if result.complete and args.method == "mitm" and sample:
        r, c = (int(v) for v in result.orientation.split("x"))
        for note in binairo_count.check_cubes(r, c, args.rules, sample):
            result.checked.append(f"dfs recount of mitm {note}: equal")
    if result.complete and not result.checked:
        result.checked.append("none in this run (--cross-check K recounts K cubes with dfs)")
    if result.complete and automatic and checkpoint:
        os.remove(checkpoint)  # an automatic checkpoint has done its job
        result.checkpoint = None
    if args.json:
        emit_json(result.to_json())
    else:
        print(f"{rows}x{cols} {args.rules} grids: {result.count} "
              f"({result.method}, {result.cubes} cubes, {result.backend}, {result.seconds:.2f} s)")
        for note in result.checked:
            print(f"  checked: {note}")
    return 0
