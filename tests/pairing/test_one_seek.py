"""A player waits in one seek at a time, whatever its mode: a second seek, in any mode,
is refused (``already_seeking``, naming the one waiting) and changes nothing, until the
waiting one is paired, cancelled or expires. Waves run mode by mode, so two waiting
seeks of one player could be paired into two races at once.

On the memory store and on real Redis; on Redis, seeks sent at once in different modes
by one player through two instances leave exactly one waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

import orjson
import pytest
import redis
from starlette.applications import Starlette

from service.app import create_app
from service.config import Settings
from service.pairing import Pairing
from service.store import Store, open_store
from service.store.seeks import Seek
from tests.pairing.test_quick_pairing import poll, seek, wave
from tests.players.conftest import new_player
from tests.service.helpers import greet, recv
from tests.support import CheckedClient, auth, service_client

MODES = ("TF.D1N", "DS.D3N", "DS.D1V")


def _seek(mode: str, suffix: str, player: str) -> Seek:
    return Seek(f"{mode}-{suffix}", mode, player, player.title(), 1500.0, 1_000, f"h-{player}")


@contextlib.asynccontextmanager
async def opened(url: str) -> AsyncIterator[Store]:
    store = open_store(Settings(store_url=url))
    await store.open()
    try:
        yield store
    finally:
        await store.close()


async def test_a_second_seek_in_another_mode_waits_for_the_first_to_end(store_url: str) -> None:
    async with opened(store_url) as store:
        seeks = store.seeks
        first = _seek("TF.D1N", "a1", "ada")
        assert await seeks.add(first, 60) is None
        # Refused in every mode, the same one included, and nothing changed.
        for n, mode in enumerate(MODES):
            assert await seeks.add(_seek(mode, f"x{n}", "ada"), 60) == first.seek_id
            assert [s.seek_id for s in await seeks.waiting(mode)] == (
                [first.seek_id] if mode == "TF.D1N" else []
            )
            assert await seeks.get(f"{mode}-x{n}") is None
        # The same add sent again (its reply lost) is still answered as added.
        assert await seeks.add(first, 60) is None
        # Cancelled: free to seek in another mode.
        assert await seeks.cancel(first.seek_id, "ada") == "cancelled"
        second = _seek("DS.D3N", "a2", "ada")
        assert await seeks.add(second, 60) is None
        assert await seeks.add(_seek("TF.D1N", "a3", "ada"), 60) == second.seek_id
        # Paired: free again.
        bob = _seek("DS.D3N", "b1", "bob")
        assert await seeks.add(bob, 60) is None
        seat = orjson.dumps({"race_id": "r1"}).decode()
        assert await seeks.pair(second, bob, seat, seat)
        third = _seek("DS.D1V", "a4", "ada")
        assert await seeks.add(third, 1) is None
        assert await seeks.add(_seek("TF.D1N", "a5", "ada"), 60) == third.seek_id
        # Expired, nobody renewing it: free again.
        await asyncio.sleep(1.2)
        assert await seeks.add(_seek("TF.D1N", "a6", "ada"), 60) is None
        assert [s.seek_id for s in await seeks.waiting("TF.D1N")] == ["TF.D1N-a6"]


async def test_seeks_sent_at_once_in_two_modes_leave_one_waiting(store_url: str) -> None:
    """Each player sends two seeks at once, in two modes; on Redis through two stores
    (two instances), each with its own connections."""
    players = [f"p{n}" for n in range(40)]
    async with opened(store_url) as one, opened(store_url) as two:
        other = two if store_url != "memory://" else one

        async def both(player: str) -> tuple[str | None, str | None]:
            a, b = _seek("TF.D1N", f"{player}a", player), _seek("DS.D3N", f"{player}b", player)
            added = await asyncio.gather(one.seeks.add(a, 60), other.seeks.add(b, 60))
            return added[0], added[1]

        answers = await asyncio.gather(*(both(player) for player in players))
        waiting = [s for mode in ("TF.D1N", "DS.D3N") for s in await one.seeks.waiting(mode)]
        assert sorted(s.player_id for s in waiting) == sorted(players)
        for player, (a, b) in zip(players, answers, strict=True):
            # Exactly one added; the other names it.
            assert (a is None) != (b is None), (player, a, b)
            kept = next(s for s in waiting if s.player_id == player)
            assert (a or b) == kept.seek_id


@pytest.fixture
def service(store_url: str) -> Iterator[CheckedClient]:
    with service_client(store_url, pairing_wave_seconds=3600) as client:
        yield client


def test_rest_and_websocket_seeks_in_another_mode_are_refused(service: CheckedClient) -> None:
    ada, bob = new_player(service, "Ada"), new_player(service, "Bob")
    first = seek(service, ada, "TF.D1N").json()["seek"]
    refused = seek(service, ada, "DS.D3N")
    assert refused.status_code == 409, refused.text
    body = refused.json()
    assert body["code"] == "already_seeking" and body["seek_id"] == first["seek_id"]
    # The messages name the mode of the seek that waits, not the one asked for.
    assert "TF.D1N" in body["message_en"] and "TF.D1N" in body["message_fi"]
    with service.checked_websocket() as ws:
        greet(ws)
        ws.send_json({"type": "seek", "id": "s", "mode": "DS.D1V", "token": ada["player_token"]})
        answer = recv(ws)
        assert answer["type"] == "error" and answer["code"] == "already_seeking", answer
        # As over REST: the seek that waits, and messages for people in both languages.
        assert answer["seek_id"] == first["seek_id"] and answer["id"] == "s"
        assert "TF.D1N" in answer["message_en"] and "TF.D1N" in answer["message_fi"]
    # Bob waits in DS.D3N, where Ada was refused: nobody to pair him with.
    bob_seek = seek(service, bob, "DS.D3N").json()["seek"]
    assert wave(service) == 0
    assert poll(service, ada, first["seek_id"])["status"] == "waiting"
    cancelled = service.delete(
        f"/pairing/seeks/{first['seek_id']}", headers=auth(ada["player_token"])
    )
    assert cancelled.json()["seek"]["status"] == "cancelled"
    again = seek(service, ada, "DS.D3N")
    assert again.status_code == 201, again.text
    assert wave(service) == 1
    assert poll(service, bob, bob_seek["seek_id"])["status"] == "paired"
    # Paired: Ada may seek again, in any mode.
    assert seek(service, ada, "TF.D1N").status_code == 201


@contextlib.asynccontextmanager
async def instance(redis_url: str) -> AsyncIterator[Starlette]:
    # Waves only when the test runs one.
    settings = Settings(store_url=redis_url, winnable_pool_size=0, pairing_wave_seconds=3600)
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


async def attempt(pairing: Pairing, token: str, mode: str) -> dict[str, Any]:
    try:
        return {"seek": await pairing.seek(token, mode)}
    except Exception as exc:
        return {"refused": exc}


async def test_two_instances_accept_one_of_two_seeks_sent_at_once(clean_redis: str) -> None:
    async with instance(clean_redis) as one, instance(clean_redis) as two:
        first: Pairing = one.state.pairing
        second: Pairing = two.state.pairing
        players = [await one.state.players.create(f"P{n}") for n in range(30)]
        tried = await asyncio.gather(
            *(
                asyncio.gather(
                    attempt(first, p["player_token"], "TF.D3N"),
                    attempt(second, p["player_token"], "DS.D1N"),
                )
                for p in players
            )
        )
        for answers in tried:
            accepted = [a["seek"] for a in answers if "seek" in a]
            refused = [a["refused"] for a in answers if "refused" in a]
            assert len(accepted) == 1 and len(refused) == 1, answers
            assert refused[0].code == "already_seeking"
            assert refused[0].extra["seek_id"] == accepted[0]["seek_id"]
        counts = [len(await first.seeks.waiting(mode)) for mode in ("TF.D3N", "DS.D1N")]
        assert sum(counts) == len(players)
        # Two of them paired by a wave: free to seek again, in the other mode.
        a, b = players[0], players[1]
        kept = {
            p["player_id"]: next(x["seek"] for x in answers if "seek" in x)
            for p, answers in zip(players[:2], tried[:2], strict=True)
        }
        for p in (a, b):
            await first.cancel(kept[p["player_id"]]["seek_id"], p["player_token"])
        again = [
            await first.seek(a["player_token"], "DS.D3V"),
            await second.seek(b["player_token"], "DS.D3V"),
        ]
        await second.wave()
        for made in again:
            paired = await first.seeks.get(made["seek_id"])
            assert paired is not None and paired.status == "paired"
        for p in (a, b):
            assert (await attempt(first, p["player_token"], "TF.D1N")).get("seek") is not None


async def test_a_renewed_seek_keeps_its_player_from_seeking_again(clean_redis: str) -> None:
    """In Redis the player's pointer to their waiting seek expires with the kept seeks
    (an hour): a seek renewed longer than that renews the pointer too, or its player
    could seek again while it waits."""
    async with opened(clean_redis) as store:
        seeks = store.seeks
        first = _seek("TF.D1N", "a1", "ada")
        assert await seeks.add(first, 60) is None
        client = redis.Redis.from_url(clean_redis)
        try:
            pointer = "sol:{pair}:player:ada"
            assert client.expire(pointer, 1)
            await seeks.renew(first.seek_id, 60)
            await asyncio.sleep(1.2)
            assert client.ttl(pointer) > 60
        finally:
            client.close()
        assert await seeks.add(_seek("DS.D3N", "a2", "ada"), 60) == first.seek_id
