"""``mindgames serve``: the HTTP API and the web page (see :mod:`mindgames.service`)."""

from __future__ import annotations

import argparse

from ..io import UsageError, fail
from ..options import nonnegative_int, positive_float, positive_int


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="the HTTP API and the web page (http://127.0.0.1:8000)",
        description="Serve the API (/docs) and the web page (/). Binds to 127.0.0.1 unless "
        "--host says otherwise; any other address needs --token-file.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=nonnegative_int, default=8000, help="default 8000")
    parser.add_argument(
        "--token-file",
        metavar="FILE",
        help="a file holding the bearer token clients must send (required off loopback)",
    )
    parser.add_argument(
        "--db",
        metavar="PATH|URL",
        help="the jobs database: a SQLite file (default: $MINDGAMES_DB or "
        "~/.local/share/mindgames/jobs.sqlite3), or postgresql://... shared by several servers "
        "and `mindgames worker` processes",
    )
    parser.add_argument(
        "--max-body-bytes",
        type=positive_int,
        default=1_000_000,
        metavar="N",
        help="largest request body (default 1000000)",
    )
    parser.add_argument(
        "--max-puzzles",
        type=positive_int,
        default=1000,
        metavar="N",
        help="most puzzles per request or job (default 1000)",
    )
    parser.add_argument(
        "--max-seconds",
        type=positive_float,
        default=10.0,
        metavar="S",
        help="hard cap on one request's solving time (default 10)",
    )
    parser.add_argument(
        "--max-jobs",
        type=positive_int,
        default=32,
        metavar="N",
        help="most jobs queued or running at once (default 32)",
    )
    parser.add_argument(
        "--max-waiting",
        type=positive_int,
        default=512,
        metavar="N",
        help="most requests waiting for a solver process at once (default 512)",
    )
    parser.add_argument(
        "--max-queue-seconds",
        type=positive_float,
        default=30.0,
        metavar="S",
        help="longest a request waits for a free solver process before a 503 "
        "with Retry-After (default 30); waiting does not use its time limit",
    )
    parser.add_argument(
        "--job-workers",
        type=positive_int,
        default=2,
        metavar="N",
        help="jobs running at once, one process each (default 2)",
    )
    parser.add_argument(
        "--solver-workers",
        type=positive_int,
        metavar="N",
        help="processes answering requests (default: 2 per core, 2 to 8)",
    )
    parser.add_argument(
        "--worker-memory-mb",
        type=nonnegative_int,
        default=2048,
        metavar="MB",
        help="address-space cap of each solver process, so a huge puzzle fails "
        "alone (default 2048; 0: no cap)",
    )
    parser.add_argument(
        "--job-memory-mb",
        type=nonnegative_int,
        default=2048,
        metavar="MB",
        help="address-space cap of each job process; a job reaching it fails "
        "saying so (default 2048; 0: no cap)",
    )
    parser.add_argument(
        "--retention-days",
        type=nonnegative_float,
        default=7.0,
        metavar="DAYS",
        help="finished jobs are deleted this long after they end (default 7; 0: never)",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="also accept requests whose Host header is NAME (e.g. a proxy's public "
        "name; repeatable); by default only the bound address and localhost",
    )
    parser.add_argument(
        "--cors-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="let web pages from ORIGIN (e.g. https://example.org) call the API "
        "(repeatable; default: no cross-origin use)",
    )
    parser.add_argument(
        "--no-inline",
        dest="inline",
        action="store_false",
        help="answer every request in a solver process (default: a single small "
        "grid puzzle's solve or check, of a shape seen before, is answered in "
        "the API process within 50 ms: no hop to a solver process)",
    )
    parser.add_argument(
        "--no-local-jobs",
        dest="local_jobs",
        action="store_false",
        help="run no jobs in this server: `mindgames worker` processes on the same PostgreSQL "
        "database run them (this server still queues, lists, cancels and deletes them)",
    )
    add_job_run_options(parser)
    parser.add_argument(
        "--resume-jobs",
        action="store_true",
        help="after a restart, continue the jobs the last server left running "
        "(default: mark them interrupted, keeping their results)",
    )
    parser.add_argument(
        "--header-timeout",
        type=positive_float,
        default=30.0,
        metavar="S",
        help="close a connection whose request headers have not all arrived within S seconds "
        "(408; default 30)",
    )
    parser.add_argument(
        "--body-timeout",
        type=positive_float,
        default=120.0,
        metavar="S",
        help="close a connection whose request body has not all arrived S seconds after its "
        "headers (408; default 120)",
    )
    parser.add_argument(
        "--idle-timeout",
        type=positive_float,
        default=5.0,
        metavar="S",
        help="close a kept-alive connection idle for S seconds between requests (default 5)",
    )
    parser.add_argument(
        "--max-connections",
        type=positive_int,
        default=1000,
        metavar="N",
        help="open connections and requests at once; beyond it new requests get 503 (default 1000)",
    )
    parser.add_argument(
        "--log-level", default="warning", choices=("critical", "error", "warning", "info", "debug")
    )
    parser.set_defaults(func=run)


def add_job_run_options(parser: argparse.ArgumentParser) -> None:
    """What every job runner takes, a server's own or a worker: the time cap and the lease."""
    parser.add_argument(
        "--max-job-seconds",
        type=positive_float,
        default=3600.0,
        metavar="S",
        help="a job running longer is stopped (default 3600)",
    )
    parser.add_argument(
        "--lease-seconds",
        type=positive_float,
        default=30.0,
        metavar="S",
        help="on PostgreSQL: a running job whose runner has not renewed its lease for S seconds "
        "(the machine lost, the process killed) is queued again and continues after its last "
        "result (default 30)",
    )


def nonnegative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number >= 0")
    return value


def read_token(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            token = handle.read().strip()
    except OSError as error:
        raise UsageError(f"{path}: cannot read the token file ({error.strerror or error})") from None
    if len(token) < 16:
        raise UsageError(f"{path}: the token is too short (at least 16 characters)")
    return token


def run(args: argparse.Namespace) -> int:
    from ..service.settings import Settings, default_db, is_loopback

    token = read_token(args.token_file) if args.token_file else None
    if not is_loopback(args.host) and token is None:
        return fail(
            f"refusing to listen on {args.host}: it is not a loopback address, so anyone who can "
            f"reach it could use the server; give --token-file FILE (clients then send "
            f"'Authorization: Bearer TOKEN'), or bind to 127.0.0.1"
        )
    if args.port > 65535:
        raise UsageError(f"--port {args.port}: a port is 0..65535")
    if args.max_seconds > 3600:
        raise UsageError(f"--max-seconds {args.max_seconds:g}: at most 3600 (use a job for longer work)")
    settings = Settings(
        db=args.db or default_db(),
        token=token,
        max_body_bytes=args.max_body_bytes,
        max_puzzles=args.max_puzzles,
        max_seconds=args.max_seconds,
        max_jobs=args.max_jobs,
        max_waiting=args.max_waiting,
        max_queue_seconds=args.max_queue_seconds,
        host=args.host,
        port=args.port,
        allowed_hosts=tuple(args.allowed_host),
        cors_origins=tuple(args.cors_origin),
        job_memory_mb=args.job_memory_mb,
        retention_days=args.retention_days,
        job_workers=args.job_workers,
        max_job_seconds=args.max_job_seconds,
        resume_jobs=args.resume_jobs,
        worker_memory_mb=args.worker_memory_mb,
        inline=args.inline,
        local_jobs=args.local_jobs,
        lease_seconds=args.lease_seconds,
    )
    if args.solver_workers is not None:
        settings.solver_workers = args.solver_workers

    import uvicorn

    from ..service import create_app
    from ..service.jobs import store_problem
    from ..service.store import is_url
    from ..service.store_postgres import redacted

    if not args.local_jobs and not is_url(settings.db):
        raise UsageError(
            "--no-local-jobs: a SQLite jobs database is run by its server alone; "
            "give --db postgresql://... to let `mindgames worker` processes run the jobs"
        )
    problem = store_problem(settings.db)
    if problem is not None:
        raise UsageError(problem)
    app = create_app(settings)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    where = redacted(settings.db) if is_url(settings.db) else settings.db
    print(f"mindgames: serving http://{shown}:{args.port}/ (jobs in {where})", flush=True)
    from ..service.protocol import protocol_with_deadlines

    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        http=protocol_with_deadlines(args.header_timeout, args.body_timeout),
        timeout_keep_alive=args.idle_timeout,
        limit_concurrency=args.max_connections,
        log_level=args.log_level,
        access_log=args.log_level in ("info", "debug"),
    )
    return 0
