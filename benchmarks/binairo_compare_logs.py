"""Cubes counted twice, by different runs (and joins), must agree: compare a count's checkpoint
with per-cube logs (--estimate logs, earlier sessions' sample logs) cube by cube.

    python benchmarks/binairo_compare_logs.py data/records/binairo-12x12-takuzu-count.jsonl \\
        data/records/binairo-12x12-takuzu-estimate-log.jsonl

Prints, per pair of joins, how many cubes both counted and how many agree; exits 1 on any
disagreement.  Checkpoint lines seeded from a log (``"from"``) are not compared with that log:
they are the same count copied.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from mindgames.models.binairo.count import cubes, tables


def read_checkpoint(path: Path) -> tuple[dict, dict[tuple[int, int], dict]]:
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    todo = cubes(tables(header["rows"], header["cols"], header["rules"]), header["method"])
    found = {}
    for line in lines[1:]:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short
        found[todo[entry["cube"]].rows] = entry
    return header, found


def compare(checkpoint: Path, logs: list[Path]) -> tuple[dict, Counter, Counter, list]:
    """The cubes counted both in ``checkpoint`` and in ``logs``: (checkpoint header, cubes per
    pair of joins, equal ones per pair, disagreements as (rows, count here, count there, pair))."""
    header, counted = read_checkpoint(checkpoint)
    pairs: Counter = Counter()
    agree: Counter = Counter()
    wrong = []
    for log in logs:
        for line in log.read_text().splitlines():
            entry = json.loads(line)
            if "middle_rows" not in entry:
                continue  # a summary line
            rows = tuple(entry["middle_rows"])
            mine = counted.get(rows)
            if mine is None or mine.get("from") == log.name:
                continue
            key = (mine.get("join", "?"), entry.get("join", f"{log.name}"))
            pairs[key] += 1
            if mine["count"] == entry["count"]:
                agree[key] += 1
            else:
                wrong.append((rows, mine["count"], entry["count"], key))
    return header | {"counted": len(counted)}, pairs, agree, wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint", type=Path)
    parser.add_argument("logs", type=Path, nargs="+")
    args = parser.parse_args()
    header, pairs, agree, wrong = compare(args.checkpoint, args.logs)
    print(f"{args.checkpoint}: {header['counted']} of {header['cubes']} cubes counted")
    for (a, b), n in sorted(pairs.items()):
        print(f"  {n} cubes counted by '{a}' here and in {b}: {agree[(a, b)]} equal")
    for rows, a, b, key in wrong:
        print(f"  DISAGREE cube {list(rows)}: {a} ({key[0]}) != {b} ({key[1]})")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
