"""What is made before an arena's start: secret deals dealt ahead (``games.openings``),
each dealt as its code says and taken once from a bounded reserve, then its first heats'
races, made from the players joined by then and told at the start; a race made ahead
that no heat took rates nobody."""

from __future__ import annotations

from typing import Any

import pytest

from service import engine
from service.games import openings as openings_module
from service.games.openings import Openings
from tests.arenas.support import join, mine, race_of, wave
from tests.players.conftest import new_player
from tests.races.race_support import Clock
from tests.support import CheckedClient, auth

TF = engine.Mode.parse("TF.D1N")
DS = engine.Mode.parse("DS.D3V")


async def test_a_deal_made_ahead_is_the_opening_its_secret_code_deals() -> None:
    openings = Openings()
    await openings.prepare(DS, 5)
    assert openings.ready(DS) == 5 and openings.ready(TF) == 0
    taken = [openings.take(DS) for _ in range(5)]
    assert openings.ready(DS) == 0
    for code, opening in taken:
        assert code.secret and code.game is engine.GameKind.DOUBLE and code.draw == 3
        assert opening == engine.new_game(code).serialize()
    assert len({code.deal for code, _ in taken}) == 5
    # Nothing ready: dealt on the spot, the same way.
    code, opening = openings.take(TF)
    assert code.secret and opening == engine.new_game(code).serialize()


async def test_the_reserve_is_bounded_and_not_dealt_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(openings_module, "MAX_READY", 3)
    openings = Openings()
    await openings.prepare(TF, 10)
    assert openings.ready(TF) == 3
    first = openings.take(TF)
    await openings.prepare(TF, 2)
    # Two were still ready: none dealt, and the one taken is not taken again.
    assert openings.ready(TF) == 2
    assert first not in [openings.take(TF), openings.take(TF)]


def test_an_arena_s_first_heats_are_dealt_before_its_start(
    service: CheckedClient, clock: Clock
) -> None:
    host, *joining = (new_player(service, name) for name in ["Host", "A", "B", "C", "D", "E"])
    body = {"mode": "TF.D1N", "name": "At the hour", "minutes": 30, "starts_in": 1}
    made = service.post("/arenas", json=body, headers=auth(host["player_token"]))
    arena = made.json()["arena"]
    for player in joining:
        join(service, arena["arena_id"], player)
    openings: Openings = service.app.state.games.openings  # type: ignore[attr-defined]
    assert wave(service) == 0
    assert openings.ready(TF) == 0  # a minute ahead: not yet
    clock.jump_past(arena["start_at"] - 10_000)
    assert wave(service) == 0
    # Five players: two heats at the start, one player waiting.
    assert openings.ready(TF) == 2
    ready = {code.deal for code, _ in openings._ready[TF]}
    clock.jump_past(arena["start_at"])
    assert wave(service) == 2
    assert openings.ready(TF) == 0
    # Who of five equals sits out is the standings' tie order, not the join order.
    heats = [mine(service, arena["arena_id"], p)["heat"] for p in joining]
    races = {heat["race_id"] for heat in heats if heat is not None}
    assert sum(heat is None for heat in heats) == 1 and len(races) == 2
    assert service.portal is not None
    updates = service.app.state.races.updates  # type: ignore[attr-defined]
    dealt = {
        engine.GameCode.parse(service.portal.call(updates.load, race_id)[1].code).deal
        for race_id in races
    }
    assert dealt == ready


def _upcoming(
    service: CheckedClient, clock: Clock, names: list[str]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An arena starting in a minute that ``names`` joined, and the clock in the last
    seconds before its start (when its first heats are made ahead)."""
    host = new_player(service, "Host")
    body = {"mode": "TF.D1N", "name": "At the hour", "minutes": 30, "starts_in": 1}
    arena = service.post("/arenas", json=body, headers=auth(host["player_token"])).json()
    joined = [new_player(service, name) for name in names]
    for player in joined:
        join(service, arena["arena"]["arena_id"], player)
    clock.jump_past(arena["arena"]["start_at"] - 2_000)
    return arena["arena"], joined


def _made_ahead(service: CheckedClient, arena_id: str) -> dict[tuple[str, str], str]:
    maker = service.app.state.arena_waves.heats  # type: ignore[attr-defined]
    return {pair: doc.race_id for pair, doc in maker.races_ahead(arena_id).items()}


def _made_at_last_wave(
    service: CheckedClient, clock: Clock, names: list[str]
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[tuple[str, str], str]]:
    """``_upcoming``, then a wave in the last seconds before the start: the arena, its
    players, and the races it made ahead by pair."""
    arena, racers = _upcoming(service, clock, names)
    assert wave(service) == 0
    return arena, racers, _made_ahead(service, arena["arena_id"])


def _race(service: CheckedClient, race_id: str) -> dict[str, Any]:
    found: dict[str, Any] = service.get(f"/races/{race_id}").json()["race"]
    return found


def test_an_arena_s_first_heats_are_made_before_its_start_and_told_at_it(
    service: CheckedClient, clock: Clock
) -> None:
    arena, racers, ahead = _made_at_last_wave(service, clock, ["A", "B", "C", "D"])
    arena_id = arena["arena_id"]
    assert len(ahead) == 2
    # Made, not told: nobody has a heat, the arena records none.
    assert all(mine(service, arena_id, p)["heat"] is None for p in racers)
    assert service.get(f"/arenas/{arena_id}/heats").json()["heats"] == []
    for race_id in ahead.values():
        race = _race(service, race_id)
        # The countdown runs from the arena's start, when the players learn of it.
        assert race["rated"] is True and race["start_at"] == arena["start_at"] + 3_000
    # Made once.
    assert wave(service) == 0 and _made_ahead(service, arena_id) == ahead
    clock.jump_past(arena["start_at"])
    assert wave(service) == 2
    heats = {mine(service, arena_id, p)["heat"]["race_id"] for p in racers}
    assert heats == set(ahead.values()) and _made_ahead(service, arena_id) == {}
    told = race_of(service, mine(service, arena_id, racers[0])["heat"])
    assert told["status"] == "countdown"


def test_one_who_left_before_the_start_frees_their_partner_and_their_race_is_called_off(
    service: CheckedClient, clock: Clock
) -> None:
    arena, racers, ahead = _made_at_last_wave(service, clock, ["A", "B", "C", "D"])
    arena_id = arena["arena_id"]
    by_id = {p["player_id"]: p for p in racers}
    (leaver_id, partner_id), dropped = next(iter(ahead.items()))
    leaver = by_id[leaver_id]
    left = service.delete(f"/arenas/{arena_id}/players/me", headers=auth(leaver["player_token"]))
    assert left.status_code == 200, left.text
    late = new_player(service, "Late")
    join(service, arena_id, late)
    clock.jump_past(arena["start_at"])
    assert wave(service) == 2
    kept = next(race_id for pair, race_id in ahead.items() if leaver_id not in pair)
    partner_heat = mine(service, arena_id, by_id[partner_id])["heat"]
    assert partner_heat["race_id"] not in ahead.values()
    assert mine(service, arena_id, late)["heat"]["race_id"] == partner_heat["race_id"]
    # The pair whose players both stayed races the race made for it.
    for player_id in next(pair for pair in ahead if leaver_id not in pair):
        assert mine(service, arena_id, by_id[player_id])["heat"]["race_id"] == kept
    race = _race(service, dropped)
    assert race["status"] == "finished" and race["rated"] is False


def test_races_made_ahead_that_no_heat_took_rate_nobody(
    service: CheckedClient, clock: Clock
) -> None:
    """An instance that made the first heats ahead and stopped before the start: another
    instance's first wave makes heats of its own, and the races made ahead, which their
    players never learnt of, end unrated when their time runs out."""
    arena, racers, ahead = _made_at_last_wave(service, clock, ["A", "B"])
    arena_id = arena["arena_id"]
    waves = service.app.state.arena_waves  # type: ignore[attr-defined]
    [abandoned] = ahead.values()
    # As if the instance stopped: what it held is gone, and its lock let go.
    waves.heats.ahead.clear()
    assert service.portal is not None
    service.portal.call(waves.store.unlock, arena_id, waves.owner)
    clock.jump_past(arena["start_at"])
    assert wave(service) == 1
    heat = mine(service, arena_id, racers[0])["heat"]
    assert heat["race_id"] != abandoned
    clock.jump_past(_race(service, abandoned)["ends_at"])
    race = _race(service, abandoned)
    assert race["status"] == "finished" and race["rated"] is False
    assert "ratings" not in race["result"]
    for player in racers:
        stats = service.get(f"/players/{player['player_id']}/stats").json()
        assert stats["ratings"] == {}


def test_the_waves_wake_at_the_start_of_an_arena_whose_heats_were_made_ahead(
    service: CheckedClient, clock: Clock
) -> None:
    arena, _ = _upcoming(service, clock, ["A", "B"])
    waves = service.app.state.arena_waves  # type: ignore[attr-defined]
    every = waves.arenas.settings.arena_wave_seconds
    assert waves._next_wave_in() == every
    assert wave(service) == 0
    # Made ahead in the last seconds before the start: the next wave is at the start.
    to_start = (arena["start_at"] - clock.ms()) / 1000
    assert 0 < to_start < every
    assert waves._next_wave_in() == pytest.approx(to_start, abs=0.1)
    # A start gone by with its heats still held (its arena cancelled, say) is no reason
    # to wave again at once.
    clock.jump_past(arena["start_at"] + 500)
    assert waves._next_wave_in() == every
