"""Every WebSocket message on both store backends: hello, subscribe (player, watcher,
resume), unsubscribe, actions and undos with their results, errors, ping, expected
versions, request ids, and delivery of every change to every subscriber."""

from __future__ import annotations

import random
from typing import Any

import jsonpatch
import pytest

from service import engine
from service.engine.rules import rejection_message
from tests.service.helpers import (
    View,
    act,
    drain_to,
    greet,
    pick_action,
    ping,
    post_action,
    public_state,
    recv,
    subscribe,
    try_recv,
)
from tests.support import CheckedClient, auth, new_game, service_client


def assert_error(
    frame: dict[str, Any], code: str, rid: str | None = None, game_id: str | None = None
) -> None:
    assert frame["type"] == "error", frame
    assert frame["code"] == code, frame
    assert frame["message"]
    assert frame.get("id") == rid, frame
    if game_id is not None:
        assert frame["game_id"] == game_id, frame


# --------------------------------------------------------------------------- hello


def test_welcome_repeats_the_connection_limits(store_url: str) -> None:
    limits: dict[str, Any] = {
        "max_frame_bytes": 2048,
        "max_subscriptions": 3,
        "rate_per_second": 50.0,
        "rate_burst": 60,
    }
    with service_client(store_url, **limits) as client, client.checked_websocket() as ws:
        assert greet(ws) == {"type": "welcome", "protocol": 1, **limits}


def test_unsupported_protocol_then_a_good_hello(client: CheckedClient) -> None:
    created = new_game(client)
    with client.checked_websocket() as ws:
        for protocol in (2, 0, 99):
            ws.send_json({"type": "hello", "protocol": protocol})
            assert_error(recv(ws), "unsupported_protocol")
        # Still not greeted.
        ws.send_json({"type": "subscribe", "id": "s", "game_id": created["game_id"]})
        assert_error(recv(ws), "hello_required", "s")
        greet(ws)
        subscribed, _ = subscribe(ws, created["game_id"])
        assert subscribed["role"] == "watcher"


def test_requests_before_hello_get_hello_required(client: CheckedClient) -> None:
    created = new_game(client)
    game_id, token = created["game_id"], created["player_token"]
    with client.checked_websocket() as ws:
        requests: list[dict[str, Any]] = [
            {"type": "subscribe", "id": "r1", "game_id": game_id, "token": token},
            {"type": "unsubscribe", "id": "r2", "game_id": game_id},
            {"type": "action", "id": "r3", "game_id": game_id, "action": "d"},
            {"type": "undo", "id": "r4", "game_id": game_id},
        ]
        for request in requests:
            ws.send_json(request)
            assert_error(recv(ws), "hello_required", request["id"])
        # Only ping is answered before hello.
        ping(ws, "early")
        ws.send_json({"type": "ping"})
        assert recv(ws) == {"type": "pong"}
    assert public_state(client, game_id) == (0, created["state"])


# --------------------------------------------------------------------------- subscribe


def test_subscribe_as_player_watcher_wrong_token_and_unknown_game(client: CheckedClient) -> None:
    created = new_game(client, game="TF", draw=3)
    game_id, token = created["game_id"], created["player_token"]
    assert post_action(client, game_id, token, "d").status_code == 200
    version, state = public_state(client, game_id)
    with client.checked_websocket() as player, client.checked_websocket() as watcher:
        greet(player)
        greet(watcher)
        subscribed, view = subscribe(player, game_id, token, rid="p")
        assert subscribed == {
            "type": "subscribed",
            "id": "p",
            "game_id": game_id,
            "role": "player",
            "version": version,
            "recovered": False,
        }
        assert (view.version, view.state) == (version, state)
        assert player.received[-1] == {
            "type": "snapshot", "game_id": game_id, "version": version, "state": state
        }  # fmt: skip

        subscribed, view = subscribe(watcher, game_id, rid="w")
        assert (subscribed["role"], subscribed["version"]) == ("watcher", version)
        assert view.state == state

        with client.checked_websocket() as other:
            greet(other)
            for wrong in ("wrong", token + "x", new_game(client)["player_token"]):
                other.send_json(
                    {"type": "subscribe", "id": "x", "game_id": game_id, "token": wrong}
                )
                assert_error(recv(other), "unauthorized", "x", game_id)
            # A wrong token does not make a watcher either: nothing is subscribed.
            other.send_json({"type": "action", "id": "a", "game_id": game_id, "action": "d"})
            assert_error(recv(other), "not_subscribed", "a", game_id)
            other.send_json({"type": "subscribe", "id": "n", "game_id": "no-such-game"})
            assert_error(recv(other), "not_found", "n", "no-such-game")
            ping(other)
            # Nothing is pushed for the refused subscriptions.
            assert post_action(client, game_id, token, "d").status_code == 200
            assert recv(watcher)["version"] == version + 1
            assert try_recv(other, 0.3) is None
    assert public_state(client, game_id)[0] == version + 1


def test_subscribing_again_resynchronises_without_doubling(client: CheckedClient) -> None:
    created = new_game(client)
    game_id, token = created["game_id"], created["player_token"]
    with client.checked_websocket() as ws:
        greet(ws)
        subscribe(ws, game_id)
        subscribe(ws, game_id, rid="again")
        subscribed, view = subscribe(ws, game_id, token, rid="as-player")
        assert subscribed["role"] == "player"
        answer, _ = act(ws, game_id, "d", "a1", view=view)
        assert answer["status"] == "accepted"
        ping(ws)
        changes = [f for f in ws.received if f["type"] == "change"]
        assert [c["version"] for c in changes] == [1]


def test_too_many_subscriptions(store_url: str) -> None:
    with service_client(store_url, max_subscriptions=2) as client:
        games = [new_game(client)["game_id"] for _ in range(3)]
        with client.checked_websocket() as ws:
            greet(ws)
            subscribe(ws, games[0])
            subscribe(ws, games[1])
            ws.send_json({"type": "subscribe", "id": "third", "game_id": games[2]})
            assert_error(recv(ws), "too_many_subscriptions", "third")
            subscribe(ws, games[0], rid="again")  # does not count twice
            ws.send_json({"type": "unsubscribe", "id": "u", "game_id": games[1]})
            assert recv(ws) == {"type": "unsubscribed", "id": "u", "game_id": games[1]}
            subscribe(ws, games[2])


def test_resume_with_since_gets_exactly_the_missed_changes(client: CheckedClient) -> None:
    created = new_game(client, game="DS", draw=3)
    game_id, token = created["game_id"], created["player_token"]
    mirror = engine.new_game(created["code"])
    rng = random.Random(21)
    states = [created["state"]]
    pushed = []
    for _ in range(9):
        notation = pick_action(mirror, rng, tap_rate=0.0)
        body = post_action(client, game_id, token, notation).json()
        mirror.play(engine.parse_action(body["notation"]))
        pushed.append(body["change"])
        states.append(public_state(client, game_id)[1])
    with client.checked_websocket() as ws:
        greet(ws)
        subscribed, view = subscribe(ws, game_id, since=3, rid="resume")
        assert subscribed == {
            "type": "subscribed",
            "id": "resume",
            "game_id": game_id,
            "role": "watcher",
            "version": 9,
            "recovered": True,
        }
        assert [c["version"] for c in view.changes] == [4, 5, 6, 7, 8, 9]
        assert view.changes == pushed[3:]
        state = states[3]
        for change in view.changes:
            state = jsonpatch.apply_patch(state, change["patch"])
        assert state == states[9]

        # Up to date already: recovered, nothing follows.
        subscribed, view = subscribe(ws, game_id, token, since=9, rid="same")
        assert (subscribed["recovered"], subscribed["role"], view.changes) == (True, "player", [])
        ping(ws)
        # A version the game never had: a snapshot instead.
        subscribed, view = subscribe(ws, game_id, token, since=50, rid="future")
        assert (subscribed["recovered"], subscribed["version"]) == (False, 9)
        assert view.state == states[9]

        # Live changes continue right after.
        view = View(game_id, 9, states[9])
        answer, _ = act(ws, game_id, "d", "live", view=view)
        assert (answer["status"], answer["version"]) == ("accepted", 10)
        assert view.state == public_state(client, game_id)[1]


def test_resume_beyond_the_catchup_limit_gets_a_snapshot(store_url: str) -> None:
    with service_client(store_url, catchup_limit=5) as client:
        created = new_game(client)
        game_id, token = created["game_id"], created["player_token"]
        for _ in range(8):
            assert post_action(client, game_id, token, "d").status_code == 200
        version, state = public_state(client, game_id)
        with client.checked_websocket() as ws:
            greet(ws)
            subscribed, view = subscribe(ws, game_id, since=1)
            assert (subscribed["recovered"], subscribed["version"]) == (False, version)
            assert view.state == state
            subscribed, view = subscribe(ws, game_id, since=3, rid="near")
            assert subscribed["recovered"] is True
            assert [c["version"] for c in view.changes] == [4, 5, 6, 7, 8]


def test_unsubscribe_stops_the_changes(client: CheckedClient) -> None:
    created = new_game(client)
    game_id, token = created["game_id"], created["player_token"]
    with client.checked_websocket() as leaving, client.checked_websocket() as staying:
        greet(leaving)
        greet(staying)
        subscribe(leaving, game_id, token)
        subscribe(staying, game_id)
        leaving.send_json({"type": "unsubscribe", "id": "bye", "game_id": game_id})
        assert recv(leaving) == {"type": "unsubscribed", "id": "bye", "game_id": game_id}
        assert post_action(client, game_id, token, "d").status_code == 200
        assert recv(staying)["version"] == 1  # the change was sent...
        assert try_recv(leaving, 0.3) is None  # ...but not here
        ping(leaving)
        leaving.send_json({"type": "unsubscribe", "id": "again", "game_id": game_id})
        assert_error(recv(leaving), "not_subscribed", "again", game_id)
        leaving.send_json({"type": "action", "id": "a", "game_id": game_id, "action": "d"})
        assert_error(recv(leaving), "not_subscribed", "a", game_id)
    assert public_state(client, game_id)[0] == 1


# --------------------------------------------------------------------------- acting


@pytest.mark.parametrize("game", ["DS", "TF"])
def test_results_of_actions_and_undos(client: CheckedClient, game: str) -> None:
    created = new_game(client, game=game)
    game_id, token = created["game_id"], created["player_token"]
    cls = engine.DoubleSolitaire if game == "DS" else engine.SolitaireReflechi
    with client.checked_websocket() as ws:
        greet(ws)
        _, view = subscribe(ws, game_id, token)

        answer, _ = act(ws, game_id, "u", "u0", view=view)
        assert answer == {
            "type": "result",
            "id": "u0",
            "game_id": game_id,
            "status": "rejected",
            "version": 0,
            "rejection": dict(
                zip(("rule_id", "message_en", "message_fi"),
                    (cls.R_UNDO, *rejection_message(cls.R_UNDO)), strict=True)
            ),
        }  # fmt: skip

        answer, others = act(ws, game_id, {"type": "draw"}, "a1", view=view)
        assert answer == {
            "type": "result",
            "id": "a1",
            "game_id": game_id,
            "status": "accepted",
            "version": 1,
            "notation": "d",
            "duplicate": False,
        }
        change = next(f for f in others if f["type"] == "change")
        assert (change["version"], change["notation"], change["action"]) == (
            1,
            "d",
            {"type": "draw"},
        )

        # "r" with cards left in the stock: refused, version unchanged, no change sent.
        answer, _ = act(ws, game_id, "r", "a2", view=view)
        assert answer["status"] == "rejected"
        assert answer["version"] == 1
        assert answer["rejection"]["rule_id"] == cls.R_RECYCLE_STOCK
        assert (answer["rejection"]["message_en"], answer["rejection"]["message_fi"]) == (
            rejection_message(cls.R_RECYCLE_STOCK)
        )
        assert "notation" not in answer or answer["notation"] is None
        ping(ws)

        answer, others = act(ws, game_id, "u", "u1", view=view)
        assert (answer["status"], answer["version"], answer["notation"]) == ("accepted", 2, "u")
        change = next(f for f in others if f["type"] == "change")
        assert change["action"] is None
        assert change["events"][0] == {"type": "undone", "action": "d"}
        assert view.version == 2
        assert view.state == public_state(client, game_id)[1]
        assert view.state["stock"] == created["state"]["stock"]


def player_requests(game_id: str) -> list[dict[str, Any]]:
    """One of each request that only a game's player may send."""
    return [
        {"type": "action", "id": "a", "game_id": game_id, "action": "d"},
        {"type": "undo", "id": "u", "game_id": game_id},
        {"type": "resign", "id": "r", "game_id": game_id},
        {"type": "hint", "id": "h", "game_id": game_id},
    ]


def test_a_watcher_cannot_act(client: CheckedClient) -> None:
    """A player's request about a game the connection watches is ``not_player``; about
    one it does not follow, ``not_subscribed``: the same for every such request."""
    created = new_game(client)
    game_id = created["game_id"]
    other = new_game(client)
    with client.checked_websocket() as ws:
        greet(ws)
        subscribe(ws, game_id)
        for message in player_requests(game_id):
            ws.send_json(message)
            assert_error(recv(ws), "not_player", message["id"], game_id)
        for message in player_requests(other["game_id"]):
            ws.send_json(message)
            assert_error(recv(ws), "not_subscribed", message["id"], other["game_id"])
        ping(ws)
    assert public_state(client, game_id) == (0, created["state"])
    assert public_state(client, other["game_id"]) == (0, other["state"])


def test_ping_pong(client: CheckedClient) -> None:
    with client.checked_websocket() as ws:
        greet(ws)
        ping(ws, "p-1")
        ws.send_json({"type": "ping"})
        assert recv(ws) == {"type": "pong"}
        ws.send_bytes(b'{"type": "ping", "id": "binary"}')
        assert recv(ws) == {"type": "pong", "id": "binary"}


def test_stale_expected_version(client: CheckedClient) -> None:
    created = new_game(client)
    game_id, token = created["game_id"], created["player_token"]
    with client.checked_websocket() as ws:
        greet(ws)
        _, view = subscribe(ws, game_id, token)
        answer, _ = act(ws, game_id, "d", "a1", expected_version=0, view=view)
        assert answer["version"] == 1
        state = view.state
        for rid, action in (("a2", "d"), ("u1", "u")):
            answer, _ = act(ws, game_id, action, rid, expected_version=0, view=view)
            assert_error(answer, "stale_version", rid, game_id)
            assert answer["current_version"] == 1
        ping(ws)
        assert public_state(client, game_id) == (1, state)
        answer, _ = act(ws, game_id, "u", "u2", expected_version=1, view=view)
        assert (answer["status"], answer["version"]) == ("accepted", 2)


def test_a_repeated_request_id_is_answered_but_never_applied_twice(client: CheckedClient) -> None:
    created = new_game(client, code="DS1-D1N-AAAAAAB")
    game_id, token = created["game_id"], created["player_token"]
    with client.checked_websocket() as ws, client.checked_websocket() as second:
        greet(ws)
        greet(second)
        _, view = subscribe(ws, game_id, token)
        subscribe(second, game_id, token)
        first, _ = act(ws, game_id, "d", "once", view=view)
        assert (first["status"], first["version"], first["duplicate"]) == ("accepted", 1, False)
        before = public_state(client, game_id)
        # The same action again, in either form: answered, not played.
        for action in ("d", {"type": "draw"}, "D"):
            again, _ = act(ws, game_id, action, "once", view=view)
            assert again == {
                "type": "result",
                "id": "once",
                "game_id": game_id,
                "status": "accepted",
                "version": 1,
                "notation": "d",
                "duplicate": True,
            }
        # The id with another action: refused, nothing played.
        for action in ("u", "c1>f", {"type": "tap", "from": "w"}):
            reused, _ = act(ws, game_id, action, "once", view=view)
            assert reused["type"] == "error", reused
            assert (reused["code"], reused["id"], reused["game_id"]) == (
                "request_id_reused", "once", game_id
            )  # fmt: skip
        # Ids belong to the game: another connection, or HTTP, with the same id.
        again, _ = act(second, game_id, "d", "once")
        assert (again["duplicate"], again["version"]) == (True, 1)
        http = post_action(client, game_id, token, "d", request_id="once").json()
        assert (http["duplicate"], http["version"], http["change"]) == (True, 1, None)
        # Even with an expected version that is stale by now.
        again, _ = act(ws, game_id, "d", "once", expected_version=0, view=view)
        assert (again["type"], again["duplicate"]) == ("result", True)
        ping(ws)
        ping(second)
        assert public_state(client, game_id) == before
        changes = [f["version"] for f in ws.received if f["type"] == "change"]
        assert changes == [1]
        # And an id used over HTTP is remembered over WebSocket.
        body = post_action(client, game_id, token, "d", request_id="via-http").json()
        assert body["version"] == 2
        again, _ = act(ws, game_id, "d", "via-http", view=view)
        assert (again["duplicate"], again["version"]) == (True, 2)
        drain_to(ws, view, 2)
        ping(ws)
        assert public_state(client, game_id) == (2, view.state)


def test_refused_request_ids_are_judged_afresh(client: CheckedClient) -> None:
    created = new_game(client)
    game_id, token = created["game_id"], created["player_token"]
    with client.checked_websocket() as ws:
        greet(ws)
        _, view = subscribe(ws, game_id, token)
        answer, _ = act(ws, game_id, "u", "x", view=view)
        assert answer["status"] == "rejected"
        answer, _ = act(ws, game_id, "d", "x", view=view)
        assert (answer["status"], answer["duplicate"], answer["version"]) == ("accepted", False, 1)


def test_every_subscriber_gets_every_change_once_in_order(client: CheckedClient) -> None:
    created = new_game(client, game="DS", draw=1)
    game_id, token = created["game_id"], created["player_token"]
    mirror = engine.new_game(created["code"])
    rng = random.Random(99)
    with (
        client.checked_websocket() as player,
        client.checked_websocket() as first,
        client.checked_websocket() as second,
    ):
        views = []
        for ws, who in ((player, token), (first, None), (second, None)):
            greet(ws)
            views.append(subscribe(ws, game_id, who)[1])
        accepted = 0
        for step in range(60):
            notation = pick_action(mirror, rng)
            assert notation is not None
            answer, _ = act(player, game_id, notation, f"a{step}", view=views[0])
            if answer["status"] == "accepted":
                accepted += 1
                assert answer["version"] == accepted
                mirror.play(engine.parse_action(answer["notation"]))
        version, state = public_state(client, game_id)
        assert version == accepted
        assert state == mirror.public_view()
        for ws, view in zip((player, first, second), views, strict=True):
            drain_to(ws, view, version)
            ping(ws)
            changes = [f["version"] for f in ws.received if f["type"] == "change"]
            assert changes == list(range(1, version + 1))
            assert view.state == state


def test_play_over_websocket_and_read_over_http_agree(client: CheckedClient) -> None:
    created = new_game(client, game="TF")
    game_id, token = created["game_id"], created["player_token"]
    with client.checked_websocket() as ws:
        greet(ws)
        _, view = subscribe(ws, game_id, token)
        for step, action in enumerate(["d", "d", "u", "d"]):
            act(ws, game_id, action, f"s{step}", view=view)
        record = client.get(f"/games/{game_id}/record", headers=auth(token)).json()
        assert record["actions"] == ["d", "d", "u", "d"]
        assert [c["notation"] for c in view.changes] == record["actions"]
        changes = client.get(f"/games/{game_id}/changes").json()["changes"]
        assert changes == view.changes


def test_one_connection_follows_several_games(client: CheckedClient) -> None:
    games = [new_game(client, game="DS"), new_game(client, game="TF", draw=3)]
    with client.checked_websocket() as ws:
        greet(ws)
        views = [subscribe(ws, g["game_id"], g["player_token"], rid=g["game_id"])[1] for g in games]
        for step in range(6):
            created, view = games[step % 2], views[step % 2]
            answer, others = act(ws, created["game_id"], "d", f"a{step}", view=views[step % 2])
            assert answer["game_id"] == created["game_id"]
            assert answer["version"] == step // 2 + 1
            # The other game's view saw nothing.
            assert all(f.get("game_id") == created["game_id"] for f in others)
            assert view.version == step // 2 + 1
        for created, view in zip(games, views, strict=True):
            assert public_state(client, created["game_id"]) == (view.version, view.state)


# --------------------------------------------------------------------------- changes in results


def greet_with_changes_in_results(ws: Any) -> None:
    ws.send_json({"type": "hello", "protocol": 1, "changes_in_results": True})
    welcome = recv(ws)
    assert welcome["type"] == "welcome" and welcome["changes_in_results"] is True, welcome


def test_changes_in_results_one_frame_per_action(client: CheckedClient) -> None:
    """Asked for in hello, an accepted action's result carries its change, which the
    connection then does not get as a frame; a watcher gets every change as a frame, and
    both copies rebuild the same state."""
    created = new_game(client)
    game_id, token = created["game_id"], created["player_token"]
    rng = random.Random(7)
    local = engine.new_game(created["code"])
    with client.checked_websocket() as ws, client.checked_websocket() as watcher_ws:
        greet_with_changes_in_results(ws)
        greet(watcher_ws)
        _, view = subscribe(ws, game_id, token)
        _, watcher = subscribe(watcher_ws, game_id)
        for number in range(1, 13):
            notation = "u" if number % 5 == 0 else pick_action(local, rng, tap_rate=0.0)
            assert notation is not None
            message: dict[str, Any] = {"type": "action", "id": f"a{number}", "game_id": game_id}
            if notation == "u":
                message = {"type": "undo", "id": f"a{number}", "game_id": game_id}
            else:
                message["action"] = notation
            ws.send_json(message)
            result = recv(ws)
            assert result["type"] == "result" and result["id"] == f"a{number}", result
            assert result["status"] == "accepted" and result["version"] == number
            change = result["change"]
            assert change["type"] == "change" and change["version"] == number
            assert change["notation"] == result["notation"]
            view.feed(change)
            local.play(engine.parse_action(result["notation"]))
        # The pong comes after anything the pump had for this connection.
        ping(ws)
        assert try_recv(ws) is None
        drain_to(watcher_ws, watcher, 12)
        assert [c["version"] for c in watcher.changes] == list(range(1, 13))
        assert view.state == watcher.state == public_state(client, game_id)[1]
        assert view.state == local.public_view()


def test_without_the_option_results_carry_no_change(client: CheckedClient) -> None:
    created = new_game(client)
    with client.checked_websocket() as ws:
        assert "changes_in_results" not in greet(ws)
        subscribe(ws, created["game_id"], created["player_token"])
        result, others = act(ws, created["game_id"], "d", "a1")
        assert result["status"] == "accepted" and "change" not in result
        assert [f["version"] for f in others if f["type"] == "change"] == [1]


def test_changes_in_results_keep_order_with_another_device(client: CheckedClient) -> None:
    """The same player on two connections: each sees every change once, in order, whether
    it came as a frame or inside a result."""
    created = new_game(client)
    game_id, token = created["game_id"], created["player_token"]
    with client.checked_websocket() as one, client.checked_websocket() as two:
        greet_with_changes_in_results(one)
        greet_with_changes_in_results(two)
        subscribe(one, game_id, token)
        subscribe(two, game_id, token)
        seen: dict[str, list[int]] = {"one": [], "two": []}
        for number in range(1, 9):
            name, ws = ("one", one) if number % 3 else ("two", two)
            ws.send_json({"type": "action", "id": f"a{number}", "game_id": game_id, "action": "d"})
            while True:
                frame = recv(ws)
                if frame["type"] == "change":
                    seen[name].append(frame["version"])
                    continue
                assert frame["type"] == "result" and frame["id"] == f"a{number}", frame
                if "change" in frame:
                    seen[name].append(frame["change"]["version"])
                break
        for name, ws in (("one", one), ("two", two)):
            ping_id = f"ping-{name}"
            ws.send_json({"type": "ping", "id": ping_id})
            while (frame := recv(ws))["type"] != "pong":
                assert frame["type"] == "change", frame
                seen[name].append(frame["version"])
            assert seen[name] == list(range(1, 9)), (name, seen[name])
