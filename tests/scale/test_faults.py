"""Faults: an instance killed with SIGKILL mid-game, and Redis stopped and restarted.

- Kill: players on three instances play; one instance is killed in the middle. Its
  clients reconnect to another instance, resume from their last version, send again the
  request they had in flight (same request id), and play on. No action that was answered
  ``accepted`` may be missing from the game's record.
- Redis outage (Redis with AOF): meanwhile every HTTP request answers 503
  ``store_unavailable`` within a bounded time, WebSocket actions get a
  ``store_unavailable`` error and ``/readyz`` says 503. After Redis is back on the same
  port the games are still there, the instances become ready by themselves, and changes
  reach the subscribers of other instances again.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from websockets.exceptions import ConnectionClosed

from service import engine
from tests.scale.harness import (
    HTTP_TIMEOUT,
    GameView,
    Instance,
    Peer,
    PeerClosed,
    create_game,
    get_game,
    get_record,
    http_client,
    instances,
    pick_action,
    post_action,
    private_redis,
    replay_record,
    rid,
)
from tests.support import RedisServer

# An outage must be answered within this (the clients' timeout is HTTP_TIMEOUT).
OUTAGE_ANSWER_SECONDS = 8.0
RECOVERY_SECONDS = 20.0


@pytest.fixture(scope="module")
def redis_aof(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RedisServer, Path]]:
    workdir = tmp_path_factory.mktemp("faults")
    with private_redis(workdir, "--appendonly", "yes") as redis:
        yield redis, workdir


class Player:
    """A player that survives the loss of its instance: it moves to another one."""

    def __init__(self, label: str, game: Any, pool: list[Instance], rng: random.Random) -> None:
        self.label = label
        self.game = game
        self.pool = pool
        self.rng = rng
        self.views: dict[str, GameView] = {}
        self.local = engine.new_game(game.code)
        self.version = 0
        self.accepted: dict[int, tuple[str, str]] = {}  # version -> (request id, notation)
        self.moves = 0
        self.peer: Peer | None = None

    async def connect(self, instance: Instance) -> None:
        since = self.views[self.game.game_id].version if self.views else None
        self.peer = await Peer.open(instance, f"{self.label}@{instance.name}", views=self.views)
        answer = await self.peer.subscribe(self.game.game_id, self.game.token, since=since)
        assert answer["type"] == "subscribed", answer
        if since is not None:
            assert answer["recovered"] is True

    async def play(self, count: int, dead: set[str]) -> None:
        pending: tuple[str, str, int] | None = None
        while len(self.accepted) < count:
            assert self.peer is not None
            view = self.views[self.game.game_id]
            for v in range(self.version + 1, view.version + 1):
                self.local.play_text(view.notations[v])
            self.version = max(self.version, view.version)
            if pending is None:
                action = pick_action(self.local, self.rng)
                assert action is not None
                pending = (action, rid(), self.version)
            action, request_id, expected = pending
            try:
                result = await self.peer.act(self.game.game_id, action, expected, request_id)
            except (PeerClosed, ConnectionClosed, OSError):
                await self.peer.close()
                self.moves += 1
                alive = [i for i in self.pool if i.name not in dead and i.alive()]
                await self.connect(self.rng.choice(alive))
                continue  # the same request again: applied once, whatever happened
            assert result["type"] == "result" and result["status"] == "accepted", result
            assert result["version"] == expected + 1
            self.accepted[result["version"]] = (request_id, result["notation"])
            pending = None
            await self.peer.wait_version(self.game.game_id, result["version"])

    async def close(self) -> None:
        if self.peer is not None:
            await self.peer.close()


async def test_a_killed_instance_loses_no_accepted_action(
    redis_aof: tuple[RedisServer, Path],
) -> None:
    redis, workdir = redis_aof
    rng = random.Random(3)
    with instances(redis.url, workdir, 3) as trio:
        victim = trio[1]
        dead: set[str] = set()
        async with http_client() as http:
            games = [await create_game(http, trio[i % 3]) for i in range(3)]
            players = [
                Player(f"player{i}", game, trio, random.Random(rng.random()))
                for i, game in enumerate(games)
            ]
            watcher_views: dict[str, GameView] = {}
            watcher = await Peer.open(victim, "watcher@victim", views=watcher_views)
            try:
                for i, player in enumerate(players):
                    await player.connect(trio[i % 3])  # player1 is on the victim
                for game in games:
                    await watcher.subscribe(game.game_id)

                async def kill_midway() -> None:
                    deadline = time.monotonic() + 30
                    while sum(len(p.accepted) for p in players) < 45:
                        assert time.monotonic() < deadline, "the players made no progress"
                        await asyncio.sleep(0.005)
                    dead.add(victim.name)
                    victim.kill()

                await asyncio.gather(kill_midway(), *(p.play(40, dead) for p in players))
                assert not victim.alive()
                assert players[1].moves >= 1, "the victim's player never had to move"

                # The watcher of the dead instance resumes on another one.
                await watcher.close()
                assert watcher.closed
                watcher = await Peer.open(trio[2], "watcher@c", views=watcher_views)
                for game in games:
                    since = watcher_views[game.game_id].version
                    answer = await watcher.subscribe(game.game_id, since=since)
                    assert answer["recovered"] is True

                for player in players:
                    game = player.game
                    record = await get_record(http, trio[0], game)
                    for version, (_, notation) in player.accepted.items():
                        assert record["actions"][version - 1] == notation, (player.label, version)
                    assert record["version"] == len(player.accepted)
                    replayed = replay_record(record)
                    stored = await get_game(http, trio[2], game.game_id)
                    assert stored == (record["version"], replayed.public_view())
                    for views in (player.views, watcher_views):
                        view = views[game.game_id]
                        if view.version < record["version"]:
                            await watcher.wait_version(game.game_id, record["version"])
                        assert view.versions == list(range(1, record["version"] + 1))
                        assert view.state == replayed.public_view()
                        assert not view.problems
            finally:
                await watcher.close()
                for player in players:
                    await player.close()


async def _timed(call: Any) -> tuple[float, Any]:
    started = time.monotonic()
    result = await call
    return time.monotonic() - started, result


async def test_a_redis_outage_is_reported_and_recovered_from(
    redis_aof: tuple[RedisServer, Path],
) -> None:
    redis, workdir = redis_aof
    rng = random.Random(9)
    with instances(redis.url, workdir, 2) as (a, b):
        async with http_client(timeout=HTTP_TIMEOUT) as http:
            game = await create_game(http, a)
            player = await Peer.open(a, "player@a")
            watcher = await Peer.open(b, "watcher@b")
            try:
                await player.subscribe(game.game_id, game.token)
                await watcher.subscribe(game.game_id)
                for _ in range(5):
                    action = pick_action(game.local, rng)
                    assert action is not None
                    result = await player.act(game.game_id, action)
                    assert result["status"] == "accepted", result
                    game.local.play_text(result["notation"])
                await watcher.wait_version(game.game_id, 5)

                redis.stop()
                try:
                    await _during_outage(http, a, b, game, player)
                finally:
                    redis.start("--appendonly", "yes")

                # The instances notice by themselves.
                for instance in (a, b):
                    elapsed = await _wait_ready(http, instance, RECOVERY_SECONDS)
                    assert elapsed < RECOVERY_SECONDS
                # The game survived (AOF).
                for instance in (a, b):
                    assert await get_game(http, instance, game.game_id) == (
                        5,
                        game.local.public_view(),
                    )
                # At once: an action on A reaches the watcher on B.
                action = pick_action(game.local, rng)
                assert action is not None
                response = await post_action(http, a, game, action, expected_version=5)
                assert response.status_code == 200, response.text
                game.local.play_text(response.json()["notation"])
                view = await watcher.wait_version(game.game_id, 6, timeout=RECOVERY_SECONDS)
                assert view.state == game.local.public_view()
                await player.wait_version(game.game_id, 6, timeout=RECOVERY_SECONDS)
                # And the player's own socket works again.
                action = pick_action(game.local, rng)
                assert action is not None
                result = await player.act(game.game_id, action)
                assert result["status"] == "accepted" and result["version"] == 7, result
                game.local.play_text(result["notation"])
                for peer in (player, watcher):
                    view = await peer.wait_version(game.game_id, 7, timeout=RECOVERY_SECONDS)
                    assert view.versions == list(range(1, 8)), peer.label
                    assert view.state == game.local.public_view()
            finally:
                await player.close()
                await watcher.close()


async def _during_outage(
    http: httpx2.AsyncClient, a: Instance, b: Instance, game: Any, player: Peer
) -> None:
    checks = {
        "get a": http.get(f"{a.url}/games/{game.game_id}"),
        "get b": http.get(f"{b.url}/games/{game.game_id}"),
        "action b": post_action(http, b, game, "d"),
        "create a": http.post(f"{a.url}/games", json={"game": "TF"}),
        "changes b": http.get(f"{b.url}/games/{game.game_id}/changes", params={"since": 1}),
    }
    for name, call in checks.items():
        elapsed, response = await _timed(call)
        assert response.status_code == 503, (name, response.text)
        assert response.json()["code"] == "store_unavailable", name
        assert elapsed < OUTAGE_ANSWER_SECONDS, (name, elapsed)
    for instance in (a, b):
        elapsed, response = await _timed(http.get(f"{instance.url}/readyz"))
        assert response.status_code == 503 and response.json()["status"] == "unavailable"
        assert elapsed < OUTAGE_ANSWER_SECONDS
    elapsed, frame = await _timed(player.act(game.game_id, "d", timeout=HTTP_TIMEOUT))
    assert frame["type"] == "error" and frame["code"] == "store_unavailable", frame
    assert elapsed < OUTAGE_ANSWER_SECONDS
    # The connection stays usable.
    await player.ping()


async def _wait_ready(http: httpx2.AsyncClient, instance: Instance, timeout: float) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            response = await http.get(f"{instance.url}/readyz", timeout=2.0)
            if response.status_code == 200:
                return time.monotonic() - started
        except httpx2.TransportError:
            pass
        await asyncio.sleep(0.1)
    pytest.fail(f"{instance} not ready {timeout} s after Redis came back")


async def test_after_an_outage_no_request_fails_on_a_dead_pooled_connection(
    redis_aof: tuple[RedisServer, Path],
) -> None:
    redis, workdir = redis_aof
    with instances(redis.url, workdir, 1) as (a,):
        async with http_client() as http:
            game = await create_game(http, a)
            url = f"{a.url}/games/{game.game_id}"
            # Concurrent reads leave several connections in the instance's pool.
            responses = await asyncio.gather(*(http.get(url) for _ in range(16)))
            assert {r.status_code for r in responses} == {200}
            redis.stop()
            redis.start("--appendonly", "yes")
            await _wait_ready(http, a, RECOVERY_SECONDS)
            responses = await asyncio.gather(*(http.get(url) for _ in range(16)))
            failed = [r.json()["code"] for r in responses if r.status_code != 200]
            assert not failed, f"{len(failed)} of 16 reads failed after recovery: {failed[:3]}"


@pytest.mark.slow
async def test_a_change_made_while_the_feed_reconnects_reaches_other_instances(
    redis_aof: tuple[RedisServer, Path],
) -> None:
    """A change committed after Redis is back but before another instance's change feed
    has reconnected reaches that instance's subscribers through the resync, even though
    the resync's first reads meet pooled connections that died with Redis."""
    redis, workdir = redis_aof
    with instances(redis.url, workdir, 2) as (a, b):
        async with http_client() as http:
            game = await create_game(http, a)
            async with await Peer.open(b, "watcher@b") as watcher:
                await watcher.subscribe(game.game_id)
                response = await post_action(http, a, game, "d", expected_version=0)
                assert response.status_code == 200, response.text
                await watcher.wait_version(game.game_id, 1)
                redis.stop()
                # Long enough for B's change feed to back off for seconds between tries.
                await asyncio.sleep(4.0)
                redis.start("--appendonly", "yes")
                await _wait_ready(http, a, RECOVERY_SECONDS)  # A only: B is left alone
                response = await post_action(http, a, game, "u", expected_version=1)
                assert response.status_code == 200, response.text
                # B's feed comes back within its capped backoff (5 s) and must resync.
                await watcher.wait_version(game.game_id, 2, timeout=10.0)
