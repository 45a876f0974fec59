"""One WebSocket connection to the service that survives network failures.

:class:`Connection` says ``hello``, keeps the client under the rate limit announced in
``welcome``, matches answers to requests by request id, and routes pushed messages to
its subscriptions (game sessions, race watches). When the connection drops it dials
again with backoff, lets every subscription resubscribe (resuming from its last version)
and then re-sends every request still waiting for its answer *with the same request id*,
so the service recognises a request it has already applied instead of applying it twice.

The link that does the dialing, pacing and routing is :class:`~solitaire_client.link.Link`
(:mod:`.link`); the messages and the subscription protocol are in :mod:`.messages`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from types import TracebackType
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from service.protocol.ws import ErrorMessage, PingMessage

from .errors import ProtocolError, ServiceUnavailable, SessionClosed, error_from_message
from .link import Link, PendingRequest
from .messages import AnyServerMessage, Send, Subscription
from .rest_base import new_request_id

__all__ = ["AnyServerMessage", "Connection", "Send", "Subscription"]


class Connection(Link):
    """A resilient WebSocket connection; see the module docstring.

    ``url`` is the service's base URL (``http://host:port``) or its ``ws://.../ws`` URL.
    ``give_up_after`` bounds how long it keeps trying to reconnect (seconds). The
    constructor and these settings are :class:`~solitaire_client.link.Link`'s.
    """

    # ------------------------------------------------------------------ lifecycle

    async def open(self) -> Connection:
        """Connects (once); raises ``ServiceUnavailable`` if the service cannot be reached."""
        if self._supervisor is None:
            self._opened = asyncio.get_running_loop().create_future()
            self._supervisor = asyncio.create_task(self._supervise(), name="solitaire-ws")
        assert self._opened is not None
        await asyncio.shield(self._opened)
        return self

    async def __aenter__(self) -> Connection:
        return await self.open()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Closes the connection; waiting requests fail with ``SessionClosed``."""
        if self._closing:
            return
        self._closing = True
        self._live.clear()
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()
        if self._supervisor is not None:
            self._supervisor.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._supervisor
        for task in list(self._background):
            task.cancel()
        self._fail(SessionClosed())

    @property
    def connected(self) -> bool:
        return self._live.is_set()

    @property
    def closed(self) -> bool:
        return self._closing or self._failure is not None

    @property
    def failure(self) -> ProtocolError | None:
        return self._failure

    @property
    def websocket(self) -> ClientConnection | None:
        """The current underlying connection (None while reconnecting)."""
        return self._ws

    async def wait_connected(self, timeout: float | None = None) -> None:
        async with asyncio.timeout(timeout):
            await self._live.wait()

    # ------------------------------------------------------------------ subscriptions

    async def add(self, subscription: Subscription) -> None:
        """Starts routing messages to ``subscription`` and lets it subscribe."""
        if self._failure is not None:
            raise self._failure
        self._subscriptions.append(subscription)
        if self._live.is_set() and self._ws is not None:
            self._sub_generation[id(subscription)] = self._generation
            await subscription.on_connected(self.send)

    def remove(self, subscription: Subscription) -> None:
        with contextlib.suppress(ValueError):
            self._subscriptions.remove(subscription)
        self._sub_generation.pop(id(subscription), None)

    # ------------------------------------------------------------------ requests

    async def request(
        self, message: dict[str, Any], *, timeout: float | None = None
    ) -> AnyServerMessage:
        """Sends a request (its ``id`` set if missing) and returns the answer with that id.

        An ``error`` answer is raised as its typed error. The request is re-sent with
        the same id after a reconnect until it is answered, ``timeout`` passes (default
        ``request_timeout``; raises ``ServiceUnavailable``) or the connection gives up.
        """
        if self._failure is not None:
            raise self._failure
        request_id = message.setdefault("id", new_request_id())
        future: asyncio.Future[AnyServerMessage] = asyncio.get_running_loop().create_future()
        request = PendingRequest(message, future)
        self._requests[request_id] = request
        try:
            ws = self._ws
            if ws is not None and self._live.is_set():
                request.generation = self._generation
                with contextlib.suppress(ConnectionClosed):
                    await self._send_on(ws, message)
                    request.sent += 1
            wait = self.request_timeout if timeout is None else timeout
            try:
                async with asyncio.timeout(wait):
                    answer = await future
            except TimeoutError:
                raise ServiceUnavailable(
                    "timeout", f"no answer to {message.get('type')} within {wait:g} s"
                ) from None
        finally:
            self._requests.pop(request_id, None)
        if isinstance(answer, ErrorMessage):
            raise error_from_message(answer)
        return answer

    async def ping(self, timeout: float | None = None) -> float:
        """Round-trip time of an application-level ping, in seconds."""
        started = time.monotonic()
        message = PingMessage(type="ping", id=new_request_id()).model_dump(exclude_none=True)
        await self.request(message, timeout=timeout)
        return time.monotonic() - started
