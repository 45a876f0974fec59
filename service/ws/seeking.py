"""Quick pairing over a WebSocket: the connection's seeks, the ``paired`` message when a
wave pairs one (on whichever instance), and their end with the connection.

A seek asked for here lives while the connection does: the instance renews it, and a
socket that closes cancels every seek still waiting, so nobody is paired with a player
who has gone.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import orjson

from ..errors import ServiceError
from ..pairing import Pairing, seat_token, seek_topic
from ..protocol import ErrorCode
from ..protocol.ws import CancelSeekMessage, SeekMessage
from ..store import Delivery, StoreUnavailable
from .frames import Outbox

log = logging.getLogger("service.ws")

# Seeks one connection may hold at once: a player waits in one at a time, but one
# connection may seek for the players of several tokens.
MAX_SEEKS = 8


class Seeking:
    """The store's subscriber for one connection's seeks."""

    def __init__(self, outbox: Outbox, pairing: Pairing) -> None:
        self.outbox = outbox
        self.pairing = pairing
        self.store = pairing.store
        # Seek id -> the player token that asked (it computes the seat's race token).
        self.mine: dict[str, str] = {}
        self._sending: set[asyncio.Task[None]] = set()

    async def seek(self, message: SeekMessage) -> None:
        if len(self.mine) >= MAX_SEEKS:
            raise ServiceError(
                ErrorCode.TOO_MANY_SUBSCRIPTIONS, 429, f"at most {MAX_SEEKS} seeks per connection"
            )
        seek = await self.pairing.prepare(message.token, message.mode)
        # Listening before the seek can be paired: the message cannot be missed.
        topic = seek_topic(seek.seek_id)
        await self.store.subscribe(topic, self)
        try:
            await self.pairing.submit(seek)
        except (ServiceError, StoreUnavailable):
            await self.store.unsubscribe(topic, self)
            raise
        self.mine[seek.seek_id] = message.token
        self.pairing.live[seek.seek_id] = time.monotonic()
        answer = await self.pairing.read(seek.seek_id, message.token)
        await self.outbox.send({"type": "seek", "id": message.id, "seek": answer})

    async def cancel(self, message: CancelSeekMessage) -> None:
        token = self.mine.get(message.seek_id)
        if token is None:
            raise ServiceError(
                ErrorCode.NOT_YOUR_SEEK, 403, "this connection made no seek with this id"
            )
        answer = await self.pairing.cancel(message.seek_id, token)
        await self._forget(message.seek_id)
        await self.outbox.send({"type": "seek", "id": message.id, "seek": answer})

    async def _forget(self, seek_id: str) -> None:
        self.mine.pop(seek_id, None)
        self.pairing.live.pop(seek_id, None)
        await self.store.unsubscribe(seek_topic(seek_id), self)

    def deliver(self, delivery: Delivery) -> None:
        """Called by the store for a message on a seek's topic; never blocks."""
        seek_id = delivery.game_id.removeprefix("seek:")
        if seek_id not in self.mine:
            return
        task = asyncio.create_task(self._tell(seek_id, delivery.payload))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _tell(self, seek_id: str, payload: bytes | None) -> None:
        token = self.mine.get(seek_id)
        if token is None:
            return
        seat: dict[str, Any] | None
        if payload is not None:
            seat = orjson.loads(payload)
        else:
            # The feed was lost for a while: the seek says whether it was paired.
            seek = await self.store.seeks.get(seek_id)
            seat = seek.paired if seek is not None else None
        if seat is None:
            return
        await self._forget(seek_id)
        message = {"type": "paired", "seek_id": seek_id, **seat}
        await self.outbox.send({**message, "player_token": seat_token(token, seek_id)})

    async def stop(self) -> None:
        """The connection closed: its seeks still waiting are cancelled."""
        for seek_id, token in list(self.mine.items()):
            try:
                await self.pairing.cancel(seek_id, token)
            except (ServiceError, StoreUnavailable) as exc:
                log.info("a closed connection's seek was not cancelled: %s", exc)
            await self._forget(seek_id)
