"""The SDK's quick pairing calls against a real service (uvicorn + Redis, waves running
on their own): two players ask, both are paired into one rated race, and each client
can then read the race with the race token it was handed; over the WebSocket too, where
a cancelled seek and a closed socket's seek pair nobody, and a seek whose socket is cut
is made again (or ends with the race a wave paired it into meanwhile)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from solitaire_client import (
    AlreadySeeking,
    Connection,
    SeekCancelled,
    SeekLost,
    SeekSession,
    ServiceClient,
)
from solitaire_client.connection import AnyServerMessage
from solitaire_client.errors import ProtocolError

from service.protocol.ws import PairedMessage, SeekAnswer

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


async def test_a_second_seek_over_the_socket_names_the_seek_that_waits(service_url: str) -> None:
    (ada,) = await players(service_url, "Ada")
    assert ada.player_token
    async with Connection(service_url) as ada_ws:
        # A mode whose other seeks in these tests are cancelled: Ada waits alone.
        waiting = await SeekSession(ada_ws, ada.player_token, "DS.D3V").start()
        with pytest.raises(AlreadySeeking) as refused:
            await SeekSession(ada_ws, ada.player_token, "DS.D1N").start()
        assert refused.value.seek_id == waiting.seek_id
        assert "DS.D3V" in refused.value.message
        assert (await ada.cancel_seek(waiting.seek_id)).status == "cancelled"
    await ada.aclose()


def cut(connection: Connection) -> None:
    """The network goes away under the socket, without a closing handshake."""
    assert connection.websocket is not None
    connection.websocket.transport.abort()


async def test_a_seek_cut_with_its_socket_is_made_again_and_paired_once(
    service_url: str,
) -> None:
    ada, bob = await players(service_url, "Ada", "Bob")
    assert ada.player_token and bob.player_token
    async with Connection(service_url) as ada_ws, Connection(service_url) as bob_ws:
        live = SeekSession(ada_ws, ada.player_token, "TF.D3N")
        first = await live.start()
        cut(ada_ws)
        # Made again on the new socket, under a new id; the first seek is cancelled.
        for _ in range(POLLS):
            if live.seek is not None and live.seek.seek_id != first.seek_id:
                break
            await asyncio.sleep(0.05)
        assert live.seek is not None and live.seek.seek_id != first.seek_id
        assert live.seek.status == "waiting" and live.reseeks == 1
        assert ada_ws.reconnects == 1
        assert (await ada.get_seek(first.seek_id)).status == "cancelled"
        other = SeekSession(bob_ws, bob.player_token, "TF.D3N")
        await other.start()
        ada_paired, bob_paired = await live.paired(20), await other.paired(20)
        assert ada_paired.race_id == bob_paired.race_id
        assert ada_paired.seek_id == live.seek.seek_id
        assert ada_paired.opponent.name == "Bob" and bob_paired.opponent.name == "Ada"
        race = await ada.get_race(ada_paired.race_id, token=ada_paired.player_token)
        assert race.you is not None and race.you.player_id == ada_paired.player_id
        # Paired once: Ada's first seek stayed cancelled, and she may seek again.
        assert (await ada.get_seek(first.seek_id)).status == "cancelled"
        again = await ada.seek_race("DS.D1N")
        assert (await ada.cancel_seek(again.seek_id)).status == "cancelled"
    for client in (ada, bob):
        await client.aclose()


async def test_a_seek_paired_while_its_socket_was_down_yields_that_race(
    service_url: str,
) -> None:
    """The ``paired`` message is lost with the socket: the cancel by REST after the
    reconnection answers ``paired``, and the session ends with that race, not a new seek."""
    ada, bob = await players(service_url, "Ada", "Bob")
    assert ada.player_token and bob.player_token
    async with Connection(service_url) as ada_ws:
        live = SeekSession(ada_ws, ada.player_token, "DS.D3N", client=ada)
        first = await live.start()
        dispatch = ada_ws._dispatch
        lost: list[str] = []

        async def lose_paired(message: AnyServerMessage) -> None:
            if isinstance(message, PairedMessage) and not lost:
                lost.append(message.seek_id)
                cut(ada_ws)
                return
            await dispatch(message)

        ada_ws._dispatch = lose_paired  # type: ignore[method-assign]
        theirs = await bob.seek_race("DS.D3N")
        seat = await live.paired(20)
        assert lost == [first.seek_id] and seat.seek_id == first.seek_id
        assert live.reseeks == 0 and ada_ws.reconnects == 1
        bob_seek = await bob.get_seek(theirs.seek_id)
        assert bob_seek.race is not None and bob_seek.race.race_id == seat.race_id
        race = await ada.get_race(seat.race_id, token=seat.player_token)
        assert race.you is not None and race.you.player_id == seat.player_id
        # Nothing was asked again: Ada has no seek waiting.
        again = await ada.seek_race("TF.D1N")
        assert (await ada.cancel_seek(again.seek_id)).status == "cancelled"
    for client in (ada, bob):
        await client.aclose()


async def test_a_seek_that_cannot_be_made_again_ends_with_seek_lost(service_url: str) -> None:
    """The device's player token was revoked while it waited: after the reconnection the
    service refuses it, and the wait ends with ``SeekLost`` saying why."""
    (ada,) = await players(service_url, "Ada")
    assert ada.player_token
    async with ServiceClient(service_url) as other_device:
        await other_device.link_device((await ada.link_code()).link_code)
        async with Connection(service_url) as ada_ws:
            # A mode no other test pairs in: the service cannot cancel this seek with the
            # revoked token when the socket closes, so it waits until it expires.
            live = SeekSession(ada_ws, ada.player_token, "DS.D1V")
            seek = await live.start()
            await other_device.revoke_other_devices()
            cut(ada_ws)
            with pytest.raises(SeekLost) as lost:
                await live.paired(20)
            assert lost.value.code == "seek_lost" and lost.value.seek_id == seek.seek_id
            assert lost.value.cause is not None and lost.value.cause.code == "unauthorized"
    await ada.aclose()


@pytest.mark.parametrize("network", ["cut", "half-open"])
async def test_a_seek_whose_answer_is_lost_with_its_socket_still_waits_once(
    service_url: str, network: str
) -> None:
    """The answer to ``seek`` is lost with the socket, and the connection sends the seek
    again on the new one. Cut, the service drops the lost socket's seek first; half-open
    (the service still holds that socket), that seek still waits and the seek sent again
    is refused ``already_seeking``: the session cancels it by REST and seeks again. Either
    way the session holds one seek, and Ada is paired once."""
    ada, bob = await players(service_url, "Ada", "Bob")
    assert ada.player_token and bob.player_token
    stale: list[Any] = []
    async with Connection(service_url) as ada_ws:
        dispatch = ada_ws._dispatch
        lost: list[str] = []

        async def lose_first_answer(message: AnyServerMessage) -> None:
            if isinstance(message, SeekAnswer) and not lost:
                lost.append(message.seek.seek_id)
                if network == "cut":
                    cut(ada_ws)
                    return
                # The client gives up on the socket; the service never hears of it.
                stale.append(ada_ws.websocket)
                raise OSError("the network went away")
            await dispatch(message)

        ada_ws._dispatch = lose_first_answer  # type: ignore[method-assign]
        live = SeekSession(ada_ws, ada.player_token, "TF.D1N")
        held = await live.start(20)
        assert held.status == "waiting" and lost and held.seek_id != lost[0]
        assert await settled(ada, lost[0]) == "cancelled"
        theirs = await bob.seek_race("TF.D1N")
        seat = await live.paired(20)
        assert seat.seek_id == held.seek_id
        bob_seek = await bob.get_seek(theirs.seek_id)
        assert bob_seek.race is not None and bob_seek.race.race_id == seat.race_id
    for socket in stale:
        await socket.close()
    for client in (ada, bob):
        await client.aclose()
