"""Players' records in Redis (see ``records``).

- ``sol:rec:doc:<key>``  hash: ``v`` version, ``d`` the JSON document
- ``sol:rec:val:<key>``  string: a single value (token look-ups, link codes, claims)
- ``sol:rec:queue:<queue>`` list: values taken oldest first (pools of certified deals)
- a board's three keys, which share the hash tag ``{<board>}`` (its scripts touch all
  three, also on Redis Cluster):
  ``sol:rec:board:{<board>}`` sorted set: entry -> score, lowest first, where an entry is
  the member after a count of ``ENTRY_DIGITS`` digits, so that members of equal score sort
  in the order they reached it; ``sol:rec:board:{<board>}:m`` hash: member -> its entry;
  ``sol:rec:board:{<board>}:n`` the board's count of entries made. A board an earlier
  build kept as one sorted set ``sol:rec:board:<board>`` (member -> score, ties by
  member) is moved into these keys when the store opens (``redis_board_moves``), while
  ``sol:rec:board-move:<board>`` (a string) is held by the instance moving it

Every other key stands alone, but for the markers of its writes (``redis_once``), which
share its hash slot: so they spread over a Redis Cluster. A document's hash also keeps
``n``, the nonces of its latest writes. Every write here is answered the same when Redis
is sent it twice (``redis_once``).
"""

from __future__ import annotations

from typing import Any

from redis.exceptions import RedisError

from . import redis_once
from .base import StoreUnavailable
from .records import BoardPage, Doc, Ranked, Records
from .redis_batches import OneByOne, Pipelined
from .redis_layout import sha

TAKE_SHA = sha(redis_once.TAKE)
SAVE_SHA = sha(redis_once.SAVE)

ENTRY_DIGITS = 15

# Enters member ARGV[1] with score ARGV[2]. Its entry stays as it is when it already has
# that score, or a lower one (unless ARGV[3] is '1': replace); otherwise the member gets
# a new entry, after every entry of the same score. ARGV[4] > 0: the board's keys are
# deleted that many seconds after this entry.
_ADD = """
local function expire()
  if ARGV[4] ~= '0' then
    for _, key in ipairs(KEYS) do redis.call('EXPIRE', key, ARGV[4]) end
  end
end
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old then
  local current = redis.call('ZSCORE', KEYS[1], old)
  if current then
    current = tonumber(current)
    local score = tonumber(ARGV[2])
    if current == score or (current < score and ARGV[3] == '0') then
      expire()
      return 0
    end
  end
  redis.call('ZREM', KEYS[1], old)
end
local entry = string.format('%0DIGITSd', redis.call('INCR', KEYS[3])) .. ARGV[1]
redis.call('ZADD', KEYS[1], ARGV[2], entry)
redis.call('HSET', KEYS[2], ARGV[1], entry)
expire()
return 1
""".replace("DIGITS", str(ENTRY_DIGITS))

# Takes member ARGV[1] off the board.
_REMOVE = """
local old = redis.call('HGET', KEYS[2], ARGV[1])
if not old then return 0 end
redis.call('ZREM', KEYS[1], old)
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
"""

# One round trip for a whole page of a board: ARGV[2] rows from rank ARGV[4], member
# ARGV[1]'s rank and score, ARGV[3] rows either side of it, and the board's size.
_PAGE = """
local top = {}
local count = tonumber(ARGV[2])
if count > 0 then
  local first = tonumber(ARGV[4])
  top = redis.call('ZRANGE', KEYS[1], first, first + count - 1, 'WITHSCORES')
end
local size = redis.call('ZCARD', KEYS[1])
local entry = ARGV[1] ~= '' and redis.call('HGET', KEYS[2], ARGV[1])
local rank = entry and redis.call('ZRANK', KEYS[1], entry)
if not rank then return {size, top, false, false, {}} end
local score = redis.call('ZSCORE', KEYS[1], entry)
local around = tonumber(ARGV[3])
local near = {}
if around > 0 then
  near = redis.call('ZRANGE', KEYS[1], math.max(0, rank - around), rank + around, 'WITHSCORES')
end
return {size, top, rank, score, near}
"""


def _doc(key: str) -> str:
    return f"sol:rec:doc:{key}"


def _value(key: str) -> str:
    return f"sol:rec:val:{key}"


def _queue(queue: str) -> str:
    return f"sol:rec:queue:{queue}"


def board_keys(board: str) -> list[str]:
    """The keys of a board: its entries, its members' entries, its count of entries."""
    ranked = f"sol:rec:board:{{{board}}}"
    return [ranked, f"{ranked}:m", f"{ranked}:n"]


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _ranked(flat: list[Any], first: int) -> list[Ranked]:
    """``[entry, score, entry, score...]`` from rank ``first`` on."""
    return [
        Ranked(_text(flat[i])[ENTRY_DIGITS:], first + i // 2, float(flat[i + 1]))
        for i in range(0, len(flat), 2)
    ]


class RedisRecords(Records):
    def __init__(self, redis: Any, run: Pipelined | OneByOne | None = None) -> None:
        self._redis = redis
        # The shared pipelines (``redis_batches``), when the store has them: a take (a
        # race's certified deal, by the hundred in an arena's first wave) and a read cost
        # there a fraction of a call on a connection of its own.
        self._run = run
        self._save = redis.register_script(redis_once.SAVE)
        self._claim = redis.register_script(redis_once.CLAIM)
        self._take = redis.register_script(redis_once.TAKE)
        self._push = redis.register_script(redis_once.PUSH)
        self._page = redis.register_script(_PAGE)
        self._board_add = redis.register_script(_ADD)
        self._board_remove = redis.register_script(_REMOVE)

    async def load(self, key: str) -> Doc | None:
        try:
            if self._run is not None:
                ((version, text),) = await self._run(("HMGET", _doc(key), "v", "d"))
            else:
                version, text = await self._redis.hmget(_doc(key), ["v", "d"])
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        if version is None or text is None:
            return None
        return Doc(int(version), _text(text))

    async def save(self, key: str, expected_version: int, text: str, ttl_seconds: int = 0) -> bool:
        args = (str(expected_version), text, str(ttl_seconds), redis_once.nonce())
        try:
            if self._run is not None:
                (saved,) = await self._run(("EVALSHA", SAVE_SHA, 1, _doc(key), *args))
            else:
                saved = await self._save(keys=[_doc(key)], args=list(args))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return bool(saved)

    async def claim(self, key: str, value: str, ttl_seconds: int = 0) -> bool:
        try:
            name = _value(key)
            marker = redis_once.marker(name, redis_once.nonce())
            done = await self._claim(
                keys=[name, marker], args=[value, ttl_seconds, redis_once.MARKER_SECONDS]
            )
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return bool(done)

    async def get(self, key: str) -> str | None:
        try:
            if self._run is not None:
                (value,) = await self._run(("GET", _value(key)))
            else:
                value = await self._redis.get(_value(key))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return None if value is None else _text(value)

    async def get_many(self, keys: list[str]) -> list[str | None]:
        if not keys:
            return []
        try:
            if len(keys) == 1:
                values = [await self._redis.get(_value(keys[0]))]
            else:
                # One round trip; on a cluster the client splits it by node.
                async with self._redis.pipeline(transaction=False) as pipe:
                    for key in keys:
                        pipe.get(_value(key))
                    values = await pipe.execute()
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return [None if value is None else _text(value) for value in values]

    async def take(self, key: str) -> str | None:
        return await self._taken(_value(key), "GETDEL")

    async def _taken(self, name: str, command: str) -> str | None:
        marker = redis_once.marker(name, redis_once.nonce())
        try:
            if self._run is not None:
                call = ("EVALSHA", TAKE_SHA, 2, name, marker, command, redis_once.MARKER_SECONDS)
                (value,) = await self._run(call)
            else:
                value = await self._take(
                    keys=[name, marker], args=[command, redis_once.MARKER_SECONDS]
                )
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return None if value is None else _text(value)

    async def delete(self, key: str) -> None:
        try:
            await self._redis.delete(_value(key))
            await self._redis.delete(_doc(key))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def queue_push(self, queue: str, value: str, ttl_seconds: int = 0) -> int:
        name = _queue(queue)
        marker = redis_once.marker(name, redis_once.nonce())
        try:
            length = await self._push(
                keys=[name, marker], args=[value, ttl_seconds, redis_once.MARKER_SECONDS]
            )
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return int(length)

    async def queue_pop(self, queue: str) -> str | None:
        return await self._taken(_queue(queue), "LPOP")

    async def queue_length(self, queue: str) -> int:
        try:
            return int(await self._redis.llen(_queue(queue)))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def board_add(
        self, board: str, member: str, score: float, replace: bool = False, ttl_seconds: int = 0
    ) -> None:
        try:
            await self._board_add(
                keys=board_keys(board), args=[member, score, int(replace), ttl_seconds]
            )
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def board_remove(self, board: str, member: str) -> None:
        try:
            await self._board_remove(keys=board_keys(board)[:2], args=[member])
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def board_rank(self, board: str, member: str) -> Ranked | None:
        page = await self.board_page(board, member, 0, 0)
        return page.you

    async def board_range(self, board: str, start: int, count: int) -> list[Ranked]:
        if count <= 0:
            return []
        start = max(0, start)
        try:
            rows = await self._redis.zrange(
                board_keys(board)[0], start, start + count - 1, withscores=True
            )
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return [
            Ranked(_text(entry)[ENTRY_DIGITS:], start + offset, float(score))
            for offset, (entry, score) in enumerate(rows)
        ]

    async def board_page(
        self, board: str, member: str | None, top: int, around: int, offset: int = 0
    ) -> BoardPage:
        try:
            size, rows, rank, score, near = await self._page(
                keys=board_keys(board)[:2], args=[member or "", top, around, max(0, offset)]
            )
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        mine = None if rank is None else Ranked(member or "", int(rank), float(score))
        first = 0 if mine is None else max(0, mine.rank - around)
        return BoardPage(int(size), _ranked(rows, max(0, offset)), mine, _ranked(near, first))

    async def board_size(self, board: str) -> int:
        try:
            return int(await self._redis.zcard(board_keys(board)[0]))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
