"""Input, output and progress for the command line, shared by every kind."""

from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

MAX_INPUT_BYTES = 256 * 1024 * 1024


def seconds_left(time_limit: float | None, since: float) -> float | None:
    """What remains of ``time_limit`` seconds counted from ``since`` (a ``time.perf_counter()``)."""
    if time_limit is None:
        return None
    return max(0.0, time_limit - (time.perf_counter() - since))


class UsageError(Exception):
    """Unusable arguments or an unreadable file: exit code 2."""


def fail(message: str, code: int = 2) -> int:
    print(f"mindgames: error: {message}", file=sys.stderr)
    return code


def read_text(source: str) -> str:
    """The text of FILE, or of standard input for ``-``; UsageError if it is no text."""
    name = "standard input" if source == "-" else source
    try:
        if source == "-":
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            path = Path(source)
            if path.is_dir():
                raise UsageError(f"{source}: is a directory, not a puzzle file")
            with path.open("rb") as handle:
                data = handle.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise UsageError(f"{source}: no such file") from None
    except PermissionError:
        raise UsageError(f"{source}: permission denied") from None
    except OSError as error:
        raise UsageError(f"{source}: cannot read ({error.strerror or error})") from None
    if len(data) > MAX_INPUT_BYTES:
        raise UsageError(f"{name}: larger than {MAX_INPUT_BYTES // 2**20} MiB")
    nul = data.find(b"\0")
    if nul >= 0:
        raise UsageError(f"{name}: not a text file (a NUL byte at offset {nul})")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UsageError(
            f"{name}: not a UTF-8 text file (byte 0x{data[error.start]:02x} at offset {error.start})"
        ) from None
    if not text.strip():
        raise UsageError(f"{name}: empty, no puzzle in it")
    return text


def json_line(record: dict[str, Any]) -> str:
    """``record`` as one compact line of JSON, newline included."""
    return json.dumps(record, separators=(",", ":")) + "\n"


def emit_json(record: dict[str, Any]) -> None:
    """One JSON object per line, flushed so results stream in input order."""
    sys.stdout.write(json_line(record))
    sys.stdout.flush()


def stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


@contextmanager
def progress(total: int | None, description: str, elapsed: bool = True) -> Iterator[Any]:
    """A progress bar on stderr when stderr is a terminal; a silent stand-in otherwise.

    ``elapsed`` adds the time spent so far (for steps that take minutes each).
    Yields an object with ``advance(n=1)`` and ``update(completed=..., total=...)``."""
    if not sys.stderr.isatty():
        yield _Silent()
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn()]
    columns += [TimeElapsedColumn()] if elapsed else []
    bar = Progress(
        *columns, TimeRemainingColumn(),
        console=Console(stderr=True), transient=True,
        redirect_stdout=sys.stdout.isatty(), redirect_stderr=False,
    )
    with bar:
        task = bar.add_task(description, total=total)
        yield _Bar(bar, task)


class _Silent:
    def advance(self, n: int = 1) -> None:
        pass

    def update(self, **fields: Any) -> None:
        pass


class _Bar:
    def __init__(self, bar: Any, task: Any):
        self.bar, self.task = bar, task

    def advance(self, n: int = 1) -> None:
        self.bar.advance(self.task, n)

    def update(self, **fields: Any) -> None:
        self.bar.update(self.task, **fields)
