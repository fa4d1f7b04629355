"""``--ray ADDRESS``: batches and generation runs as Ray tasks.

* ``KIND solve|check|count FILE --ray ADDRESS``: the input cut into chunks as ``--jobs`` cuts it,
  each chunk one task answered by :func:`mindgames.commands.grid_jobs.chunk_output` (the very
  function a ``--jobs`` worker runs), the outputs written in input order: the same bytes as
  ``--jobs`` (timings and solver statistics aside).  At most a few chunks per CPU of the
  cluster are read ahead, so memory stays bounded however long the input.
* ``KIND generate --out DIR --ray ADDRESS``: the run's parts as tasks
  (:func:`mindgames.commands.generate_run.make_part`), each written as it arrives.

ADDRESS: ``auto`` (the Ray cluster this machine belongs to, as ``ray start`` made it),
``local`` (start a Ray instance here, for this command), or a cluster's ``HOST:PORT`` /
``ray://HOST:PORT``.  Ctrl-C cancels the tasks not finished; a task whose node is lost is
run again by Ray (its default retries: three), and the output is as if nothing had happened;
once Ray gives a task up, the run ends with a one-line error, exit code 1
(:class:`TasksLost`).  ``ray`` is an optional extra (``mindgames[ray]``).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

from ..io import UsageError, fail

MISSING = "--ray needs Ray, which is not installed: pip install 'mindgames[ray]'"
#: chunks in flight per CPU of the cluster (what bounds memory, as CHUNKS_PER_WORKER does for --jobs)
CHUNKS_PER_CPU = 3

HELP = (
    "run on a Ray cluster: auto (the cluster this machine is part of), local (start Ray here) "
    "or HOST:PORT; output as --jobs writes it (needs mindgames[ray])"
)


class TasksLost(Exception):
    """A task that Ray gave up running: its node or worker lost more often than Ray retries."""


def lost_on_cluster(ray: Any, error: Exception, address: str) -> TasksLost | None:
    """:class:`TasksLost` when ``error`` (raised by ``ray.get``) is the cluster failing a task
    (a worker or node lost, its result lost) rather than the task's own exception, else None."""
    system_failures = (
        ray.exceptions.WorkerCrashedError,
        ray.exceptions.NodeDiedError,
        ray.exceptions.ObjectLostError,
    )
    if not isinstance(error, system_failures):
        return None
    reason = (str(error).strip().splitlines() or [""])[0]
    return TasksLost(
        f"--ray {address}: a task was lost on the cluster more often than Ray retries it "
        f"({type(error).__name__}: {reason})"
    )


def results(ray: Any, task: Any, address: str) -> Any:
    """``ray.get(task)``; :class:`TasksLost` if the cluster lost it for good."""
    try:
        return ray.get(task)
    except Exception as error:
        lost = lost_on_cluster(ray, error, address)
        if lost is None:
            raise
        raise lost from None


def add_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ray", metavar="ADDRESS", help=HELP)


def connect(address: str) -> tuple[Any, bool]:
    """The ``ray`` module, connected to ``address``, and whether this call connected it (not
    already connected in this process); UsageError in one line when it cannot be."""
    try:
        import ray
    except ImportError:
        raise UsageError(MISSING) from None
    joined = not ray.is_initialized()
    try:
        ray.init(
            address=None if address == "local" else address,
            ignore_reinit_error=True,
            log_to_driver=False,
            include_dashboard=False,
            logging_level="error",
        )
    except Exception as error:  # noqa: BLE001 - no cluster there, a refused connection, ...
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise UsageError(f"--ray {address}: could not start or reach a Ray cluster ({reason})") from None
    return ray, joined


def stop_local(ray: Any, address: str) -> None:
    """Shut down the Ray that ``local`` started, before this process ends (left to exit, an
    interrupted run left Ray's node agents running)."""
    if address == "local":
        ray.shutdown()


def cluster_cpus(ray: Any) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


# -- solve / check / count -----------------------------------------------------------------------
_SOLVERS: dict[tuple[str, str], Any] = {}  # in a Ray worker: one solver per kind and engine, kept warm


def answer_chunk(settings: argparse.Namespace, color: bool, first: int, units: list[Any]) -> str:
    """A Ray task: what a ``--jobs`` worker returns for this chunk."""
    from mindgames.models.registry import get_kind
    from mindgames.models.runner import PuzzleSolver

    from .grid_jobs import chunk_output

    kind = get_kind(settings.kind)
    key = (settings.kind, settings.engine)
    if key not in _SOLVERS:
        _SOLVERS[key] = PuzzleSolver(kind, settings.engine)
    return chunk_output(_SOLVERS[key], kind, first, units, settings, color)


def answer_on_ray(
    address: str,
    units: Iterator[Any],
    puzzles: int | None,
    args: argparse.Namespace,
    color: bool,
    write: Callable[[str], None],
    written: Callable[[int], None],
) -> None:
    """The ``units`` answered as Ray tasks, ``write(text)`` of each chunk in input order."""
    from .grid_jobs import chunk_size

    ray, joined = connect(address)
    cpus = cluster_cpus(ray)
    size = chunk_size(puzzles, cpus)
    window = cpus * CHUNKS_PER_CPU
    settings = argparse.Namespace(
        **{key: value for key, value in vars(args).items() if key not in ("func", "output")}
    )
    shared = ray.put(settings)
    remote = ray.remote(answer_chunk)
    numbered = enumerate(units)
    in_flight: dict[Any, int] = {}  # task: chunk number
    sizes: dict[int, int] = {}
    done: dict[int, str] = {}
    sent = next_to_write = 0
    reading = True
    try:
        while reading or next_to_write < sent:
            while reading and sent - next_to_write < window:
                chunk = list(itertools.islice(numbered, size))
                if not chunk:
                    reading = False
                    break
                task = remote.remote(shared, color, chunk[0][0], [unit for _, unit in chunk])
                in_flight[task] = sent
                sizes[sent] = len(chunk)
                sent += 1
            if in_flight:
                ready, _ = ray.wait(list(in_flight), num_returns=1)
                for task in ready:
                    done[in_flight.pop(task)] = results(ray, task, address)
            while next_to_write in done:
                write(done.pop(next_to_write))
                written(sizes.pop(next_to_write))
                next_to_write += 1
    finally:
        # Ctrl-C, or an error: the rest is not wanted.  A Ray started here goes whole below;
        # cancelling its tasks as well raced with its shutdown (a failed check in Ray's core).
        if not (joined and address == "local"):
            for task in in_flight:
                ray.cancel(task, force=True)
        # Left before the run's stdout is given back: Ray prints what its raylets report (a node
        # lost, seconds after) to stdout, whenever it comes; a Ray started here goes with its agents.
        if joined:
            ray.shutdown()


def run_on_ray(
    collection: Any,
    args: argparse.Namespace,
    color: bool,
    what: str,
    collection_progress: Callable[[Any, str], AbstractContextManager[Any]],
) -> int:
    """``KIND ACTION FILE --ray``: the collection answered on Ray, written as ``--jobs`` writes it
    (``collection_progress``: the grid command's bar, passed in so that this module stays below it)."""

    answers = sys.stdout

    def write(text: str) -> None:
        answers.write(text)
        answers.flush()

    # Ray prints what its raylets report (a node lost, ...) to sys.stdout: sent to stderr for
    # the run, so that the answers' stream holds answers only.
    with collection_progress(collection, f"{what} (Ray)") as bar, contextlib.redirect_stdout(sys.stderr):

        def written(puzzles: int) -> None:
            if collection.count is not None:
                bar.advance(puzzles)
            elif bar.visible:
                bar.update(completed=collection.source.bytes_read)

        try:
            answer_on_ray(args.ray, collection.units(), collection.count, args, color, write, written)
        except TasksLost as error:
            return fail(str(error), code=1)
    return 0


# -- generation runs -----------------------------------------------------------------------------
def ray_parts(
    address: str, make_part: Callable[..., Any], run: Any, kind: Any, empty: Any, engine: str, make: Any
) -> Callable[..., Any]:
    """A generation run's part maker: ``make_part`` (the run's, passed in so that this module
    stays below the run's) for each part asked for, as Ray tasks, yielded as they finish."""
    ray, _ = connect(address)
    remote = ray.remote(make_part)

    def made(numbers: list[int]) -> Iterator[tuple[int, list[dict[str, Any]], float]]:
        tasks = {
            remote.remote(kind.name, empty, run.seed, *run.span(number), engine, make): number
            for number in numbers
        }
        try:
            while tasks:
                ready, _ = ray.wait(list(tasks), num_returns=1)
                for task in ready:
                    number = tasks.pop(task)
                    records, cpu = results(ray, task, address)
                    yield number, records, cpu
        finally:
            for task in tasks:
                ray.cancel(task, force=True)
            if tasks:  # interrupted: a Ray started for this command goes now, with its agents
                stop_local(ray, address)

    return made
