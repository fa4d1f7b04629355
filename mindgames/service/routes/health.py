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
from . import Service


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
                        }
                    }
                }
            },
            503: {"model": ErrorBody, "description": "the solver processes cannot start"},
        },
    )
    async def healthz() -> Any:
        """`ok` while the solver processes work; `degraded` (still 200) while a dead one is being
        replaced; 503 `broken`, saying why, when they cannot start."""
        pool = service.pool
        solvers = pool.status()
        if pool.broken:
            return JSONResponse(
                {"status": "broken", "error": pool.broken, "version": __version__, "solvers": solvers},
                status_code=503,
            )
        status = "degraded" if solvers["degraded"] else "ok"
        return {"status": status, "version": __version__, "solvers": solvers}

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
