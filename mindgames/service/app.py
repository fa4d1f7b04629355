"""The HTTP API and the web page: :func:`create_app`.

Every error is JSON ``{"error": message, ...}``; a broken limit also names it
(``"limit": "max_body_bytes"``).  Puzzle errors carry the library's message,
the same one the CLI prints.  Solving happens in worker processes
(:mod:`.pool`, :mod:`.jobs`), never in the event loop.  The routes live in
:mod:`.routes`, one module per concern; this module puts them together.
"""

from __future__ import annotations

import inspect
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from .. import __version__
from .errors import install_error_handlers
from .gate import Gate
from .jobs import JobRunner
from .pool import SolverPool
from .routes import Service, generate, health, jobs, pages, plans, puzzles
from .settings import Settings
from .store import open_store


def without_telemetry() -> dict:
    """FastAPI's OpenTelemetry hooks off, where this FastAPI has them (0.165 on): the server
    sets up no OpenTelemetry, yet the check whether one is configured cost 4 % of a 9x9
    solve request's CPU in the API process."""
    if "telemetry" not in inspect.signature(FastAPI.__init__).parameters:
        return {}
    return {"telemetry": {"tracing": False, "metrics": False, "logs": False}}


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    service = Service(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        store = open_store(settings.db)
        recovered = store.recover(settings.resume_jobs)
        if recovered:
            what = "queued again" if settings.resume_jobs else "marked interrupted"
            print(f"mindgames: {recovered} job(s) left running by the last server {what}", flush=True)
        store.sweep_checkpoints()
        pool = SolverPool(
            settings.solver_workers,
            settings.grace_seconds,
            settings.worker_memory_mb,
            settings.max_queue_seconds,
        )
        await pool.start()
        runner = JobRunner(
            store,
            settings.job_workers if settings.local_jobs else 0,  # 0: workers elsewhere run them
            settings.max_job_seconds,
            settings.job_memory_mb,
            settings.retention_days,
            lease_seconds=settings.lease_seconds,
        )
        await runner.start()
        service.started(store=store, pool=pool, runner=runner)
        try:
            yield
        finally:
            await runner.close()
            await pool.close()
            store.close()

    app = FastAPI(
        title="mindgames",
        version=__version__,
        description="Solve, check and count logic puzzles (Sudoku, Binairo, crossing puzzles) "
        "with real constraint engines; every solution is verified before it is returned.",
        lifespan=lifespan,
        docs_url=None,  # served by routes.pages from local files: /docs must work offline
        redoc_url=None,
        **without_telemetry(),
    )
    app.state.settings = settings
    install_error_handlers(app)
    for concern in (health, plans, puzzles, generate, jobs):
        app.include_router(concern.router(service))
    pages.install(app)
    app.add_middleware(puzzles.Express, service=service)  # inside the gate: checked requests only
    app.add_middleware(Gate, settings=settings, router=app.router)
    if settings.cors_origins:  # outermost, so it answers the browser's preflight itself
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Authorization", "Content-Type"],
        )
    return app
