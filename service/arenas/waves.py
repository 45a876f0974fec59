"""An arena's waves: each settles the heats that ended and pairs the free players.

Every instance runs a wave every ``ARENA_WAVE_SECONDS`` for each arena running (or
ended with heats still open); one instance at a time runs an arena's wave (the arena's
lock). Each change is a store ``swap`` from the entries as read, so a heat's result is
counted once and a player is in one heat at a time even when a wave is taken over by
another instance midway. Pairing the free players and making their heats: ``heats``.
Before an arena's start the waves deal its first heats (``_deal_ahead``), then make
their races (``_make_ahead``), keeping the arena's lock until the start.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson

from .. import engine
from ..errors import ServiceError
from ..games.hooks import RaceRead
from ..protocol import ErrorCode
from ..races.updates import RaceUpdates
from ..store import StoreUnavailable
from ..store.arenas import Swap
from ..support.ids import new_id
from ..support.tasks import cancel_and_wait
from . import Arenas, rules
from .heats import HeatMaker, chunks
from .records import dumps, status

log = logging.getLogger("service.arenas")

# Key -> a JSON text as read, and its parse (never changed).
Parsed = dict[str, tuple[str, dict[str, Any]]]

# A wave that takes longer than this (a stalled store) lets another instance take over.
_LOCK_MS = 10_000
# How often an instance makes the scheduled arenas (seconds).
_SCHEDULE_EVERY = 30.0
# How often an open heat's games are read for an ending its race missed (seconds), and
# for how many heats at most in one wave (``_deep_reads``).
_DEEP_EVERY = 10.0
_DEEP_PER_WAVE = 16
# How long before an arena's start its first wave's deals are made (milliseconds).
_DEAL_AHEAD_MS = 15_000
# How long before an arena's start its first heats' races are made (milliseconds): at
# least one wave falls in that time at the default ``ARENA_WAVE_SECONDS``.
_MAKE_AHEAD_MS = 3_000


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
        # here: a race whose stored version has not moved since is not read again.
        self._reads: dict[str, dict[str, RaceRead]] = {}
        # Arena id -> player id -> the entry's JSON as last read, and its parse: between
        # two waves most entries are unchanged, and parsing every one again was most of
        # a wave that counts and pairs nobody. Never changed here (the wave changes
        # copies).
        self._entries: dict[str, Parsed] = {}
        # Arena id -> race id -> its open heat's JSON as last read, and its parse.
        self._heats: dict[str, Parsed] = {}
        self._task: asyncio.Task[None] | None = None
        self.heats = HeatMaker(arenas, self.owner)

    async def start(self) -> None:
        await self.heats.start()
        self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        if self._task is not None:
            await cancel_and_wait(self._task)
        # Told to nobody: called off (``drop_ahead`` logs a failure; such a race ends
        # unrated all the same).
        for arena_id in list(self.heats.ahead):
            await self.heats.drop_ahead(arena_id)
        await self.heats.close()

    def _next_wave_in(self) -> float:
        """Seconds to the next wave: the wave period, or less when an arena whose first
        heats this instance made ahead starts sooner (its players are told at the start,
        not up to a period after it)."""
        every = self.arenas.settings.arena_wave_seconds
        now = self.clock()
        # A start already past (its first wave ran late, or no wave will take it) is no
        # reason to wave again at once.
        soon = [made.start_at for made in self.heats.ahead.values() if made.start_at >= now]
        if not soon:
            return every
        return min(every, (min(soon) - now + 1) / 1000)

    async def _run(self) -> None:
        scheduled = 0.0
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self._next_wave_in())
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
        # Heats made ahead that no first wave took (the arena was cancelled, or its lock
        # lost): told to nobody, called off.
        for arena_id, made_ahead in list(self.heats.ahead.items()):
            if now > made_ahead.start_at + _LOCK_MS:
                await self.heats.drop_ahead(arena_id)
        # One reading of the arenas starting soon serves both (the races' window lies
        # within the deals').
        upcoming = [
            orjson.loads(text)
            for text in await self.store.starting(now + 1, now + _DEAL_AHEAD_MS, 100)
        ]
        await self._deal_ahead(upcoming)
        await self._make_ahead(now, [r for r in upcoming if r["start_at"] <= now + _MAKE_AHEAD_MS])
        return made

    async def _deal_ahead(self, upcoming: list[dict[str, Any]]) -> None:
        """Deals the first heats of the arenas starting soon (``upcoming``), one per two
        players joined: their first wave pairs everybody at once."""
        heats: dict[engine.Mode, int] = {}
        for record in upcoming:
            mode = engine.Mode.find(record["mode"], engine.Mode.all())
            if mode is None or record.get("cancelled"):
                continue
            heats[mode] = heats.get(mode, 0) + await self.store.count(record["arena_id"]) // 2
        for mode, count in heats.items():
            await self.openings.prepare(mode, count)

    async def _make_ahead(self, now: int, starting: list[dict[str, Any]]) -> None:
        """Makes the first heats' races of the arenas ``starting`` (within
        ``_MAKE_AHEAD_MS``), pairing the players joined so far: at the start, when every
        player is free at once, the first wave then only records and tells them. The
        arena's lock is taken until its first wave, so that the first wave is this
        instance's, which holds the races."""
        for record in starting:
            arena_id = record["arena_id"]
            if record.get("cancelled") or arena_id in self.heats.ahead:
                continue
            hold = record["start_at"] - now + _LOCK_MS
            if not await self.store.lock(arena_id, self.owner, hold):
                continue
            made = 0
            try:
                texts = await self.store.entries(arena_id)
                entries = {p: orjson.loads(t) for p, t in texts.items()}
                made = await self.heats.make_ahead(record, entries)
            except (ServiceError, StoreUnavailable) as exc:
                # What was made is kept; the first wave pairs the others itself.
                log.warning("arena %s: heats not made ahead: %s", arena_id, exc)
                made = len(self.heats.races_ahead(arena_id))
            if not made:
                self.heats.ahead.pop(arena_id, None)
                await self.store.unlock(arena_id, self.owner)

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
            pairing_follows = status(record, now) == "running"
            held = False
            for chunk in chunks(due):
                # Each heat parsed anew: counting it changes it.
                settled = await asyncio.gather(
                    *(
                        self._settle(
                            record, entries, orjson.loads(found[race_id]), deep=race_id in deep
                        )
                        for race_id in (h["race_id"] for h in chunk)
                    )
                )
                changed = await self._count(record, [s for s in settled if s is not None])
                still_open += len(chunk) - len(changed) // 2
                if changed:
                    await self.arenas.publish(arena_id, changed, more=pairing_follows)
                    held = held or pairing_follows
            state = status(record, self.clock())
            if state == "finished" and still_open == 0:
                await self._finish(record)
            # A heat starts with the pairing (its ``started_at``), after the results
            # were counted: the players those freed are paired in this same wave.
            made = await self.heats.pair(record, entries, self.clock()) if state == "running" else 0
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
        checked = self._checked[arena_id] = {r: before.get(r, now) for r in open_races}
        due = sorted((at, r) for r, at in checked.items() if now - at >= _DEEP_EVERY)
        deep = {race_id for _, race_id in due[:_DEEP_PER_WAVE]}
        for race_id in deep:
            checked[race_id] = now
        return deep

    async def _count(self, record: dict[str, Any], settled: list[Swap]) -> list[str]:
        """Counts the heats ``settled`` in one store call; the players whose entries
        changed."""
        applied = await self.store.swaps(record["arena_id"], settled, self.arenas.ttl(record))
        changed: list[str] = []
        for swap, done in zip(settled, applied, strict=True):
            if done:
                changed += [player_id for player_id, _, _ in swap.entries]
            else:
                # An entry changed meanwhile (a leave): the next wave reads it again
                # and counts the heat then.
                assert swap.heat is not None
                log.info("heat %s not counted: its players changed meanwhile", swap.heat[0])
        return changed

    async def _settle(
        self,
        record: dict[str, Any],
        entries: dict[str, dict[str, Any]],
        heat: dict[str, Any],
        deep: bool,
    ) -> Swap | None:
        """The swap that counts a heat whose race is over (its games read too when
        ``deep``), changing ``entries``; None while the race goes on."""
        race_id = heat["race_id"]
        reads = self._reads.setdefault(record["arena_id"], {})
        try:
            read = reads[race_id] = await self.updates.load(race_id)
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
            return None
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
        return Swap(entries=swap.entries, heat=(race_id, old_heat, dumps(heat)), scores=swap.scores)


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
