"""Sudoku Explainer calibration: mindgames' rating against SE's on the 87 SE-rated puzzles.

python -m benchmarks.rating [TSV]     # default: ../shared/data/sudoku/se_rated_87.tsv

Prints Spearman's rank correlation of ER, the fractions within 0.3 and 1.0 of SE's ER, EP
and ED agreement, and per grade the SE ranges of its puzzles (the grades must not overlap).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from mindgames.models.sudoku import SUDOKU
from mindgames.models.sudoku.rating import rate
from mindgames.models.sudoku.techniques import GRADE_NAMES, grade_of

DEFAULT = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "sudoku" / "se_rated_87.tsv"


def ranks(values: list[float]) -> list[float]:
    """Average ranks (ties share the mean of their places), as Spearman's coefficient needs."""
    order = sorted(range(len(values)), key=values.__getitem__)
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            result[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(first: list[float], second: list[float]) -> float:
    """Pearson's correlation of the ranks."""
    a, b = ranks(first), ranks(second)
    mean_a, mean_b = sum(a) / len(a), sum(b) / len(b)
    cov = sum((x - mean_a) * (y - mean_b) for x, y in zip(a, b))
    var_a = sum((x - mean_a) ** 2 for x in a)
    var_b = sum((y - mean_b) ** 2 for y in b)
    return cov / (var_a * var_b) ** 0.5


def read_rated(path: Path) -> list[tuple[str, float, float, float]]:
    """(puzzle, ER, EP, ED) of each line of an SE-rated TSV (header first)."""
    rows = []
    for line in path.read_text().splitlines()[1:]:
        puzzle, er, ep, ed = line.split("\t")[:4]
        rows.append((puzzle, float(er), float(ep), float(ed)))
    return rows


def calibrate(path: Path, below: float | None = None) -> dict:
    """Ours beside SE's for every puzzle of ``path`` (``below``: only those SE rates lower):
    the figures the table prints."""
    rows = [row for row in read_rated(path) if below is None or row[1] < below]
    ours = []
    start = time.perf_counter()
    for puzzle, *_ in rows:
        rated = rate(SUDOKU.parse_value(puzzle))
        ours.append((rated.er, rated.ep, rated.ed))
    seconds = time.perf_counter() - start
    se_er = [row[1] for row in rows]
    our_er = [o[0] for o in ours]
    errors = [abs(a - b) for a, b in zip(our_er, se_er)]
    return {
        "puzzles": len(rows),
        "seconds": seconds,
        "spearman": spearman(our_er, se_er),
        "within_0.3": sum(e <= 0.3 + 1e-9 for e in errors) / len(rows),
        "within_1.0": sum(e <= 1.0 + 1e-9 for e in errors) / len(rows),
        "ep_within_0.3": sum(abs(o[1] - r[2]) <= 0.3 + 1e-9 for o, r in zip(ours, rows)) / len(rows),
        "ed_within_0.3": sum(abs(o[2] - r[3]) <= 0.3 + 1e-9 for o, r in zip(ours, rows)) / len(rows),
        "pairs": list(zip(se_er, our_er)),
    }


def main(path: Path) -> None:
    figures = calibrate(path)
    print(f"{path.name}: {figures['puzzles']} puzzles, {figures['seconds']:.1f} s")
    print("| measure | value |\n| --- | --- |")
    print(f"| Spearman (ER) | {figures['spearman']:.3f} |")
    for key in ("within_0.3", "within_1.0", "ep_within_0.3", "ed_within_0.3"):
        print(f"| {key.replace('_', ' ')} | {figures[key]:.0%} |")
    print()
    print("| grade | puzzles | SE ER range | ours range |\n| --- | --- | --- | --- |")
    by_grade: dict[int, list[tuple[float, float]]] = {}
    for se, ours in figures["pairs"]:
        by_grade.setdefault(grade_of(ours), []).append((se, ours))
    for level in sorted(by_grade):
        pairs = by_grade[level]
        se_values = [p[0] for p in pairs]
        our_values = [p[1] for p in pairs]
        print(
            f"| {level} {GRADE_NAMES[level]} | {len(pairs)} | {min(se_values):.1f}-{max(se_values):.1f} "
            f"| {min(our_values):.1f}-{max(our_values):.1f} |"
        )
    misses = [(se, ours) for se, ours in figures["pairs"] if abs(se - ours) > 0.3 + 1e-9]
    print(f"\noff by more than 0.3 (SE, ours): {sorted(misses)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT)
