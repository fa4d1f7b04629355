"""Sudoku benchmark: every engine and two pure-Python peers, in one run.

    python3 -m benchmarks.sudoku [--sets ...] [--sample N] [--peer-sample N]
                                 [--backtrack-sample N] [--cap S] [--out benchmarks/sudoku.md]

For each set of ../shared/data/sudoku/ (and a generated 25x25 set) it
measures puzzles per second for

* our engines through :class:`mindgames.models.runner.PuzzleSolver`, exactly as the
  library and CLI use them: ``solve`` (one solution, verified) and ``check``
  (solve + uniqueness, every witness verified).  The first puzzle's session is
  built before the clock starts (that one-time build is reported apart); any
  other shape's cost is on the clock (jigsaw: each puzzle has its own layout);
* ``backtrack`` the same way but on a small subset with a per-puzzle time
  cap; a capped puzzle counts the cap as its time, so its rate is an upper
  bound (and the speed-up over it a lower bound);
* the peers: the Norvig-style solver of :mod:`benchmarks.norvig` and
  ``dlxsudoku`` (PyPI), given the puzzle text as their users would.

Times are per puzzle (``time.perf_counter`` around each call), so speed-up
ratios are taken over exactly the same puzzles.  Parsing is not timed for
our engines (puzzles are parsed once up front; its rate is reported).
Answers are checked outside the clock: against the published solutions where
a set has them, and peers' grids with :func:`mindgames.models.sudoku.verify`.

The tables are written between markers in ``--out`` so that prose around
them survives a rerun.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import signal
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mindgames.models import sudoku
from mindgames.models.runner import PuzzleSolver

from . import generate, norvig

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "sudoku"
START, END = "<!-- results:start -->", "<!-- results:end -->"
Grid = list[list[int]]


# ---------------------------------------------------------------------------
# The sets
# ---------------------------------------------------------------------------
@dataclass
class Item:
    """One puzzle: its text (as the peers take it), parsed form, and known solution."""

    text: str
    puzzle: sudoku.Sudoku
    expected: Grid | None = None
    regions: str | None = None  # jigsaw region labels, row-major


@dataclass(frozen=True)
class SetSpec:
    name: str
    file: str | None  # under DATA; None for a generated set
    solutions: str | None = None  # a file with one solution per line
    jigsaw: bool = False  # lines: <puzzle> <regions> <solution>


SETS = {
    spec.name: spec
    for spec in (
        SetSpec("17clue", "17clue_royle_49158.txt"),
        SetSpec("top1465", "magictour_top1465.txt"),
        SetSpec("top95", "magictour_top95.txt"),
        SetSpec("forum_hardest", "forum_hardest_1106.txt"),
        SetSpec("norvig_hardest", "norvig_hardest.txt"),
        SetSpec("printable_25clue", "printable_25clue_1000.txt", "printable_25clue_1000_solutions.txt"),
        SetSpec("sudoku16_janko", "sudoku16_janko_62.txt", "sudoku16_janko_62_solutions.txt"),
        SetSpec("jigsaw9_janko", "jigsaw9_janko_66.txt", jigsaw=True),
        SetSpec("generated25", None),
    )
}
GENERATED25 = dict(count=10, blank=0.55, seed=25)  # 25x25: 55% of the cells blank


def grid_of(text: str) -> Grid:
    values = [sudoku.symbol_value(ch) for ch in text]
    n = round(len(values) ** 0.5)
    return [values[r * n : (r + 1) * n] for r in range(n)]


def load(spec: SetSpec) -> list[Item]:
    """Every puzzle of a set, parsed, with its known solution if the set has them."""
    if spec.file is None:
        made = generate.puzzles(5, 5, GENERATED25["count"], GENERATED25["blank"], GENERATED25["seed"])
        return [Item(sudoku.to_line(p), sudoku.make_puzzle(p, box=(5, 5)), None) for p, _full in made]
    lines = [l for l in (DATA / spec.file).read_text().split("\n") if l.strip()]
    if spec.jigsaw:
        items = []
        for line in lines:
            text, regions, solution = line.split()
            items.append(Item(text, sudoku.parse_line(f"{text} {regions}"), grid_of(solution), regions))
        return items
    solutions = (
        [l.strip() for l in (DATA / spec.solutions).read_text().split("\n") if l.strip()]
        if spec.solutions
        else [None] * len(lines)
    )
    return [
        Item(line.strip(), sudoku.parse_line(line.strip()), grid_of(sol) if sol else None)
        for line, sol in zip(lines, solutions)
    ]


def sample(count: int, size: int | None, seed: int) -> list[int]:
    """A fixed-seed sample of indices (all of them when ``size`` is None or large enough)."""
    if size is None or size >= count:
        return list(range(count))
    return sorted(random.Random(seed).sample(range(count), size))


# ---------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------
@dataclass
class Run:
    """Per-puzzle times and outcomes of one solver in one mode on one set."""

    solver: str
    mode: str  # solve | check
    indices: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)  # wall clock
    cpu: list[float] = field(default_factory=list)  # this process's CPU time
    capped: int = 0  # puzzles stopped by the time cap
    wrong: int = 0  # answers differing from the known solution or failing verify
    other: dict[str, int] = field(default_factory=dict)  # statuses besides the expected one
    build: float = 0.0  # one-time preparation (compile + engine session) before timing

    def rate(self, subset: Iterable[int] | None = None, clock: str = "wall") -> float:
        """Puzzles per second (wall or CPU time), over all puzzles or a subset of indices."""
        times = self.seconds if clock == "wall" else self.cpu
        if subset is None:
            total, n = sum(times), len(times)
        else:
            wanted = set(subset)
            picked = [s for i, s in zip(self.indices, times) if i in wanted]
            total, n = sum(picked), len(picked)
        return n / total if total > 0 else float("nan")

    def note(self, status: str) -> None:
        self.other[status] = self.other.get(status, 0) + 1


class Progress:
    """A rich progress bar on a terminal's stderr; silence otherwise."""

    def __init__(self, enabled: bool):
        self.bar = None
        if enabled:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as Bar

            self.bar = Bar(
                TextColumn("{task.description:<36}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task("", total=1)

    def begin(self, description: str, total: int) -> None:
        if self.bar:
            self.bar.reset(self.task, description=description, total=total)

    def step(self) -> None:
        if self.bar:
            self.bar.advance(self.task)

    def close(self) -> None:
        if self.bar:
            self.bar.stop()


def run_engine(
    engine: str,
    mode: str,
    items: list[Item],
    indices: list[int],
    cap: float | None,
    progress: Progress,
    label: str = "",
) -> Run:
    """``PuzzleSolver.solve`` or ``.check`` (verification included) on each puzzle, timed."""
    solver = PuzzleSolver(sudoku.SUDOKU, engine)
    run = Run(engine, mode, indices)
    start = time.perf_counter()
    # The first puzzle's model and session are built before the clock; what another
    # shape costs is on it (a jigsaw layout: its assumed literals over the shared model).
    solver.session(items[indices[0]].puzzle)
    run.build = time.perf_counter() - start
    call = solver.solve if mode == "solve" else solver.check
    progress.begin(f"{label}{engine} {mode}", len(indices))
    clock, cpu = time.perf_counter, time.process_time
    for i in indices:
        item = items[i]
        c0, t0 = cpu(), clock()
        result = call(item.puzzle, cap)
        run.seconds.append(clock() - t0)
        run.cpu.append(cpu() - c0)
        if result.status == "unknown":
            run.capped += 1
        elif result.status != "solved":
            run.note(result.status)
        elif item.expected is not None and result.solution != item.expected:
            run.wrong += 1
        if mode == "check" and result.uniqueness not in (None, "unique"):
            run.note(result.uniqueness)
        progress.step()
    return run


class _Capped(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Capped


def capped_call(function: Callable[[], Any], cap: float | None) -> tuple[Any, bool]:
    """Run pure-Python ``function`` under a wall-clock cap (SIGALRM); (result, was_capped)."""
    if cap is None:
        return function(), False
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, cap)
    try:
        return function(), False
    except _Capped:
        return None, True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def norvig_for(item: Item) -> norvig.NorvigSolver:
    if item.regions is not None:
        size = item.puzzle.size
        return norvig.jigsaw([item.regions[r * size : (r + 1) * size] for r in range(size)])
    box_rows, box_cols = item.puzzle.box
    return norvig.NorvigSolver(norvig.box_units(item.puzzle.size, box_rows, box_cols), item.puzzle.size)


def dlx_solve(item: Item) -> Grid:
    """dlxsudoku on one 9x9 puzzle: singles, then Dancing Links (which also looks for a 2nd solution)."""
    import dlxsudoku

    s = dlxsudoku.Sudoku(item.text)
    s.solve()
    return s._matrix


def run_peer(
    name: str,
    items: list[Item],
    indices: list[int],
    cap: float | None,
    progress: Progress,
    label: str = "",
) -> Run | None:
    """A peer solver, timed per puzzle; None when it cannot take this set's puzzles."""
    first = items[indices[0]].puzzle
    if name == "dlxsudoku":
        if first.regions is not None or first.size != 9:
            # No regions; and its box_iter() hard-codes 3x3 boxes, so 16x16 fails.
            return None
        solve_one: Callable[[Item], Grid | None] = dlx_solve
    else:
        solvers: dict[Any, norvig.NorvigSolver] = {}

        def solve_one(item: Item) -> Grid | None:
            key = item.regions or item.puzzle.box
            if key not in solvers:  # the essay builds units and peers once, at import
                solvers[key] = norvig_for(item)
            return solvers[key].solve(item.text)

        first = items[indices[0]]  # its units and peers before the clock, as for our engines
        solvers[first.regions or first.puzzle.box] = norvig_for(first)
    run = Run(name, "solve", indices)
    progress.begin(f"{label}{name} solve", len(indices))
    clock, cpu = time.perf_counter, time.process_time
    for i in indices:
        item = items[i]
        c0, t0 = cpu(), clock()
        try:
            grid, was_capped = capped_call(lambda: solve_one(item), cap)
        except Exception as error:  # e.g. dlxsudoku's "multiple solutions" errors
            grid, was_capped = None, False
            run.note(type(error).__name__)
        run.seconds.append(clock() - t0)
        run.cpu.append(cpu() - c0)
        if was_capped:
            run.capped += 1
        elif grid is not None:
            if sudoku.verify(item.puzzle, grid) or (item.expected and grid != item.expected):
                run.wrong += 1
        progress.step()
    return run


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------
def fmt_rate(rate: float) -> str:
    if rate != rate:  # nan
        return "-"
    return f"{rate:,.0f}" if rate >= 10 else f"{rate:.2f}"


def fmt_ratio(ratio: float) -> str:
    if ratio != ratio:
        return "-"
    return f"{ratio:,.0f}x" if ratio >= 10 else f"{ratio:.1f}x"


def flags(run: Run) -> str:
    parts = []
    if run.capped:
        parts.append(f"{run.capped} capped")
    if run.wrong:
        parts.append(f"{run.wrong} WRONG")
    parts += [f"{n} {status}" for status, n in sorted(run.other.items())]
    return f" ({', '.join(parts)})" if parts else ""


def report(results: dict[str, dict[str, Any]], args: argparse.Namespace, meta: dict[str, str]) -> str:
    lines = [
        f"Command: `{meta['command']}`",
        "",
        f"Machine: {meta['machine']}",
        f"Load average (1/5/15 min) at start {meta['load_start']}, at end {meta['load_end']}; "
        f"wall time {meta['wall']}.",
        "",
    ]
    for clock, title in (
        ("wall", "Puzzles per second, wall clock (verification included)"),
        ("cpu", "Puzzles per second, CPU time of this process (the same runs)"),
    ):
        lines += [
            f"### {title}",
            "",
            "| set | puzzles (set: all / peers / backtrack) | sat solve | sat check | cpsat solve "
            "| cpsat check | backtrack solve | backtrack check | Norvig solve | dlxsudoku solve |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for name, r in results.items():
            runs: dict[str, Run] = r["runs"]

            def cell(key: str) -> str:
                run = runs.get(key)
                return "n/a" if run is None else fmt_rate(run.rate(clock=clock)) + flags(run)

            counts = f"{r['total']:,}: {len(r['all'])} / {len(r['peers'])} / {len(r['backtrack'])}"
            lines.append(
                f"| {name} | {counts} | {cell('sat solve')} | {cell('sat check')} "
                f"| {cell('cpsat solve')} | {cell('cpsat check')} | {cell('backtrack solve')} "
                f"| {cell('backtrack check')} | {cell('norvig solve')} | {cell('dlxsudoku solve')} |"
            )
        lines.append("")
    lines += [
        "### Speed-ups of `sat`, on the same puzzles (CPU time, robust to other load)",
        "",
        "| set | solve vs backtrack | check vs backtrack check | solve vs Norvig | check vs Norvig solve "
        "| solve vs dlxsudoku | cpsat solve: x slower than sat | cpsat check: x slower | one-time build sat / cpsat (s) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        runs = r["runs"]

        def ratio(fast: str, slow: str, subset: str) -> float:
            if fast not in runs or slow not in runs or runs[slow] is None:
                return float("nan")
            return runs[fast].rate(r[subset], "cpu") / runs[slow].rate(r[subset], "cpu")

        build = " / ".join(f"{runs[k].build:.2f}" if k in runs else "-" for k in ("sat solve", "cpsat solve"))
        lines.append(
            f"| {name} | {fmt_ratio(ratio('sat solve', 'backtrack solve', 'backtrack'))} "
            f"| {fmt_ratio(ratio('sat check', 'backtrack check', 'backtrack'))} "
            f"| {fmt_ratio(ratio('sat solve', 'norvig solve', 'peers'))} "
            f"| {fmt_ratio(ratio('sat check', 'norvig solve', 'peers'))} "
            f"| {fmt_ratio(ratio('sat solve', 'dlxsudoku solve', 'peers'))} "
            f"| {fmt_ratio(ratio('sat solve', 'cpsat solve', 'peers'))} "
            f"| {fmt_ratio(ratio('sat check', 'cpsat check', 'peers'))} | {build} |"
        )
    lines += [
        "",
        f"Parsing (not in the rates above): {meta['parse']}.",
        f"Samples: fixed seed {args.seed}; `sat` runs on {'every puzzle' if args.sample is None else f'up to {args.sample} puzzles'} of a set, "
        f"`cpsat` and the peers on up to {args.peer_sample} of those, `backtrack` on up to "
        f"{args.backtrack_sample} of those with a {args.cap:g} s cap per puzzle (a capped puzzle counts "
        f"{args.cap:g} s: its rate is an upper bound). Peers are capped at {args.peer_cap:g} s per puzzle.",
        '"WRONG" would flag an answer differing from the published solution or failing `verify`.',
    ]
    return "\n".join(lines)


def write(out: Path, table: str) -> None:
    """Put ``table`` between the markers of ``out`` (creating it if needed)."""
    block = f"{START}\n{table}\n{END}"
    if out.exists():
        text = out.read_text()
        if START in text and END in text:
            text = re.sub(re.escape(START) + ".*?" + re.escape(END), lambda _m: block, text, flags=re.S)
        else:
            text = text.rstrip() + "\n\n" + block + "\n"
    else:
        text = f"# Sudoku benchmark\n\n{block}\n"
    out.write_text(text)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    from importlib.metadata import version

    libs = ", ".join(f"{p} {version(p)}" for p in ("python-sat", "ortools", "dlxsudoku"))
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {libs}"


def load_average() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def profile(engine: str, items: list[Item], indices: list[int], top: int = 14) -> None:
    """Where the time of ``solve`` and ``check`` goes, end to end (runner, engine, decode, verify)."""
    import cProfile
    import pstats

    for mode in ("solve", "check"):
        solver = PuzzleSolver(sudoku.SUDOKU, engine)
        solver.session(items[indices[0]].puzzle)
        call = solver.solve if mode == "solve" else solver.check
        profiler = cProfile.Profile()
        profiler.enable()
        for i in indices:
            call(items[i].puzzle)
        profiler.disable()
        print(f"\n## {engine} {mode}, {len(indices)} puzzles (cProfile adds overhead to Python calls)")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.sudoku", description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS))
    parser.add_argument("--sample", type=int, default=None, help="puzzles per set for sat (default: all)")
    parser.add_argument(
        "--peer-sample", type=int, default=300, help="puzzles per set for cpsat and the peers"
    )
    parser.add_argument("--backtrack-sample", type=int, default=10, help="puzzles per set for backtrack")
    parser.add_argument("--cap", type=float, default=2.0, help="backtrack's time cap per puzzle, seconds")
    parser.add_argument("--peer-cap", type=float, default=10.0, help="peers' time cap per puzzle, seconds")
    parser.add_argument("--engines", nargs="*", default=["sat", "cpsat", "backtrack"])
    parser.add_argument("--peers", nargs="*", default=["norvig", "dlxsudoku"])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=None, help="markdown file to write the tables into")
    parser.add_argument(
        "--profile",
        metavar="ENGINE",
        default=None,
        help="instead of the benchmark: cProfile ENGINE's solve and check on the first set's sample",
    )
    args = parser.parse_args(argv)

    needs_data = [s for s in args.sets if SETS[s].file is not None]
    if needs_data and not DATA.is_dir():
        print(f"skipped: {DATA} is absent (the shared data sets live there)", file=sys.stderr)
        args.sets = [s for s in args.sets if s not in needs_data]
        if not args.sets:
            return 0
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))  # Norvig's recursive propagation
    if args.profile:
        items = load(SETS[args.sets[0]])
        profile(args.profile, items, sample(len(items), args.sample, args.seed))
        return 0
    meta = {
        "command": "python3 -m benchmarks.sudoku " + " ".join(sys.argv[1:] if argv is None else argv),
        "machine": machine(),
        "load_start": load_average(),
    }
    progress = Progress(sys.stderr.isatty())
    results: dict[str, dict[str, Any]] = {}
    parse_seconds, parsed = 0.0, 0
    wall = time.perf_counter()
    try:
        for name in args.sets:
            t0 = time.perf_counter()
            items = load(SETS[name])
            if SETS[name].file:
                parse_seconds += time.perf_counter() - t0
                parsed += len(items)
            everyone = sample(len(items), args.sample, args.seed)
            peers = [everyone[i] for i in sample(len(everyone), args.peer_sample, args.seed)]
            slow = [peers[i] for i in sample(len(peers), args.backtrack_sample, args.seed)]
            r = results[name] = {
                "total": len(items),
                "all": everyone,
                "peers": peers,
                "backtrack": slow,
                "runs": {},
            }
            for engine in args.engines:
                indices = {"sat": everyone, "backtrack": slow}.get(engine, peers)
                cap = args.cap if engine == "backtrack" else None
                for mode in ("solve", "check"):
                    run = run_engine(engine, mode, items, indices, cap, progress, f"{name}: ")
                    r["runs"][f"{engine} {mode}"] = run
                    print(
                        f"{name:>16} {engine:>9} {mode}: {fmt_rate(run.rate())}/s{flags(run)}",
                        file=sys.stderr,
                    )
            for peer in args.peers:
                run = run_peer(peer, items, peers, args.peer_cap, progress, f"{name}: ")
                if run is not None:
                    r["runs"][f"{peer} solve"] = run
                    print(
                        f"{name:>16} {peer:>9} solve: {fmt_rate(run.rate())}/s{flags(run)}", file=sys.stderr
                    )
            if args.out:  # after every set, so that an interrupted run keeps what it measured
                write(args.out, finish(results, args, meta, wall, parse_seconds, parsed, partial=True))
    finally:
        progress.close()
    table = finish(results, args, meta, wall, parse_seconds, parsed)
    print(table)
    if args.out:
        write(args.out, table)
    return 0


def finish(
    results: dict[str, dict[str, Any]],
    args: argparse.Namespace,
    meta: dict[str, str],
    wall: float,
    parse_seconds: float,
    parsed: int,
    partial: bool = False,
) -> str:
    """The report so far (``partial``: the run is still going)."""
    meta["wall"] = f"{time.perf_counter() - wall:.0f} s" + (" so far, run in progress" if partial else "")
    meta["load_end"] = load_average()
    meta["parse"] = (
        f"{parsed:,} puzzles in {parse_seconds:.2f} s, {parsed / parse_seconds:,.0f}/s (with loading the files)"
        if parsed
        else "-"
    )
    return report(results, args, meta)


if __name__ == "__main__":
    raise SystemExit(main())
