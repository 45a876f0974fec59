"""The pool of quick pairing in Redis (see ``seeks``).

Every key of quick pairing shares the hash tag ``{pair}``, so that each script below
touches one hash slot (also on Redis Cluster): a player's one waiting seek is checked
across all modes in the same atomic step that adds the new one.

- ``sol:{pair}:pool:<mode>`` sorted set: the mode's waiting seek ids -> rating
- ``sol:{pair}:seek:<seek id>`` hash: ``d`` the seek's JSON, ``s`` its status,
  ``u`` its player, ``p`` its seat once paired, ``o`` the opponent's player id
- ``sol:{pair}:player:<player id>`` string: the player's latest seek id, any mode (the
  only one that may be waiting)
- ``sol:{pair}:latest:<mode>:<player id>`` string: the player's latest seek id in the
  mode (whose opponent the next seek in the mode avoids)
- ``sol:{pair}:lock:<mode>`` string: the instance running the mode's wave

Releases before this one kept each mode under a tag of its own (``{pair:<mode>}``); those
keys are no longer read and expire on their own (an hour at most).

Each script answers a send again as it answered the first (``redis_once``): it finds its
own write done.
"""

from __future__ import annotations

from typing import Any

from redis.exceptions import RedisError

from . import wave_locks
from .base import StoreUnavailable
from .seeks import KEPT_SECONDS, Seek, Seeks, mode_of_seek

# KEYS: pool, seek, the player's latest seek (any mode), their latest in the mode. ARGV:
# seek id, JSON, rating, ttl, player id, kept ttl, the prefix of the seek keys. {1} added
# (or added before), {0, id} the id of the player's seek still waiting, in any mode.
_ADD = """
local current = redis.call('GET', KEYS[3])
if current then
  if current == ARGV[1] then return {1} end
  if redis.call('HGET', ARGV[7] .. current, 's') == 'waiting' then return {0, current} end
end
local last = ''
local previous = redis.call('GET', KEYS[4])
if previous then last = redis.call('HGET', ARGV[7] .. previous, 'o') or '' end
redis.call('HSET', KEYS[2], 'd', ARGV[2], 's', 'waiting', 'u', ARGV[5], 'o', last)
redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('SET', KEYS[3], ARGV[1], 'EX', ARGV[6])
redis.call('SET', KEYS[4], ARGV[1], 'EX', ARGV[6])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return {1}
"""

# KEYS: pool. ARGV: the prefix of the seek keys. Each waiting seek as id, JSON,
# last opponent; members whose seek expired or left are taken out of the pool.
_WAITING = """
local found = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local seek = redis.call('HMGET', ARGV[1] .. id, 'd', 's', 'o')
  if seek[1] and seek[2] == 'waiting' then
    found[#found + 1] = id
    found[#found + 1] = seek[1]
    found[#found + 1] = seek[3] or ''
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return found
"""

# KEYS: pool, seek a, seek b. ARGV: id a, id b, seat a, seat b, player a, player b, kept
# ttl. 1 if both were waiting and are now paired (or were paired so by this call sent
# before), else 0 and nothing changed.
_PAIR = """
local a = redis.call('HMGET', KEYS[2], 's', 'p')
local b = redis.call('HGET', KEYS[3], 's')
if a[1] == 'paired' and b == 'paired' and a[2] == ARGV[3] then return 1 end
if a[1] ~= 'waiting' or b ~= 'waiting' then return 0 end
redis.call('HSET', KEYS[2], 's', 'paired', 'p', ARGV[3], 'o', ARGV[6])
redis.call('HSET', KEYS[3], 's', 'paired', 'p', ARGV[4], 'o', ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[7])
redis.call('EXPIRE', KEYS[3], ARGV[7])
redis.call('ZREM', KEYS[1], ARGV[1], ARGV[2])
return 1
"""

# KEYS: pool, seek. ARGV: seek id, player id, kept ttl.
_CANCEL = """
local seek = redis.call('HMGET', KEYS[2], 's', 'u')
if not seek[1] then return 'missing' end
if seek[2] ~= ARGV[2] then return 'not_yours' end
if seek[1] ~= 'waiting' then return seek[1] end
redis.call('HSET', KEYS[2], 's', 'cancelled')
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('ZREM', KEYS[1], ARGV[1])
return 'cancelled'
"""

# KEYS: seek. ARGV: ttl, kept ttl, the prefix of the players' latest seek keys. A seek
# that waits longer than the kept ttl keeps its player's pointer: without it, its player
# could seek again while it waits.
_RENEW = """
local seek = redis.call('HMGET', KEYS[1], 's', 'u')
if seek[1] == 'waiting' then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
  redis.call('EXPIRE', ARGV[3] .. seek[2], ARGV[2])
end
return 1
"""


_TAG = "sol:{pair}"
_SEEKS = f"{_TAG}:seek:"
_PLAYERS = f"{_TAG}:player:"


def _pool(mode: str) -> str:
    return f"{_TAG}:pool:{mode}"


def _lock(mode: str) -> str:
    return f"{_TAG}:lock:{mode}"


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value or "")


class RedisSeeks(Seeks):
    def __init__(self, redis: Any) -> None:
        self._scripts = {
            name: redis.register_script(source)
            for name, source in (
                ("add", _ADD),
                ("waiting", _WAITING),
                ("pair", _PAIR),
                ("cancel", _CANCEL),
                ("renew", _RENEW),
                ("lock", wave_locks.LOCK),
                ("unlock", wave_locks.UNLOCK),
            )
        }
        self._redis = redis

    async def _call(self, name: str, keys: list[str], args: list[Any]) -> Any:
        try:
            return await self._scripts[name](keys=keys, args=args)
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    @staticmethod
    def _seek_key(seek_id: str) -> str:
        return f"{_SEEKS}{seek_id}"

    async def add(self, seek: Seek, ttl: int) -> str | None:
        keys = [
            _pool(seek.mode),
            self._seek_key(seek.seek_id),
            f"{_PLAYERS}{seek.player_id}",
            f"{_TAG}:latest:{seek.mode}:{seek.player_id}",
        ]
        args = [seek.seek_id, seek.data(), seek.rating, ttl, seek.player_id, KEPT_SECONDS]
        answer = await self._call("add", keys, [*args, _SEEKS])
        return None if int(answer[0]) == 1 else _text(answer[1])

    async def get(self, seek_id: str) -> Seek | None:
        try:
            found = await self._redis.hmget(self._seek_key(seek_id), "d", "s", "p", "o")
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        if found[0] is None:
            return None
        return Seek.read(seek_id, found[0], _text(found[1]), found[2] or "", _text(found[3]))

    async def waiting(self, mode: str) -> list[Seek]:
        flat = await self._call("waiting", [_pool(mode)], [_SEEKS])
        return [
            Seek.read(_text(flat[i]), flat[i + 1], "waiting", "", _text(flat[i + 2]))
            for i in range(0, len(flat), 3)
        ]

    async def count(self, mode: str) -> int:
        try:
            found: int = await self._redis.zcard(_pool(mode))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return found

    async def pair(
        self, a: Seek, b: Seek, a_paired: str, b_paired: str, kept: int = KEPT_SECONDS
    ) -> bool:
        keys = [_pool(a.mode), self._seek_key(a.seek_id), self._seek_key(b.seek_id)]
        args = [a.seek_id, b.seek_id, a_paired, b_paired, a.player_id, b.player_id, kept]
        return int(await self._call("pair", keys, args)) == 1

    async def cancel(self, seek_id: str, player_id: str) -> str:
        keys = [_pool(mode_of_seek(seek_id)), self._seek_key(seek_id)]
        return _text(await self._call("cancel", keys, [seek_id, player_id, KEPT_SECONDS]))

    async def renew(self, seek_id: str, ttl: int) -> None:
        await self._call("renew", [self._seek_key(seek_id)], [ttl, KEPT_SECONDS, _PLAYERS])

    async def lock(self, mode: str, owner: str, ms: int) -> bool:
        return int(await self._call("lock", [_lock(mode)], [owner, ms])) == 1

    async def unlock(self, mode: str, owner: str) -> None:
        await self._call("unlock", [_lock(mode)], [owner])
