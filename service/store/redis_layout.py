"""Where the Redis store keeps what, and the scripts that change it atomically.

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
- ``sol:{id}:w``   hash: the instances whose clients watch the game (instance id -> 1).
  The commit publishes only when an instance other than the committing one is in it:
  the committing instance hands the change to its own watchers itself, and reading its
  own change back from pub/sub cost it about a tenth of its CPU per action.
"""

from __future__ import annotations

import hashlib
from typing import Any

from . import StoredGame, race_topic

COMMIT_SCRIPT = """
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
for _, i in ipairs({1, 2, 3, 5, 6}) do
  if ttl > 0 then redis.call('EXPIRE', KEYS[i], ttl) else redis.call('PERSIST', KEYS[i]) end
end
local watchers = redis.call('HLEN', KEYS[6])
if watchers > 1 or (watchers == 1 and redis.call('HEXISTS', KEYS[6], ARGV[13]) == 0) then
  redis.call('PUBLISH', KEYS[4], nv .. '\\n' .. ARGV[6])
end
return {'applied', nv}
"""

SAVE_RACE_SCRIPT = """
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


def _sha(script: str) -> str:
    return hashlib.sha1(script.encode()).hexdigest()


COMMIT_SHA = _sha(COMMIT_SCRIPT)
SAVE_RACE_SHA = _sha(SAVE_RACE_SCRIPT)


def game_keys(game_id: str) -> tuple[str, str, str, str]:
    tag = f"sol:{{{game_id}}}"
    return f"{tag}:g", f"{tag}:log", f"{tag}:rid", f"{tag}:ch"


def channel(topic: str) -> str:
    """The pub/sub channel of a game or a race (``race_topic``)."""
    return f"sol:{{{topic}}}:ch"


def checkpoint_key(game_id: str) -> str:
    return f"sol:{{{game_id}}}:cp"


def watchers_key(game_id: str) -> str:
    return f"sol:{{{game_id}}}:w"


def race_keys(race_id: str) -> tuple[str, str]:
    tag = f"sol:{{{race_topic(race_id)}}}"
    return f"{tag}:doc", f"{tag}:ch"


def join_key(join_code: str) -> str:
    return f"sol:join:{join_code}"


def tally_key(key: str) -> str:
    return f"sol:tally:{key}"


def stored_game(game_id: str, fields: dict[Any, Any]) -> StoredGame | None:
    if not fields:
        return None
    return StoredGame(
        game_id=game_id,
        version=int(fields[b"v"]),
        state=text_of(fields[b"s"]),
        token_hash=text_of(fields[b"t"]),
        code=text_of(fields[b"c"]),
        won=fields[b"w"] == b"1",
        race_id=text_of(fields.get(b"r", b"")),
        player_id=text_of(fields.get(b"p", b"")),
        challenge=text_of(fields.get(b"dc", b"")),
        hidden=fields.get(b"x") == b"1",
        created_ms=int(fields.get(b"t0", 0)),
    )


def text_of(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def game_of_channel(channel: bytes) -> str:
    # "sol:{<id>}:ch" -> "<id>"
    text = channel.decode()
    return text[text.index("{") + 1 : text.rindex("}")]
