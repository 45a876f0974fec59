"""The SDK's quick pairing calls against a real service (uvicorn + Redis, waves running
on their own): two players ask, both are paired into one rated race, and each client
can then read the race with the race token it was handed; over the WebSocket too, where
a cancelled seek and a closed socket's seek pair nobody."""

from __future__ import annotations

import asyncio

import pytest
from solitaire_client import (
    Connection,
    SeekCancelled,
    SeekLost,
    SeekSession,
    ServiceClient,
)
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


async def players(service_url: str, *names: str) -> list[ServiceClient]:
    clients = [ServiceClient(service_url) for _ in names]
    for client, name in zip(clients, names, strict=True):
        await client.create_player(name)
    return clients


async def settled(client: ServiceClient, seek_id: str) -> str:
    """The seek's status once it no longer waits."""
    for _ in range(POLLS):
        seek = await client.get_seek(seek_id)
        if seek.status != "waiting":
            return seek.status
        await asyncio.sleep(0.05)
    return "waiting"


async def test_two_seeks_over_sockets_are_paired_into_one_race(service_url: str) -> None:
    ada, bob = await players(service_url, "Ada", "Bob")
    async with Connection(service_url) as ada_ws, Connection(service_url) as bob_ws:
        assert ada.player_token and bob.player_token
        ada_seek = SeekSession(ada_ws, ada.player_token, "TF.D1N")
        bob_seek = SeekSession(bob_ws, bob.player_token, "TF.D1N")
        assert (await ada_seek.start()).status == "waiting"
        await bob_seek.start()
        ada_paired, bob_paired = await ada_seek.paired(20), await bob_seek.paired(20)
        assert ada_paired.race_id == bob_paired.race_id
        assert ada_paired.opponent.name == "Bob" and bob_paired.opponent.name == "Ada"
        race = await ada.get_race(ada_paired.race_id, token=ada_paired.player_token)
        assert race.you is not None and race.you.player_id == ada_paired.player_id
    for client in (ada, bob):
        await client.aclose()


async def test_a_seek_cancelled_or_closed_over_the_socket_pairs_nobody(service_url: str) -> None:
    ada, bob, cy, dee = await players(service_url, "Ada", "Bob", "Cy", "Dee")
    assert ada.player_token and bob.player_token
    async with Connection(service_url) as ada_ws:
        cancelled = SeekSession(ada_ws, ada.player_token, "DS.D1N")
        seek = await cancelled.start()
        assert (await cancelled.cancel()).status == "cancelled"
        with pytest.raises(SeekCancelled):
            await cancelled.paired(5)
        assert (await ada.get_seek(seek.seek_id)).status == "cancelled"
    bob_ws = Connection(service_url)
    await bob_ws.open()
    closed = await SeekSession(bob_ws, bob.player_token, "DS.D1N").start()
    await bob_ws.close()
    assert await settled(bob, closed.seek_id) == "cancelled"
    # Cy and Dee, seeking after, are paired with each other.
    first, second = await cy.seek_race("DS.D1N"), await dee.seek_race("DS.D1N")
    assert await settled(cy, first.seek_id) == "paired"
    seek_of_dee = await dee.get_seek(second.seek_id)
    assert seek_of_dee.race is not None and seek_of_dee.race.opponent.name == "Cy"
    for client in (ada, bob, cy, dee):
        await client.aclose()


async def test_a_seek_ends_with_its_socket_when_the_connection_comes_back(
    service_url: str,
) -> None:
    (ada,) = await players(service_url, "Ada")
    assert ada.player_token
    async with Connection(service_url) as ada_ws:
        live = SeekSession(ada_ws, ada.player_token, "TF.D3N")
        seek = await live.start()
        assert ada_ws.websocket is not None
        await ada_ws.websocket.close()
        with pytest.raises(SeekLost) as lost:
            await live.paired(20)
        assert lost.value.code == "seek_lost" and lost.value.seek_id == seek.seek_id
        assert await settled(ada, seek.seek_id) == "cancelled"
    await ada.aclose()
