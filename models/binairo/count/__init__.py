"""Count every complete Binairo grid of a size exactly, fast.

Engines enumerate about a thousand grids a second; 10x10 has 48 billion.
So the empty grid is counted here by two compiled (numba) methods that work
on whole rows as bitmasks, split into independent *cubes* that run in
parallel, are checkpointed, and can be resumed:

``mitm`` (meet in the middle, the fast one)
    A cube fixes the two middle rows ``(a, b)`` (rows ``h-1`` and ``h`` of
    ``2h``).  The top half is then enumerated upwards from ``a`` (with ``b``
    below it, so no vertical triple crosses the middle) and the bottom half
    downwards from ``b``; the halves only interact through three things:
    the per-column counts of 1s must add up to ``h``; no two columns may be
    equal in *both* halves; no row may be used in both halves.  Halves are
    joined by sorting on their packed column counts; the two distinctness
    conditions are single AND tests on bitmasks (column pairs equal in a
    half; rows used in a half).
``dfs`` (row-by-row depth-first, the seed's method made compiled)
    Rows are placed top to bottom; per-column counts, the last two rows
    (vertical triples), a bitset of used rows, and the column pairs still
    equal so far are carried along.  A cube fixes the first row.

Symmetry: complementing every cell, mirroring every row and (for ``mitm``)
flipping the grid upside down map grids to grids and cubes to cubes, so only
one cube per orbit is counted, weighted by the orbit's size.  Nothing is
hard-coded: the two methods, both grid orientations and the SAT engines
cross-check each other (see the tests and ``check_cubes``).
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import PuzzleError
from . import small as small_grids
from .sampling import continuations, project_cpu, read_auxiliary, stratified_estimate, stratified_sample

if TYPE_CHECKING:
    from .join import JoinTables  # imports numba: only where a count needs it

METHODS = ("mitm", "dfs")
MAX_WIDTH = 16  # column pairs fit in two 64-bit words


# -- the tables: valid rows and what each contributes -------------------------------------


def valid_rows(width: int) -> list[int]:
    """Every row of ``width`` bits that is balanced and has no three equal bits in a line."""
    half, mask = width // 2, (1 << width) - 1
    found = []
    for r in range(1 << width):
        if bin(r).count("1") != half:
            continue
        ones = r & (r >> 1) & (r >> 2)
        zeros = ~r & mask
        if ones or zeros & (zeros >> 1) & (zeros >> 2):
            continue
        found.append(r)
    return found


@dataclass
class Tables:
    """Per valid row: its bits, its image under complement and mirror, its contribution to the
    packed column counts, and the column pairs it has equal (two 64-bit words)."""

    rows: int
    cols: int
    takuzu: bool
    bits: np.ndarray  # int64[n]
    complement: np.ndarray  # int64[n]: index of the complemented row
    mirror: np.ndarray  # int64[n]: index of the mirrored row
    spread: np.ndarray  # int64[n]: sum of 1 << (field * column) over its 1-bits
    eqpairs: np.ndarray  # int64[n, 2]
    field: int  # bits per column in a packed count
    words: int  # 64-bit words in a set of rows
    counting: JoinTables | None = None  # what the counting joins need (made when first needed)
    small: small_grids.SmallTables | None = None  # the numpy methods' successor lists (small shapes)


def field_bits(rows: int) -> int:
    """Bits per column in a packed column count (counts go up to rows / 2 in a half)."""
    return max(1, rows.bit_length())


def fits(rows: int, cols: int) -> bool:
    """Whether the fast counter can count grids of ``rows`` rows of ``cols`` cells: the
    column counts of a half are packed into one signed 64-bit key."""
    return cols <= MAX_WIDTH and field_bits(rows) * cols <= 63


# The shapes for which fits() holds, in words (a test keeps them in step).
LARGEST = "14x14 (a longer side takes a narrower grid: 16-30 x 12, 32-62 x 10, 64 x 8)"


def tables(rows: int, cols: int, rules: str) -> Tables:
    if not fits(rows, cols):
        raise PuzzleError(_too_big(rows, cols))
    valid = valid_rows(cols)
    index = {r: i for i, r in enumerate(valid)}
    full = (1 << cols) - 1
    field_bits_ = field_bits(rows)
    spread, eqpairs = [], []
    for r in valid:
        spread.append(sum(1 << (field_bits_ * c) for c in range(cols) if r >> c & 1))
        words = [0, 0]
        p = 0
        for i in range(cols):
            for j in range(i + 1, cols):
                if (r >> i & 1) == (r >> j & 1):
                    words[p // 64] |= 1 << (p % 64)
                p += 1
        eqpairs.append([w - (1 << 64) if w >= 1 << 63 else w for w in words])
    mirror = [index[int(f"{r:0{cols}b}"[::-1], 2)] for r in valid]
    return Tables(
        rows,
        cols,
        rules == "takuzu",
        np.array(valid, dtype=np.int64),
        np.array([index[full ^ r] for r in valid], dtype=np.int64),
        np.array(mirror, dtype=np.int64),
        np.array(spread, dtype=np.int64),
        np.array(eqpairs, dtype=np.int64).reshape(len(valid), 2),
        field_bits_,
        (len(valid) + 63) // 64,
    )


# -- cubes ---------------------------------------------------------------------------------
#: cubes still to count, each (its index among the job's cubes, its fixed rows, its weight)
Pending = list[tuple[int, tuple[int, ...], int]]
#: told (index, count, seconds) of each cube counted; True stops the run
Finished = Callable[[int, int, float], bool]


@dataclass(frozen=True)
class Cube:
    """One independent piece of the count: fixed rows, and how many cubes it stands for."""

    rows: tuple[int, ...]  # indices into the valid rows (mitm: the middle pair; dfs: row 1)
    weight: int


def cubes(t: Tables, method: str) -> list[Cube]:
    """One cube per symmetry orbit, weighted by the orbit's size."""
    n = len(t.bits)
    comp, mir = t.complement.tolist(), t.mirror.tolist()
    found: list[Cube] = []
    if method == "dfs":
        seen: set[int] = set()
        for a in range(n):
            if a in seen:
                continue
            orbit = {a, comp[a], mir[a], comp[mir[a]]}
            seen |= orbit
            found.append(Cube((a,), len(orbit)))
        return found
    seen_pairs: set[tuple[int, int]] = set()
    for a in range(n):
        for b in range(n):
            if (t.takuzu and a == b) or (a, b) in seen_pairs:
                continue
            orbit = set()
            for x, y in ((a, b), (b, a)):  # flipping the grid upside down swaps the middle rows
                orbit |= {(x, y), (comp[x], comp[y]), (mir[x], mir[y]), (comp[mir[x]], comp[mir[y]])}
            seen_pairs |= orbit
            found.append(Cube((a, b), len(orbit)))
    return found


def cube_join(t: Tables, method: str) -> str:
    """How a cube's halves are joined: ``histogram`` (unruly: key histograms, a dot product),
    ``inclusion-exclusion, depth first`` (takuzu from 12x12 on: pairs counted, see ``join``; the
    shared-row sets visited depth first), ``inclusion-exclusion by codes`` (the same counted the
    earlier way, forced only: codes for every half and set, sorted; the checkpoint records of
    sessions up to 7 call it plain ``inclusion-exclusion``), ``bucketed pair tests`` (takuzu below 12x12, where
    key groups are small: every pair with matching keys tested, the top halves bucketed by key
    and each bottom half looked up as it is enumerated), ``pair tests`` (the first kernel,
    ``mitm_cube``: both sides sorted by key, then tested; small shapes in numpy, and what the
    others are checked against), or ``dfs``."""
    if method != "mitm":
        return "dfs"
    if small_grids.handles(t.rows, t.cols):
        return "pair tests"
    if not t.takuzu:
        return "histogram" if histogram_fits(t.rows, t.cols) else "pair tests"
    big = t.rows * t.cols >= 144 and t.rows >= 6
    if big and counting_fits(t.rows, t.cols, len(t.bits)):
        return "inclusion-exclusion, depth first"
    return "bucketed pair tests" if histogram_fits(t.rows, t.cols) else "pair tests"


def histogram_fits(rows: int, cols: int) -> bool:
    """Whether a cube's dense key histogram stays small (<= 2^23 keys: 32 MB): column counts of
    h rows without three equal cells in a line lie in [h // 3, h - h // 3]."""
    h = rows // 2
    return (h - 2 * (h // 3) + 1) ** cols <= 1 << 23


def counting_fits(rows: int, cols: int, n: int) -> bool:
    """Whether the takuzu counting join's codes (a set of shared rows beside a partition number)
    fit 64 bits."""
    return (rows // 2 - 1) * max(1, (n - 1).bit_length()) <= 44


def _small(t: Tables) -> Any:
    if t.small is None:
        t.small = small_grids.SmallTables(t)
    return t.small


# The joins that work on a shape's ``JoinTables`` (``t.counting``)
TABLE_JOINS = (
    "histogram",
    "inclusion-exclusion, depth first",
    "inclusion-exclusion by codes",
    "bucketed pair tests",
)


_KERNELS_LOADED: set[tuple[str, str]] = set()  # (rules, join) whose compiled kernels this process has


def prepare(t: Tables, method: str, join: str | None = None) -> None:
    """Make everything ``count_cube`` needs for every cube of the shape, once, before any cube
    is timed: the join tables (12x12: about a second), their buffers touched, the compiled
    kernels loaded.  A cube's CPU seconds are then its own, not its share of the set-up: an
    estimate's few cubes each stand for hundreds, and on 10x10 the first cube of a worker
    cost ten cubes' worth (the projected CPU time came out a third too high)."""
    join = join or cube_join(t, method)
    if method != "mitm" or join not in TABLE_JOINS or t.counting is not None:
        return
    from .join import JoinTables

    t.counting = JoinTables(t.rows, t.cols, t.bits, t.words)
    t.counting.ready(join, t.eqpairs)
    rules = "takuzu" if t.takuzu else "unruly"
    if (rules, join) not in _KERNELS_LOADED:
        _KERNELS_LOADED.add((rules, join))
        small = tables(4, 4, rules)  # every join counts 4x4 (in milliseconds, once loaded)
        count_cube(small, method, cubes(small, method)[0], join)


def count_cube(t: Tables, method: str, cube: Cube, join: str | None = None) -> int:
    """The grids in one cube (unweighted).  ``join`` forces a way to join a mitm cube
    (``cube_join`` names them; ``compiled pair tests`` skips the numpy version of small shapes);
    ``compiled`` forces the numba dfs on small shapes."""
    if method == "mitm":
        if join == "dfs":
            return dfs_check_mitm_cube(t, cube)
        a, b = cube.rows
        join = join or cube_join(t, method)
        if join in TABLE_JOINS:
            prepare(t, method, join)
            counting = t.counting
            assert counting is not None  # prepare made it
            if join == "histogram":
                return counting.unruly(a, b)
            if join == "bucketed pair tests":
                return counting.lookup(a, b, t.eqpairs)
            return counting.takuzu(a, b, t.eqpairs, depth_first=join == "inclusion-exclusion, depth first")
        if small_grids.handles(t.rows, t.cols) and join != "compiled pair tests":
            return _small(t).mitm_cube(a, b)
        from .kernels import mitm_cube

        return int(mitm_cube(a, b, t.rows, t.cols, t.bits, t.spread, t.eqpairs, t.words, t.takuzu, t.field))
    if small_grids.handles(t.rows, t.cols) and join != "compiled":
        return _small(t).fixed_rows_count({0: cube.rows[0]})
    from .kernels import dfs_cube

    fixed = np.full(t.rows, -1, np.int64)
    fixed[0] = cube.rows[0]
    return int(dfs_cube(fixed, t.rows, t.cols, t.bits, t.eqpairs, t.words, t.takuzu))


def dfs_check_mitm_cube(t: Tables, cube: Cube) -> int:
    """A mitm cube counted by the other method: dfs with the two middle rows fixed."""
    h = t.rows // 2
    if small_grids.handles(t.rows, t.cols):
        return _small(t).fixed_rows_count({h - 1: cube.rows[0], h: cube.rows[1]})
    from .kernels import dfs_cube

    fixed = np.full(t.rows, -1, np.int64)
    fixed[h - 1], fixed[h] = cube.rows
    return int(dfs_cube(fixed, t.rows, t.cols, t.bits, t.eqpairs, t.words, t.takuzu))


# -- running the cubes: checkpoint, processes, Ray -----------------------------------------


@dataclass
class CountResult:
    rows: int
    cols: int
    rules: str
    method: str
    count: int | None
    complete: bool
    cubes: int
    cubes_done: int
    seconds: float
    orientation: str  # which way the grid was counted (rows of the counted grid x width)
    jobs: int = 1
    backend: str = "local"
    checked: list[str] = field(default_factory=list)
    checkpoint: str | None = None
    status: str = "unknown"  # counted | unknown (stopped before every cube was counted)
    message: str | None = None
    recounts: list[dict[str, Any]] = field(default_factory=list)  # cubes counted twice (check_cubes)
    counts: dict[int, int] = field(default_factory=dict, repr=False)  # cube index -> its count

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["seconds"] = round(self.seconds, 3)
        del data["counts"]  # thousands of cubes: the checkpoint has them
        return data


def read_log(path: Path, header: dict[str, Any], what: str = "checkpoint") -> list[dict[str, Any]]:
    """The entries of a log of finished cubes (a JSON line each after ``header``, which names
    the job): its lines up to the first one cut short by an interruption (that cube is done
    again).  A missing or empty file is started with the header.  A file of another job, or no
    such log, is an error naming it."""
    if not (path.exists() and path.stat().st_size):
        path.write_text(json.dumps(header) + "\n")
        return []
    lines = path.read_bytes().splitlines(keepends=True)
    try:
        first = json.loads(lines[0])
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise PuzzleError(f"{path}: not a mindgames {what} file") from None
    if first != header:
        raise PuzzleError(
            f"{path}: {what} of another job ({shorten_header(first)}), not of {shorten_header(header)}"
        )
    entries, good = [], len(lines[0])
    for number, line in enumerate(lines[1:], start=2):
        try:
            entry = json.loads(line) if line.endswith(b"\n") else None
        except (json.JSONDecodeError, UnicodeDecodeError):
            entry = None
        if not isinstance(entry, dict):
            if number == len(lines):  # cut short by an interruption: dropped, so that the
                with path.open("r+b") as handle:  # next line appended starts clean
                    handle.truncate(good)
            break
        entries.append(entry)
        good += len(line)
    return entries


class Checkpoint:
    """Finished cubes, one JSON line each, after a header naming the job; appended as they finish."""

    def __init__(self, path: str | None, header: dict[str, Any]):
        self.path = Path(path) if path else None
        self.header = header
        self.done: dict[int, int] = {}
        if self.path is None:
            return
        for entry in read_log(self.path, header):
            try:
                self.done[int(entry["cube"])] = int(entry["count"])
            except (KeyError, TypeError, ValueError):
                break  # a line cut short by an interruption: that cube is redone

    def record(
        self, index: int, count: int, join: str | None = None, cpu_seconds: float | None = None
    ) -> None:
        """One finished cube, with the join that counted it and what it cost (when known; to
        0.1 ms: a 10x10 cube takes a few ms, and hundredths summed to 60 % of the count's cost)."""
        self.done[index] = count
        if self.path is not None:
            entry = (
                {"cube": index, "count": count}
                | ({"join": join} if join else {})
                | ({"cpu_seconds": round(cpu_seconds, 4)} if cpu_seconds is not None else {})
            )
            with self.path.open("a") as handle:
                handle.write(json.dumps(entry) + "\n")


def shorten_header(header: Any) -> str:
    if not isinstance(header, dict):
        return "unknown"
    return f"{header.get('rows')}x{header.get('cols')} {header.get('rules')} {header.get('method')}"


_WORKER: dict[str, Any] = {}


def _worker_init(rows: int, cols: int, rules: str, method: str, join: str | None = None) -> None:
    # Ctrl-C reaches every process of the terminal's group; only the parent handles it
    # (it keeps the checkpoint and stops the pool), workers would just print tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER["tables"] = tables(rows, cols, rules)
    prepare(_WORKER["tables"], method, join)
    _WORKER["method"] = method
    _WORKER["join"] = join


def _worker_run(item: tuple[int, tuple[int, ...], int]) -> tuple[int, int, float]:
    index, fixed, weight = item
    began = time.process_time()  # CPU seconds: what a cube costs, whatever the load
    found = count_cube(_WORKER["tables"], _WORKER["method"], Cube(fixed, weight), _WORKER["join"])
    return index, found, time.process_time() - began


def orient(rows: int, cols: int, method: str, orientation: str = "auto") -> tuple[int, int]:
    """The grid the counter works on: count(R x C) == count(C x R), so pick the cheaper way
    (narrow rows: fewer valid rows), or the one asked for (``rows`` / ``columns``)."""
    if orientation == "rows" or (orientation == "auto" and cols <= rows):
        r, c = rows, cols
    else:
        r, c = cols, rows
    if not fits(r, c) and fits(c, r):
        r, c = c, r
    if not fits(r, c):
        raise PuzzleError(_too_big(rows, cols))
    return r, c


def default_cross_check(rows: int, cols: int) -> int:
    """Cubes recounted by a second method after a complete count when nobody says how many:
    two below 100 cells (seconds), none from 10x10 up (a recount of a big cube takes
    minutes: ``--cross-check K`` asks for it).  The command line and the service share it."""
    return 2 if rows * cols < 100 else 0


def _too_big(rows: int, cols: int) -> str:
    return (
        f"count --size counts grids up to {LARGEST}, not {rows}x{cols}: the fast "
        "counter packs a half-grid's column counts into one 64-bit word"
    )


def count_grids(
    rows: int,
    cols: int,
    rules: str = "takuzu",
    method: str = "mitm",
    jobs: int | None = None,
    checkpoint: str | None = None,
    ray_address: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    stop_after: int | None = None,
    orientation: str = "auto",
    deadline: float | None = None,
    isolate: bool = False,
) -> CountResult:
    """Count all complete ``rows x cols`` grids exactly.

    ``on_progress(done, total)`` is called as cubes finish; ``stop_after``
    stops (as an interruption would) after that many new cubes, for tests.
    ``deadline`` (a ``time.monotonic()`` value) stops the count there: the
    result is then incomplete (status ``unknown``); cubes under way stop with
    it when they run in worker processes (``isolate`` puts even ``jobs=1`` there).
    KeyboardInterrupt leaves finished cubes in ``checkpoint`` and propagates."""
    if method not in METHODS:
        raise PuzzleError(f"unknown method {method!r}; choose {' or '.join(METHODS)}")
    start = time.perf_counter()
    r, c = orient(rows, cols, method, orientation)
    t = tables(r, c, rules)
    todo = cubes(t, method)
    header = {"rows": r, "cols": c, "rules": rules, "method": method, "cubes": len(todo)}
    store = Checkpoint(checkpoint, header)
    pending = [(i, cube.rows, cube.weight) for i, cube in enumerate(todo) if i not in store.done]
    threads = 0 if ray_address else threads_for(t, method, jobs)
    in_process = threads > 0 or in_this_process(r, c, jobs, isolate)
    jobs = threads or (1 if in_process else (jobs or os.cpu_count() or 1))
    backend = (
        "ray"
        if ray_address
        else (f"{threads} threads" if threads else "local" if in_process else f"{jobs} processes")
    )
    result = CountResult(
        rows,
        cols,
        rules,
        method,
        None,
        False,
        len(todo),
        len(store.done),
        0.0,
        f"{r}x{c}",
        jobs,
        backend,
        checkpoint=checkpoint,
    )
    if on_progress:
        on_progress(len(store.done), len(todo))
    new = 0

    join = cube_join(t, method)

    def finished(index: int, count: int, seconds: float) -> bool:
        nonlocal new
        # A cube's own CPU seconds are known where it runs alone or on its own thread (Ray: none)
        store.record(index, count, join, None if ray_address else seconds)
        new += 1
        if on_progress:
            on_progress(len(store.done), len(todo))
        return stop_after is not None and new >= stop_after

    if ray_address:
        _run_ray(ray_address, r, c, rules, method, pending, finished, deadline)
    elif threads:
        _run_threads(t, pending, finished, threads, deadline)
    else:
        run_cubes(t, rules, method, pending, finished, jobs, in_process, deadline)
    result.cubes_done = len(store.done)
    result.counts = store.done
    result.complete = result.cubes_done == len(todo)
    if result.complete:
        result.count = sum(todo[i].weight * n for i, n in store.done.items())
        result.status = "counted"
    elif deadline is not None and time.monotonic() >= deadline:
        result.message = f"time limit reached after {result.cubes_done} of {len(todo)} cubes"
    result.seconds = time.perf_counter() - start
    return result


def threads_for(t: Tables, method: str, jobs: int | None) -> int:
    """Threads of this process that count the cubes, 0 for none.  Cubes joined by bucketed pair
    tests (10x10: 931 cubes of a few ms each) run on every core in this process when no number
    of processes is asked for: starting worker processes, each loading the kernels, costs more
    than such a count takes.  A thread takes one cube at a time, so a deadline or Ctrl-C stops
    the count within a cube."""
    if jobs is not None or t.rows * t.cols < 100 or cube_join(t, method) != "bucketed pair tests":
        return 0
    return os.cpu_count() or 1


def _run_threads(
    t: Tables,
    pending: Pending,
    finished: Finished,
    threads: int,
    deadline: float | None,
) -> None:
    """The ``pending`` cubes on ``threads`` threads (see threads_for), largest first."""
    if deadline is not None and time.monotonic() >= deadline:
        return
    if t.counting is None:
        from .join import JoinTables

        t.counting = JoinTables(t.rows, t.cols, t.bits, t.words)
    # bucketed pair tests join mitm cubes, whose fixed rows are the middle pair
    middles = [(a, b) for _, (a, b), _ in pending]
    counting = t.counting.lookup_threads(middles, t.eqpairs, threads)
    try:
        for x, count, seconds in counting:
            if finished(pending[x][0], count, seconds):
                return
            if deadline is not None and time.monotonic() >= deadline:
                return
    finally:
        counting.close()  # the threads stop after the cubes under way


def in_this_process(rows: int, cols: int, jobs: int | None, isolate: bool = False) -> bool:
    """Whether cubes run in this process.  Small grids are: starting workers costs more than
    their cubes.  ``jobs=1`` asks for this process too, unless ``isolate``: a big grid's cube
    can run for minutes, and only a worker process can be stopped at once by a deadline or
    Ctrl-C (compiled code does not see signals)."""
    small = rows * cols < 100
    if jobs is None:
        return small
    return jobs == 1 and (small or not isolate)


def run_cubes(
    t: Tables,
    rules: str,
    method: str,
    pending: Pending,
    finished: Finished,
    jobs: int,
    in_process: bool,
    deadline: float | None,
    join: str | None = None,
) -> None:
    """Count the ``pending`` cubes (index, rows, weight), here or in ``jobs`` worker processes,
    by ``join`` (``count_cube``; None: the method's own); ``finished(index, count, seconds)``
    returns True to stop.  Stops at ``deadline``."""
    if not in_process:
        _run_processes(jobs, t.rows, t.cols, rules, method, pending, finished, deadline, join)
        return
    prepare(t, method, join)
    for index, fixed, weight in pending:
        if deadline is not None and time.monotonic() >= deadline:
            return
        began = time.process_time()
        found = count_cube(t, method, Cube(fixed, weight), join)
        if finished(index, found, time.process_time() - began):
            return


def _worker_loop(
    tasks: Any, results: Any, rows: int, cols: int, rules: str, method: str, join: str | None = None
) -> None:
    """A counting worker: cubes from ``tasks`` until None, (index, count, seconds) to ``results``."""
    from mindgames.models.processes import exit_with_parent

    exit_with_parent()  # a count killed by SIGKILL takes its workers with it
    _worker_init(rows, cols, rules, method, join)
    while (item := tasks.get()) is not None:
        results.put(_worker_run(item))


def _run_processes(
    jobs: int,
    r: int,
    c: int,
    rules: str,
    method: str,
    pending: Pending,
    finished: Finished,
    deadline: float | None = None,
    join: str | None = None,
) -> None:
    """The cubes on ``jobs`` worker processes, fed a few at a time (so no pipe ever fills and
    nothing waits on a killed worker); stopping kills the workers, cubes under way with them."""
    import itertools
    import multiprocessing
    import queue

    fork = hasattr(os, "fork")
    if fork:  # compile (or load) the kernels once here; forked workers inherit them
        small = tables(4, 4, rules)
        count_cube(small, method, cubes(small, method)[0], join)
    context = multiprocessing.get_context("fork") if fork else multiprocessing.get_context("spawn")
    tasks, results = context.SimpleQueue(), context.Queue()
    workers = [
        context.Process(target=_worker_loop, args=(tasks, results, r, c, rules, method, join), daemon=True)
        for _ in range(min(jobs, max(1, len(pending))))
    ]
    todo = iter(pending)

    def feed(n: int) -> None:
        for item in itertools.islice(todo, n):
            tasks.put(item)

    # Ctrl-C while the workers start would leave some behind: it waits until the try.
    blocked = hasattr(signal, "pthread_sigmask")
    if blocked:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        for worker in workers:
            worker.start()
        try:
            if blocked:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
                blocked = False
            feed(2 * len(workers))
            for _ in range(len(pending)):
                while True:
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        return
                    try:
                        index, count, seconds = results.get(timeout=min(left or 1.0, 1.0))
                        break
                    except queue.Empty:
                        dead = [w.exitcode for w in workers if w.exitcode is not None]
                        if dead:
                            raise PuzzleError(
                                f"a counting worker died (exit code {dead[0]}"
                                f"{': killed' if dead[0] < 0 else ''})"
                            ) from None
                feed(1)
                if finished(index, count, seconds):
                    return
        finally:
            for worker in workers:
                if worker.pid is not None:
                    worker.kill()
            for worker in workers:
                if worker.pid is not None:
                    worker.join()
            results.close()
            tasks.close()
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _ray_task(rows: int, cols: int, rules: str, method: str, fixed: tuple[int, ...], weight: int) -> int:
    return count_cube(tables(rows, cols, rules), method, Cube(fixed, weight))


def _run_ray(
    address: str,
    r: int,
    c: int,
    rules: str,
    method: str,
    pending: Pending,
    finished: Finished,
    deadline: float | None = None,
) -> None:
    try:
        import ray
    except ImportError:
        raise PuzzleError("--ray needs Ray: pip install 'mindgames[ray]'") from None
    try:
        ray.init(
            address=None if address == "local" else address, ignore_reinit_error=True, log_to_driver=False
        )
    except Exception as error:  # noqa: BLE001 - no cluster there, a refused connection, ...
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise PuzzleError(f"--ray {address}: could not start or reach a Ray cluster ({reason})") from None
    remote = ray.remote(_ray_task)
    futures = {remote.remote(r, c, rules, method, fixed, weight): index for index, fixed, weight in pending}
    try:
        while futures:
            timeout = None if deadline is None else deadline - time.monotonic()
            if timeout is not None and timeout <= 0:
                return
            ready, _ = ray.wait(list(futures), num_returns=1, timeout=timeout)
            for ref in ready:
                index = futures.pop(ref)
                if finished(index, int(ray.get(ref)), 0.0):
                    return
    finally:
        for ref in futures:
            ray.cancel(ref, force=True)
        if address == "local":  # the Ray started for this count goes with it (its agents outlive us)
            ray.shutdown()


def recount_join(t: Tables) -> str:
    """The second method that recounts sample cubes: dfs with the middle rows fixed, except where
    cubes are counted by inclusion-exclusion (12x12 takuzu: dfs would take hours a cube), where
    the bucketed pair tests (every pair of halves with matching keys tested, nothing counted by
    inclusion-exclusion) recount them."""
    return "bucketed pair tests" if cube_join(t, "mitm") == "inclusion-exclusion, depth first" else "dfs"


@dataclass(frozen=True)
class Recount:
    """One cube counted twice: by the count (or the count's checkpoint) and by ``method``."""

    cube: int  # its index among the cubes of the job (the checkpoint's "cube")
    rows: tuple[int, ...]  # its fixed middle rows
    count: int
    recount: int
    method: str
    cpu_seconds: float
    logged: bool = False  # read from the cross-check log of an earlier run, not recounted in this one

    @property
    def agrees(self) -> bool:
        return self.count == self.recount

    def note(self) -> str:
        verdict = "equal" if self.agrees else f"DIFFERENT (count {self.count:,})"
        earlier = " (recounted earlier: from the cross-check log)" if self.logged else ""
        return f"{self.method} recount of mitm cube {self.cube} {self.rows}: {self.recount:,}, {verdict}{earlier}"

    def to_json(self) -> dict[str, Any]:
        """Its fields and ``agrees``; ``logged`` only where it is true."""
        data = asdict(self) | {"agrees": self.agrees}
        if not self.logged:
            del data["logged"]
        return data


class RecountLog:
    """A cross-check's finished recounts, one JSON line each (cube, rows, the count it was set
    beside, recount, agrees, method, CPU s) after a header naming the count; appended as they
    finish, so that a cross-check cut short resumes: a rerun with the same log recounts only
    the cubes it does not hold."""

    def __init__(self, path: str | Path | None, rows: int, cols: int, rules: str, cubes: int):
        self.path = Path(path) if path else None
        header = {"rows": rows, "cols": cols, "rules": rules, "method": "mitm", "cubes": cubes}
        self.done: dict[int, tuple[int, str, float]] = {}  # cube -> (recount, method, CPU s)
        if self.path is None:
            return
        for entry in read_log(self.path, header | {"log": "cross-check"}, "cross-check log"):
            try:
                self.done[int(entry["cube"])] = (
                    int(entry["recount"]),
                    str(entry["method"]),
                    float(entry["cpu_seconds"]),
                )
            except (KeyError, TypeError, ValueError):
                break  # a line cut short by an interruption: that cube is recounted

    def record(self, recount: Recount) -> None:
        self.done[recount.cube] = (recount.recount, recount.method, recount.cpu_seconds)
        if self.path is not None:
            with self.path.open("a") as handle:
                handle.write(json.dumps(recount.to_json() | {"rows": list(recount.rows)}) + "\n")


def check_cubes(
    rows: int,
    cols: int,
    rules: str,
    sample: int,
    seed: int = 0,
    recorded: dict[int, int] | None = None,
    jobs: int = 1,
    deadline: float | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    log: str | Path | None = None,
) -> list[Recount]:
    """Count a random sample of ``sample`` mitm cubes again by a second method (``recount_join``)
    and set each beside its first count: ``recorded`` (cube index -> count, e.g. a checkpoint's,
    so that a wrong record is caught), else a count made here by the method's own join.
    ``log`` (a ``RecountLog`` file) gets each finished recount; the sampled cubes it already
    holds (recounted by the same method) are not recounted but returned from it (``logged``).

    ``rows x cols`` is the counted orientation (``CountResult.orientation``).  The recounts run
    on ``jobs`` worker processes when ``jobs > 1`` (one 12x12 cube takes the pair tests from
    seconds to minutes); ``on_progress(done, total)`` hears each, and at ``deadline`` the cubes
    recounted by then are returned.  A recount that differs is returned too (``agrees`` False):
    it is a bug, for the caller to report."""
    import random

    t = tables(rows, cols, rules)
    todo = cubes(t, "mitm")
    second = recount_join(t)
    picked = sorted(random.Random(seed).sample(range(len(todo)), min(sample, len(todo))))
    store = RecountLog(log, rows, cols, rules, len(todo))

    def first(index: int) -> int:
        return recorded[index] if recorded is not None else count_cube(t, "mitm", todo[index])

    found = [
        Recount(i, todo[i].rows, first(i), store.done[i][0], second, store.done[i][2], logged=True)
        for i in picked
        if i in store.done and store.done[i][1] == second
    ]
    earlier = {x.cube for x in found}

    def finished(index: int, count: int, seconds: float) -> bool:
        found.append(Recount(index, todo[index].rows, first(index), count, second, round(seconds, 2)))
        store.record(found[-1])
        if on_progress:
            on_progress(len(found), len(picked))
        return False

    if on_progress:
        on_progress(len(found), len(picked))
    pending = [(i, todo[i].rows, todo[i].weight) for i in picked if i not in earlier]
    jobs = max(1, jobs)
    run_cubes(
        t,
        rules,
        "mitm",
        pending,
        finished,
        jobs,
        in_this_process(rows, cols, jobs, isolate=True),
        deadline,
        second,
    )
    return sorted(found, key=lambda r: r.cube)


def join_work(t: Tables, cube: Cube) -> int:
    """The pairs of halves a mitm cube's join tests (its cost, for estimates)."""
    from .kernels import mitm_cube

    a, b = cube.rows
    return int(mitm_cube(a, b, t.rows, t.cols, t.bits, t.spread, t.eqpairs, t.words, t.takuzu, t.field, True))


def estimate(
    rows: int,
    cols: int,
    rules: str,
    method: str,
    sample: int,
    seed: int = 0,
    jobs: int = 1,
    on_cube: Callable[[Cube, int, float], None] | None = None,
    deadline: float | None = None,
    isolate: bool = False,
    auxiliary: str | None = None,
    on_sample: Callable[[int, int], None] | None = None,
    known: dict[tuple[int, ...], tuple[int, float | None]] | None = None,
) -> dict[str, Any]:
    """Count a stratified random sample of cubes exactly (``sampling.stratified_sample``) and
    estimate the whole count with a 95 % interval (``sampling.stratified_estimate``) and the
    job's CPU time.  The separate ratio estimator takes each cube's two-row continuations as
    its auxiliary size (mitm), or with ``auxiliary`` (the checkpoint of a complete unruly count
    of the same shape; takuzu) each cube's exact unruly count; dfs cubes: the stratified mean.
    ``on_sample(n, m)`` hears how many cubes the sample takes, m of them known; ``known``
    (middle rows -> count, CPU seconds or None) holds cubes counted before (a log of an earlier
    run): a sampled cube found there is not counted again, so an interrupted estimate resumes.

    The sample runs on ``jobs`` worker processes (one takuzu 12x12 cube takes 5-30 CPU s);
    at ``deadline`` or on Ctrl-C the estimate is made from the cubes finished by then."""
    import random

    t = tables(rows, cols, rules)
    todo = cubes(t, method)
    helper, estimator = None, "stratified mean (orbit sizes)"
    if auxiliary is not None:
        if rules != "takuzu" or method != "mitm":
            raise PuzzleError(
                "--auxiliary (each cube's unruly count) serves a takuzu count by the mitm method only"
            )
        helper = read_auxiliary(auxiliary, todo, rows, cols, cubes(tables(rows, cols, "unruly"), method))
        estimator = f"stratified ratio to each cube's exact unruly count (from {auxiliary})"
    elif method == "mitm":
        helper = continuations(t.bits, t.cols, [cube.rows for cube in todo])
        estimator = "stratified ratio to each cube's two-row continuations (a size known at once)"
    small = tables(4, 4, rules)  # compile (or load) the kernels before the clock starts
    count_cube(small, method, cubes(small, method)[0])
    rng = random.Random(seed)
    picked = stratified_sample(todo, sample, rng, helper)
    counted: dict[int, int] = {}
    seconds: dict[int, float] = {}

    def finished(index: int, found: int, spent: float) -> bool:
        counted[picked[index]] = found
        seconds[picked[index]] = spent
        if on_cube is not None:
            on_cube(todo[picked[index]], found, spent)
        return False

    known = known or {}
    for cube in picked:
        if todo[cube].rows in known:
            counted[cube], spent_before = known[todo[cube].rows]
            if spent_before is not None:
                seconds[cube] = spent_before
    reused = len(counted)
    if on_sample is not None:  # the strata's minimum may take more cubes than asked for
        on_sample(len(picked), reused)
    pending = [
        (i, todo[cube].rows, todo[cube].weight) for i, cube in enumerate(picked) if cube not in counted
    ]
    in_process = in_this_process(rows, cols, jobs, isolate)
    stopped = None
    try:
        run_cubes(t, rules, method, pending, finished, jobs, in_process, deadline)
    except KeyboardInterrupt:
        stopped = "interrupted"
    if stopped is None and len(counted) < len(picked):
        stopped = "time limit reached"
    spent = sum(seconds.values())
    base = {
        "cubes": len(todo),
        "sampled": len(counted),
        "reused": reused,
        "seconds_sampled": round(spent, 3),
        "join": cube_join(t, method),
        "seed": seed,
        "estimator": estimator,
        "interval_method": "Student's t with the Welch-Satterthwaite degrees of freedom of "
        "the strata (orbit size x size class), finite-population corrected",
    }
    if not counted:
        return {
            **base,
            "status": "unknown",
            "estimated_seconds": None,
            "estimated_count": None,
            "standard_error": None,
            "interval_95": None,
            "degrees_of_freedom": None,
            "cpu_seconds_projected": None,
            "message": f"{stopped or 'stopped'} before a sampled cube was finished",
        }
    cpu = project_cpu(todo, seconds, helper)
    found = stratified_estimate(todo, counted, helper)
    message = None
    if stopped:
        message = f"{stopped}: estimated from {len(counted)} of {len(picked)} sampled cubes"
    if found["interval_95"] is None and found["estimated_count"] is not None:
        message = (
            message + "; " if message else ""
        ) + "no interval: an orbit size has fewer than 2 counted cubes"
    if found["estimated_count"] is None:
        message = (message + "; " if message else "") + "no estimate: an orbit size has no counted cube"
    return {
        **base,
        "status": "estimated" if found["estimated_count"] is not None else "unknown",
        "estimated_seconds": None if cpu is None else round(cpu / jobs, 1),
        "cpu_seconds_projected": None if cpu is None else round(cpu, 1),
        **found,
        "message": message,
    }
