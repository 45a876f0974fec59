"""Arena tournaments in the store: each arena's record, its players' entries, its heats
and its standings, shared by every instance (docs/arena.md).

An arena's record is written once (``create``: the first writer wins, so instances that
make the scheduled arenas never make one twice) and changed only by its cancelling. Its
players' entries and heats change together by ``swap``: every field named must still
hold what the caller read, or nothing changes. The arena's logic (who is paired, what a
heat is worth) is computed by the caller between the read and the swap, so the memory
and Redis stores share it and two instances can never pair one player twice or count
one heat twice. A swap sent again after its reply was lost finds its own write done and
answers True, as it answered the first time.

The standings are a sorted set per arena: player id -> a score ordering points, then the
tie-breaks (``service.arenas.rules.standing_score``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from sortedcontainers import SortedList  # type: ignore[import-untyped]

from .wave_locks import OwnedLocks

# An arena's keys outlive its end by this long, for its standings and heats to be read.
KEPT_SECONDS = 30 * 24 * 3600


@dataclass(frozen=True, slots=True)
class Swap:
    """Fields to change at once, each with the JSON the caller read (None: absent)."""

    entries: list[tuple[str, str | None, str]] = field(default_factory=list)
    heat: tuple[str, str | None, str] | None = None
    scores: dict[str, float] = field(default_factory=dict)


class Arenas(ABC):
    # Whether other instances share these arenas (and can help make a wave's heats).
    shared = False

    @abstractmethod
    async def create(self, arena_id: str, record: str, start_ms: int, ttl: int) -> bool:
        """Adds the arena (True), or finds it made before (False) and changes nothing."""

    @abstractmethod
    async def replace(self, arena_id: str, before: str, after: str) -> bool:
        """Changes the arena's record if it still reads ``before``."""

    @abstractmethod
    async def get(self, arena_id: str) -> str | None: ...

    @abstractmethod
    async def starting(self, since_ms: int, until_ms: int, limit: int) -> list[str]:
        """Records of arenas starting in [since, until], earliest first."""

    @abstractmethod
    async def entries(self, arena_id: str, player_ids: list[str] | None = None) -> dict[str, str]:
        """Entries by player id (only those asked for, when ``player_ids`` is given)."""

    @abstractmethod
    async def heats(self, arena_id: str, race_ids: list[str] | None = None) -> dict[str, str]:
        """Heats by race id (only those asked for, when ``race_ids`` is given)."""

    async def swap(self, arena_id: str, swap: Swap, ttl: int) -> bool:
        return (await self.swaps(arena_id, [swap], ttl))[0]

    @abstractmethod
    async def swaps(self, arena_id: str, swaps: list[Swap], ttl: int) -> list[bool]:
        """Applies each swap in turn, on its own: one answer each, as ``swap`` gives. A
        wave's heats go in one call: on Redis each call costs this process far more
        than the work of a swap (a heat's is about 70 us alone)."""

    @abstractmethod
    async def standings(self, arena_id: str, start: int, stop: int) -> list[str]:
        """Player ids ranked ``start`` to ``stop`` (0-based, inclusive), best first."""

    @abstractmethod
    async def rank(self, arena_id: str, player_id: str) -> int | None:
        """The player's 0-based rank, None when not in the standings."""

    @abstractmethod
    async def ranks(self, arena_id: str, player_ids: list[str]) -> dict[str, int]:
        """The 0-based ranks of those of ``player_ids`` in the standings."""

    @abstractmethod
    async def count(self, arena_id: str) -> int: ...

    @abstractmethod
    async def lock(self, arena_id: str, owner: str, ms: int) -> bool:
        """Takes the arena's wave lock for ``ms`` (True) unless another owner holds it."""

    @abstractmethod
    async def unlock(self, arena_id: str, owner: str) -> None: ...


class MemoryArenas(Arenas):
    """One process: every call runs without an ``await`` inside, so each is atomic."""

    def __init__(self) -> None:
        self._records: dict[str, tuple[str, int]] = {}
        self._entries: dict[str, dict[str, str]] = {}
        self._heats: dict[str, dict[str, str]] = {}
        self._scores: dict[str, dict[str, float]] = {}
        # Arena id -> (score, player id) in ascending order, kept as scores change: read
        # from the end it is the standings in Redis's ZREVRANGE order (score, then
        # member, both descending), and a rank costs O(log n), as ZREVRANK does, however
        # many players join or score between two readings.
        self._ranked: dict[str, SortedList] = {}
        self._locks = OwnedLocks()

    async def create(self, arena_id: str, record: str, start_ms: int, ttl: int) -> bool:
        if arena_id in self._records:
            return False
        self._records[arena_id] = (record, start_ms)
        return True

    async def replace(self, arena_id: str, before: str, after: str) -> bool:
        found = self._records.get(arena_id)
        if found is None or found[0] not in (before, after):
            return False
        self._records[arena_id] = (after, found[1])
        return True

    async def get(self, arena_id: str) -> str | None:
        found = self._records.get(arena_id)
        return found[0] if found else None

    async def starting(self, since_ms: int, until_ms: int, limit: int) -> list[str]:
        found = sorted(
            (start, arena_id, record)
            for arena_id, (record, start) in self._records.items()
            if since_ms <= start <= until_ms
        )
        return [record for _, _, record in found[:limit]]

    async def entries(self, arena_id: str, player_ids: list[str] | None = None) -> dict[str, str]:
        entries = self._entries.get(arena_id, {})
        if player_ids is None:
            return dict(entries)
        return {p: entries[p] for p in player_ids if p in entries}

    async def heats(self, arena_id: str, race_ids: list[str] | None = None) -> dict[str, str]:
        heats = self._heats.get(arena_id, {})
        if race_ids is None:
            return dict(heats)
        return {r: heats[r] for r in race_ids if r in heats}

    async def swaps(self, arena_id: str, swaps: list[Swap], ttl: int) -> list[bool]:
        return [self._swap(arena_id, swap) for swap in swaps]

    def _swap(self, arena_id: str, swap: Swap) -> bool:
        entries = self._entries.setdefault(arena_id, {})
        heats = self._heats.setdefault(arena_id, {})
        fields = [(entries, key, old, new) for key, old, new in swap.entries]
        if swap.heat is not None:
            fields.append((heats, *swap.heat))
        if not all(table.get(key) == old for table, key, old, _ in fields):
            # Done already by this very swap (its reply lost): answered as the first.
            return all(table.get(key) == new for table, key, _, new in fields)
        for table, key, _, new in fields:
            table[key] = new
        if swap.scores:
            scores = self._scores.setdefault(arena_id, {})
            ranked = self._ranked.setdefault(arena_id, SortedList())
            for player_id, score in swap.scores.items():
                old = scores.get(player_id)
                if old is not None:
                    ranked.remove((old, player_id))
                scores[player_id] = score
                ranked.add((score, player_id))
        return True

    def _rank(self, arena_id: str, player_id: str) -> int | None:
        score = self._scores.get(arena_id, {}).get(player_id)
        if score is None:
            return None
        ranked = self._ranked[arena_id]
        position: int = ranked.index((score, player_id))
        return len(ranked) - 1 - position

    async def standings(self, arena_id: str, start: int, stop: int) -> list[str]:
        ranked = self._ranked.get(arena_id)
        if not ranked:
            return []
        if stop < 0:  # from the end, as ZREVRANGE reads it
            stop += len(ranked)
        # Ranks start..stop are these positions from the end, the highest first.
        low, high = max(0, len(ranked) - 1 - stop), len(ranked) - start
        if high <= low:
            return []
        return [player_id for _, player_id in ranked.islice(low, high, reverse=True)]

    async def rank(self, arena_id: str, player_id: str) -> int | None:
        return self._rank(arena_id, player_id)

    async def ranks(self, arena_id: str, player_ids: list[str]) -> dict[str, int]:
        found = {p: self._rank(arena_id, p) for p in player_ids}
        return {p: rank for p, rank in found.items() if rank is not None}

    async def count(self, arena_id: str) -> int:
        return len(self._scores.get(arena_id, {}))

    async def lock(self, arena_id: str, owner: str, ms: int) -> bool:
        return self._locks.lock(arena_id, owner, ms)

    async def unlock(self, arena_id: str, owner: str) -> None:
        self._locks.unlock(arena_id, owner)
