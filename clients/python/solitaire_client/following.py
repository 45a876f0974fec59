"""What a game session and a race session share: following one thing over a connection,
from the first view that arrives until the session is closed."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from types import TracebackType
from typing import Any, Self

from .connection import AnyServerMessage, Connection, Send
from .errors import ProtocolError, ServiceUnavailable, SessionClosed


class Following(ABC):
    """Opens its own connection (given ``url``) or shares one (``connection=``)."""

    # What ``start`` waits for, for its timeout message.
    first_view = "the first view"

    def __init__(
        self, url: str | None, connection: Connection | None, reconnect: bool = True
    ) -> None:
        if connection is None and url is None:
            raise ValueError("give the service url or an open connection")
        self._own_connection = connection is None
        self.connection = connection or Connection(url or "", reconnect=reconnect)
        self._failure: ProtocolError | None = None
        self._ready = asyncio.Event()
        self._changed = asyncio.Event()
        self._closed = False

    @property
    def failure(self) -> ProtocolError | None:
        return self._failure or self.connection.failure

    async def start(self, timeout: float = 10.0) -> Self:
        """Connects if needed, follows, and waits for the first view."""
        if self._own_connection:
            await self.connection.open()
        await self.connection.add(self)
        try:
            async with asyncio.timeout(timeout):
                await self._ready.wait()
        except TimeoutError:
            raise ServiceUnavailable("timeout", f"{self.first_view} did not arrive") from None
        self._check_usable()
        return self

    async def __aenter__(self) -> Self:
        try:
            return await self.start()
        except BaseException:
            await self.close()
            raise

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Stops following (and closes the connection if the session owns it)."""
        if self._closed:
            return
        self._closed = True
        self._stop()
        self.connection.remove(self)
        if self._own_connection:
            await self.connection.close()
        else:
            await self.connection.send(self._unfollow_message())
        self._ready.set()
        self._changed.set()

    def _check_usable(self, allow_closed: bool = False) -> None:
        failure = self.failure
        if failure is not None:
            raise failure
        if self._closed and not allow_closed:
            raise SessionClosed()

    def _stop(self) -> None:  # noqa: B027 - nothing to stop by default
        """Stops the session's own background work, if any, when it closes."""

    @abstractmethod
    def _unfollow_message(self) -> dict[str, Any]:
        """The message that stops following on a shared connection."""

    # The connection's Subscription interface.

    @abstractmethod
    async def on_connected(self, send: Send) -> None: ...

    @abstractmethod
    async def on_message(self, message: AnyServerMessage) -> None: ...

    @abstractmethod
    async def on_rate_limited(self, send: Send) -> None: ...

    @abstractmethod
    def on_fatal(self, error: ProtocolError) -> None: ...
