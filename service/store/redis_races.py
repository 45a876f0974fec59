"""Race documents in Redis (their keys and scripts: ``redis_layout``).

Every write here is answered the same when Redis is sent it twice (``redis_once``): a
save carries a nonce that the document remembers, a join code is the race's when it
already holds the race's id, and the document is created only where there is none.
"""

from __future__ import annotations

from typing import Any

from redis.exceptions import RedisError

from ..config import Settings
from . import redis_once
from .base import CommitResult, CommitStatus, StoredRace, StoreUnavailable
from .redis_batches import OneByOne, Pipelined
from .redis_layout import (
    CLAIM_JOIN_SHA,
    CREATE_RACE_SHA,
    RENEW_RACE_SHA,
    SAVE_RACE_SHA,
    join_key,
    race_keys,
    text_of,
)


class RedisRaces:
    def __init__(self, redis: Any, run: Pipelined | OneByOne, settings: Settings) -> None:
        self._redis = redis
        self._run = run
        self.settings = settings

    async def create(self, race: StoredRace, join_code: str) -> bool:
        doc_key, _ = race_keys(race.race_id)
        ttl = self.settings.game_ttl_seconds
        try:
            # Two keys in two hash slots: the code first, so that no race is stored
            # without its code.
            claim = ("EVALSHA", CLAIM_JOIN_SHA, 1, join_key(join_code), race.race_id, ttl)
            (claimed,) = await self._run(claim)
            if not claimed:
                return False
            await self._run(("EVALSHA", CREATE_RACE_SHA, 1, doc_key, race.doc, race.version, ttl))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return True

    async def load(self, race_id: str) -> StoredRace | None:
        doc_key, _ = race_keys(race_id)
        try:
            (fields,) = await self._run(("HGETALL", doc_key))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        if not fields:
            return None
        return StoredRace(race_id, int(fields[b"v"]), text_of(fields[b"d"]))

    async def versions(self, race_ids: list[str]) -> dict[str, int]:
        if not race_ids:
            return {}
        commands = [("HGET", race_keys(race_id)[0], "v") for race_id in race_ids]
        try:
            found = await self._run(*commands)
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return {r: int(v) for r, v in zip(race_ids, found, strict=True) if v is not None}

    async def save(
        self, race_id: str, expected_version: int, doc: str, payload: bytes, over: bool
    ) -> CommitResult:
        settings = self.settings
        ttl = settings.won_game_ttl_seconds if over else settings.game_ttl_seconds
        try:
            ((status, version),) = await self._run(
                (
                    "EVALSHA",
                    SAVE_RACE_SHA,
                    2,
                    *race_keys(race_id),
                    expected_version,
                    doc,
                    payload,
                    ttl,
                    redis_once.nonce(),
                    int(over),
                )
            )
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return CommitResult(CommitStatus(status.decode()), int(version))

    async def renew(self, race_id: str) -> None:
        ttl = self.settings.game_ttl_seconds
        if ttl <= 0:
            return
        doc_key, _ = race_keys(race_id)
        try:
            await self._run(("EVALSHA", RENEW_RACE_SHA, 1, doc_key, ttl))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def race_of_join_code(self, join_code: str) -> str | None:
        try:
            race_id = await self._redis.get(join_key(join_code))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return text_of(race_id) if race_id else None
