"""An arena's waves: each settles the heats that ended and pairs the free players.

Every instance runs a wave every ``ARENA_WAVE_SECONDS`` for each arena running (or
ended with heats still open); one instance at a time runs an arena's wave (the arena's
lock). Each change is a store ``swap`` from the entries as read, so a heat's result is
counted once and a player is in one heat at a time even when a wave is taken over by
another instance midway.

A wave that pairs more than one chunk of heats on a shared store (an arena's start,
when every player who joined early is free at once) asks the other instances to help:
it publishes its pairs as a plan on ``PLANS_TOPIC``, and every instance, itself
included, takes the plan's chunks one at a time from a shared counter until none is
left. A helper reads the entries of its chunk's players again and pairs only those still
present and free, by the same swap. The wave waits for the chunks others took (at most
``_HELPERS_WAIT`` seconds: a helper that stopped midway leaves its players free for the
next wave) before it lets the arena's lock go.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, TypeVar

import orjson

from .. import engine
from ..errors import ServiceError, from_store
from ..games.hooks import RaceRead
from ..protocol import ErrorCode
from ..races.updates import RaceUpdates
from ..store import Delivery, StoreUnavailable
from ..store.arenas import Swap
from ..support.ids import new_id
from ..support.tasks import cancel_and_wait
from . import Arenas, rules
from .records import dumps, status

log = logging.getLogger("service.arenas")

# Key -> a JSON text as read, and its parse (never changed).
Parsed = dict[str, tuple[str, dict[str, Any]]]

# A wave that takes longer than this (a stalled store) lets another instance take over.
_LOCK_MS = 10_000
# Heats a wave counts, or makes, at once.
_AT_ONCE = 32
# How often an instance makes the scheduled arenas (seconds).
_SCHEDULE_EVERY = 30.0
# How often an open heat's games are read for an ending its race missed (seconds), and
# for how many heats at most in one wave (``_deep_reads``).
_DEEP_EVERY = 10.0
_DEEP_PER_WAVE = 16
# How long before an arena's start its first wave's deals are made (milliseconds).
_DEAL_AHEAD_MS = 15_000
# The topic on which a wave asks every instance to help make its heats.
PLANS_TOPIC = "arena-plans"
# How long a wave waits for the chunks of its plan that other instances took (seconds),
# and how often it looks.
_HELPERS_WAIT = 2.0
_HELPERS_POLL = 0.005
# How long a plan's counters are kept (seconds).
_PLAN_SECONDS = 60


class ArenaWaves:
    def __init__(self, arenas: Arenas, updates: RaceUpdates) -> None:
        self.arenas = arenas
        self.store = arenas.arenas
        self.updates = updates
        self.clock = arenas.clock
        self.owner = new_id(9)
        self.openings = arenas.lobby.games.openings
        # Arena id -> race id of an open heat -> when its games were last read (event
        # loop time), for ``_deep_reads``.
        self._checked: dict[str, dict[str, float]] = {}
        # Arena id -> race id of an open heat -> its race as last read, never changed
        # here: most open heats' races have not changed since the last wave, and parsing
        # each again was most of a wave that counts and pairs nobody.
        self._reads: dict[str, dict[str, RaceRead]] = {}
        # Arena id -> player id -> the entry's JSON as last read, and its parse: between
        # two waves most entries are unchanged, and parsing every one again was most of
        # a wave that counts and pairs nobody. Never changed here (the wave changes
        # copies).
        self._entries: dict[str, Parsed] = {}
        # Arena id -> race id -> its open heat's JSON as last read, and its parse.
        self._heats: dict[str, Parsed] = {}
        self._task: asyncio.Task[None] | None = None
        # The chunks of other instances' plans this instance is making.
        self._helping: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        if self.store.shared:
            try:
                await self.arenas.store.subscribe(PLANS_TOPIC, self)
            except StoreUnavailable as exc:
                # Subscribed all the same: the store listens again once it is back.
                log.warning("arena plans not heard yet: %s", exc)
        self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        if self._task is not None:
            await cancel_and_wait(self._task)
        for task in list(self._helping):
            await cancel_and_wait(task)
        if self.store.shared:
            await self.arenas.store.unsubscribe(PLANS_TOPIC, self)

    async def _run(self) -> None:
        scheduled = 0.0
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.arenas.settings.arena_wave_seconds)
            try:
                if loop.time() - scheduled >= _SCHEDULE_EVERY:
                    await self.arenas.ensure_scheduled()
                    scheduled = loop.time()
                await self.wave()
            except (ServiceError, StoreUnavailable) as exc:
                log.warning("arena wave failed: %s", exc)
            except Exception:
                log.exception("arena wave failed")

    async def wave(self) -> int:
        """Settles and pairs in every arena that needs it; how many heats were made."""
        now = self.clock()
        longest = 24 * 3600 * 1000
        made = 0
        waved: set[str] = set()
        for text in await self.store.starting(now - 2 * longest, now, 1000):
            record = orjson.loads(text)
            if record.get("final") or record.get("cancelled"):
                continue
            waved.add(record["arena_id"])
            made += await self.arena_wave(record)
        # What is kept of an arena that has no waves any more (made final here or by
        # another instance) is let go.
        for kept in (self._entries, self._heats, self._reads, self._checked):
            for arena_id in kept.keys() - waved:
                del kept[arena_id]
        await self._deal_ahead(now)
        return made

    async def _deal_ahead(self, now: int) -> None:
        """Deals the first heats of the arenas starting soon, one per two players joined:
        their first wave pairs everybody at once."""
        heats: dict[engine.Mode, int] = {}
        for text in await self.store.starting(now + 1, now + _DEAL_AHEAD_MS, 100):
            record = orjson.loads(text)
            mode = engine.Mode.find(record["mode"], engine.Mode.all())
            if mode is None or record.get("cancelled"):
                continue
            heats[mode] = heats.get(mode, 0) + await self.store.count(record["arena_id"]) // 2
        for mode, count in heats.items():
            await self.openings.prepare(mode, count)

    async def arena_wave(self, record: dict[str, Any]) -> int:
        arena_id = record["arena_id"]
        if not await self.store.lock(arena_id, self.owner, _LOCK_MS):
            return 0
        try:
            texts = await self.store.entries(arena_id)
            parsed = self._entries[arena_id] = _parsed(texts, self._entries.get(arena_id, {}))
            # Copies, changed by this wave's swaps: the parsed entries stay as stored.
            entries = {p: dict(e) for p, (_, e) in parsed.items()}
            # Only the open heats are read: an entry is playing exactly while its heat
            # is open (both change in one swap), and a long arena's counted heats
            # would otherwise be read again by every wave.
            playing = {e["heat"]["race_id"] for e in entries.values() if e["state"] == "playing"}
            found = await self.store.heats(arena_id, sorted(playing))
            heats = self._heats[arena_id] = _parsed(found, self._heats.get(arena_id, {}))
            open_heats = [h for _, h in heats.values() if h["outcomes"] is None]
            deep = self._deep_reads(arena_id, [h["race_id"] for h in open_heats])
            # Kept for the open heats only: a counted heat's race is not read again.
            reads = self._reads.pop(arena_id, {})
            kept = {h["race_id"]: reads[h["race_id"]] for h in open_heats if h["race_id"] in reads}
            if kept:
                self._reads[arena_id] = kept
            # Most open heats' races have not changed since the last wave: their versions
            # are read in one call, and only the others are read and looked at.
            versions = await self.updates.versions(list(kept))
            now = self.clock()
            due = [
                h
                for h in open_heats
                if h["race_id"] in deep or not _unchanged(kept.get(h["race_id"]), versions, now)
            ]
            still_open = len(open_heats) - len(due)
            # While a pairing follows, the pages wait for its end (``more``): each
            # follower of a page is then told the results and the new heats together,
            # once a wave, and the new heats go out before the pages. Own lines go at once.
            pairing_follows = status(record, self.clock()) == "running"
            held = False
            for chunk in _chunks(due):
                # Each heat parsed anew: counting it changes it.
                settled = await asyncio.gather(
                    *(
                        self._settle(
                            record, entries, orjson.loads(found[race_id]), deep=race_id in deep
                        )
                        for race_id in (h["race_id"] for h in chunk)
                    )
                )
                still_open += sum(1 for players in settled if not players)
                changed = [p for players in settled for p in players]
                if changed:
                    await self.arenas.publish(arena_id, changed, more=pairing_follows)
                    held = held or pairing_follows
            state = status(record, self.clock())
            if state == "finished" and still_open == 0:
                await self._finish(record)
            # A heat starts with the pairing (its ``started_at``), after the results
            # were counted: the players those freed are paired in this same wave.
            made = await self._pair(record, entries, self.clock()) if state == "running" else 0
            if held and not made:
                # No pairing message came last: this one lets the pages go.
                await self.arenas.publish(arena_id, [])
            return made
        finally:
            await self.store.unlock(arena_id, self.owner)

    async def _finish(self, record: dict[str, Any]) -> None:
        """Marks the standings final (every heat settled) and tells the followers."""
        before = dumps(record)
        if await self.store.replace(record["arena_id"], before, dumps({**record, "final": True})):
            await self.arenas.publish(record["arena_id"], [], final=True)

    def _deep_reads(self, arena_id: str, open_races: list[str]) -> set[str]:
        """The open heats whose games this wave reads too: those read longest ago, each
        every ``_DEEP_EVERY`` seconds, at most ``_DEEP_PER_WAVE``. A race learns of a
        game's ending after the ending action commits, and an instance that stopped in
        between leaves the race unfinished until its games are read (``load_settled``);
        reading them every wave would triple the reads of every heat under way, and
        reading every heat due at once would stall the wave after an arena's start."""
        now = asyncio.get_running_loop().time()
        before = self._checked.get(arena_id, {})
        checked = {race_id: before.get(race_id, now) for race_id in open_races}
        if checked:
            self._checked[arena_id] = checked
        else:
            self._checked.pop(arena_id, None)
        due = sorted((at, r) for r, at in checked.items() if now - at >= _DEEP_EVERY)
        deep = {race_id for _, race_id in due[:_DEEP_PER_WAVE]}
        for race_id in deep:
            checked[race_id] = now
        return deep

    async def _settle(
        self,
        record: dict[str, Any],
        entries: dict[str, dict[str, Any]],
        heat: dict[str, Any],
        deep: bool,
    ) -> list[str]:
        """Counts a heat whose race is over (its games read too when ``deep``); the
        players whose entries changed."""
        race_id = heat["race_id"]
        reads = self._reads.setdefault(record["arena_id"], {})
        try:
            read = reads[race_id] = await self.updates.load(race_id, reads.get(race_id))
            doc = read[1]
            if doc.finished_at is None and doc.ends_at is not None and self.clock() >= doc.ends_at:
                await self.updates.expire(race_id)
                (_, doc), _ = await self.updates.load_settled(race_id)
            elif doc.finished_at is None and deep:
                (_, doc), _ = await self.updates.load_settled(race_id)
        except ServiceError as exc:
            if exc.code is not ErrorCode.NOT_FOUND:
                raise
            doc = None
        if doc is not None and (doc.finished_at is None or doc.result is None):
            return []
        accounts = [p["player_id"] for p in heat["players"]]
        if doc is None:
            # The race is gone (expired unplayed): nobody scores, both are free again.
            outcomes = dict.fromkeys(accounts, "none")
        else:
            gone = {p.player_id: p.watches is not None and not p.connected for p in doc.players}
            assert doc.result is not None
            ratings = doc.result.get("ratings") or []
            unverified = {c["player_id"] for c in ratings if not c.get("verified", True)}
            by_seat = rules.heat_outcomes(doc.result["ranking"], gone, unverified)
            outcomes = {p.account: by_seat[p.player_id] for p in doc.players}
        now = self.clock()
        old_heat = dumps(heat)
        swap = Swap(scores={})
        for seat, other in zip(heat["players"], heat["players"][::-1], strict=True):
            player_id = seat["player_id"]
            entry = entries[player_id]
            before = dumps(entry)
            outcome = outcomes[player_id]
            seat["outcome"] = outcome
            seat["points"] = (
                0 if outcome == "none" else rules.score_heat(entry, outcome, other["rating"], now)
            )
            entry.update(state="free", heat=None, free_since=now, last_opponent=other["player_id"])
            swap.entries.append((player_id, before, dumps(entry)))
            swap.scores[player_id] = rules.standing_score(entry, record["start_at"])
        heat["outcomes"] = outcomes
        heat["ended_at"] = now
        swap = Swap(entries=swap.entries, heat=(race_id, old_heat, dumps(heat)), scores=swap.scores)
        if not await self.store.swap(record["arena_id"], swap, self.arenas.ttl(record)):
            # An entry changed meanwhile (a leave): the next wave reads it again and
            # counts the heat then.
            log.info("heat %s not counted: its players changed meanwhile", race_id)
            return []
        return accounts

    async def _pair(
        self, record: dict[str, Any], entries: dict[str, dict[str, Any]], wave_at: int
    ) -> int:
        free = [e for e in entries.values() if e["present"] and e["state"] == "free"]
        if len(free) < 2:
            return 0
        start = record["start_at"]
        order = sorted(entries.values(), key=lambda e: -rules.standing_score(e, start))
        rank = {e["player_id"]: i for i, e in enumerate(order)}
        mode = engine.Mode.find(record["mode"], engine.Mode.all())
        assert mode is not None
        made = 0
        # Pairs are made a chunk at a time, each chunk's races at once, and each chunk
        # told as soon as it is made: the first players paired need not wait for the
        # last. Every message but the last says more follow, so that the followers send
        # the players their heats first and the pages (whose "playing" marks each chunk
        # changes) once, after the last: a page goes to every follower of it, and an
        # arena's first wave pairs everybody at once.
        chunks = _chunks(rules.pair_free(free, rank))
        if len(chunks) > 1 and self.store.shared:
            return await self._pair_with_helpers(record, mode, entries, chunks, wave_at)
        for number, chunk in enumerate(chunks, 1):
            heats = [self._heat(record, mode, entries[a], entries[b], wave_at) for a, b in chunk]
            paired = [p for players in await asyncio.gather(*heats) for p in players]
            made += len(paired) // 2
            last = number == len(chunks)
            if paired or (last and made):
                await self.arenas.publish(record["arena_id"], paired, more=not last)
        return made

    async def _pair_with_helpers(
        self,
        record: dict[str, Any],
        mode: engine.Mode,
        entries: dict[str, dict[str, Any]],
        chunks: list[list[tuple[str, str]]],
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
            "chunks": chunks,
        }
        await from_store(self.arenas.store.publish(PLANS_TOPIC, orjson.dumps(plan)))
        while (index := await self._claim(plan_id)) < len(chunks):
            pairs = [(entries[a], entries[b]) for a, b in chunks[index]]
            await self._make_chunk(record, mode, plan_id, pairs, wave_at)
        loop = asyncio.get_running_loop()
        waited_until = loop.time() + _HELPERS_WAIT
        while await self._tally(plan_id, "done", 0) < len(chunks):
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
        mode = engine.Mode.find(record["mode"], engine.Mode.all())
        assert mode is not None
        chunks = plan["chunks"]
        try:
            while (index := await self._claim(plan["plan_id"])) < len(chunks):
                chunk = chunks[index]
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

    async def _make_chunk(
        self,
        record: dict[str, Any],
        mode: engine.Mode,
        plan_id: str,
        pairs: list[tuple[dict[str, Any], dict[str, Any]]],
        wave_at: int,
    ) -> None:
        """Makes one chunk of a plan's heats, tells their players, and counts it done."""
        heats = [self._heat(record, mode, a, b, wave_at) for a, b in pairs]
        paired = [p for players in await asyncio.gather(*heats) for p in players]
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

    async def _heat(
        self,
        record: dict[str, Any],
        mode: engine.Mode,
        a: dict[str, Any],
        b: dict[str, Any],
        wave_at: int,
    ) -> list[str]:
        """Makes one heat's race, then marks both players in it in one swap; the two
        player ids when done, none when either changed meanwhile (the race is never
        played and expires)."""
        seats = [(e["name"], e["token_hash"], e["player_id"]) for e in (a, b)]
        doc = await self.arenas.lobby.create_paired(
            mode, seats, self.arenas.settings.arena_heat_seconds
        )
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
        if await self.store.swap(record["arena_id"], swap, self.arenas.ttl(record)):
            return [a["player_id"], b["player_id"]]
        return []


def _free(entry: dict[str, Any] | None) -> bool:
    return entry is not None and entry["present"] and entry["state"] == "free"


def _parsed(texts: dict[str, str], earlier: Parsed) -> Parsed:
    """Each JSON text with its parse, taken from ``earlier`` when the text is the same."""
    parsed: Parsed = {}
    for key, text in texts.items():
        last = earlier.get(key)
        parsed[key] = last if last is not None and last[0] == text else (text, orjson.loads(text))
    return parsed


def _unchanged(read: RaceRead | None, versions: dict[str, int], now: int) -> bool:
    """Whether a heat's race, as kept from an earlier wave, is still what is stored and
    still under way: not over, not past its time limit, and not gone from the store."""
    if read is None:
        return False
    stored, doc = read
    return (
        versions.get(stored.race_id) == stored.version
        and doc.finished_at is None
        and (doc.ends_at is None or now < doc.ends_at)
    )


T = TypeVar("T")


def _chunks(items: list[T]) -> list[list[T]]:
    return [items[i : i + _AT_ONCE] for i in range(0, len(items), _AT_ONCE)]
