"""The gate in front of every route: Host check, bearer token, JSON-only POSTs, body size."""

from __future__ import annotations

import hmac
from typing import Any

from starlette.routing import Router

from .errors import error, route_takes
from .settings import Settings


class Gate:
    """Pure ASGI middleware in front of everything.

    * The Host header must name this server (its bound address, localhost, 127.0.0.1 or
      [::1] with its port, or an ``allowed_hosts`` name): a page on another site that
      re-points its own name at 127.0.0.1 (DNS rebinding) is refused with a 421.
    * The bearer token (when one is set) for ``/v1/``.
    * A POST to the API must say ``Content-Type: application/json`` (415): a cross-site
      form or ``text/plain`` POST, which a browser sends without asking, gets nowhere.
      Only a request some route takes is held to it: any other (a method the path does
      not take, a path that is none) goes on to its 405 with ``Allow``, or 404.
    * The body is read here, whole, before the app sees it: over ``limit`` bytes, with or
      without a Content-Length (chunked), is a 413 naming the limit."""

    def __init__(self, app: Any, settings: Settings, router: Router):
        self.app, self.limit, self.router = app, settings.max_body_bytes, router
        self.token = settings.token.encode() if settings.token else None
        self.hosts = allowed_hosts(settings)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        api = scope["path"].startswith("/v1/")
        raw = scope.get("headers", ())
        headers = dict(reversed(raw))  # a repeated header: the first, as Starlette reads it
        host = headers.get(b"host", b"").decode("latin-1").lower()
        if len(headers) != len(raw) and sum(name == b"host" for name, _ in raw) > 1:
            # RFC 9112 3.2: a request with more than one Host is answered 400, whichever comes first.
            return await error(400, "the request has more than one Host header")(scope, receive, send)
        if self.hosts is not None and host not in self.hosts and without_port(host) not in self.hosts:
            reply = error(
                421,
                f"this server does not answer to the host {host[:100]!r}: use "
                f"{sorted(self.hosts)[0]}, or start it with --allowed-host NAME",
                "allowed_hosts",
            )
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
            if kind != b"application/json" and route_takes(self.router, scope):
                shown = kind.decode("latin-1")[:60] or "none"
                return await error(
                    415,
                    f"the API reads JSON only: send Content-Type: application/json "
                    f"(this request's is {shown})",
                )(scope, receive, send)
        try:
            declared = int(headers.get(b"content-length", b"0"))
        except ValueError:
            declared = 0
        if declared > self.limit:
            return await self.too_big()(scope, receive, send)
        chunks, seen = [], 0
        while True:
            event = await receive()
            if event["type"] != "http.request":  # the client hung up while sending
                return
            chunk = event.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                return await self.too_big()(scope, receive, send)
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

    def too_big(self) -> Any:
        return error(
            413, f"the request body is larger than max_body_bytes ({self.limit} bytes)", "max_body_bytes"
        )


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
