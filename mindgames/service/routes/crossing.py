"""The built-in crossing puzzles: ``GET /v1/crossing/presets``, ``POST /v1/crossing/export``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from .. import kinds
from ..examples import BUSY, DOCUMENT, ERRORS, example
from ..schemas import ExportRequest
from . import Service
from .puzzles import dispatch


def router(service: Service) -> APIRouter:
    routes = APIRouter()

    @routes.get(
        "/v1/crossing/presets",
        tags=["crossing"],
        responses=example(
            {
                "presets": {
                    "missionaries-cannibals": {
                        "parameters": {"pairs": 3, "capacity": 2},
                        "bounds": {"pairs": [1, 1000], "capacity": [1, 20]},
                        "description": "...",
                        "name": "Missionaries and cannibals",
                    }
                }
            },
            "each built-in puzzle's parameters (the `params` of a request) with their defaults and "
            "allowed ranges (`bounds`, lowest and highest)",
        ),
    )
    async def crossing_presets() -> dict:
        return {"presets": kinds.crossing_presets()}

    @routes.post("/v1/crossing/export", tags=["crossing"], responses={**DOCUMENT, **ERRORS, **BUSY})
    async def crossing_export(body: ExportRequest, request: Request) -> Any:
        """The puzzle document of a built-in puzzle with its params (as `crossing export --json`).
        Built by a solver process, like every answer: a huge `params` value is a 422 naming
        the parameter and its range, and never holds up the server."""
        task = {
            "kind": "crossing",
            "action": "export",
            "puzzles": [body.puzzle],
            "params": body.params or {},
            "single": True,
        }
        return await dispatch(service, task, service.settings.max_seconds, request)

    return routes
