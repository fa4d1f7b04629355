"""The HTTP API and the web page: :func:`create_app`.

Every error is JSON ``{"error": message, ...}``; a broken limit also names it
(``"limit": "max_body_bytes"``).  Puzzle errors carry the library's message,
the same one the CLI prints.  Solving happens in worker processes
(:mod:`.pool`, :mod:`.jobs`), never in the event loop.
"""

from __future__ import annotations

import hmac
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any, Union

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from . import kinds
from .jobs import JobRunner, JobStore
from .pool import SolverPool, reply_records
from .schemas import Answer, Batch, ErrorBody, JobRequest, SolveRequest
from .settings import Settings

ANSWERS: dict = {200: {"model": Union[Answer, Batch, dict[str, Any]],
                       "description": "one answer (for `puzzle`: the CLI's --json object; for crossing "
                                      "the `crossing solve --json` object) or `{\"results\": [...]}` "
                                      "in input order (for `puzzles`)"}}
BUSY = {429: {"model": ErrorBody, "description": "max_waiting requests already wait for a solver"}}
ERRORS = {
    400: {"model": ErrorBody, "description": "malformed request (e.g. invalid JSON)"},
    401: {"model": ErrorBody, "description": "missing or wrong bearer token"},
    404: {"model": ErrorBody, "description": "unknown kind or job"},
    413: {"model": ErrorBody, "description": "body or puzzle count over its limit"},
    422: {"model": ErrorBody, "description": "invalid request or puzzle"},
}


MAX_NESTING = 32


def nesting(value: Any) -> int:
    """How deeply lists and objects nest in a JSON value (without recursion)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            depth += 1
            deepest = max(deepest, depth)
            if depth > MAX_NESTING:
                return depth
            stack.extend((child, depth) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def error(status: int, message: str, limit: str | None = None, **extra: Any) -> JSONResponse:
    body: dict[str, Any] = {"error": message}
    if limit:
        body["limit"] = limit
    body.update(extra)
    return JSONResponse(body, status_code=status)


class Gate:
    """Pure ASGI middleware in front of everything: the bearer token (when one is set) for
    ``/v1/``, the body read as JSON, and a body over ``limit`` bytes is a 413."""

    def __init__(self, app: Any, limit: int, token: str | None):
        self.app, self.limit = app, limit
        self.token = token.encode() if token else None

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        api = scope["path"].startswith("/v1/")
        headers = scope.get("headers", ())
        if api and self.token is not None:
            given = next((v for k, v in headers if k == b"authorization"), b"")
            scheme, _, token = given.partition(b" ")
            if scheme.lower() != b"bearer" or not hmac.compare_digest(token.strip(), self.token):
                reply = error(401, "this server needs a token: send the header Authorization: Bearer TOKEN")
                reply.headers["WWW-Authenticate"] = "Bearer"
                return await reply(scope, receive, send)
        message = f"the request body is larger than max_body_bytes ({self.limit} bytes)"
        for name, value in headers:
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = False
                if too_big:
                    return await error(413, message, "max_body_bytes")(scope, receive, send)
        if api:
            # The API speaks JSON only: read the body as JSON whatever Content-Type says
            # (curl -d sends a form type), so a client gets a JSON answer, not a form error.
            kept = [(k, v) for k, v in headers if k != b"content-type"]
            scope = dict(scope, headers=kept + [(b"content-type", b"application/json")])
        seen = 0
        started = False

        async def limited_receive() -> dict:
            nonlocal seen
            event = await receive()
            if event["type"] == "http.request":
                seen += len(event.get("body", b""))
                if seen > self.limit:
                    raise _TooBig()
            return event

        async def tracking_send(event: dict) -> None:
            nonlocal started
            if event["type"] == "http.response.start":
                started = True
            await send(event)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _TooBig:
            if not started:
                await error(413, message, "max_body_bytes")(scope, receive, send)


class _TooBig(Exception):
    pass


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        store = JobStore(settings.db)
        recovered = store.recover(settings.resume_jobs)
        if recovered:
            what = "queued again" if settings.resume_jobs else "marked interrupted"
            print(f"mindgames: {recovered} job(s) left running by the last server {what}", flush=True)
        pool = SolverPool(settings.solver_workers, settings.grace_seconds, settings.worker_memory_mb)
        await pool.start()
        runner = JobRunner(store, settings.job_workers, settings.max_job_seconds)
        await runner.start()
        state.update(store=store, pool=pool, runner=runner)
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
    )
    app.state.settings = settings

    # -- errors: always JSON with "error" -----------------------------------------------
    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = exc.errors()
        for problem in problems:
            if problem.get("type") == "json_invalid":
                ctx = problem.get("ctx") or {}
                return error(400, f"invalid JSON: {ctx.get('error', 'cannot be parsed')}")
        first = problems[0] if problems else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
        detail = [{"loc": list(p.get("loc", ())), "msg": p.get("msg", "")} for p in problems[:20]]
        return error(422, f"{where}: {first.get('msg', 'invalid request')}", detail=detail)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc.detail, dict):
            return JSONResponse(exc.detail, status_code=exc.status_code)
        return error(exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:  # pragma: no cover
        return error(500, f"internal error: {type(exc).__name__}")

    # -- small endpoints ------------------------------------------------------------------------
    @app.get("/healthz", tags=["service"])
    async def healthz() -> dict:
        return {"status": "ok", "version": __version__}

    @app.get("/v1/kinds", tags=["service"])
    async def list_kinds() -> dict:
        return {"kinds": kinds.describe(), "limits": settings.limits()}

    @app.get("/v1/crossing/presets", tags=["crossing"])
    async def crossing_presets() -> dict:
        return {"presets": kinds.crossing_presets()}

    @app.post("/v1/crossing/export", tags=["crossing"], responses=ERRORS)
    async def crossing_export(body: SolveRequest) -> Any:
        """The puzzle document of a built-in puzzle with its params (as `crossing export --json`)."""
        from models.crossing import parse_document, presets
        from models.errors import PuzzleError

        if not isinstance(body.puzzle, str) or body.puzzle not in presets.PRESETS:
            return error(422, f"puzzle: a built-in puzzle name ({', '.join(presets.PRESETS)})")
        try:
            document = presets.build(body.puzzle, body.params or {})
            parse_document(document)
        except PuzzleError as exc:
            return error(422, str(exc))
        return document

    # -- answering at once ------------------------------------------------------------------------
    def task_of(kind: str, action: str, body: SolveRequest | JobRequest) -> dict | JSONResponse:
        if kind not in kinds.KIND_NAMES:
            return error(404, f"unknown kind {kind!r}; kinds: {', '.join(kinds.KIND_NAMES)}")
        if kind == "crossing" and action not in ("solve",):
            return error(422, "crossing puzzles have one action, solve "
                              "(\"count_shortest\": true also counts the shortest plans)")
        if kind != "crossing" and action not in kinds.ACTIONS:
            return error(422, f"unknown action {action!r} for {kind}")
        if kind == "crossing" and body.engine == "backtrack":
            return error(422, "engine: crossing puzzles are solved with sat or cpsat")
        if (body.puzzle is None) == (body.puzzles is None):
            return error(422, "give either \"puzzle\" (one) or \"puzzles\" (a list)")
        puzzles = [body.puzzle] if body.puzzles is None else body.puzzles
        if not puzzles:
            return error(422, "\"puzzles\" is empty")
        if len(puzzles) > settings.max_puzzles:
            return error(413, f"{len(puzzles)} puzzles is more than max_puzzles "
                              f"({settings.max_puzzles}) per request", "max_puzzles")
        if any(nesting(p) > MAX_NESTING for p in puzzles):
            return error(422, f"puzzle: nested more than {MAX_NESTING} lists or objects deep; "
                              "no puzzle format needs that")
        if kind != "binairo" and body.rules is not None:
            return error(422, "rules: only binairo puzzles have rule sets")
        if kind != "crossing" and body.params is not None:
            return error(422, "params: only crossing puzzles have parameters")
        task = body.model_dump(exclude={"puzzle"})
        task.update(kind=kind, action=action, puzzles=puzzles, single=body.puzzles is None)
        return task

    async def answer(kind: str, action: str, body: SolveRequest, explain: bool) -> Any:
        task = task_of(kind, action, body)
        if isinstance(task, JSONResponse):
            return task
        if body.time_limit is not None and body.time_limit > settings.max_seconds:
            return error(422, f"time_limit {body.time_limit:g} s is more than max_seconds "
                              f"({settings.max_seconds:g} s) per request; use a job for longer work",
                         "max_seconds")
        task["explain"] = explain
        pool: SolverPool = state["pool"]
        if pool.waiting >= settings.max_waiting:
            return error(429, f"max_waiting ({settings.max_waiting}) requests are already waiting "
                              "for a solver; try again shortly", "max_waiting")
        reply = await pool.run(task, settings.max_seconds)
        if reply[0] == "error":
            return error(reply[1], reply[2], reply[3])
        records = reply_records(reply)
        if reply[0] == "timeout" or len(records) < len(task["puzzles"]):
            note = ("stopped: the request's time limit was reached" if reply[0] == "timeout"
                    else f"not answered: {reply[2]}")
            have = {r.get("index", i): r for i, r in enumerate(records)}
            records = [have.get(i) or kinds._unanswered(task, i, note) for i in range(len(task["puzzles"]))]
        if reply[0] == "crash" and task["single"]:
            return error(422, f"this puzzle could not be answered ({reply[2]})")
        return JSONResponse(records[0] if task["single"] else {"results": records})

    explain_query = Query(False, description="add what the web page draws: clashing cells of "
                                              "unsolvable grids; crossing banks after each step")

    @app.post("/v1/{kind}/solve", tags=["puzzles"], responses={**ANSWERS, **ERRORS, **BUSY})
    async def solve(kind: str, body: SolveRequest, explain: bool = explain_query) -> Any:
        """Solve one puzzle (`puzzle`) or a batch (`puzzles`): the CLI's `--json` object(s)."""
        return await answer(kind, "solve", body, explain)

    @app.post("/v1/{kind}/check", tags=["puzzles"], responses={**ANSWERS, **ERRORS, **BUSY})
    async def check(kind: str, body: SolveRequest, explain: bool = explain_query) -> Any:
        """Unique, multiple (with two verified witnesses), unsolvable or unknown."""
        return await answer(kind, "check", body, explain)

    @app.post("/v1/{kind}/count", tags=["puzzles"], responses={**ANSWERS, **ERRORS, **BUSY})
    async def count(kind: str, body: SolveRequest, explain: bool = explain_query) -> Any:
        """Count solutions (up to `limit`, within the time limit; `complete` says if that is all)."""
        return await answer(kind, "count", body, explain)

    # -- jobs -----------------------------------------------------------------------------------
    @app.post("/v1/jobs", tags=["jobs"], status_code=202,
              responses={**ERRORS, 429: {"model": ErrorBody, "description": "max_jobs reached"}})
    async def create_job(body: JobRequest) -> Any:
        """Start long work; answers at once with the job's id."""
        store: JobStore = state["store"]
        if body.action == "count_grids":
            if body.kind != "binairo":
                return error(422, "count_grids counts every binairo grid of a size: kind binairo")
            if body.size is None:
                return error(422, "size: count_grids needs a size (N or RxC)")
            request = {"kind": body.kind, "action": body.action, "size": body.size,
                       "rules": body.rules or "takuzu", "method": body.method or "mitm"}
        else:
            task = task_of(body.kind, body.action, body)
            if isinstance(task, JSONResponse):
                return task
            task["single"] = False
            request = task
        if store.active_count() >= settings.max_jobs:
            return error(429, f"max_jobs ({settings.max_jobs}) jobs are queued or running; "
                              "wait for one to finish or cancel one", "max_jobs")
        job_id = store.create(body.kind, body.action, request)
        state["runner"].poke()
        return JSONResponse({"id": job_id, "status": "queued"}, status_code=202)

    @app.get("/v1/jobs", tags=["jobs"])
    async def list_jobs(limit: int = Query(50, ge=1, le=500)) -> dict:
        return {"jobs": state["store"].list(limit)}

    @app.get("/v1/jobs/{job_id}", tags=["jobs"], responses=ERRORS)
    async def get_job(job_id: str) -> Any:
        """Status, progress and the results so far (all of them when done)."""
        job = state["store"].get(job_id)
        if job is None:
            return error(404, f"no job {job_id!r}")
        return job

    @app.delete("/v1/jobs/{job_id}", tags=["jobs"], responses=ERRORS)
    async def cancel_job(job_id: str) -> Any:
        """Cancel a queued or running job (results so far are kept); a finished job stays."""
        store: JobStore = state["store"]
        job = store.get(job_id, with_results=False)
        if job is None:
            return error(404, f"no job {job_id!r}")
        state["runner"].cancel(job_id)
        return store.get(job_id)

    # -- the page -------------------------------------------------------------------------------
    static = resources.files("mindgames.service") / "static"

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(static / "index.html"), media_type="text/html")

    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.add_middleware(Gate, limit=settings.max_body_bytes, token=settings.token)
    return app
