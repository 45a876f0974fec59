"""Arena tournaments in the store, with every reply lost once: each write of an arena
(its creation, a player's join, leave and coming back, a heat recorded, a heat's result
counted into points and standings), sent twice because its first reply was lost after
Redis applied it, is answered as if sent once and done once.

The same calls run on the memory store, on Redis, and on Redis behind the fault proxy
losing the first reply of every write (as ``test_store_once`` does for the rest), and
must leave the same arena: the same entries, heats, points and standings.

Then an arena of four through the service (``scenarios.arena``) loses each write's reply
in turn, every first reply, and replies at random, as ``test_exactly_once`` does for its
scenarios (see the comment above its tests below).
"""

from __future__ import annotations

import traceback
from typing import Any

import orjson
import pytest
import redis

from service.arenas import rules
from service.arenas.records import dumps, new_entry
from service.config import Settings
from service.store import Store, open_store
from service.store.arenas import Arenas, Swap
from tests.faults import scenarios
from tests.faults.harness import Run, deals, run
from tests.faults.proxy import FaultPlan, FaultProxy
from tests.support import RedisServer

TTL = 3600
START = 1_800_000_000_000


def _record(arena_id: str, by: str = "") -> str:
    return dumps(
        {
            "arena_id": arena_id,
            "name": "Hourly TF.D1N arena",
            "mode": "TF.D1N",
            "start_at": START,
            "ends_at": START + 30 * 60_000,
            "minutes": 30,
            "created_by": by,
        }
    )


async def _join(arenas: Arenas, arena_id: str, player_id: str, at: int) -> bool:
    """A player's join (or coming back) as the service writes it."""
    found = await arenas.entries(arena_id, [player_id])
    before = found.get(player_id)
    if before is None:
        entry = new_entry(player_id, player_id.title(), 1500.0, f"hash-{player_id}", at)
    else:
        entry = orjson.loads(before)
        entry.update(present=True, free_since=at)
    score = {player_id: rules.standing_score(entry, START)}
    return await arenas.swap(arena_id, Swap([(player_id, before, dumps(entry))], None, score), TTL)


async def _leave(arenas: Arenas, arena_id: str, player_id: str) -> bool:
    before = (await arenas.entries(arena_id, [player_id]))[player_id]
    entry = {**orjson.loads(before), "present": False}
    return await arenas.swap(arena_id, Swap([(player_id, before, dumps(entry))]), TTL)


async def _pair(arenas: Arenas, arena_id: str, race_id: str, a: str, b: str, at: int) -> bool:
    """A heat recorded: both players marked in it, and the heat added, in one swap."""
    swap = await _pairing(arenas, arena_id, race_id, a, b, at)
    return swap is not None and await arenas.swap(arena_id, swap, TTL)


async def _pairing(
    arenas: Arenas, arena_id: str, race_id: str, a: str, b: str, at: int
) -> Swap | None:
    """The swap that records a heat of ``a`` and ``b``, from the arena as read now (None
    when either is not free)."""
    found = await arenas.entries(arena_id, [a, b])
    heat = {
        "race_id": race_id,
        "started_at": at,
        "ended_at": None,
        "outcomes": None,
        "players": [{"player_id": p, "name": p.title(), "rating": 1500} for p in (a, b)],
    }
    swap = Swap(heat=(race_id, None, dumps(heat)))
    for player_id, other in ((a, b), (b, a)):
        entry = orjson.loads(found[player_id])
        if entry["state"] != "free":
            return None
        heat_of = {"race_id": race_id, "opponent": {"name": other.title(), "rating": 1500}}
        entry.update(state="playing", heat=heat_of)
        swap.entries.append((player_id, found[player_id], dumps(entry)))
    return swap


async def _counting(
    arenas: Arenas, arena_id: str, race_id: str, outcomes: dict[str, str], at: int
) -> Swap:
    """A heat's result to count, from the arena as read now: points, the players free
    again, the heat closed."""
    old_heat = (await arenas.heats(arena_id))[race_id]
    heat = orjson.loads(old_heat)
    assert heat["outcomes"] is None
    players = [p["player_id"] for p in heat["players"]]
    found = await arenas.entries(arena_id, players)
    entries: list[tuple[str, str | None, str]] = []
    scores: dict[str, float] = {}
    for seat, other in zip(heat["players"], heat["players"][::-1], strict=True):
        player_id = seat["player_id"]
        entry = orjson.loads(found[player_id])
        seat["points"] = rules.score_heat(entry, outcomes[player_id], other["rating"], at)
        entry.update(state="free", heat=None, free_since=at, last_opponent=other["player_id"])
        entries.append((player_id, found[player_id], dumps(entry)))
        scores[player_id] = rules.standing_score(entry, START)
    heat.update(outcomes=outcomes, ended_at=at)
    return Swap(entries, (race_id, old_heat, dumps(heat)), scores)


async def _count(
    arenas: Arenas, arena_id: str, race_id: str, outcomes: dict[str, str], at: int
) -> bool:
    return await arenas.swap(
        arena_id, await _counting(arenas, arena_id, race_id, outcomes, at), TTL
    )


async def _state(arenas: Arenas, arena_id: str) -> dict[str, Any]:
    """Everything the store keeps of an arena, comparable across stores."""
    entries = {p: orjson.loads(e) for p, e in (await arenas.entries(arena_id)).items()}
    heats = {r: orjson.loads(h) for r, h in (await arenas.heats(arena_id)).items()}
    count = await arenas.count(arena_id)
    return {
        "record": await arenas.get(arena_id),
        "entries": entries,
        "heats": heats,
        "standings": await arenas.standings(arena_id, 0, count),
        "points": {p: e["points"] for p, e in entries.items()},
        "count": count,
    }


async def test_an_arena_is_made_once_by_its_first_writer(store: Store) -> None:
    arenas = store.arenas
    # A player's arena: made by this call, then found by any other.
    assert await arenas.create("TF.D1N-pmine", _record("TF.D1N-pmine", "ada"), START, TTL)
    assert not await arenas.create("TF.D1N-pmine", _record("TF.D1N-pmine", "bob"), START, TTL)
    assert await arenas.get("TF.D1N-pmine") == _record("TF.D1N-pmine", "ada")
    # A scheduled arena, made by two instances with the same record: the first makes it.
    scheduled = "TF.D1N-h2027011512"
    made = [await arenas.create(scheduled, _record(scheduled), START, TTL) for _ in range(2)]
    assert made == [True, False]
    assert await arenas.starting(START, START, 10) == [
        _record(scheduled),
        _record("TF.D1N-pmine", "ada"),
    ]
    # Cancelled once; the same change again finds it done, another finds it changed.
    cancelled = dumps({**orjson.loads(_record(scheduled)), "cancelled": True})
    assert await arenas.replace(scheduled, _record(scheduled), cancelled)
    assert await arenas.replace(scheduled, _record(scheduled), cancelled)
    assert not await arenas.replace(scheduled, _record(scheduled), _record(scheduled, "x"))
    assert await arenas.get(scheduled) == cancelled


async def test_joining_leaving_and_coming_back_are_each_done_once(store: Store) -> None:
    arenas = store.arenas
    await arenas.create("a1", _record("a1"), START, TTL)
    assert await _join(arenas, "a1", "ada", START)
    assert await _join(arenas, "a1", "bob", START + 1)
    # Another call that read ada absent finds her joined: refused, nothing changes.
    late = dumps(new_entry("ada", "Ada", 1600.0, "other", START + 5))
    assert not await arenas.swap("a1", Swap([("ada", None, late)]), TTL)
    assert await _leave(arenas, "a1", "ada")
    assert await _join(arenas, "a1", "ada", START + 10)
    state = await _state(arenas, "a1")
    assert state["count"] == 2
    assert (
        state["entries"]["ada"]["present"] and state["entries"]["ada"]["free_since"] == START + 10
    )
    assert state["entries"]["ada"]["rating"] == 1500.0
    assert state["points"] == {"ada": 0, "bob": 0}
    assert await arenas.lock("a1", "one", 5_000)
    assert not await arenas.lock("a1", "two", 5_000)
    await arenas.unlock("a1", "one")
    assert await arenas.lock("a1", "two", 5_000)


async def test_heats_are_recorded_and_counted_once(store: Store) -> None:
    arenas = store.arenas
    await arenas.create("a2", _record("a2"), START, TTL)
    for i, player in enumerate(("ada", "bob", "cy", "dee")):
        assert await _join(arenas, "a2", player, START + i)
    at = START + 60_000
    assert await _pair(arenas, "a2", "r1", "ada", "bob", at)
    assert await _pair(arenas, "a2", "r2", "cy", "dee", at)
    # No player in two heats: ada and cy are playing, so a heat of theirs is refused.
    assert not await _pair(arenas, "a2", "r3", "ada", "cy", at)
    # Two waves read the heat open and count it: the first counts it, the other is
    # refused (the heat and its players changed), so it is counted once.
    first = await _counting(arenas, "a2", "r1", {"ada": "win", "bob": "loss"}, at + 1_000)
    other = await _counting(arenas, "a2", "r1", {"ada": "win", "bob": "loss"}, at + 3_000)
    assert await arenas.swap("a2", first, TTL)
    assert not await arenas.swap("a2", other, TTL)
    assert await _count(arenas, "a2", "r2", {"cy": "draw", "dee": "draw"}, at + 2_000)
    # The second round, ada and bob leave and come back between.
    assert await _leave(arenas, "a2", "bob")
    assert await _join(arenas, "a2", "bob", at + 4_000)
    assert await _pair(arenas, "a2", "r4", "ada", "cy", at + 5_000)
    assert await _pair(arenas, "a2", "r5", "bob", "dee", at + 5_000)
    assert await _count(arenas, "a2", "r4", {"ada": "win", "cy": "loss"}, at + 6_000)
    assert await _count(arenas, "a2", "r5", {"bob": "win", "dee": "loss"}, at + 7_000)
    assert await _pair(arenas, "a2", "r6", "ada", "bob", at + 8_000)
    assert await _count(arenas, "a2", "r6", {"ada": "win", "bob": "loss"}, at + 9_000)
    state = await _state(arenas, "a2")
    # Ada: 2, 2, then on fire 4; cy a draw; bob a win; dee a draw.
    assert state["points"] == {"ada": 8, "bob": 2, "cy": 1, "dee": 1}
    assert [state["entries"][p]["heats"] for p in ("ada", "bob", "cy", "dee")] == [3, 3, 2, 2]
    assert state["standings"][0] == "ada" and state["count"] == 4
    assert all(h["outcomes"] is not None for h in state["heats"].values())
    assert sorted(state["heats"]) == ["r1", "r2", "r4", "r5", "r6"]
    assert all(e["state"] == "free" for e in state["entries"].values())


async def test_swaps_sent_together_are_each_applied_or_refused_on_their_own(
    store: Store,
) -> None:
    """A wave's heats go to the store in one call: each swap is applied in turn on its
    own, so one refused (its players changed, here by a swap before it in the same call)
    leaves the others applied, and answers are in the swaps' order."""
    arenas = store.arenas
    await arenas.create("a3", _record("a3"), START, TTL)
    for i, player in enumerate(("ada", "bob", "cy", "dee", "eve")):
        assert await _join(arenas, "a3", player, START + i)
    at = START + 60_000
    # All three read from the arena as it was: ada's second heat finds her playing.
    made = [
        await _pairing(arenas, "a3", race_id, a, b, at)
        for race_id, a, b in (("r1", "ada", "bob"), ("r2", "ada", "eve"), ("r3", "cy", "dee"))
    ]
    assert await arenas.swaps("a3", [s for s in made if s is not None], TTL) == [True, False, True]
    state = await _state(arenas, "a3")
    assert sorted(state["heats"]) == ["r1", "r3"]
    assert state["entries"]["ada"]["heat"]["race_id"] == "r1"
    assert state["entries"]["eve"]["state"] == "free"
    # Both heats counted in one call, with a stale counting of r1 after them: refused.
    counting = [
        await _counting(arenas, "a3", "r1", {"ada": "win", "bob": "loss"}, at + 1_000),
        await _counting(arenas, "a3", "r3", {"cy": "loss", "dee": "win"}, at + 1_000),
    ]
    stale = await _counting(arenas, "a3", "r1", {"ada": "loss", "bob": "win"}, at + 2_000)
    assert await arenas.swaps("a3", [*counting, stale], TTL) == [True, True, False]
    state = await _state(arenas, "a3")
    assert state["points"] == {"ada": 2, "bob": 0, "cy": 0, "dee": 2, "eve": 0}
    assert set(state["standings"][:2]) == {"ada", "dee"}
    assert await arenas.swaps("a3", [], TTL) == []


async def test_an_arena_ends_as_a_fault_free_run_ends_it(
    proxy: FaultProxy, fault_redis: RedisServer
) -> None:
    """The whole arena of the test above, on Redis and on Redis losing every first
    reply: the same entries, heats, points and standings, once the times are set
    aside (none here depends on the clock)."""
    states = []
    for lossy in (False, True):
        db = redis.Redis.from_url(fault_redis.url)
        db.flushall()
        db.close()
        proxy.plan = FaultPlan(first_sends=lossy)
        opened = open_store(Settings(store_url=proxy.url))
        await opened.open()
        try:
            await test_heats_are_recorded_and_counted_once(opened)
            states.append(await _state(opened.arenas, "a2"))
        finally:
            await opened.close()
            lost = proxy.plan.lost
            proxy.plan = FaultPlan()
        assert bool(lost) == lossy
    assert states[0] == states[1]


# The service's arena end to end (``scenarios.arena``): four players, three rounds of
# waves pairing them, every heat resigned and counted. Each write of the fault-free run
# loses its reply in turn, then every first reply is lost, then replies at random. Who
# meets whom, and so who is paired when three are free, follows the players' random ids
# (the tie-break of equal standings), so a run is compared with the fault-free one by
# what does not depend on them: each player's line of the standings (points, heats,
# wins, draws, losses, present, playing) as a whole, the absent-for-a-round player's
# own, and the heats' outcomes; and in every run the store must agree with itself: each
# counted heat in its players' entries once, each player in one open heat at most, the
# standings' scores those of the entries.
ARENA_SHARDS = 4
ARENA_SEEDS = (1, 2)
_arena_reference: list[Run] = []


def _arena(state: dict[str, tuple[str, Any, int]]) -> dict[str, Any]:
    """What a run left of its one arena, checked for agreeing with itself."""
    (arena_key,) = [k for k in state if k.startswith("sol:{arena:") and k.endswith(":record")]
    prefix = arena_key.removesuffix("record")
    record = orjson.loads(state[arena_key][1])
    entries = {p: orjson.loads(e) for p, e in state[prefix + "entries"][1].items()}
    heats = [orjson.loads(h) for h in state[prefix + "heats"][1].values()]
    scores = dict(state[prefix + "standings"][1])
    problems = []
    for player_id, entry in entries.items():
        counted = [
            seat
            for heat in heats
            if heat["outcomes"] is not None
            for seat in heat["players"]
            if seat["player_id"] == player_id
        ]
        open_heats = [
            heat["race_id"]
            for heat in heats
            if heat["outcomes"] is None
            and player_id in {seat["player_id"] for seat in heat["players"]}
        ]
        if entry["heats"] != len(counted) or entry["points"] != sum(s["points"] for s in counted):
            problems.append(f"{entry['name']}: {entry['heats']} heats, counted {counted}")
        playing = [entry["heat"]["race_id"]] if entry["state"] == "playing" else []
        if open_heats != playing:
            problems.append(f"{entry['name']} in heats {open_heats}, playing {playing}")
        if scores.get(player_id) != rules.standing_score(entry, record["start_at"]):
            problems.append(f"{entry['name']}: standing {scores.get(player_id)}")
    assert not problems, problems
    lines = {
        e["name"]: [e[k] for k in ("points", "heats", "wins", "draws", "losses", "present")]
        + [e["state"]]
        for e in entries.values()
    }
    return {
        "lines": sorted(lines.values()),
        "Di": lines["Di"],
        "outcomes": sorted(
            sorted(heat["outcomes"].values()) if heat["outcomes"] else [] for heat in heats
        ),
        "standings": len(scores),
    }


def _arena_run(proxy: FaultProxy, fault_redis: RedisServer, plan: FaultPlan) -> Run:
    return run(proxy, fault_redis.url, scenarios.arena, plan, deals(4, scenarios.winning()[0]))


def _reference_arena(proxy: FaultProxy, fault_redis: RedisServer) -> Run:
    if not _arena_reference:
        _arena_reference.append(_arena_run(proxy, fault_redis, FaultPlan()))
    return _arena_reference[0]


def _arena_check(
    reference: Run, plan: FaultPlan, proxy: FaultProxy, fault_redis: RedisServer
) -> str:
    """What went wrong in a run of the arena that lost the replies of ``plan``."""
    try:
        faulty = _arena_run(proxy, fault_redis, plan)
        want, got = _arena(reference.state), _arena(faulty.state)
    except AssertionError as exc:
        where = traceback.extract_tb(exc.__traceback__)[-1]
        problems = [f"at {where.name}: {where.line}: {exc}"]
    else:
        problems = [f"{k}: expected {want[k]}, found {got[k]}" for k in want if want[k] != got[k]]
    if not plan.lost:
        problems.append("no reply was lost")
    if not problems:
        return ""
    lost = plan.lost if len(plan.lost) <= 3 else f"{len(plan.lost)} lost replies"
    return f"{lost}: " + "; ".join(problems)


@pytest.mark.parametrize("shard", range(ARENA_SHARDS))
def test_each_arena_write_loses_its_reply_in_turn(
    proxy: FaultProxy, fault_redis: RedisServer, shard: int
) -> None:
    reference = _reference_arena(proxy, fault_redis)
    assert reference.retried == 0
    indices = [w.index for w in reference.plan.writes][shard::ARENA_SHARDS]
    failures = [
        found
        for index in indices
        if (found := _arena_check(reference, FaultPlan(at=frozenset({index})), proxy, fault_redis))
    ]
    assert not failures, f"{len(failures)} of {len(indices)} runs went wrong:\n" + "\n".join(
        failures
    )


def test_arena_replies_lost_at_random_and_every_first_reply_lost(
    proxy: FaultProxy, fault_redis: RedisServer
) -> None:
    reference = _reference_arena(proxy, fault_redis)
    failures = []
    if found := _arena_check(reference, FaultPlan(first_sends=True), proxy, fault_redis):
        failures.append(f"every first reply lost: {found}")
    for seed in ARENA_SEEDS:
        rate = min(0.3, 6 / len(reference.plan.writes))
        if found := _arena_check(reference, FaultPlan(rate=rate, seed=seed), proxy, fault_redis):
            failures.append(f"seed {seed}: {found}")
    assert not failures, "\n".join(failures)
