"""The HTTP API and the web page: :func:`create_app`.

Every error is JSON ``{"error": message, ...}``; a broken limit also names it
(``"limit": "max_body_bytes"``).  Puzzle errors carry the library's message,
the same one the CLI prints.  Solving happens in worker processes
(:mod:`.pool`, :mod:`.jobs`), never in the event loop.
"""

from __future__ import annotations

import asyncio
import hmac
import importlib.util
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any, Union

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from . import kinds
from .jobs import JobRunner, JobStore
from .pool import SolverPool
from .replies import Broken, Busy, Crashed, Refused, Reply, TimedOut, answered
from .schemas import Answer, Batch, CompareRequest, ErrorBody, ExportRequest, JobRequest, SolveRequest
from .settings import Settings


MAX_COMPARE_PUZZLES = 10  # compare runs every engine on each: small batches only


def example(value: Any, description: str = "") -> dict:
    """An OpenAPI 200 response with an example body (for /docs and the README)."""
    return {200: {"description": description or "success",
                  "content": {"application/json": {"example": value}}}}


DOCUMENT = example({"name": "Wolf, goat and cabbage", "boat": {"capacity": 2},
                    "actors": [{"name": "farmer", "rows": True}, {"name": "wolf"}, {"name": "goat"},
                               {"name": "cabbage", "cargo": True}],
                    "rules": [{"kind": "not_together", "who": ["goat"], "with_any": ["wolf", "cabbage"],
                               "unless_any": ["farmer"]}]},
                   "the puzzle document (as `crossing export --json`)")
SOLVED = {"index": 0, "status": "solved", "solution": [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]],
          "engine": "sat", "seconds": 0.002}
COMPARED = example({
    "rows": [{"index": 0, "engine": "sat", "status": "solved", "uniqueness": "unique", "answer": "unique",
              "seconds": 0.0009, "stats": {"decisions": 1, "conflicts": 1, "propagations": 1508, "restarts": 0}},
             {"index": 0, "engine": "backtrack", "status": "solved", "uniqueness": "unique", "answer": "unique",
              "seconds": 0.0033, "stats": {"nodes": 855, "backtracks": 95, "max_depth": 30}}],
    "summary": {"summary": True, "engines": [
        {"engine": "sat", "puzzles": 1, "answered": 1, "median_seconds": 0.0009, "total_seconds": 0.0009,
         "baseline": "backtrack", "vs_baseline": "3.7x"},
        {"engine": "backtrack", "puzzles": 1, "answered": 1, "median_seconds": 0.0033, "total_seconds": 0.0033,
         "baseline": "backtrack", "vs_baseline": "1x"}],
        "agree": True, "disagreements": [], "interrupted": False},
    "agreement": "agreement: the engines agree on the puzzle"},
    "one row per puzzle and engine (rows shortened), the summary per engine, the agreement line")
JOB = {"id": "3f2a9c0d1e4b5a67", "kind": "sudoku", "action": "solve", "status": "done",
       "progress": {"done": 1, "total": 1, "solutions": None}, "result": None, "error": None,
       "message": None, "created": 1767225600.0, "started": 1767225600.1, "finished": 1767225600.2,
       "results": [SOLVED]}


ANSWERS: dict = {200: {"model": Union[Answer, Batch, dict[str, Any]],
                       "content": {"application/json": {"examples": {
                           "one puzzle": {"value": SOLVED},
                           "a batch": {"value": {"results": [SOLVED, {**SOLVED, "index": 1,
                                                                       "status": "unsolvable", "solution": None}]}}}}},
                       "description": "one answer (for `puzzle`: the CLI's --json object; for crossing "
                                      "the `crossing solve --json` object) or `{\"results\": [...]}` "
                                      "in input order (for `puzzles`)"}}
BUSY = {429: {"model": ErrorBody, "description": "max_waiting requests already wait for a solver "
                                                 "(with Retry-After)"},
        503: {"model": ErrorBody, "description": "no solver process free within max_queue_seconds, "
                                                 "or none can start (with Retry-After)"}}

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


def busy(status: int, message: str, limit: str, retry: int = 2) -> JSONResponse:
    """A 429 / 503 that tells the client when to try again."""
    reply = error(status, message, limit)
    reply.headers["Retry-After"] = str(retry)
    return reply


async def disconnected(request: Request) -> None:
    """Returns when the client hangs up (its body was read already: all that can come is
    ``http.disconnect``)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def error(status: int, message: str, limit: str | None = None, **extra: Any) -> JSONResponse:
    body: dict[str, Any] = {"error": message}
    if limit:
        body["limit"] = limit
    body.update(extra)
    return JSONResponse(body, status_code=status)


class Gate:
    """Pure ASGI middleware in front of everything.

    * The Host header must name this server (its bound address, localhost, 127.0.0.1 or
      [::1] with its port, or an ``allowed_hosts`` name): a page on another site that
      re-points its own name at 127.0.0.1 (DNS rebinding) is refused with a 421.
    * The bearer token (when one is set) for ``/v1/``.
    * A POST to the API must say ``Content-Type: application/json`` (415): a cross-site
      form or ``text/plain`` POST, which a browser sends without asking, gets nowhere.
    * The body is read here, whole, before the app sees it: over ``limit`` bytes, with or
      without a Content-Length (chunked), is a 413 naming the limit."""

    def __init__(self, app: Any, settings: Settings):
        self.app, self.limit = app, settings.max_body_bytes
        self.token = settings.token.encode() if settings.token else None
        self.hosts = allowed_hosts(settings)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        api = scope["path"].startswith("/v1/")
        headers = dict(reversed(scope.get("headers", ())))  # a repeated header: the first, as Starlette reads it
        host = headers.get(b"host", b"").decode("latin-1").lower()
        if self.hosts is not None and host not in self.hosts and without_port(host) not in self.hosts:
            reply = error(421, f"this server does not answer to the host {host[:100]!r}: use "
                               f"{sorted(self.hosts)[0]}, or start it with --allowed-host NAME",
                          "allowed_hosts")
            return await reply(scope, receive, send)
        if api and self.token is not None:
            given = headers.get(b"authorization", b"")
            scheme, _, token = given.partition(b" ")
            if scheme.lower() != b"bearer" or not hmac.compare_digest(token.strip(), self.token):
                reply = error(401, "this server needs a token: send the header Authorization: Bearer TOKEN")
                reply.headers["WWW-Authenticate"] = "Bearer"
                return await reply(scope, receive, send)
        if api and scope["method"] in ("POST", "PUT", "PATCH"):
            kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
            if kind != b"application/json":
                shown = kind.decode("latin-1")[:60] or "none"
                return await error(415, f"the API reads JSON only: send Content-Type: application/json "
                                        f"(this request's is {shown})")(scope, receive, send)
        too_big = error(413, f"the request body is larger than max_body_bytes ({self.limit} bytes)",
                        "max_body_bytes")
        try:
            declared = int(headers.get(b"content-length", b"0"))
        except ValueError:
            declared = 0
        if declared > self.limit:
            return await too_big(scope, receive, send)
        chunks, seen = [], 0
        while True:
            event = await receive()
            if event["type"] != "http.request":  # the client hung up while sending
                return
            chunk = event.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                return await too_big(scope, receive, send)
            chunks.append(chunk)
            if not event.get("more_body", False):
                break
        body: list[bytes] | None = [b"".join(chunks)]

        async def replay() -> dict:
            # The body once, then whatever the server says next (a disconnect).
            nonlocal body
            if body is not None:
                event = {"type": "http.request", "body": body[0], "more_body": False}
                body = None
                return event
            return await receive()

        await self.app(scope, replay, send)


def allowed_hosts(settings: Settings) -> set[str] | None:
    """The Host header values this server answers: the loopback names and the bound address
    with its port (bare too on port 80), and each ``--allowed-host`` as given or with the
    port.  None (any host) for a wildcard bind without ``--allowed-host``: such a server
    needs a token, which a rebinding page does not have."""
    bound = settings.host.lower()
    extra = {name.lower() for name in settings.allowed_hosts}
    if bound in ("0.0.0.0", "::", "[::]", "") and not extra:
        return None
    names = {"localhost", "127.0.0.1", "[::1]"}
    if bound not in ("0.0.0.0", "::", "[::]", ""):
        names.add(f"[{bound.strip('[]')}]" if ":" in bound else bound)
    if settings.port == 0:  # a port picked at start (--port 0): any port of these names
        return names | extra
    suffix = f":{settings.port}"
    allowed = {name + suffix for name in names | extra} | extra
    if settings.port == 80:
        allowed |= names
    return allowed


def without_port(host: str) -> str:
    """``name:port`` -> ``name`` (``[::1]:8000`` -> ``[::1]``); matched only when allowed_hosts
    has bare names, i.e. for --port 0, port 80 and --allowed-host NAME."""
    name, colon, port = host.rpartition(":")
    return name if colon and port.isdigit() and not name.endswith(":") else host


def swagger_assets() -> Path | None:
    """The folder of Swagger UI's files shipped by the fastapi-offline package, if installed."""
    try:
        spec = importlib.util.find_spec("fastapi_offline")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    folder = Path(spec.origin).parent / "static"
    return folder if (folder / "swagger-ui-bundle.js").exists() else None


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
        store.sweep_checkpoints()
        pool = SolverPool(settings.solver_workers, settings.grace_seconds, settings.worker_memory_mb,
                          settings.max_queue_seconds)
        await pool.start()
        runner = JobRunner(store, settings.job_workers, settings.max_job_seconds,
                           settings.job_memory_mb, settings.retention_days)
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
        docs_url=None,  # served below from local files: /docs must work offline
        redoc_url=None,
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
    @app.head("/healthz", include_in_schema=False)
    async def healthz_head() -> Any:
        return await healthz()

    @app.get("/healthz", tags=["service"], responses={
        200: {"content": {"application/json": {"example": {
            "status": "ok", "version": __version__,
            "solvers": {"workers": 4, "idle": 4, "waiting": 0, "respawns": 0, "broken": None}}}}},
        503: {"model": ErrorBody, "description": "the solver processes cannot start"}})
    async def healthz() -> Any:
        """`ok` while the solver processes work; 503 `broken`, saying why, when they cannot start."""
        pool: SolverPool = state["pool"]
        solvers = pool.status()
        if pool.broken:
            return JSONResponse({"status": "broken", "error": pool.broken, "version": __version__,
                                 "solvers": solvers}, status_code=503)
        return {"status": "ok", "version": __version__, "solvers": solvers}

    @app.get("/v1/kinds", tags=["service"], responses=example(
        {"kinds": [{"kind": "sudoku", "actions": ["solve", "check", "count"], "engines": ["sat", "cpsat", "backtrack"]}],
         "limits": settings.limits()}, "every kind with its actions, formats and options; the limits"))
    async def list_kinds() -> dict:
        return {"kinds": kinds.describe(), "limits": settings.limits()}

    @app.get("/v1/crossing/presets", tags=["crossing"], responses=example(
        {"presets": {"missionaries-cannibals": {"parameters": {"pairs": 3, "capacity": 2},
                                                "bounds": {"pairs": [1, 1000], "capacity": [1, 20]},
                                                "description": "...", "name": "Missionaries and cannibals"}}},
        "each built-in puzzle's parameters (the `params` of a request) with their defaults and "
        "allowed ranges (`bounds`, lowest and highest)"))
    async def crossing_presets() -> dict:
        return {"presets": kinds.crossing_presets()}

    @app.post("/v1/crossing/export", tags=["crossing"], responses={**DOCUMENT, **ERRORS, **BUSY})
    async def crossing_export(body: ExportRequest, request: Request) -> Any:
        """The puzzle document of a built-in puzzle with its params (as `crossing export --json`).
        Built by a solver process, like every answer: a huge `params` value is a 422 naming
        the parameter and its range, and never holds up the server."""
        task = {"kind": "crossing", "action": "export", "puzzles": [body.puzzle],
                "params": body.params or {}, "single": True}
        return await dispatch(task, settings.max_seconds, request)

    # -- answering at once ------------------------------------------------------------------------
    def task_of(kind: str, action: str, body: SolveRequest | JobRequest) -> dict | JSONResponse:
        names = kinds.kind_names()
        if kind not in names:
            return error(404, f"unknown kind {kind!r}; kinds: {', '.join(names)}")
        grid = kinds.grid_kind(kind)
        if grid is None and action not in ("solve", "explain"):
            return error(422, "crossing puzzles are solved or explained "
                              "(\"count_shortest\": true also counts the shortest plans)")
        if grid is not None and action not in kinds.ACTIONS + kinds.EXPLAIN_ACTIONS:
            return error(422, f"unknown action {action!r} for {kind}")
        if grid is None and body.engine == "backtrack":
            return error(422, "engine: crossing puzzles are solved with sat or cpsat")
        if body.certify and action not in kinds.CERTIFIABLE:
            return error(422, "certify: only solve and check answers are certified (a count is not)")
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
        problem = kinds.options_error(kind, body.model_dump())
        if problem:
            return error(422, problem)
        if grid is not None and body.params is not None:
            return error(422, "params: only crossing puzzles have parameters")
        if grid is None:
            problem = kinds.preset_params_error(puzzles, body.params)
            if problem:
                return error(422, problem)
        task = body.model_dump(exclude={"puzzle"})
        task.update(kind=kind, action=action, puzzles=puzzles, single=body.puzzles is None)
        return task

    async def dispatch(task: dict, seconds: float, request: Request) -> Reply | JSONResponse:
        """Run ``task`` in a solver process: its reply, or the error response of a full
        queue or a broken pool.  A client that hangs up meanwhile stops the work."""
        pool: SolverPool = state["pool"]
        if pool.waiting >= settings.max_waiting:
            return busy(429, f"max_waiting ({settings.max_waiting}) requests are already waiting "
                             "for a solver; try again shortly", "max_waiting")
        cost = min(seconds, (task.get("time_limit") or seconds) * len(task["puzzles"]))
        work = asyncio.ensure_future(pool.run(task, seconds, cost))
        gone = asyncio.ensure_future(disconnected(request))
        try:
            await asyncio.wait({work, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
        if not work.done():  # the client went away: free its seat, stop its work
            work.cancel()
            return JSONResponse({"error": "the client went away"}, status_code=499)
        reply = work.result()
        if isinstance(reply, Busy):
            return busy(503, f"no solver process became free within max_queue_seconds "
                             f"({settings.max_queue_seconds:g} s); try again shortly", "max_queue_seconds")
        if isinstance(reply, Broken):
            return busy(503, f"no solver can run: {reply.why}", "solver_pool")
        if isinstance(reply, Refused):
            return error(reply.status, reply.message, reply.limit)
        if task["action"] == "export":
            if isinstance(reply, TimedOut):
                return error(422, "the puzzle could not be built within the time limit")
            if isinstance(reply, Crashed):
                return error(422, f"the puzzle could not be built ({reply.why})")
            return JSONResponse(answered(reply)[0])
        return reply

    def time_limit_error(body: SolveRequest) -> JSONResponse | None:
        if body.time_limit is not None and body.time_limit > settings.max_seconds:
            return error(422, f"time_limit {body.time_limit:g} s is more than max_seconds "
                              f"({settings.max_seconds:g} s) per request; use a job for longer work",
                         "max_seconds")
        return None

    async def answer(kind: str, action: str, body: SolveRequest, explain: bool, request: Request) -> Any:
        task = task_of(kind, action, body)
        if isinstance(task, JSONResponse):
            return task
        too_long = time_limit_error(body)
        if too_long is not None:
            return too_long
        task["explain"] = explain
        reply = await dispatch(task, settings.max_seconds, request)
        if isinstance(reply, JSONResponse):
            return reply
        records = answered(reply)
        if isinstance(reply, TimedOut) or len(records) < len(task["puzzles"]):
            note = ("stopped: the request's time limit was reached" if isinstance(reply, TimedOut)
                    else f"not answered: {reply.why if isinstance(reply, Crashed) else 'no answer'}")
            have = {r.get("index", i): r for i, r in enumerate(records)}
            records = [have.get(i) or kinds.unanswered(task, i, note) for i in range(len(task["puzzles"]))]
        if isinstance(reply, Crashed) and task["single"]:
            return error(422, f"this puzzle could not be answered ({reply.why})")
        return JSONResponse(records[0] if task["single"] else {"results": records})

    explain_query = Query(False, description="add what the web page draws: clashing cells of "
                                              "unsolvable grids; crossing banks after each step")

    @app.post("/v1/{kind}/solve", tags=["puzzles"], responses={**ANSWERS, **ERRORS, **BUSY})
    async def solve(kind: str, body: SolveRequest, request: Request, explain: bool = explain_query) -> Any:
        """Solve one puzzle (`puzzle`) or a batch (`puzzles`): the CLI's `--json` object(s)."""
        return await answer(kind, "solve", body, explain, request)

    @app.post("/v1/{kind}/check", tags=["puzzles"], responses={**ANSWERS, **ERRORS, **BUSY})
    async def check(kind: str, body: SolveRequest, request: Request, explain: bool = explain_query) -> Any:
        """Unique, multiple (with two verified witnesses), unsolvable or unknown."""
        return await answer(kind, "check", body, explain, request)

    @app.post("/v1/{kind}/count", tags=["puzzles"], responses={**ANSWERS, **ERRORS, **BUSY})
    async def count(kind: str, body: SolveRequest, request: Request, explain: bool = explain_query) -> Any:
        """Count solutions (up to `limit`, within the time limit; `complete` says if that is all)."""
        return await answer(kind, "count", body, explain, request)

    @app.post("/v1/{kind}/compare", tags=["puzzles"], responses={**COMPARED, **ERRORS, **BUSY})
    async def compare_engines(kind: str, body: CompareRequest, request: Request) -> Any:
        """Each puzzle on each engine (`engines`, asked `question`): one row per puzzle and
        engine (the answer, `seconds`, `stats`), a summary per engine and whether they agree.
        Bounded: at most MAX_COMPARE_PUZZLES puzzles, within the same hard time cap, the
        time shared out evenly among the engines."""
        if kind in kinds.kind_names() and kinds.grid_kind(kind) is None:
            return error(422, "compare: grid kinds only here (crossings: mindgames compare crossing)")
        if body.certify:
            return error(422, "certify: not with compare")
        if len(body.puzzles or ()) > MAX_COMPARE_PUZZLES:
            return error(413, f"{len(body.puzzles)} puzzles is more than {MAX_COMPARE_PUZZLES} "
                              "per compare request", "max_compare_puzzles")
        task = task_of(kind, "check", body)
        if isinstance(task, JSONResponse):
            return task
        too_long = time_limit_error(body)
        if too_long is not None:
            return too_long
        task["action"] = "compare"
        reply = await dispatch(task, settings.max_seconds, request)
        if isinstance(reply, JSONResponse):
            return reply
        from models import compare

        rows = [compare.Row.from_json(row) for record in answered(reply) for row in record.get("rows", ())]
        engines = list(dict.fromkeys(body.engines or compare.ENGINES))
        return JSONResponse(compare.compare_json(rows, engines, stopped=isinstance(reply, TimedOut)))

    @app.post("/v1/{kind}/explain", tags=["puzzles"], responses={**ERRORS, **BUSY, **example(
        {"index": 0, "explanation": "clash", "clash": [[1, 1], [1, 6]],
         "text": "givens clash: 5 appears twice in row 1 (r1c1 and r1c6)"},
        "clash (a minimal set of givens), open (open_cells, add_givens) or unique (grade)")})
    async def explain_puzzle(kind: str, body: SolveRequest, request: Request) -> Any:
        """Why: `clash` (a minimal set of clashing givens), `open` (the cells two solutions
        differ in, and `add_givens` that make it unique) or `unique` (its `grade`)."""
        return await answer(kind, "explain", body, False, request)

    @app.post("/v1/{kind}/hint", tags=["puzzles"], responses={**ERRORS, **BUSY, **example(
        {"index": 0, "row": 1, "col": 4, "value": 8, "technique": "hidden single",
         "because": [[1, 5], [1, 6]], "text": "8 can go nowhere else in row 1: r1c4 is 8"},
        "the next value the ladder deduces, and why")})
    async def hint(kind: str, body: SolveRequest, request: Request) -> Any:
        """The next cell that can be deduced: `row`, `col`, `value`, `technique`, `because`, `text`."""
        return await answer(kind, "hint", body, False, request)

    # -- jobs -----------------------------------------------------------------------------------
    @app.post("/v1/jobs", tags=["jobs"], status_code=202,
              responses={**ERRORS, 429: {"model": ErrorBody, "description": "max_jobs reached"},
                         202: {"description": "queued", "content": {"application/json": {
                             "example": {"id": "3f2a9c0d1e4b5a67", "status": "queued"}}}}})
    async def create_job(body: JobRequest) -> Any:
        """Start long work; answers at once with the job's id."""
        store: JobStore = state["store"]
        if body.action == "count_grids":
            if body.kind != "binairo":
                return error(422, "count_grids counts every binairo grid of a size: kind binairo")
            if body.size is None:
                return error(422, "size: count_grids needs a size (N or RxC)")
            from models.binairo import parse_size
            from models.errors import PuzzleError

            try:
                parse_size(str(body.size))
            except PuzzleError as exc:
                return error(422, f"size: {exc}")
            request = {"kind": body.kind, "action": body.action, "size": str(body.size),
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

    @app.get("/v1/jobs", tags=["jobs"], responses=example({"jobs": [{**JOB, "results": None}]},
                                                          "the latest jobs, newest first (without results)"))
    async def list_jobs(limit: int = Query(50, ge=1, le=500)) -> dict:
        return {"jobs": state["store"].list(limit)}

    @app.get("/v1/jobs/{job_id}", tags=["jobs"], responses={**ERRORS, **example(JOB, "the job")})
    async def get_job(job_id: str) -> Any:
        """Status, progress and the results so far (all of them when done)."""
        job = state["store"].get(job_id)
        if job is None:
            return error(404, f"no job {job_id!r}")
        return job

    @app.delete("/v1/jobs/{job_id}", tags=["jobs"], responses={**ERRORS, 200: {
        "content": {"application/json": {"examples": {
            "cancelled": {"summary": "a queued or running job is cancelled",
                          "value": {"id": "3f2a9c0d1e4b5a67", "status": "cancelled", "message": "cancelled"}},
            "deleted": {"summary": "a finished job is deleted",
                        "value": {"id": "3f2a9c0d1e4b5a67", "status": "deleted"}}}}}}})
    async def cancel_or_delete_job(job_id: str) -> Any:
        """Cancel a queued or running job (it stays, with its results so far, until deleted or
        past retention_days); delete a finished one (it is then 404)."""
        store: JobStore = state["store"]
        job = store.get(job_id, with_results=False)
        if job is None:
            return error(404, f"no job {job_id!r}")
        if job["status"] in ("queued", "running"):
            state["runner"].cancel(job_id)
            return store.get(job_id)
        store.delete(job_id)
        return {"id": job_id, "status": "deleted"}

    # -- the API's own documentation, from a package's files (no CDN) -------------------------------
    docs_assets = swagger_assets()
    if docs_assets is not None:
        app.mount("/docs-assets", StaticFiles(directory=str(docs_assets)), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Any:
        if docs_assets is None:
            return error(503, "the interactive docs need the package fastapi-offline "
                              "(pip install fastapi-offline); /openapi.json is served anyway")
        return get_swagger_ui_html(openapi_url="/openapi.json", title="mindgames API",
                                   swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                                   swagger_css_url="/docs-assets/swagger-ui.css",
                                   swagger_favicon_url="/docs-assets/favicon.png")

    # -- the page -------------------------------------------------------------------------------
    static = resources.files("mindgames.service") / "static"

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(static / "index.html"), media_type="text/html")

    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.add_middleware(Gate, settings=settings)
    if settings.cors_origins:  # outermost, so it answers the browser's preflight itself
        app.add_middleware(CORSMiddleware, allow_origins=list(settings.cors_origins),
                           allow_methods=["GET", "POST", "DELETE"],
                           allow_headers=["Authorization", "Content-Type"])
    return app
