"""Arena standings over a WebSocket: the pages of standings a connection follows, and
the small ``arena_standings`` messages that keep them current.

A follower gets its page in full once, then on each change of the arena (a message on
the arena's topic, from whichever instance counted a heat or paired players) only the
lines of its page that differ from what it was last sent, and its own line when it
changed. Reads of one page are shared by every follower of the page on this instance
while a change is being told, so a heat costs each instance a read per followed page,
not one per follower.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson

from ..arenas import PAGE_SIZE, Arenas, arena_topic
from ..errors import ServiceError
from ..protocol import ErrorCode
from ..protocol.ws import FollowArenaMessage, UnfollowArenaMessage
from ..store import Delivery, StoreUnavailable
from .frames import Outbox

log = logging.getLogger("service.ws")

# Arenas one connection may follow at once.
MAX_FOLLOWED = 4


class _Followed:
    __slots__ = ("page", "player_id", "rows", "token", "you")

    def __init__(self, page: int, token: str | None, player_id: str | None) -> None:
        self.page = page
        self.token = token
        self.player_id = player_id
        # Rank -> the line last sent.
        self.rows: dict[int, dict[str, Any]] = {}
        self.you: dict[str, Any] | None = None


class Following:
    """The store's subscriber for one connection's followed arenas."""

    def __init__(self, outbox: Outbox, arenas: Arenas) -> None:
        self.outbox = outbox
        self.arenas = arenas
        self.store = arenas.store
        self.followed: dict[str, _Followed] = {}
        self._sending: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()

    async def follow(self, message: FollowArenaMessage) -> None:
        arena_id = message.arena_id
        if arena_id not in self.followed and len(self.followed) >= MAX_FOLLOWED:
            raise ServiceError(
                ErrorCode.TOO_MANY_SUBSCRIPTIONS,
                429,
                f"at most {MAX_FOLLOWED} arenas per connection",
            )
        await self.arenas.record(arena_id)
        player_id = None
        if message.token is not None:
            player_id = await self.arenas.players.player_id_of(message.token)
        followed = _Followed(message.page, message.token, player_id)
        if arena_id not in self.followed:
            await self.store.subscribe(arena_topic(arena_id), self)
        self.followed[arena_id] = followed
        async with self._lock:
            await self._tell(arena_id, followed, message.id, full=True)

    async def unfollow(self, message: UnfollowArenaMessage) -> None:
        if self.followed.pop(message.arena_id, None) is None:
            raise ServiceError(ErrorCode.NOT_SUBSCRIBED, 409, "this arena is not followed here")
        await self.store.unsubscribe(arena_topic(message.arena_id), self)
        await self.outbox.send(
            {"type": "unsubscribed", "id": message.id, "arena_id": message.arena_id}
        )

    def deliver(self, delivery: Delivery) -> None:
        """Called by the store for a message on an arena's topic; never blocks."""
        arena_id = delivery.game_id.removeprefix("arena:")
        if arena_id not in self.followed:
            return
        task = asyncio.create_task(self._changed(arena_id, delivery.payload))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _changed(self, arena_id: str, payload: bytes | None) -> None:
        async with self._lock:
            followed = self.followed.get(arena_id)
            if followed is None:
                return
            news = orjson.loads(payload) if payload is not None else {}
            final = bool(news.get("final"))
            # Without a payload (the feed was lost a while) anything may have changed.
            mine = payload is None or final or followed.player_id in news.get("changed", [])
            try:
                await self._tell(arena_id, followed, None, full=final, mine=mine)
            except (ServiceError, StoreUnavailable) as exc:
                log.info("arena standings not sent: %s", exc)

    async def _tell(
        self,
        arena_id: str,
        followed: _Followed,
        request_id: str | None,
        full: bool,
        mine: bool = True,
    ) -> None:
        """Sends the page's changed lines (all with ``full``), and the follower's own
        line when ``mine`` says it may have changed (its rank may move without that:
        the rank in ``you`` is as of the follower's last change)."""
        start = (followed.page - 1) * PAGE_SIZE
        page = await self.arenas.shared_page(arena_id, start)
        rows = {row["rank"]: row for row in page["rows"]}
        you = followed.you
        if mine and followed.player_id is not None and followed.token is not None:
            you = (await self.arenas.view(arena_id, followed.token))["you"]
        changed = [row for rank, row in rows.items() if full or followed.rows.get(rank) != row]
        if not full and not changed and you == followed.you:
            return
        told_you = you if full or you != followed.you else None
        followed.rows = rows
        followed.you = you
        message: dict[str, Any] = {
            "type": "arena_standings",
            "arena_id": arena_id,
            "page": followed.page,
            "total": page["total"],
            "full": full,
            "final": page["final"],
            "rows": changed,
            "you": told_you,
        }
        if request_id is not None:
            message["id"] = request_id
        await self.outbox.send(message)

    async def stop(self) -> None:
        for arena_id in list(self.followed):
            self.followed.pop(arena_id, None)
            await self.store.unsubscribe(arena_topic(arena_id), self)
