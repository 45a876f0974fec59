"""Boards kept in an earlier key layout, moved into today's when the Redis store opens.

An earlier build kept a board as one sorted set, ``sol:rec:board:<board>`` (member ->
score, lowest first, equal scores in the order of their members' bytes). ``move_old_boards``
finds those keys (the ones under ``sol:rec:board:`` without a ``{``) and moves each into
the board's keys of ``redis_records`` (``board_keys``), then deletes it:

- An old member's entry is ``OLD_ENTRY`` (the entry count's digits, all zero) followed by
  the member, so the old members keep their order among themselves (score, then member,
  as before) and rank ahead of those who reached the same score on the new board: they
  reached it before the upgrade.
- A member already on the new board keeps its entry there unless its old score is lower
  (better): the better score counts, as when a member enters a board again.

Safe when several instances start at once: an instance moves a board only while it holds
the board's claim ``sol:rec:board-move:<board>`` (SET NX, for ``CLAIM_SECONDS``), and the
others leave that board to it. No command touches two of these keys, as the old key and
the board's keys lie in different slots of a Redis Cluster: the old key is read and
deleted alone, and the script that enters a batch of members touches the board's keys
alone (they share its hash tag). Entering again what was entered changes nothing, so a
move cut short is done again whole by the next start once the claim is gone.

Finding the old keys means a SCAN of the whole keyspace, so it is done until one start
has moved every old board it found (none left to another instance's claim); that start
writes ``MOVED``, and later starts look no further. An instance of the earlier build must
therefore be stopped before the upgrade: a board it wrote after that would stay unread.
"""

from __future__ import annotations

import logging
from typing import Any

from .redis_records import ENTRY_DIGITS, board_keys

log = logging.getLogger(__name__)

OLD_BOARDS = "sol:rec:board:"
OLD_ENTRY = "0" * ENTRY_DIGITS
CLAIM_SECONDS = 300
MOVED = "sol:rec:layout:boards-moved"
BATCH = 500

# Enters the members ARGV[1], ARGV[3]... with scores ARGV[2], ARGV[4]... under the entry
# OLD_ENTRY .. member, but leaves a member already on the board with a score as low alone.
_ENTER_OLD = """
for i = 1, #ARGV, 2 do
  local member, score = ARGV[i], tonumber(ARGV[i + 1])
  local entry = redis.call('HGET', KEYS[2], member)
  local current = entry and redis.call('ZSCORE', KEYS[1], entry)
  if not current or score < tonumber(current) then
    if entry then redis.call('ZREM', KEYS[1], entry) end
    entry = 'OLD_ENTRY' .. member
    redis.call('ZADD', KEYS[1], ARGV[i + 1], entry)
    redis.call('HSET', KEYS[2], member, entry)
  end
end
return 1
""".replace("OLD_ENTRY", OLD_ENTRY)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


async def move_old_boards(redis: Any) -> int:
    """Moves every board still kept in the old layout; answers how many this call moved
    (boards claimed by another instance are left to it)."""
    if await redis.exists(MOVED):
        return 0
    enter = redis.register_script(_ENTER_OLD)
    found = {_text(key) async for key in redis.scan_iter(match=f"{OLD_BOARDS}*", count=1000)}
    old = sorted(key for key in found if "{" not in key)
    moved = 0
    for key in old:
        moved += await _move(redis, enter, key[len(OLD_BOARDS) :])
    if moved == len(old):
        await redis.set(MOVED, "1")
    return moved


async def _move(redis: Any, enter: Any, board: str) -> bool:
    old = f"{OLD_BOARDS}{board}"
    claim = f"sol:rec:board-move:{board}"
    if not await redis.set(claim, "1", nx=True, ex=CLAIM_SECONDS):
        return False
    members = 0
    try:
        # Nothing else writes the old key: only the claim's holder reads it, by rank.
        while rows := await redis.zrange(old, members, members + BATCH - 1, withscores=True):
            args = [value for member, score in rows for value in (member, score)]
            await enter(keys=board_keys(board)[:2], args=args)
            members += len(rows)
        await redis.delete(old)
    finally:
        await redis.delete(claim)
    if members:
        log.info("board %s moved to the new key layout (%d members)", board, members)
    return members > 0
