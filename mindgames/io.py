"""Input, output and progress for the command line, shared by every kind."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

MAX_INPUT_BYTES = 256 * 1024 * 1024
#: bytes read at a time from an input read as it comes
READ_BLOCK = 1 << 20


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


#: FILE that is no file but a puzzle site's link (``https://...``, ``puzz.link/p?...``) or a
#: game ID (``3x3:...``, ``8x8u:...``): read as the puzzle's text
_LINK_OR_ID = re.compile(r"^(?:https?://|[\w-]+(?:\.[\w-]+)+/\S*\?|\d+(?:x\d+)?[a-z\d]*[:#])")


def open_input(source: str) -> tuple[BinaryIO, str]:
    """FILE opened for reading bytes, or standard input for ``-``, and its name for
    messages; UsageError if it cannot be read."""
    if source == "-":
        return sys.stdin.buffer, "standard input"
    path = Path(source)
    if path.is_dir():
        raise UsageError(f"{source}: is a directory, not a puzzle file")
    try:
        return path.open("rb"), source
    except FileNotFoundError:
        if _LINK_OR_ID.match(source):  # a pasted link or game ID: the puzzle itself
            return io.BytesIO(source.encode()), "the argument"
        raise UsageError(f"{source}: no such file") from None
    except PermissionError:
        raise UsageError(f"{source}: permission denied") from None
    except OSError as error:
        raise UsageError(f"{source}: cannot read ({error.strerror or error})") from None


def _text(data: bytes, name: str, offset: int, first: bool) -> str:
    """``data`` (read at ``offset``) as text; UsageError naming the offset if it is no text."""
    nul = data.find(b"\0")
    if nul >= 0:
        raise UsageError(f"{name}: not a text file (a NUL byte at offset {offset + nul})")
    try:
        return data.decode("utf-8-sig" if first else "utf-8")  # a byte-order mark only at the start
    except UnicodeDecodeError as error:
        raise UsageError(
            f"{name}: not a UTF-8 text file (byte 0x{data[error.start]:02x} at offset {offset + error.start})"
        ) from None


def read_text(source: str) -> str:
    """The text of FILE, or of standard input for ``-``; UsageError if it is no text."""
    handle, name = open_input(source)
    try:
        data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise UsageError(f"{source}: cannot read ({error.strerror or error})") from None
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()
    if len(data) > MAX_INPUT_BYTES:
        raise UsageError(f"{name}: larger than {MAX_INPUT_BYTES // 2**20} MiB")
    text = _text(data, name, 0, first=True)
    if not text.strip():
        raise UsageError(f"{name}: empty, no puzzle in it")
    return text


class InputLines:
    """The lines of FILE or of standard input (``-``), read as they are asked for, line
    ends kept: a long input is never held whole.  Opening fails at once (UsageError);
    bytes that are no text, a line longer than :data:`MAX_INPUT_BYTES`, or an input with
    nothing but whitespace raise UsageError where they are met.

    ``max_bytes``: a limit on the whole input (for a reader that holds it whole).
    ``bytes_read`` counts the bytes read so far and ``size`` is the file's (None for a
    pipe): what a progress bar shows for a collection read as it comes."""

    def __init__(self, source: str, max_bytes: int | None = None):
        self.handle, self.name = open_input(source)
        self.max_bytes = max_bytes
        self.bytes_read = 0
        self.size: int | None = None
        with contextlib.suppress(OSError):
            info = os.fstat(self.handle.fileno())
            self.size = info.st_size if stat.S_ISREG(info.st_mode) else None

    def __iter__(self) -> Iterator[str]:
        handle, name = self.handle, self.name
        read = getattr(handle, "read1", handle.read)  # what has come, not a full block: a pipe streams
        pending = bytearray()  # the start of a line whose end has not come yet
        seen_text = False
        try:
            while True:
                try:
                    block = read(READ_BLOCK)
                except OSError as error:
                    raise UsageError(f"{name}: cannot read ({error.strerror or error})") from None
                end = block.rfind(b"\n") + 1 if block else len(block)  # whole lines; at the end, the rest
                if block and not end:
                    pending += block
                    if len(pending) > MAX_INPUT_BYTES:
                        raise UsageError(f"{name}: a line longer than {MAX_INPUT_BYTES // 2**20} MiB")
                    continue
                data = bytes(pending) + block[:end] if pending else block[:end]
                pending = bytearray(block[end:])
                if data:
                    text = _text(data, name, self.bytes_read, first=not self.bytes_read)
                    self.bytes_read += len(data)
                    if self.max_bytes is not None and self.bytes_read > self.max_bytes:
                        raise UsageError(f"{name}: larger than {self.max_bytes // 2**20} MiB")
                    seen_text = seen_text or bool(text.strip())
                    yield from text.splitlines(keepends=True)
                if not block:
                    break
        finally:
            if handle is not sys.stdin.buffer:
                handle.close()
        if not seen_text:
            raise UsageError(f"{name}: empty, no puzzle in it")


def json_line(record: dict[str, Any]) -> str:
    """``record`` as one compact line of JSON, newline included."""
    return _compact(record) + "\n"


#: ``json.dumps(value, separators=(",", ":"))`` without building an encoder per call
_compact = json.JSONEncoder(separators=(",", ":")).encode


def emit_json(record: dict[str, Any]) -> None:
    """One JSON object per line, flushed so results stream in input order."""
    sys.stdout.write(json_line(record))
    sys.stdout.flush()


def stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


@contextmanager
def progress(
    total: int | None, description: str, elapsed: bool = True, in_bytes: bool = False
) -> Iterator[Any]:
    """A progress bar on stderr when stderr is a terminal; a silent stand-in otherwise.

    ``elapsed`` adds the time spent so far (for steps that take minutes each);
    ``in_bytes``: the bar counts bytes of the input (of ``total``, None when its
    size is not known) and shows a percentage, for a collection read as it comes.
    Yields an object with ``advance(n=1)``, ``update(completed=..., total=...)``
    and ``visible`` (False: nothing is shown, so nothing need be computed for it)."""
    if not sys.stderr.isatty():
        yield _Silent()
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = [
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn() if in_bytes else MofNCompleteColumn(),
    ]
    columns += [TimeElapsedColumn()] if elapsed else []
    bar = Progress(
        *columns,
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        redirect_stdout=sys.stdout.isatty(),
        redirect_stderr=False,
    )
    with bar:
        task = bar.add_task(description, total=total)
        yield _Bar(bar, task)


class _Silent:
    visible = False

    def advance(self, n: int = 1) -> None:
        pass

    def update(self, **fields: Any) -> None:
        pass


class _Bar:
    visible = True

    def __init__(self, bar: Any, task: Any):
        self.bar, self.task = bar, task

    def advance(self, n: int = 1) -> None:
        self.bar.advance(self.task, n)

    def update(self, **fields: Any) -> None:
        self.bar.update(self.task, **fields)
