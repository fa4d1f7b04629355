"""``mindgames compare`` for people and spreadsheets: the table and the CSV of the rows.

The rows and the summary themselves are data, computed by :mod:`mindgames.models.compare`
(which also gives them as JSON, for ``--json`` and the service)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from mindgames.models import compare
from mindgames.models.compare import Row

#: the CSV columns, in order (``stats`` is one column of ``name=value`` pairs)
CSV_COLUMNS = ("index", "engine", "status", "answer", "seconds", "limit_reached", "stats")


def stats_text(stats: dict[str, int]) -> str:
    """An engine's search counters as ``name=value`` pairs: ``nodes=12 backtracks=3``."""
    return " ".join(f"{name}={value}" for name, value in stats.items())


def _columns(header: Sequence[str], lines: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *lines)]
    return [
        "  ".join(str(cell).ljust(width) for cell, width in zip(line, widths)).rstrip()
        for line in [header, *lines]
    ]


def table(rows: Sequence[Row], engines: Sequence[str], interrupted: bool = False) -> str:
    """Per puzzle and engine, then the summary per engine, then the agreement line."""
    lines = [
        [str(row.index + 1), row.engine, row.answer, f"{row.seconds:.4f}", stats_text(row.stats)]
        for row in rows
    ]
    text = _columns(["puzzle", "engine", "answer", "seconds", "work"], lines)
    summary = [
        [
            s.engine,
            f"{s.answered}/{s.puzzles}",
            f"{s.median_seconds:.4f}",
            f"{s.total_seconds:.4f}",
            s.vs_baseline or "-",
        ]
        for s in compare.summarize(rows, engines)
    ]
    header = ["engine", "answered", "median s", "total s", f"vs {compare.baseline_of(engines)}"]
    text += [""] + _columns(header, summary)
    text += ["", compare.agreement_line(rows)]
    if interrupted:
        text.append("interrupted: the table holds what finished")
    return "\n".join(text)


def csv_text(rows: Sequence[Row]) -> str:
    """:data:`CSV_COLUMNS`, one line per puzzle and engine (``index`` from 0, as in JSON)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        writer.writerow(
            [
                row.index,
                row.engine,
                row.status,
                row.answer,
                f"{row.seconds:.6f}",
                str(row.limit_reached).lower(),
                stats_text(row.stats),
            ]
        )
    return out.getvalue()
