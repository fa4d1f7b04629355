"""Making puzzles: ``POST /v1/{kind}/generate`` for every grid kind, from the kind's
``generate_options`` and the one loop of :mod:`mindgames.models.generate`.

A few puzzles (``count`` up to :data:`GENERATED_AT_ONCE`) are made by a solver process within
the request's time cap, as a solve is; more are a job (``202`` with its id, followed at
``/v1/jobs/{id}``).  Every limit holds before any work: ``count`` at most ``max_puzzles``
(413), a time limit within ``max_seconds`` when answered at once (422), the kind's own
options read by the kind (422 naming the field)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from mindgames.models.errors import PuzzleError
from mindgames.models.generate import new_seed

from .. import kinds
from ..errors import busy, error
from ..examples import BUSY, ERRORS, JOB_LINKS, POSTED
from ..replies import Crashed, TimedOut, answered
from ..schemas import ErrorBody, GenerateRequest
from . import Service, in_thread
from .puzzles import dispatch, kind_path, time_limit_error

#: puzzles one request makes at once; more are a job
GENERATED_AT_ONCE = 10

GENERATED = {
    "index": 0,
    "status": "generated",
    "solution": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 1], [0, 1, 1, 0]],
    "uniqueness": "unique",
    "engine": "sat",
    "seconds": 0.004,
    "rules": "takuzu",
    "puzzle": {
        "grid": [[1, None, None, None], [None, None, None, 1], [None, None, 0, None], [0, None, None, None]]
    },
    "givens": 4,
    "minimal": True,
    "seed": 7,
}


def generate_task(service: Service, kind_name: str, body: GenerateRequest) -> dict[str, Any] | JSONResponse:
    """The task a solver process (or a job) runs for this request, or the error response naming
    what is wrong with it; checked before any work."""
    names = kinds.kind_names()
    if kind_name not in names:
        return error(404, f"unknown kind {kind_name!r}; kinds: {', '.join(names)}")
    kind = kinds.grid_kind(kind_name)
    if kind is None:
        return error(422, f"generate: grid kinds only ({', '.join(k.name for k in kinds.grid_kinds())})")
    fields = body.model_dump()
    for name, message in kinds.foreign_generate_options(kind).items():
        if fields.get(name) is not None:
            return error(422, message)
    given = {option.name: fields.get(option.name) for option in kind.generate_options}
    try:
        kind.empty(**kinds.generate_options(kind, given))  # the variant exists (cheap: no search)
    except PuzzleError as problem:
        return error(422, str(problem))
    if body.count > service.settings.max_puzzles:
        return error(
            413,
            f"count {body.count} is more than max_puzzles ({service.settings.max_puzzles}) per request or job",
            "max_puzzles",
        )
    task = {
        "kind": kind_name,
        "action": "generate",
        "options": {name: value for name, value in given.items() if value is not None},
        "seed": new_seed() if body.seed is None else body.seed,
        "count": body.count,
        "engine": body.engine,
        "time_limit": body.time_limit,
    }
    if body.links:
        task["links"] = True
    return task


def router(service: Service) -> APIRouter:
    routes = APIRouter()

    @routes.post(
        "/v1/{kind}/generate",
        tags=["puzzles"],
        responses={
            **ERRORS,
            **POSTED,
            **BUSY,
            200: {
                "description": "the puzzles (count up to GENERATED_AT_ONCE): each unique (checked again "
                "from scratch) and minimal, or `unknown` when the time limit came first",
                "content": {"application/json": {"example": {"results": [GENERATED]}}},
            },
            202: {
                "description": "more puzzles than GENERATED_AT_ONCE: a job, its results at /v1/jobs/{id}",
                "content": {"application/json": {"example": {"id": "3f2a9c0d1e4b5a67", "status": "queued"}}},
                "links": JOB_LINKS,
            },
            413: {"model": ErrorBody, "description": "count is more than max_puzzles"},
            429: {"model": ErrorBody, "description": "max_jobs reached (a job) or max_waiting"},
        },
    )
    async def generate(body: GenerateRequest, request: Request, kind: str = kind_path("generate")) -> Any:
        """Puzzles with exactly one solution and no removable given, of the variant the kind's
        generate options describe (`GET /v1/kinds`: `generate_options`), reproducible by `seed`;
        each record is the `KIND generate --json` record of the generic command (the check's
        answer, `status` `generated`, `puzzle` in the kind's JSON form, `givens`, `seed`)."""
        task = generate_task(service, kind, body)
        if isinstance(task, JSONResponse):
            return task
        if body.count > GENERATED_AT_ONCE:
            return await submit_job(service, task)
        too_long = time_limit_error(service, body)
        if too_long is not None:
            return too_long
        reply = await dispatch(service, task, service.settings.max_seconds, request)
        if isinstance(reply, JSONResponse):
            return reply
        records = answered(reply)
        if len(records) < task["count"]:
            note = (
                "not generated: the request's time limit was reached"
                if isinstance(reply, TimedOut)
                else f"not generated: {reply.why if isinstance(reply, Crashed) else 'no answer'}"
            )
            have = {record["index"]: record for record in records}
            records = [have.get(i) or kinds.unanswered(task, i, note) for i in range(task["count"])]
        return JSONResponse({"results": records})

    return routes


async def submit_job(service: Service, task: dict[str, Any]) -> JSONResponse:
    """The task as a job (the job machinery of :mod:`..jobs`): 202 with its id, or 429."""
    settings = service.settings
    if await in_thread(service.store.active_count) >= settings.max_jobs:
        return busy(
            429,
            f"max_jobs ({settings.max_jobs}) jobs are queued or running; wait for one to finish or cancel one",
            "max_jobs",
        )
    job_id = await in_thread(service.store.create, task["kind"], "generate", task)
    service.runner.poke()
    return JSONResponse({"id": job_id, "status": "queued"}, status_code=202)
