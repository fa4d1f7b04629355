"""The JSON that every command prints on the bundled data, kept as the contract.

``python -m tests.snapshots`` re-records every snapshot (after an intended change
to the output, review the diff!); ``tests/test_json_contract.py`` runs every
command again and compares, so a refactoring cannot change what users read.
Timings (every key ending in ``seconds``) are left out: they are the only thing allowed to
differ from run to run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "tests" / "snapshots"

#: name -> the command's arguments after ``mindgames``; every one ends in --json.
COMMANDS: dict[str, list[str]] = {
    "sudoku-solve-seed": ["sudoku", "solve", "data/sudoku/seed.txt", "--json"],
    "sudoku-check-seed": ["sudoku", "check", "data/sudoku/seed.json", "--json"],
    "sudoku-check-seed-cpsat": ["sudoku", "check", "data/sudoku/seed.txt", "--engine", "cpsat", "--json"],
    "sudoku-count-seed": ["sudoku", "count", "data/sudoku/seed.txt", "--json"],
    "sudoku-generate-2x3": ["sudoku", "generate", "--box", "2x3", "--seed", "7", "--count", "2", "--json"],
    "sudoku-generate-x": ["sudoku", "generate", "--box", "2x2", "--diagonals", "--seed", "3", "--json"],
    "binairo-solve-6": ["binairo", "solve", "data/binairo/takuzu_6x6.txt", "--json"],
    "binairo-check-8": ["binairo", "check", "data/binairo/takuzu_8x8.txt", "--json"],
    "binairo-check-unruly": ["binairo", "check", "data/binairo/unruly_8x8.txt", "--json"],
    "binairo-count-grids-6": ["binairo", "count", "--size", "6", "--json"],
    "binairo-generate-6": ["binairo", "generate", "--size", "6", "--seed", "5", "--json"],
    "crossing-list": ["crossing", "list", "--json"],
    "crossing-wgc": ["crossing", "solve", "wolf-goat-cabbage", "--json"],
    "crossing-mc": ["crossing", "solve", "missionaries-cannibals", "--json"],
    "crossing-jh": ["crossing", "solve", "jealous-husbands", "--count-shortest", "--json"],
    "crossing-jh-unsolvable": [
        "crossing",
        "solve",
        "jealous-husbands",
        "--set",
        "return_capacity=1",
        "--json",
    ],
    "crossing-family": ["crossing", "solve", "data/crossing/dangerous-family.toml", "--json"],
    "crossing-tower": ["crossing", "solve", "queens-tower", "--json"],
    "crossing-export-mc4": ["crossing", "export", "missionaries-cannibals", "--set", "pairs=4", "--json"],
}


def without_timings(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if not k.endswith("seconds")}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def run(args: list[str]) -> list[Any]:
    """The command's JSON output, one value per line (a pretty-printed object counts as one)."""
    done = subprocess.run(
        [sys.executable, "-m", "mindgames.cli", *args, "--memory-limit", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0:
        raise RuntimeError(f"mindgames {' '.join(args)} exited {done.returncode}: {done.stderr}")
    text = done.stdout.strip()
    try:
        return [without_timings(json.loads(text))]
    except json.JSONDecodeError:
        return [without_timings(json.loads(line)) for line in text.splitlines() if line.strip()]


def path(name: str) -> Path:
    return HERE / f"{name}.json"


def record(names: list[str] | None = None) -> None:
    for name in names or list(COMMANDS):
        path(name).write_text(json.dumps(run(COMMANDS[name]), indent=1, sort_keys=True) + "\n")
        print(f"recorded {path(name).relative_to(ROOT)}")


if __name__ == "__main__":
    record(sys.argv[1:] or None)
