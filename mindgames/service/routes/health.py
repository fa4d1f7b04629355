"""``/healthz`` (GET and HEAD) and ``GET /v1/kinds``: what the server is and can do."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from mindgames.solver import engine_names

from ... import __version__
from .. import kinds
from ..examples import example
from ..schemas import ErrorBody
from . import Service, in_thread


def router(service: Service) -> APIRouter:
    routes = APIRouter()

    @routes.head("/healthz", include_in_schema=False)
    async def healthz_head() -> Any:
        return await healthz()

    @routes.get(
        "/healthz",
        tags=["service"],
        responses={
            200: {
                "content": {
                    "application/json": {
                        "example": {
                            "status": "ok",
                            "version": __version__,
                            "solvers": {
                                "degraded": False,
                                "workers": 4,
                                "idle": 4,
                                "waiting": 0,
                                "queued": 0,
                                "respawns": 0,
                                "broken": None,
                            },
                            "jobs": {
                                "local_slots": 2,
                                "running_here": 1,
                                "store_unavailable": None,
                                "workers": [
                                    {
                                        "id": "server@host-a:4242:1f2e3d",
                                        "role": "server",
                                        "slots": 2,
                                        "running": 1,
                                        "heartbeat": 1795790100.0,
                                        "alive": True,
                                    }
                                ],
                            },
                        }
                    }
                }
            },
            503: {"model": ErrorBody, "description": "the solver processes cannot start"},
        },
    )
    async def healthz() -> Any:
        """`ok` while the solver processes work; `degraded` (still 200) while a dead one is being
        replaced; 503 `broken`, saying why, when they cannot start or the jobs database is
        gone.  Reads no database (a file check only): it answers while another process holds
        the jobs database.  `jobs`: this server's job slots, and the job runners (servers and
        `mindgames worker` processes) as of its last heartbeat on a shared PostgreSQL store."""
        pool = service.pool
        solvers = pool.status()
        broken = pool.broken or (service.store.problem() if service.store is not None else None)
        if broken:
            return JSONResponse(
                {"status": "broken", "error": broken, "version": __version__, "solvers": solvers},
                status_code=503,
            )
        status = "degraded" if solvers["degraded"] else "ok"
        return {"status": status, "version": __version__, "solvers": solvers, "jobs": jobs_summary()}

    def jobs_summary() -> dict[str, Any] | None:
        """The job runners as this server last saw them (no database read: a shared store's
        list is refreshed with each heartbeat)."""
        runner = service.runner
        if runner is None:
            return None
        seen = runner.seen if runner.store.shared else runner.workers_seen()
        return {
            "local_slots": runner.workers,
            "running_here": len(runner.running),
            "store_unavailable": runner.unavailable,
            "workers": [
                {key: worker.get(key) for key in ("id", "role", "slots", "running", "heartbeat", "alive")}
                for worker in seen
            ],
        }

    @routes.get(
        "/v1/workers",
        tags=["service"],
        responses=example(
            {
                "workers": [
                    {
                        "id": "worker@host-a:4242:1f2e3d",
                        "role": "worker",
                        "host": "host-a",
                        "pid": 4242,
                        "slots": 4,
                        "running": 2,
                        "lease_seconds": 30.0,
                        "started": 1795790000.0,
                        "heartbeat": 1795790100.0,
                        "age": 1.2,
                        "alive": True,
                    }
                ]
            },
            "every job runner seen (servers running jobs and `mindgames worker` processes), "
            "with its last heartbeat; `alive` while it is within its lease",
        ),
    )
    async def list_workers() -> dict:
        """The job runners sharing this server's job store: on SQLite this server alone; on
        PostgreSQL every API server and worker that beat within the last day."""
        return {"workers": await in_thread(service.runner.workers_seen)}

    @routes.get(
        "/v1/kinds",
        tags=["service"],
        responses=example(
            {
                "kinds": [
                    {
                        "kind": "sudoku",
                        "actions": ["solve", "check", "count"],
                        "engines": list(engine_names()),
                    }
                ],
                "engines": kinds.describe_engines(),
                "limits": service.settings.limits(),
            },
            "every kind with its actions, formats, options and engines; every engine with what "
            "it can do; the limits",
        ),
    )
    async def list_kinds() -> dict:
        return {
            "kinds": kinds.describe(),
            "engines": kinds.describe_engines(),
            "limits": service.settings.limits(),
        }

    return routes
