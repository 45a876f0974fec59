"""Writes that reach Redis twice are answered the second time as they were the first.

redis-py sends a command again when its connection breaks before the reply is read, and
so does the store's batcher (``redis_batches``): Redis may have applied the command
already, and only its reply was lost. Every write of the store that would not come out
the same done twice carries a nonce among its arguments, drawn once per call (a send
again carries the same arguments), and Redis remembers the nonce with what it answered:

- A versioned document (a player's record, a race) keeps the nonces of its latest
  ``RECENT_NONCES`` writes in its hash's field ``n``: a write whose nonce is there was
  applied (answered so, with the version it made), even if another write came between.
- A claim, a take, a push or pop of a queue, a counter's count: a marker key
  ``{<key>}:once:<nonce>`` beside the key (``marker``: the same hash slot on Redis
  Cluster, so one script touches both), holding the answer for ``MARKER_SECONDS``.
- A game's commit keeps the nonce beside the request id it remembers (``redis_layout``).

A write that changes nothing when done again (a board's entry, a delete, a game's
creation) needs none.
"""

from __future__ import annotations

import itertools
import secrets

# Long enough for every send again (redis-py's retries, the batcher's after a lost
# connection: seconds), short enough that markers cost little.
MARKER_SECONDS = 300
RECENT_NONCES = 8

# Unique across instances (the prefix) and calls (the count): cheaper than random bytes
# per call. Hexadecimal, so that no script reads a character of it as a pattern's.
_PREFIX = secrets.token_hex(6)
_COUNT = itertools.count(1)


def nonce() -> str:
    return f"{_PREFIX}{next(_COUNT):x}"


def marker(key: str, nonce: str) -> str:
    """The marker of a write to ``key``: a key in the same hash slot of Redis Cluster.

    A key with a hash tag (``{...}``) keeps it when something is appended; any other is
    hashed whole, so it becomes the marker's tag. A key that has no tag but holds ``}``
    could not be one, and is refused (the store builds no such key from what a client
    sends)."""
    start = key.find("{")
    if start >= 0 and key.find("}", start + 1) > start + 1:
        return f"{key}:once:{nonce}"
    if "}" in key:
        raise ValueError(f"no marker can share the hash slot of {key!r}")
    return f"{{{key}}}:once:{nonce}"


# KEYS: the key, its marker. ARGV: value, ttl (0: none), marker ttl. 1 if this call set
# the key (or set it before its reply was lost), 0 if it was set already.
CLAIM = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 1 end
local set
if ARGV[2] ~= '0' then
  set = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2])
else
  set = redis.call('SET', KEYS[1], ARGV[1], 'NX')
end
if not set then return 0 end
redis.call('SET', KEYS[2], '1', 'EX', ARGV[3])
return 1
"""

# KEYS: the key (a string, or a queue), its marker. ARGV: GETDEL or LPOP, marker ttl.
# What this call took (or took before its reply was lost), nil when nothing.
TAKE = """
local kept = redis.call('GET', KEYS[2])
if kept then return kept end
local value = redis.call(ARGV[1], KEYS[1])
if value then redis.call('SET', KEYS[2], value, 'EX', ARGV[2]) end
return value
"""

# KEYS: the queue, its marker. ARGV: value, the queue's ttl (0: none), marker ttl. The
# queue's length after this call's value was added.
PUSH = """
local kept = redis.call('GET', KEYS[2])
if kept then return tonumber(kept) end
local length = redis.call('RPUSH', KEYS[1], ARGV[1])
if ARGV[2] ~= '0' then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
redis.call('SET', KEYS[2], length, 'EX', ARGV[3])
return length
"""

# KEYS: the document's hash. ARGV: expected version, text, ttl (0: kept as it is),
# nonce. 1 if this call wrote the document (or wrote it before its reply was lost).
SAVE = """
local current = redis.call('HMGET', KEYS[1], 'v', 'n')
local recent = current[2] or ''
if string.find(' ' .. recent .. ' ', ' ' .. ARGV[4] .. ' ', 1, true) then return 1 end
if (current[1] or '0') ~= ARGV[1] then return 0 end
local kept = {}
for seen in string.gmatch(recent, '%S+') do kept[#kept + 1] = seen end
while #kept >= RECENT do table.remove(kept, 1) end
kept[#kept + 1] = ARGV[4]
redis.call('HSET', KEYS[1], 'v', tonumber(ARGV[1]) + 1, 'd', ARGV[2], 'n', table.concat(kept, ' '))
if ARGV[3] ~= '0' then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
return 1
""".replace("RECENT", str(RECENT_NONCES))

# KEYS: the counter, its marker. ARGV: what to add, window, marker ttl. The count after
# this call's addition; the counter is deleted ``window`` seconds after it was started.
TALLY = """
local kept = redis.call('GET', KEYS[2])
if kept then return tonumber(kept) end
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2], 'NX')
redis.call('SET', KEYS[2], count, 'EX', ARGV[3])
return count
"""

# KEYS: the counter, its marker. ARGV: limit, window, marker ttl. 1 if this call was
# counted (the count was under the limit), 0 if it was refused.
ADMIT = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 1 end
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[2], 'NX')
redis.call('SET', KEYS[2], '1', 'EX', ARGV[3])
return 1
"""

# KEYS: the counter, its marker. ARGV: marker ttl. Takes one off the count, once, if the
# window still runs.
REFUND = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
redis.call('SET', KEYS[2], '1', 'EX', ARGV[1])
return 1
"""
