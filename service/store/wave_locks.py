"""The lock a background wave (quick pairing's, an arena's) holds while it works, so that
of several instances one works at a time: taken for a while by an owner, taken again by
that owner (a send again after a lost reply answers the same), released only by it.

``OwnedLocks`` is the memory store's; ``LOCK`` and ``UNLOCK`` are the Redis scripts.
"""

from __future__ import annotations

import time

# KEYS: lock. ARGV: owner, ms. 1 when ``owner`` holds the lock for ``ms`` from now.
LOCK = """
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
# KEYS: lock. ARGV: owner.
UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""


class OwnedLocks:
    def __init__(self) -> None:
        self._held: dict[str, tuple[str, float]] = {}

    def lock(self, name: str, owner: str, ms: int) -> bool:
        held = self._held.get(name)
        now = time.monotonic()
        if held is not None and held[0] != owner and held[1] > now:
            return False
        self._held[name] = (owner, now + ms / 1000)
        return True

    def unlock(self, name: str, owner: str) -> None:
        if self._held.get(name, ("", 0.0))[0] == owner:
            del self._held[name]
