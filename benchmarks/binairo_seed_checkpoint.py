"""Start a 12x12 count's checkpoint from cubes already counted exactly in benchmark logs.

The logs of benchmarks/binairo_count12.py (``--log``, ``--symmetric-log``) hold exact per-cube
counts made by the same mitm counter; writing them into a checkpoint lets

    mindgames binairo count --size 12 --checkpoint FILE --jobs 2

count only the remaining cubes.  Each seeded line names its log (``"from"``) and join, so the
final number says which cubes came from where.  A cube found in two logs must have the same count
in both (it was counted twice, possibly by different joins): a disagreement stops the script.

    python benchmarks/binairo_seed_checkpoint.py c12.jsonl data/records/binairo-12x12-takuzu-*.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from mindgames.models.binairo.count import cubes, tables


def seed(checkpoint: Path, logs: list[Path], rules: str = "takuzu") -> int:
    """Write ``checkpoint`` (a new file) from ``logs``; returns the number of cubes seeded."""
    t = tables(12, 12, rules)
    todo = cubes(t, "mitm")
    index = {cube.rows: i for i, cube in enumerate(todo)}
    found: dict[int, tuple[int, str]] = {}
    for log in logs:
        for line in log.read_text().splitlines():
            entry = json.loads(line)
            if "middle_rows" not in entry:
                continue  # a summary line
            cube = index[tuple(entry["middle_rows"])]
            if todo[cube].weight != entry["weight"]:
                sys.exit(
                    f"{log}: cube {entry['middle_rows']} has weight {todo[cube].weight}, "
                    f"not {entry['weight']}"
                )
            if cube in found and found[cube][0] != entry["count"]:
                sys.exit(
                    f"cube {entry['middle_rows']}: {found[cube][1]} says {found[cube][0]}, "
                    f"{log} says {entry['count']}"
                )
            found.setdefault(cube, (entry["count"], log.name))
    header = {"rows": 12, "cols": 12, "rules": rules, "method": "mitm", "cubes": len(todo)}
    lines = [json.dumps(header)] + [
        json.dumps({"cube": i, "count": n, "join": "inclusion-exclusion", "from": source})
        for i, (n, source) in sorted(found.items())
    ]
    checkpoint.write_text("\n".join(lines) + "\n")
    return len(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint", type=Path, help="the checkpoint to write (must not exist)")
    parser.add_argument("logs", type=Path, nargs="+", help="per-cube logs (JSON lines)")
    args = parser.parse_args()
    if args.checkpoint.exists():
        sys.exit(f"{args.checkpoint}: exists; not overwritten")
    print(f"{seed(args.checkpoint, args.logs)} cubes seeded into {args.checkpoint}")


if __name__ == "__main__":
    main()
