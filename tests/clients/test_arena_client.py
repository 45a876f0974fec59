"""The SDK's arena calls against a real service (uvicorn + Redis, waves running on their
own): an arena is made, two players join and are paired into one heat, each reads it
with the race token it was handed; leaving, standings, heats and refusals read back."""

from __future__ import annotations

import asyncio

import pytest
from solitaire_client import ServiceClient
from solitaire_client.errors import ProtocolError

# Waves run every second; a pairing takes one or two.
POLLS = 300


async def test_two_clients_join_an_arena_and_race_a_heat(service_url: str) -> None:
    async with (
        ServiceClient(service_url) as host,
        ServiceClient(service_url) as ada,
        ServiceClient(service_url) as bob,
    ):
        for client, name in ((host, "Host"), (ada, "Ada"), (bob, "Bob")):
            await client.create_player(name)
        made = await host.create_arena("DS.D1N", "Client arena", 30)
        arena_id = made.arena.arena_id
        assert made.arena.status == "running" and made.you is None
        assert arena_id in [a.arena_id for a in (await host.list_arenas()).running]
        await ada.join_arena(arena_id)
        await bob.join_arena(arena_id)
        for _ in range(POLLS):
            mine = await ada.get_arena(arena_id)
            if mine.you is not None and mine.you.heat is not None:
                break
            await asyncio.sleep(0.1)
        assert mine.you is not None and mine.you.heat is not None
        heat = mine.you.heat
        race = await ada.get_race(heat.race_id)
        assert race.race.rated and race.you is not None
        assert race.you.player_id == heat.player_id
        standings = await host.arena_standings(arena_id)
        assert standings.total == 2 and {row.name for row in standings.rows} == {"Ada", "Bob"}
        heats = await host.arena_heats(arena_id)
        assert [h.race_id for h in heats.heats] == [heat.race_id]
        left = await bob.leave_arena(arena_id)
        assert left.you is not None and not left.you.present
        with pytest.raises(ProtocolError) as refused:
            await ada.cancel_arena(arena_id)
        assert refused.value.code == "not_your_arena"
        with pytest.raises(ProtocolError) as missing:
            await host.leave_arena(arena_id)
        assert missing.value.code == "not_in_arena"


async def test_a_player_cancels_an_upcoming_arena(service_url: str) -> None:
    async with ServiceClient(service_url) as cy:
        await cy.create_player("Cy")
        made = await cy.create_arena("TF.D3N", "Later", 60, starts_in=120)
        assert made.arena.status == "upcoming"
        assert (await cy.cancel_arena(made.arena.arena_id)).arena.status == "cancelled"
