"""A race lives as long as it is played, and a race that cannot be found fails closed.

Playing a race did not renew its document's lifetime: with a short game lifetime the race
expired in the middle of play, and a missing race was taken for a finished one, so its
games, records and secret code became readable by anyone. The race gate now renews the
race as its games are played, and a missing race keeps its games as private as a running
race does.
"""

from __future__ import annotations

from typing import Any

import pytest
import redis

from service.store.redis_layout import race_keys
from tests.players.conftest import FakeClock, players_client
from tests.races.race_support import create_race, join_race, problem_code
from tests.support import CheckedClient, auth

TTL = 1000


def _running_race(client: CheckedClient, clock: FakeClock) -> tuple[dict[str, Any], str]:
    """A started two-player race and the host's first legal action."""
    host = create_race(client, "Ada", game="TF", draw=1, scoring="normal", max_players=2)
    join_race(client, host["join_code"], "Bob")
    started = client.post(f"/races/{host['race_id']}/start", headers=auth(host["player_token"]))
    assert started.status_code == 200, started.text
    clock.now += 1
    legal = client.get(
        f"/games/{host['game_id']}/legal-actions", headers=auth(host["player_token"])
    )
    assert legal.status_code == 200, legal.text
    return host, legal.json()["actions"][0]["notation"]


def _act(client: CheckedClient, host: dict[str, Any], action: str) -> None:
    response = client.post(
        f"/games/{host['game_id']}/actions",
        json={"action": action},
        headers=auth(host["player_token"]),
    )
    assert response.status_code == 200, response.text


def test_a_race_played_outlives_its_first_lifetime_in_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    moment = [0.0]
    monkeypatch.setattr("service.store.memory.now", lambda: moment[0])
    clock = FakeClock()

    def later(seconds: float) -> None:
        moment[0] += seconds
        clock.now += seconds

    with players_client(
        "memory://", clock, game_ttl_seconds=TTL, race_countdown_seconds=0
    ) as client:
        host, action = _running_race(client, clock)
        path = f"/races/{host['race_id']}"
        for played in (action, "u", action):  # longer than a lifetime, a move now and then
            later(0.9 * TTL)
            _act(client, host, played)
        assert client.get(path).status_code == 200
        later(1.1 * TTL)  # no longer played: it expires
        assert client.get(path).status_code == 404


def test_a_race_played_is_renewed_in_redis(clean_redis: str) -> None:
    clock = FakeClock()
    with players_client(
        clean_redis, clock, game_ttl_seconds=TTL, race_countdown_seconds=0
    ) as client:
        host, action = _running_race(client, clock)
        doc_key, _ = race_keys(host["race_id"])
        db = redis.Redis.from_url(clean_redis)
        try:
            db.pexpire(doc_key, 5_000)  # its lifetime nearly run down
            clock.now += 0.2 * TTL
            _act(client, host, action)
            assert db.pttl(doc_key) > 0.9 * TTL * 1000
        finally:
            db.close()


def test_a_race_is_renewed_once_a_tenth_of_its_lifetime_has_run_down(store_url: str) -> None:
    """Written with its full lifetime, a young race is not renewed by its first actions
    (an arena heat's whole life, often): one store call each saved."""
    clock = FakeClock()
    with players_client(store_url, clock, game_ttl_seconds=TTL, race_countdown_seconds=0) as c:
        host, action = _running_race(c, clock)
        store = c.app.state.games.store  # type: ignore[attr-defined]
        renewed: list[str] = []
        renew = store.renew_race

        async def counted(race_id: str) -> None:
            renewed.append(race_id)
            await renew(race_id)

        store.renew_race = counted
        _act(c, host, action)
        _act(c, host, "u")
        assert renewed == []
        clock.now += 0.1 * TTL
        _act(c, host, action)
        _act(c, host, "u")
        assert renewed == [host["race_id"]]


@pytest.mark.parametrize("backend", ["memory", "redis"])
def test_a_race_that_cannot_be_found_keeps_its_games_private(
    backend: str, request: pytest.FixtureRequest
) -> None:
    url = "memory://" if backend == "memory" else request.getfixturevalue("clean_redis")
    clock = FakeClock()
    with players_client(url, clock, race_countdown_seconds=0) as client:
        host, action = _running_race(client, clock)
        _act(client, host, action)
        store = client.app.state.games.store  # type: ignore[attr-defined]
        if url == "memory://":
            store._races.clear()
        else:
            db = redis.Redis.from_url(url)
            db.delete(race_keys(host["race_id"])[0])
            db.close()
        game = f"/games/{host['game_id']}"
        for path in (game, f"{game}/record", f"{game}/replay", f"{game}/changes?since=0"):
            response = client.get(path)
            assert response.status_code == 403, (path, response.text)
            assert problem_code(response) == "race_running", path
        # Its player still sees it.
        assert client.get(game, headers=auth(host["player_token"])).status_code == 200
