"""Long work: ``/v1/jobs`` (create, list, get, cancel or delete), run by :mod:`..jobs`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from ..errors import busy, error
from ..examples import ERRORS, JOB, example
from ..schemas import ErrorBody, JobRequest
from . import Service
from .puzzles import task_of


def router(service: Service) -> APIRouter:
    routes = APIRouter()
    settings = service.settings

    @routes.post(
        "/v1/jobs",
        tags=["jobs"],
        status_code=202,
        responses={
            **ERRORS,
            429: {"model": ErrorBody, "description": "max_jobs reached"},
            202: {
                "description": "queued",
                "content": {"application/json": {"example": {"id": "3f2a9c0d1e4b5a67", "status": "queued"}}},
            },
        },
    )
    async def create_job(body: JobRequest) -> Any:
        """Start long work; answers at once with the job's id."""
        store = service.store
        if body.action == "count_grids":
            if body.kind != "binairo":
                return error(422, "count_grids counts every binairo grid of a size: kind binairo")
            if body.size is None:
                return error(422, "size: count_grids needs a size (N or RxC)")
            from mindgames.models.binairo import parse_size
            from mindgames.models.errors import PuzzleError

            try:
                parse_size(str(body.size))
            except PuzzleError as exc:
                return error(422, f"size: {exc}")
            request = {
                "kind": body.kind,
                "action": body.action,
                "size": str(body.size),
                "rules": body.rules or "takuzu",
                "method": body.method or "mitm",
            }
        else:
            task = task_of(service, body.kind, body.action, body)
            if isinstance(task, JSONResponse):
                return task
            task["single"] = False
            request = task
        if store.active_count() >= settings.max_jobs:
            return busy(
                429,
                f"max_jobs ({settings.max_jobs}) jobs are queued or running; "
                "wait for one to finish or cancel one",
                "max_jobs",
            )
        job_id = store.create(body.kind, body.action, request)
        service.runner.poke()
        return JSONResponse({"id": job_id, "status": "queued"}, status_code=202)

    @routes.get(
        "/v1/jobs",
        tags=["jobs"],
        responses=example(
            {"jobs": [{**JOB, "results": None}]}, "the latest jobs, newest first (without results)"
        ),
    )
    async def list_jobs(limit: int = Query(50, ge=1, le=500)) -> dict:
        return {"jobs": service.store.list(limit)}

    @routes.get("/v1/jobs/{job_id}", tags=["jobs"], responses={**ERRORS, **example(JOB, "the job")})
    async def get_job(job_id: str) -> Any:
        """Status, progress and the results so far (all of them when done)."""
        job = service.store.get(job_id)
        if job is None:
            return error(404, f"no job {job_id!r}")
        return job

    @routes.delete(
        "/v1/jobs/{job_id}",
        tags=["jobs"],
        responses={
            **ERRORS,
            200: {
                "content": {
                    "application/json": {
                        "examples": {
                            "cancelled": {
                                "summary": "a queued or running job is cancelled",
                                "value": {
                                    "id": "3f2a9c0d1e4b5a67",
                                    "status": "cancelled",
                                    "message": "cancelled",
                                },
                            },
                            "deleted": {
                                "summary": "a finished job is deleted",
                                "value": {"id": "3f2a9c0d1e4b5a67", "status": "deleted"},
                            },
                        }
                    }
                }
            },
        },
    )
    async def cancel_or_delete_job(job_id: str) -> Any:
        """Cancel a queued or running job (it stays, with its results so far, until deleted or
        past retention_days); delete a finished one (it is then 404)."""
        store = service.store
        job = store.get(job_id, with_results=False)
        if job is None:
            return error(404, f"no job {job_id!r}")
        if job["status"] in ("queued", "running"):
            service.runner.cancel(job_id)
            return store.get(job_id)
        store.delete(job_id)
        return {"id": job_id, "status": "deleted"}

    return routes
