"""Floods, on a real process with the default limits: a WebSocket client that keeps
sending far over its rate is closed, one that plays fast within it never meets the
limit; HTTP writes and changes pages are limited per client address.

No assertion here is about speed: the flood test only bounds how long it waits for the
close, far longer than the service needs.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator

import orjson
import pytest
from websockets.exceptions import ConnectionClosed

from service.config import Settings
from tests.scale.harness import (
    Instance,
    Peer,
    auth,
    create_game,
    http_client,
    metrics,
    pick_action,
    post_action,
    rid,
    running,
)

DEFAULTS = Settings()
# The limits under test at their defaults (the harness lifts them for other tests).
LIMITS = {
    "rate_per_second": DEFAULTS.rate_per_second,
    "rate_burst": DEFAULTS.rate_burst,
    "flood_dropped_frames": DEFAULTS.flood_dropped_frames,
    "flood_window_seconds": DEFAULTS.flood_window_seconds,
    "http_write_rate_per_second": DEFAULTS.http_write_rate_per_second,
    "http_write_burst": DEFAULTS.http_write_burst,
    "changes_rate_per_second": DEFAULTS.changes_rate_per_second,
    "changes_burst": DEFAULTS.changes_burst,
}
FLOOD_FRAMES_PER_SECOND = 2900
FLOOD_MAX_SECONDS = 20.0


@pytest.fixture(scope="module")
def instance(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Instance]:
    workdir = tmp_path_factory.mktemp("floods")
    with running(Instance("defaults", "memory://", workdir, **LIMITS)) as started:
        yield started


async def test_a_steady_flood_is_closed_and_mostly_unanswered(instance: Instance) -> None:
    """2,900 frames a second, steadily: never long runs of refusals in a row (the bucket
    refills between them), yet far over the rate: closed with 1008."""
    async with http_client() as http:
        before = await metrics(http, instance)
        async with await Peer.open(instance, "flooder", check=False) as peer:
            frame = orjson.dumps({"type": "ping", "id": "flood"}).decode()
            batch = FLOOD_FRAMES_PER_SECOND // 100
            started = time.monotonic()
            sent = 0
            with pytest.raises(ConnectionClosed):
                while time.monotonic() - started < FLOOD_MAX_SECONDS:
                    for _ in range(batch):
                        await peer.send_raw(frame)
                    sent += batch
                    await asyncio.sleep(0.01)
            await peer.wait(lambda: peer.closed, 10, "the close")
            assert peer.close_code == 1008
            assert peer.ws.close_reason and "flood" in peer.ws.close_reason
            limited = [f for f in peer.frames if f.get("code") == "rate_limited"]
            pongs = [f for f in peer.frames if f["type"] == "pong"]
            # Dropped unread: a refusal is answered at most once a second, or after a
            # frame that was served.
            assert 1 <= len(limited) <= len(pongs) + 1 + FLOOD_MAX_SECONDS, len(limited)
            assert len(limited) < sent / 10
        after = await metrics(http, instance)
    dropped = after["solitaire_ws_frames_dropped_total"] - before.get(
        "solitaire_ws_frames_dropped_total", 0.0
    )
    assert dropped > DEFAULTS.flood_dropped_frames
    closes = after["solitaire_ws_flood_closes_total"] - before.get(
        "solitaire_ws_flood_closes_total", 0.0
    )
    assert closes == 1
    assert not instance.errors()
    # Only that connection: a new one is served.
    async with await Peer.open(instance, "next") as peer:
        await peer.ping()


async def test_a_fast_legal_player_is_never_limited(instance: Instance) -> None:
    """A player at just under the allowed rate, over WebSocket and over HTTP."""
    rng = random.Random(5)
    interval = 1.0 / (DEFAULTS.rate_per_second * 0.9)
    async with http_client() as http:
        game = await create_game(http, instance)
        async with await Peer.open(instance, "fast", check=False) as peer:
            await peer.subscribe(game.game_id, game.token)
            await asyncio.sleep(interval)
            for _ in range(int(DEFAULTS.rate_per_second * 4)):
                action = pick_action(game.local, rng)
                assert action is not None
                sent = time.monotonic()
                result = await peer.act(game.game_id, action)
                assert result["type"] == "result", result
                assert result["status"] == "accepted", result
                game.local.play_text(result["notation"])
                await asyncio.sleep(max(0.0, interval - (time.monotonic() - sent)))
            assert not [f for f in peer.frames if f.get("code") == "rate_limited"]
            assert not peer.closed
        # Ten actions a second over HTTP, from the same address.
        for _ in range(40):
            action = pick_action(game.local, rng)
            assert action is not None
            sent = time.monotonic()
            response = await post_action(http, instance, game, action)
            assert response.status_code == 200, response.text
            game.local.play_text(response.json()["notation"])
            await asyncio.sleep(max(0.0, 0.1 - (time.monotonic() - sent)))


async def test_http_writes_over_the_rate_get_429_and_change_nothing(instance: Instance) -> None:
    async with http_client() as http:
        await asyncio.sleep(DEFAULTS.http_write_burst / DEFAULTS.http_write_rate_per_second)
        game = await create_game(http, instance)
        # All at once: sent one by one, a loaded machine may serve them no faster than
        # the bucket refills.
        responses = await asyncio.gather(
            *(
                http.post(
                    f"{instance.url}/games/{game.game_id}/actions",
                    json={"action": "d", "request_id": rid()},
                    headers=auth(game.token),
                )
                for _ in range(2 * DEFAULTS.http_write_burst)
            )
        )
        statuses = [response.status_code for response in responses]
        refused = next((r for r in responses if r.status_code == 429), None)
        assert refused is not None, statuses
        assert set(statuses) <= {200, 409, 429}, statuses
        body = refused.json()
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert body["code"] == "rate_limited" and body["status"] == 429
        assert int(refused.headers["retry-after"]) >= 1
        # Refused before anything ran: the game moved only by the accepted draws.
        accepted = statuses.count(200)
        state = await http.get(f"{instance.url}/games/{game.game_id}")
        assert state.json()["version"] == accepted
        # Reads are not writes: still served.
        assert state.status_code == 200
        samples = await metrics(http, instance)
        assert samples['solitaire_http_rate_limited_total{kind="write"}'] >= statuses.count(429)


async def test_changes_pages_over_the_rate_get_429(instance: Instance) -> None:
    async with http_client() as http:
        game = await create_game(http, instance)
        url = f"{instance.url}/games/{game.game_id}/changes?since=0"
        responses = await asyncio.gather(
            *(http.get(url) for _ in range(2 * DEFAULTS.changes_burst + 10))
        )
        statuses = [response.status_code for response in responses]
        refused = next((r for r in responses if r.status_code == 429), None)
        assert refused is not None, statuses
        assert set(statuses) == {200, 429}
        assert refused.json()["code"] == "rate_limited"
        assert int(refused.headers["retry-after"]) >= 1
        # Other reads are not limited by it.
        response = await http.get(f"{instance.url}/games/{game.game_id}")
        assert response.status_code == 200
