"""HTTP connections with deadlines: a client that sends nothing, or too slowly, is let go.

uvicorn closes a keep-alive connection left idle after a response (``timeout_keep_alive``)
but waits forever for a request's first bytes, its headers and its body: 1,000 idle
connections held 45 s kept 1,250 file descriptors open, and off loopback that happens
before the token is checked.  This protocol adds two deadlines to uvicorn's own
(httptools) protocol:

* ``header_seconds``: from the connection's start (or the first byte of a request on a
  kept-alive one) to the end of the request's headers;
* ``body_seconds``: from the end of the headers to the end of the body.

A request past either gets ``408 Request Timeout`` when nothing was answered yet, and
the connection is closed.  The defaults (see ``mindgames serve --help``) let a slow
client on a real network through: 1 MB (the default body cap) at 20 KB/s is 50 s.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

_TIMEOUT_BODY = b'{"error": "the request did not arrive within its deadline"}'
REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
    b"content-length: %d\r\n\r\n%s" % (len(_TIMEOUT_BODY), _TIMEOUT_BODY)
)


class DeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with header and body deadlines (class attributes,
    set by :func:`protocol_with_deadlines`)."""

    header_seconds: float = 30.0
    body_seconds: float = 120.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is None or not self.cycle.response_started:
            self.transport.write(REQUEST_TIMEOUT)
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.header_seconds)  # the first request's headers are due

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm(self.header_seconds)  # a kept-alive connection's next request has begun

    def on_headers_complete(self) -> None:
        self._arm(self.body_seconds)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()  # the request is whole; answering it is the app's time limit
        super().on_message_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def protocol_with_deadlines(header_seconds: float, body_seconds: float) -> type[DeadlineProtocol]:
    """The protocol class uvicorn is given (``http=``), with these deadlines."""
    return type(
        "DeadlineProtocol",
        (DeadlineProtocol,),
        {"header_seconds": header_seconds, "body_seconds": body_seconds},
    )


__all__ = ["DeadlineProtocol", "protocol_with_deadlines"]
