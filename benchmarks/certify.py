"""Certified uniqueness of Sudoku and Binairo: what a checked DRAT proof costs, per puzzle.

    python3 -m benchmarks.certify [--sample N] [--seed S] [--out benchmarks/certify.md]

For a random sample of each shared set (Sudoku: 17-clue, top1465,
forum-hardest; Binairo 10x10 and 14x14; sets that are absent are skipped) it
measures, per puzzle,

* the plain ``check`` (solve + uniqueness, witnesses verified) through
  :class:`mindgames.models.runner.PuzzleSolver`, the shape's session built before the
  clock starts, as ``benchmarks/sudoku.py`` does;
* ``certify_unique`` as ``PuzzleSolver.check(certify=True)`` calls it, with
  the shape's :class:`~mindgames.solver.proof.ProofBase` (its CNF and our checker loaded
  with it) built before the clock starts, like the session: the givens and the
  clause excluding the solution are added to a copy of the loaded checker;
  when unit propagation refutes that, the proof is empty (no lemma) and
  no solver runs (counted in "by propagation"); otherwise a fresh CaDiCaL
  1.5.3 solves the CNF with the givens as units, emitting DRAT (``solve``),
  the proof is taken from the solver (``proof``) and checked by our checker
  (``check``), in memory;
* ``read+check``: checking the kept files as ``mindgames certify`` does
  (reading and parsing both files included), on the same puzzles;

and the proof's size (lemmas, bytes, the lemmas in the refutation's core).
The ratio is certify / plain check, per puzzle, over the same puzzles.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pysat

from mindgames.models import binairo, sudoku
from mindgames.models.runner import PuzzleSolver
from mindgames.solver import get_engine, projection
from mindgames.solver.proof import ProofBase, certify_unique, check_proof, read_cnf, read_proof
from mindgames.solver.proof.certify import BY_PROPAGATION

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
# (kind, file under SHARED, how a line becomes a puzzle)
SETS = (
    (sudoku, "sudoku/17clue_royle_49158.txt", lambda line: sudoku.parse(line[:81])),
    (sudoku, "sudoku/magictour_top1465.txt", lambda line: sudoku.parse(line[:81])),
    (sudoku, "sudoku/forum_hardest_1106.txt", lambda line: sudoku.parse(line[:81])),
    (binairo, "binairo/binairo10.txt", lambda line: binairo.parse_one(line.split()[0])),
    (binairo, "binairo/binairo14.txt", lambda line: binairo.parse_one(line.split()[0])),
)
START, END = "<!-- results:start -->", "<!-- results:end -->"


def sample(path: Path, size: int, seed: int, parse: Callable[[str], Any]) -> list[Any]:
    lines = [line.strip() for line in path.read_text().splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    chosen = random.Random(seed).sample(lines, min(size, len(lines)))
    return [parse(line) for line in chosen]


def measure(kind: Any, puzzles: list[Any]) -> dict[str, list[float]]:
    rows: dict[str, list[float]] = {
        k: []
        for k in (
            "check",
            "certify",
            "check_cpu",
            "certify_cpu",
            "solve",
            "proof",
            "proof_check",
            "read_check",
            "lemmas",
            "core_lemmas",
            "bytes",
            "by_propagation",
        )
    }
    checker = PuzzleSolver(kind, "sat")
    sessions: dict[Any, Any] = {}
    bases: dict[Any, ProofBase] = {}
    with tempfile.TemporaryDirectory() as keep:
        for puzzle in puzzles:
            encoding, _ = checker.session(puzzle)  # built before the clock starts
            start, cpu = time.perf_counter(), time.process_time()
            result = checker.check(puzzle)
            rows["check"].append(time.perf_counter() - start)
            rows["check_cpu"].append(time.process_time() - cpu)
            assert result.uniqueness == "unique", result

            givens = kind.givens(encoding, puzzle)
            if id(encoding) not in sessions:
                sessions[id(encoding)] = get_engine("sat").prepare(encoding.model)
                bases[id(encoding)] = ProofBase(encoding.model)
                bases[id(encoding)].loaded  # built once per shape, before the clock starts
            assignment = sessions[id(encoding)].solve(givens).assignment  # untimed: the check found it
            solution = projection(encoding.model, assignment)
            start, cpu = time.perf_counter(), time.process_time()
            certificate = certify_unique(encoding.model, givens, solution, base=bases[id(encoding)])
            rows["certify"].append(time.perf_counter() - start)
            rows["certify_cpu"].append(time.process_time() - cpu)
            assert certificate.certified, certificate.reason
            for key, column in (("solve", "solve"), ("proof", "proof"), ("check", "proof_check")):
                rows[column].append(certificate.seconds[key])
            rows["by_propagation"].append(certificate.solver == BY_PROPAGATION)
            rows["lemmas"].append(certificate.lemmas)
            rows["bytes"].append(certificate.proof_bytes)

            kept = certify_unique(encoding.model, givens, solution, keep_dir=keep, base=bases[id(encoding)])
            start = time.perf_counter()
            verdict = check_proof(read_cnf(kept.files[0]), read_proof(kept.files[1]))
            rows["read_check"].append(time.perf_counter() - start)
            assert verdict.ok, verdict.reason
            rows["core_lemmas"].append(verdict.core_lemmas)
    return rows


def ms(values: list[float]) -> str:
    return f"{1000 * statistics.mean(values):.1f}"


def table(results: dict[str, dict[str, list[float]]]) -> list[str]:
    lines = [
        "| set | puzzles | plain check ms | certify ms (mean / median / max) | by propagation | solve ms "
        "| proof ms | proof check ms | read+check ms (max) | lemmas (core) | proof KB (max) "
        "| certify / check (median, max) | same, CPU time (set totals) |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for name, rows in results.items():
        ratios = [c / p for c, p in zip(rows["certify"], rows["check"])]
        # process_time ticks coarsely: compare sums over the set, not puzzle by puzzle
        cpu_ratio = sum(rows["certify_cpu"]) / max(sum(rows["check_cpu"]), 1e-9)
        lines.append(
            f"| {name} | {len(rows['check'])} | {ms(rows['check'])} "
            f"| {ms(rows['certify'])} / {1000 * statistics.median(rows['certify']):.1f} / {1000 * max(rows['certify']):.1f} "
            f"| {sum(rows['by_propagation'])} "
            f"| {ms(rows['solve'])} | {ms(rows['proof'])} | {ms(rows['proof_check'])} "
            f"| {ms(rows['read_check'])} ({1000 * max(rows['read_check']):.0f}) "
            f"| {statistics.mean(rows['lemmas']):.0f} ({statistics.mean(rows['core_lemmas']):.0f}) "
            f"| {statistics.mean(rows['bytes']) / 1024:.1f} ({max(rows['bytes']) / 1024:.1f}) "
            f"| {statistics.median(ratios):.0f}x, {max(ratios):.0f}x | {cpu_ratio:.0f}x |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=50, help="puzzles per set (default 50)")
    parser.add_argument("--seed", type=int, default=1, help="which puzzles (default 1)")
    parser.add_argument("--out", type=Path, help="write the table between the markers of this file")
    args = parser.parse_args()
    results = {}
    load_before = os.getloadavg()[0]
    for kind, name, parse in SETS:
        path = SHARED / name
        if not path.exists():
            print(f"skipped {name}: not in {SHARED}")
            continue
        puzzles = sample(path, args.sample, args.seed, parse)
        results[Path(name).stem] = measure(kind, puzzles)
    lines = [
        f"Command: `python3 -m benchmarks.certify --sample {args.sample} --seed {args.seed}"
        + (f" --out {args.out}`" if args.out else "`"),
        "",
        f"Machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"python-sat {pysat.__version__}, CaDiCaL 1.5.3, {os.cpu_count()} cores; "
        f"load average (1 min) {load_before:.1f} before the run, {os.getloadavg()[0]:.1f} after",
        "",
        *table(results),
    ]
    print("\n".join(lines))
    if args.out:
        text = args.out.read_text() if args.out.exists() else f"{START}\n{END}\n"
        before, _, rest = text.partition(START)
        _, _, after = rest.partition(END)
        args.out.write_text(before + START + "\n" + "\n".join(lines) + "\n" + END + after)


if __name__ == "__main__":
    main()
