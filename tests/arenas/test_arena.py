"""Arena tournaments over REST and the WebSocket, on both stores: joining, heats made by
waves and counted once, leaving and coming back, losing by time, the standings pushed as
small pages, the finished arena readable, and bad requests refused with nothing changed.
Waves run when the test says, and the clock moves instead of the test waiting."""

from __future__ import annotations

from typing import Any

import pytest

from tests.arenas.support import (
    join,
    make_arena,
    mine,
    points,
    race_of,
    resign,
    standings,
    wave,
)
from tests.players.conftest import new_player
from tests.races.race_support import Clock
from tests.service.helpers import greet, recv, recv_until
from tests.support import CheckedClient, auth


def players(service: CheckedClient, *names: str) -> list[dict[str, Any]]:
    return [new_player(service, name) for name in names]


def two_heats_under_way(
    service: CheckedClient, clock: Clock
) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]]]:
    """An arena whose four players a wave paired into two heats, and the clock past the
    heats' countdown: the arena, its players and each player's heat."""
    host, *racers = players(service, "Host", "Ada", "Bob", "Cy", "Dee")
    arena_id = make_arena(service, host)
    for racer in racers:
        join(service, arena_id, racer)
    assert wave(service) == 2
    heats = [mine(service, arena_id, racer)["heat"] for racer in racers]
    clock.jump_past(race_of(service, heats[0])["start_at"])
    return arena_id, racers, heats


def test_two_players_race_a_heat_and_its_result_counts_once(
    service: CheckedClient, clock: Clock
) -> None:
    host, ada, bob = players(service, "Host", "Ada", "Bob")
    arena_id = make_arena(service, host)
    joined = join(service, arena_id, ada)
    assert joined["arena"]["status"] == "running" and joined["you"]["heat"] is None
    assert wave(service) == 0  # alone
    join(service, arena_id, bob)
    assert wave(service) == 1
    ada_heat, bob_heat = mine(service, arena_id, ada)["heat"], mine(service, arena_id, bob)["heat"]
    assert ada_heat["race_id"] == bob_heat["race_id"]
    assert ada_heat["opponent"]["name"] == "Bob" and bob_heat["opponent"]["name"] == "Ada"
    race = race_of(service, ada_heat)
    assert race["rated"] is True and race["max_players"] == 2
    assert race["time_limit_seconds"] == 300
    assert wave(service) == 0  # both are playing: nobody is paired twice
    clock.jump_past(race["start_at"])
    resign(service, ada_heat)
    resign(service, bob_heat)
    # The wave counts the heat and, the two being alone, pairs them again.
    assert wave(service) == 1
    # Both resigned with nothing on the foundations: a draw, a point each.
    assert points(service, arena_id) == {"Ada": 1, "Bob": 1}
    heats = service.get(f"/arenas/{arena_id}/heats").json()["heats"]
    assert len(heats) == 2 and [p["outcome"] for p in heats[0]["players"]] == ["draw", "draw"]
    assert heats[1]["outcomes"] is None
    # Counted once however many waves look at it.
    assert wave(service) == 0
    assert points(service, arena_id) == {"Ada": 1, "Bob": 1}
    assert mine(service, arena_id, ada)["heats"] == 1


def test_a_player_who_disconnects_during_a_heat_loses_it_by_time(
    service: CheckedClient, clock: Clock
) -> None:
    host, ada, bob = players(service, "Host", "Ada", "Bob")
    arena_id = make_arena(service, host)
    join(service, arena_id, ada)
    join(service, arena_id, bob)
    assert wave(service) == 1
    ada_heat = mine(service, arena_id, ada)["heat"]
    with service.checked_websocket() as ws:
        greet(ws)
        watch = {"type": "watch_race", "id": "w", "race_id": ada_heat["race_id"]}
        ws.send_json({**watch, "token": ada_heat["player_token"]})
        recv_until(ws, "race")
    race = race_of(service, ada_heat)
    clock.jump_past(race["ends_at"])
    # Counted, and Ada, who lost the heat and not the arena, is paired again.
    assert wave(service) == 1
    assert points(service, arena_id) == {"Bob": 2, "Ada": 0}
    rows = standings(service, arena_id)["rows"]
    assert [(r["rank"], r["name"], r["wins"], r["losses"]) for r in rows] == [
        (1, "Bob", 1, 0),
        (2, "Ada", 0, 1),
    ]
    again = mine(service, arena_id, ada)
    assert again["present"] is True and again["heat"]["race_id"] != ada_heat["race_id"]


def test_leaving_pauses_and_joining_again_resumes(service: CheckedClient, clock: Clock) -> None:
    host, ada, bob = players(service, "Host", "Ada", "Bob")
    arena_id = make_arena(service, host)
    join(service, arena_id, ada)
    join(service, arena_id, bob)
    left = service.delete(f"/arenas/{arena_id}/players/me", headers=auth(ada["player_token"]))
    assert left.status_code == 200, left.text
    assert left.json()["you"]["present"] is False
    assert wave(service) == 0
    again = join(service, arena_id, ada)
    assert again["you"]["present"] is True and again["arena"]["players"] == 2
    assert wave(service) == 1


def test_a_wave_avoids_an_immediate_rematch(service: CheckedClient, clock: Clock) -> None:
    arena_id, racers, heats = two_heats_under_way(service, clock)
    first = {
        frozenset((r["name"], h["opponent"]["name"])) for r, h in zip(racers, heats, strict=True)
    }
    clock.jump_past(max(race_of(service, h)["ends_at"] for h in heats))
    assert wave(service) == 2  # counted (all draws), then paired again
    again = [mine(service, arena_id, racer)["heat"] for racer in racers]
    second = {
        frozenset((r["name"], h["opponent"]["name"])) for r, h in zip(racers, again, strict=True)
    }
    assert len(first) == len(second) == 2 and not first & second


def test_followers_get_their_page_then_only_changed_lines(
    service: CheckedClient, clock: Clock
) -> None:
    host, ada, bob, cy = players(service, "Host", "Ada", "Bob", "Cy")
    arena_id = make_arena(service, host)
    for racer in (ada, bob, cy):
        join(service, arena_id, racer)
    with service.checked_websocket() as ws:
        greet(ws)
        follow = {"type": "follow_arena", "id": "f", "arena_id": arena_id}
        ws.send_json({**follow, "token": ada["player_token"]})
        first = recv(ws)
        assert first["type"] == "arena_standings" and first["id"] == "f" and first["full"]
        assert len(first["rows"]) == 3 and first["you"]["name"] == "Ada"
        assert wave(service) == 1
        paired, _ = recv_until(ws, "arena_standings")
        # Only the two paired players' lines changed.
        assert {r["name"] for r in paired["rows"]} <= {"Ada", "Bob", "Cy"}
        assert len(paired["rows"]) == 2 and all(r["playing"] for r in paired["rows"])
        heats = [h for h in (mine(service, arena_id, p)["heat"] for p in (ada, bob, cy)) if h]
        clock.jump_past(race_of(service, heats[0])["ends_at"])
        wave(service)
        # Ada's own line at once; the page's changed lines within a tenth of a second
        # of the last telling of the page, in a message of their own.
        counted, _ = recv_until(ws, "arena_standings")
        while not counted["rows"]:
            assert counted["you"]["name"] == "Ada"
            counted, _ = recv_until(ws, "arena_standings")
        assert not counted["full"] and 1 <= len(counted["rows"]) <= 3
        ws.send_json({"type": "unfollow_arena", "id": "u", "arena_id": arena_id})
        assert recv_until(ws, "unsubscribed")[0]["arena_id"] == arena_id


def test_followers_of_different_pages_each_get_their_pages_changes(
    service: CheckedClient, clock: Clock
) -> None:
    """A telling reads every page followed (here two) and sends each follower the
    changed lines of its own page, and a named follower its own line with them."""
    host, *racers = players(service, "Host", *(f"P{i:02}" for i in range(24)))
    arena_id = make_arena(service, host)
    for racer in racers:
        join(service, arena_id, racer)
    second = standings(service, arena_id, 2)
    assert second["total"] == 24 and [r["rank"] for r in second["rows"]] == [21, 22, 23, 24]
    last = next(r for r in racers if r["player_id"] == second["rows"][-1]["player_id"])
    with service.checked_websocket() as top, service.checked_websocket() as bottom:
        greet(top)
        greet(bottom)
        top.send_json({"type": "follow_arena", "id": "t", "arena_id": arena_id})
        follow = {"type": "follow_arena", "id": "b", "arena_id": arena_id, "page": 2}
        bottom.send_json({**follow, "token": last["player_token"]})
        assert len(recv(top)["rows"]) == 20 and len(recv(bottom)["rows"]) == 4
        assert wave(service) == 12
        # Every player is playing now: each page's every line changed.
        paired_top, _ = recv_until(top, "arena_standings")
        assert [r["rank"] for r in paired_top["rows"]] == list(range(1, 21))
        assert all(r["playing"] for r in paired_top["rows"]) and paired_top["you"] is None
        told = [recv_until(bottom, "arena_standings")[0]]
        while not told[-1]["rows"]:
            told.append(recv_until(bottom, "arena_standings")[0])
        assert [r["rank"] for r in told[-1]["rows"]] == [21, 22, 23, 24]
        assert all(r["playing"] for r in told[-1]["rows"])
        heat = mine(service, arena_id, last)["heat"]
        assert [m["you"]["heat"] for m in told if m["you"] is not None] == [heat]


def test_a_finished_arena_is_final_and_its_heats_readable(
    service: CheckedClient, clock: Clock
) -> None:
    host, ada, bob = players(service, "Host", "Ada", "Bob")
    arena_id = make_arena(service, host, minutes=5)
    join(service, arena_id, ada)
    join(service, arena_id, bob)
    assert wave(service) == 1
    heat = mine(service, arena_id, ada)["heat"]
    race = race_of(service, heat)
    assert race["result"] is None  # the deal stays secret while the heat runs
    clock.jump_past(service.get(f"/arenas/{arena_id}").json()["arena"]["ends_at"])
    clock.jump_past(race["ends_at"])
    wave(service)  # counts the heat
    wave(service)  # every heat counted: final
    arena = service.get(f"/arenas/{arena_id}").json()["arena"]
    assert arena["status"] == "finished" and arena["final"] is True
    assert standings(service, arena_id)["final"] is True
    listed = service.get("/arenas").json()
    assert arena_id in [a["arena_id"] for a in listed["finished"]]
    heats = service.get(f"/arenas/{arena_id}/heats").json()["heats"]
    assert [h["race_id"] for h in heats] == [heat["race_id"]]
    over = service.get(f"/races/{heat['race_id']}").json()["race"]
    assert over["status"] == "finished" and over["result"]["records"]
    # Finished: nobody joins or leaves any more.
    late = new_player(service, "Late")
    refused = service.post(f"/arenas/{arena_id}/players", headers=auth(late["player_token"]))
    assert refused.status_code == 409 and refused.json()["code"] == "arena_over"
    assert standings(service, arena_id)["total"] == 2


def test_bad_requests_are_typed_and_change_nothing(service: CheckedClient, clock: Clock) -> None:
    host, ada = players(service, "Host", "Ada")
    arena_id = make_arena(service, host)
    join(service, arena_id, ada)
    before = standings(service, arena_id)
    token = auth(ada["player_token"])
    cases = [
        (
            service.post("/arenas", json={"mode": "XX", "name": "a", "minutes": 30}, headers=token),
            422,
            "bad_message",
        ),
        (
            service.post(
                "/arenas", json={"mode": "TF.D1N", "name": "a", "minutes": 1}, headers=token
            ),
            422,
            "bad_message",
        ),
        (
            service.post("/arenas", json={"mode": "TF.D1N", "name": "a", "minutes": 30}),
            401,
            "unauthorized",
        ),
        (service.post("/arenas/nope/players", headers=token), 404, "not_found"),
        (service.get("/arenas/" + "x" * 100), 404, "not_found"),
        (service.get(f"/arenas/{arena_id}/standings?page=0"), 422, "bad_message"),
        (service.delete(f"/arenas/{arena_id}", headers=token), 403, "not_your_arena"),
        (
            service.delete(f"/arenas/{arena_id}", headers=auth(host["player_token"])),
            409,
            "arena_started",
        ),
        (
            service.delete(f"/arenas/{arena_id}/players/me", headers=auth(host["player_token"])),
            409,
            "not_in_arena",
        ),
    ]
    for answer, status, code in cases:
        assert answer.status_code == status, answer.text
        assert answer.json()["code"] == code
    assert standings(service, arena_id) == before
    assert service.get(f"/arenas/{arena_id}").json()["arena"]["status"] == "running"


def test_an_upcoming_arena_is_listed_and_its_maker_may_cancel_it(
    service: CheckedClient, clock: Clock
) -> None:
    host, ada = players(service, "Host", "Ada")
    body = {"mode": "DS.D1N", "name": "Later", "minutes": 30, "starts_in": 60}
    made = service.post("/arenas", json=body, headers=auth(host["player_token"])).json()
    arena_id = made["arena"]["arena_id"]
    assert made["arena"]["status"] == "upcoming"
    assert made["arena"]["created_by"] == host["player_id"]
    assert arena_id in [a["arena_id"] for a in service.get("/arenas").json()["upcoming"]]
    join(service, arena_id, ada)
    assert wave(service) == 0  # not started: nobody is paired
    cancelled = service.delete(f"/arenas/{arena_id}", headers=auth(host["player_token"]))
    assert cancelled.status_code == 200 and cancelled.json()["arena"]["status"] == "cancelled"
    refused = service.post(f"/arenas/{arena_id}/players", headers=auth(ada["player_token"]))
    assert refused.json()["code"] == "arena_over"


def test_a_heat_whose_race_missed_its_endings_is_counted_by_reading_its_games(
    service: CheckedClient, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A race learns of a game's ending after the ending commits: an instance that stopped
    in between leaves the race unfinished. Waves read the race alone, and an open heat's
    games only every ``_DEEP_EVERY`` seconds, a few heats a wave: both heats below are
    counted, one per wave."""
    from service.arenas import waves

    arena_id, racers, heats = two_heats_under_way(service, clock)
    gate = service.app.state.games.races  # type: ignore[attr-defined]

    async def stopped_before_telling(*_: Any) -> None:
        return None

    monkeypatch.setattr(gate, "after_action", stopped_before_telling)
    for heat in heats:
        resign(service, heat)
    monkeypatch.undo()
    # The race documents alone say the heats go on (reading a race over HTTP would read
    # its games and settle it: not done here).
    wave(service)
    assert all(mine(service, arena_id, racer)["heats"] == 0 for racer in racers)
    monkeypatch.setattr(waves, "_DEEP_EVERY", 0.0)
    monkeypatch.setattr(waves, "_DEEP_PER_WAVE", 1)
    wave(service)
    assert sorted(mine(service, arena_id, racer)["heats"] for racer in racers) == [0, 0, 1, 1]
    wave(service)
    assert [mine(service, arena_id, racer)["heats"] for racer in racers] == [1, 1, 1, 1]


def test_a_wave_reads_again_only_the_races_that_changed_or_ran_out_of_time(
    service: CheckedClient, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every wave looks at each open heat's race to see whether it is over. A race whose
    stored version has not moved since the last wave is not read again, unless its
    time limit has passed; one that changed is read, and counted."""
    arena_id, racers, heats = two_heats_under_way(service, clock)
    store = service.app.state.games.store  # type: ignore[attr-defined]
    read: list[str] = []
    load_race = store.load_race

    async def counted_load(race_id: str) -> Any:
        read.append(race_id)
        return await load_race(race_id)

    monkeypatch.setattr(store, "load_race", counted_load)
    wave(service)
    assert sorted(read) == sorted({h["race_id"] for h in heats})  # each read once
    read.clear()
    assert wave(service) == 0
    assert read == []  # nothing changed
    first, second = (
        heats[0]["race_id"],
        next(h for h in heats if h["race_id"] != heats[0]["race_id"]),
    )
    for heat in (h for h in heats if h["race_id"] == first):
        resign(service, heat)
    read.clear()
    wave(service)
    assert first in read and second["race_id"] not in read
    counted = [mine(service, arena_id, r)["heats"] for r in racers]
    assert sorted(counted) == [0, 0, 1, 1]
    # Nobody plays the other heat: unchanged, it is still read once its time is up.
    clock.jump_past(race_of(service, second)["ends_at"])
    read.clear()
    wave(service)
    assert second["race_id"] in read
    assert [mine(service, arena_id, r)["heats"] for r in racers] == [1, 1, 1, 1]


def a_heat_refused(
    service: CheckedClient, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, list[dict[str, Any]], str]:
    """Ada and Bob in an arena, and a wave whose swap for their new heat the store refused
    (as when an entry changed meanwhile): the arena, the two players and the refused
    heat's race id. The store swaps as before once it returns."""
    host, ada, bob = players(service, "Host", "Ada", "Bob")
    arena_id = make_arena(service, host)
    join(service, arena_id, ada)
    join(service, arena_id, bob)
    maker = service.app.state.arena_waves.heats  # type: ignore[attr-defined]
    swaps = maker.store.swaps
    refused: list[str] = []

    async def refuse_new_heats(arena: str, changes: list[Any], ttl: int) -> list[bool]:
        new = [c.heat[0] for c in changes if c.heat is not None and c.heat[1] is None]
        if new:
            refused.extend(new)
            return [False] * len(changes)
        return list(await swaps(arena, changes, ttl))

    monkeypatch.setattr(maker.store, "swaps", refuse_new_heats)
    assert wave(service) == 0 and len(refused) == 1
    monkeypatch.setattr(maker.store, "swaps", swaps)
    return arena_id, [ada, bob], refused[0]


def test_a_heat_whose_swap_failed_leaves_its_players_free_for_the_next_wave(
    service: CheckedClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wave changes its own copies of the entries it read: a heat it could not store
    (an entry changed meanwhile) leaves nothing behind that the next wave would take for
    the stored entries."""
    arena_id, (ada, bob), refused = a_heat_refused(service, monkeypatch)
    assert mine(service, arena_id, ada)["heat"] is None
    assert wave(service) == 1
    ada_heat, bob_heat = mine(service, arena_id, ada)["heat"], mine(service, arena_id, bob)["heat"]
    assert ada_heat["race_id"] == bob_heat["race_id"] != refused


def test_a_heat_whose_swap_failed_is_called_off_and_rates_nobody(
    service: CheckedClient, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race of a heat that could not be stored was never told to its players: it
    ends at once, unrated, and never counts as a rated draw between them."""
    _, racers, refused = a_heat_refused(service, monkeypatch)
    race = service.get(f"/races/{refused}").json()["race"]
    assert race["status"] == "finished" and race["rated"] is False
    assert "ratings" not in race["result"]
    clock.jump_past(race["start_at"] + 300_000)
    assert service.get(f"/races/{refused}").json()["race"]["rated"] is False
    for player in racers:
        stats = service.get(f"/players/{player['player_id']}/stats").json()
        assert stats["ratings"] == {}
