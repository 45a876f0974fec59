"""Fan-out across instances: three service processes on one Redis, no sticky sessions.

A player's socket is on instance A, watchers are on B (and C), and the actions arrive over
HTTP at C. Every subscriber must see every change exactly once and in version order, and
the state it rebuilds from the patches must equal what any instance answers to GET.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import pytest

from tests.scale.harness import (
    Instance,
    Peer,
    create_game,
    get_game,
    http_client,
    instances,
    pick_action,
    post_action,
    private_redis,
    rid,
)

ACTIONS = 60


@pytest.fixture(scope="module")
def trio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Instance]]:
    workdir = tmp_path_factory.mktemp("fanout")
    with (
        private_redis(workdir, "--appendonly", "no") as redis,
        instances(redis.url, workdir, 3) as started,
    ):
        yield started


async def test_every_subscriber_sees_every_change_once_in_order(trio: list[Instance]) -> None:
    a, b, c = trio
    rng = random.Random(1)
    async with http_client() as http:
        game = await create_game(http, a)
        player = await Peer.open(a, "player@A")
        watcher_b = await Peer.open(b, "watcher@B")
        watcher_c = await Peer.open(c, "watcher@C")
        subscribers = (player, watcher_b, watcher_c)
        try:
            answer = await player.subscribe(game.game_id, game.token)
            assert answer["role"] == "player"
            for watcher in (watcher_b, watcher_c):
                answer = await watcher.subscribe(game.game_id)
                assert answer["role"] == "watcher"

            version = 0
            for _ in range(ACTIONS):
                action = pick_action(game.local, rng)
                assert action is not None
                response = await post_action(http, c, game, action, request_id=rid())
                assert response.status_code == 200, response.text
                body = response.json()
                version += 1
                assert body["version"] == version and body["duplicate"] is False
                game.local.play_text(body["notation"])

            for peer in subscribers:
                view = await peer.wait_version(game.game_id, version)
                assert view.versions == list(range(1, version + 1)), peer.label
                assert view.snapshots == 1
            # Nothing more arrives (no late repeat of a change).
            await asyncio.sleep(0.3)
            for instance in trio:
                stored_version, state = await get_game(http, instance, game.game_id)
                assert stored_version == version
                assert state == game.local.public_view()
                for peer in subscribers:
                    view = peer.view(game.game_id)
                    assert view.state == state, (peer.label, instance)
                    assert not view.problems, view.problems
                    assert view.versions == list(range(1, version + 1))
            for peer in subscribers:
                assert not peer.schema_errors, peer.schema_errors[:3]
        finally:
            for peer in subscribers:
                await peer.close()


async def test_many_games_many_writers_fan_out(trio: list[Instance]) -> None:
    """Five games played at once from every instance (WebSocket and HTTP in turns);
    each instance has one watcher socket subscribed to all five games."""
    rng = random.Random(2)
    async with http_client() as http:
        games = [await create_game(http, trio[i % 3]) for i in range(5)]
        watchers = [await Peer.open(instance, f"watcher@{instance.name}") for instance in trio]
        players = [await Peer.open(instance, f"player@{instance.name}") for instance in trio]
        try:
            for watcher in watchers:
                for game in games:
                    assert (await watcher.subscribe(game.game_id))["type"] == "subscribed"
            for player in players:
                for game in games:
                    answer = await player.subscribe(game.game_id, game.token)
                    assert answer["role"] == "player"

            async def play(index: int) -> int:
                game = games[index]
                local_rng = random.Random(rng.random())
                for turn in range(30):
                    action = pick_action(game.local, local_rng)
                    assert action is not None
                    where = (index + turn) % 3
                    # The version is pinned: an instance's cached copy of the game may be
                    # stale (see test_contention's stale-cache test for the unpinned case).
                    if turn % 2:
                        result = await players[where].act(game.game_id, action, turn)
                        assert result["type"] == "result", result
                        assert result["status"] == "accepted", result
                        notation = result["notation"]
                    else:
                        response = await post_action(http, trio[where], game, action, turn)
                        assert response.status_code == 200, response.text
                        notation = response.json()["notation"]
                    game.local.play_text(notation)
                return 30

            finals = await asyncio.gather(*(play(i) for i in range(len(games))))
            for game, final in zip(games, finals, strict=True):
                for peer in (*watchers, *players):
                    view = await peer.wait_version(game.game_id, final)
                    assert view.versions == list(range(1, final + 1)), peer.label
                    assert view.state == game.local.public_view(), peer.label
                for instance in trio:
                    assert await get_game(http, instance, game.game_id) == (
                        final,
                        game.local.public_view(),
                    )
        finally:
            for peer in (*watchers, *players):
                await peer.close()
