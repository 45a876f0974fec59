"""The embedded store: games in this process's memory, for a single instance."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field, replace

from ..config import Settings
from .arenas import MemoryArenas
from .base import (
    CHECKPOINT_INTERVAL,
    REQUEST_MEMORY,
    CommitResult,
    CommitStatus,
    Delivery,
    History,
    Store,
    StoredGame,
    StoredRace,
    race_topic,
    read_log_entry,
)
from .records import MemoryRecords
from .seeks import MemorySeeks

# Expired games are swept on create, at most this often (seconds).
_SWEEP_INTERVAL = 60.0
# Expired counters are dropped when this many are held, so a flood of addresses stays bounded.
_TALLY_SWEEP_SIZE = 10_000
now = time.monotonic


@dataclass(slots=True)
class _Entry:
    game: StoredGame
    expires_at: float | None
    log: list[str] = field(default_factory=list)
    requests: deque[tuple[str, int, str]] = field(
        default_factory=lambda: deque(maxlen=REQUEST_MEMORY)
    )
    # Version (a multiple of CHECKPOINT_INTERVAL) -> serialized state at that version.
    checkpoints: dict[int, str] = field(default_factory=dict)


class MemoryStore(Store):
    """Commit runs without an ``await`` in it, so on one event loop it is atomic."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self._games: dict[str, _Entry] = {}
        # Race id -> the race, when it expires, whether it is over.
        self._races: dict[str, tuple[StoredRace, float | None, bool]] = {}
        self._join_codes: dict[str, str] = {}
        self._tallies: dict[str, tuple[int, float]] = {}
        self.records = MemoryRecords()
        self.seeks = MemorySeeks()
        self.arenas = MemoryArenas()
        self._last_sweep = now()

    @property
    def kind(self) -> str:
        return "memory"

    async def ping(self) -> None:
        return None

    def _expiry(self, over: bool) -> float | None:
        ttl = self.settings.won_game_ttl_seconds if over else self.settings.game_ttl_seconds
        return now() + ttl if ttl > 0 else None

    def _entry(self, game_id: str) -> _Entry | None:
        entry = self._games.get(game_id)
        if entry is not None and entry.expires_at is not None and entry.expires_at <= now():
            del self._games[game_id]
            return None
        return entry

    async def create(self, game: StoredGame) -> None:
        moment = now()
        if moment - self._last_sweep > _SWEEP_INTERVAL:
            self._last_sweep = moment
            for game_id in [
                k for k, e in self._games.items() if e.expires_at and e.expires_at <= moment
            ]:
                del self._games[game_id]
        self._games[game.game_id] = _Entry(replace(game), self._expiry(game.over))

    async def load(self, game_id: str) -> StoredGame | None:
        entry = self._entry(game_id)
        return replace(entry.game) if entry else None

    async def commit(
        self,
        game_id: str,
        expected_version: int,
        state: str,
        notation: str,
        request_id: str | None,
        over: bool,
        payload: bytes,
        fingerprint: str = "",
    ) -> CommitResult:
        entry = self._entry(game_id)
        if entry is None:
            return CommitResult(CommitStatus.MISSING, 0)
        stored = entry.game
        if request_id is not None:
            for seen, version, seen_fingerprint in entry.requests:
                if seen == request_id:
                    same = seen_fingerprint == fingerprint
                    status = CommitStatus.DUPLICATE if same else CommitStatus.REUSED
                    return CommitResult(status, version)
        if stored.version != expected_version:
            return CommitResult(CommitStatus.CONFLICT, stored.version)
        if stored.version >= self.settings.max_actions_per_game:
            return CommitResult(CommitStatus.FULL, stored.version)
        stored.version += 1
        stored.state = state
        stored.over = over
        entry.log.append(notation)
        if stored.version % CHECKPOINT_INTERVAL == 0:
            entry.checkpoints[stored.version] = state
        if request_id is not None:
            entry.requests.append((request_id, stored.version, fingerprint))
        entry.expires_at = self._expiry(over)
        self._dispatch(Delivery(game_id, stored.version, payload))
        return CommitResult(CommitStatus.APPLIED, stored.version)

    async def seen_request(self, game_id: str, request_id: str) -> tuple[int, str] | None:
        entry = self._entry(game_id)
        if entry is None:
            return None
        return next(((v, f) for seen, v, f in entry.requests if seen == request_id), None)

    async def timed_actions(self, game_id: str) -> list[tuple[str, int | None]] | None:
        entry = self._entry(game_id)
        return [read_log_entry(text) for text in entry.log] if entry else None

    async def history(self, game_id: str, since: int, stop: int) -> History | None:
        entry = self._entry(game_id)
        if entry is None:
            return None
        base = since - since % CHECKPOINT_INTERVAL
        state = entry.checkpoints.get(base)
        if state is None:
            base = 0
        actions = [read_log_entry(text)[0] for text in entry.log[base:stop]]
        return History(len(entry.log), base, state, actions)

    # ------------------------------------------------------------------ races

    def _race(self, race_id: str) -> StoredRace | None:
        found = self._races.get(race_id)
        if found is None:
            return None
        race, expires_at, _ = found
        if expires_at is not None and expires_at <= now():
            del self._races[race_id]
            return None
        return race

    async def create_race(self, race: StoredRace, join_code: str) -> bool:
        holder = self._join_codes.get(join_code)
        if holder is not None and self._race(holder) is not None:
            return False
        self._join_codes[join_code] = race.race_id
        self._races[race.race_id] = (replace(race), self._expiry(False), False)
        return True

    async def load_race(self, race_id: str) -> StoredRace | None:
        race = self._race(race_id)
        return replace(race) if race else None

    async def race_versions(self, race_ids: list[str]) -> dict[str, int]:
        found = ((race_id, self._race(race_id)) for race_id in race_ids)
        return {race_id: race.version for race_id, race in found if race is not None}

    async def save_race(
        self, race_id: str, expected_version: int, doc: str, payload: bytes, over: bool = False
    ) -> CommitResult:
        race = self._race(race_id)
        if race is None:
            return CommitResult(CommitStatus.MISSING, 0)
        if race.version != expected_version:
            return CommitResult(CommitStatus.CONFLICT, race.version)
        race.version += 1
        race.doc = doc
        self._races[race_id] = (race, self._expiry(over), over)
        self._dispatch(Delivery(race_topic(race_id), race.version, payload))
        return CommitResult(CommitStatus.APPLIED, race.version)

    async def renew_race(self, race_id: str) -> None:
        race = self._race(race_id)
        expires_at = self._expiry(False)
        if race is not None and not self._races[race_id][2] and expires_at is not None:
            self._races[race_id] = (race, expires_at, False)

    async def race_of_join_code(self, join_code: str) -> str | None:
        race_id = self._join_codes.get(join_code)
        return race_id if race_id and self._race(race_id) else None

    async def tally(self, key: str, window_seconds: int, add: int = 1) -> int:
        return self._count(key, window_seconds, add)

    async def admit(self, key: str, limit: int, window_seconds: int) -> bool:
        # No ``await`` between the check and the count: atomic on the event loop.
        if self._count(key, window_seconds, 0) >= limit:
            return False
        self._count(key, window_seconds, 1)
        return True

    def _count(self, key: str, window_seconds: int, add: int) -> int:
        moment = now()
        count, expires_at = self._tallies.get(key, (0, 0.0))
        if expires_at <= moment:
            count, expires_at = 0, moment + window_seconds
            if len(self._tallies) > _TALLY_SWEEP_SIZE:
                self._tallies = {k: v for k, v in self._tallies.items() if v[1] > moment}
        if add:
            count += add
            self._tallies[key] = (count, expires_at)
        return count

    async def refund(self, key: str) -> None:
        count, expires_at = self._tallies.get(key, (0, 0.0))
        if count > 0 and expires_at > now():
            self._tallies[key] = (count - 1, expires_at)

    async def publish(self, topic: str, payload: bytes) -> None:
        self._dispatch(Delivery(topic, 0, payload))
