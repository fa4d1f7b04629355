"""Answering at once: ``POST /v1/{kind}/solve|check|count|compare|explain|hint``.

Each request is checked against every limit before any work (:func:`task_of`), then
answered by a solver process (:func:`dispatch`); a small one (:mod:`..inline`: one small
grid puzzle, solve or check, of a shape compiled in this process) in the event loop."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse

from mindgames.models.actions import get_action
from mindgames.models.errors import PuzzleError
from mindgames.models.formats import share_links
from mindgames.models.kind import PlanKind

from .. import kinds
from ..errors import busy, error
from ..examples import ANSWERS, BUSY, COMPARED, ERRORS, POSTED, example
from ..pool import SolverPool
from ..replies import Broken, Busy, Crashed, Died, Refused, Reply, TimedOut, answered
from ..schemas import CompareRequest, JobRequest, SolveRequest
from . import Service

MAX_COMPARE_PUZZLES = 10  # compare runs every engine on each: small batches only
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


async def disconnected(request: Request) -> None:
    """Returns when the client hangs up (its body was read already: all that can come is
    ``http.disconnect``)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def task_of(service: Service, kind: str, action: str, body: SolveRequest | JobRequest) -> dict | JSONResponse:
    """The task a solver process runs for this request, or the error response naming what
    is wrong with it (an unknown kind, a bad option, a limit)."""
    settings = service.settings
    names = kinds.kind_names()
    if kind not in names:
        return error(404, f"unknown kind {kind!r}; kinds: {', '.join(names)}")
    grid, plan = kinds.grid_kind(kind), kinds.plan_kind(kind)
    if plan is not None and action not in plan_routes(plan):
        return error(422, f"{kind} puzzles are {' or '.join(PLAN_ROUTES[a] for a in plan_routes(plan))}")
    if grid is not None and action not in kinds.puzzle_actions(grid):
        return error(422, f"unknown action {action!r} for {kind}")
    engines = plan.engines() if plan is not None else ()
    chosen = "engine" in body.model_fields_set  # (else a plan kind's own default engine)
    if plan is not None and chosen and body.engine not in engines:
        return error(422, f"engine: {kind} puzzles are solved with {' or '.join(engines) or 'no engine'}")
    if body.certify and not get_action(action).certifiable:
        return error(422, "certify: only solve and check answers are certified (a count is not)")
    if (body.puzzle is None) == (body.puzzles is None):
        return error(422, 'give either "puzzle" (one) or "puzzles" (a list)')
    puzzles = [body.puzzle] if body.puzzles is None else body.puzzles
    if not puzzles:
        return error(422, '"puzzles" is empty')
    if len(puzzles) > settings.max_puzzles:
        return error(
            413,
            f"{len(puzzles)} puzzles is more than max_puzzles ({settings.max_puzzles}) per request",
            "max_puzzles",
        )
    if any(nesting(p) > MAX_NESTING for p in puzzles):
        return error(
            422, f"puzzle: nested more than {MAX_NESTING} lists or objects deep; no puzzle format needs that"
        )
    fields = body.model_dump()
    problem = kinds.options_error(kind, fields)
    if problem:
        return error(422, problem)
    if plan is not None and body.links:
        return error(422, "links: only grid puzzles have links (a crossing is no grid)")
    if body.links and action not in LINKED_ACTIONS:
        return error(422, f"links: {', '.join(LINKED_ACTIONS)} answers carry links, not {action}")
    if plan is None and body.params is not None:
        having = " and ".join(k.name for k in kinds.plan_kinds())
        return error(422, f"params: only {having} puzzles have parameters")
    if plan is not None:
        problem = kinds.preset_params_error(plan, puzzles, body.params)
        if problem:
            return error(422, problem)
    task = {name: value for name, value in fields.items() if name != "puzzle"}
    task.update(kind=kind, action=action, puzzles=puzzles, single=body.puzzles is None)
    if plan is not None and not chosen:
        task["engine"] = None  # the kind's default (kinds.Answerer)
    return task


#: the actions whose answers carry ``links`` when asked (``POST /v1/KIND/read`` gives them too)
LINKED_ACTIONS = ("solve", "check", "count")

#: the routes of :func:`answer` a plan kind may have, and what they do to a puzzle
PLAN_ROUTES = {"solve": "solved", "explain": "explained"}


def plan_routes(kind: PlanKind) -> list[str]:
    """What :func:`answer` answers for plan kind ``kind``: its actions among :data:`PLAN_ROUTES`."""
    return [action for action in PLAN_ROUTES if action in kind.actions]


def kinds_answering(action: str) -> list[str]:
    """The kinds that ``POST /v1/KIND/ACTION`` answers (``compare``: every grid kind; ``generate``
    the grid kinds that generate), in the registry's order."""
    if action in ("compare", "generate"):
        return [grid.name for grid in kinds.grid_kinds()]
    names = [grid.name for grid in kinds.grid_kinds() if action in kinds.puzzle_actions(grid)]
    return names + [plan.name for plan in kinds.plan_kinds() if action in plan_routes(plan)]


def kind_path(action: str) -> Any:
    """The ``{kind}`` of ``/v1/{kind}/ACTION``, with the kinds that answer the action as its enum
    in the OpenAPI document (so that clients, and generated tests, name a real kind).  It is
    read as any string still: another name is answered as before, 404 for an unknown kind,
    422 for one that does not answer the action, with the message saying which."""
    able = kinds_answering(action)
    extra = {"enum": able} if able else None
    return Path(description=f"the puzzle kind: {', '.join(able) or 'none'}", json_schema_extra=extra)


async def dispatch(service: Service, task: dict, seconds: float, request: Request) -> Reply | JSONResponse:
    """Run ``task`` in a solver process: its reply, or the error response of a full
    queue or a broken pool.  A client that hangs up meanwhile stops the work."""
    settings = service.settings
    pool: SolverPool = service.pool
    if pool.queued >= settings.max_waiting:
        return busy(
            429,
            f"max_waiting ({settings.max_waiting}) requests are already waiting "
            "for a solver; try again shortly",
            "max_waiting",
        )
    cost = min(seconds, (task.get("time_limit") or seconds) * len(task.get("puzzles") or [None]))
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
        return busy(
            503,
            f"no solver process became free within max_queue_seconds "
            f"({settings.max_queue_seconds:g} s); try again shortly",
            "max_queue_seconds",
        )
    if isinstance(reply, Broken):
        return busy(503, f"no solver can run: {reply.why}", "solver_pool")
    if isinstance(reply, Died):  # the server's trouble, not the puzzle's: try again later
        cap = settings.worker_memory_mb
        why = (
            f"they may have reached their memory cap ({cap} MB, --worker-memory-mb)"
            if cap
            else "the server may be short of memory"
        )
        return busy(503, f"three solver processes in a row died answering this request: {why}", "solver_pool")
    if isinstance(reply, Refused):
        return error(reply.status, reply.message, reply.limit)
    if task["action"] == "export":
        if isinstance(reply, TimedOut):
            return error(422, "the puzzle could not be built within the time limit")
        if isinstance(reply, Crashed):
            return error(422, f"the puzzle could not be built ({reply.why})")
        return JSONResponse(answered(reply)[0])
    return reply


def time_limit_error(service: Service, body: SolveRequest) -> JSONResponse | None:
    settings = service.settings
    if body.time_limit is not None and body.time_limit > settings.max_seconds:
        return error(
            422,
            f"time_limit {body.time_limit:g} s is more than max_seconds "
            f"({settings.max_seconds:g} s) per request; use a job for longer work",
            "max_seconds",
        )
    return None


async def answer(
    service: Service, kind: str, action: str, body: SolveRequest, explain: bool, request: Request
) -> Any:
    task = task_of(service, kind, action, body)
    if isinstance(task, JSONResponse):
        return task
    too_long = time_limit_error(service, body)
    if too_long is not None:
        return too_long
    task["explain"] = explain
    # A small request is answered here (see .inline), unless the solver processes are broken
    # (then it is the pool's 503 like any other) or the server was started with --no-inline.
    here = service.settings.inline and not service.pool.broken
    reply = service.inline.answer(task) if here else None
    if isinstance(reply, Refused):
        return error(reply.status, reply.message, reply.limit)
    if reply is None:
        reply = await dispatch(service, task, service.settings.max_seconds, request)
    if isinstance(reply, JSONResponse):
        return reply
    records = answered(reply)
    if isinstance(reply, TimedOut) or len(records) < len(task["puzzles"]):
        note = (
            "stopped: the request's time limit was reached"
            if isinstance(reply, TimedOut)
            else f"not answered: {reply.why if isinstance(reply, Crashed) else 'no answer'}"
        )
        have = {r.get("index", i): r for i, r in enumerate(records)}
        records = [have.get(i) or kinds.unanswered(task, i, note) for i in range(len(task["puzzles"]))]
    if isinstance(reply, Crashed) and task["single"]:
        return error(422, f"this puzzle could not be answered ({reply.why})")
    return JSONResponse(records[0] if task["single"] else {"results": records})


def router(service: Service) -> APIRouter:
    routes = APIRouter()
    explain_query = Query(
        False,
        description="add what the web page draws: clashing cells of "
        "unsolvable grids; crossing banks after each step",
    )

    @routes.post("/v1/{kind}/solve", tags=["puzzles"], responses={**ANSWERS, **ERRORS, **POSTED, **BUSY})
    async def solve(
        body: SolveRequest, request: Request, kind: str = kind_path("solve"), explain: bool = explain_query
    ) -> Any:
        """Solve one puzzle (`puzzle`) or a batch (`puzzles`): the CLI's `--json` object(s)."""
        return await answer(service, kind, "solve", body, explain, request)

    @routes.post("/v1/{kind}/check", tags=["puzzles"], responses={**ANSWERS, **ERRORS, **POSTED, **BUSY})
    async def check(
        body: SolveRequest, request: Request, kind: str = kind_path("check"), explain: bool = explain_query
    ) -> Any:
        """Unique, multiple (with two verified witnesses), unsolvable or unknown."""
        return await answer(service, kind, "check", body, explain, request)

    @routes.post("/v1/{kind}/count", tags=["puzzles"], responses={**ANSWERS, **ERRORS, **POSTED, **BUSY})
    async def count(
        body: SolveRequest, request: Request, kind: str = kind_path("count"), explain: bool = explain_query
    ) -> Any:
        """Count solutions (up to `limit`, within the time limit; `complete` says if that is all)."""
        return await answer(service, kind, "count", body, explain, request)

    @routes.post("/v1/{kind}/compare", tags=["puzzles"], responses={**COMPARED, **ERRORS, **POSTED, **BUSY})
    async def compare_engines(
        body: CompareRequest, request: Request, kind: str = kind_path("compare")
    ) -> Any:
        """Each puzzle on each engine (`engines`, asked `question`): one row per puzzle and
        engine (the answer, `seconds`, `stats`), a summary per engine and whether they agree.
        Bounded: at most MAX_COMPARE_PUZZLES puzzles, within the same hard time cap, the
        time shared out evenly among the engines."""
        if kinds.plan_kind(kind) is not None:
            return error(422, f"compare: grid kinds only here ({kind} puzzles: mindgames compare {kind})")
        if body.certify:
            return error(422, "certify: not with compare")
        if body.links:
            return error(422, f"links: not with compare ({', '.join(LINKED_ACTIONS)} answers carry links)")
        if len(body.puzzles or ()) > MAX_COMPARE_PUZZLES:
            return error(
                413,
                f"{len(body.puzzles)} puzzles is more than {MAX_COMPARE_PUZZLES} per compare request",
                "max_compare_puzzles",
            )
        task = task_of(service, kind, "check", body)
        if isinstance(task, JSONResponse):
            return task
        too_long = time_limit_error(service, body)
        if too_long is not None:
            return too_long
        task["action"] = "compare"
        reply = await dispatch(service, task, service.settings.max_seconds, request)
        if isinstance(reply, JSONResponse):
            return reply
        from mindgames.models import compare

        rows = [compare.Row.from_json(row) for record in answered(reply) for row in record.get("rows", ())]
        engines = list(dict.fromkeys(body.engines or compare.default_engines()))
        return JSONResponse(compare.compare_json(rows, engines, stopped=isinstance(reply, TimedOut)))

    @routes.post(
        "/v1/{kind}/explain",
        tags=["puzzles"],
        responses={
            **ERRORS,
            **POSTED,
            **BUSY,
            **example(
                {
                    "index": 0,
                    "explanation": "clash",
                    "clash": [[1, 1], [1, 6]],
                    "text": "givens clash: 5 appears twice in row 1 (r1c1 and r1c6)",
                },
                "clash (a minimal set of givens), open (open_cells, add_givens) or unique (grade)",
            ),
        },
    )
    async def explain_puzzle(body: SolveRequest, request: Request, kind: str = kind_path("explain")) -> Any:
        """Why: `clash` (a minimal set of clashing givens), `open` (the cells two solutions
        differ in, and `add_givens` that make it unique) or `unique` (its `grade`)."""
        return await answer(service, kind, "explain", body, False, request)

    @routes.post(
        "/v1/{kind}/hint",
        tags=["puzzles"],
        responses={
            **ERRORS,
            **POSTED,
            **BUSY,
            **example(
                {
                    "index": 0,
                    "row": 1,
                    "col": 4,
                    "value": 8,
                    "technique": "hidden single",
                    "because": [[1, 5], [1, 6]],
                    "text": "8 can go nowhere else in row 1: r1c4 is 8",
                },
                "the next value the ladder deduces, and why",
            ),
        },
    )
    async def hint(body: SolveRequest, request: Request, kind: str = kind_path("hint")) -> Any:
        """The next cell that can be deduced: `row`, `col`, `value`, `technique`, `because`, `text`."""
        return await answer(service, kind, "hint", body, False, request)

    @routes.post(
        "/v1/{kind}/read",
        tags=["puzzles"],
        responses={
            **ERRORS,
            **POSTED,
            **example(
                {
                    "puzzle": {
                        "grid": [[0, 1, 0, 0], [0, 0, 0, 2], [3, 0, 0, 0], [0, 0, 3, 0]],
                        "box": [2, 2],
                    },
                    "links": {"puzzlink": {"puzzle": "https://puzz.link/p?sudoku/4/4/g1k23k3g"}},
                },
                "the puzzle as the kind's JSON object, and with `links`: true each site's link",
            ),
        },
    )
    async def read_puzzle(body: SolveRequest, kind: str = grid_kind_path()) -> Any:
        """The puzzle read as the kind reads it (a site's link, a game ID, any text format):
        its JSON object (`puzzle`), and with `links` the link opening it on each site.  Nothing
        is solved: what the web page's "paste a link" and "share" ask."""
        grid = kinds.grid_kind(kind)
        if grid is None:
            names = ", ".join(g.name for g in kinds.grid_kinds())
            status = 422 if kind in kinds.kind_names() else 404
            return error(status, f"{kind!r} puzzles are not read here; grid kinds: {names}")
        if body.puzzle is None or body.puzzles is not None:
            return error(422, 'give "puzzle" (one), the text or value to read')
        fields = body.model_dump()
        problem = kinds.options_error(kind, fields)
        if problem:
            return error(422, problem)
        if nesting(body.puzzle) > MAX_NESTING:
            return error(422, f"puzzle: nested more than {MAX_NESTING} lists or objects deep")
        try:
            puzzle = await asyncio.to_thread(kinds.parse_one, kind, body.puzzle, fields)
            reply: dict[str, Any] = {"puzzle": grid.to_json(puzzle)}
        except PuzzleError as problem_found:
            return error(422, str(problem_found))
        if body.links:
            reply["links"] = share_links(grid, puzzle)
        return reply

    return routes


def grid_kind_path() -> Any:
    """The ``{kind}`` of ``/v1/{kind}/read``: a grid kind (as :func:`kind_path`)."""
    able = [grid.name for grid in kinds.grid_kinds()]
    return Path(description=f"the puzzle kind: {', '.join(able)}", json_schema_extra={"enum": able})


ANSWERING = ("solve", "check", "count", "explain", "hint")  # the routes of :func:`answer`
EXPLAIN_QUERIES = {b"": False, b"explain=false": False, b"explain=true": True}


class Express:
    """A short cut, in front of FastAPI's routing, for the requests of :func:`answer` whose
    body is a valid :class:`SolveRequest`: the same :func:`answer`, without resolving the
    route's parameters again (which took as long as a 9x9 solve).

    Anything else, and any request it does not read exactly as FastAPI would (a body that is
    not valid JSON or not a valid request, a query other than ``explain=true|false``), goes on
    to FastAPI unchanged: so every answer, error and the OpenAPI schema stay FastAPI's.
    It sits behind the :class:`~..gate.Gate`, which has checked the host, the token, the
    content type and the body's size, and read the body whole."""

    def __init__(self, app: Any, service: Service):
        self.app, self.service = app, service

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        route = self._route(scope)
        if route is None:
            return await self.app(scope, receive, send)
        event = await receive()
        body = event.get("body", b"") if event["type"] == "http.request" else b""
        replayed: list[dict] = [event]

        async def replay() -> dict:
            return replayed.pop() if replayed else await receive()

        try:
            request = SolveRequest.model_validate(json.loads(body))
        except Exception:  # noqa: BLE001 - FastAPI answers it, with its own error
            return await self.app(scope, replay, send)
        kind, action, explain = route
        replayed.clear()
        response = await answer(self.service, kind, action, request, explain, Request(scope, replay))
        await response(scope, receive, send)

    @staticmethod
    def _route(scope: dict) -> tuple[str, str, bool] | None:
        """(kind, action, explain) of a POST that :func:`answer` answers, else None."""
        if scope["type"] != "http" or scope["method"] != "POST":
            return None
        parts = scope["path"].split("/")
        if len(parts) != 4 or parts[1] != "v1" or parts[3] not in ANSWERING or not parts[2]:
            return None
        explain = EXPLAIN_QUERIES.get(scope.get("query_string", b""))
        if explain is None or (explain and parts[3] in ("explain", "hint")):
            return None
        return parts[2], parts[3], explain
