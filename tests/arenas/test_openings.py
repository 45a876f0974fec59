"""Secret deals dealt ahead (``games.openings``): each is dealt as its code says and taken
once, the reserve is bounded, and an arena's waves deal its first heats in the seconds
before its start, which its first wave then takes."""

from __future__ import annotations

import pytest

from service import engine
from service.games import openings as openings_module
from service.games.openings import Openings
from tests.arenas.support import join, mine, wave
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
