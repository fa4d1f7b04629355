"""``--jobs N``: the puzzles of one grid command answered by N worker processes.

Each worker is a fresh interpreter (``python -P -m mindgames.commands.grid_jobs``,
started in the code's own directory, so nothing is imported from the user's
working directory) with its own :class:`PuzzleSolver`.  The parent sends chunks
of puzzles and gets back each chunk's output already written (text or JSON
lines, by the same functions as one process), and writes the chunks in input
order as they arrive.  At most a few chunks per worker are in flight or waiting
for an earlier one, so memory stays bounded however long the input is.  Workers
ignore Ctrl-C: the parent stops them all; a worker also stops when the parent's
end of its socket closes (the parent died).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import signal
import socket
import subprocess
import sys
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Iterator

from models.kind import GridKind, Parsed

from ..io import json_line
from ..service.settings import child_command, child_cwd, child_env

#: below this many puzzles the default is one process (starting workers costs ~0.5 s)
AUTO_JOBS_FROM = 500
#: puzzles per chunk at most; fewer when that would leave a worker without work
CHUNK_PUZZLES = 100
#: chunks sent but not yet written, per worker (what bounds memory)
CHUNKS_PER_WORKER = 3


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


def chunk_output(solver: Any, kind: GridKind, chunk: list[tuple[int, Parsed]],
                 args: argparse.Namespace, color: bool) -> str:
    """What one process would print for these puzzles (text or JSON lines)."""
    from .grid import answer, print_result

    written = io.StringIO()
    with contextlib.redirect_stdout(written):
        for index, item in chunk:
            result = answer(solver, kind, item, args, index, args.time_limit)
            if args.json:
                written.write(json_line(result.to_json()))
            else:
                print_result(kind, result, item.puzzle, args.action, color, numbered=True)
    return written.getvalue()


def worker_main(conn: Connection) -> None:
    """Read the command's settings, then answer chunks until told to stop (None) or the
    parent's end closes.  An exception is sent back for the parent to raise as its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    from models.registry import get_kind
    from models.runner import PuzzleSolver

    try:
        args, color = conn.recv()
        kind = get_kind(args.kind)
        solver = PuzzleSolver(kind, args.engine)
        while (task := conn.recv()) is not None:
            number, chunk = task
            try:
                output: Any = chunk_output(solver, kind, chunk, args, color)
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
    chunk: int | None = None  # the chunk it is answering

    @property
    def busy(self) -> bool:
        return self.chunk is not None


def start_worker(args: argparse.Namespace, color: bool) -> Worker:
    here, there = socket.socketpair()
    process = subprocess.Popen(
        child_command("mindgames.commands.grid_jobs", str(there.fileno())),
        pass_fds=[there.fileno()], stdin=subprocess.DEVNULL, env=child_env(), cwd=child_cwd(),
    )
    there.close()
    worker = Worker(process, Connection(here.detach()))
    settings = argparse.Namespace(**{key: value for key, value in vars(args).items() if key != "func"})
    worker.conn.send((settings, color))
    return worker


def chunks(items: list[Parsed], size: int) -> Iterator[list[tuple[int, Parsed]]]:
    for start in range(0, len(items), size):
        yield list(enumerate(items[start:start + size], start))


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


def answer_in_workers(items: list[Parsed], workers: list[Worker], write: Any, advance: Any) -> None:
    """Answer ``items`` in ``workers``; ``write(text)`` each chunk's output in input order,
    then ``advance(puzzles)``.  Raises :class:`WorkerDied` if a worker dies, the worker's
    own exception if answering raised one."""
    jobs = len(workers)
    size = max(1, min(CHUNK_PUZZLES, -(-len(items) // (jobs * CHUNKS_PER_WORKER))))
    pending = enumerate(chunks(items, size))
    sent = 0  # chunks handed out
    written = 0  # chunks written, in order
    total = -(-len(items) // size)
    done: dict[int, str] = {}  # answered chunks waiting for an earlier one
    sizes: dict[int, int] = {}
    while written < total:
        for worker in workers:  # hand out work, within the window
            if not worker.busy and sent < total and sent - written < jobs * CHUNKS_PER_WORKER:
                number, chunk = next(pending)
                sizes[number] = len(chunk)
                try:
                    worker.conn.send((number, chunk))
                except OSError:  # BrokenPipeError too: never mistaken for `| head` closing stdout
                    code = worker.process.wait()
                    raise WorkerDied(f"a worker process died (exit code {code}) before answering "
                                     f"puzzles {number_range(number, size, len(items))}") from None
                worker.chunk = number
                sent += 1
        for conn in wait([w.conn for w in workers if w.busy]):
            worker = next(w for w in workers if w.conn is conn)
            try:
                number, output = conn.recv()
            except (EOFError, OSError):
                code = worker.process.wait()
                raise WorkerDied(f"a worker process died (exit code {code}) while answering "
                                 f"puzzles {number_range(worker.chunk, size, len(items))}") from None
            worker.chunk = None
            if isinstance(output, Exception):
                raise output
            done[number] = output
        while written in done:
            write(done.pop(written))
            advance(sizes.pop(written))
            written += 1


def number_range(number: int, size: int, count: int) -> str:
    """The puzzles of chunk ``number``, numbered from 1 as the output numbers them."""
    return f"{number * size + 1}-{min(count, (number + 1) * size)}"


def stop(workers: list[Worker]) -> None:
    """Every worker ended and reaped: none survives the command."""
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
    worker_main(Connection(int(sys.argv[1])))
