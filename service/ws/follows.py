"""The arenas one connection follows (``follow_arena``, ``unfollow_arena``): each is a
``Follower`` of the instance's ``ArenaFollowers`` (``following.py``), which tells it."""

from __future__ import annotations

from collections.abc import Callable

import orjson

from ..errors import ServiceError
from ..protocol import ErrorCode
from ..protocol.ws import FollowArenaMessage, UnfollowArenaMessage
from .following import ArenaFollowers, Follower

# Arenas one connection may follow at once.
MAX_FOLLOWED = 4


class Following:
    """The arenas one connection follows."""

    def __init__(self, followers: ArenaFollowers, send: Callable[[bytes], None]) -> None:
        self.followers = followers
        self.arenas = followers.arenas
        # Queues a frame behind those queued before it (the connection's pump).
        self.send = send
        self.followed: dict[str, Follower] = {}

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
        follower = Follower(message.page, message.token, player_id, self.send)
        earlier = self.followed.pop(arena_id, None)
        if earlier is not None:
            await self.followers.remove(arena_id, earlier)
        await self.followers.add(arena_id, follower, message.id)
        self.followed[arena_id] = follower

    async def unfollow(self, message: UnfollowArenaMessage) -> None:
        follower = self.followed.pop(message.arena_id, None)
        if follower is None:
            raise ServiceError(ErrorCode.NOT_SUBSCRIBED, 409, "this arena is not followed here")
        await self.followers.remove(message.arena_id, follower)
        self.send(
            orjson.dumps({"type": "unsubscribed", "id": message.id, "arena_id": message.arena_id})
        )

    async def stop(self) -> None:
        for arena_id, follower in list(self.followed.items()):
            self.followed.pop(arena_id, None)
            await self.followers.remove(arena_id, follower)
