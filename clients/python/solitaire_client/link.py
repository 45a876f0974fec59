"""The link under a :class:`~solitaire_client.connection.Connection`: it dials (again,
with backoff, after a drop), says ``hello``, paces what it sends to the rate the
``welcome`` announced, lets every subscription resubscribe and re-sends the requests still
waiting, then reads every message and routes it; when it gives up, everything waiting
fails with the reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from service.protocol import PROTOCOL_VERSION, ErrorCode
from service.protocol.ws import ErrorMessage, WelcomeMessage

from .errors import ProtocolError, ServiceUnavailable, SessionClosed
from .messages import SERVER_MESSAGE, AnyServerMessage, Subscription
from .rest_base import websocket_url

log = logging.getLogger("solitaire_client")


@dataclass(eq=False, slots=True)
class PendingRequest:
    """A request waiting for its answer, and the connection it was last sent on."""

    message: dict[str, Any]
    future: asyncio.Future[AnyServerMessage]
    generation: int = -1
    sent: int = field(default=0)


class RateBucket:
    """Client-side token bucket, a little stricter than the service's own."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = max(rate * 0.9, 0.1)
        self.burst = float(max(burst - 1, 1))
        self.tokens = self.burst
        self.stamp = time.monotonic()

    def delay(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        wait = (1.0 - self.tokens) / self.rate
        self.tokens -= 1.0
        return wait


class Link:
    """The state of a connection and the task that keeps it up; :class:`Connection` adds
    what its users call."""

    def __init__(
        self,
        url: str,
        *,
        reconnect: bool = True,
        give_up_after: float = 30.0,
        backoff: tuple[float, float] = (0.05, 2.0),
        request_timeout: float = 30.0,
        open_timeout: float = 10.0,
        throttle: bool = True,
    ) -> None:
        self.url = url if url.startswith(("ws://", "wss://")) else websocket_url(url)
        self.reconnect = reconnect
        self.give_up_after = give_up_after
        self.backoff = backoff
        self.request_timeout = request_timeout
        self.open_timeout = open_timeout
        self.throttle = throttle
        self.welcome: WelcomeMessage | None = None
        self.reconnects = 0
        """How many times the connection was re-established after a drop."""
        self.frames_received = 0
        self.resent_requests = 0
        """Requests re-sent (same id) after a reconnect or a rate-limit refusal."""
        self._ws: ClientConnection | None = None
        self._live = asyncio.Event()
        self._generation = 0
        self._requests: dict[str, PendingRequest] = {}
        self._subscriptions: list[Subscription] = []
        self._sub_generation: dict[int, int] = {}
        self._bucket: RateBucket | None = None
        self._send_lock = asyncio.Lock()
        self._supervisor: asyncio.Task[None] | None = None
        self._opened: asyncio.Future[None] | None = None
        self._failure: ProtocolError | None = None
        self._closing = False
        self._background: set[asyncio.Task[None]] = set()
        self._resend_scheduled = False

    # ------------------------------------------------------------------ sending

    async def send(self, message: dict[str, Any]) -> None:
        """Sends now if connected; otherwise drops it (subscriptions recover on reconnect)."""
        ws = self._ws
        if ws is None or not self._live.is_set():
            return
        with contextlib.suppress(ConnectionClosed):
            await self._send_on(ws, message)

    async def _send_on(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        async with self._send_lock:
            if self.throttle and self._bucket is not None:
                delay = self._bucket.delay()
                if delay > 0:
                    await asyncio.sleep(delay)
            await ws.send(json.dumps(message, separators=(",", ":")))

    # ------------------------------------------------------------------ supervisor

    async def _supervise(self) -> None:
        first = True
        down_since = time.monotonic()
        attempt = 0
        while not self._closing:
            try:
                ws = await connect(self.url, open_timeout=self.open_timeout, max_size=2**22)
            except (OSError, InvalidHandshake, TimeoutError) as exc:
                if first:
                    self._fail(ServiceUnavailable("unreachable", f"{self.url}: {exc}"))
                    return
                if not await self._wait_before_retry(down_since, attempt, exc):
                    return
                attempt += 1
                continue
            except InvalidURI as exc:
                self._fail(ProtocolError("bad_url", str(exc)))
                return
            try:
                await self._serve(ws, first)
            except ProtocolError as exc:
                self._fail(exc)
                with contextlib.suppress(Exception):
                    await ws.close()
                return
            except (ConnectionClosed, OSError, TimeoutError) as exc:
                log.info("connection to %s lost: %s", self.url, exc)
            finally:
                self._live.clear()
                self._ws = None
            if self._closing:
                return
            if first and self._opened is not None and not self._opened.done():
                self._fail(ServiceUnavailable("unreachable", "the connection closed at once"))
                return
            first = False
            if not self.reconnect:
                self._fail(SessionClosed("the connection was lost"))
                return
            down_since = time.monotonic()
            attempt = 0
            if not await self._wait_before_retry(down_since, attempt, None):
                return
            attempt += 1

    async def _wait_before_retry(
        self, down_since: float, attempt: int, exc: BaseException | None
    ) -> bool:
        if time.monotonic() - down_since > self.give_up_after:
            self._fail(
                ServiceUnavailable(
                    "unreachable",
                    f"could not reconnect to {self.url} within {self.give_up_after:g} s"
                    + (f": {exc}" if exc else ""),
                )
            )
            return False
        low, high = self.backoff
        await asyncio.sleep(min(high, low * 2**attempt))
        return True

    async def _serve(self, ws: ClientConnection, first: bool) -> None:
        await ws.send(f'{{"type":"hello","protocol":{PROTOCOL_VERSION}}}')
        async with asyncio.timeout(self.open_timeout):
            while True:
                raw = await ws.recv()
                message = self._parse(raw)
                if isinstance(message, WelcomeMessage):
                    break
                if isinstance(message, ErrorMessage):
                    if message.code is ErrorCode.UNSUPPORTED_PROTOCOL:
                        raise ProtocolError(message.code.value, message.message)
                    log.warning("error before welcome: %s", message.message)
        self.welcome = message
        self._bucket = RateBucket(message.rate_per_second, message.rate_burst)
        self._generation += 1
        generation = self._generation
        if not first:
            self.reconnects += 1

        async def send(payload: dict[str, Any]) -> None:
            await self._send_on(ws, payload)

        # Subscriptions first, then the requests still waiting (the service answers
        # messages in order, so a re-sent action finds its subscription in place).
        while True:
            subs = [s for s in self._subscriptions if self._sub_generation.get(id(s)) != generation]
            requests = [r for r in self._requests.values() if r.generation != generation]
            if not subs and not requests:
                break
            for sub in subs:
                self._sub_generation[id(sub)] = generation
                await sub.on_connected(send)
            for request in requests:
                if request.generation >= 0:
                    self.resent_requests += 1
                request.generation = generation
                await send(request.message)
                request.sent += 1
        self._ws = ws
        self._live.set()
        if self._opened is not None and not self._opened.done():
            self._opened.set_result(None)
        async for raw in ws:
            message = self._parse(raw)
            if message is not None:
                await self._dispatch(message)

    def _parse(self, raw: str | bytes) -> AnyServerMessage | None:
        self.frames_received += 1
        try:
            return SERVER_MESSAGE.validate_json(raw)
        except ValidationError as exc:
            log.warning("ignoring a message this client does not understand: %s", exc)
            return None

    async def _dispatch(self, message: AnyServerMessage) -> None:
        limited = isinstance(message, ErrorMessage) and message.code is ErrorCode.RATE_LIMITED
        request_id = getattr(message, "id", None)
        if request_id is not None and not limited:
            request = self._requests.get(request_id)
            if request is not None and not request.future.done():
                request.future.set_result(message)
        if limited and not self._resend_scheduled:
            # A refused frame was not read at all: it is sent again, not answered.
            self._resend_scheduled = True
            self._spawn(self._after_rate_limit())
        for sub in list(self._subscriptions):
            await sub.on_message(message)

    def _spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            await work

        task = asyncio.create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _after_rate_limit(self) -> None:
        """The service dropped a message: re-send whatever is still unanswered."""
        rate = self.welcome.rate_per_second if self.welcome else 1.0
        try:
            await asyncio.sleep(max(0.05, 1.0 / rate))
        finally:
            self._resend_scheduled = False
        ws = self._ws
        if ws is None or not self._live.is_set():
            return
        with contextlib.suppress(ConnectionClosed):
            for sub in list(self._subscriptions):
                await sub.on_rate_limited(self.send)
            for request in list(self._requests.values()):
                if not request.future.done():
                    self.resent_requests += 1
                    await self._send_on(ws, request.message)

    def _fail(self, error: ProtocolError) -> None:
        if self._failure is None:
            self._failure = error
        if self._opened is not None and not self._opened.done():
            self._opened.set_exception(error)
            # Retrieved by open(); avoid "exception never retrieved" when nobody waits.
            self._opened.exception()
        for request in self._requests.values():
            if not request.future.done():
                request.future.set_exception(error)
        for sub in list(self._subscriptions):
            sub.on_fatal(error)
