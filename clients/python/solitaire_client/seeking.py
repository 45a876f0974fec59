"""Quick pairing over a :class:`~solitaire_client.Connection`: a seek that lives while
the socket does.

The service cancels the seeks of a socket that closes, so a process that goes away takes
its seek with it at once. A seek made over one socket does not outlive it: when the
connection comes back on a new socket while the seek waits, the wait ends with
:class:`SeekLost` (read the seek by REST, ``ServiceClient.get_seek``, to learn whether a
wave paired it first), and the caller seeks again.
"""

from __future__ import annotations

import asyncio
from typing import Any

from service.protocol.pairing import SeekView
from service.protocol.ws import PairedMessage, SeekAnswer

from .connection import AnyServerMessage, Connection, Send
from .errors import ProtocolError

__all__ = ["SeekCancelled", "SeekLost", "SeekSession"]


class SeekLost(ProtocolError):
    """The socket that held the seek closed: the service dropped the seek with it."""

    def __init__(self, seek_id: str) -> None:
        super().__init__("seek_lost", f"seek {seek_id} ended with the socket that made it")
        self.seek_id = seek_id


class SeekCancelled(ProtocolError):
    """The seek was cancelled before a wave paired it."""

    def __init__(self, seek_id: str) -> None:
        super().__init__("cancelled", f"seek {seek_id} was cancelled")
        self.seek_id = seek_id


class SeekSession:
    """One seek (``mode``, e.g. ``"TF.D1N"``) asked with a player token over a shared
    :class:`Connection`: ``await start()`` asks, ``await paired()`` waits for the race,
    ``await cancel()`` cancels."""

    def __init__(self, connection: Connection, player_token: str, mode: str) -> None:
        self.connection = connection
        self.player_token = player_token
        self.mode = mode
        self.seek: SeekView | None = None
        self._sockets = 0
        self._held_on = 0
        self._early: dict[str, PairedMessage] = {}
        self._done: asyncio.Future[PairedMessage] = asyncio.get_running_loop().create_future()
        # Waited on by ``paired()`` only: an unawaited failure is no error of its own.
        self._done.add_done_callback(lambda done: done.cancelled() or done.exception())

    async def start(self, timeout: float | None = None) -> SeekView:
        """Asks; returns the seek as the service holds it (``waiting``, or ``paired``)."""
        await self.connection.add(self)
        try:
            message = {"type": "seek", "mode": self.mode, "token": self.player_token}
            answer = await self.connection.request(message, timeout=timeout)
        except BaseException:
            self.connection.remove(self)
            raise
        if not isinstance(answer, SeekAnswer):
            raise ProtocolError("bad_answer", f"a {answer.type} message answered a seek")
        self.seek = answer.seek
        self._held_on = self._sockets
        early = self._early.pop(answer.seek.seek_id, None)
        if early is not None:
            self._finish(early)
        else:
            self._settle(answer.seek)
        return answer.seek

    async def paired(self, timeout: float | None = None) -> PairedMessage:
        """The race and the seat once a wave pairs the seek; raises :class:`SeekLost`,
        :class:`SeekCancelled`, or the connection's failure otherwise."""
        async with asyncio.timeout(timeout):
            return await asyncio.shield(self._done)

    async def cancel(self, timeout: float | None = None) -> SeekView:
        """Cancels the seek (``cancel_seek``); the answer says ``paired`` when a wave came
        first, and :meth:`paired` then returns the race."""
        if self.seek is None:
            raise ProtocolError("bad_message", "no seek to cancel: start() first")
        message = {"type": "cancel_seek", "seek_id": self.seek.seek_id}
        answer = await self.connection.request(message, timeout=timeout)
        if not isinstance(answer, SeekAnswer):
            raise ProtocolError("bad_answer", f"a {answer.type} message answered cancel_seek")
        self.seek = answer.seek
        self._settle(answer.seek)
        return answer.seek

    def _settle(self, seek: SeekView) -> None:
        race = seek.race
        if seek.status == "paired" and race is not None and race.player_token is not None:
            self._finish(
                PairedMessage(
                    type="paired",
                    seek_id=seek.seek_id,
                    race_id=race.race_id,
                    game_id=race.game_id,
                    player_id=race.player_id,
                    player_token=race.player_token,
                    opponent=race.opponent,
                )
            )
        elif seek.status != "waiting":
            self._fail(SeekCancelled(seek.seek_id))

    def _finish(self, message: PairedMessage) -> None:
        if not self._done.done():
            self._done.set_result(message)
        self.connection.remove(self)

    def _fail(self, error: ProtocolError) -> None:
        if not self._done.done():
            self._done.set_exception(error)
        self.connection.remove(self)

    # The connection's Subscription interface.

    async def on_connected(self, send: Send) -> None:
        self._sockets += 1
        if self.seek is not None and self._held_on < self._sockets and not self._done.done():
            self._fail(SeekLost(self.seek.seek_id))

    async def on_message(self, message: AnyServerMessage) -> None:
        if not isinstance(message, PairedMessage) or self._done.done():
            return
        if self.seek is not None and message.seek_id == self.seek.seek_id:
            self._finish(message)
        elif self.seek is None:
            self._early[message.seek_id] = message

    async def on_rate_limited(self, send: Send) -> None:
        """The seek request is re-sent by the connection itself."""

    def on_fatal(self, error: ProtocolError) -> None:
        self._fail(error)

    def __repr__(self) -> str:
        seek: Any = self.seek.seek_id if self.seek else None
        return f"SeekSession(mode={self.mode!r}, seek={seek!r})"
