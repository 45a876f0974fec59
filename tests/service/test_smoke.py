"""A first full round trip on both backends: create, watch, play, read back."""

from __future__ import annotations

import jsonpatch

from tests.support import CheckedClient, auth, hello, new_game


def test_create_play_and_watch_over_http_and_websocket(client: CheckedClient) -> None:
    created = new_game(client, game="DS", draw=1)
    game_id, token = created["game_id"], created["player_token"]
    with client.checked_websocket() as ws:
        hello(ws)
        ws.send_json({"type": "subscribe", "id": "s", "game_id": game_id, "token": token})
        assert ws.receive_json()["role"] == "player"
        state = ws.receive_json()["state"]
        for step in range(30):
            legal = client.get(f"/games/{game_id}/legal-actions").json()["actions"]
            notation = legal[step % len(legal)]["notation"]
            ws.send_json(
                {"type": "action", "id": f"a{step}", "game_id": game_id, "action": notation}
            )
            change = ws.receive_until("change")
            state = jsonpatch.apply_patch(state, change["patch"])
            assert change["version"] == step + 1
            assert state == client.get(f"/games/{game_id}").json()["state"]
    record = client.get(f"/games/{game_id}/record", headers=auth(token)).json()
    assert record["version"] == 30
