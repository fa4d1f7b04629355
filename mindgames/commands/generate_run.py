"""A publisher's generation run: ``mindgames KIND generate --count N --out DIR [--grade ...]
[--ray ADDRESS]``.

The run is cut into *parts* of ``--part-size`` attempts: part ``k`` makes the puzzles of seeds
``seed + k*size ... seed + (k+1)*size - 1`` on one fresh session, so a part is the same
wherever and whenever it is made (here, or as a Ray task).  Each finished part is written
whole (a temporary file renamed) under ``DIR/parts/``: a rerun with the same DIR finds the
parts done and makes only the missing ones.  The puzzles are then read part by part, in
order, and a puzzle whose canonical form (:mod:`mindgames.models.canonical`) was seen before
is a duplicate and dropped; the first N distinct puzzles are the run's, written as JSON Lines
shards ``DIR/puzzles-00000.jsonl`` ... (puzzle, solution, grade, seed, generator version and
parameters), with ``DIR/summary.json`` (count per grade, CPU time, duplicates).  So an
interrupted and resumed run ends with the same files as an uninterrupted one.

``DIR/run.json`` fixes the run's seed and parameters; a rerun asking for other parameters is
refused (another DIR, or the same parameters); a larger ``--count`` extends the run."""

from __future__ import annotations

import argparse
import gc
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Generator
from contextlib import closing
from pathlib import Path
from typing import Any

from mindgames.models.canonical import Duplicates
from mindgames.models.generate import Make, generate_puzzles, new_seed
from mindgames.models.kind import GridKind
from mindgames.models.registry import get_kind

from .. import __version__
from ..io import UsageError, fail, progress
from ..options import positive_int
from ..render import plural
from .ray_batch import TasksLost

FORMAT = 1  # of run.json and the part files: a DIR of another format is refused
DROPPED = ("seconds", "stats", "index", "status", "solutions", "count", "complete", "error", "message")


def add_options(parser: argparse.ArgumentParser) -> None:
    """The generation run's flags on ``KIND generate``."""
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="a generation run: --count distinct puzzles (up to symmetry) as JSON Lines shards in "
        "DIR with a summary; rerun with the same DIR to finish an interrupted run",
    )
    parser.add_argument(
        "--part-size",
        type=positive_int,
        default=100,
        metavar="K",
        help="with --out: attempts per part, the unit of resuming and of Ray tasks (default 100)",
    )
    parser.add_argument(
        "--shard-size",
        type=positive_int,
        default=10000,
        metavar="K",
        help="with --out: puzzles per output file (default 10000)",
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="with --out: make the parts as tasks on a Ray cluster (ADDRESS, or auto; needs mindgames[ray])",
    )
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=1,
        metavar="N",
        help="with --out: make N parts at once, in worker processes on this machine (default 1)",
    )


def make_part(
    kind_name: str, empty: Any, seed: int, start: int, stop: int, engine: str, make: Make | None
) -> tuple[list[dict[str, Any]], float]:
    """The records of attempts ``start..stop-1`` (one fresh session) and the CPU seconds spent."""
    kind: GridKind = get_kind(kind_name)
    began = time.process_time()
    records = []
    for item in generate_puzzles(kind, empty, stop, seed, engine, make=make, first=start):
        record = {key: value for key, value in item.to_json(kind).items() if key not in DROPPED}
        graded = kind.grade(item.puzzle)
        record["grade"] = graded[1] if graded is not None else None
        record["attempt"] = item.index
        records.append(record)
    return records, time.process_time() - began


class Run:
    """The run's folder: its fixed parameters, its parts, its shards and summary."""

    def __init__(self, folder: Path, parameters: dict[str, Any], seed: int | None, part_size: int):
        self.folder = folder
        self.parts = folder / "parts"
        state_file = folder / "run.json"
        if state_file.exists():
            state = json.loads(state_file.read_text())
            if state.get("format") != FORMAT:
                raise UsageError(f"{folder}: a generation run of another format ({state.get('format')})")
            if state["parameters"] != parameters:
                raise UsageError(
                    f"{folder}: a run with other parameters ({json.dumps(state['parameters'])}); "
                    "use another --out DIR or the same parameters"
                )
            if seed is not None and seed != state["seed"]:
                raise UsageError(f"{folder}: a run of --seed {state['seed']}, not {seed}")
            if part_size != state["part_size"]:
                raise UsageError(f"{folder}: a run of --part-size {state['part_size']}, not {part_size}")
            self.seed, self.part_size = state["seed"], state["part_size"]
        else:
            self.seed = seed if seed is not None else new_seed()
            self.part_size = part_size
            self.parts.mkdir(parents=True, exist_ok=True)
            state = {
                "format": FORMAT,
                "seed": self.seed,
                "part_size": part_size,
                "parameters": parameters,
                "generator": __version__,
            }
            _write_atomically(state_file, json.dumps(state, indent=1) + "\n")
        self.parameters = parameters

    def part_file(self, number: int) -> Path:
        return self.parts / f"part-{number:06d}.jsonl"

    def read_part(self, number: int) -> tuple[list[dict[str, Any]], float] | None:
        path = self.part_file(number)
        if not path.exists():
            return None
        lines = path.read_text().splitlines()
        header = json.loads(lines[0])
        return [json.loads(line) for line in lines[1:]], header["cpu_seconds"]

    def write_part(self, number: int, records: list[dict[str, Any]], cpu: float) -> None:
        lines = [json.dumps({"part": number, "cpu_seconds": cpu})] + [json.dumps(r) for r in records]
        _write_atomically(self.part_file(number), "\n".join(lines) + "\n")

    def span(self, number: int) -> tuple[int, int]:
        return number * self.part_size, (number + 1) * self.part_size


def _write_atomically(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text)
    os.replace(temporary, path)


PartMaker = Callable[[list[int]], Generator[tuple[int, list[dict[str, Any]], float], None, None]]


def local_parts(
    run: Run, kind: GridKind, empty: Any, engine: str, make: Make | None, jobs: int = 1
) -> PartMaker:
    """Parts made here: one after another, or ``jobs`` at once in worker processes (yielded
    as they finish; a part is the same whichever process makes it)."""

    def made(numbers: list[int]) -> Generator[tuple[int, list[dict[str, Any]], float], None, None]:
        if jobs == 1 or len(numbers) <= 1:
            for number in numbers:
                start, stop = run.span(number)
                records, cpu = make_part(kind.name, empty, run.seed, start, stop, engine, make)
                yield number, records, cpu
            return
        import multiprocessing

        tasks = [(number, kind.name, empty, run.seed, *run.span(number), engine, make) for number in numbers]
        # spawn: a fresh interpreter per worker (forking a process whose progress bar runs a
        # thread is unsafe); however the parts end (done, Ctrl-C, an error), the workers stop.
        pool = multiprocessing.get_context("spawn").Pool(
            min(jobs, len(numbers)), initializer=_part_worker_start
        )
        try:
            yield from pool.imap_unordered(_numbered_part, tasks)
        finally:
            pool.terminate()
            pool.join()

    return made


def _part_worker_start() -> None:
    from mindgames.models.processes import exit_with_parent

    exit_with_parent()  # a run killed by SIGKILL takes its workers with it
    # Ctrl-C is the parent's to handle: out of the terminal's process group, a worker is not
    # sent it (a SAT engine installs its own SIGINT handler while it solves, so ignoring the
    # signal is not enough); the parent stops the workers.
    os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _numbered_part(task: tuple[Any, ...]) -> tuple[int, list[dict[str, Any]], float]:
    number, *arguments = task
    records, cpu = make_part(*arguments)
    return number, records, cpu


def execute(
    run: Run, kind: GridKind, count: int, shard_size: int, maker: PartMaker, bar: Any = None
) -> dict[str, Any]:
    """Make what is missing, keep the first ``count`` distinct puzzles, write shards and summary."""
    duplicates = Duplicates(kind)
    kept: list[str] = []  # each puzzle's shard line: text, a tenth of the memory of its dict
    grades: dict[str, int] = {}
    generator = {"version": __version__, "seed": run.seed, "parameters": run.parameters}
    dropped = 0
    cpu = 0.0
    number = 0
    attempts_cap = max(10 * count, 4 * run.part_size)  # a variant with fewer distinct puzzles ends
    reused = made_now = 0
    while len(kept) < count and number * run.part_size < attempts_cap:
        # The parts that will be needed if no more duplicates come, made at once (Ray: in parallel).
        wanted = max(1, -(-(count - len(kept)) // run.part_size))
        batch = list(range(number, number + wanted))
        missing = [n for n in batch if not run.part_file(n).exists()]
        fresh = {}
        # closing: on Ctrl-C the maker stops its workers (processes, Ray tasks) at once
        with closing(maker(missing)) as made:
            for made_number, records, seconds in made:
                run.write_part(made_number, records, seconds)
                fresh[made_number] = True
                made_now += 1
                if bar is not None:
                    bar.advance(len(records))
        for part_number in batch:
            part = run.read_part(part_number)
            assert part is not None, f"part {part_number} was not made"
            records, seconds = part
            cpu += seconds
            if part_number not in fresh:
                reused += 1
            for record in records:
                if len(kept) == count:
                    break
                if duplicates.add(kind.parse_value(record["puzzle"])):
                    kept.append(json.dumps(record | {"generator": generator}, separators=(",", ":")))
                    grades[str(record["grade"])] = grades.get(str(record["grade"]), 0) + 1
                else:
                    dropped += 1
        number += wanted
    _write_shards(run, kept, shard_size)
    summary = {
        "kind": kind.name,
        "count": len(kept),
        "asked": count,
        "seed": run.seed,
        "parameters": run.parameters,
        "generator": __version__,
        "per_grade": dict(sorted(grades.items())),
        "duplicates": dropped,
        "attempts": number * run.part_size,
        "parts": number,
        "parts_made_now": made_now,
        "parts_reused": reused,
        "cpu_seconds": round(cpu, 3),
    }
    _write_atomically(run.folder / "summary.json", json.dumps(summary, indent=1) + "\n")
    return summary


def _write_shards(run: Run, kept: list[str], shard_size: int) -> None:
    for old in run.folder.glob("puzzles-*.jsonl"):
        old.unlink()
    for first in range(0, len(kept), shard_size):
        text = "\n".join(kept[first : first + shard_size]) + "\n"
        _write_atomically(run.folder / f"puzzles-{first // shard_size:05d}.jsonl", text)


def run(
    args: argparse.Namespace, kind: GridKind, empty: Any, options: dict[str, Any], make: Make | None
) -> int:
    """``KIND generate --out DIR``: the run; its summary on stderr."""
    parameters = {
        "kind": kind.name,
        "options": {name: str(value) for name, value in sorted(options.items())},
        "engine": args.engine,
        "grade": vars(args).get("grade"),  # Sudoku's extension adds --grade
    }
    if args.out is None:
        raise UsageError("--ray: a generation run on Ray writes to --out DIR")
    if args.ray and args.jobs > 1:
        raise UsageError("--jobs and --ray: give one (Ray decides how many parts run at once)")
    folder = Path(args.out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"--out {folder}: cannot create it ({error.strerror})") from None
    generation = Run(folder, parameters, args.seed, args.part_size)
    if args.ray:
        from .ray_batch import ray_parts

        maker = ray_parts(args.ray, make_part, generation, kind, empty, args.engine, make)
    else:
        maker = local_parts(generation, kind, empty, args.engine, make, args.jobs)
    interrupted = False
    with progress(args.count, f"{kind.name} generate --out {folder}") as bar:
        try:
            summary = execute(generation, kind, args.count, args.shard_size, maker, bar)
        except KeyboardInterrupt:
            print(
                f"mindgames: interrupted: the parts finished are kept in {generation.parts}; "
                "rerun the same command to continue",
                file=sys.stderr,
            )
            interrupted = True
        except TasksLost as error:  # --ray: a part Ray gave up on; the parts finished are kept
            return fail(f"{error}; rerun the same command to continue", code=1)
    if interrupted:
        # The console script leaves by os._exit after Ctrl-C, skipping the finalisers that
        # release a worker pool's semaphores: collected here (the traceback that held the
        # pool is gone), they are released, and Python does not warn of leaked semaphores.
        gc.collect()
        return 130
    print(
        f"mindgames: {plural(summary['count'], 'puzzle')} in {folder} (seed {summary['seed']}), "
        f"{plural(summary['duplicates'], 'duplicate')} dropped, {summary['cpu_seconds']:g} CPU s, "
        f"per grade {json.dumps(summary['per_grade'])}",
        file=sys.stderr,
    )
    if summary["count"] < args.count:
        print(
            f"mindgames: only {summary['count']} distinct puzzles in {summary['attempts']} attempts: "
            "this variant has few",
            file=sys.stderr,
        )
    return 0
