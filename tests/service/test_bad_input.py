"""Bad input of every kind, over WebSocket and HTTP: each is refused with its error code,
the game is left exactly as it was, and the connection goes on working."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal, get_args, get_origin

import pytest
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from starlette.websockets import WebSocketDisconnect

from service import engine, protocol
from service.protocol import arenas as protocol_arenas
from service.protocol import games as protocol_games
from service.protocol import pairing as protocol_pairing
from service.protocol import players as protocol_players
from service.protocol import races as protocol_races
from service.protocol import ws as protocol_ws
from tests.service.helpers import (
    act,
    greet,
    ping,
    post_action,
    public_state,
    recv,
    subscribe,
    try_recv,
    winnable_reflechi,
)
from tests.support import CheckedClient, CheckedWebSocket, auth, new_game, service_client

JSON = {"content-type": "application/json"}
SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


class Table:
    """A DS and a TF game at their deal, a player connection subscribed to both."""

    def __init__(self, client: CheckedClient, ws: CheckedWebSocket) -> None:
        self.client = client
        self.ws = ws
        self.ds = new_game(client, game="DS", code="DS1-D1N-AAAAAAB")
        self.tf = new_game(client, game="TF", code="TF1-D1N-AAAAAAB")
        greet(ws)
        for created in (self.ds, self.tf):
            subscribe(ws, created["game_id"], created["player_token"], rid=created["code"])
        self.before = self.snapshot()

    def snapshot(self) -> list[tuple[int, dict[str, Any]]]:
        return [public_state(self.client, g["game_id"]) for g in (self.ds, self.tf)]

    def assert_unchanged(self) -> None:
        ping(self.ws)
        assert self.snapshot() == self.before


@pytest.fixture
def table(client: CheckedClient) -> Iterator[Table]:
    with client.checked_websocket() as ws:
        yield Table(client, ws)


def expect_error(ws: CheckedWebSocket, code: str, rid: str | None = None) -> dict[str, Any]:
    frame = recv(ws)
    assert frame["type"] == "error", frame
    assert frame["code"] == code, frame
    assert frame.get("id") == rid, frame
    return frame


# --------------------------------------------------------------------------- WebSocket


@pytest.mark.parametrize(
    "raw", ["{", "not json", "{'type': 'ping'}", '{"type": "ping"', "", '{"type": "ping"} x']
)
def test_malformed_json(table: Table, raw: str) -> None:
    table.ws.send_text(raw)
    expect_error(table.ws, "bad_json")
    table.assert_unchanged()


def test_malformed_bytes(table: Table) -> None:
    for raw in (b"\xff\xfe\x00", b'{"type": "ping", "id": "\xc3"}'):
        table.ws.send_bytes(raw)
        expect_error(table.ws, "bad_json")
    table.assert_unchanged()


@pytest.mark.parametrize(
    "raw", ["[]", "[1, 2]", "1", '"ping"', "null", "true", '[{"type": "ping"}]']
)
def test_json_that_is_not_an_object(table: Table, raw: str) -> None:
    table.ws.send_text(raw)
    expect_error(table.ws, "bad_message")
    table.assert_unchanged()


def test_unknown_message_types(table: Table) -> None:
    game_id = table.ds["game_id"]
    for message in (
        {"type": "teleport", "id": "t1"},
        {"type": "Action", "id": "t2", "game_id": game_id, "action": "d"},
        {"id": "t3", "game_id": game_id, "action": "d"},
        {"type": None, "id": "t4"},
    ):
        table.ws.send_json(message)
        expect_error(table.ws, "bad_message", message["id"])
    table.assert_unchanged()


def wrong_fields(game_id: str) -> list[dict[str, Any]]:
    def action(rid: str, **fields: Any) -> dict[str, Any]:
        return {"type": "action", "id": rid, "game_id": game_id, **fields}

    return [
        action("w1", action=5),
        action("w2", action=["d"]),
        action("w3", action="d", expected_version="now"),
        action("w4", action="d", expected_version=-1),
        action("w5", action={"type": "move", "from": "x9", "to": "c1"}),
        action("w6", action={"type": "move", "from": "c1", "to": "c2", "count": 0}),
        action("w7", action={"type": "move", "from": "c1", "to": "c2", "count": 53}),
        action("w8", action={"type": "fly"}),
        action("w9", action="d" * 17),
        action("w10", action=""),
        action("w11", action="d", extra=True),
        {"type": "undo", "id": "w12", "game_id": 42},
        {"type": "subscribe", "id": "w13", "game_id": game_id, "since": -1},
        {"type": "subscribe", "id": "w14", "game_id": game_id, "token": 7},
        {"type": "subscribe", "id": "w15", "game_id": "x" * 65},
        {"type": "hello", "id": "w16", "protocol": "one"},
        {"type": "ping", "id": "w17", "extra": 1},
    ]


def test_wrong_field_types_and_values(table: Table) -> None:
    for message in wrong_fields(table.ds["game_id"]):
        table.ws.send_json(message)
        expect_error(table.ws, "bad_message", message["id"])
    # An id that cannot be read is not echoed.
    for bad_id in ("", "i" * 65, 12, None):
        table.ws.send_json({"type": "action", "id": bad_id, "game_id": "g", "action": "d"})
        expect_error(table.ws, "bad_message")
    table.assert_unchanged()


def test_missing_fields(table: Table) -> None:
    game_id = table.ds["game_id"]
    for message in (
        {"type": "action", "id": "m1", "game_id": game_id},
        {"type": "action", "id": "m2", "action": "d"},
        {"type": "undo", "id": "m3"},
        {"type": "subscribe", "id": "m4"},
        {"type": "unsubscribe", "id": "m5"},
        {
            "type": "action",
            "id": "m6",
            "game_id": game_id,
            "action": {"type": "move", "from": "c1"},
        },
        {"type": "action", "id": "m7", "game_id": game_id, "action": {"type": "tap"}},
        {"type": "hello", "id": "m8"},
    ):
        table.ws.send_json(message)
        expect_error(table.ws, "bad_message", message["id"])
    for message in (
        {"type": "action", "game_id": game_id, "action": "d"},
        {"type": "undo", "game_id": game_id},
    ):
        table.ws.send_json(message)
        expect_error(table.ws, "bad_message")
    table.assert_unchanged()


def test_unknown_game_ids(table: Table) -> None:
    table.ws.send_json({"type": "subscribe", "id": "u1", "game_id": "no-such-game"})
    expect_error(table.ws, "not_found", "u1")
    table.ws.send_json({"type": "action", "id": "u2", "game_id": "no-such-game", "action": "d"})
    expect_error(table.ws, "not_subscribed", "u2")
    table.ws.send_json({"type": "undo", "id": "u3", "game_id": "no-such-game"})
    expect_error(table.ws, "not_subscribed", "u3")
    table.ws.send_json({"type": "unsubscribe", "id": "u4", "game_id": "no-such-game"})
    expect_error(table.ws, "not_subscribed", "u4")
    table.assert_unchanged()


def test_bad_token(table: Table) -> None:
    for created in (table.ds, table.tf):
        other = table.tf if created is table.ds else table.ds
        for token in ("wrong", other["player_token"], created["player_token"].upper()):
            message = {
                "type": "subscribe",
                "id": "b",
                "game_id": created["game_id"],
                "token": token,
            }
            table.ws.send_json(message)
            expect_error(table.ws, "unauthorized", "b")
    # The connection keeps its player subscriptions: acting still works afterwards.
    answer, _ = act(table.ws, table.ds["game_id"], "u", "still-player")
    assert answer["status"] == "rejected"
    table.assert_unchanged()


def test_illegal_moves_are_rejected_with_their_rule(table: Table) -> None:
    for created, cls in ((table.ds, engine.DoubleSolitaire), (table.tf, engine.SolitaireReflechi)):
        game = engine.new_game(created["code"])
        legal = {str(a) for a in game.legal_actions()}
        illegal = [
            f"c{i + 1}>c{j + 1}"
            for i in range(game.column_count)
            for j in range(game.column_count)
            if i != j and f"c{i + 1}>c{j + 1}" not in legal
        ][:4]
        illegal += [f"c{i + 1}>f" for i in range(game.column_count) if f"c{i + 1}>f" not in legal][
            :2
        ]
        for notation in [*illegal, "r", "u"]:
            answer, _ = act(table.ws, created["game_id"], notation, "illegal")
            assert answer["type"] == "result", answer
            assert (answer["status"], answer["version"]) == ("rejected", 0)
            rejection = answer["rejection"]
            with pytest.raises(engine.IllegalActionError) as refused:
                game.play(engine.parse_action(notation))
            assert rejection["rule_id"] == refused.value.rule_id
            assert rejection["rule_id"].startswith(cls.kind.value + "-")
            assert rejection["message_en"] == refused.value.message_en
            assert rejection["message_fi"] == refused.value.message_fi
    table.assert_unchanged()


@pytest.mark.parametrize(
    ("which", "action", "reason"),
    [
        ("ds", "x9>c1", "unknown_pile"),
        ("ds", "c10>c1", "bad_index"),
        ("ds", "c1>c10", "bad_index"),
        ("ds", {"type": "move", "from": "c10", "to": "c1"}, "bad_index"),
        ("ds", "c0>c1", "bad_index"),
        ("ds", "f9>c1", "bad_index"),
        ("ds", "c1>f9", "bad_index"),
        ("ds", "c3>c3", "same_pile"),
        ("ds", "c1:5>c2", "bad_count"),
        ("ds", "w>c1", "empty_pile"),
        ("ds", "tw", "empty_pile"),
        ("ds", "f1>c1", "empty_pile"),
        ("ds", "f>c1", "bad_source"),
        ("ds", "s>c1", "bad_source"),
        ("ds", "tf1", "bad_source"),
        ("ds", "c2>w", "bad_target"),
        ("ds", "c3-c5", "bad_notation"),
        ("ds", "draw", "bad_notation"),
        ("tf", "c8>c1", "bad_index"),
        ("tf", {"type": "tap", "from": "c8"}, "bad_index"),
        ("tf", "c2>f5", "bad_index"),
        ("tf", "c7>c7", "same_pile"),
        ("tf", "c1:2>c2", "bad_count"),
        ("tf", "x9>c1", "unknown_pile"),
    ],
)
def test_invalid_actions(table: Table, which: str, action: Any, reason: str) -> None:
    created = table.ds if which == "ds" else table.tf
    answer, _ = act(table.ws, created["game_id"], action, "bad")
    assert answer["type"] == "error", answer
    assert (answer["code"], answer["reason"], answer["id"]) == ("invalid_action", reason, "bad")
    assert answer["game_id"] == created["game_id"]
    table.assert_unchanged()
    # The same over HTTP.
    response = post_action(table.client, created["game_id"], created["player_token"], action)
    assert response.status_code == 422, response.text
    assert (response.json()["code"], response.json()["reason"]) == ("invalid_action", reason)
    table.assert_unchanged()


def test_actions_on_a_won_game(client: CheckedClient) -> None:
    code, line = winnable_reflechi()
    created = new_game(client, code=code)
    game_id, token = created["game_id"], created["player_token"]
    for notation in line:
        assert post_action(client, game_id, token, notation).status_code == 200
    before = public_state(client, game_id)
    assert before[1]["won"] is True
    with client.checked_websocket() as ws:
        greet(ws)
        subscribe(ws, game_id, token)
        for rid, action in enumerate(["d", "r", "u", "c1>f", "ttw", "f1>c1"]):
            answer, _ = act(ws, game_id, action, f"late-{rid}")
            assert answer["type"] == "result", answer
            assert answer["status"] == "rejected"
            assert answer["version"] == before[0]
            assert answer["rejection"]["rule_id"] == "TF-END-2"
        ping(ws)
    assert public_state(client, game_id) == before


def test_oversized_frames(store_url: str) -> None:
    with (
        service_client(store_url, max_frame_bytes=1024) as client,
        client.checked_websocket() as ws,
    ):
        table = Table(client, ws)
        game_id = table.ds["game_id"]
        action = json.dumps({"type": "action", "id": "big", "game_id": game_id, "action": "d"})
        ws.send_text(action + " " * (1025 - len(action)))
        expect_error(ws, "frame_too_large")
        ws.send_bytes((action + " " * 2000).encode())
        expect_error(ws, "frame_too_large")
        # The limit is in bytes, not characters.
        wide = json.dumps({"type": "ping", "id": "wide", "pad": "ä" * 600}, ensure_ascii=False)
        assert len(wide) < 1024 < len(wide.encode())
        ws.send_text(wide)
        expect_error(ws, "frame_too_large")
        table.assert_unchanged()
        # Exactly at the limit a frame is read as usual.
        edge = json.dumps({"type": "ping", "id": "edge"})
        ws.send_text(edge + " " * (1024 - len(edge)))
        assert recv(ws) == {"type": "pong", "id": "edge"}


def dropped_frames(client: CheckedClient) -> float:
    for line in client.get("/metrics").text.splitlines():
        if line.startswith("solitaire_ws_frames_dropped_total "):
            return float(line.split()[1])
    return 0.0


def test_a_flood_is_rate_limited_then_served_again(store_url: str) -> None:
    with (
        service_client(store_url, rate_per_second=5, rate_burst=5) as client,
        client.checked_websocket() as ws,
    ):
        dropped = dropped_frames(client)
        started = time.monotonic()
        greet(ws)  # the hello takes one token of the five
        for number in range(20):
            ws.send_json({"type": "ping", "id": f"p{number}"})
        # Until the service has read all twenty: each answered, or counted as dropped.
        answers: list[dict[str, Any]] = []
        while sum(a["type"] == "pong" for a in answers) + dropped_frames(client) - dropped < 20:
            assert time.monotonic() - started < 30, answers
            if (frame := try_recv(ws, 0.02)) is not None:
                answers.append(frame)
        # How long the service can have taken to read them: on a loaded machine, longer.
        reading = time.monotonic() - started
        time.sleep(1.1)  # the bucket refilled
        ws.send_json({"type": "ping", "id": "after"})
        while not answers or answers[-1].get("id") != "after":
            answers.append(recv(ws))
        assert answers.pop()["type"] == "pong"
        pongs = [a for a in answers if a["type"] == "pong"]
        limited = [a for a in answers if a["type"] == "error"]
        assert all(a["code"] == "rate_limited" for a in limited)
        # What was left of the burst, and the tokens that trickled in (5 a second) while
        # the service read the flood: none unless it took a fifth of a second.
        assert 4 <= len(pongs) <= 4 + 5 * reading, (answers, reading)
        # Frames over the rate are dropped unread; a refusal is answered (naming its
        # request) only after a served frame or once a second, not frame by frame.
        assert dropped_frames(client) - dropped == 20 - len(pongs)
        assert 1 <= len(limited) <= len(pongs) - 3 + int(reading), (answers, reading)
        assert {a["id"] for a in answers} <= {f"p{n}" for n in range(20)}
        assert [a["id"] for a in answers] == sorted(
            (a["id"] for a in answers), key=lambda i: int(i[1:])
        )


def test_an_endless_flood_closes_the_connection(memory_client: CheckedClient) -> None:
    with (
        service_client(rate_per_second=1, rate_burst=2, flood_dropped_frames=10) as client,
        client.checked_websocket() as ws,
    ):
        greet(ws)
        for number in range(30):
            ws.send_json({"type": "ping", "id": f"p{number}"})
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(31):
                recv(ws)
        assert closed.value.code == 1008


# --------------------------------------------------------------------------- HTTP


def test_http_bodies_that_are_not_json(client: CheckedClient) -> None:
    created = new_game(client)
    game_id, headers = created["game_id"], {**JSON, **auth(created["player_token"])}
    before = public_state(client, game_id)
    for raw in ("{", "not json", b"\xff\xfe", '{"action": "d"'):
        for path in ("/games", f"/games/{game_id}/actions", f"/games/{game_id}/undo"):
            response = client.post(path, content=raw, headers=headers)
            assert response.status_code == 400, response.text
            assert response.json()["code"] == "bad_json"
    assert public_state(client, game_id) == before


def test_http_bodies_that_do_not_fit(client: CheckedClient) -> None:
    created = new_game(client)
    game_id, headers = created["game_id"], {**JSON, **auth(created["player_token"])}
    before = public_state(client, game_id)
    body: Any
    for body in (
        [],
        {},
        {"action": 5},
        {"action": "d", "expected_version": -1},
        {"action": "d", "extra": 1},
        {"action": "d", "request_id": ""},
        {"action": "d", "request_id": "r" * 65},
        {"action": {"type": "move", "from": "c1"}},
    ):
        response = client.post(
            f"/games/{game_id}/actions", content=json.dumps(body), headers=headers
        )
        assert response.status_code == 422, (body, response.text)
        assert response.json()["code"] == "bad_message"
    for body in ([], {"expected_version": "x"}, {"action": "u"}):
        response = client.post(f"/games/{game_id}/undo", content=json.dumps(body), headers=headers)
        assert (response.status_code, response.json()["code"]) == (422, "bad_message")
    for method, path in (("POST", f"/games/{game_id}"), ("PUT", "/games"), ("POST", "/healthz")):
        response = client.request(method, path, headers=headers)
        assert (response.status_code, response.json()["code"]) == (405, "method_not_allowed")
    assert public_state(client, game_id) == before


def test_a_get_on_a_post_only_route_is_405(memory_client: CheckedClient) -> None:
    created = new_game(memory_client)
    for path in (
        "/games",
        f"/games/{created['game_id']}/actions",
        f"/games/{created['game_id']}/undo",
    ):
        response = memory_client.get(path)
        assert response.status_code == 405, (path, response.status_code)
        assert response.json()["code"] == "method_not_allowed"


def test_oversized_http_bodies(client: CheckedClient) -> None:
    created = new_game(client)
    game_id, headers = created["game_id"], {**JSON, **auth(created["player_token"])}
    before = public_state(client, game_id)
    body = json.dumps({"action": "d"})
    for path in (f"/games/{game_id}/actions", f"/games/{game_id}/undo", "/games"):
        response = client.post(
            path, content=body + " " * (16 * 1024 + 1 - len(body)), headers=headers
        )
        assert response.status_code == 413, response.text
        assert response.json()["code"] == "frame_too_large"
    assert public_state(client, game_id) == before
    # 16 KiB exactly is still read.
    response = client.post(
        f"/games/{game_id}/actions", content=body + " " * (16 * 1024 - len(body)), headers=headers
    )
    assert response.status_code == 200, response.text
    assert public_state(client, game_id)[0] == 1


def test_http_refusals_leave_the_game_alone(client: CheckedClient) -> None:
    created = new_game(client, code="DS1-D1N-AAAAAAB")
    game_id, token = created["game_id"], created["player_token"]
    before = public_state(client, game_id)
    assert post_action(client, game_id, None, "d").status_code == 401
    assert post_action(client, game_id, "wrong", "d").status_code == 401
    assert post_action(client, game_id, token, "r").status_code == 409
    assert post_action(client, game_id, token, "u").status_code == 409
    assert post_action(client, game_id, token, "d", expected_version=3).status_code == 409
    assert post_action(client, game_id, token, "c10>c1").status_code == 422
    assert client.post("/games", json={"code": "DS1-D9N-AAAAAAB"}).status_code == 422
    assert public_state(client, game_id) == before


# --------------------------------------------------------------------------- booleans

NOT_BOOLEANS: list[Any] = ["yes", "true", "false", "1", "", 1, 0, 1.0, [], {}]


def models_in(annotation: Any) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for arg in get_args(annotation):
        yield from models_in(arg)


def is_boolean(annotation: Any) -> bool:
    if annotation is bool:
        return True
    if get_origin(annotation) is Literal:
        return all(isinstance(value, bool) for value in get_args(annotation))
    return any(is_boolean(arg) for arg in get_args(annotation) if arg is not type(None))


def request_models() -> list[type[BaseModel]]:
    """Every model a client sends, at any depth: the HTTP bodies (the request bodies of
    openapi.json) and the WebSocket's client messages."""
    document = json.loads((SCHEMAS / "openapi.json").read_text(encoding="utf-8"))
    bodies = {
        operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
        for item in document["paths"].values()
        for operation in item.values()
        if "requestBody" in operation
    }
    modules = [
        protocol,
        protocol_games,
        protocol_races,
        protocol_players,
        protocol_pairing,
        protocol_arenas,
    ]
    found = [
        value
        for module in modules
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, BaseModel) and value.__name__ in bodies
    ]
    assert len(found) == len(bodies), bodies
    found += models_in(protocol_ws.ClientMessage)
    models: list[type[BaseModel]] = []
    while found:
        model = found.pop()
        if model not in models:
            models.append(model)
            for field in model.model_fields.values():
                found += models_in(field.annotation)
    return models


def boolean_fields() -> list[tuple[type[BaseModel], str]]:
    return [
        (model, field.alias or name)
        for model in request_models()
        for name, field in model.model_fields.items()
        if is_boolean(field.annotation)
    ]


def test_every_boolean_a_client_sends_is_found() -> None:
    found = {f"{model.__name__}.{name}" for model, name in boolean_fields()}
    assert found >= {
        "CreateGameRequest.secret",
        "CreateGameRequest.winnable",
        "CreateRaceRequest.winnable",
        "ReadyRequest.ready",
        "DailyPlayRequest.ranked",
        "HelloMessage.changes_in_results",
        "TapAction.double",
    }


@pytest.mark.parametrize(
    ("model", "name"), boolean_fields(), ids=lambda item: getattr(item, "__name__", item)
)
def test_a_boolean_a_client_sends_is_json_true_or_false(model: type[BaseModel], name: str) -> None:
    _refused_both_ways(model, name, NOT_BOOLEANS)


def _refused_both_ways(model: type[BaseModel], name: str, values: list[Any]) -> None:
    """Each value of field ``name`` is refused, read from JSON (the WebSocket) and from
    decoded JSON (HTTP bodies) alike, with an error at that field."""
    for value in values:
        with pytest.raises(ValidationError) as from_json:
            model.model_validate_json(json.dumps({name: value}))
        with pytest.raises(ValidationError) as decoded:
            model.model_validate({name: value})
        for refused in (from_json, decoded):
            assert (name,) in [error["loc"] for error in refused.value.errors()], value


def test_http_booleans_take_only_true_or_false(client: CheckedClient) -> None:
    for body in ({"secret": "yes"}, {"secret": 1}, {"secret": "true"}, {"winnable": 0}):
        answer = client.post("/games", json={"game": "TF", **body})
        assert (answer.status_code, answer.json()["code"]) == (422, "bad_message"), body
    assert client.post("/games", json={"game": "TF", "secret": True}).status_code == 201
    created = new_game(client)
    tap = {"type": "tap", "from": "c1", "double": "yes"}
    played = post_action(client, created["game_id"], created["player_token"], tap)
    assert (played.status_code, played.json()["code"]) == (422, "bad_message")
    host = client.post("/races", json={"name": "Ada", "game": "TF"}).json()
    for ready in ("yes", 1):
        answer = client.post(
            f"/races/{host['race_id']}/ready",
            json={"ready": ready},
            headers=auth(host["player_token"]),
        )
        assert (answer.status_code, answer.json()["code"]) == (422, "bad_message"), ready
    # Taken for true, 1 made this a request for the ranked attempt, refused without a
    # player token (401); it is no boolean.
    today = datetime.now(UTC).date().isoformat()
    answer = client.post(f"/daily/{today}/TF.D1N/games", json={"ranked": 1})
    assert (answer.status_code, answer.json()["code"]) == (422, "bad_message")
    assert public_state(client, created["game_id"]) == (0, created["state"])


def test_websocket_booleans_take_only_true_or_false(table: Table) -> None:
    game_id = table.ds["game_id"]
    for flag in ("yes", 1, "true"):
        table.ws.send_json({"type": "hello", "protocol": 1, "changes_in_results": flag})
        expect_error(table.ws, "bad_message")
    for rid, double in (("b1", "true"), ("b2", 0)):
        tap = {"type": "tap", "from": "c1", "double": double}
        table.ws.send_json({"type": "action", "id": rid, "game_id": game_id, "action": tap})
        expect_error(table.ws, "bad_message", rid)
    table.assert_unchanged()


# --------------------------------------------------------------------------- numbers and strings

NOT_STRINGS: list[Any] = [1, 0, 1.5, True, False, [], {}]


def valid_integer(field: FieldInfo) -> int:
    """An integer the field takes: its literal's first value, or its least one."""
    types = [field.annotation, *get_args(field.annotation)]
    literal = [a for a in types if get_origin(a) is Literal]
    valid: int = get_args(literal[0])[0] if literal else 1
    constraints = list(field.metadata)
    for member in types:  # the bounds of an optional integer are on its int member
        if get_origin(member) is Annotated:
            for extra in get_args(member)[1:]:
                constraints += extra.metadata if isinstance(extra, FieldInfo) else [extra]
    for constraint in constraints:
        valid = max(valid, getattr(constraint, "ge", valid))
    return valid


def not_integers(field: FieldInfo) -> list[Any]:
    """What lax reading would have taken for a valid integer of the field: the integer as
    a string, booleans (true for 1), a number with a fraction, and more that is no integer
    at all. (A whole number written with a fraction, 5.0, is an integer: JSON Schema counts
    it as one, and so does the service.)"""
    valid = valid_integer(field)
    return [str(valid), valid + 0.5, True, False, "", [], {}]


def kind_of(annotation: Any) -> str | None:
    """``integer`` or ``string`` when every type an annotation allows (besides null) is
    one, whether plain, constrained, a literal or a string enum; None otherwise."""
    if get_origin(annotation) is Annotated:
        return kind_of(get_args(annotation)[0])
    if get_origin(annotation) is Literal:
        values = get_args(annotation)
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return "integer"
        return "string" if all(isinstance(v, str) for v in values) else None
    if annotation is int:
        return "integer"
    if isinstance(annotation, type) and issubclass(annotation, str):
        return "string"
    kinds = {kind_of(arg) for arg in get_args(annotation) if arg is not type(None)}
    return kinds.pop() if len(kinds) == 1 else None


def typed_fields(kind: str) -> list[tuple[type[BaseModel], str]]:
    return [
        (model, field.alias or name)
        for model in request_models()
        for name, field in model.model_fields.items()
        if kind_of(field.annotation) == kind
    ]


def test_every_number_and_string_a_client_sends_is_found() -> None:
    integers = {f"{model.__name__}.{name}" for model, name in typed_fields("integer")}
    assert integers >= {
        "CreateGameRequest.draw",
        "CreateRaceRequest.draw",
        "CreateRaceRequest.max_players",
        "CreateRaceRequest.time_limit_seconds",
        "ActionRequest.expected_version",
        "UndoRequest.expected_version",
        "ActionMessage.expected_version",
        "UndoMessage.expected_version",
        "SubscribeMessage.since",
        "HelloMessage.protocol",
        "MoveAction.count",
    }
    strings = {f"{model.__name__}.{name}" for model, name in typed_fields("string")}
    assert strings >= {
        "CreateGameRequest.game",
        "CreateGameRequest.scoring",
        "CreateGameRequest.code",
        "CreateRaceRequest.scoring",
        "JoinRaceRequest.join_code",
        "CreatePlayerRequest.name",
        "ActionRequest.request_id",
        "SubscribeMessage.token",
        "RaceCommandMessage.command",
        "MoveAction.from",
        "HelloMessage.type",
    }


def test_every_model_a_client_sends_is_strict() -> None:
    """What makes lax reading impossible: the strict base of requests (docs/protocol.md)."""
    assert [m.__name__ for m in request_models() if not m.model_config.get("strict")] == []


@pytest.mark.parametrize(
    ("model", "name", "wrong"),
    [(m, n, not_integers(m.model_fields[n])) for m, n in typed_fields("integer")]
    + [(m, n, NOT_STRINGS) for m, n in typed_fields("string")],
    ids=lambda item: getattr(item, "__name__", item if isinstance(item, str) else "values"),
)
def test_a_number_or_string_a_client_sends_has_its_json_type(
    model: type[BaseModel], name: str, wrong: list[Any]
) -> None:
    _refused_both_ways(model, name, wrong)


@pytest.mark.parametrize(
    ("model", "name"), typed_fields("integer"), ids=lambda item: getattr(item, "__name__", item)
)
def test_an_integer_written_with_a_fraction_is_taken_as_the_integer(
    model: type[BaseModel], name: str
) -> None:
    """5.0 is the integer 5 to JSON Schema (draft 2020-12), and to the service: read from
    JSON and from decoded JSON alike, the field has no error (the model's other fields may
    be missing)."""
    valid = valid_integer(model.model_fields[name])
    for text in (f"{valid}.0", f"{valid}e0"):
        for from_json in (True, False):
            try:
                if from_json:
                    model.model_validate_json(f'{{"{name}": {text}}}')
                else:
                    model.model_validate({name: json.loads(text)})
            except ValidationError as error:
                assert (name,) not in [e["loc"] for e in error.errors()], (text, error)


def test_http_numbers_take_only_json_integers(client: CheckedClient) -> None:
    for body in ({"draw": True}, {"draw": "1"}, {"draw": 2.5}, {"scoring": 1}, {"game": 1}):
        answer = client.post("/games", json={"game": "TF", **body})
        assert (answer.status_code, answer.json()["code"]) == (422, "bad_message"), body
    for body in ({"draw": True}, {"draw": "3"}, {"max_players": 2.5}, {"max_players": "4"}):
        answer = client.post("/races", json={"name": "Ada", "game": "TF", **body})
        assert (answer.status_code, answer.json()["code"]) == (422, "bad_message"), body
    answer = client.post("/races", json={"name": "Ada", "time_limit_seconds": 60.5})
    assert (answer.status_code, answer.json()["code"]) == (422, "bad_message")
    created = new_game(client, game="TF", draw=3, scoring="normal")
    game_id, token = created["game_id"], created["player_token"]
    for version in ("5", "0", True, False, 0.5):
        for action in ("d", "u"):
            answer = post_action(client, game_id, token, action, expected_version=version)
            assert (answer.status_code, answer.json()["code"]) == (422, "bad_message"), version
    move = {"type": "move", "from": "c1", "to": "c2", "count": True}
    answer = post_action(client, game_id, token, move)
    assert (answer.status_code, answer.json()["code"]) == (422, "bad_message")
    assert public_state(client, game_id) == (0, created["state"])
    assert post_action(client, game_id, token, "d", expected_version=0).status_code == 200
    race = client.post("/races", json={"name": "Ada", "draw": 3, "max_players": 2})
    assert race.status_code == 201, race.text


def test_http_integers_written_with_a_fraction_are_integers(client: CheckedClient) -> None:
    """JSON Schema counts 3.0 as the integer 3, and so does the service (a JavaScript
    client cannot always tell them apart)."""
    created = client.post("/games", json={"game": "TF", "draw": 3.0})
    assert created.status_code == 201, created.text
    assert created.json()["state"]["draw"] == 3
    game_id, token = created.json()["game_id"], created.json()["player_token"]
    answer = post_action(client, game_id, token, "d", expected_version=0.0)
    assert (answer.status_code, answer.json()["version"]) == (200, 1)
    answer = post_action(client, game_id, token, "u", expected_version=1e0)
    assert (answer.status_code, answer.json()["version"]) == (200, 2)
    stale = post_action(client, game_id, token, "d", expected_version=7.0)
    assert (stale.status_code, stale.json()["current_version"]) == (409, 2)
    body = {"name": "Ada", "max_players": 2.0, "time_limit_seconds": 6e1}
    race = client.post("/races", json=body).json()["race"]
    assert (race["max_players"], race["time_limit_seconds"]) == (2, 60)


def test_websocket_numbers_take_only_json_integers(table: Table) -> None:
    game_id = table.ds["game_id"]
    for protocol_version in ("1", True, 1.5):
        table.ws.send_json({"type": "hello", "protocol": protocol_version})
        expect_error(table.ws, "bad_message")
    for rid, version in (("n1", "5"), ("n2", "0"), ("n3", True), ("n4", 0.5)):
        message = {"id": rid, "game_id": game_id, "expected_version": version}
        table.ws.send_json({"type": "action", "action": "d", **message})
        expect_error(table.ws, "bad_message", rid)
        table.ws.send_json({"type": "undo", **message})
        expect_error(table.ws, "bad_message", rid)
    for rid, count in (("c1", True), ("c2", "1"), ("c3", 1.5)):
        move = {"type": "move", "from": "c1", "to": "c2", "count": count}
        table.ws.send_json({"type": "action", "id": rid, "game_id": game_id, "action": move})
        expect_error(table.ws, "bad_message", rid)
    for rid, since in (("s1", "0"), ("s2", False)):
        table.ws.send_json({"type": "subscribe", "id": rid, "game_id": game_id, "since": since})
        expect_error(table.ws, "bad_message", rid)
    table.ws.send_json({"type": "race_command", "id": "r1", "race_id": "x", "command": 1})
    expect_error(table.ws, "bad_message", "r1")
    table.assert_unchanged()


def test_websocket_integers_written_with_a_fraction_are_integers(table: Table) -> None:
    game_id = table.tf["game_id"]
    move = {"type": "move", "from": "c1", "to": "c7", "count": 1.0}
    table.ws.send_json(
        {"type": "action", "id": "f1", "game_id": game_id, "action": move, "expected_version": 0.0}
    )
    result = table.ws.receive_until("result")
    assert (result["id"], result["status"], result["version"]) == ("f1", "accepted", 1), result
    table.ws.send_json({"type": "subscribe", "id": "f2", "game_id": game_id, "since": 1.0})
    subscribed = table.ws.receive_until("subscribed")
    assert (subscribed["recovered"], subscribed["version"]) == (True, 1), subscribed
