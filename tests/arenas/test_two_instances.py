"""Two instances on one real Redis run an arena's waves at the same time, and make a
wave's heats together: every player is in one heat at a time, and every heat is
counted once."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest

from service.arenas import heats as heats_module
from service.store import StoreUnavailable
from tests.arenas.support import arena_service, join, make_arena, mine, race_of, wave
from tests.players.conftest import new_player
from tests.races.race_support import Clock
from tests.support import CheckedClient, auth

PLAYERS = 40


def waves_together(services: list[CheckedClient], rounds: int) -> int:
    """Runs ``rounds`` waves on every instance at once; the heats they made."""
    with ThreadPoolExecutor(len(services)) as pool:
        made = 0
        for _ in range(rounds):
            made += sum(pool.map(wave, services))
    return made


@contextmanager
def two_instances(clean_redis: str) -> Iterator[tuple[Clock, list[CheckedClient]]]:
    """Two instances on one Redis, with one clock."""
    clock = Clock()
    with arena_service(clean_redis, clock) as one, arena_service(clean_redis, clock) as two:
        yield clock, [one, two]


def test_two_instances_pair_each_arena_player_once_and_count_each_heat_once(
    clean_redis: str,
) -> None:
    with two_instances(clean_redis) as (clock, services):
        one, two = services
        arena_id, racers = an_arena_of(services, PLAYERS)
        assert waves_together(services, 3) == PLAYERS // 2
        heats = [mine(service, arena_id, racer)["heat"] for service, racer in racers]
        assert all(heat is not None for heat in heats)
        by_race: dict[str, list[str]] = {}
        for (_, racer), heat in zip(racers, heats, strict=True):
            by_race.setdefault(heat["race_id"], []).append(racer["name"])
        # Each player in exactly one heat, each heat of two.
        assert len(by_race) == PLAYERS // 2
        assert all(len(names) == 2 for names in by_race.values())
        listed = one.get(f"/arenas/{arena_id}/heats").json()["heats"]
        assert sorted(h["race_id"] for h in listed) == sorted(by_race)
        clock.jump_past(max(race_of(one, heat)["ends_at"] for heat in heats))
        waves_together(services, 3)
        # Every first heat counted once (a draw: a point each), whoever counted it.
        counted = [h for h in two.get(f"/arenas/{arena_id}/heats").json()["heats"] if h["outcomes"]]
        assert sorted(h["race_id"] for h in counted) == sorted(by_race)
        for page in (1, 2):
            rows = two.get(f"/arenas/{arena_id}/standings?page={page}").json()["rows"]
            assert all(row["heats"] == 1 and row["points"] == 1 for row in rows)


def test_two_instances_make_each_scheduled_arena_once(clean_redis: str) -> None:
    clock = Clock()
    schedule = {"arena_schedule": "hourly DS.D1N 30m; daily TF.D3N 120m"}
    with (
        arena_service(clean_redis, clock, **schedule) as one,
        arena_service(clean_redis, clock, **schedule) as two,
    ):
        services = [one, two]

        def ensure(service: CheckedClient) -> None:
            assert service.portal is not None
            arenas = service.app.state.arenas  # type: ignore[attr-defined]
            service.portal.call(arenas.ensure_scheduled)

        with ThreadPoolExecutor(2) as pool:
            for _ in range(3):
                list(pool.map(ensure, services))
        listed = two.get("/arenas").json()
        found = listed["upcoming"] + listed["running"]
        ids = [a["arena_id"] for a in found]
        assert len(ids) == len(set(ids))
        # The hourly arena of this hour and the next; the daily one of today and tomorrow
        # (each upcoming or running, or finished earlier today).
        hourly = [a for a in found if a["mode"] == "DS.D1N"]
        assert 1 <= len(hourly) <= 2 and all(a["scheduled"] for a in hourly)
        assert all(a["minutes"] == 30 for a in hourly)
        # Nobody made them: no player may cancel them.
        assert all(a["created_by"] is None for a in found)
        daily = [a for a in found if a["mode"] == "TF.D3N"]
        assert 1 <= len(daily) <= 2 and all(a["minutes"] == 120 for a in daily)
        assert {a["start_at"] % 3_600_000 for a in found} == {0}


def heats_by_race(
    racers: list[tuple[CheckedClient, dict[str, Any]]], arena_id: str
) -> dict[str, list[str]]:
    """Race id -> the names of the players whose current heat it is (none: unpaired)."""
    by_race: dict[str, list[str]] = {}
    for service, racer in racers:
        heat = mine(service, arena_id, racer)["heat"]
        if heat is not None:
            by_race.setdefault(heat["race_id"], []).append(racer["name"])
    return by_race


def an_arena_of(
    services: list[CheckedClient], players: int
) -> tuple[str, list[tuple[CheckedClient, dict[str, Any]]]]:
    """An arena, and ``players`` who joined it, each on one of the two instances in turn."""
    host = new_player(services[0], "Host")
    arena_id = make_arena(services[0], host)
    racers: list[tuple[CheckedClient, dict[str, Any]]] = []
    for i in range(players):
        service = services[i % 2]
        racer = new_player(service, f"P{i:02}")
        join(service, arena_id, racer)
        racers.append((service, racer))
    return arena_id, racers


def slowed(service: CheckedClient, monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Makes the instance's heats ``seconds`` slower, so that the other takes chunks."""
    maker = service.app.state.arena_waves.heats  # type: ignore[attr-defined]
    heats = maker._heats

    async def slow_heats(*args: Any) -> list[str]:
        await asyncio.sleep(seconds)
        made: list[str] = await heats(*args)
        return made

    monkeypatch.setattr(maker, "_heats", slow_heats)


@contextmanager
def helped_arena(
    clean_redis: str, monkeypatch: pytest.MonkeyPatch, players: int
) -> Iterator[tuple[CheckedClient, Any, str, list[tuple[CheckedClient, dict[str, Any]]]]]:
    """Two instances, an arena of ``players`` split between them, heats of two a chunk,
    and the first instance slowed so that the second takes chunks of its waves: the
    first, the second's heat maker, the arena and its players."""
    monkeypatch.setattr(heats_module, "AT_ONCE", 2)
    clock = Clock()
    with arena_service(clean_redis, clock) as one, arena_service(clean_redis, clock) as two:
        arena_id, racers = an_arena_of([one, two], players)
        slowed(one, monkeypatch, 0.05)
        helper = two.app.state.arena_waves.heats  # type: ignore[attr-defined]
        yield one, helper, arena_id, racers


def test_the_other_instance_helps_make_a_wave_of_many_heats(
    clean_redis: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wave of more than one chunk of heats is a plan that every instance takes chunks
    of: the other instance makes some of the heats, and still every player is in exactly
    one heat and every heat is listed once."""
    with helped_arena(clean_redis, monkeypatch, 24) as (one, helper, arena_id, racers):
        helped: list[str] = []
        heats = helper._heats

        async def counted_heats(*args: Any) -> list[str]:
            made: list[str] = await heats(*args)
            helped.extend(made)
            return made

        monkeypatch.setattr(helper, "_heats", counted_heats)
        assert wave(one) == 12
        assert helped, "the other instance made none of the heats"
        by_race = heats_by_race(racers, arena_id)
        assert len(by_race) == 12 and all(len(names) == 2 for names in by_race.values())
        listed = one.get(f"/arenas/{arena_id}/heats").json()["heats"]
        assert sorted(h["race_id"] for h in listed) == sorted(by_race)


def test_players_a_helper_left_unpaired_are_paired_by_the_next_wave(
    clean_redis: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A helper that stops midway (here: its store calls fail) leaves the players of its
    chunk free: the wave stops waiting for it, and the next wave pairs them."""
    monkeypatch.setattr(heats_module, "_HELPERS_WAIT", 0.3)
    with helped_arena(clean_redis, monkeypatch, 16) as (one, helper, arena_id, racers):
        failed: list[int] = []

        async def failing_heats(*args: Any) -> list[str]:
            failed.append(1)
            raise StoreUnavailable("Redis went away")

        monkeypatch.setattr(helper, "_heats", failing_heats)
        made = wave(one)
        assert failed and made < 8
        assert sum(len(n) for n in heats_by_race(racers, arena_id).values()) == 2 * made
        monkeypatch.delattr(helper, "_heats")  # the helper works again
        assert wave(one) == 8 - made
        by_race = heats_by_race(racers, arena_id)
        assert len(by_race) == 8 and all(len(names) == 2 for names in by_race.values())


def test_one_instance_makes_the_first_heats_ahead_and_its_wave_at_the_start_tells_them(
    clean_redis: str,
) -> None:
    with two_instances(clean_redis) as (clock, services):
        one = services[0]
        host = new_player(one, "Host")
        body = {"mode": "TF.D1N", "name": "At the hour", "minutes": 30, "starts_in": 1}
        arena = one.post("/arenas", json=body, headers=auth(host["player_token"])).json()["arena"]
        arena_id = arena["arena_id"]
        racers = []
        for i in range(PLAYERS):
            racer = new_player(services[i % 2], f"P{i:02}")
            join(services[i % 2], arena_id, racer)
            racers.append(racer)
        clock.jump_past(arena["start_at"] - 2_000)
        assert waves_together(services, 2) == 0
        makers = [s.app.state.arena_waves.heats for s in services]  # type: ignore[attr-defined]
        ahead = [maker.races_ahead(arena_id) for maker in makers]
        # One instance made them, the other was kept out by the arena's lock.
        assert sorted(len(made) for made in ahead) == [0, PLAYERS // 2]
        races = {doc.race_id for made in ahead for doc in made.values()}
        clock.jump_past(arena["start_at"])
        assert waves_together(services, 2) == PLAYERS // 2
        heats = [mine(one, arena_id, racer)["heat"] for racer in racers]
        assert {heat["race_id"] for heat in heats} == races
        assert all(not maker.ahead for maker in makers)
