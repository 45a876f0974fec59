"""The pool of quick pairing: seeks, waiting per mode by rating, shared by every instance.

A seek is a player asking to race now in one mode. It waits in its mode's pool until a
pairing wave takes it with another (``pair``: both in one atomic step, or neither, so
nobody is paired twice however many instances run waves), its player cancels it, or
nobody renews it for ``ttl`` seconds (its socket is gone and nobody polls it).

A player has at most one waiting seek, whatever its mode: waves run mode by mode, so a
player waiting in two modes could be paired into two races at once. ``add`` checks and
adds in one atomic step, so two seeks sent at once (two devices, two instances) leave
one waiting. Their latest seek in a mode remembers its opponent, so the next wave of the
mode can avoid an immediate rematch.

Every write is atomic and answers a send again (a lost reply) as it answered the first:
adding the same seek again finds it added, pairing the same pair again finds it paired
with the same race, cancelling again finds it cancelled.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from typing import Any

import orjson

from .wave_locks import OwnedLocks

# A seek that was paired or cancelled is kept this long for its player to read.
KEPT_SECONDS = 3600


@dataclass(frozen=True, slots=True)
class Seek:
    seek_id: str
    mode: str
    player_id: str
    name: str
    rating: float
    since_ms: int
    # The hash of the race token its player will hold when paired (derived from their
    # player token and the seek's id, so it is never stored itself).
    token_hash: str
    status: str = "waiting"  # ``waiting``, ``paired`` or ``cancelled``
    # For a paired seek: its race and seat (``Pairing``).
    paired: dict[str, Any] | None = None
    # The player id of the opponent of this player's previous seek in the mode.
    last_opponent: str = ""

    def data(self) -> str:
        return orjson.dumps(
            {
                "mode": self.mode,
                "player_id": self.player_id,
                "name": self.name,
                "rating": self.rating,
                "since_ms": self.since_ms,
                "token_hash": self.token_hash,
            }
        ).decode()

    @classmethod
    def read(
        cls, seek_id: str, data: str | bytes, status: str, paired: str | bytes, last: str
    ) -> Seek:
        fields = orjson.loads(data)
        return cls(
            seek_id=seek_id,
            status=status,
            paired=orjson.loads(paired) if paired else None,
            last_opponent=last,
            **fields,
        )


def mode_of_seek(seek_id: str) -> str:
    """A seek's id starts with its mode (``TF.D1N-...``): its keys live with its pool."""
    return seek_id.partition("-")[0]


class Seeks(ABC):
    @abstractmethod
    async def add(self, seek: Seek, ttl: int) -> str | None:
        """Puts a waiting seek in its mode's pool; None when added (or added before, by
        the same call sent again), else the id of the player's seek already waiting, in
        any mode (nothing changed)."""

    @abstractmethod
    async def get(self, seek_id: str) -> Seek | None: ...

    @abstractmethod
    async def waiting(self, mode: str) -> list[Seek]:
        """The seeks of the mode's pool still waiting (the expired ones are dropped)."""

    @abstractmethod
    async def count(self, mode: str) -> int:
        """How many seeks the mode's pool holds, expired ones included: a read only."""

    @abstractmethod
    async def pair(
        self, a: Seek, b: Seek, a_paired: str, b_paired: str, kept: int = KEPT_SECONDS
    ) -> bool:
        """Marks both paired (each with its seat's JSON) and takes them out of the pool,
        if both are still waiting; else changes nothing and answers False. Both are kept
        ``kept`` seconds: their race reads its pairing back when it ends."""

    @abstractmethod
    async def cancel(self, seek_id: str, player_id: str) -> str:
        """``cancelled`` (now or before), ``paired`` (too late: nothing changed),
        ``not_yours`` or ``missing``."""

    @abstractmethod
    async def renew(self, seek_id: str, ttl: int) -> None:
        """A waiting seek lives ``ttl`` seconds from now."""

    @abstractmethod
    async def lock(self, mode: str, owner: str, ms: int) -> bool:
        """Takes the mode's wave lock for ``ms`` (True) unless another owner holds it."""

    @abstractmethod
    async def unlock(self, mode: str, owner: str) -> None: ...


class MemorySeeks(Seeks):
    """One process: every call runs without an ``await`` inside, so each is atomic."""

    def __init__(self) -> None:
        self._seeks: dict[str, tuple[Seek, float]] = {}
        # Player id -> the player's latest seek id, any mode: the one that may wait.
        self._current: dict[str, str] = {}
        # (mode, player id) -> the player's latest seek id in the mode (its opponent).
        self._latest: dict[tuple[str, str], str] = {}
        self._locks = OwnedLocks()

    def _live(self, seek_id: str) -> Seek | None:
        found = self._seeks.get(seek_id)
        if found is None or found[1] <= time.monotonic():
            self._seeks.pop(seek_id, None)
            return None
        return found[0]

    async def add(self, seek: Seek, ttl: int) -> str | None:
        current = self._current.get(seek.player_id)
        if current is not None:
            if current == seek.seek_id:
                return None
            before = self._live(current)
            if before is not None and before.status == "waiting":
                return current
        latest = self._latest.get((seek.mode, seek.player_id))
        previous = self._live(latest) if latest is not None else None
        last = previous.last_opponent if previous is not None else ""
        self._seeks[seek.seek_id] = (replace(seek, last_opponent=last), time.monotonic() + ttl)
        self._current[seek.player_id] = seek.seek_id
        self._latest[(seek.mode, seek.player_id)] = seek.seek_id
        return None

    async def get(self, seek_id: str) -> Seek | None:
        return self._live(seek_id)

    async def waiting(self, mode: str) -> list[Seek]:
        found = [self._live(seek_id) for seek_id in list(self._seeks)]
        return [s for s in found if s is not None and s.mode == mode and s.status == "waiting"]

    async def count(self, mode: str) -> int:
        return len(await self.waiting(mode))

    async def pair(
        self, a: Seek, b: Seek, a_paired: str, b_paired: str, kept: int = KEPT_SECONDS
    ) -> bool:
        now_a, now_b = self._live(a.seek_id), self._live(b.seek_id)
        if now_a is None or now_b is None:
            return False
        seat = orjson.loads(a_paired)
        if now_a.status == now_b.status == "paired" and now_a.paired == seat:
            return True
        if now_a.status != "waiting" or now_b.status != "waiting":
            return False
        until = time.monotonic() + kept
        for seek, paired, opponent in ((now_a, a_paired, b), (now_b, b_paired, a)):
            changed = replace(
                seek,
                status="paired",
                paired=orjson.loads(paired),
                last_opponent=opponent.player_id,
            )
            self._seeks[seek.seek_id] = (changed, until)
        return True

    async def cancel(self, seek_id: str, player_id: str) -> str:
        seek = self._live(seek_id)
        if seek is None:
            return "missing"
        if seek.player_id != player_id:
            return "not_yours"
        if seek.status == "waiting":
            changed = replace(seek, status="cancelled")
            self._seeks[seek_id] = (changed, time.monotonic() + KEPT_SECONDS)
            return "cancelled"
        return seek.status

    async def renew(self, seek_id: str, ttl: int) -> None:
        seek = self._live(seek_id)
        if seek is not None and seek.status == "waiting":
            self._seeks[seek_id] = (seek, time.monotonic() + ttl)

    async def lock(self, mode: str, owner: str, ms: int) -> bool:
        return self._locks.lock(mode, owner, ms)

    async def unlock(self, mode: str, owner: str) -> None:
        self._locks.unlock(mode, owner)
