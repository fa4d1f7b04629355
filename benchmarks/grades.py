"""Grade distributions of Sudoku collections by the deduction ladder (models.sudoku.techniques).

python -m benchmarks.grades FILE [N]     # the first N puzzles (default 100)
"""

from __future__ import annotations

import collections
import sys
import time

from mindgames.models.sudoku import SUDOKU
from mindgames.models.sudoku.ladder import grade
from mindgames.models.sudoku.techniques import GRADE_NAMES


def main(path: str, how_many: int = 100) -> None:
    lines = [line.strip() for line in open(path) if line.strip() and not line.startswith("#")]
    counts: collections.Counter[int] = collections.Counter()
    start = time.perf_counter()
    for line in lines[:how_many]:
        counts[grade(SUDOKU.parse_value(line.split()[0]))[0]] += 1
    seconds = time.perf_counter() - start
    total = sum(counts.values())
    mean = sum(level * n for level, n in counts.items()) / total
    print(f"{path}: {total} puzzles, {seconds:.1f} s, mean grade {mean:.2f}")
    for level in sorted(GRADE_NAMES):
        print(f"  {level} {GRADE_NAMES[level]:<13} {counts[level]:>4}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100)
