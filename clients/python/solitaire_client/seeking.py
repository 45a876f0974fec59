"""Quick pairing over a :class:`~solitaire_client.Connection`: a seek that lives while
the socket does, and is made again when the connection comes back on a new one.

The service cancels the seeks of a socket that closes, so a process that goes away takes
its seek with it at once. When the connection comes back on a new socket while the seek
waits, the session cancels the old seek by REST (``DELETE /pairing/seeks/{id}``), which
answers ``paired`` when a wave came first: the session then ends with that race, whose
``paired`` message was lost with the socket. Otherwise it seeks again on the new socket,
under a new seek id. A player has one waiting seek in all modes, which is why the old
seek is cancelled before the new one is asked for. The wait ends with :class:`SeekLost`
only when the seek cannot be made again (the player token refused, say).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any, cast

from service.protocol import ErrorCode
from service.protocol.pairing import PairingMode, SeekView
from service.protocol.ws import PairedMessage, SeekAnswer

from .connection import AnyServerMessage, Connection, Send
from .errors import AlreadySeeking, NotFound, ProtocolError
from .rest_base import http_url, new_request_id
from .rest_pairing import PairingCalls

__all__ = ["SeekCancelled", "SeekLost", "SeekSession"]

# Seeks made again in a row, each lost with its socket before it was held, before the
# session gives up: a connection that keeps dropping is a failure of its own.
_ATTEMPTS = 5


class SeekLost(ProtocolError):
    """The socket that held the seek closed, and the seek could not be made again:
    ``cause`` is the service's refusal (or the failure) that stopped it."""

    def __init__(self, seek_id: str, cause: ProtocolError | None = None) -> None:
        why = f": {cause}" if cause is not None else ""
        super().__init__("seek_lost", f"seek {seek_id} ended with its socket{why}")
        self.seek_id = seek_id
        self.cause = cause


class SeekCancelled(ProtocolError):
    """The seek was cancelled before a wave paired it."""

    def __init__(self, seek_id: str) -> None:
        super().__init__("cancelled", f"seek {seek_id} was cancelled")
        self.seek_id = seek_id


def _paired(seek: SeekView) -> PairedMessage | None:
    """The race of a paired seek, when it carries this player token's race token."""
    race = seek.race
    if seek.status != "paired" or race is None or race.player_token is None:
        return None
    return PairedMessage(
        type="paired",
        seek_id=seek.seek_id,
        race_id=race.race_id,
        game_id=race.game_id,
        player_id=race.player_id,
        player_token=race.player_token,
        opponent=race.opponent,
    )


class SeekSession:
    """One seek (``mode``, e.g. ``"TF.D1N"``) asked with a player token over a shared
    :class:`Connection`: ``await start()`` asks, ``await paired()`` waits for the race,
    ``await cancel()`` cancels.

    ``client`` (a :class:`~solitaire_client.ServiceClient` with the same player token)
    makes the REST calls of a reconnection; without it the session opens one of its own
    for them, at the connection's address.
    """

    def __init__(
        self,
        connection: Connection,
        player_token: str,
        mode: str,
        *,
        client: PairingCalls | None = None,
    ) -> None:
        self.connection = connection
        self.player_token = player_token
        self.mode = mode
        self.client = client
        self.seek: SeekView | None = None
        """The seek as the service last answered it; a new one after a reconnection."""
        self.reseeks = 0
        """How many times the seek was made again after its socket was lost."""
        self._sockets = 0
        self._held_on = 0
        self._answered_on = 0
        self._asking: str | None = None
        self._cancelling = False
        self._again: asyncio.Task[None] | None = None
        self._early: dict[str, PairedMessage] = {}
        self._done: asyncio.Future[PairedMessage] = asyncio.get_running_loop().create_future()
        # Waited on by ``paired()`` only: an unawaited failure is no error of its own.
        self._done.add_done_callback(lambda done: done.cancelled() or done.exception())

    async def start(self, timeout: float | None = None) -> SeekView:
        """Asks; returns the seek as the service holds it (``waiting``, or ``paired``)."""
        await self.connection.add(self)
        try:
            seek = await self._ask(timeout)
        except BaseException:
            self.connection.remove(self)
            raise
        self._after_held()
        return seek

    async def paired(self, timeout: float | None = None) -> PairedMessage:
        """The race and the seat once a wave pairs the seek (made again after a
        reconnection if need be); raises :class:`SeekCancelled`, :class:`SeekLost`, or
        the connection's failure otherwise."""
        async with asyncio.timeout(timeout):
            return await asyncio.shield(self._done)

    async def cancel(self, timeout: float | None = None) -> SeekView:
        """Cancels the seek (``cancel_seek``); the answer says ``paired`` when a wave came
        first, and :meth:`paired` then returns the race."""
        if self.seek is None:
            raise ProtocolError("bad_message", "no seek to cancel: start() first")
        self._cancelling = True
        again = self._again
        if again is not None and again is not asyncio.current_task():
            # The seek being made again is the one to cancel, once it is held.
            await asyncio.wait([again])
        if self._done.done():
            return self.seek
        seek_id = self.seek.seek_id
        try:
            answer = await self.connection.request(
                {"type": "cancel_seek", "seek_id": seek_id}, timeout=timeout
            )
        except ProtocolError as exc:
            # Sent again on a new socket, which did not make the seek: cancelled by REST.
            if exc.code != ErrorCode.NOT_YOUR_SEEK.value:
                raise
            read = await self._cancel_by_rest(seek_id)
            if read is None:
                self._fail(SeekCancelled(seek_id))
                return self.seek
            self.seek = read
        else:
            if not isinstance(answer, SeekAnswer):
                raise ProtocolError("bad_answer", f"a {answer.type} message answered cancel_seek")
            self.seek = answer.seek
        self._settle(self.seek)
        return self.seek

    # ------------------------------------------------------------------ asking

    async def _ask(self, timeout: float | None) -> SeekView:
        """Sends ``seek`` and holds what it answers. A seek sent again on a new socket
        (the connection re-sends a request left unanswered) may be refused because of
        itself, made on the lost socket: that seek is then taken over by REST."""
        request_id = new_request_id()
        sent_on = self._sockets
        self._asking = request_id
        message = {"type": "seek", "id": request_id, "mode": self.mode, "token": self.player_token}
        try:
            answer = await self.connection.request(message, timeout=timeout)
        except AlreadySeeking as exc:
            if self._sockets == sent_on:
                raise
            taken = await self._take_over(exc.seek_id)
            if taken is not None:
                self._hold(taken)
                return taken
            return await self._ask(timeout)
        finally:
            self._asking = None
        if not isinstance(answer, SeekAnswer):
            raise ProtocolError("bad_answer", f"a {answer.type} message answered a seek")
        self._hold(answer.seek)
        return answer.seek

    def _hold(self, seek: SeekView) -> None:
        self.seek = seek
        self._held_on = self._answered_on
        early = self._early.pop(seek.seek_id, None)
        self._early.clear()
        if early is not None:
            self._finish(early)
        else:
            self._settle(seek)

    def _after_held(self) -> None:
        """Makes the seek again when the socket that answered is already gone."""
        if self._held_on < self._sockets and not self._done.done() and self._again is None:
            self._again = asyncio.create_task(self._seek_again())

    # ------------------------------------------------------------------ reconnection

    @contextlib.asynccontextmanager
    async def _rest(self) -> AsyncIterator[PairingCalls]:
        if self.client is not None:
            yield self.client
            return
        # Only a reconnection needs one: it is not kept open for the whole wait.
        async with PairingCalls(
            http_url(self.connection.url), player_token=self.player_token
        ) as rest:
            yield rest

    async def _cancel_by_rest(self, seek_id: str) -> SeekView | None:
        """Cancels a seek by REST: the seek as it stands (``paired`` when a wave came
        first), or None when the service no longer has it."""
        try:
            async with self._rest() as rest:
                return await rest.cancel_seek(seek_id)
        except NotFound:
            return None

    async def _take_over(self, seek_id: str | None) -> SeekView | None:
        """Cancels the player's waiting seek, ``seek_id``; unnamed (by a service older
        than the refusal's ``seek_id`` over the WebSocket), it is found by a REST seek,
        whose refusal names it, or which is itself cancelled when nothing waited any
        more. The seek if a wave paired it first, else None."""
        if seek_id is None:
            try:
                async with self._rest() as rest:
                    seek_id = (await rest.seek_race(cast(PairingMode, self.mode))).seek_id
            except AlreadySeeking as exc:
                seek_id = exc.seek_id
            if seek_id is None:
                return None
        read = await self._cancel_by_rest(seek_id)
        return read if read is not None and _paired(read) is not None else None

    async def _seek_again(self) -> None:
        """The seek's socket was lost: cancels the seek by REST (the race, if a wave came
        first) and seeks again on the current socket, until a socket holds it."""
        lost = self.seek.seek_id if self.seek is not None else ""
        try:
            for _ in range(_ATTEMPTS):
                old = self.seek
                if old is not None and old.status == "waiting":
                    read = await self._cancel_by_rest(old.seek_id)
                    if read is not None and _paired(read) is not None:
                        self._hold(read)
                        return
                if self._done.done():
                    return
                if self._cancelling:
                    self._fail(SeekCancelled(lost))
                    return
                await self.connection.wait_connected()
                self.reseeks += 1
                await self._ask(None)
                if self._done.done() or self._held_on == self._sockets:
                    return
            self._fail(SeekLost(lost, ProtocolError("unreachable", "the socket kept dropping")))
        except ProtocolError as exc:
            self._fail(SeekLost(lost, exc))
        finally:
            self._again = None

    # ------------------------------------------------------------------ ending

    def _settle(self, seek: SeekView) -> None:
        paired = _paired(seek)
        if paired is not None:
            self._finish(paired)
        elif seek.status != "waiting":
            self._fail(SeekCancelled(seek.seek_id))

    def _finish(self, message: PairedMessage) -> None:
        if not self._done.done():
            self._done.set_result(message)
        self._end()

    def _fail(self, error: ProtocolError) -> None:
        if not self._done.done():
            self._done.set_exception(error)
        self._end()

    def _end(self) -> None:
        self.connection.remove(self)
        again = self._again
        if again is not None and again is not asyncio.current_task():
            again.cancel()

    # The connection's Subscription interface.

    async def on_connected(self, send: Send) -> None:
        self._sockets += 1
        # Asking, the connection sends the seek again itself (and ``_ask`` sorts it out).
        if self.seek is not None and self._asking is None:
            self._after_held()

    async def on_message(self, message: AnyServerMessage) -> None:
        if isinstance(message, SeekAnswer) and message.id == self._asking:
            self._answered_on = self._sockets
            return
        if not isinstance(message, PairedMessage) or self._done.done():
            return
        if self.seek is not None and message.seek_id == self.seek.seek_id:
            self._finish(message)
        elif self._asking is not None:
            self._early[message.seek_id] = message

    async def on_rate_limited(self, send: Send) -> None:
        """The seek request is re-sent by the connection itself."""

    def on_fatal(self, error: ProtocolError) -> None:
        self._fail(error)

    def __repr__(self) -> str:
        seek: Any = self.seek.seek_id if self.seek else None
        return f"SeekSession(mode={self.mode!r}, seek={seek!r})"
