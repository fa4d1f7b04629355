"""Every error the API answers is JSON ``{"error": message, ...}``; a broken limit also names
it (``"limit": "max_body_bytes"``), a full queue says when to try again (``Retry-After``)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Router

from .jobs import StoreUnavailable


def error(status: int, message: str, limit: str | None = None, **extra: Any) -> JSONResponse:
    body: dict[str, Any] = {"error": message}
    if limit:
        body["limit"] = limit
    body.update(extra)
    return JSONResponse(body, status_code=status)


def busy(status: int, message: str, limit: str, retry: int = 2) -> JSONResponse:
    """A 429 / 503 that tells the client when to try again."""
    reply = error(status, message, limit)
    reply.headers["Retry-After"] = str(retry)
    return reply


def install_error_handlers(app: FastAPI) -> None:
    """Validation errors, HTTP errors and anything unexpected: always JSON with "error"."""

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
        # The exception's headers go out too: a 405's Allow names the methods the path takes.
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(methods_of(app.router, request.scope))
        if isinstance(exc.detail, dict):
            return JSONResponse(exc.detail, status_code=exc.status_code, headers=headers)
        reply = error(exc.status_code, str(exc.detail))
        reply.headers.update(headers)
        return reply

    @app.exception_handler(StoreUnavailable)
    async def store_unavailable(request: Request, exc: StoreUnavailable) -> JSONResponse:
        # The jobs database held by another process (try again shortly), or gone (help needed).
        if exc.retry:
            return busy(503, exc.message, "job_store")
        return error(503, exc.message, "job_store")

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:  # pragma: no cover
        return error(500, f"internal error: {type(exc).__name__}")


#: the methods a 405's ``Allow`` may name
HTTP_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")


def route_takes(router: Router, scope: dict) -> bool:
    """Whether some route of ``router`` takes this request: its method on its path."""
    return any(route.matches(scope)[0] == Match.FULL for route in router.routes)


def methods_of(router: Router, scope: dict) -> list[str]:
    """Every method some route takes on this request's path: a 405's ``Allow``.  Starlette's
    names only the first route's methods, and a path can have several routes (``/healthz``:
    GET, and HEAD declared apart to stay out of the OpenAPI document).  Each method is asked
    of the routes as a request would be (only on a 405: a few route matches)."""
    return [method for method in HTTP_METHODS if route_takes(router, {**scope, "method": method})]
