"""The SDK's quick pairing calls against a real service (uvicorn + Redis, waves running
on their own): two players ask, both are paired into one rated race, and each client
can then read the race with the race token it was handed."""

from __future__ import annotations

import asyncio

import pytest
from solitaire_client import ServiceClient
from solitaire_client.errors import ProtocolError

# Waves run every half second; a pairing takes one or two.
POLLS = 200


async def test_two_clients_are_paired_into_one_rated_race(service_url: str) -> None:
    async with ServiceClient(service_url) as ada, ServiceClient(service_url) as bob:
        await ada.create_player("Ada")
        await bob.create_player("Bob")
        first = await ada.seek_race("TF.D3N")
        assert first.status == "waiting" and first.mode == "TF.D3N"
        with pytest.raises(ProtocolError) as twice:
            await ada.seek_race("TF.D3N")
        assert twice.value.code == "already_seeking"
        second = await bob.seek_race("TF.D3N")
        for _ in range(POLLS):
            seen = await ada.get_seek(first.seek_id), await bob.get_seek(second.seek_id)
            if all(seek.status == "paired" for seek in seen):
                break
            await asyncio.sleep(0.1)
        ada_seek, bob_seek = seen
        assert ada_seek.race is not None and bob_seek.race is not None
        assert ada_seek.race.race_id == bob_seek.race.race_id
        race = await ada.get_race(ada_seek.race.race_id)
        assert race.race.rated and race.you is not None
        assert race.you.player_id == ada_seek.race.player_id
        # Paired already: cancelling changes nothing.
        assert (await bob.cancel_seek(second.seek_id)).status == "paired"


async def test_a_cancelled_seek_is_never_paired(service_url: str) -> None:
    async with ServiceClient(service_url) as cy:
        await cy.create_player("Cy")
        seek = await cy.seek_race("DS.D3V")
        assert (await cy.cancel_seek(seek.seek_id)).status == "cancelled"
        assert (await cy.get_seek(seek.seek_id)).status == "cancelled"
