"""Games in Redis, shared by every instance (the keys and scripts: ``redis_layout``).

Commands go through ``redis_batches``: those of concurrent callers share pipelines. Each
instance hears the changes of the games its clients watch on one pub/sub connection, and
says in each game's watchers hash that it does, so that a commit publishes only when
another instance has watchers to hear it.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from redis.exceptions import RedisError, ResponseError

from ..config import Settings
from . import redis_once
from .base import (
    CHECKPOINT_INTERVAL,
    REQUEST_MEMORY,
    CommitResult,
    CommitStatus,
    Delivery,
    History,
    Store,
    StoredGame,
    StoredRace,
    StoreUnavailable,
    read_log_entry,
)
from .redis_arenas import SWAP_SCRIPT as ARENA_SWAP_SCRIPT
from .redis_arenas import RedisArenas
from .redis_board_moves import move_old_boards
from .redis_clients import connect
from .redis_feed import ChangeFeed
from .redis_layout import (
    CLAIM_JOIN_SCRIPT,
    COMMIT_SCRIPT,
    COMMIT_SHA,
    CREATE_GAME_SCRIPT,
    CREATE_GAME_SHA,
    CREATE_RACE_SCRIPT,
    RENEW_RACE_SCRIPT,
    SAVE_RACE_SCRIPT,
    TIMED_LOG_SCRIPT,
    TIMED_LOG_SHA,
    channel,
    checkpoint_key,
    game_keys,
    sha,
    stored_game,
    tally_key,
    text_of,
    watchers_key,
)
from .redis_races import RedisRaces
from .redis_records import RedisRecords
from .redis_seeks import RedisSeeks
from .redis_watchers import Watchers

log = logging.getLogger(__name__)

# The commit script's status replies, read without an Enum call per commit.
_COMMIT_STATUS = {status.value.encode(): status for status in CommitStatus}

TALLY_SHA = sha(redis_once.TALLY)


@functools.lru_cache(maxsize=4096)
def _commit_keys(game_id: str) -> tuple[str, ...]:
    """The keys a commit touches: built once per live game rather than once per action."""
    return (*game_keys(game_id), checkpoint_key(game_id), watchers_key(game_id))


class RedisStore(Store):
    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        scripts = [
            COMMIT_SCRIPT,
            SAVE_RACE_SCRIPT,
            CREATE_GAME_SCRIPT,
            CREATE_RACE_SCRIPT,
            CLAIM_JOIN_SCRIPT,
            ARENA_SWAP_SCRIPT,
            RENEW_RACE_SCRIPT,
            TIMED_LOG_SCRIPT,
            redis_once.TAKE,
            redis_once.SAVE,
            redis_once.TALLY,
        ]
        clients = connect(settings.store_url, settings.redis_max_connections, scripts)
        self._redis = clients.redis
        self._feed = clients.feed
        self._run = clients.run
        self.records = RedisRecords(self._redis, self._run)
        self.seeks = RedisSeeks(self._redis)
        self.arenas = RedisArenas(self._redis, self._run)
        self._races = RedisRaces(self._redis, self._run, settings)
        self._admit = self._redis.register_script(redis_once.ADMIT)
        self._refund = self._redis.register_script(redis_once.REFUND)
        self._watchers = Watchers(
            self._run,
            settings.game_ttl_seconds,
            watched=lambda topic: topic in self._local,
            on_lost=lambda: self._changes.recover_soon(),
        )
        self._changes = ChangeFeed(
            self._feed,
            deliver=self._dispatch,
            topics=lambda: list(self._local),
            resync=self._resync_all,
            rewatch=self._watchers.rewrite,
            connect_now=not clients.cluster,
        )

    @property
    def kind(self) -> str:
        return "redis"

    @property
    def feed_health(self) -> tuple[bool, int]:
        return self._changes.up, self._changes.losses

    async def open(self) -> None:
        try:
            # Before any request: a board still in an earlier key layout would read empty.
            await move_old_boards(self._redis)
        except (RedisError, OSError) as exc:
            log.warning(
                "boards of the earlier key layout not moved, tried again at the next start: %s", exc
            )
        await self._changes.open()

    async def close(self) -> None:
        await self._run.close()
        await self._changes.close()
        if self._feed is not self._redis:
            await self._feed.aclose()
        await self._redis.aclose()

    async def ping(self) -> None:
        try:
            await self._redis.ping()
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def create(self, game: StoredGame) -> None:
        key, *_ = game_keys(game.game_id)
        fields: dict[str, Any] = {
            "s": game.state,
            "v": game.version,
            "t": game.token_hash,
            "c": game.code,
            "w": int(game.over),
            "r": game.race_id,
            **({"p": game.player_id} if game.player_id else {}),
            **({"dc": game.challenge} if game.challenge else {}),
            **({"x": 1} if game.hidden else {}),
            **({"t0": game.created_ms} if game.created_ms else {}),
        }
        pairs = [item for field in fields.items() for item in field]
        ttl = self.settings.game_ttl_seconds
        try:
            # A script through the shared pipelines: a transaction of its own cost a
            # connection from the pool and about four times the CPU.
            await self._run(("EVALSHA", CREATE_GAME_SHA, 1, key, ttl, *pairs))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def load(self, game_id: str) -> StoredGame | None:
        key, *_ = game_keys(game_id)
        try:
            (fields,) = await self._run(("HGETALL", key))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return stored_game(game_id, fields)

    async def load_many(
        self, game_ids: list[str], with_actions: bool = False
    ) -> list[tuple[StoredGame | None, list[str] | None]]:
        commands: list[tuple[Any, ...]] = []
        for game_id in game_ids:
            key, log_key, _, _ = game_keys(game_id)
            commands.append(("HGETALL", key))
            if with_actions:
                commands.append(("LRANGE", log_key, 0, -1))
        try:
            # Not a transaction: the games may sit on different cluster nodes.
            replies = await self._run(*commands)
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        step = 2 if with_actions else 1
        found: list[tuple[StoredGame | None, list[str] | None]] = []
        for index, game_id in enumerate(game_ids):
            stored = stored_game(game_id, replies[index * step])
            actions = None
            if with_actions and stored is not None:
                entries = replies[index * step + 1]
                actions = [read_log_entry(text_of(entry))[0] for entry in entries]
            found.append((stored, actions))
        return found

    async def commit(
        self,
        game_id: str,
        expected_version: int,
        state: str,
        notation: str,
        request_id: str | None,
        over: bool,
        payload: bytes,
        fingerprint: str = "",
    ) -> CommitResult:
        settings = self.settings
        keys = _commit_keys(game_id)
        command = (
            "EVALSHA",
            COMMIT_SHA,
            len(keys),
            *keys,
            expected_version,
            state,
            notation,
            request_id or "",
            int(over),
            payload,
            settings.game_ttl_seconds,
            settings.won_game_ttl_seconds,
            settings.max_actions_per_game,
            REQUEST_MEMORY,
            fingerprint,
            CHECKPOINT_INTERVAL,
            self._watchers.instance_id,
            redis_once.nonce(),
        )
        try:
            ((status, version),) = await self._run(command)
        except (RedisError, OSError) as exc:
            # The commit may have been applied all the same, and published to nobody
            # here: this instance's watchers read the log instead.
            self._dispatch(Delivery(game_id, -1, None))
            raise StoreUnavailable(str(exc)) from exc
        result = CommitResult(_COMMIT_STATUS[status], int(version))
        if result.status is CommitStatus.APPLIED:
            # Not published back to this instance (see ``redis_layout``): its watchers
            # get the change from here.
            self._dispatch(Delivery(game_id, result.version, payload))
        elif result.status is CommitStatus.DUPLICATE:
            # An earlier try of this request may have been applied with its reply lost.
            self._dispatch(Delivery(game_id, -1, None))
        return result

    async def seen_request(self, game_id: str, request_id: str) -> tuple[int, str] | None:
        _, _, rid_key, _ = game_keys(game_id)
        try:
            try:
                (entry,) = await self._run(("HGET", rid_key, "=" + request_id))
            except ResponseError as exc:
                if not str(exc).startswith("WRONGTYPE"):
                    raise
                # Still the list of an earlier release (its next commit moves it).
                return _seen_in_list(await self._redis.lrange(rid_key, 0, -1), request_id)
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        if entry is None:
            return None
        # "<version>\t<fingerprint>", and the nonce of the commit that made it.
        version, fingerprint, *_ = text_of(entry).split("\t")
        return int(version), fingerprint

    async def timed_actions(self, game_id: str) -> list[tuple[str, int | None]] | None:
        key, log_key, _, _ = game_keys(game_id)
        try:
            (entries,) = await self._run(("EVALSHA", TIMED_LOG_SHA, 2, key, log_key))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        if entries is None:
            return None
        return [read_log_entry(text_of(entry)) for entry in entries]

    async def history(self, game_id: str, since: int, stop: int) -> History | None:
        base = since - since % CHECKPOINT_INTERVAL
        found = await self._history(game_id, base, stop)
        if found is None or found.base_state is not None or base == 0:
            return found
        # A game older than checkpoints: replayed from the deal.
        return await self._history(game_id, 0, stop)

    async def _history(self, game_id: str, base: int, stop: int) -> History | None:
        key, log_key, _, _ = game_keys(game_id)
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.exists(key)
                pipe.hget(checkpoint_key(game_id), str(base))
                pipe.llen(log_key)
                if stop > base:  # (LRANGE 0 -1 would be the whole log)
                    pipe.lrange(log_key, base, stop - 1)
                exists, state, length, *entries = await pipe.execute()
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        if not exists:
            return None
        if base == 0:
            state = None
        return History(
            int(length),
            base,
            None if state is None else text_of(state),
            [read_log_entry(text_of(entry))[0] for entry in entries[0]] if entries else [],
        )

    # ------------------------------------------------------------------ races

    async def create_race(self, race: StoredRace, join_code: str) -> bool:
        return await self._races.create(race, join_code)

    async def load_race(self, race_id: str) -> StoredRace | None:
        return await self._races.load(race_id)

    async def race_versions(self, race_ids: list[str]) -> dict[str, int]:
        return await self._races.versions(race_ids)

    async def save_race(
        self, race_id: str, expected_version: int, doc: str, payload: bytes, over: bool = False
    ) -> CommitResult:
        return await self._races.save(race_id, expected_version, doc, payload, over)

    async def renew_race(self, race_id: str) -> None:
        await self._races.renew(race_id)

    async def race_of_join_code(self, join_code: str) -> str | None:
        return await self._races.race_of_join_code(join_code)

    # ------------------------------------------------------------------ counters

    async def tally(self, key: str, window_seconds: int, add: int = 1) -> int:
        name = tally_key(key)
        try:
            if not add:
                (value,) = await self._run(("GET", name))
                return int(value) if value else 0
            marker = redis_once.marker(name, redis_once.nonce())
            call = (add, window_seconds, redis_once.MARKER_SECONDS)
            (count,) = await self._run(("EVALSHA", TALLY_SHA, 2, name, marker, *call))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return int(count)

    async def admit(self, key: str, limit: int, window_seconds: int) -> bool:
        name = tally_key(key)
        marker = redis_once.marker(name, redis_once.nonce())
        try:
            admitted = await self._admit(
                keys=[name, marker], args=[limit, window_seconds, redis_once.MARKER_SECONDS]
            )
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return bool(admitted)

    async def refund(self, key: str) -> None:
        name = tally_key(key)
        marker = redis_once.marker(name, redis_once.nonce())
        try:
            await self._refund(keys=[name, marker], args=[redis_once.MARKER_SECONDS])
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def publish(self, topic: str, payload: bytes) -> None:
        try:
            await self._run(("PUBLISH", channel(topic), b"0\n" + payload))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    # ------------------------------------------------------------------ fan-out

    async def _listen(self, game_id: str) -> None:
        await self._changes.listen(game_id)
        # Only after the subscription is confirmed: from here on a commit elsewhere is
        # published, and one made before is in the state the caller reads next.
        await self._watchers.sync(game_id)

    async def _unlisten(self, game_id: str) -> None:
        await self._changes.unlisten(game_id)
        await self._watchers.sync(game_id)


def _seen_in_list(entries: list[bytes | str], request_id: str) -> tuple[int, str] | None:
    for entry in entries:
        seen, version, fingerprint = text_of(entry).rsplit("\t", 2)
        if seen == request_id:
            return int(version), fingerprint
    return None
