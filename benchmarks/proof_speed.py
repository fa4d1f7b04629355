"""How fast our DRAT checking is: PHP(9,8) proofs against drat-trim, adversarial files,
and what ``--certify`` costs a whole ``check`` process.

    python3 -m benchmarks.proof_speed [--drat-trim PATH] [--puzzles N] [--repeat N]

* PHP(9,8) (pigeons into holes, unsatisfiable), refuted by CaDiCaL 1.5.3,
  Glucose 4 and Lingeling through python-sat (``with_proof=True``: text DRAT).
  Per proof, CPU seconds (user + system, the best of ``--repeat`` runs): the whole
  process ``mindgames certify CNF PROOF`` (Python, imports, numba's cached code,
  parsing, checking), our check in the library (parse + ``check_proof``, warm),
  and ``drat-trim CNF PROOF`` (built from its public source: ``cc -O2 -o
  drat-trim drat-trim.c``; ``--drat-trim PATH``) in its default (backward) mode
  and forward (``-f``) mode.  Ours checks large proofs backward, as drat-trim
  does by default (only the lemmas the refutation uses: "checked"); its forward
  check (every lemma, ``mode="forward"``) is timed in the library too, against
  drat-trim's ``-f``.
* numba's compile cost: the same ``mindgames certify`` run with an empty numba
  cache (``NUMBA_CACHE_DIR`` pointed at a fresh folder): paid once per machine.
* adversarial binary DRAT files of 10 MB: ``a`` then 0xFF bytes (one endless
  number), 5-byte numbers, 2-byte numbers, 3-byte steps; CPU of parsing in the
  library (numba's code loaded).
* ``mindgames sudoku check`` / ``mindgames binairo check`` of single 9x9 Sudoku
  (forum hardest) and 10x10 Binairo puzzles, whole process, with and without
  ``--certify``: CPU of each process, the ratio certify / plain per puzzle.
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

SOLVERS = ("cadical153", "glucose4", "lingeling")
DATA = Path(os.environ.get("MINDGAMES_DATA", "/work/shared/data"))


def php(pigeons: int, holes: int) -> tuple[int, list[list[int]]]:
    def var(i: int, j: int) -> int:
        return i * holes + j + 1

    clauses = [[var(i, j) for j in range(holes)] for i in range(pigeons)]
    for j in range(holes):
        for a, b in itertools.combinations(range(pigeons), 2):
            clauses.append([-var(a, j), -var(b, j)])
    return pigeons * holes, clauses


def make_proofs(folder: Path) -> Path:
    from pysat.solvers import Solver

    num_vars, clauses = php(9, 8)
    cnf = folder / "php98.cnf"
    cnf.write_text(
        f"p cnf {num_vars} {len(clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)
    )
    for name in SOLVERS:
        with Solver(name=name, bootstrap_with=clauses, with_proof=True) as engine:
            assert not engine.solve()
            lines = engine.get_proof()
        (folder / f"{name}.drat").write_text("".join(f"{line}\n" for line in lines))
    return cnf


def cpu_of(command: Sequence[str], env: dict | None = None, stdin: bytes | None = None) -> tuple[float, int]:
    """(CPU seconds of the child process, its exit code)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, input=stdin, capture_output=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.returncode


def best(command: Sequence[str], repeat: int, expect: int = 0, env: dict | None = None) -> float:
    times = []
    for _ in range(repeat):
        seconds, code = cpu_of(command, env)
        if code != expect:
            raise SystemExit(f"{' '.join(command)}: exit {code}, expected {expect}")
        times.append(seconds)
    return min(times)


def in_library(
    cnf_path: Path, proof_path: Path, repeat: int, mode: str | None = None
) -> tuple[float, object]:
    from mindgames.solver.proof import check_proof, parse_proof, read_cnf

    cnf = read_cnf(cnf_path)
    data = proof_path.read_bytes()
    check_proof(cnf, parse_proof(data), mode=mode)  # numba's code loaded
    times, result = [], None
    for _ in range(repeat):
        start = time.process_time()
        result = check_proof(cnf, parse_proof(data), mode=mode)
        times.append(time.process_time() - start)
    return min(times), result


def adversarial() -> list[tuple[str, float, str]]:
    from mindgames.solver.proof import ProofInputError, parse_proof

    size = 10 * 2**20
    files = {
        "'a' + 0xFF x 10 MB (one endless number)": b"a" + b"\xff" * size,
        "5-byte numbers (2M of them, one step)": b"a" + b"\xff\xff\xff\xff\x01" * (size // 5) + b"\x00",
        "2-byte numbers (5M, one step)": b"a" + b"\x82\x01" * (size // 2) + b"\x00",
        "3-byte steps (3.5M, over the step limit)": b"a\x04\x00" * (size // 3),
    }
    parse_proof(b"a\x02\x00" * 100_000)  # numba's code loaded
    rows = []
    for label, data in files.items():
        start = time.process_time()
        try:
            outcome = f"{parse_proof(data).lemmas:,} lemma(s)"
        except ProofInputError as error:
            outcome = f"refused: {str(error).split(': ', 1)[1][:60]}"
        rows.append((label, time.process_time() - start, outcome))
    return rows


def puzzles(path: Path, count: int, width: int) -> list[str]:
    lines = [
        line.split()[0] for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")
    ]
    return [line[:width] for line in lines[:count]]


def certify_ratios(count: int, folder: Path) -> list[tuple[str, int, float, float, float, float]]:
    mindgames = shutil.which("mindgames") or "mindgames"
    rows = []
    sets = (
        ("sudoku", "9x9 Sudoku (forum hardest)", DATA / "sudoku" / "forum_hardest_1106.txt", 81),
        ("binairo", "10x10 Binairo", DATA / "binairo" / "binairo10.txt", 100),
    )
    for game, label, source, width in sets:
        plain, certified = [], []
        for number, puzzle in enumerate(puzzles(source, count, width)):
            file = folder / f"{game}-{number}.txt"
            file.write_text(puzzle + "\n")
            plain.append(cpu_of([mindgames, game, "check", str(file)])[0])
            seconds, code = cpu_of([mindgames, game, "check", "--certify", str(file)])
            if code != 0:
                raise SystemExit(f"{game} check --certify {file}: exit {code}")
            certified.append(seconds)
        ratios = [c / p for c, p in zip(certified, plain)]
        rows.append(
            (
                label,
                len(plain),
                statistics.median(plain),
                statistics.median(certified),
                statistics.median(ratios),
                max(ratios),
            )
        )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drat-trim", default=shutil.which("drat-trim"), help="drat-trim's binary")
    parser.add_argument("--puzzles", type=int, default=10, help="puzzles per set for the certify ratios")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (the best is kept)")
    args = parser.parse_args(argv)
    mindgames = shutil.which("mindgames") or "mindgames"
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        cnf = make_proofs(folder)
        print(
            "| proof | size | lemmas (checked) | ours, whole process | ours, in the library | drat-trim "
            "| ours / drat-trim | ours forward, in the library | drat-trim -f |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for solver in SOLVERS:
            proof = folder / f"{solver}.drat"
            whole = best([mindgames, "certify", str(cnf), str(proof)], args.repeat)
            library, result = in_library(cnf, proof, args.repeat)
            forward_library, _ = in_library(cnf, proof, args.repeat, "forward")
            lemmas = f"{result.lemmas:,} ({result.checked:,})"  # type: ignore[attr-defined]
            size = f"{proof.stat().st_size / 2**20:.1f} MB"
            if args.drat_trim:
                backward = best([args.drat_trim, str(cnf), str(proof)], args.repeat)
                forward = best([args.drat_trim, str(cnf), str(proof), "-f"], args.repeat)
                tail = (
                    f"{backward:.2f} s | {whole / backward:.1f}x | {forward_library:.2f} s | {forward:.2f} s"
                )
            else:
                tail = f"- | - | {forward_library:.2f} s | -"
            print(f"| PHP(9,8), {solver} | {size} | {lemmas} | {whole:.2f} s | {library:.2f} s | {tail} |")
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            cold = best([mindgames, "certify", str(cnf), str(folder / "cadical153.drat")], 1, env=env)
        print(
            f"\nFirst run on a machine (empty numba cache), CaDiCaL's proof, whole process: {cold:.1f} s CPU"
        )
        print("\n| adversarial binary DRAT (10 MB) | parse CPU | outcome |\n|---|---:|---|")
        for label, seconds, outcome in adversarial():
            print(f"| {label} | {seconds:.2f} s | {outcome} |")
        print(
            "\n| whole process, one puzzle | puzzles | plain check CPU (median) | --certify CPU (median) "
            "| certify / plain (median, max) |\n|---|---:|---:|---:|---|"
        )
        for label, count, plain, certified, median, worst in certify_ratios(args.puzzles, folder):
            print(f"| {label} | {count} | {plain:.2f} s | {certified:.2f} s | {median:.1f}x, {worst:.1f}x |")
    print(
        f"\nLoad average (1 min): {load_before:.1f} before, {os.getloadavg()[0]:.1f} after; {os.cpu_count()} cores"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
