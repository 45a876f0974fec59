"""Making an arena's heats: a wave's pairs, a chunk of heats at a time, each heat's race
and the swap that puts both players in it; the races of an arena's first heats, made in
the seconds before its start (``make_ahead``) so that the wave at the start only swaps
and tells; and the plans by which the instances on a shared store make one wave's heats
together.

A wave that pairs more than one chunk of heats on a shared store (an arena's start,
when every player who joined early is free at once) asks the other instances to help:
it publishes its pairs as a plan on ``PLANS_TOPIC``, and every instance, its own
included, takes the plan's chunks one at a time from a shared counter until none is
left. A helper reads the entries of its chunk's players again and pairs only those still
present and free, by the same swap. The wave waits for the chunks others took (at most
``_HELPERS_WAIT`` seconds: a helper that stopped midway leaves its players free for the
next wave) before it lets the arena's lock go.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson

from .. import engine
from ..errors import ServiceError, from_store
from ..store import Delivery, StoreUnavailable
from ..store.arenas import Swap
from ..store.race_document import RaceDocument
from ..support.ids import new_id
from ..support.tasks import cancel_and_wait
from . import Arenas, rules
from .records import dumps

log = logging.getLogger("service.arenas")

# Heats a wave counts, or makes, at once.
AT_ONCE = 32
# Heats made ahead that a wave records and tells at once: each costs only its swap, so a
# chunk of them is told as soon as a chunk of new heats would be, with fewer tellings.
AHEAD_AT_ONCE = 128
# The topic on which a wave asks every instance to help make its heats (not a game's:
# it has a kind before a colon).
PLANS_TOPIC = "arenas:plans"
# How long a wave waits for the chunks of its plan that other instances took (seconds),
# and how often it looks.
_HELPERS_WAIT = 2.0
_HELPERS_POLL = 0.005
# How long a plan's counters are kept (seconds).
_PLAN_SECONDS = 60


# A heat's two players.
Pair = tuple[str, str]


@dataclass
class MadeAhead:
    """The races of an upcoming arena's first heats, made before its start."""

    start_at: int
    races: dict[Pair, RaceDocument] = field(default_factory=dict)


class HeatMaker:
    """One instance's making of arena heats: its own waves' and its share of the other
    instances' plans."""

    def __init__(self, arenas: Arenas, owner: str) -> None:
        self.arenas = arenas
        self.store = arenas.arenas
        # The instance's id as the arenas' wave locks know it.
        self.owner = owner
        # The chunks of other instances' plans this instance is making.
        self._helping: set[asyncio.Task[None]] = set()
        # Arena id -> its first heats' races, made before its start. Kept in this
        # instance only; the arena's lock stays with it until the first wave, which
        # takes them.
        self.ahead: dict[str, MadeAhead] = {}

    async def start(self) -> None:
        if self.store.shared:
            try:
                await self.arenas.store.subscribe(PLANS_TOPIC, self)
            except StoreUnavailable as exc:
                # Subscribed all the same: the store listens again once it is back.
                log.warning("arena plans not heard yet: %s", exc)

    async def close(self) -> None:
        for task in list(self._helping):
            await cancel_and_wait(task)
        if self.store.shared:
            await self.arenas.store.unsubscribe(PLANS_TOPIC, self)

    async def make_ahead(self, record: dict[str, Any], entries: dict[str, dict[str, Any]]) -> int:
        """Makes the races of an upcoming arena's first heats, pairing the players joined
        so far as its first wave would (the wave's lock held): its first wave then only
        records and tells them. Nobody is told here. How many were made."""
        mode = _mode(record)
        made = self.ahead.setdefault(record["arena_id"], MadeAhead(record["start_at"])).races
        for chunk in chunks(_pairs(record, entries, _free_of(entries))):
            races = [
                self._race(record, mode, entries[a], entries[b], record["start_at"])
                for a, b in chunk
            ]
            made.update(zip(chunk, await asyncio.gather(*races), strict=True))
        return len(made)

    def races_ahead(self, arena_id: str) -> dict[Pair, RaceDocument]:
        """The races made ahead for an arena's first heats (none: empty)."""
        made = self.ahead.get(arena_id)
        return made.races if made is not None else {}

    async def drop_ahead(self, arena_id: str) -> None:
        """Calls off the races made ahead for an arena that no wave took."""
        for doc in self.races_ahead(arena_id).values():
            await self._call_off(arena_id, doc)
        self.ahead.pop(arena_id, None)

    async def pair(
        self, record: dict[str, Any], entries: dict[str, dict[str, Any]], wave_at: int
    ) -> int:
        """Pairs the free players of ``entries`` (the wave's reading) and makes their
        heats; how many were made. Heats made ahead (``make_ahead``) go first, each while
        both its players are still free; the others are paired among themselves."""
        arena_id = record["arena_id"]
        free = _free_of(entries)
        ahead = self.races_ahead(arena_id)
        self.ahead.pop(arena_id, None)
        free_ids = {e["player_id"] for e in free}
        kept = [pair for pair in ahead if pair[0] in free_ids and pair[1] in free_ids]
        taken = {player for pair in kept for player in pair}
        rest = [e for e in free if e["player_id"] not in taken]
        mode = _mode(record)
        made = 0
        # Pairs are made a chunk at a time, each chunk's races at once, and each chunk
        # told as soon as it is made: the first players paired need not wait for the
        # last. Every message but the last says more follow, so that the followers send
        # the players their heats first and the pages (whose "playing" marks each chunk
        # changes) once, after the last: a page goes to every follower of it, and an
        # arena's first wave pairs everybody at once.
        planned = chunks(kept, AHEAD_AT_ONCE) + chunks(_pairs(record, entries, rest))
        if not ahead and len(planned) > 1 and self.store.shared:
            return await self._pair_with_helpers(record, mode, entries, planned, wave_at)
        for number, chunk in enumerate(planned, 1):
            pairs = [(entries[a], entries[b]) for a, b in chunk]
            paired = await self._heats(record, mode, pairs, wave_at, ahead)
            made += len(paired) // 2
            last = number == len(planned)
            if paired or (last and made):
                await self.arenas.publish(arena_id, paired, more=not last)
        await self._call_off_unused(arena_id, ahead, kept)
        return made

    async def _call_off_unused(
        self,
        arena_id: str,
        ahead: dict[Pair, RaceDocument],
        kept: list[Pair],
    ) -> None:
        """Calls off the races made ahead whose players were not both free at the start
        (one left, say): nobody was told of them."""
        used = set(kept)
        for pair, doc in ahead.items():
            if pair not in used:
                await self._call_off(arena_id, doc)

    async def _pair_with_helpers(
        self,
        record: dict[str, Any],
        mode: engine.Mode,
        entries: dict[str, dict[str, Any]],
        planned: list[list[tuple[str, str]]],
        wave_at: int,
    ) -> int:
        """Makes the wave's heats with the other instances' help (a plan); how many
        were made by all."""
        arena_id = record["arena_id"]
        plan_id = new_id(12)
        plan = {
            "plan_id": plan_id,
            "owner": self.owner,
            "record": record,
            "wave_at": wave_at,
            "chunks": planned,
        }
        await from_store(self.arenas.store.publish(PLANS_TOPIC, orjson.dumps(plan)))
        while (index := await self._claim(plan_id)) < len(planned):
            pairs = [(entries[a], entries[b]) for a, b in planned[index]]
            await self._make_chunk(record, mode, plan_id, pairs, wave_at)
        loop = asyncio.get_running_loop()
        waited_until = loop.time() + _HELPERS_WAIT
        while await self._tally(plan_id, "done", 0) < len(planned):
            if loop.time() >= waited_until:
                log.warning("arena %s: chunks of plan %s not made in time", arena_id, plan_id)
                break
            await asyncio.sleep(_HELPERS_POLL)
        made = await self._tally(plan_id, "made", 0)
        # The last message: the followers may tell the pages now.
        await self.arenas.publish(arena_id, [])
        return made

    def deliver(self, delivery: Delivery) -> None:
        """A plan published by a wave (``PLANS_TOPIC``): this instance helps make its
        heats unless the wave is its own."""
        if delivery.payload is None:
            return
        plan = orjson.loads(delivery.payload)
        if plan["owner"] == self.owner:
            return
        task = asyncio.create_task(self._help(plan))
        self._helping.add(task)
        task.add_done_callback(self._helping.discard)

    async def _help(self, plan: dict[str, Any]) -> None:
        record = plan["record"]
        arena_id = record["arena_id"]
        mode = _mode(record)
        planned = plan["chunks"]
        try:
            while (index := await self._claim(plan["plan_id"])) < len(planned):
                chunk = planned[index]
                found = await self.store.entries(arena_id, [p for pair in chunk for p in pair])
                entries = {p: orjson.loads(text) for p, text in found.items()}
                # Paired only if still free and present, as the wave's swap would find.
                pairs = [
                    (entries[a], entries[b])
                    for a, b in chunk
                    if _free(entries.get(a)) and _free(entries.get(b))
                ]
                await self._make_chunk(record, mode, plan["plan_id"], pairs, plan["wave_at"])
        except (ServiceError, StoreUnavailable) as exc:
            log.warning("arena %s: helping with a wave failed: %s", arena_id, exc)
        except Exception:
            # A task of its own: what it raises would otherwise surface only when the
            # task is collected. The wave stops waiting for its chunk after a while.
            log.exception("arena %s: helping with a wave failed", arena_id)

    async def _make_chunk(
        self,
        record: dict[str, Any],
        mode: engine.Mode,
        plan_id: str,
        pairs: list[tuple[dict[str, Any], dict[str, Any]]],
        wave_at: int,
    ) -> None:
        """Makes one chunk of a plan's heats, tells their players, and counts it done."""
        paired = await self._heats(record, mode, pairs, wave_at)
        if paired:
            await self.arenas.publish(record["arena_id"], paired, more=True)
            await self._tally(plan_id, "made", len(paired) // 2)
        await self._tally(plan_id, "done", 1)

    async def _claim(self, plan_id: str) -> int:
        """The index of the plan's next chunk nobody has taken (past the last: none)."""
        return await self._tally(plan_id, "claimed", 1) - 1

    async def _tally(self, plan_id: str, what: str, add: int) -> int:
        key = f"arena-plan:{plan_id}:{what}"
        return await from_store(self.arenas.store.tally(key, _PLAN_SECONDS, add))

    async def _race(
        self,
        record: dict[str, Any],
        mode: engine.Mode,
        a: dict[str, Any],
        b: dict[str, Any],
        reveal_at: int | None = None,
    ) -> RaceDocument:
        """A heat's race for ``a`` and ``b`` (not yet their heat)."""
        seats = [(e["name"], e["token_hash"], e["player_id"]) for e in (a, b)]
        return await self.arenas.lobby.create_paired(
            mode,
            seats,
            self.arenas.settings.arena_heat_seconds,
            reveal_at=reveal_at,
            heat_of=record["arena_id"],
        )

    async def _heats(
        self,
        record: dict[str, Any],
        mode: engine.Mode,
        pairs: list[tuple[dict[str, Any], dict[str, Any]]],
        wave_at: int,
        ahead: dict[Pair, RaceDocument] | None = None,
    ) -> list[str]:
        """Makes a chunk of heats: the races not made ahead (``ahead``) at once, then
        one swap each, in one store call, that marks both players in it; the ids of the
        players paired. A heat whose players changed meanwhile is not made (its race,
        told to nobody, is called off)."""
        arena_id = record["arena_id"]
        found = [(ahead or {}).get((a["player_id"], b["player_id"])) for a, b in pairs]
        missing = [pair for pair, doc in zip(pairs, found, strict=True) if doc is None]
        races = iter(await asyncio.gather(*(self._race(record, mode, *pair) for pair in missing)))
        docs = [doc if doc is not None else next(races) for doc in found]
        swaps = [_heat_swap(a, b, doc, wave_at) for (a, b), doc in zip(pairs, docs, strict=True)]
        applied = await self.store.swaps(arena_id, swaps, self.arenas.ttl(record))
        paired: list[str] = []
        for (a, b), doc, done in zip(pairs, docs, applied, strict=True):
            if done:
                paired += [a["player_id"], b["player_id"]]
            else:
                await self._call_off(arena_id, doc)
        return paired

    async def _call_off(self, arena_id: str, doc: RaceDocument) -> None:
        try:
            await self.arenas.lobby.updates.call_off(doc.race_id)
        except (ServiceError, StoreUnavailable) as exc:
            # Not the wave's failure: its other heats are made and must still be told.
            # Untold, the race ends unrated all the same when its time runs out.
            log.warning("arena %s: heat %s not called off: %s", arena_id, doc.race_id, exc)


def _heat_swap(a: dict[str, Any], b: dict[str, Any], doc: RaceDocument, wave_at: int) -> Swap:
    """The swap that adds the heat of ``doc``'s race and marks ``a`` and ``b`` (changed
    here) in it."""
    heat = {
        "race_id": doc.race_id,
        "started_at": wave_at,
        "ended_at": None,
        "outcomes": None,
        "players": [
            {"player_id": e["player_id"], "name": e["name"], "rating": round(e["rating"])}
            for e in (a, b)
        ],
    }
    swap = Swap(heat=(doc.race_id, None, dumps(heat)))
    for entry, seat, other in ((a, doc.players[0], b), (b, doc.players[1], a)):
        before = dumps(entry)
        entry.update(
            state="playing",
            heat={
                "race_id": doc.race_id,
                "game_id": seat.game_id,
                "player_id": seat.player_id,
                "opponent": {"name": other["name"], "rating": round(other["rating"])},
            },
        )
        swap.entries.append((entry["player_id"], before, dumps(entry)))
    return swap


def _free(entry: dict[str, Any] | None) -> bool:
    return entry is not None and entry["present"] and entry["state"] == "free"


def _free_of(entries: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in entries.values() if _free(e)]


def _pairs(
    record: dict[str, Any], entries: dict[str, dict[str, Any]], free: list[dict[str, Any]]
) -> list[tuple[str, str]]:
    """The pairs of ``free`` players, by their standing among all ``entries``."""
    if len(free) < 2:
        return []
    start = record["start_at"]
    order = sorted(entries.values(), key=lambda e: -rules.standing_score(e, start))
    rank = {e["player_id"]: i for i, e in enumerate(order)}
    return rules.pair_free(free, rank)


def _mode(record: dict[str, Any]) -> engine.Mode:
    mode = engine.Mode.find(record["mode"], engine.Mode.all())
    assert mode is not None
    return mode


T = TypeVar("T")


def chunks(items: list[T], size: int | None = None) -> list[list[T]]:
    """``items`` in chunks of ``size`` (``AT_ONCE`` unless given, read when called):
    heats a wave counts, or makes, at once."""
    size = size or AT_ONCE
    return [items[i : i + size] for i in range(0, len(items), size)]
