"""Where the Redis store keeps what, and the scripts that change it atomically.

Keys of one game share the hash tag ``{<game id>}`` so the commit script, which touches
all of them, also runs on Redis Cluster:

- ``sol:{id}:g``   hash: ``s`` serialized state, ``v`` version, ``t`` token hash,
  ``c`` game code, ``w`` over (won or resigned) flag, ``r`` race id, ``p`` player id,
  ``dc`` daily challenge, ``x`` (present) the code is hidden until the game is over
- ``sol:{id}:log`` list: every accepted action, as its notation and its time (ms after
  ``t0``, the creation time in the game hash); action ``k`` (from 1) made version ``k``
- ``sol:{id}:rid`` hash: the request ids of the last ``REQUEST_MEMORY`` actions or more:
  ``=<request id>`` -> ``<version>\\t<request fingerprint>\\t<nonce>``, the nonce of the
  commit call that applied it (``redis_once``: that call sent again is answered
  ``applied``, any other with the same id ``duplicate``), and ``#<version % memory>``
  -> the ``=<request id>`` field that version wrote, which the action that many versions
  later deletes (earlier releases kept a list, scanned on every commit)
- ``sol:{id}:ch``  pub/sub channel of accepted changes, ``<version>\\n<change json>``
- ``sol:{id}:cp``  hash: version (every ``CHECKPOINT_INTERVAL``-th) -> serialized state
- ``sol:{id}:w``   hash: the instances whose clients watch the game (instance id -> 1).
  The commit publishes only when an instance other than the committing one is in it:
  the committing instance hands the change to its own watchers itself, and reading its
  own change back from pub/sub cost it about a tenth of its CPU per action.

A race's keys share the hash tag ``{race:<race id>}``:

- ``sol:{race:id}:doc`` hash: ``d`` the race document (JSON), ``v`` its version, ``n`` the
  nonces of its latest saves with the version each made (``nonce=version``, space
  separated), ``w`` 1 once the race is over
- ``sol:{race:id}:ch`` pub/sub channel of the race's messages
- ``sol:join:<code>`` string: the race id of a join code
"""

from __future__ import annotations

import hashlib
from typing import Any

from .base import StoredGame, race_topic
from .redis_once import RECENT_NONCES

COMMIT_SCRIPT = """
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return {'missing', 0} end
v = tonumber(v)
if ARGV[4] ~= '' then
  local seen = redis.pcall('HGET', KEYS[3], '=' .. ARGV[4])
  if type(seen) == 'table' and seen.err then
    -- Request ids kept as a list by an earlier release: moved into the hash, once.
    local entries = redis.call('LRANGE', KEYS[3], 0, -1)
    redis.call('DEL', KEYS[3])
    seen = false
    for i = #entries, 1, -1 do
      local id, version, fp = string.match(entries[i], '^(.*)\\t(%d+)\\t([^\\t]*)$')
      if id then
        local slot = '#' .. (tonumber(version) % tonumber(ARGV[10]))
        local old = redis.call('HGET', KEYS[3], slot)
        if old then redis.call('HDEL', KEYS[3], old) end
        redis.call('HSET', KEYS[3], slot, '=' .. id, '=' .. id, version .. '\\t' .. fp)
        if id == ARGV[4] then seen = version .. '\\t' .. fp end
      end
    end
    local left = redis.call('PTTL', KEYS[1])
    if #entries > 0 and left > 0 then redis.call('PEXPIRE', KEYS[3], left) end
  end
  if seen then
    local version, fp, once = string.match(seen, '^(%d+)\\t([^\\t]*)\\t?(.*)$')
    -- This very call, sent again after its reply was lost: answered as it was.
    if once ~= '' and once == ARGV[14] then return {'applied', tonumber(version)} end
    if fp == ARGV[11] then return {'duplicate', tonumber(version)} end
    return {'reused', tonumber(version)}
  end
end
if v ~= tonumber(ARGV[1]) then return {'conflict', v} end
if v >= tonumber(ARGV[9]) then return {'full', v} end
local nv = v + 1
local ttl = tonumber(ARGV[7])
if ARGV[5] == '1' then ttl = tonumber(ARGV[8]) end
-- Lifetimes are renewed when the game's has run down by a tenth (a minute at most), or
-- changes: renewing all five keys on every action was a fifth of the script's cost.
local renew = ARGV[5] == '1'
if not renew then
  local left = redis.call('PTTL', KEYS[1])
  if ttl > 0 then renew = left < ttl * 1000 - math.min(60000, ttl * 100) else renew = left ~= -1 end
end
redis.call('HSET', KEYS[1], 's', ARGV[2], 'v', nv, 'w', ARGV[5])
-- A key made between two renewals gets its lifetime at once.
local created = {}
if redis.call('RPUSH', KEYS[2], ARGV[3]) == 1 then created[#created + 1] = KEYS[2] end
if nv % tonumber(ARGV[12]) == 0 then
  if redis.call('HSET', KEYS[5], nv, ARGV[2]) == 1 then created[#created + 1] = KEYS[5] end
end
if ARGV[4] ~= '' then
  -- Slot ``version % memory`` names the request that wrote it: its next owner, that many
  -- actions later, forgets that request.
  local slot = '#' .. (nv % tonumber(ARGV[10]))
  local old = redis.call('HGET', KEYS[3], slot)
  if old then redis.call('HDEL', KEYS[3], old)
  elseif redis.call('EXISTS', KEYS[3]) == 0 then created[#created + 1] = KEYS[3] end
  local entry = nv .. '\\t' .. ARGV[11] .. '\\t' .. ARGV[14]
  redis.call('HSET', KEYS[3], slot, '=' .. ARGV[4], '=' .. ARGV[4], entry)
end
if renew then created = {KEYS[1], KEYS[2], KEYS[3], KEYS[5], KEYS[6]} end
for _, key in ipairs(created) do
  if ttl > 0 then redis.call('EXPIRE', key, ttl) else redis.call('PERSIST', key) end
end
local watchers = redis.call('HLEN', KEYS[6])
if watchers > 1 or (watchers == 1 and redis.call('HEXISTS', KEYS[6], ARGV[13]) == 0) then
  redis.call('PUBLISH', KEYS[4], nv .. '\\n' .. ARGV[6])
end
return {'applied', nv}
"""

# ARGV: expected version, document, payload, ttl, nonce, over ('1' or '0'). The hash
# keeps ``n``, the nonces of its latest saves with the version each made, so that a save
# sent again (its reply lost) is answered as it was, and ``w``, whether the race is over.
SAVE_RACE_SCRIPT = """
local current = redis.call('HMGET', KEYS[1], 'v', 'n')
if not current[1] then return {'missing', 0} end
local recent = current[2] or ''
local made = string.match(' ' .. recent, ' ' .. ARGV[5] .. '=(%d+)')
if made then return {'applied', tonumber(made)} end
local v = tonumber(current[1])
if v ~= tonumber(ARGV[1]) then return {'conflict', v} end
local nv = v + 1
local kept = {}
for seen in string.gmatch(recent, '%S+') do kept[#kept + 1] = seen end
while #kept >= RECENT do table.remove(kept, 1) end
kept[#kept + 1] = ARGV[5] .. '=' .. nv
redis.call('HSET', KEYS[1], 'd', ARGV[2], 'v', nv, 'n', table.concat(kept, ' '), 'w', ARGV[6])
local ttl = tonumber(ARGV[4])
if ttl > 0 then redis.call('EXPIRE', KEYS[1], ttl) else redis.call('PERSIST', KEYS[1]) end
redis.call('PUBLISH', KEYS[2], nv .. '\\n' .. ARGV[3])
return {'applied', nv}
""".replace("RECENT", str(RECENT_NONCES))

# A race's join code, claimed for the race ARGV[1] (for ARGV[2] seconds): 1 when the code
# is the race's (this call's, or one before it whose reply was lost), 0 when another's.
CLAIM_JOIN_SCRIPT = """
local holder = redis.call('GET', KEYS[1])
if holder then
  if holder == ARGV[1] then return 1 end
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1
"""

# A race still played lives ARGV[1] seconds more; one that is over (``w``), or kept for
# good, or gone, is left as it is.
RENEW_RACE_SCRIPT = """
if redis.call('HGET', KEYS[1], 'w') == '1' then return 0 end
if redis.call('PTTL', KEYS[1]) < 0 then return 0 end
return redis.call('EXPIRE', KEYS[1], ARGV[1])
"""


# A game's timed log (KEYS[2]), or nil when the game (KEYS[1]) is gone: read together,
# so that a game expiring meanwhile is not read as one without actions.
TIMED_LOG_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
return redis.call('LRANGE', KEYS[2], 0, -1)
"""


# A new game's hash (ARGV[2..]: field, value pairs), living ARGV[1] seconds: one script,
# so that the game and its time to live are written together.
CREATE_GAME_SCRIPT = """
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
"""

# A new race's document, unless it exists (a creation sent again after a save).
CREATE_RACE_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'd', ARGV[1], 'v', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""


def sha(script: str) -> str:
    return hashlib.sha1(script.encode()).hexdigest()


COMMIT_SHA = sha(COMMIT_SCRIPT)
SAVE_RACE_SHA = sha(SAVE_RACE_SCRIPT)
CREATE_GAME_SHA = sha(CREATE_GAME_SCRIPT)
CREATE_RACE_SHA = sha(CREATE_RACE_SCRIPT)
CLAIM_JOIN_SHA = sha(CLAIM_JOIN_SCRIPT)
RENEW_RACE_SHA = sha(RENEW_RACE_SCRIPT)
TIMED_LOG_SHA = sha(TIMED_LOG_SCRIPT)


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
        over=fields[b"w"] == b"1",
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
