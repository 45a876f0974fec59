"""Arena tournaments in Redis (see ``arenas``).

An arena's keys share the hash tag ``{arena:<id>}``, so that each script below touches
one hash slot (also on Redis Cluster):

- ``sol:{arena:<id>}:record`` string: the arena's JSON
- ``sol:{arena:<id>}:entries`` hash: player id -> the player's entry JSON
- ``sol:{arena:<id>}:heats`` hash: race id -> the heat's JSON
- ``sol:{arena:<id>}:standings`` sorted set: player id -> standing score
- ``sol:{arena:<id>}:lock`` string: the instance running the arena's wave

and ``sol:arenas`` (sorted set: arena id -> start, ms) lists them. Each script answers a
send again as it answered the first (``redis_once``): it finds its own write done.
"""

from __future__ import annotations

from typing import Any

from redis.exceptions import RedisError

from . import redis_once, wave_locks
from .arenas import Arenas, Swap
from .base import StoreUnavailable
from .redis_batches import OneByOne, Pipelined
from .redis_layout import sha

_INDEX = "sol:arenas"

# KEYS: entries, heats, standings, record. ARGV: ttl, then each swap in turn: n entries,
# n triples (player id, JSON read or '', new JSON), the heat's race id or '', its JSON
# read or '', its new JSON, m scores, m pairs (player id, score). Each swap is applied
# or not on its own, in order; one answer per swap: 1 when applied (now or by this call
# sent before), else 0 and that swap changed nothing.
SWAP_SCRIPT = """
local answers = {}
local changed = false
local i = 2
while i <= #ARGV do
  local n = tonumber(ARGV[i])
  local fields = {}
  for k = 0, n - 1 do
    fields[#fields + 1] = {KEYS[1], ARGV[i + 1 + 3 * k], ARGV[i + 2 + 3 * k], ARGV[i + 3 + 3 * k]}
  end
  local h = i + 1 + 3 * n
  if ARGV[h] ~= '' then fields[#fields + 1] = {KEYS[2], ARGV[h], ARGV[h + 1], ARGV[h + 2]} end
  local m = tonumber(ARGV[h + 3])
  local same = true
  for _, f in ipairs(fields) do
    if (redis.call('HGET', f[1], f[2]) or '') ~= f[3] then same = false break end
  end
  local applied = 1
  if same then
    for _, f in ipairs(fields) do redis.call('HSET', f[1], f[2], f[4]) end
    for k = 0, m - 1 do redis.call('ZADD', KEYS[3], ARGV[h + 5 + 2 * k], ARGV[h + 4 + 2 * k]) end
    changed = true
  else
    for _, f in ipairs(fields) do
      if (redis.call('HGET', f[1], f[2]) or '') ~= f[4] then applied = 0 break end
    end
  end
  answers[#answers + 1] = applied
  i = h + 4 + 2 * m
end
if changed then
  for k = 1, 3 do redis.call('EXPIRE', KEYS[k], ARGV[1]) end
end
return answers
"""
_SWAP_SHA = sha(SWAP_SCRIPT)

# KEYS: record. ARGV: before, after. 1 when the record read ``before`` (or already
# ``after``) and now reads ``after``.
_REPLACE = """
local now = redis.call('GET', KEYS[1])
if now == ARGV[2] then return 1 end
if now ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1
"""


def _key(arena_id: str, what: str) -> str:
    return f"sol:{{arena:{arena_id}}}:{what}"


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisArenas(Arenas):
    shared = True

    def __init__(self, redis: Any, run: Pipelined | OneByOne) -> None:
        self._redis = redis
        # The shared pipelines (``redis_batches``), for the writes a wave makes by the
        # hundred: a script there costs a fraction of one through its own connection.
        self._run = run
        self._scripts = {
            name: redis.register_script(source)
            for name, source in (
                ("replace", _REPLACE),
                ("lock", wave_locks.LOCK),
                ("unlock", wave_locks.UNLOCK),
                ("create", redis_once.CLAIM),
            )
        }

    async def _call(self, name: str, keys: list[str], args: list[Any]) -> Any:
        try:
            return await self._scripts[name](keys=keys, args=args)
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def _read(self, *commands: tuple[Any, ...]) -> list[Any]:
        """Reads through the shared pipelines: the reads of standings and entries come
        by the hundred when an arena's followers are told."""
        try:
            return await self._run(*commands)
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def _do(self, command: str, *args: Any) -> Any:
        try:
            return await getattr(self._redis, command)(*args)
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def create(self, arena_id: str, record: str, start_ms: int, ttl: int) -> bool:
        # A claim with a marker (``redis_once``), not a bare SET NX: sent again after its
        # reply was lost, it answers True as the first send would have.
        key = _key(arena_id, "record")
        marker = redis_once.marker(key, redis_once.nonce())
        made = await self._call(
            "create", [key, marker], [record, max(1, ttl), redis_once.MARKER_SECONDS]
        )
        # Added to the index every time: a writer that stopped in between is finished by
        # the next one.
        await self._do("zadd", _INDEX, {arena_id: start_ms})
        return bool(made)

    async def replace(self, arena_id: str, before: str, after: str) -> bool:
        return int(await self._call("replace", [_key(arena_id, "record")], [before, after])) == 1

    async def get(self, arena_id: str) -> str | None:
        (found,) = await self._read(("GET", _key(arena_id, "record")))
        return None if found is None else _text(found)

    async def starting(self, since_ms: int, until_ms: int, limit: int) -> list[str]:
        ids = await self._do("zrangebyscore", _INDEX, since_ms, until_ms, 0, limit)
        if not ids:
            return []
        # One GET per arena in one pipeline, not MGET: each arena's record lives in the
        # hash slot of its own tag, and Redis Cluster refuses an MGET across slots.
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for arena_id in ids:
                    pipe.get(_key(_text(arena_id), "record"))
                records = await pipe.execute()
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return [_text(r) for r in records if r is not None]

    async def entries(self, arena_id: str, player_ids: list[str] | None = None) -> dict[str, str]:
        return await self._fields(_key(arena_id, "entries"), player_ids)

    async def heats(self, arena_id: str, race_ids: list[str] | None = None) -> dict[str, str]:
        return await self._fields(_key(arena_id, "heats"), race_ids)

    async def _fields(self, key: str, names: list[str] | None) -> dict[str, str]:
        """A hash's fields: every one, or those of ``names`` that it holds."""
        if names is None:
            (found,) = await self._read(("HGETALL", key))
            return {_text(k): _text(v) for k, v in found.items()}
        if not names:
            return {}
        (values,) = await self._read(("HMGET", key, *names))
        return {n: _text(v) for n, v in zip(names, values, strict=True) if v is not None}

    async def swaps(self, arena_id: str, swaps: list[Swap], ttl: int) -> list[bool]:
        if not swaps:
            return []
        keys = [_key(arena_id, w) for w in ("entries", "heats", "standings", "record")]
        args: list[Any] = [ttl]
        for swap in swaps:
            args.append(len(swap.entries))
            for player_id, old, new in swap.entries:
                args += [player_id, old or "", new]
            if swap.heat is None:
                args += ["", "", ""]
            else:
                race_id, old, new = swap.heat
                args += [race_id, old or "", new]
            args.append(len(swap.scores))
            for player_id, score in swap.scores.items():
                args += [player_id, repr(score)]
        try:
            (applied,) = await self._run(("EVALSHA", _SWAP_SHA, len(keys), *keys, *args))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return [int(a) == 1 for a in applied]

    async def standings(self, arena_id: str, start: int, stop: int) -> list[str]:
        (found,) = await self._read(("ZREVRANGE", _key(arena_id, "standings"), start, stop))
        return [_text(p) for p in found]

    async def rank(self, arena_id: str, player_id: str) -> int | None:
        (found,) = await self._read(("ZREVRANK", _key(arena_id, "standings"), player_id))
        return None if found is None else int(found)

    async def ranks(self, arena_id: str, player_ids: list[str]) -> dict[str, int]:
        if not player_ids:
            return {}
        key = _key(arena_id, "standings")
        found = await self._read(*(("ZREVRANK", key, p) for p in player_ids))
        return {p: int(r) for p, r in zip(player_ids, found, strict=True) if r is not None}

    async def count(self, arena_id: str) -> int:
        (count,) = await self._read(("ZCARD", _key(arena_id, "standings")))
        return int(count)

    async def lock(self, arena_id: str, owner: str, ms: int) -> bool:
        return int(await self._call("lock", [_key(arena_id, "lock")], [owner, ms])) == 1

    async def unlock(self, arena_id: str, owner: str) -> None:
        await self._call("unlock", [_key(arena_id, "lock")], [owner])
