"""A Redis restart under running instances: watchers must catch up on what they missed
while the change feed was down."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests.service.helpers import greet, post_action, public_state, subscribe, try_recv
from tests.support import RedisServer, new_game, service_client

PERSISTENT = ("--appendonly", "yes", "--appendfsync", "always")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RedisServer]:
    private = RedisServer(tmp_path)
    private.start(*PERSISTENT)
    try:
        yield private
    finally:
        private.stop()


def restart_before_the_feed_is_back(server: RedisServer) -> None:
    """Restarts Redis; returns while no instance has its change feed connected again."""
    for _ in range(5):
        server.stop()
        server.start(*PERSISTENT)
        admin = redis.Redis(port=server.port)
        try:
            if not admin.client_list(_type="pubsub"):
                return
        finally:
            admin.close()
    pytest.fail("the change feed always came back at once")


def commit_after_restart(client: object, game_id: str, token: str) -> None:
    # The first request on a connection that died with the restart may be refused (503).
    for _ in range(3):
        response = post_action(client, game_id, token, "d")  # type: ignore[arg-type]
        if response.status_code == 200:
            return
        assert response.json()["code"] == "store_unavailable"
    pytest.fail("no action was accepted after the restart")


def test_watchers_catch_up_after_a_redis_restart(server: RedisServer) -> None:
    with service_client(server.url) as here, service_client(server.url) as there:
        created = new_game(here, game="DS")
        game_id, token = created["game_id"], created["player_token"]
        with here.checked_websocket() as watcher:
            greet(watcher)
            _, view = subscribe(watcher, game_id)
            commit_after_restart(there, game_id, token)
            frame = try_recv(watcher, 5.0)
            assert frame is not None
            view.feed(frame)
            assert view.version == 1

            # Changes made while this instance's feed is down never reach it through
            # pub/sub: they must come from the resynchronisation once it is back.
            restart_before_the_feed_is_back(server)
            commit_after_restart(there, game_id, token)
            commit_after_restart(there, game_id, token)
            version, state = public_state(there, game_id)
            # The feed tries again with a backoff of up to 5 s, each restart above one
            # more try that failed: three times that, for a machine that starts Redis slowly.
            deadline = time.monotonic() + 15.0
            while view.version < version and time.monotonic() < deadline:
                frame = try_recv(watcher, 0.5)
                if frame is not None and frame["type"] != "error":
                    view.feed(frame)
            assert view.version == version, [f["type"] for f in watcher.received]
            assert view.state == state
