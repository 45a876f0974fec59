"""Connection limits, enforced in uvicorn's HTTP protocol before any route runs: how many
connections the server holds (in all and per client address), how large a request's
line and headers may grow and how long they may take to arrive.

uvicorn's options do not cover these. ``limit_concurrency`` answers 503 only once a
request's headers are in, so silent sockets are never refused and still use up file
descriptors; httptools has no cap on header size or count; and ``timeout_keep_alive``
starts only after a first response, so a socket that never sends a byte is held for good.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..config import Settings
from ..http import problem
from ..protocol import ErrorCode
from ..support.metrics import CONNECTIONS

log = logging.getLogger("service.connections")

# Descriptors kept out of the connection cap, besides the Redis pool: the listening
# socket, Redis subscriptions, log and static files, the event loop's own.
SPARE_DESCRIPTORS = 64


def open_files_limit() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft


def connection_cap(settings: Settings, open_files: int) -> int:
    """``MAX_CONNECTIONS``, or when 0 what the open-file limit leaves for clients."""
    if settings.max_connections:
        return settings.max_connections
    return max(open_files - settings.redis_max_connections - SPARE_DESCRIPTORS, 1)


class ConnectionGuard:
    """Counts the open connections of one server, in all and by client address."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total = total
        self.per_address = per_address
        self.open = 0
        self.by_address: dict[str, int] = {}

    def admit(self, address: str) -> str | None:
        """Counts a new connection in; or the cap (``total``, ``per_address``) it hits."""
        if self.open >= self.total:
            return "total"
        held = self.by_address.get(address, 0)
        if self.per_address and held >= self.per_address:
            return "per_address"
        self.open += 1
        self.by_address[address] = held + 1
        CONNECTIONS.open.inc()
        return None

    def release(self, address: str) -> None:
        held = self.by_address.get(address, 0)
        if held <= 0:
            return
        self.open -= 1
        CONNECTIONS.open.dec()
        if held == 1:
            del self.by_address[address]
        else:
            self.by_address[address] = held - 1


@dataclass(frozen=True, slots=True)
class HeadLimits:
    """Limits of a request's line and headers (its head)."""

    max_bytes: int
    max_count: int
    timeout: float


def refusal(status: int, code: ErrorCode, detail: str) -> bytes:
    """A whole HTTP response with the service's JSON error body, closing the connection."""
    response = problem(code, status, detail)
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n".encode()]
    lines += [name + b": " + value + b"\r\n" for name, value in response.raw_headers]
    lines.append(b"connection: close\r\n\r\n")
    return b"".join(lines) + response.body


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, with the connection caps and the head limits.

    A connection over a cap is answered at once (429 or 503) and closed, so it holds a
    descriptor for no longer than that. A head over its size or count is answered 431; a
    head still incomplete ``timeout`` seconds after its first byte (or after the
    connection opened) gets 408, or is just closed if nothing at all was sent.
    """

    guard: ClassVar[ConnectionGuard]
    head: ClassVar[HeadLimits]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.address = ""
        self.admitted = False
        self.refused = False
        self.reading_head = False
        self.head_bytes = 0
        self.head_count = 0
        self.head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.address = self.client[0] if self.client else ""
        cap = self.guard.admit(self.address)
        if cap is not None:
            CONNECTIONS.refused.labels(cap).inc()
            log.info("connection from %s refused: %s connection cap", self.address, cap)
            if cap == "per_address":
                most = self.guard.per_address
                detail = f"too many connections from your address (at most {most})"
                self.refuse(429, ErrorCode.RATE_LIMITED, detail)
            else:
                detail = "the service is at its connection limit: try again shortly"
                self.refuse(503, ErrorCode.RATE_LIMITED, detail)
            return
        self.admitted = True
        self.arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self.cancel_head_timer()
        if self.admitted:
            self.admitted = False
            self.guard.release(self.address)
        super().connection_lost(exc)

    def refuse(self, status: int, code: ErrorCode, detail: str) -> None:
        """Answers and closes; whatever the client still sends is dropped unparsed."""
        self.refused = True
        self.cancel_head_timer()
        if not self.transport.is_closing():
            self.transport.write(refusal(status, code, detail))
            self.transport.close()

    # ----------------------------------------------------------------- the head

    def arm_head_timer(self) -> None:
        if self.head_timer is None:
            self.head_timer = self.loop.call_later(self.head.timeout, self.head_timed_out)

    def cancel_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def head_timed_out(self) -> None:
        self.head_timer = None
        if self.refused or self.transport.is_closing():
            return
        CONNECTIONS.timeouts.labels("header").inc()
        if self.reading_head:
            log.info("request headers from %s timed out", self.address)
            detail = f"the request line and headers did not arrive within {self.head.timeout:g} s"
            self.refuse(408, ErrorCode.BAD_MESSAGE, detail)
        else:
            # Nothing was asked: nothing to answer.
            log.info("connection from %s closed: nothing sent", self.address)
            self.refused = True
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return
        super().data_received(data)
        if self.reading_head and not self.refused:
            # httptools keeps an unfinished head in memory: bound it as it grows (by at
            # most one read beyond the limit).
            self.head_bytes += len(data)
            if self.head_bytes > self.head.max_bytes:
                self.head_too_large("header_bytes", f"{self.head.max_bytes} bytes")

    def head_too_large(self, part: str, limit: str) -> None:
        CONNECTIONS.oversized.labels(part).inc()
        log.info("request headers from %s refused: over %s", self.address, limit)
        detail = f"the request line and headers are limited to {limit}"
        self.refuse(431, ErrorCode.FRAME_TOO_LARGE, detail)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.reading_head = True
        self.head_bytes = 0
        self.head_count = 0
        self.arm_head_timer()

    def on_url(self, url: bytes) -> None:
        if not self.refused:
            super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        if self.refused:
            return
        self.head_count += 1
        if self.head_count > self.head.max_count:
            self.head_too_large("header_count", f"{self.head.max_count} header lines")
            return
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        if self.refused:
            return
        self.reading_head = False
        self.cancel_head_timer()
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self.refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if not self.refused:
            super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        if not self.refused:
            # The WebSocket protocol takes the connection over, and releases it.
            self.admitted = False
            super().handle_websocket_upgrade()


def guarded_http_protocol(settings: Settings, guard: ConnectionGuard) -> type[GuardedHttpProtocol]:
    """The protocol class for uvicorn's ``http`` option, bound to these limits."""
    head = HeadLimits(
        settings.max_header_bytes, settings.max_headers, settings.header_timeout_seconds
    )
    return type("ServiceHttpProtocol", (GuardedHttpProtocol,), {"guard": guard, "head": head})
