"""Which at-most-one encoding for big Sudoku?  The measurement behind ``PAIRWISE_LIMIT``.

    python3 -m benchmarks.amo_encodings [--box 5] [--blank 0.55] [--count 6]

For generated ``box^2 x box^2`` puzzles (see :mod:`benchmarks.generate`) it
builds the ``sat`` session with each encoding of the N-literal at-most-one
constraints (pairwise; pysat's sequential counter and bitwise) and reports
the one-time build (CNF in Python + loading CaDiCaL) and the CPU time per
solve, verification included.
"""

from __future__ import annotations

import argparse
import time
from unittest import mock

from pysat.card import CardEnc, EncType

import mindgames.solver.sat as sat
from mindgames.models import sudoku
from mindgames.models.runner import PuzzleSolver

from . import generate


def measure(encoding: str, puzzles: list[sudoku.Sudoku]) -> tuple[float, int, int, float]:
    """(build seconds, clauses, variables, CPU seconds per solve) with one AMO encoding."""
    original = CardEnc.atmost
    kind = EncType.seqcounter if encoding == "seqcounter" else EncType.bitwise

    def atmost(lits, bound, top_id, encoding):  # the encoding asked for is replaced by `kind`
        return original(lits, bound=bound, top_id=top_id, encoding=kind)

    limit = 1_000_000 if encoding == "pairwise" else 1
    with mock.patch.object(sat, "PAIRWISE_LIMIT", limit), mock.patch.object(sat.CardEnc, "atmost", atmost):
        solver = PuzzleSolver(sudoku.SUDOKU, "sat")
        start = time.perf_counter()
        _, session = solver.session(puzzles[0])
        build = time.perf_counter() - start
        cpu = time.process_time()
        for puzzle in puzzles:
            assert solver.solve(puzzle).status == "solved"
        per_solve = (time.process_time() - cpu) / len(puzzles)
    return build, session.num_clauses, session.base_top, per_solve


def main() -> None:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.amo_encodings")
    parser.add_argument("--box", type=int, default=5)
    parser.add_argument("--blank", type=float, default=0.55)
    parser.add_argument("--count", type=int, default=6)
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    made = generate.puzzles(args.box, args.box, args.count, args.blank, args.seed)
    puzzles = [sudoku.make_puzzle(p, box=(args.box, args.box)) for p, _ in made]
    sudoku.compile(sudoku.shape(puzzles[0]))  # cached per shape: not part of any build below
    n = args.box**2
    print(f"{n}x{n}, {args.count} puzzles, {args.blank:.0%} blank, seed {args.seed}")
    print("| AMO encoding | build (s) | clauses | variables | CPU s per solve |\n|---|---|---|---|---|")
    for encoding in ("pairwise", "seqcounter", "bitwise"):
        build, clauses, variables, per_solve = measure(encoding, puzzles)
        print(f"| {encoding} | {build:.2f} | {clauses:,} | {variables:,} | {per_solve:.3f} |")


if __name__ == "__main__":
    main()
