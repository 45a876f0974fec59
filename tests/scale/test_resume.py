"""Resuming after a dropped connection, on whichever instance the client lands next.

A player plays a long game over WebSocket; its connection is cut at random points (the
TCP connection aborted, no close frame, sometimes with an action in flight) and it
reconnects to a random instance with ``since=<last version it has>``. Meanwhile another
client moves the game on over HTTP. The state rebuilt from patches must always equal the
server's, with every version seen exactly once. An instance with a small
``CATCHUP_LIMIT`` answers too old a ``since`` with ``recovered: false`` and a snapshot.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from service import engine
from tests.scale.harness import (
    GameView,
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
    running,
)

ACTIONS = 150
CATCHUP_LIMIT = 5


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Instance]]:
    """Three ordinary instances and a fourth with ``CATCHUP_LIMIT=5``, on one Redis."""
    workdir = tmp_path_factory.mktemp("resume")
    with (
        private_redis(workdir, "--appendonly", "no") as redis,
        instances(redis.url, workdir, 3) as started,
    ):
        limited = Instance("limited", redis.url, workdir, catchup_limit=CATCHUP_LIMIT)
        with running(limited):
            yield [*started, limited]


def _advance(local: engine.Klondike, version: int, view: GameView) -> int:
    """Plays on the local copy every change the view has beyond ``version``."""
    for v in range(version + 1, view.version + 1):
        local.play_text(view.notations[v])
    return view.version


async def test_random_drops_and_resumes_keep_the_state_exact(cluster: list[Instance]) -> None:
    trio = cluster[:3]
    rng = random.Random(11)
    async with http_client() as http:
        game = await create_game(http, trio[0])
        local = engine.new_game(game.code)
        local_version = 0
        views: dict[str, GameView] = {}
        peer = await Peer.open(rng.choice(trio), "player", views=views)
        answer = await peer.subscribe(game.game_id, game.token)
        assert answer["recovered"] is False
        drops = recovered = others = 0
        accepted_by_me = 0
        try:
            next_drop = rng.randint(3, 15)
            while accepted_by_me < ACTIONS:
                local_version = _advance(local, local_version, views[game.game_id])
                action = pick_action(local, rng)
                assert action is not None
                request_id = rid()
                if accepted_by_me < next_drop:
                    result = await peer.act(game.game_id, action, local_version, request_id)
                    assert result["type"] == "result" and result["status"] == "accepted", result
                    assert result["version"] == local_version + 1
                    accepted_by_me += 1
                    await peer.wait_version(game.game_id, result["version"])
                    continue

                # Drop the connection, sometimes with this action in flight.
                in_flight = rng.random() < 0.5
                if in_flight:
                    await peer.send(
                        {
                            "type": "undo" if action == "undo" else "action",
                            "id": request_id,
                            "game_id": game.game_id,
                            **({} if action == "undo" else {"action": action}),
                            "expected_version": local_version,
                        }
                    )
                peer.abort()
                await peer.close()
                drops += 1
                if not in_flight:
                    # Someone else plays while this client is away (another instance).
                    other = rng.choice(trio)
                    for _ in range(rng.randint(0, 3)):
                        theirs = pick_action(local, rng)
                        assert theirs is not None
                        response = await post_action(http, other, game, theirs, local_version)
                        assert response.status_code == 200, response.text
                        local.play_text(response.json()["notation"])
                        local_version += 1
                        others += 1
                view = views[game.game_id]
                since = view.version
                peer = await Peer.open(rng.choice(trio), f"player-{drops}", views=views)
                answer = await peer.subscribe(game.game_id, game.token, since=since)
                assert answer["type"] == "subscribed", answer
                assert answer["recovered"] is True, answer
                recovered += 1
                view = await peer.wait_version(game.game_id, answer["version"])
                if in_flight:
                    # The client does not know whether its action got through: it sends
                    # it again with the same request id and learns which. Until then the
                    # action may still land (its old connection's instance commits it
                    # after this one answered the resume), so the state is compared once
                    # it is settled.
                    result = await peer.act(game.game_id, action, since, request_id)
                    assert result["type"] == "result", result
                    assert result["status"] == "accepted", result
                    assert result["version"] == since + 1
                    if result["duplicate"]:
                        assert view.version >= since + 1
                    accepted_by_me += 1
                    await peer.wait_version(game.game_id, result["version"])
                version, state = await get_game(http, rng.choice(trio), game.game_id)
                assert view.version == version and view.state == state
                next_drop = accepted_by_me + rng.randint(3, 15)

            view = views[game.game_id]
            version, state = await get_game(http, trio[0], game.game_id)
            assert view.version == version == accepted_by_me + others
            assert view.state == state
            assert view.versions == list(range(1, version + 1))
            assert view.snapshots == 1
            assert drops >= 8 and recovered == drops
        finally:
            await peer.close()


async def test_a_gap_over_the_catchup_limit_gets_a_snapshot(cluster: list[Instance]) -> None:
    first, limited = cluster[0], cluster[3]
    rng = random.Random(5)
    async with http_client() as http:
        game = await create_game(http, first)

        async def play(count: int) -> None:
            for _ in range(count):
                action = pick_action(game.local, rng, undo_share=0.0)
                assert action is not None
                response = await post_action(http, first, game, action)
                assert response.status_code == 200, response.text
                game.local.play_text(response.json()["notation"])

        await play(3)
        initial = GameView()
        initial.snapshot(0, game.created["state"])
        async with await Peer.open(limited, "limited", views={game.game_id: initial}) as peer:
            answer = await peer.subscribe(game.game_id, since=0)  # gap of 3: replayed
            assert answer["recovered"] is True and answer["version"] == 3
            view = await peer.wait_version(game.game_id, 3)
            assert view.state == game.local.public_view()
        await play(9)  # version 12
        for since in (2, 99):  # a gap of 10 > 5, and a version the game never had
            views: dict[str, GameView] = {}
            async with await Peer.open(limited, f"since-{since}", views=views) as peer:
                answer = await peer.subscribe(game.game_id, since=since)
                assert answer["type"] == "subscribed" and answer["recovered"] is False, answer
                assert answer["version"] == 12
                view = views[game.game_id]
                assert view.snapshots == 1 and view.version == 12
                assert view.state == game.local.public_view()
                assert view.state == (await get_game(http, limited, game.game_id))[1]
        # The same over HTTP.
        response = await http.get(
            f"{limited.url}/games/{game.game_id}/changes", params={"since": 2}
        )
        body = response.json()
        assert body["recovered"] is False and body["changes"] == []
        assert body["state"] == game.local.public_view()
        # An ordinary instance (limit 1000) replays the same gap.
        response = await http.get(f"{first.url}/games/{game.game_id}/changes", params={"since": 2})
        body = response.json()
        assert body["recovered"] is True
        assert [c["version"] for c in body["changes"]] == list(range(3, 13))
