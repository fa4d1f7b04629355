"""The built-in puzzles of every plan kind: ``GET /v1/KIND/presets``, ``POST /v1/KIND/export``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from mindgames.models.kind import PlanKind

from .. import kinds
from ..examples import BUSY, ERRORS, POSTED, example
from ..schemas import ExportRequest, export_request
from . import Service
from .puzzles import dispatch


def router(service: Service) -> APIRouter:
    routes = APIRouter()
    for kind in kinds.plan_kinds():
        add_routes(routes, service, kind)
    return routes


def add_routes(routes: APIRouter, service: Service, kind: PlanKind) -> None:
    """``GET /v1/KIND/presets`` and ``POST /v1/KIND/export`` for plan kind ``kind``."""
    first = kind.preset_names()[0]
    listed = {first: {**kinds.presets_of(kind)[first], "description": "..."}}

    async def presets() -> dict:
        return {"presets": kinds.presets_of(kind)}

    async def export(body: ExportRequest, request: Request) -> Any:
        task = {
            "kind": kind.name,
            "action": "export",
            "puzzles": [body.puzzle],
            "params": body.params or {},
            "single": True,
        }
        return await dispatch(service, task, service.settings.max_seconds, request)

    # The body's model is this kind's own (its puzzle names listed in the schema): made here,
    # so given to FastAPI as the annotation itself, not as a name to look up.
    export.__annotations__["body"] = export_request(kind.name, list(kind.preset_names()))
    export.__doc__ = f"""The puzzle document of a built-in puzzle with its params (as `{kind.name} export --json`).
        Built by a solver process, like every answer: a huge `params` value is a 422 naming
        the parameter and its range, and never holds up the server."""
    routes.add_api_route(
        f"/v1/{kind.name}/presets",
        presets,
        methods=["GET"],
        tags=[kind.name],
        name=f"{kind.name}_presets",
        responses=example(
            {"presets": listed},
            "each built-in puzzle's parameters (the `params` of a request) with their defaults and "
            "allowed ranges (`bounds`, lowest and highest)",
        ),
    )
    routes.add_api_route(
        f"/v1/{kind.name}/export",
        export,
        methods=["POST"],
        tags=[kind.name],
        name=f"{kind.name}_export",
        responses={
            **example(kind.preset_document(first), f"the puzzle document (as `{kind.name} export --json`)"),
            **ERRORS,
            **POSTED,
            **BUSY,
        },
    )
