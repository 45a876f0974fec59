"""Hints and analyses cost their sender: they count against quotas in the store, per
player and per client address, over HTTP and the WebSocket alike; an analysis past the
searches that run at once is ``busy`` and gives its place in the quotas back."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import orjson

from tests.players.conftest import FakeClock, new_player, players_client
from tests.players.held_search import held
from tests.service.helpers import greet, recv_until, subscribe
from tests.support import CheckedClient, auth

CODE = "TF1-D1N-AAGKBWSOEPIRAEYTGERIURNYFFZJ"
LIMIT = 10
REQUESTS = 20


def _game(client: CheckedClient, player_token: str | None = None) -> dict[str, Any]:
    headers = auth(player_token) if player_token else {}
    created = client.post("/games", json={"game": "TF"}, headers=headers)
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    return game


def _ended(client: CheckedClient) -> str:
    game = _game(client)
    resigned = client.post(f"/games/{game['game_id']}/resign", headers=auth(game["player_token"]))
    assert resigned.status_code == 200, resigned.text
    game_id: str = game["game_id"]
    return game_id


def _hint(client: CheckedClient, game: dict[str, Any]) -> Any:
    return client.post(f"/games/{game['game_id']}/hint", headers=auth(game["player_token"]))


def _keep_verdicts(client: CheckedClient, game_id: str) -> None:
    """Stores verdicts for ``game_id`` as a finished search would: later analyses of it
    cost no search."""
    records = client.app.state.analysis.records  # type: ignore[attr-defined]
    text = orjson.dumps(
        {"deal": {"result": "unknown", "line": None, "seconds": 0.0}, "position": None}
    ).decode()

    async def keep() -> None:
        await records.claim(f"analysis:{game_id}", text, 3600)

    client.portal.call(keep)  # type: ignore[union-attr]


def _together(send: Callable[[int], Any]) -> list[int]:
    with ThreadPoolExecutor(REQUESTS) as pool:
        return sorted(pool.map(lambda n: send(n).status_code, range(REQUESTS)))


def _refused(response: Any) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["code"] == "rate_limited"
    assert 1 <= int(response.headers["retry-after"]) <= 60


# --------------------------------------------------------------------------- hints


def test_hints_over_http_and_the_websocket_share_the_address_quota(store_url: str) -> None:
    with players_client(
        store_url, FakeClock(), hints_per_address_per_minute=3, hints_per_player_per_minute=100
    ) as client:
        game = _game(client)  # no player: its address's quota only
        assert _hint(client, game).status_code == 200
        assert _hint(client, game).status_code == 200
        with client.checked_websocket() as ws:
            greet(ws)
            subscribe(ws, game["game_id"], game["player_token"])
            ids = itertools.count()
            answers: list[dict[str, Any]] = []
            for _ in range(2):
                rid = f"h-{next(ids)}"
                ws.send_json({"type": "hint", "id": rid, "game_id": game["game_id"]})
                frame, _ = recv_until(ws, "hint" if not answers else "error")
                answers.append(frame)
        assert answers[0]["type"] == "hint" and answers[0]["hints_used"] == 3
        assert answers[1]["code"] == "rate_limited" and answers[1]["id"] == "h-1"
        _refused(_hint(client, game))


def test_a_players_hints_are_counted_over_all_its_games(store_url: str) -> None:
    with players_client(
        store_url, FakeClock(), hints_per_player_per_minute=3, hints_per_address_per_minute=100
    ) as client:
        ada = new_player(client)["player_token"]
        first, second = _game(client, ada), _game(client, ada)
        assert [_hint(client, g).status_code for g in (first, second, first)] == [200] * 3
        with client.checked_websocket() as ws:
            greet(ws)
            subscribe(ws, second["game_id"], second["player_token"])
            ws.send_json({"type": "hint", "id": "h", "game_id": second["game_id"]})
            refused, _ = recv_until(ws, "error")
        assert refused["code"] == "rate_limited" and "player" in refused["message"]
        _refused(_hint(client, first))
        # Another player behind the same address has a quota of its own.
        bob = new_player(client, "Bob")["player_token"]
        assert _hint(client, _game(client, bob)).status_code == 200
        # So has a game without a player, which counts against the address only.
        assert _hint(client, _game(client)).status_code == 200


def test_of_twenty_hints_at_once_at_a_limit_of_ten_exactly_ten_are_answered(
    store_url: str,
) -> None:
    with players_client(
        store_url,
        FakeClock(),
        hints_per_address_per_minute=LIMIT,
        hints_per_player_per_minute=1000,
        hints_max_waiting=1000,
    ) as client:
        game = _game(client)
        statuses = _together(lambda _: _hint(client, game))
        assert statuses == [200] * LIMIT + [429] * (REQUESTS - LIMIT)
        assert _hint(client, game).status_code == 429


# --------------------------------------------------------------------------- analyses


def test_analyses_count_per_address_and_per_player(store_url: str) -> None:
    with players_client(
        store_url,
        FakeClock(),
        analyses_per_address_per_minute=4,
        analyses_per_player_per_minute=2,
    ) as client:
        game_id = _ended(client)
        _keep_verdicts(client, game_id)
        ada = new_player(client)["player_token"]
        url = f"/games/{game_id}/analysis"
        assert [client.get(url, headers=auth(ada)).status_code for _ in range(2)] == [200, 200]
        refused = client.get(url, headers=auth(ada))
        _refused(refused)
        assert "player" in refused.json()["detail"]
        # Without a player token (or with one that names no player): the address's only.
        assert client.get(url).status_code == 200
        assert client.get(url, headers=auth("not-a-player-token")).status_code == 200
        _refused(client.get(url))


def test_of_twenty_analyses_at_once_at_a_limit_of_ten_exactly_ten_are_answered(
    store_url: str,
) -> None:
    with players_client(store_url, FakeClock(), analyses_per_address_per_minute=LIMIT) as client:
        game_id = _ended(client)
        _keep_verdicts(client, game_id)
        statuses = _together(lambda _: client.get(f"/games/{game_id}/analysis"))
        assert statuses == [200] * LIMIT + [429] * (REQUESTS - LIMIT)


def test_past_the_searches_at_once_an_analysis_is_busy_and_not_counted(
    store_url: str, held_searches: Path
) -> None:
    with players_client(
        store_url,
        FakeClock(),
        analysis_max_searches=1,
        analyses_per_address_per_minute=1,
    ) as client:
        analysis = client.app.state.analysis  # type: ignore[attr-defined]
        analysis.searches.work = held
        game_id = _ended(client)

        async def hold() -> Any:
            return analysis.searches.join("another-game", "held", "192.0.2.9")

        search = client.portal.call(hold)  # type: ignore[union-attr]
        refused = client.get(f"/games/{game_id}/analysis")
        assert refused.status_code == 503, refused.text
        assert refused.json()["code"] == "busy"
        assert int(refused.headers["retry-after"]) >= 1
        (held_searches / "release").touch()

        async def finish() -> Any:
            return await analysis.searches.wait(search)

        client.portal.call(finish)  # type: ignore[union-attr]
        # The busy answer gave its place back: the one analysis of the minute is still free.
        answered = client.get(f"/games/{game_id}/analysis")
        assert answered.status_code == 200, answered.text
        assert answered.json()["deal"]["result"] == "unknown"
        _refused(client.get(f"/games/{game_id}/analysis"))


def test_past_the_hints_waiting_a_hint_is_busy_and_not_counted(store_url: str) -> None:
    with players_client(
        store_url,
        FakeClock(),
        hints_max_waiting=2,
        hints_per_address_per_minute=1,
        hints_per_player_per_minute=1,
    ) as client:
        analysis = client.app.state.analysis  # type: ignore[attr-defined]
        ada = new_player(client)["player_token"]
        game = _game(client, ada)
        analysis._hints_waiting = 2  # two hints being worked out for other clients
        refused = _hint(client, game)
        assert refused.status_code == 503, refused.text
        assert refused.json()["code"] == "busy" and refused.headers["retry-after"] == "1"
        analysis._hints_waiting = 0
        # Neither the player's place nor the address's was spent on the busy answer.
        answered = _hint(client, game)
        assert answered.status_code == 200 and answered.json()["hints_used"] == 1
        _refused(_hint(client, game))
