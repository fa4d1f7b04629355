"""Variant Sudoku benchmark: uniqueness per rule family, whole process, and the engines in process.

    python3 -m benchmarks.variants [--count N] [--families F,F] [--seed S] [--cap S]
                                   [--backtrack-count N] [--out benchmarks/variants.md]

For each rule family it makes ``--count`` 9x9 puzzles with one solution (reproducibly, from
``--seed``; not timed): a random solution, rules cut from it (a killer's cages covering the
grid, 6-10 thermometers, 6-10 arrows, every kropki dot with the negative rule...) or, for
the global rules (anti-knight, windoku...), a random solution under the rule; then every
given that can go is removed while the solution stays the only one (so most killers keep
no givens, a thermo puzzle a handful).  Then it times

* ``mindgames sudoku check -`` on each puzzle as its own process (Python start-up, reading,
  compiling, solving, the uniqueness proof by a second solution's absence, verifying: what
  a setter waits for), engine ``sat``;
* ``PuzzleSolver.check`` in process (CPU time) for ``sat`` and ``cpsat`` (the model built anew for each
  puzzle, since every puzzle has rules of its own) and for the backtracking baseline on the
  first ``--backtrack-count`` puzzles, each capped at ``--cap`` seconds (a capped puzzle
  counts the cap: its ratio is a lower bound, shown with ``>``).

The table goes to stdout and, between markers, to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from mindgames.models.generate import Generator, cells_of
from mindgames.models.runner import PuzzleSolver
from mindgames.models.sudoku import SUDOKU, Sudoku, make_puzzle
from mindgames.models.sudoku.generate import killer_cages
from mindgames.models.sudoku.variants import (
    XV,
    Arrow,
    Constraints,
    Dot,
    Line,
    LittleKiller,
    Parity,
    Sandwich,
    Thermo,
)

START, END = "<!-- results:start -->", "<!-- results:end -->"
Grid = list[list[int]]
Cell = tuple[int, int]
SIZE = 9
KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


# ---------------------------------------------------------------------------
# Rules cut from a solution (each true of it)
# ---------------------------------------------------------------------------
def walk(
    solution: Grid,
    rng: random.Random,
    used: set[Cell],
    step_ok: Callable[[list[Cell], Cell], bool],
    length: int,
) -> list[Cell]:
    """A random path of king-adjacent unused cells, each step allowed by ``step_ok``."""
    start = rng.choice([(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in used])
    path = [start]
    while len(path) < length:
        r, c = path[-1]
        options = [
            (r + dr, c + dc)
            for dr, dc in KING
            if 0 <= r + dr < SIZE
            and 0 <= c + dc < SIZE
            and (r + dr, c + dc) not in used
            and (r + dr, c + dc) not in path
        ]
        options = [cell for cell in options if step_ok(path, cell)]
        if not options:
            break
        path.append(rng.choice(options))
    return path


def thermos(solution: Grid, rng: random.Random) -> Constraints:
    used: set[Cell] = set()
    found: list[Thermo] = []
    for _ in range(200):
        if len(found) >= rng.randint(6, 10):
            break
        path = walk(
            solution,
            rng,
            used,
            lambda p, cell: solution[cell[0]][cell[1]] > solution[p[-1][0]][p[-1][1]],
            rng.randint(3, 6),
        )
        if len(path) >= 3:
            found.append(Thermo(tuple(path)))
            used.update(path)
    return Constraints(thermos=tuple(found))


def arrows(solution: Grid, rng: random.Random) -> Constraints:
    used: set[Cell] = set()
    found: list[Arrow] = []
    for _ in range(500):
        if len(found) >= 8:
            break
        circle = rng.choice(
            [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in used and solution[r][c] >= 3]
        )
        path = _arrow_path(solution, rng, used, circle, solution[circle[0]][circle[1]])
        if path:
            found.append(Arrow((circle,), tuple(path)))
            used.update(path)
            used.add(circle)
    return Constraints(arrows=tuple(found))


def _arrow_path(solution: Grid, rng: random.Random, used: set[Cell], circle: Cell, target: int) -> list[Cell]:
    """A path of 2+ king-adjacent cells from next to the circle whose digits add up to ``target``."""
    path: list[Cell] = []
    total, at = 0, circle
    for _ in range(4):
        r, c = at
        options = [
            (r + dr, c + dc)
            for dr, dc in KING
            if 0 <= r + dr < SIZE
            and 0 <= c + dc < SIZE
            and (r + dr, c + dc) not in used
            and (r + dr, c + dc) != circle
            and (r + dr, c + dc) not in path
            and total + solution[r + dr][c + dc] <= target
        ]
        if not options:
            return []
        at = rng.choice(options)
        path.append(at)
        total += solution[at[0]][at[1]]
        if total == target:
            return path if len(path) >= 2 else []
    return []


def kropki(solution: Grid, rng: random.Random) -> Constraints:
    dots = []
    for a, b in _neighbours():
        u, v = solution[a[0]][a[1]], solution[b[0]][b[1]]
        if abs(u - v) == 1 and (u * v != 2 or rng.random() < 0.5):
            dots.append(Dot((a, b), "white"))
        elif u == 2 * v or v == 2 * u:
            dots.append(Dot((a, b), "black"))
    return Constraints(dots=tuple(dots), negative_kropki=True)


def xv(solution: Grid, rng: random.Random) -> Constraints:
    marks = []
    for a, b in _neighbours():
        total = solution[a[0]][a[1]] + solution[b[0]][b[1]]
        if total in (5, 10):
            marks.append(XV((a, b), "X" if total == 10 else "V"))
    return Constraints(xv=tuple(marks), negative_xv=True)


def sandwiches(solution: Grid, rng: random.Random) -> Constraints:
    found = []
    for line in ("row", "column"):
        for index in range(SIZE):
            digits = solution[index] if line == "row" else [row[index] for row in solution]
            a, b = sorted((digits.index(1), digits.index(SIZE)))
            found.append(Sandwich(line, index, sum(digits[a + 1 : b])))
    return Constraints(sandwiches=tuple(found))


def little_killers(solution: Grid, rng: random.Random) -> Constraints:
    found = []
    starts = [(0, c) for c in range(1, SIZE - 1)] + [(r, 0) for r in range(1, SIZE - 1)]
    for r, c in rng.sample(starts, 8):
        cells = []
        while r < SIZE and c < SIZE:
            cells.append((r, c))
            r, c = r + 1, c + 1
        found.append(LittleKiller(tuple(cells), sum(solution[a][b] for a, b in cells)))
    return Constraints(little_killers=tuple(found))


def lines(solution: Grid, rng: random.Random) -> Constraints:
    used: set[Cell] = set()
    found: list[Line] = []
    for _ in range(400):
        if len(found) >= 8:
            break
        kind = rng.choice(("whisper", "renban"))
        if kind == "whisper":
            path = walk(
                solution,
                rng,
                used,
                lambda p, cell: abs(solution[cell[0]][cell[1]] - solution[p[-1][0]][p[-1][1]]) >= 5,
                rng.randint(3, 6),
            )
        else:
            path = walk(solution, rng, used, lambda p, cell: True, rng.randint(3, 4))
            digits = sorted(solution[r][c] for r, c in path)
            if digits != list(range(digits[0], digits[0] + len(digits))):
                continue
        if len(path) >= 3:
            found.append(Line(kind, tuple(path)))
            used.update(path)
    return Constraints(lines=tuple(found))


def parity(solution: Grid, rng: random.Random) -> Constraints:
    cells = rng.sample([(r, c) for r in range(SIZE) for c in range(SIZE)], 30)
    return Constraints(
        parity=tuple(Parity(cell, "odd" if solution[cell[0]][cell[1]] % 2 else "even") for cell in cells)
    )


def _neighbours() -> list[tuple[Cell, Cell]]:
    return [
        ((r, c), (r + dr, c + dc))
        for r in range(SIZE)
        for c in range(SIZE)
        for dr, dc in ((0, 1), (1, 0))
        if r + dr < SIZE and c + dc < SIZE
    ]


WINDOKU = tuple(
    tuple((r, c) for r in range(top, top + 3) for c in range(left, left + 3))
    for top in (1, 5)
    for left in (1, 5)
)

#: family -> rules cut from a classic solution, or fixed rules a solution is drawn under
CUT: dict[str, Callable[[Grid, random.Random], Constraints]] = {
    "killer": lambda solution, rng: Constraints(cages=killer_cages(solution, rng)),
    "thermo": thermos,
    "arrow": arrows,
    "kropki (negative)": kropki,
    "XV (negative)": xv,
    "sandwich": sandwiches,
    "little killer": little_killers,
    "whisper + renban": lines,
    "even/odd": parity,
}
FIXED: dict[str, Constraints] = {
    "anti-knight": Constraints(anti_knight=True),
    "anti-king": Constraints(anti_king=True),
    "non-consecutive": Constraints(non_consecutive=True),
    "disjoint groups": Constraints(disjoint_groups=True),
    "windoku": Constraints(extra_regions=WINDOKU),
}


def make_puzzles(family: str, count: int, seed: int) -> list[tuple[Sudoku, Grid]]:
    """``count`` unique puzzles of the family with no removable given, and their solutions."""
    generator = Generator(SUDOKU)
    made = []
    for index in range(count):
        rng = random.Random(f"{seed}:{family}:{index}")
        if family in FIXED:
            empty = make_puzzle([[0] * SIZE] * SIZE, constraints=FIXED[family])
            solution = generator.random_solution(empty, rng)
            ruled = empty
        else:
            solution = generator.random_solution(make_puzzle([[0] * SIZE] * SIZE), rng)
            assert solution is not None
            ruled = make_puzzle([[0] * SIZE] * SIZE, constraints=CUT[family](solution, rng))
        assert solution is not None
        puzzle, _finished = generator.minimize(SUDOKU.with_givens(ruled, cells_of(solution)), rng)
        made.append((puzzle, solution))
    return made


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------
def whole_process(puzzle: Sudoku) -> tuple[float, float, str]:
    """Wall and CPU seconds (user + system) of ``mindgames sudoku check -`` on the puzzle,
    start to exit, and its answer.  The CPU time is what the process itself costs: on a
    machine shared with other work, the wall time also counts the waiting."""
    text = json.dumps(SUDOKU.to_json(puzzle))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mindgames", "sudoku", "check", "--json", "-"],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    answer = json.loads(done.stdout.splitlines()[-1]).get("uniqueness") if done.stdout else done.stderr[-200:]
    return seconds, cpu, str(answer)


def in_process(engine: str, puzzles: list[Sudoku], cap: float | None) -> tuple[list[float], int]:
    """CPU seconds of ``PuzzleSolver.check`` per puzzle (a fresh solver for each: its own rules;
    every engine here runs on one thread), and how many hit the cap (a capped one counts the cap)."""
    seconds, capped = [], 0
    for puzzle in puzzles:
        solver = PuzzleSolver(SUDOKU, engine)
        start = time.process_time()
        result = solver.check(puzzle, cap)
        elapsed = time.process_time() - start
        if result.uniqueness is None:  # no answer in time (or a first solution, then none)
            assert result.status in ("unknown", "solved"), (engine, result.status)
            capped += 1
            elapsed = cap or elapsed
        else:
            assert result.uniqueness == "unique", (engine, result.status, result.uniqueness)
        seconds.append(elapsed)
    return seconds, capped


def rules_in(puzzle: Sudoku) -> int:
    c = puzzle.constraints
    counted = len(c.cages) + len(c.little_killers) + len(c.sandwiches) + len(c.thermos) + len(c.arrows)
    counted += (
        len(c.dots) + len(c.xv) + len(c.lines) + len(c.parity) + len(c.extra_regions) + len(c.candidates)
    )
    flags = (
        c.anti_knight,
        c.anti_king,
        c.non_consecutive,
        c.disjoint_groups,
        c.negative_kropki,
        c.negative_xv,
    )
    return counted + sum(flags)


def fmt(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10, help="puzzles per family (default 10)")
    parser.add_argument("--families", default=",".join([*CUT, *FIXED]), help="comma-separated families")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=float, default=10.0, help="backtrack's seconds per puzzle (default 10)")
    parser.add_argument(
        "--backtrack-count", type=int, default=3, help="puzzles per family for backtrack (default 3)"
    )
    parser.add_argument("--out", type=Path, default=None, help="also write the table between markers here")
    args = parser.parse_args(argv)
    rows = []
    for family in args.families.split(","):
        made = make_puzzles(family, args.count, args.seed)
        puzzles = [puzzle for puzzle, _solution in made]
        process = [whole_process(puzzle) for puzzle in puzzles]
        assert all(answer == "unique" for _wall, _cpu, answer in process), (family, process)
        sat, _ = in_process("sat", puzzles, None)
        cpsat, _ = in_process("cpsat", puzzles, None)
        few = puzzles[: args.backtrack_count]
        back, capped = in_process("backtrack", few, args.cap)
        sat_few = sum(sat[: len(few)])
        ratio = f"{'>' if capped else ''}{sum(back) / sat_few:.0f}x" if sat_few else "-"
        whole = [wall for wall, _cpu, _answer in process]
        whole_cpu = [cpu for _wall, cpu, _answer in process]
        rows.append(
            f"| {family} | {len(puzzles)} | {statistics.median(rules_in(p) for p in puzzles):.0f} "
            f"| {statistics.median(len(SUDOKU.given_cells(p)) for p in puzzles):.0f} "
            f"| {fmt(statistics.median(whole))} | {fmt(max(whole))} | {fmt(statistics.median(whole_cpu))} "
            f"| {fmt(statistics.median(sat))} | {fmt(statistics.median(cpsat))} "
            f"| {len(few) - capped}/{len(few)} in {fmt(args.cap)} | {ratio} |"
        )
        print(rows[-1], flush=True)
    header = (
        "| family | puzzles | rules (median) | givens (median) | whole process, sat: wall median | wall max "
        "| CPU median | in process (CPU): sat | cpsat | backtrack solved | backtrack / sat |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|"
    )
    try:
        load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "?"
    table = (
        f"{header}\n"
        + "\n".join(rows)
        + f"\n\n9x9, seed {args.seed}, `python -m benchmarks.variants --count {args.count}`; "
        f"{platform.python_version()}, {os.cpu_count()} cores, load average {load} at the end.\n"
    )
    print(table)
    if args.out is not None:
        text = args.out.read_text() if args.out.exists() else "# Variant Sudoku benchmark\n\n"
        block = f"{START}\n{table}{END}"
        if START in text and END in text:
            text = text[: text.index(START)] + block + text[text.index(END) + len(END) :]
        else:
            text = text.rstrip() + "\n\n" + block + "\n"
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
