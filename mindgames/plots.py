"""``mindgames compare --plot``: the comparison's rows drawn with matplotlib (SVG or PNG).

A collection is a cactus plot (puzzles answered vs time, one line per engine); one puzzle
is bars of time and work, one per engine."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mindgames.models.compare import Row

PLOT_FORMATS = (".svg", ".png")


def plot(rows: Sequence[Row], engines: Sequence[str], path: str | Path, title: str = "") -> None:
    """A cactus plot for several puzzles, bars of time and work for one; SVG or PNG by extension."""
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    path = Path(path)
    if path.suffix.lower() not in PLOT_FORMATS:
        raise ValueError(f"{path}: a plot is .svg or .png")
    puzzles = {row.index for row in rows}
    if len(puzzles) > 1:
        figure, axes = plt.subplots(figsize=(7, 4.5))
        _cactus(axes, rows, engines)
    else:
        figure, (time_axes, work_axes) = plt.subplots(1, 2, figsize=(9, 4))
        _bars(time_axes, work_axes, rows, engines)
    if title:
        figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, format=path.suffix.lower()[1:])
    plt.close(figure)


def _cactus(axes: Any, rows: Sequence[Row], engines: Sequence[str]) -> None:
    """Puzzles answered (y) within a time limit (x, log scale), one line per engine."""
    for engine in engines:
        times = sorted(
            row.seconds
            for row in rows
            if row.engine == engine and not row.limit_reached and row.status != "invalid"
        )
        axes.step(
            [max(t, 1e-5) for t in times], range(1, len(times) + 1), where="post", marker=".", label=engine
        )
    axes.set_xscale("log")
    axes.set_xlabel("time limit per puzzle (s)")
    axes.set_ylabel("puzzles answered")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()


def work_of(row: Row) -> int:
    """One number for an engine's work: values tried, decisions, branches, states expanded."""
    for name in ("nodes", "decisions", "branches", "expanded", "states"):
        if name in row.stats:
            return row.stats[name]
    return 0


def _bars(time_axes: Any, work_axes: Any, rows: Sequence[Row], engines: Sequence[str]) -> None:
    shown = [row for engine in engines for row in rows if row.engine == engine]
    names = [row.engine for row in shown]
    time_axes.bar(names, [max(row.seconds, 1e-6) for row in shown], color="tab:blue")
    time_axes.set_yscale("log")
    time_axes.set_ylabel("seconds")
    time_axes.set_title("time")
    counted = [row for row in shown if row.stats]  # crossings on a model have no counters
    work_axes.bar(
        [row.engine for row in counted], [max(work_of(row), 1) for row in counted], color="tab:orange"
    )
    work_axes.set_yscale("log")
    work_axes.set_ylabel("nodes / decisions / branches / states")
    work_axes.set_title("work")
