"""Replays: an ended game's code, actions with their server times, and result; race and
daily games only once they are public."""

from __future__ import annotations

from typing import Any

from service import engine
from tests.players.conftest import FakeClock, new_player
from tests.support import CheckedClient, auth


def _act(client: CheckedClient, game: dict[str, Any], path: str, **body: Any) -> Any:
    response = client.post(
        f"/games/{game['game_id']}/{path}", json=body or None, headers=auth(game["player_token"])
    )
    assert response.status_code == 200, response.text
    return response


def test_a_resigned_secret_game_replays_with_its_times(
    service: CheckedClient, clock: FakeClock
) -> None:
    game = service.post("/games", json={"game": "DS", "draw": 3, "secret": True}).json()
    early = service.get(f"/games/{game['game_id']}/replay")
    assert early.status_code == 409 and early.json()["code"] == "game_not_over"
    clock.now += 2.5
    _act(service, game, "actions", action="d")
    clock.now += 4.0
    _act(service, game, "actions", action="d")
    _act(service, game, "undo")
    clock.now += 1.0
    _act(service, game, "resign")
    replay = service.get(f"/games/{game['game_id']}/replay")
    assert replay.status_code == 200, replay.text
    body = replay.json()
    assert engine.GameCode.parse(body["code"]).secret
    assert [a["notation"] for a in body["actions"]] == ["d", "d", "u", "resign"]
    assert [a["at_ms"] for a in body["actions"]] == [2500, 6500, 6500, 7500]
    assert body["result"]["resigned"] and not body["result"]["won"]
    assert body["result"]["duration_ms"] == 5000
    # Replaying the actions from the code gives the game's final state.
    final = engine.GameRecord.parse(
        " ".join([body["code"], *(a["notation"] for a in body["actions"])])
    ).replay()
    state = service.get(f"/games/{game['game_id']}").json()["state"]
    assert final.public_view() == state


def test_daily_replays_wait_for_midnight(service: CheckedClient, clock: FakeClock) -> None:
    token = new_player(service)["player_token"]
    game = service.post("/daily/2026-12-01/TF.D1N/games", headers=auth(token)).json()
    _act(service, game, "actions", action="d")
    _act(service, game, "resign")
    early = service.get(f"/games/{game['game_id']}/replay")
    assert early.status_code == 403 and early.json()["code"] == "daily_running"
    clock.now += 12 * 3600
    assert service.get(f"/games/{game['game_id']}/replay").status_code == 200


def test_unknown_game(service: CheckedClient) -> None:
    response = service.get("/games/nope/replay")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
