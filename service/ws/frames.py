"""WebSocket frames in and out: one sender per connection, and the gate every received
frame passes (the rate, the flood guard, the size limit) before it is read; and the
welcome that answers a hello.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from starlette.websockets import WebSocket

from ..config import Settings
from ..games.changes import Applied
from ..guards.rates import TokenBucket
from ..protocol import PROTOCOL_VERSION, ErrorCode
from ..protocol.ws import HelloMessage
from ..support.metrics import Metrics

log = logging.getLogger("service.ws")

# Close code (RFC 6455) of a connection that keeps sending over the rate.
CLOSE_FLOOD = 1008


class Outbox:
    """Sends frames to one client; the pump and the answers to requests share it."""

    def __init__(self, websocket: WebSocket, metrics: Metrics) -> None:
        self.ws = websocket
        self.metrics = metrics
        self.lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_raw(orjson.dumps(message))

    async def send_raw(self, payload: bytes) -> None:
        async with self.lock:
            await self.ws.send_text(payload.decode())

    async def error(
        self,
        code: ErrorCode,
        message: str,
        request_id: str | None = None,
        **extra: Any,
    ) -> None:
        self.metrics.errors.labels(code.value).inc()
        body: dict[str, Any] = {"type": "error", "code": code.value, "message": message}
        if request_id is not None:
            body["id"] = request_id
        body.update({k: v for k, v in extra.items() if v is not None})
        await self.send(body)


class FrameGate:
    """Rate-limits and size-checks each received frame before ``handle`` reads it."""

    def __init__(
        self,
        outbox: Outbox,
        settings: Settings,
        handle: Callable[[bytes], Awaitable[None]],
    ) -> None:
        self.outbox = outbox
        self.settings = settings
        self.handle = handle
        self.bucket = TokenBucket(settings.rate_per_second, settings.rate_burst, time.monotonic())
        # When the last frames over the rate came: more than flood_dropped_frames of
        # them within flood_window_seconds close the connection.
        self.dropped: deque[float] = deque(maxlen=settings.flood_dropped_frames + 1)
        # A dropped frame is answered (rate_limited) only if a frame was admitted since
        # the last such answer, or a second has passed: a flood costs no reply per frame,
        # yet a client that re-sends what was refused is always told again.
        self.admitted_since_notice = True
        self.next_notice = 0.0

    async def admit(self, data: bytes) -> bool:
        """Rate-limits and size-checks one frame; False ends the connection (a flood).

        The rate is checked before anything else: a frame over it is dropped unread.
        """
        if not self.bucket.take(time.monotonic()):
            return await self._drop(data)
        self.admitted_since_notice = True
        if len(data) > self.settings.max_frame_bytes:
            await self.outbox.error(
                ErrorCode.FRAME_TOO_LARGE,
                f"frames are limited to {self.settings.max_frame_bytes} bytes",
            )
            return True
        await self.handle(data)
        return True

    async def _drop(self, data: bytes) -> bool:
        settings, metrics, ws = self.settings, self.outbox.metrics, self.outbox.ws
        metrics.ws_frames_dropped.inc()
        now = time.monotonic()
        dropped = self.dropped
        dropped.append(now)
        if len(dropped) == dropped.maxlen and now - dropped[0] <= settings.flood_window_seconds:
            metrics.ws_flood_closes.inc()
            log.info(
                "closing a flooding connection from %s",
                ws.client.host if ws.client else "?",
            )
            await ws.close(
                CLOSE_FLOOD,
                f"message flood: more than {settings.flood_dropped_frames} frames over the "
                f"rate within {settings.flood_window_seconds:g} s",
            )
            return False
        if self.admitted_since_notice or now >= self.next_notice:
            self.admitted_since_notice = False
            self.next_notice = now + 1.0
            await self.outbox.error(
                ErrorCode.RATE_LIMITED,
                f"at most {settings.rate_per_second:g} messages per second "
                f"(bursts of {settings.rate_burst}); this message was ignored",
                self._cheap_request_id(data),
            )
        return True

    def _cheap_request_id(self, data: bytes) -> str | None:
        """The id of a refused frame, so the client knows which request to send again."""
        if len(data) > self.settings.max_frame_bytes:
            return None
        try:
            return request_id_of(orjson.loads(data))
        except orjson.JSONDecodeError:
            return None


def request_id_of(raw: Any) -> str | None:
    if isinstance(raw, dict):
        value = raw.get("id")
        if isinstance(value, str) and 0 < len(value) <= 64:
            return value
    return None


def welcome(message: HelloMessage, settings: Settings) -> dict[str, Any]:
    """The answer to a hello of this protocol: the limits the client must keep to."""
    body: dict[str, Any] = {
        "type": "welcome",
        "protocol": PROTOCOL_VERSION,
        "max_frame_bytes": settings.max_frame_bytes,
        "max_subscriptions": settings.max_subscriptions,
        "rate_per_second": settings.rate_per_second,
        "rate_burst": settings.rate_burst,
    }
    if message.changes_in_results:
        body["changes_in_results"] = True
    return body


def accepted(request_id: str, game_id: str, applied: Applied) -> dict[str, Any]:
    """The result of an accepted action (or undo, or resign)."""
    return {
        "type": "result",
        "id": request_id,
        "game_id": game_id,
        "status": "accepted",
        "version": applied.version,
        "notation": applied.notation,
        "duplicate": applied.duplicate,
    }
