"""Which instances watch a game: the watchers hash that lets a commit skip publishing.

An instance writes its id into ``sol:{<game id>}:w`` while its clients watch the game,
and the commit script publishes a change only when another instance is named there (see
``redis_layout``). Only games commit that way: a race's saves, an arena's changes and
the other topics' messages always publish, so they have no such hash.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

from ..support.ids import new_id
from ..support.locks import KeyedLocks
from .base import is_game_topic
from .redis_batches import OneByOne, Pipelined
from .redis_layout import watchers_key

log = logging.getLogger("service.store.redis")


class Watchers:
    """This instance's entries in the games' watchers hashes."""

    def __init__(
        self,
        run: Pipelined | OneByOne,
        ttl_seconds: int,
        watched: Callable[[str], bool],
        on_lost: Callable[[], None],
    ) -> None:
        self.instance_id = new_id(12)
        self._run = run
        self._ttl_seconds = ttl_seconds
        # Whether this instance's clients watch a topic now.
        self._watched = watched
        # Called when an entry could not be written: until it is, commits elsewhere may
        # not be published, so the feed must write it again and catch its watchers up.
        self._on_lost = on_lost
        self._written: set[str] = set()
        # One change of a game's entry at a time.
        self._locks = KeyedLocks()

    async def sync(self, topic: str) -> None:
        """Writes or removes this instance's entry for ``topic`` as ``watched`` says.

        A game's subscribe and unsubscribe can overlap; each write, made under the
        game's lock, follows what is wanted at that moment, so the last one is right.
        """
        if not is_game_topic(topic):
            return
        async with self._locks(topic):
            await self._sync(topic)

    async def _sync(self, game_id: str) -> None:
        wanted = self._watched(game_id)
        if wanted == (game_id in self._written):
            return
        try:
            if wanted:
                await self._run(*self._commands(game_id))
                self._written.add(game_id)
            else:
                self._written.discard(game_id)
                await self._run(("HDEL", watchers_key(game_id), self.instance_id))
        except (RedisError, OSError) as exc:
            if wanted:
                log.warning("could not register as a watcher of a game: %s", exc)
                self._on_lost()
            # (An entry left behind only costs needless publishes until it expires.)

    async def rewrite(self, topics: list[str]) -> None:
        """Writes the entries of ``topics`` again (a failover may have lost them); raises
        while Redis does not take them."""
        games = [topic for topic in topics if is_game_topic(topic)]
        commands = [command for game_id in games for command in self._commands(game_id)]
        if commands:
            await self._run(*commands)
        self._written.update(game_id for game_id in games if self._watched(game_id))

    def _commands(self, game_id: str) -> list[tuple[Any, ...]]:
        key = watchers_key(game_id)
        commands: list[tuple[Any, ...]] = [("HSET", key, self.instance_id, 1)]
        if self._ttl_seconds > 0:
            commands.append(("EXPIRE", key, self._ttl_seconds))
        return commands
