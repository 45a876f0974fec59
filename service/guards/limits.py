"""The request body limit, applied while the body arrives (an ASGI middleware).

uvicorn hands a body to the application as it comes, and the routes used to read all of
it before they checked its size: a 200 MiB body was held in memory whole. Here the body
is read first, never beyond the limit and within a time limit, and the application gets
it in one message.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..protocol import ErrorCode
from ..support.metrics import CONNECTIONS

log = logging.getLogger("service.limits")

Refusal = Callable[[ErrorCode, int, str], Response]


class _TooLarge(Exception):
    pass


class _ClientGone(Exception):
    pass


class RequestBodyLimit:
    """Refuses a body over ``max_bytes`` as early as it can, and bounds its arrival time.

    - a Content-Length over the limit: 413 before a byte of the body is read;
    - a chunked body: 413 the moment it passes the limit;
    - a body still incomplete ``timeout`` seconds after the headers: 408.

    These answers close the connection (the rest of the body is never read). A client
    that goes away in the middle of its body ends the request here with one log line and
    a count, instead of an error deep in a route.
    """

    def __init__(self, app: ASGIApp, max_bytes: int, timeout: float, refusal: Refusal) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.refusal = refusal

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        announced = _content_length(scope)
        if announced is not None and announced > self.max_bytes:
            await self._too_large(scope, receive, send, f"{announced} bytes announced")
            return
        try:
            async with asyncio.timeout(self.timeout):
                body = await self._read(receive)
        except _TooLarge:
            await self._too_large(scope, receive, send, "a chunked body passed the limit")
            return
        except TimeoutError:
            CONNECTIONS.timeouts.labels("body").inc()
            log.info("request body timed out: %s", _describe(scope))
            detail = f"the request body did not arrive within {self.timeout:g} s"
            await self._refuse(scope, receive, send, ErrorCode.BAD_MESSAGE, 408, detail)
            return
        except _ClientGone:
            CONNECTIONS.client_disconnects.inc()
            log.info("client disconnected during the request body: %s", _describe(scope))
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read(self, receive: Receive) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _ClientGone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                raise _TooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send, what: str) -> None:
        CONNECTIONS.oversized.labels("body").inc()
        log.info("request body refused (%s): %s", what, _describe(scope))
        detail = f"request bodies are limited to {self.max_bytes} bytes"
        await self._refuse(scope, receive, send, ErrorCode.FRAME_TOO_LARGE, 413, detail)

    async def _refuse(
        self, scope: Scope, receive: Receive, send: Send, code: ErrorCode, status: int, detail: str
    ) -> None:
        response = self.refusal(code, status, detail)
        # The rest of the body stays unread: the connection cannot carry another request.
        response.headers["connection"] = "close"
        await response(scope, receive, send)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _describe(scope: Scope) -> str:
    client = scope.get("client")
    address = client[0] if client else "-"
    return f"{scope['method']} {scope['path']} from {address}"


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body in one message, then whatever the connection says next (a disconnect)."""
    delivered = False

    async def replay() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
