"""Resigning a game (REST and WebSocket) and games dealt from a secret seed, whose code
stays on the server until the game is over."""

from __future__ import annotations

from service import engine
from tests.service.helpers import greet, recv_until, subscribe
from tests.support import CheckedClient, auth, new_game


def _resign(client: CheckedClient, game_id: str, token: str, **body: str) -> dict[str, object]:
    response = client.post(f"/games/{game_id}/resign", json=body or None, headers=auth(token))
    assert response.status_code == 200, response.text
    answer: dict[str, object] = response.json()
    return answer


def test_resign_over_http_ends_the_game_for_good(client: CheckedClient) -> None:
    created = new_game(client, game="DS", draw=1)
    game_id, token = created["game_id"], created["player_token"]
    assert (
        client.post(f"/games/{game_id}/actions", json={"action": "d"}, headers=auth(token)).json()[
            "version"
        ]
        == 1
    )
    answer = _resign(client, game_id, token, request_id="bye")
    assert answer["notation"] == "resign" and answer["version"] == 2
    change = answer["change"]
    assert isinstance(change, dict)
    assert change["action"] == {"type": "resign"}
    assert change["events"] == [{"type": "resigned"}]
    assert {"op": "replace", "path": "/resigned", "value": True} in change["patch"]
    # The same request id again is the same resignation, not a refusal.
    again = _resign(client, game_id, token, request_id="bye")
    assert again["duplicate"] is True and again["version"] == 2

    state = client.get(f"/games/{game_id}").json()
    assert state["state"]["resigned"] is True and state["version"] == 2
    for path, body in (("actions", {"action": "d"}), ("undo", {}), ("resign", {})):
        refused = client.post(f"/games/{game_id}/{path}", json=body, headers=auth(token))
        assert refused.status_code == 409, refused.text
        assert refused.json()["rule_id"] == "DS-END-2"
        assert refused.json()["message_fi"]
    assert client.get(f"/games/{game_id}").json()["version"] == 2
    assert client.get(f"/games/{game_id}/legal-actions").json()["actions"] == []
    # Over: the record is anyone's, like a won game's.
    record = client.get(f"/games/{game_id}/record").json()
    assert record["actions"] == ["d", "resign"] and record["resigned"] is True


def test_resign_as_an_action_notation_and_over_the_websocket(client: CheckedClient) -> None:
    created = new_game(client, game="TF", draw=3)
    game_id, token = created["game_id"], created["player_token"]
    with client.checked_websocket() as player, client.checked_websocket() as watcher:
        greet(player)
        greet(watcher)
        subscribe(player, game_id, token)
        subscribe(watcher, game_id)
        player.send_json({"type": "resign", "id": "r-1", "game_id": game_id})
        result = recv_until(player, "result")[0]
        assert result["status"] == "accepted" and result["notation"] == "resign"
        change = recv_until(watcher, "change")[0]
        assert change["events"] == [{"type": "resigned"}] and change["version"] == 1
        player.send_json({"type": "action", "id": "a-1", "game_id": game_id, "action": "d"})
        refused = recv_until(player, "result")[0]
        assert refused["status"] == "rejected"
        assert refused["rejection"]["rule_id"] == "TF-END-2"
    other = new_game(client, game="TF")
    answer = client.post(
        f"/games/{other['game_id']}/actions",
        json={"action": "resign"},
        headers=auth(other["player_token"]),
    )
    assert answer.status_code == 200 and answer.json()["notation"] == "resign"


def test_a_watcher_cannot_resign(client: CheckedClient) -> None:
    created = new_game(client, game="DS")
    response = client.post(f"/games/{created['game_id']}/resign")
    assert response.status_code == 401
    assert client.get(f"/games/{created['game_id']}").json()["state"]["resigned"] is False


def test_a_secret_game_shows_its_code_only_once_over(client: CheckedClient) -> None:
    created = new_game(client, game="DS", draw=3, scoring="vegas", secret=True)
    game_id, token = created["game_id"], created["player_token"]
    assert created["code"] is None
    refused = client.get(f"/games/{game_id}/record", headers=auth(token))
    assert refused.status_code == 409 and refused.json()["code"] == "game_not_over"
    assert client.get(f"/games/{game_id}/record").status_code == 401
    opening = created["state"]

    _resign(client, game_id, token)
    record = client.get(f"/games/{game_id}/record").json()
    code = engine.GameCode.parse(record["code"])
    assert code.secret and str(code).startswith("DS1-D3V-")
    assert record["record"] == f"{code} resign"
    replay = client.post("/games", json={"code": str(code)})
    assert replay.status_code == 201
    assert replay.json()["code"] == str(code)
    assert replay.json()["state"] == opening


def test_secret_with_a_code_is_refused(client: CheckedClient) -> None:
    response = client.post("/games", json={"code": "TF1-D1N-AAAAAAB", "secret": True})
    assert response.status_code == 422 and response.json()["code"] == "bad_code"


def test_two_secret_games_get_different_deals(client: CheckedClient) -> None:
    states = [new_game(client, game="TF", secret=True)["state"]["columns"] for _ in range(3)]
    assert states[0] != states[1] != states[2]
