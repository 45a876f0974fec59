"""Quick pairing on real Redis with two instances running waves over one pool: 200
seekers on each, some over REST and some over a WebSocket, some cancelling and some
whose socket drops. Every seeker left is paired exactly once, into a race with exactly
its opponent; nobody is paired twice, nobody is lost, and no cancelled seek is paired.

Both instances run in this test's event loop (each with its own store, Redis
connections and waves); the WebSocket seekers use the connection's seeking layer
(``ws.seeking``) with an outbox that keeps what it is sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest
from starlette.applications import Starlette

from service.app import create_app
from service.config import Settings
from service.pairing import Pairing, seat_token
from service.protocol.ws import CancelSeekMessage, SeekMessage
from service.store import hash_token
from service.store.race_document import RaceDocument
from service.ws.seeking import Seeking

SEEKERS_PER_INSTANCE = 200
MODES = ("TF.D1N", "DS.D3N")
# Long enough for every wave to have run many times over; the loop below ends as soon
# as the pool has settled.
SETTLE_SECONDS = 120


class Outbox:
    """What a WebSocket connection would have sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


@contextlib.asynccontextmanager
async def instance(redis_url: str) -> AsyncIterator[Starlette]:
    settings = Settings(store_url=redis_url, winnable_pool_size=0, pairing_wave_seconds=0.05)
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


async def one_seeker(
    pairing: Pairing, player: dict[str, Any], mode: str, kind: str, rng: random.Random
) -> dict[str, Any]:
    """One seeker's life: ``rest``, ``ws``, ``cancel`` (REST, cancels soon) or ``drop``
    (WebSocket, the socket closes soon). What it did and was told."""
    token = player["player_token"]
    await asyncio.sleep(rng.random() * 0.5)
    outcome: dict[str, Any] = {"player": player["player_id"], "kind": kind, "token": token}
    if kind in ("rest", "cancel"):
        seek = await pairing.seek(token, mode)
        outcome["seek_id"] = seek["seek_id"]
        if kind == "cancel":
            await asyncio.sleep(rng.random() * 0.2)
            outcome["cancel"] = (await pairing.cancel(seek["seek_id"], token))["status"]
        return outcome
    outbox = Outbox()
    seeking = Seeking(outbox, pairing)  # type: ignore[arg-type]
    await seeking.seek(SeekMessage(type="seek", id="s", mode=mode, token=token))  # type: ignore[arg-type]
    outcome["seek_id"] = outbox.sent[0]["seek"]["seek_id"]
    outcome["outbox"] = outbox
    outcome["seeking"] = seeking
    if kind == "drop":
        await asyncio.sleep(rng.random() * 0.2)
        await seeking.stop()
    elif rng.random() < 0.1:
        # A cancel over the WebSocket of a seek not this connection's: refused, no change.
        with contextlib.suppress(Exception):
            await seeking.cancel(CancelSeekMessage(type="cancel_seek", id="c", seek_id="x-y"))
    return outcome


async def settle(pairing: Pairing) -> None:
    """Until at most one seek waits per mode (an odd one out) and no wave pairs more."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SETTLE_SECONDS
    while loop.time() < deadline:
        waiting = [len(await pairing.seeks.waiting(mode)) for mode in MODES]
        if all(count <= 1 for count in waiting):
            return
        await asyncio.sleep(0.2)


async def told_of_pairing(outcomes: list[dict[str, Any]], final: dict[str, Any]) -> None:
    """Until every WebSocket seeker that stayed and was paired has been told."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SETTLE_SECONDS
    while loop.time() < deadline:
        untold = [
            o
            for o in outcomes
            if o["kind"] == "ws"
            and final[o["seek_id"]].status == "paired"
            and not any(m["type"] == "paired" for m in o["outbox"].sent)
        ]
        if not untold:
            return
        await asyncio.sleep(0.1)


@pytest.mark.slow
async def test_two_instances_pair_every_seeker_exactly_once(clean_redis: str) -> None:
    rng = random.Random(35)
    async with instance(clean_redis) as one, instance(clean_redis) as two:
        lives = []
        for app in (one, two):
            pairing: Pairing = app.state.pairing
            for index in range(SEEKERS_PER_INSTANCE):
                player = await app.state.players.create(f"P{index}")
                kind = rng.choices(["rest", "ws", "cancel", "drop"], [5, 3, 1, 1])[0]
                mode = MODES[index % len(MODES)]
                lives.append(one_seeker(pairing, player, mode, kind, rng))
        outcomes = await asyncio.gather(*lives)
        await settle(one.state.pairing)
        seeks = one.state.games.store.seeks
        store = one.state.games.store
        final = {o["seek_id"]: await seeks.get(o["seek_id"]) for o in outcomes}
        races: dict[str, list[str]] = {}
        for outcome in outcomes:
            seek = final[outcome["seek_id"]]
            assert seek is not None
            cancelled = outcome.get("cancel") == "cancelled"
            if cancelled:
                assert seek.status == "cancelled", outcome
            if seek.status == "paired":
                assert seek.paired is not None
                races.setdefault(seek.paired["race_id"], []).append(outcome["seek_id"])
            if outcome["kind"] in ("rest", "ws"):
                # Never cancelled: paired, or the one left waiting in its mode.
                assert seek.status in ("paired", "waiting"), outcome
        waiting = Counter(s.mode for s in final.values() if s is not None and s.status == "waiting")
        assert all(count <= 1 for count in waiting.values()), waiting
        # Each race holds exactly the two seekers that point to it, each once.
        paired_players: Counter[str] = Counter()
        by_seek = {o["seek_id"]: o for o in outcomes}
        for race_id, seek_ids in races.items():
            assert len(seek_ids) == 2, (race_id, seek_ids)
            stored = await store.load_race(race_id)
            doc = RaceDocument.parse(stored.doc)
            accounts = sorted(p.account for p in doc.players)
            players = sorted(by_seek[s]["player"] for s in seek_ids)
            assert accounts == players and players[0] != players[1]
            assert doc.rated and doc.start_at is not None
            for seek_id in seek_ids:
                seek = final[seek_id]
                assert seek is not None and seek.paired is not None
                seat = next(p for p in doc.players if p.player_id == seek.paired["player_id"])
                token = seat_token(by_seek[seek_id]["token"], seek_id)
                assert seat.token_hash == hash_token(token)
            paired_players.update(players)
        assert max(paired_players.values(), default=1) == 1
        assert len(races) >= (len(outcomes) // 2) // 2  # most seekers stayed
        # A WebSocket seeker that was paired heard it exactly once, with its race.
        await told_of_pairing(outcomes, final)
        for outcome in outcomes:
            if "outbox" not in outcome:
                continue
            told = [m for m in outcome["outbox"].sent if m["type"] == "paired"]
            seek = final[outcome["seek_id"]]
            assert seek is not None
            if seek.status == "paired" and outcome["kind"] == "ws":
                assert seek.paired is not None
                assert [m["race_id"] for m in told] == [seek.paired["race_id"]], outcome
            else:
                assert len(told) <= 1
            await outcome["seeking"].stop()
