"""Games in Redis, shared by every instance.

Keys of one game share the hash tag ``{<game id>}`` so the commit script, which touches
all of them, also runs on Redis Cluster:

- ``sol:{id}:g``   hash: ``s`` serialized state, ``v`` version, ``t`` token hash,
  ``c`` game code, ``w`` over (won or resigned) flag, ``r`` race id, ``p`` player id,
  ``dc`` daily challenge, ``x`` (present) the code is hidden until the game is over
- ``sol:{id}:log`` list: every accepted action, as its notation and its time (ms after
  ``t0``, the creation time in the game hash); action ``k`` (from 1) made version ``k``
- ``sol:{id}:rid`` list: the last request ids, as
  ``<request id>\\t<version>\\t<request fingerprint>``
- ``sol:{id}:ch``  pub/sub channel of accepted changes, ``<version>\\n<change json>``
- ``sol:{id}:cp``  hash: version (every ``CHECKPOINT_INTERVAL``-th) -> serialized state
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ..config import Settings
from . import (
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
    race_topic,
    read_log_entry,
)
from .redis_records import RedisRecords

log = logging.getLogger(__name__)

_COMMIT = """
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return {'missing', 0} end
v = tonumber(v)
if ARGV[4] ~= '' then
  -- A plain prefix test first: a pattern match of every remembered entry costs more
  -- than the rest of the script.
  local prefix = ARGV[4] .. '\\t'
  local n = #prefix
  for _, entry in ipairs(redis.call('LRANGE', KEYS[3], 0, -1)) do
    if string.sub(entry, 1, n) == prefix then
      local version, fp = string.match(entry, '^(%d+)\\t([^\\t]*)$', n + 1)
      if version then
        if fp == ARGV[11] then return {'duplicate', tonumber(version)} end
        return {'reused', tonumber(version)}
      end
    end
  end
end
if v ~= tonumber(ARGV[1]) then return {'conflict', v} end
if v >= tonumber(ARGV[9]) then return {'full', v} end
local nv = v + 1
redis.call('HSET', KEYS[1], 's', ARGV[2], 'v', nv, 'w', ARGV[5])
redis.call('RPUSH', KEYS[2], ARGV[3])
if nv % tonumber(ARGV[12]) == 0 then redis.call('HSET', KEYS[5], nv, ARGV[2]) end
if ARGV[4] ~= '' then
  redis.call('LPUSH', KEYS[3], ARGV[4] .. '\\t' .. nv .. '\\t' .. ARGV[11])
  redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[10]) - 1)
end
local ttl = tonumber(ARGV[7])
if ARGV[5] == '1' then ttl = tonumber(ARGV[8]) end
for _, i in ipairs({1, 2, 3, 5}) do
  if ttl > 0 then redis.call('EXPIRE', KEYS[i], ttl) else redis.call('PERSIST', KEYS[i]) end
end
redis.call('PUBLISH', KEYS[4], nv .. '\\n' .. ARGV[6])
return {'applied', nv}
"""

_SAVE_RACE = """
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return {'missing', 0} end
v = tonumber(v)
if v ~= tonumber(ARGV[1]) then return {'conflict', v} end
local nv = v + 1
redis.call('HSET', KEYS[1], 'd', ARGV[2], 'v', nv)
local ttl = tonumber(ARGV[4])
if ttl > 0 then redis.call('EXPIRE', KEYS[1], ttl) else redis.call('PERSIST', KEYS[1]) end
redis.call('PUBLISH', KEYS[2], nv .. '\\n' .. ARGV[3])
return {'applied', nv}
"""

_RETRY_CAP = 5.0
CLUSTER_SCHEME = "redis+cluster://"


class _Pipelined:
    """Runs the commands of many callers, those made meanwhile batched into pipelines.

    Through redis-py a lone command costs this process about 80-100 us of CPU, in a
    pipeline about 20, and a burst of lone commands makes the pool open a connection for
    each (tens of us more, and a handshake with Redis): under load, when many games commit
    or many races end at once, batching them is the largest saving there is. A lone call
    goes out at once, so nothing waits for a batch to fill; calls made while a batch is on
    its way go out together as the next one. The commands of one call are sent in order,
    without other callers' commands between them, but not as a transaction.
    """

    def __init__(self, redis: aioredis.Redis, scripts: list[str]) -> None:
        self._redis = redis
        self._scripts = scripts
        self._queue: list[tuple[tuple[tuple[Any, ...], ...], asyncio.Future[list[Any]]]] = []
        self._sender: asyncio.Task[None] | None = None

    async def __call__(self, *commands: tuple[Any, ...]) -> list[Any]:
        """The replies of ``commands``; the first error among them is raised."""
        future: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        self._queue.append((commands, future))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send(), name="redis-pipelined")
        return await future

    async def close(self) -> None:
        """Sends what is queued or on its way (for up to 5 s), then gives up on the rest."""
        sender = self._sender
        if sender is None or sender.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(sender), timeout=5.0)
        except TimeoutError:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender

    async def _send(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            try:
                replies = await self._execute([c for commands, _ in batch for c in commands])
            except Exception as exc:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            except BaseException:  # cancelled: the store is closing
                for _, future in batch + self._queue:
                    future.cancel()
                self._queue = []
                raise
            start = 0
            for commands, future in batch:
                part = replies[start : start + len(commands)]
                start += len(commands)
                if future.done():  # its caller gave up; a commit stands all the same
                    continue
                error = next((reply for reply in part if isinstance(reply, Exception)), None)
                if error is not None:
                    future.set_exception(error)
                else:
                    future.set_result(part)

    async def _execute(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        async with self._redis.pipeline(transaction=False) as pipe:
            for command in commands:
                pipe.execute_command(*command)
            replies: list[Any] = await pipe.execute(raise_on_error=False)
        missing = [i for i, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
        if missing:
            # Redis lost its script cache (a restart): a NOSCRIPT call did not run.
            for script in self._scripts:
                await self._redis.script_load(script)
            again = await self._execute([commands[i] for i in missing])
            for i, reply in zip(missing, again, strict=True):
                replies[i] = reply
        return replies


class _OneByOne:
    """The same interface on Redis Cluster, where a pipeline splits by node anyway: the
    commands go one by one, each to its node."""

    def __init__(self, redis: RedisCluster, scripts: list[str]) -> None:
        self._redis = redis
        self._scripts = scripts

    async def __call__(self, *commands: tuple[Any, ...]) -> list[Any]:
        replies = []
        for command in commands:
            try:
                replies.append(await self._redis.execute_command(*command))
            except NoScriptError:
                for script in self._scripts:
                    await self._redis.script_load(script)
                replies.append(await self._redis.execute_command(*command))
        return replies

    async def close(self) -> None:
        return None


def _sha(script: str) -> str:
    return hashlib.sha1(script.encode()).hexdigest()


_COMMIT_SHA = _sha(_COMMIT)
_SAVE_RACE_SHA = _sha(_SAVE_RACE)


def _keys(game_id: str) -> tuple[str, str, str, str]:
    tag = f"sol:{{{game_id}}}"
    return f"{tag}:g", f"{tag}:log", f"{tag}:rid", f"{tag}:ch"


def _checkpoint_key(game_id: str) -> str:
    return f"sol:{{{game_id}}}:cp"


def _race_keys(race_id: str) -> tuple[str, str]:
    tag = f"sol:{{{race_topic(race_id)}}}"
    return f"{tag}:doc", f"{tag}:ch"


def _join_key(join_code: str) -> str:
    return f"sol:join:{join_code}"


def _tally_key(key: str) -> str:
    return f"sol:tally:{key}"


def _stored_game(game_id: str, fields: dict[Any, Any]) -> StoredGame | None:
    if not fields:
        return None
    return StoredGame(
        game_id=game_id,
        version=int(fields[b"v"]),
        state=_text(fields[b"s"]),
        token_hash=_text(fields[b"t"]),
        code=_text(fields[b"c"]),
        won=fields[b"w"] == b"1",
        race_id=_text(fields.get(b"r", b"")),
        player_id=_text(fields.get(b"p", b"")),
        challenge=_text(fields.get(b"dc", b"")),
        hidden=fields.get(b"x") == b"1",
        created_ms=int(fields.get(b"t0", 0)),
    )


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _game_of_channel(channel: bytes) -> str:
    # "sol:{<id>}:ch" -> "<id>"
    text = channel.decode()
    return text[text.index("{") + 1 : text.rindex("}")]


class RedisStore(Store):
    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        options: dict[str, Any] = {
            "socket_timeout": 5.0,
            "socket_connect_timeout": 2.0,
            # After a Redis restart every pooled connection fails once: try again on a
            # fresh one. Safe for commits too, as each carries a request id.
            "retry": Retry(ExponentialBackoff(cap=0.5, base=0.02), 3),
            "retry_on_error": [RedisConnectionError, RedisTimeoutError],
        }
        url = settings.store_url
        self._redis: aioredis.Redis | RedisCluster
        if url.startswith(CLUSTER_SCHEME):
            # Every key of a game shares one hash tag, so each script runs on one node;
            # PUBLISH reaches every node over the cluster bus, so one subscriber
            # connection to any node hears all of them.
            self._redis = RedisCluster.from_url(
                "redis://" + url[len(CLUSTER_SCHEME) :],
                max_connections=settings.redis_max_connections,
                **options,
            )
        else:
            # A blocking pool: a burst beyond the pool waits for a free connection
            # instead of failing with "too many connections".
            pool = BlockingConnectionPool.from_url(
                url,
                max_connections=settings.redis_max_connections,
                timeout=options["socket_timeout"],
                health_check_interval=15,
                **options,
            )
            self._redis = aioredis.Redis(connection_pool=pool)
        scripts = [_COMMIT, _SAVE_RACE]
        self._run: _Pipelined | _OneByOne
        if isinstance(self._redis, RedisCluster):
            self._run = _OneByOne(self._redis, scripts)
        else:
            self._run = _Pipelined(self._redis, scripts)
        # The change feed has a client of its own without retries: a lost connection must
        # reach the reader, which then catches its subscribers up from the logs.
        feed = self._redis
        if not isinstance(self._redis, RedisCluster):
            feed = aioredis.Redis.from_url(
                url,
                socket_timeout=options["socket_timeout"],
                socket_connect_timeout=options["socket_connect_timeout"],
                health_check_interval=15,
            )
        self._feed = feed
        self.records = RedisRecords(self._redis)
        self._pubsub: PubSub = feed.pubsub(ignore_subscribe_messages=True)
        self._subscribed = asyncio.Event()
        # One pub/sub connection: concurrent first subscriptions must not each open one.
        self._pubsub_lock = asyncio.Lock()
        self._reader: asyncio.Task[None] | None = None

    @property
    def kind(self) -> str:
        return "redis"

    async def open(self) -> None:
        if not isinstance(self._redis, RedisCluster):
            with contextlib.suppress(RedisError, OSError):
                # Connected now; if Redis is down, the first subscribe (under the lock)
                # connects. (The cluster client picks its node at the first subscribe.)
                await self._pubsub.connect()  # type: ignore[no-untyped-call]
        self._reader = asyncio.create_task(self._read_changes(), name="redis-changes")

    async def close(self) -> None:
        await self._run.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        with contextlib.suppress(RedisError, OSError):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        if self._feed is not self._redis:
            await self._feed.aclose()
        await self._redis.aclose()

    async def ping(self) -> None:
        try:
            await self._redis.ping()
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def create(self, game: StoredGame) -> None:
        key, *_ = _keys(game.game_id)
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.hset(
                    key,
                    mapping={
                        "s": game.state,
                        "v": game.version,
                        "t": game.token_hash,
                        "c": game.code,
                        "w": int(game.won),
                        "r": game.race_id,
                        **({"p": game.player_id} if game.player_id else {}),
                        **({"dc": game.challenge} if game.challenge else {}),
                        **({"x": 1} if game.hidden else {}),
                        **({"t0": game.created_ms} if game.created_ms else {}),
                    },
                )
                pipe.expire(key, self.settings.game_ttl_seconds)
                await pipe.execute()
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def load(self, game_id: str) -> StoredGame | None:
        key, *_ = _keys(game_id)
        try:
            (fields,) = await self._run(("HGETALL", key))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return _stored_game(game_id, fields)

    async def load_many(
        self, game_ids: list[str], with_actions: bool = False
    ) -> list[tuple[StoredGame | None, list[str] | None]]:
        commands: list[tuple[Any, ...]] = []
        for game_id in game_ids:
            key, log_key, _, _ = _keys(game_id)
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
            stored = _stored_game(game_id, replies[index * step])
            actions = None
            if with_actions and stored is not None:
                entries = replies[index * step + 1]
                actions = [read_log_entry(_text(entry))[0] for entry in entries]
            found.append((stored, actions))
        return found

    async def commit(
        self,
        game_id: str,
        expected_version: int,
        state: str,
        notation: str,
        request_id: str | None,
        won: bool,
        payload: bytes,
        fingerprint: str = "",
    ) -> CommitResult:
        settings = self.settings
        try:
            keys = (*_keys(game_id), _checkpoint_key(game_id))
            ((status, version),) = await self._run(
                (
                    "EVALSHA",
                    _COMMIT_SHA,
                    len(keys),
                    *keys,
                    expected_version,
                    state,
                    notation,
                    request_id or "",
                    int(won),
                    payload,
                    settings.game_ttl_seconds,
                    settings.won_game_ttl_seconds,
                    settings.max_actions_per_game,
                    REQUEST_MEMORY,
                    fingerprint,
                    CHECKPOINT_INTERVAL,
                )
            )
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        result = CommitResult(CommitStatus(status.decode()), int(version))
        if result.status is CommitStatus.APPLIED:
            # This instance's subscribers get the change now; the copy that comes back
            # through pub/sub is then dropped by its version.
            self._dispatch(Delivery(game_id, result.version, payload))
        return result

    async def seen_request(self, game_id: str, request_id: str) -> tuple[int, str] | None:
        _, _, rid_key, _ = _keys(game_id)
        try:
            entries = await self._redis.lrange(rid_key, 0, -1)
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        for entry in entries:
            seen, version, fingerprint = _text(entry).rsplit("\t", 2)
            if seen == request_id:
                return int(version), fingerprint
        return None

    async def timed_actions(self, game_id: str) -> list[tuple[str, int | None]] | None:
        key, log_key, _, _ = _keys(game_id)
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.exists(key)
                pipe.lrange(log_key, 0, -1)
                exists, entries = await pipe.execute()
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        if not exists:
            return None
        return [read_log_entry(_text(entry)) for entry in entries]

    async def history(self, game_id: str, since: int, stop: int) -> History | None:
        base = since - since % CHECKPOINT_INTERVAL
        found = await self._history(game_id, base, stop)
        if found is None or found.base_state is not None or base == 0:
            return found
        # A game older than checkpoints: replayed from the deal.
        return await self._history(game_id, 0, stop)

    async def _history(self, game_id: str, base: int, stop: int) -> History | None:
        key, log_key, _, _ = _keys(game_id)
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.exists(key)
                pipe.hget(_checkpoint_key(game_id), str(base))
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
            None if state is None else _text(state),
            [read_log_entry(_text(entry))[0] for entry in entries[0]] if entries else [],
        )

    # ------------------------------------------------------------------ races

    async def create_race(self, race: StoredRace, join_code: str) -> bool:
        doc_key, _ = _race_keys(race.race_id)
        ttl = self.settings.game_ttl_seconds
        try:
            if not await self._redis.set(_join_key(join_code), race.race_id, nx=True, ex=ttl):
                return False
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.hset(doc_key, mapping={"d": race.doc, "v": race.version})
                pipe.expire(doc_key, ttl)
                await pipe.execute()
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return True

    async def load_race(self, race_id: str) -> StoredRace | None:
        doc_key, _ = _race_keys(race_id)
        try:
            (fields,) = await self._run(("HGETALL", doc_key))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        if not fields:
            return None
        return StoredRace(race_id, int(fields[b"v"]), _text(fields[b"d"]))

    async def save_race(
        self, race_id: str, expected_version: int, doc: str, payload: bytes, over: bool = False
    ) -> CommitResult:
        settings = self.settings
        ttl = settings.won_game_ttl_seconds if over else settings.game_ttl_seconds
        try:
            ((status, version),) = await self._run(
                (
                    "EVALSHA",
                    _SAVE_RACE_SHA,
                    2,
                    *_race_keys(race_id),
                    expected_version,
                    doc,
                    payload,
                    ttl,
                )
            )
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return CommitResult(CommitStatus(status.decode()), int(version))

    async def race_of_join_code(self, join_code: str) -> str | None:
        try:
            race_id = await self._redis.get(_join_key(join_code))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return _text(race_id) if race_id else None

    async def tally(self, key: str, window_seconds: int, add: int = 1) -> int:
        name = _tally_key(key)
        try:
            if not add:
                value = await self._redis.get(name)
                return int(value) if value else 0
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.incrby(name, add)
                pipe.expire(name, window_seconds, nx=True)
                count, _ = await pipe.execute()
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return int(count)

    async def publish(self, topic: str, payload: bytes) -> None:
        try:
            await self._run(("PUBLISH", self._channel(topic), b"0\n" + payload))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    @staticmethod
    def _channel(topic: str) -> str:
        return f"sol:{{{topic}}}:ch"

    # ------------------------------------------------------------------ fan-out

    async def _listen(self, game_id: str) -> None:
        try:
            async with self._pubsub_lock:
                await self._pubsub.subscribe(self._channel(game_id))
        except (RedisError, OSError) as exc:
            # The reader re-subscribes every channel once Redis is back.
            log.warning("subscribe failed, will retry: %s", exc)
        self._subscribed.set()

    async def _unlisten(self, game_id: str) -> None:
        with contextlib.suppress(RedisError, OSError):
            async with self._pubsub_lock:
                await self._pubsub.unsubscribe(self._channel(game_id))

    async def _read_changes(self) -> None:
        """One reader for all of this instance's subscriptions, reconnecting with backoff."""
        delay = 0.1
        while True:
            await self._subscribed.wait()
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except (RedisError, OSError) as exc:
                log.warning("change feed lost (%s); retrying in %.1fs", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, _RETRY_CAP)
                await self._resubscribe()
                continue
            except RuntimeError:
                # No channel was ever subscribed on this connection yet.
                await asyncio.sleep(0.05)
                continue
            delay = 0.1
            if message is None or message.get("type") != "message":
                continue
            version, _, payload = message["data"].partition(b"\n")
            self._dispatch(Delivery(_game_of_channel(message["channel"]), int(version), payload))

    async def _resubscribe(self) -> None:
        channels = [self._channel(topic) for topic in self._local]
        try:
            if channels:
                async with self._pubsub_lock:
                    await self._pubsub.subscribe(*channels)
        except (RedisError, OSError):
            return
        # Whatever was published while the feed was down is in each game's log.
        self._resync_all()
