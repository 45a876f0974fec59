"""Arena tournaments: an arena in one mode runs from its start for its minutes; players
join while it is upcoming or running and are paired continuously into two-player rated
heats on one deal, scoring points by the rules of ``rules`` (docs/arena.md).

Arenas live in the store (``store.arenas``), shared by every instance: recurring ones
are made from ``ARENA_SCHEDULE`` by whichever instance comes first, players may make
their own. Each instance runs waves (``waves``) that settle finished heats and pair free
players, one instance at a time per arena. Followers hear of changes on the arena's
topic (``arena_topic``) and read the page of standings they follow again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import orjson

from .. import engine
from ..config import Settings
from ..errors import ServiceError, from_store
from ..players import Players
from ..players.ratings import Ratings
from ..protocol import ErrorCode
from ..races.lobby import RaceLobby
from ..store import Store, hash_token
from ..store.arenas import KEPT_SECONDS, Swap
from ..support.ids import new_id
from . import records, rules
from .records import arena_token, arena_view, dumps, new_entry, status

log = logging.getLogger("service.arenas")

MODES = engine.Mode.all()
PAGE_SIZE = 20
# The longest a player's arena may last, and how far ahead it may start.
MAX_MINUTES = 180
MAX_AHEAD_MS = 7 * 24 * 3600 * 1000
# How far back the list reaches for finished arenas, and how many it shows of each kind.
LISTED_DAYS = 2
LISTED = 50
MAX_ARENA_ID = 64


def arena_topic(arena_id: str) -> str:
    return f"arena:{arena_id}"


def _not_found() -> ServiceError:
    return ServiceError(ErrorCode.NOT_FOUND, 404, "no such arena")


def _over(what: str) -> ServiceError:
    return ServiceError(
        ErrorCode.ARENA_OVER,
        409,
        f"the arena is over: {what}",
        message_en="This arena is over.",
        message_fi="Tämä areena on päättynyt.",
    )


class Arenas:
    def __init__(
        self,
        store: Store,
        lobby: RaceLobby,
        players: Players,
        ratings: Ratings,
        settings: Settings,
        clock: Callable[[], int],
    ) -> None:
        self.store = store
        self.arenas = store.arenas
        self.lobby = lobby
        self.players = players
        self.ratings = ratings
        self.settings = settings
        # Milliseconds of server time.
        self.clock = clock
        self.schedule = rules.parse_schedule(settings.arena_schedule, {str(m) for m in MODES})

    # ------------------------------------------------------------------ records

    async def record(self, arena_id: str) -> dict[str, Any]:
        found = None
        if len(arena_id) <= MAX_ARENA_ID:
            found = await from_store(self.arenas.get(arena_id))
        if found is None:
            raise _not_found()
        record: dict[str, Any] = orjson.loads(found)
        return record

    async def make(
        self, arena_id: str, mode: str, start_ms: int, minutes: int, name: str, by: str
    ) -> bool:
        """Writes a new arena unless one has the id already (True when written)."""
        record: dict[str, Any] = {
            "arena_id": arena_id,
            "name": name,
            "mode": mode,
            "start_at": start_ms,
            "ends_at": start_ms + minutes * 60_000,
            "minutes": minutes,
            "created_by": by,
        }
        ttl = self.ttl(record)
        return await from_store(self.arenas.create(arena_id, dumps(record), start_ms, ttl))

    async def ensure_scheduled(self) -> None:
        """Makes the recurring arenas running now and the next of each; made once
        however many instances try (the id is the mode and the start)."""
        now = self.clock()
        for item in self.schedule:
            for start in item.starts(now, 1):
                stamp = records.stamp(start)
                arena_id = f"{item.mode}-{item.every[0]}{stamp}"
                name = f"{'Hourly' if item.every == 'hourly' else 'Daily'} {item.mode} arena"
                await self.make(arena_id, item.mode, start, item.minutes, name, "")

    # ------------------------------------------------------------------ players

    async def create(
        self, token: str | None, mode_text: str, starts_in: int, minutes: int, name: str
    ) -> dict[str, Any]:
        """A player's own arena, starting ``starts_in`` minutes from now."""
        player = await self.players.authenticate(token)
        mode = engine.Mode.find(mode_text, MODES)
        if mode is None:
            raise ServiceError(
                ErrorCode.BAD_MESSAGE, 422, "mode is one of " + ", ".join(map(str, MODES))
            )
        if not 0 <= starts_in * 60_000 <= MAX_AHEAD_MS or not 5 <= minutes <= MAX_MINUTES:
            raise ServiceError(
                ErrorCode.BAD_MESSAGE, 422, "starts_in is 0 to 10080, minutes 5 to 180"
            )
        arena_id = f"{mode}-p{new_id(9)}"
        start = self.clock() + starts_in * 60_000
        await self.make(arena_id, str(mode), start, minutes, name, player.player_id)
        return await self.view(arena_id, token)

    async def cancel(self, arena_id: str, token: str | None) -> dict[str, Any]:
        """Cancels an arena of the player's own that has not started."""
        player_id = await self.players.player_id_of(token)
        record = await self.record(arena_id)
        if record["created_by"] != player_id:
            raise ServiceError(
                ErrorCode.NOT_YOUR_ARENA,
                403,
                "only the player who made an arena can cancel it",
                message_en="Only the player who made this arena can cancel it.",
                message_fi="Vain areenan tekijä voi perua sen.",
            )
        state = status(record, self.clock())
        if state in ("running", "finished"):
            raise ServiceError(
                ErrorCode.ARENA_STARTED,
                409,
                "the arena has started: it can no longer be cancelled",
                message_en="This arena has already started.",
                message_fi="Tämä areena on jo alkanut.",
            )
        if state == "upcoming":
            before = dumps(record)
            await from_store(
                self.arenas.replace(arena_id, before, dumps({**record, "cancelled": True}))
            )
            await self.publish(arena_id, [])
        return await self.view(arena_id, token)

    async def join(self, arena_id: str, token: str | None) -> dict[str, Any]:
        """Joins the arena, or comes back to it after leaving; joining twice changes
        nothing."""
        player = await self.players.authenticate(token)
        assert token is not None
        record = await self.record(arena_id)
        state = status(record, self.clock())
        if state in ("finished", "cancelled"):
            raise _over("nobody can join it")
        for _ in range(8):
            found = await from_store(self.arenas.entries(arena_id, [player.player_id]))
            before = found.get(player.player_id)
            if before is None:
                standing = await self.ratings.standing(player.player_id, record["mode"])
                entry = new_entry(
                    player.player_id,
                    player.name,
                    float(standing["rating"]),
                    hash_token(arena_token(token, arena_id)),
                    max(self.clock(), record["start_at"]),
                )
            else:
                entry = orjson.loads(before)
                if entry["present"]:
                    break
                entry["present"] = True
                entry["free_since"] = self.clock()
            score = {player.player_id: rules.standing_score(entry, record["start_at"])}
            swap = Swap(entries=[(player.player_id, before, dumps(entry))], scores=score)
            if await from_store(self.arenas.swap(arena_id, swap, self.ttl(record))):
                await self.publish(arena_id, [player.player_id])
                break
        return await self.view(arena_id, token)

    async def leave(self, arena_id: str, token: str | None) -> dict[str, Any]:
        """Leaves the arena: no more heats until the player joins again; a heat under
        way is played out (or lost by time)."""
        player_id = await self.players.player_id_of(token)
        record = await self.record(arena_id)
        if status(record, self.clock()) in ("finished", "cancelled"):
            raise _over("its standings are final")
        for _ in range(8):
            found = await from_store(self.arenas.entries(arena_id, [player_id]))
            before = found.get(player_id)
            if before is None:
                raise ServiceError(
                    ErrorCode.NOT_IN_ARENA,
                    409,
                    "you have not joined this arena",
                    message_en="You have not joined this arena.",
                    message_fi="Et ole liittynyt tälle areenalle.",
                )
            entry = orjson.loads(before)
            if not entry["present"]:
                break
            entry["present"] = False
            swap = Swap(entries=[(player_id, before, dumps(entry))])
            if await from_store(self.arenas.swap(arena_id, swap, self.ttl(record))):
                await self.publish(arena_id, [player_id])
                break
        return await self.view(arena_id, token)

    # ------------------------------------------------------------------ reads

    async def view(self, arena_id: str, token: str | None) -> dict[str, Any]:
        """The arena, and with a player token of one of its players their entry."""
        record = await self.record(arena_id)
        count = await from_store(self.arenas.count(arena_id))
        mine = None
        if token:
            player_id = await self.players.player_id_of(token)
            found = await from_store(self.arenas.entries(arena_id, [player_id]))
            if player_id in found:
                rank = await from_store(self.arenas.rank(arena_id, player_id))
                entry = orjson.loads(found[player_id])
                mine = records.you(entry, (rank or 0) + 1, token, arena_id)
        return {"arena": arena_view(record, self.clock(), count), "you": mine}

    async def listing(self) -> dict[str, Any]:
        now = self.clock()
        since = now - LISTED_DAYS * 24 * 3600 * 1000
        found = await from_store(self.arenas.starting(since, now + MAX_AHEAD_MS, 4 * LISTED))
        kinds: dict[str, list[dict[str, Any]]] = {"upcoming": [], "running": [], "finished": []}
        for text in found:
            record = orjson.loads(text)
            state = status(record, now)
            if state in kinds:
                kinds[state].append(arena_view(record, now, 0))
        kinds["finished"] = kinds["finished"][-LISTED:][::-1]
        kinds["upcoming"] = kinds["upcoming"][:LISTED]
        return {"server_time": now, **kinds}

    async def standings(self, arena_id: str, page: int) -> dict[str, Any]:
        """A page (from 1) of ``PAGE_SIZE`` lines of the standings."""
        record = await self.record(arena_id)
        start = (page - 1) * PAGE_SIZE
        rows = await self.page_rows(arena_id, start)
        total = await from_store(self.arenas.count(arena_id))
        return {
            "arena_id": arena_id,
            "page": page,
            "total": total,
            "final": bool(record.get("final")),
            "rows": rows,
        }

    async def page_rows(self, arena_id: str, start: int) -> list[dict[str, Any]]:
        ids = await from_store(self.arenas.standings(arena_id, start, start + PAGE_SIZE - 1))
        entries = await from_store(self.arenas.entries(arena_id, ids))
        return [
            records.row(orjson.loads(entries[p]), start + i + 1)
            for i, p in enumerate(ids)
            if p in entries
        ]

    async def heats(self, arena_id: str) -> dict[str, Any]:
        """Every heat of the arena, earliest first: its race (readable and, once over,
        replayable by the race's routes), its players and their outcomes."""
        await self.record(arena_id)
        found = await from_store(self.arenas.heats(arena_id))
        heats = sorted((orjson.loads(h) for h in found.values()), key=lambda h: h["started_at"])
        return {"arena_id": arena_id, "heats": heats}

    # ------------------------------------------------------------------ helpers

    def ttl(self, record: dict[str, Any]) -> int:
        """How long the arena's keys live: to its end and ``KEPT_SECONDS`` more."""
        return int(max(1, (record["ends_at"] - self.clock()) // 1000) + KEPT_SECONDS)

    async def publish(
        self, arena_id: str, changed: list[str], final: bool = False, more: bool = False
    ) -> None:
        """Tells the followers (on every instance) which players' lines changed; ``more``:
        a wave's pairing goes on at once, and its last message will say so."""
        news: dict[str, Any] = {"changed": changed, "final": final}
        if more:
            news["more"] = True
        payload = orjson.dumps(news)
        await from_store(self.store.publish(arena_topic(arena_id), payload))
