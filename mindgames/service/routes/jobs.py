"""Long work: ``/v1/jobs`` (create, list, get, cancel, delete), run by :mod:`..jobs`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from mindgames.models.errors import PuzzleError

from ..errors import busy, error
from ..examples import ERRORS, JOB, JOB_LINKS, JOB_STORE, POSTED, example
from ..kinds import COUNT_GRIDS, count_grids_kinds, grid_kind
from ..schemas import CancelRequest, ErrorBody, JobRequest
from . import Service, in_thread
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
            **POSTED,
            **JOB_STORE,
            429: {"model": ErrorBody, "description": "max_jobs reached"},
            202: {
                "description": "queued",
                "content": {"application/json": {"example": {"id": "3f2a9c0d1e4b5a67", "status": "queued"}}},
                "links": JOB_LINKS,
            },
        },
    )
    async def create_job(body: JobRequest) -> Any:
        """Start long work; answers at once with the job's id."""
        store = service.store
        if body.action == COUNT_GRIDS:
            request = count_grids_request(body)
            if isinstance(request, JSONResponse):
                return request
        else:
            task = task_of(service, body.kind, body.action, body)
            if isinstance(task, JSONResponse):
                return task
            task["single"] = False
            request = task
        if await in_thread(store.active_count) >= settings.max_jobs:
            return busy(
                429,
                f"max_jobs ({settings.max_jobs}) jobs are queued or running; "
                "wait for one to finish or cancel one",
                "max_jobs",
            )
        job_id = await in_thread(store.create, body.kind, body.action, request)
        service.runner.poke()
        return JSONResponse({"id": job_id, "status": "queued"}, status_code=202)

    @routes.get(
        "/v1/jobs",
        tags=["jobs"],
        responses={
            **example(
                {"jobs": [{**JOB, "results": None}]}, "the latest jobs, newest first (without results)"
            ),
            401: ERRORS[401],
            422: {"model": ErrorBody, "description": "limit is not a whole number from 1 to 500"},
            **JOB_STORE,
        },
    )
    async def list_jobs(limit: int = Query(50, ge=1, le=500)) -> dict:
        return {"jobs": await in_thread(service.store.list, limit)}

    @routes.get(
        "/v1/jobs/{job_id}",
        tags=["jobs"],
        operation_id="get_job",
        responses={**ERRORS, **JOB_STORE, **example(JOB, "the job")},
    )
    async def get_job(job_id: str) -> Any:
        """Status, progress and the results so far (all of them when done)."""
        job = await in_thread(service.store.get, job_id)
        if job is None:
            return error(404, f"no job {job_id!r}")
        return job

    @routes.post(
        "/v1/jobs/{job_id}/cancel",
        tags=["jobs"],
        operation_id="cancel_job",
        responses={
            **ERRORS,
            **POSTED,
            **JOB_STORE,
            **example(
                {**JOB, "status": "cancelled", "message": "cancelled", "results": []},
                "the job: cancelled if it was queued or running, else as it was",
            ),
        },
    )
    async def cancel_job(job_id: str, body: CancelRequest) -> Any:
        """Stop a queued or running job: it stays, `cancelled` with its results so far, until
        deleted or past retention_days.  A finished job is answered as it is.  The body is `{}`."""
        store = service.store
        job = await in_thread(store.get, job_id, False)
        if job is None:
            return error(404, f"no job {job_id!r}")
        if job["status"] in ("queued", "running"):
            await service.runner.call(service.runner.cancel, job_id)
        return await in_thread(store.get, job_id)

    @routes.delete(
        "/v1/jobs/{job_id}",
        tags=["jobs"],
        operation_id="delete_job",
        responses={
            **ERRORS,
            **JOB_STORE,
            **example({"id": "3f2a9c0d1e4b5a67", "status": "deleted"}, "the job is gone (then 404)"),
        },
    )
    async def delete_job(job_id: str) -> Any:
        """Delete a job, stopping it first if it is queued or running (its results go with it:
        `POST /v1/jobs/{job_id}/cancel` stops it and keeps them)."""
        store = service.store
        job = await in_thread(store.get, job_id, False)
        if job is None:
            return error(404, f"no job {job_id!r}")
        if job["status"] in ("queued", "running"):
            await service.runner.call(service.runner.cancel, job_id)
        await in_thread(store.delete, job_id)
        return {"id": job_id, "status": "deleted"}

    return routes


def count_grids_request(body: JobRequest) -> dict[str, Any] | JSONResponse:
    """The request of a job counting every grid of a variant, its options checked by the kind
    before it is queued; or the 422 saying what is wrong."""
    kind = grid_kind(body.kind)
    if kind is None or not kind.counts_all_grids:
        able = " or ".join(count_grids_kinds()) or "none"
        return error(422, f"{COUNT_GRIDS} counts every grid of a size: kind {able}")
    fields = body.model_dump()
    request: dict[str, Any] = {"kind": body.kind, "action": body.action}
    for option in kind.count_all_options:
        value = fields.get(option.name)
        if value is None:
            if option.required:
                return error(422, f"{option.name}: {COUNT_GRIDS} needs a {option.name} ({option.help})")
            continue
        try:
            option.value(str(value))
        except PuzzleError as exc:
            return error(422, f"{option.name}: {exc}")
        request[option.name] = str(value)
    method = body.method or kind.count_all_methods[0]
    if method not in kind.count_all_methods:
        return error(422, f"method: {kind.name} counts by {' or '.join(kind.count_all_methods)}")
    request["method"] = method
    try:  # what the count would refuse (a size beyond the counter), refused now as the CLI does
        kind.check_count_all({o.name: request.get(o.name) for o in kind.count_all_options}, method)
    except PuzzleError as exc:
        return error(422, str(exc))
    return request
