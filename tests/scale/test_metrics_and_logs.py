"""What an operator sees of one instance: ``/metrics`` and the log.

The counters and gauges must move as the traffic says: games created, connections and
games with subscribers, accepted actions (and their latency histogram), rejections by
rule id, refusals by error code and store errors during a Redis outage. The instance runs
with ``LOG_LEVEL=debug`` and its whole output is captured: one JSON object per line, and
never a game token (nor any part of one), a game code (the code is the deal), a
serialized game, or the face-down cards or the stock of any game played here, in any of
the positions the games went through.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from service import engine
from service.engine.cards import cards_text
from tests.scale.harness import (
    Game,
    Instance,
    Peer,
    auth,
    create_game,
    http_client,
    launched,
    metrics,
    pick_action,
    post_action,
    private_redis,
)
from tests.support import RedisServer

ACTIONS = "solitaire_actions_total"
LATENCY_COUNT = "solitaire_action_seconds_count"
LATENCY_SUM = "solitaire_action_seconds_sum"
CONNECTIONS = "solitaire_ws_connections"
ACTIVE = "solitaire_active_games"
STORE_ERRORS = "solitaire_store_errors_total"
FEED_UP = "solitaire_change_feed_up"
FEED_LOSSES = "solitaire_change_feed_losses_total"


def created(game: str) -> str:
    return f'solitaire_games_created_total{{game="{game}"}}'


def rejected(rule_id: str) -> str:
    return f'solitaire_rejections_total{{rule_id="{rule_id}"}}'


def refused(code: str) -> str:
    return f'solitaire_errors_total{{code="{code}"}}'


class Secrets:
    """What the log must never show, gathered from every position of every game here."""

    def __init__(self) -> None:
        self.texts: set[str] = set()

    def add_game(self, game: Game) -> None:
        self.texts.update({game.token, game.code})
        # A cut frame in a log line still shows part of a token: any 12 characters count.
        self.texts.update(game.token[i : i + 12] for i in range(len(game.token) - 11))
        self.add_position(game.local)

    def add_position(self, position: engine.Klondike) -> None:
        self.texts.add(position.serialize())
        self.texts.add(position.position_text())
        runs = [col[:down] for col, down in zip(position.columns, position.down, strict=True)]
        runs.append(position.stock)
        for cards in runs:
            if len(cards) < 2:
                continue  # one card, two characters: would match ordinary text
            names = [engine.card_text(c) for c in cards]
            if len(cards) > 2:
                # Two cards are four characters, as likely in a random id as anywhere.
                self.texts.add(cards_text(cards))
            self.texts.add(json.dumps(names))
            self.texts.add(json.dumps(names, separators=(",", ":")))
            self.texts.add(" ".join(names))


@pytest.fixture(scope="module")
def observed(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Instance, RedisServer, Secrets]]:
    workdir: Path = tmp_path_factory.mktemp("metrics")
    with private_redis(workdir, "--appendonly", "yes") as redis:
        instance = Instance("observed", redis.url, workdir, log_level="debug")
        with launched(instance):
            yield instance, redis, Secrets()


async def test_metrics_follow_the_traffic(
    observed: tuple[Instance, RedisServer, Secrets],
) -> None:
    instance, redis, secrets = observed
    rng = random.Random(17)
    async with http_client() as http:
        # The instance is shared with the log test, which may have run first in this
        # worker: its connections close as the service notices.
        start = await settled(http, instance)
        assert start[CONNECTIONS] == 0 and start[ACTIVE] == 0
        assert start[FEED_UP] == 1

        game = await create_game(http, instance)
        other = await create_game(http, instance, "TF")
        secrets.add_game(game)
        secrets.add_game(other)
        now = await metrics(http, instance)
        assert now[created("DS")] == start.get(created("DS"), 0) + 1
        assert now[created("TF")] == start.get(created("TF"), 0) + 1

        player = await Peer.open(instance, "player")
        watcher = await Peer.open(instance, "watcher")
        try:
            await player.subscribe(game.game_id, game.token)
            await watcher.subscribe(game.game_id)
            await watcher.subscribe(other.game_id)
            now = await metrics(http, instance)
            assert now[CONNECTIONS] == 2
            assert now[ACTIVE] == 2  # two games with subscribers here

            # A rejection over WebSocket (a result) and one over HTTP (a 409).
            result = await player.act(game.game_id, "undo")
            assert result["status"] == "rejected"
            rule = result["rejection"]["rule_id"]
            response = await post_action(http, instance, game, "undo")
            assert response.status_code == 409 and response.json()["rule_id"] == rule
            for _ in range(6):
                action = pick_action(game.local, rng, undo_share=0.0)
                assert action is not None
                result = await player.act(game.game_id, action)
                assert result["status"] == "accepted", result
                game.local.play_text(result["notation"])
                secrets.add_position(game.local)
            # A refusal that is not a rule: a wrong token.
            response = await http.get(
                f"{instance.url}/games/{game.game_id}/record", headers=auth("wrong")
            )
            assert response.status_code == 401

            now = await metrics(http, instance)
            assert now[ACTIONS] == start.get(ACTIONS, 0) + 6
            assert now[LATENCY_COUNT] == start.get(LATENCY_COUNT, 0) + 6
            assert now[LATENCY_SUM] > start.get(LATENCY_SUM, 0)
            buckets = sorted(
                (float(key.split('le="')[1].rstrip('"}')), value)
                for key, value in now.items()
                if key.startswith("solitaire_action_seconds_bucket")
            )
            assert buckets[-1] == (float("inf"), now[LATENCY_COUNT])
            assert all(a[1] <= b[1] for a, b in itertools.pairwise(buckets))
            assert now[rejected(rule)] == start.get(rejected(rule), 0) + 2
            assert now[refused("rule_violation")] == start.get(refused("rule_violation"), 0) + 1
            assert now[refused("unauthorized")] == start.get(refused("unauthorized"), 0) + 1
            assert now.get(STORE_ERRORS, 0) == start.get(STORE_ERRORS, 0)

            # A Redis outage: each failed store operation is counted.
            redis.stop()
            try:
                response = await http.get(f"{instance.url}/games/{game.game_id}")
                assert response.status_code == 503
                result = await player.act(game.game_id, "d")
                assert result["type"] == "error" and result["code"] == "store_unavailable"
                during = await metrics(http, instance)
            finally:
                redis.start("--appendonly", "yes")
            assert during[STORE_ERRORS] >= start.get(STORE_ERRORS, 0) + 2
            assert during[refused("store_unavailable")] >= 2
            assert during[ACTIONS] == now[ACTIONS]  # nothing was accepted meanwhile
        finally:
            await player.close()
            await watcher.close()
        # Closed while their pumps catch up from the logs after the outage: each pump
        # ends (a cancellation lost in a Redis round trip is asked again) and its
        # connection is no longer counted.
        # The change feed's next attempt to subscribe again may be seconds away.
        end = await settled(http, instance, feed_up=True)
        assert end[CONNECTIONS] == 0 and end[ACTIVE] == 0
        # The outage cost the change feed its connection (it had games to follow), and
        # it is back.
        assert end[FEED_LOSSES] >= start[FEED_LOSSES] + 1
        assert end[FEED_UP] == 1


async def settled(
    http: httpx2.AsyncClient, instance: Instance, feed_up: bool = False, within: float = 15
) -> dict[str, float]:
    """The metrics once the instance counts no connection and no active game (closed
    sockets take a moment to be noticed, longer on a busy machine) and, with
    ``feed_up``, its change feed is up; or after ``within`` seconds."""
    deadline = time.monotonic() + within
    now = await metrics(http, instance)
    while (
        now[CONNECTIONS] or now[ACTIVE] or (feed_up and now[FEED_UP] != 1)
    ) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        now = await metrics(http, instance)
    return now


async def test_the_log_reveals_no_token_code_or_hidden_card(
    observed: tuple[Instance, RedisServer, Secrets],
) -> None:
    instance, _, secrets = observed
    rng = random.Random(23)
    async with http_client() as http:
        # More traffic of every kind: both games, both transports, bad input, errors.
        for kind in ("DS", "TF"):
            game = await create_game(http, instance, kind)
            secrets.add_game(game)
            async with await Peer.open(instance, f"log-{kind}") as peer:
                await peer.subscribe(game.game_id, game.token)
                await peer.subscribe(game.game_id, "not-the-token")
                await peer.send_raw('{"type": "action", "id": "x", "game_id": 5}')
                for turn in range(30):
                    action = pick_action(game.local, rng)
                    if action is None:
                        break
                    if turn % 2:
                        result = await peer.act(game.game_id, action)
                        notation = result.get("notation")
                    else:
                        response = await post_action(http, instance, game, action)
                        notation = response.json().get("notation")
                    if notation:
                        game.local.play_text(notation)
                        secrets.add_position(game.local)
                await peer.act(game.game_id, "c1:40>c2")
            await http.get(f"{instance.url}/games/{game.game_id}/record", headers=auth(game.token))
            # A client that puts its token in the URL: the log keeps the name, not the value.
            await http.get(
                f"{instance.url}/games/{game.game_id}/changes",
                params={"since": 0, "token": game.token},
            )
    log = instance.log()
    assert len(log) > 1000, "the instance logged next to nothing: is the output captured?"
    for line in log.splitlines():
        entry = json.loads(line)  # one JSON object per line, uvicorn's lines included
        assert {"time", "level", "logger", "message"} <= entry.keys(), line
        assert "color_message" not in entry
    loggers = {json.loads(line)["logger"] for line in log.splitlines()}
    assert {"uvicorn.error", "uvicorn.access"} <= loggers
    leaked = sorted(text for text in secrets.texts if text and text in log)
    assert not leaked, f"{len(leaked)} secrets in the log, e.g. {leaked[:3]}"
