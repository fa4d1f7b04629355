"""``mindgames worker``: runs the jobs queued on a shared (PostgreSQL) job store, anywhere.

Any number of workers, on any machines, beside the API servers (``mindgames serve --db URL
--no-local-jobs``): each claims queued jobs (``FOR UPDATE SKIP LOCKED``), runs each in its own
capped process as a server does, appends the results as they come and renews its jobs'
leases.  A worker that vanishes (SIGKILL, the machine lost) has its jobs queued again when
their leases expire; another worker continues them after their last result.  Ctrl-C or
SIGTERM: its running jobs are queued again at once, for the others."""

from __future__ import annotations

import argparse

from ..io import UsageError
from ..options import nonnegative_int, positive_int
from .serve import add_job_run_options


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "worker",
        help="run the jobs of a shared PostgreSQL job store (beside `serve --no-local-jobs`)",
        description="Claim and run the jobs queued on a PostgreSQL job store, until stopped.",
    )
    parser.add_argument(
        "--db",
        required=True,
        metavar="URL",
        help="the job store: postgresql://USER@HOST/DB (the servers' --db)",
    )
    parser.add_argument(
        "--slots",
        type=positive_int,
        default=2,
        metavar="N",
        help="jobs running at once, one process each (default 2)",
    )
    parser.add_argument(
        "--job-memory-mb",
        type=nonnegative_int,
        default=2048,
        metavar="MB",
        help="address-space cap of each job process (default 2048; 0: no cap)",
    )
    add_job_run_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..service.jobs import store_problem
    from ..service.store import is_url
    from ..service.store_postgres import redacted

    if not is_url(args.db):
        raise UsageError(
            f"--db {args.db}: a worker needs a shared job store, postgresql://...; "
            "a SQLite file's jobs are run by its server (mindgames serve)"
        )
    problem = store_problem(args.db)
    if problem is not None:
        raise UsageError(problem)
    import asyncio

    print(f"mindgames: worker running {args.slots} job(s) at once from {redacted(args.db)}", flush=True)
    try:
        asyncio.run(work(args))
    except KeyboardInterrupt:
        pass
    return 0


async def work(args: argparse.Namespace) -> None:
    """Run the job runner until SIGINT or SIGTERM, then hand its jobs back to the queue."""
    import asyncio
    import signal

    from ..service.jobs import JobRunner, open_store

    store = open_store(args.db)
    runner = JobRunner(
        store,
        args.slots,
        args.max_job_seconds,
        args.job_memory_mb,
        retention_days=0.0,  # the API servers expire finished jobs
        lease_seconds=args.lease_seconds,
        role="worker",
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    await runner.start()
    try:
        await stop.wait()
    finally:
        await runner.close()
        store.close()
