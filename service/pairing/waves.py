"""Who a pairing wave pairs, computed without I/O (docs/protocol.md, "Quick pairing").

Each seeker accepts opponents within a rating window that widens while they wait:
``window + growth * seconds waited``. Two seekers may be paired when their ratings are
no further apart than the wider of their two windows (the longer waiter's), as the
waves of lichess's pools widen. The wave serves the longest waiting first, each with
the closest rating it may have; it never pairs a player with themselves, nor with the
opponent of their previous seek in the mode while anybody else waits.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..store.seeks import Seek


@dataclass(frozen=True, slots=True)
class Window:
    base: float
    growth_per_second: float

    def reach(self, seek: Seek, now_ms: int) -> float:
        waited = max(0, now_ms - seek.since_ms) / 1000
        return self.base + self.growth_per_second * waited


def _rematch(a: Seek, b: Seek) -> bool:
    return a.last_opponent == b.player_id or b.last_opponent == a.player_id


def match(seekers: list[Seek], now_ms: int, window: Window) -> list[tuple[Seek, Seek]]:
    """The pairs of one wave, longest waiting first."""
    order = sorted(seekers, key=lambda s: (s.since_ms, s.seek_id))
    reach = {s.seek_id: window.reach(s, now_ms) for s in order}
    # A rematch is avoided only while somebody else waits: two alone in the pool race.
    alone = len({s.player_id for s in order}) <= 2
    taken: set[str] = set()
    pairs: list[tuple[Seek, Seek]] = []
    for a in order:
        if a.seek_id in taken:
            continue
        candidates = [
            b
            for b in order
            if b.seek_id not in taken
            and b.player_id != a.player_id
            and abs(a.rating - b.rating) <= max(reach[a.seek_id], reach[b.seek_id])
            and (alone or not _rematch(a, b))
        ]
        if not candidates:
            continue
        b = min(candidates, key=lambda c: (abs(a.rating - c.rating), c.since_ms, c.seek_id))
        taken.update((a.seek_id, b.seek_id))
        pairs.append((a, b))
    return pairs
