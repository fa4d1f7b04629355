"""``--jobs N``: the puzzles of one grid command answered by N worker processes.

Each worker is a fresh interpreter (``python -P -m mindgames.commands.grid_jobs``,
started in the code's own directory, so nothing is imported from the user's
working directory) with its own :class:`PuzzleSolver`.  The parent only reads and
writes: it cuts the input into units as it reads it (``kind.units``: for Sudoku the
raw lines, not parsed), sends chunks of them, gets back each chunk's output already
written (parsed, answered, verified and written as text or JSON lines by the worker,
with the same functions as one process), and writes the chunks in input order as
they arrive.  At most a few chunks per worker are read, in flight or waiting for an
earlier one, so memory stays bounded however long the input is.  Workers
ignore Ctrl-C: the parent stops them all; a worker also stops when the parent's
end of its socket closes (the parent died).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import os
import sys
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mindgames.models.kind import GridKind

from ..io import json_line
from .answering import answer, print_result

# What starting and talking to workers takes (~10 ms of imports) is imported when a worker
# is started: a command answered in one process (one puzzle, say) never needs it.
if TYPE_CHECKING:
    import subprocess
    from multiprocessing.connection import Connection

#: below this many puzzles the default is one process (starting workers costs ~0.5 s)
AUTO_JOBS_FROM = 500
#: puzzles per chunk at most; fewer when that would leave a worker without work
CHUNK_PUZZLES = 100
#: chunks sent but not yet written, per worker (what bounds memory)
CHUNKS_PER_WORKER = 3
#: chunks a worker holds at once: the next one waits in its socket while it answers one,
#: so it never idles for the round trip to the parent
QUEUED_PER_WORKER = 2


class WorkerDied(Exception):
    """A worker process ended before answering its chunk."""


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def job_count(requested: int | None, puzzles: int) -> int:
    """Worker processes for ``puzzles`` puzzles: ``--jobs`` as given (never more than
    there are puzzles); by default all cores for a large input, else one process."""
    if requested is None:
        requested = cores() if puzzles >= AUTO_JOBS_FROM else 1
    return max(1, min(requested, puzzles))


# -- the worker ----------------------------------------------------------------------------------


def chunk_output(
    solver: Any, kind: GridKind, first: int, units: list[Any], args: argparse.Namespace, color: bool
) -> str:
    """What one process would print for these units of the input, numbered from ``first``
    (text or JSON lines)."""
    if args.json:
        return "".join(
            json_line(answer(solver, kind, kind.parse_unit(unit), args, index, args.time_limit).to_json())
            for index, unit in enumerate(units, first)
        )
    written = io.StringIO()
    with contextlib.redirect_stdout(written):
        for index, unit in enumerate(units, first):
            item = kind.parse_unit(unit)
            result = answer(solver, kind, item, args, index, args.time_limit)
            print_result(kind, result, item.puzzle, args.action, color, numbered=True, args=args)
    return written.getvalue()


def worker_main(conn: Connection) -> None:
    """Read the command's settings, then answer chunks until told to stop (None) or the
    parent's end closes.  An exception is sent back for the parent to raise as its own."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    from mindgames.models.processes import exit_with_parent

    exit_with_parent()  # a command killed by SIGKILL takes its workers with it
    from mindgames.models.registry import get_kind
    from mindgames.models.runner import PuzzleSolver

    try:
        args, color = conn.recv()
        kind = get_kind(args.kind)
        solver = PuzzleSolver(kind, args.engine)
        while (task := conn.recv()) is not None:
            number, first, units = task
            try:
                output: Any = chunk_output(solver, kind, first, units, args, color)
            except Exception as error:  # noqa: BLE001 - raised again in the parent
                output = error if picklable(error) else RuntimeError(f"{type(error).__name__}: {error}")
            conn.send((number, output))
    except (EOFError, OSError):
        return


def picklable(error: BaseException) -> bool:
    import pickle

    try:
        pickle.loads(pickle.dumps(error))
        return True
    except Exception:  # noqa: BLE001
        return False


# -- the parent ----------------------------------------------------------------------------------


@dataclass(eq=False)
class Worker:
    process: subprocess.Popen
    conn: Connection
    chunks: deque[int] = field(default_factory=deque)  # the chunks sent to it, in order

    @property
    def busy(self) -> bool:
        """Whether it has a chunk to answer."""
        return bool(self.chunks)

    @property
    def full(self) -> bool:
        """Whether it holds as many chunks as it may."""
        return len(self.chunks) >= QUEUED_PER_WORKER


def start_worker(args: argparse.Namespace, color: bool) -> Worker:
    import socket
    import subprocess
    from multiprocessing.connection import Connection

    from ..service.settings import child_command, child_cwd, child_env

    here, there = socket.socketpair()
    process = subprocess.Popen(
        child_command("mindgames.commands.grid_jobs", str(there.fileno())),
        pass_fds=[there.fileno()],
        stdin=subprocess.DEVNULL,
        env=child_env(),
        cwd=child_cwd(),
    )
    there.close()
    worker = Worker(process, Connection(here.detach()))
    settings = argparse.Namespace(**{key: value for key, value in vars(args).items() if key != "func"})
    worker.conn.send((settings, color))
    return worker


@contextlib.contextmanager
def worker_pool(args: argparse.Namespace, color: bool, jobs: int) -> Iterator[list[Worker]]:
    """``jobs`` workers started for this command; on the way out, every one is stopped."""
    workers: list[Worker] = []
    try:
        for _ in range(jobs):
            workers.append(start_worker(args, color))
        yield workers
        for worker in workers:  # done: each ends on its own (a dead one is stopped below)
            with contextlib.suppress(OSError):
                worker.conn.send(None)
    finally:
        stop(workers)


def chunk_size(puzzles: int | None, jobs: int) -> int:
    """Puzzles per chunk: :data:`CHUNK_PUZZLES`, fewer when that would leave a worker without
    work (``puzzles`` None: a long input read as it comes)."""
    if puzzles is None:
        return CHUNK_PUZZLES
    return max(1, min(CHUNK_PUZZLES, -(-puzzles // (jobs * CHUNKS_PER_WORKER))))


def answer_in_workers(
    units: Iterator[Any],
    puzzles: int | None,
    workers: list[Worker],
    write: Callable[[str], None],
    written: Callable[[int], None],
) -> None:
    """Answer the ``units`` of the input (``puzzles`` of them; None: not known) in ``workers``,
    taking them as they come; ``write(text)`` each chunk's output in input order, then tell
    ``written(puzzles)``.  Raises :class:`WorkerDied` if a worker dies, the worker's own
    exception if answering raised one."""
    from multiprocessing.connection import wait

    jobs = len(workers)
    size = chunk_size(puzzles, jobs)
    numbered = enumerate(units)
    sent = 0  # chunks handed out
    done_reading = False
    unreadable: Exception | None = None  # what reading the input raised
    written_count = 0  # chunks written, in order
    done: dict[int, str] = {}  # answered chunks waiting for an earlier one
    ranges: dict[int, tuple[int, int]] = {}  # chunk -> its first puzzle and how many, until written
    while not done_reading or written_count < sent:
        for worker in QUEUED_PER_WORKER * workers:  # hand out work by rounds, within the window
            if worker.full or done_reading or sent - written_count >= jobs * CHUNKS_PER_WORKER:
                continue
            try:
                chunk = list(itertools.islice(numbered, size))
            except Exception as error:  # noqa: BLE001 - the input went wrong (a bad header, no text)
                unreadable, chunk = error, []  # raised once the chunks before it are written
            if not chunk:
                done_reading = True
                break
            first = chunk[0][0]
            ranges[sent] = (first, len(chunk))
            try:
                worker.conn.send((sent, first, [unit for _, unit in chunk]))
            except OSError:  # BrokenPipeError too: never mistaken for `| head` closing stdout
                code = worker.process.wait()
                raise WorkerDied(
                    f"a worker process died (exit code {code}) before answering "
                    f"puzzles {number_range(ranges[sent])}"
                ) from None
            worker.chunks.append(sent)
            sent += 1
        busy = [w.conn for w in workers if w.busy]
        for conn in wait(busy) if busy else ():
            worker = next(w for w in workers if w.conn is conn)
            try:
                number, output = conn.recv()
            except (EOFError, OSError):
                code = worker.process.wait()
                raise WorkerDied(
                    f"a worker process died (exit code {code}) while answering "
                    f"puzzles {number_range(ranges[worker.chunks[0]])}"
                ) from None
            worker.chunks.popleft()
            if isinstance(output, Exception):
                raise output
            done[number] = output
        while written_count in done:
            write(done.pop(written_count))
            written(ranges.pop(written_count)[1])
            written_count += 1
    if unreadable is not None:
        raise unreadable


def number_range(chunk: tuple[int, int]) -> str:
    """The puzzles of a chunk (its first index, how many), numbered from 1 as the output numbers them."""
    first, count = chunk
    return f"{first + 1}-{first + count}"


def stop(workers: list[Worker]) -> None:
    """Every worker ended and reaped: none survives the command."""
    import subprocess

    for worker in workers:
        worker.conn.close()
        if worker.process.poll() is None:
            try:
                worker.process.wait(timeout=0.5 if not worker.busy else 0)
            except subprocess.TimeoutExpired:
                pass
        if worker.process.poll() is None:
            worker.process.kill()
            worker.process.wait()


__all__ = ["AUTO_JOBS_FROM", "WorkerDied", "answer_in_workers", "job_count", "worker_pool"]


if __name__ == "__main__":
    from multiprocessing.connection import Connection

    worker_main(Connection(int(sys.argv[1])))
