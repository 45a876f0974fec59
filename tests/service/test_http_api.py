"""Every REST endpoint on both store backends: creation, state and ETags, changes since a
version, actions and undo with their authorisation, legal actions, records, health and
the OpenAPI document."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import jsonpatch
import pytest

from service import engine
from service.engine.rules import rejection_message
from tests.service.helpers import (
    as_object,
    pick_action,
    post_action,
    public_state,
    server_game,
    winnable_reflechi,
)
from tests.support import CheckedClient, auth, free_port, new_game, service_client

CODE_RE = re.compile(r"^(DS|TF)1-D([13])([NV])-[A-Z]{7}$")
JSON = {"content-type": "application/json"}
GAME_CLASSES = {"DS": engine.DoubleSolitaire, "TF": engine.SolitaireReflechi}


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert body["code"] == code
    assert body["type"].endswith(code)
    assert body["detail"]
    return body


def play_random(
    client: CheckedClient, created: dict[str, Any], steps: int, seed: int
) -> tuple[engine.Klondike, list[str], list[dict[str, Any]]]:
    """Plays ``steps`` accepted actions over HTTP; returns the local mirror, the applied
    notations and the changes the answers carried."""
    game_id, token = created["game_id"], created["player_token"]
    mirror = engine.new_game(created["code"])
    rng = random.Random(seed)
    applied: list[str] = []
    changes: list[dict[str, Any]] = []
    while len(applied) < steps:
        notation = pick_action(mirror, rng, tap_rate=0.0)
        assert notation is not None
        response = post_action(client, game_id, token, notation)
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["version"] == len(applied) + 1
        mirror.play(engine.parse_action(body["notation"]))
        applied.append(body["notation"])
        changes.append(body["change"])
    return mirror, applied, changes


# --------------------------------------------------------------------------- POST /games

VARIANTS = [
    ("DS", 1, "normal"),
    ("DS", 3, "normal"),
    ("DS", 1, "vegas"),
    ("DS", 3, "vegas"),
    ("TF", 1, "normal"),
    ("TF", 3, "normal"),
]


@pytest.mark.parametrize(("game", "draw", "scoring"), VARIANTS)
def test_create_random_deal(client: CheckedClient, game: str, draw: int, scoring: str) -> None:
    response = client.post("/games", json={"game": game, "draw": draw, "scoring": scoring})
    assert response.status_code == 201, response.text
    created = response.json()
    game_id = created["game_id"]
    assert response.headers["location"] == f"/games/{game_id}"
    assert response.headers["etag"] == '"0"'
    assert created["version"] == 0
    match = CODE_RE.match(created["code"])
    assert match is not None, created["code"]
    assert match.groups() == (game, str(draw), "V" if scoring == "vegas" else "N")

    state = created["state"]
    cls = GAME_CLASSES[game]
    assert (state["game"], state["draw"], state["scoring"]) == (game, draw, scoring)
    assert len(state["columns"]) == cls.column_count
    for index, column in enumerate(state["columns"]):
        assert len(column["up"]) == (1 if game == "DS" else index + 1)
        assert column["down"] == (index if game == "DS" else 0)
    dealt = sum(len(c["up"]) + c["down"] for c in state["columns"])
    assert state["stock"] + dealt == 52 * cls.kind.deck_copies
    assert state["waste"] == []
    assert state["foundations"] == [None] * cls.foundation_count
    assert state["score"] == (-104 if scoring == "vegas" else 0)
    assert state["score_display"] == ("-$104" if scoring == "vegas" else "0")
    assert (state["moves"], state["undo_available"], state["won"]) == (0, 0, False)
    # The deal is exactly the one the code names, and it is what the store holds.
    assert state == engine.new_game(created["code"]).public_view()
    assert public_state(client, game_id) == (0, state)

    other = new_game(client, game=game, draw=draw, scoring=scoring)
    assert other["game_id"] != game_id
    assert other["player_token"] != created["player_token"]


def test_create_defaults_to_double_solitaire_draw_one_normal(client: CheckedClient) -> None:
    bodies: list[dict[str, Any] | None] = [{}, None]
    for body in bodies:
        response = client.post("/games", json=body) if body is not None else client.post("/games")
        assert response.status_code == 201, response.text
        assert response.json()["code"].startswith("DS1-D1N-")


@pytest.mark.parametrize(
    "text", ["ds1-d3v-qwertyu", "TF1-D1N-AAAAAAB", " tf1-d3n-zzzzzzz ", "Ds1-D1n-BcDeFgH"]
)
def test_create_from_code_in_any_case(client: CheckedClient, text: str) -> None:
    canonical = text.strip().upper()
    first = new_game(client, code=text)
    second = new_game(client, code=canonical)
    assert first["code"] == second["code"] == canonical
    assert first["state"] == second["state"] == engine.new_game(canonical).public_view()
    assert first["game_id"] != second["game_id"]
    assert first["player_token"] != second["player_token"]


def test_fields_given_with_a_code_must_agree_with_it(client: CheckedClient) -> None:
    body = {"game": "DS", "draw": 3, "scoring": "vegas", "code": "DS1-D3V-ABCDEFG"}
    created = new_game(client, **body)
    state = created["state"]
    assert created["code"] == "DS1-D3V-ABCDEFG"
    assert (state["game"], state["draw"], state["scoring"]) == ("DS", 3, "vegas")
    for clash in ({"game": "TF"}, {"draw": 1}, {"scoring": "normal"}):
        response = client.post("/games", json={**body, **clash})
        problem = assert_problem(response, 422, "bad_code")
        assert next(iter(clash)) in problem["detail"]


def test_reflechi_with_vegas_is_a_bad_code(client: CheckedClient) -> None:
    body = assert_problem(client.post("/games", json={"game": "TF", "scoring": "vegas"}), 422,
                          "bad_code")  # fmt: skip
    assert "Normal" in body["detail"]
    assert_problem(client.post("/games", json={"code": "TF1-D1V-AAAAAAB"}), 422, "bad_code")
    assert_problem(client.post("/games", json={"code": "tf1-d3v-aaaaaab"}), 422, "bad_code")


@pytest.mark.parametrize(
    "code",
    [
        "",
        "DS1",
        "DS1-D2N-AAAAAAB",
        "XX1-D1N-AAAAAAB",
        "DS2-D1N-AAAAAAB",
        "DS1-D1X-AAAAAAB",
        "DS1-D1N-AAAAAA",
        "DS1-D1N-AAAAAAAB",
        "DS1-D1N-AAAAAA1",
        "DS1 D1N AAAAAAB",
        "DS1-D1N-ÄAAAAAB",
    ],
)
def test_bad_code_strings_are_refused(client: CheckedClient, code: str) -> None:
    assert_problem(client.post("/games", json={"code": code}), 422, "bad_code")


@pytest.mark.parametrize(
    "body",
    [
        {"code": "D" * 80},
        {"game": "XX"},
        {"draw": 2},
        {"scoring": "vegas!"},
        {"code": 12},
        {"game": "DS", "colour": "red"},
        [],
        "DS",
        None,
    ],
)
def test_create_bodies_that_do_not_fit_the_schema(client: CheckedClient, body: Any) -> None:
    response = client.post("/games", content=json.dumps(body), headers=JSON)
    assert_problem(response, 422, "bad_message")


# --------------------------------------------------------------------------- GET /games/{id}


def test_get_game_etag_and_if_none_match(client: CheckedClient) -> None:
    created = new_game(client, game="DS")
    game_id, token = created["game_id"], created["player_token"]
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 200
    assert response.headers["etag"] == '"0"'
    body = response.json()
    assert body.pop("server_time") >= created["clock_started_at"]
    assert body == {
        "game_id": game_id,
        "version": 0,
        "state": created["state"],
        "clock_started_at": created["clock_started_at"],
    }

    cached = client.get(f"/games/{game_id}", headers={"if-none-match": '"0"'})
    assert cached.status_code == 304
    assert cached.headers["etag"] == '"0"'
    assert cached.content == b""

    assert post_action(client, game_id, token, "d").status_code == 200
    fresh = client.get(f"/games/{game_id}", headers={"if-none-match": '"0"'})
    assert fresh.status_code == 200
    assert fresh.headers["etag"] == '"1"'
    assert fresh.json()["version"] == 1
    assert fresh.json()["state"]["stock"] == created["state"]["stock"] - 1

    listed = client.get(f"/games/{game_id}", headers={"if-none-match": '"7", "1"'})
    assert listed.status_code == 304
    assert listed.headers["etag"] == '"1"'
    other = client.get(f"/games/{game_id}", headers={"if-none-match": '"2"'})
    assert other.status_code == 200


def test_unknown_game_is_not_found_on_every_game_route(client: CheckedClient) -> None:
    created = new_game(client)
    headers = auth(created["player_token"])
    for method, path in [
        ("GET", "/games/nope"),
        ("GET", "/games/nope/changes"),
        ("GET", "/games/nope/legal-actions"),
        ("GET", "/games/nope/record"),
        ("POST", "/games/nope/undo"),
    ]:
        assert_problem(client.request(method, path, headers=headers), 404, "not_found")
    response = client.post("/games/nope/actions", json={"action": "d"}, headers=headers)
    assert_problem(response, 404, "not_found")
    assert_problem(client.get("/no-such-route"), 404, "not_found")


# --------------------------------------------------------------------------- GET .../changes


@pytest.mark.parametrize("game", ["DS", "TF"])
def test_changes_since_replay_to_the_current_state(client: CheckedClient, game: str) -> None:
    created = new_game(client, game=game, draw=3 if game == "TF" else 1)
    game_id = created["game_id"]
    states = [created["state"]]
    mirror = engine.new_game(created["code"])
    rng = random.Random(7)
    pushed: list[dict[str, Any]] = []
    for _ in range(30):
        notation = pick_action(mirror, rng, tap_rate=0.0)
        assert notation is not None
        body = post_action(client, game_id, created["player_token"], notation).json()
        mirror.play(engine.parse_action(body["notation"]))
        pushed.append(body["change"])
        states.append(public_state(client, game_id)[1])
    version = len(pushed)
    current = states[-1]
    assert current == mirror.public_view()

    for since in (0, 1, 2, 13, version - 1, version):
        response = client.get(f"/games/{game_id}/changes", params={"since": since})
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["game_id"] == game_id
        assert body["version"] == version
        assert body["recovered"] is True
        assert body.get("state") is None
        assert [c["version"] for c in body["changes"]] == list(range(since + 1, version + 1))
        # Rebuilt from the log, the changes are exactly the ones that were sent live.
        assert body["changes"] == pushed[since:]
        state = states[since]
        for change in body["changes"]:
            state = jsonpatch.apply_patch(state, change["patch"])
            assert state == states[change["version"]]
        assert state == current

    default = client.get(f"/games/{game_id}/changes").json()
    assert default["recovered"] is True
    assert len(default["changes"]) == version

    for since in (version + 1, version + 1000):
        body = client.get(f"/games/{game_id}/changes", params={"since": since}).json()
        assert (body["recovered"], body["changes"], body["version"]) == (False, [], version)
        assert body["state"] == current

    for text in ("-1", "abc", "1.5", ""):
        response = client.get(f"/games/{game_id}/changes", params={"since": text})
        assert_problem(response, 422, "bad_message")


def test_changes_older_than_the_catchup_limit_get_a_snapshot(store_url: str) -> None:
    with service_client(store_url, catchup_limit=5) as client:
        created = new_game(client, game="DS")
        play_random(client, created, 10, seed=3)
        game_id = created["game_id"]
        current = public_state(client, game_id)[1]
        for since in (0, 4):
            body = client.get(f"/games/{game_id}/changes", params={"since": since}).json()
            assert (body["recovered"], body["changes"], body["version"]) == (False, [], 10)
            assert body["state"] == current
        body = client.get(f"/games/{game_id}/changes", params={"since": 5}).json()
        assert body["recovered"] is True
        assert [c["version"] for c in body["changes"]] == [6, 7, 8, 9, 10]


# --------------------------------------------------------------------------- actions and undo


def test_actions_in_notation_and_object_form(client: CheckedClient) -> None:
    created = new_game(client, code="DS1-D1N-AAAAAAB")
    game_id, token = created["game_id"], created["player_token"]
    mirror = engine.new_game(created["code"])

    response = post_action(client, game_id, token, "D")
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["version"], body["notation"], body["duplicate"]) == (1, "d", False)
    change = body["change"]
    assert change["type"] == "change"
    assert (change["game_id"], change["version"], change["notation"]) == (game_id, 1, "d")
    assert change["action"] == {"type": "draw"}
    drawn = mirror.play(engine.Draw())
    assert change["events"] == drawn.events()
    assert jsonpatch.apply_patch(created["state"], change["patch"]) == mirror.public_view()

    body = post_action(client, game_id, token, {"type": "draw"}).json()
    mirror.play(engine.Draw())
    assert (body["version"], body["notation"]) == (2, "d")

    # Every listed move, in object form, is taken as the same action as its notation.
    legal = client.get(f"/games/{game_id}/legal-actions").json()["actions"]
    move = next(a for a in legal if a["action"]["type"] == "move")
    body = post_action(client, game_id, token, move["action"]).json()
    assert (body["version"], body["notation"]) == (3, move["notation"])
    assert body["change"]["action"] == move["action"]
    mirror.play(engine.parse_action(move["notation"]))
    assert public_state(client, game_id) == (3, mirror.public_view())


def test_a_tap_is_answered_as_the_move_it_made(client: CheckedClient) -> None:
    rng = random.Random(11)
    # A fixed deal: in some random ones no card reaches a foundation in 300 random actions.
    # In this one the waste's top card first fits one after 23.
    created = new_game(client, game="TF", code="TF1-D1N-AAAAAAF")
    game_id, token = created["game_id"], created["player_token"]
    mirror = engine.new_game(created["code"])
    for _ in range(300):
        tops = [(f"c{i + 1}", col[-1]) for i, col in enumerate(mirror.columns) if col] + (
            [("w", mirror.waste[-1])] if mirror.waste else []
        )
        fitting = [(pile, card) for pile, card in tops if mirror.foundation_for(card) is not None]
        if fitting:
            pile, card = fitting[0]
            place = mirror.foundation_for(card)
            assert place is not None
            body = post_action(client, game_id, token, {"type": "tap", "from": pile}).json()
            assert body["notation"] == f"{pile}>f{place + 1}"
            assert body["change"]["action"] == {
                "type": "move", "from": pile, "to": f"f{place + 1}", "count": 1
            }  # fmt: skip
            record = client.get(f"/games/{game_id}/record", headers=auth(token)).json()
            assert record["actions"][-1] == body["notation"]
            return
        notation = pick_action(mirror, rng, undo_rate=0.0, tap_rate=0.0)
        assert notation is not None
        body = post_action(client, game_id, token, notation).json()
        mirror.play(engine.parse_action(body["notation"]))
    pytest.fail("no card ever fitted a foundation")


def test_acting_needs_the_bearer_token(client: CheckedClient) -> None:
    created = new_game(client, game="DS")
    game_id, token = created["game_id"], created["player_token"]
    bad_headers: list[dict[str, str]] = [
        {},
        auth("not-the-token"),
        auth(token[:-1]),
        {"authorization": f"Basic {token}"},
        {"authorization": token},
        {"authorization": "Bearer "},
    ]
    for headers in bad_headers:
        response = client.post(f"/games/{game_id}/actions", json={"action": "d"}, headers=headers)
        assert_problem(response, 401, "unauthorized")
        assert_problem(client.post(f"/games/{game_id}/undo", headers=headers), 401, "unauthorized")
    assert public_state(client, game_id) == (0, created["state"])
    # The real token, in any letter case of the scheme.
    ok = client.post(
        f"/games/{game_id}/actions",
        json={"action": "d"},
        headers={"authorization": f"bearer {token}"},
    )
    assert ok.status_code == 200
    other = new_game(client, game="DS")
    response = post_action(client, game_id, other["player_token"], "d")
    assert_problem(response, 401, "unauthorized")
    assert public_state(client, game_id)[0] == 1


@pytest.mark.parametrize("game", ["DS", "TF"])
def test_undo(client: CheckedClient, game: str) -> None:
    created = new_game(client, game=game)
    game_id, token = created["game_id"], created["player_token"]
    rule = GAME_CLASSES[game].R_UNDO
    body = assert_problem(post_action(client, game_id, token, "u"), 409, "rule_violation")
    assert body["rule_id"] == rule
    assert (body["message_en"], body["message_fi"]) == rejection_message(rule)
    assert body["current_version"] == 0

    drew = post_action(client, game_id, token, "d").json()["change"]
    response = client.post(f"/games/{game_id}/undo", headers=auth(token))  # no body at all
    assert response.status_code == 200, response.text
    undone = response.json()
    assert (undone["version"], undone["notation"], undone["duplicate"]) == (2, "u", False)
    change = undone["change"]
    assert change["action"] is None
    assert change["events"][0] == {"type": "undone", "action": "d"}
    assert {"type": "undrew", "count": len(drew["events"][0]["cards"])} in change["events"]
    state = public_state(client, game_id)[1]
    assert state["stock"] == created["state"]["stock"]
    assert state["waste"] == []
    assert state["moves"] == 1  # undos do not count as moves; versions still go up
    assert state["undo_available"] == 0

    stale = post_action(client, game_id, token, "u", expected_version=1)
    assert assert_problem(stale, 409, "stale_version")["current_version"] == 2
    assert public_state(client, game_id)[0] == 2


def test_expected_version_and_request_ids_over_http(client: CheckedClient) -> None:
    created = new_game(client, game="DS")
    game_id, token = created["game_id"], created["player_token"]
    first = post_action(client, game_id, token, "d", expected_version=0, request_id="r-1")
    assert first.status_code == 200
    stale = post_action(client, game_id, token, "d", expected_version=0, request_id="r-2")
    body = assert_problem(stale, 409, "stale_version")
    assert body["current_version"] == 1
    state = public_state(client, game_id)
    # The same request again: answered, not played; even with its now stale version.
    again = post_action(client, game_id, token, "d", expected_version=0, request_id="r-1")
    assert again.status_code == 200
    assert again.json() == {
        "game_id": game_id, "version": 1, "notation": "d", "duplicate": True, "change": None
    }  # fmt: skip
    assert public_state(client, game_id) == state
    # A refused request id is not remembered: sent again it is judged afresh.
    ok = post_action(client, game_id, token, "d", expected_version=1, request_id="r-2")
    assert ok.json()["duplicate"] is False
    assert ok.json()["version"] == 2
    undo = post_action(client, game_id, token, "u", request_id="r-3")
    assert undo.json()["version"] == 3
    undo_again = post_action(client, game_id, token, "u", request_id="r-3")
    assert undo_again.json()["duplicate"] is True
    assert undo_again.json()["notation"] == "u"
    state = public_state(client, game_id)
    assert state[0] == 3
    # A remembered id that comes with another action is refused, and nothing is played.
    for other in ("d", "u"):
        reused = post_action(
            client, game_id, token, other, request_id="r-1" if other == "u" else "r-3"
        )
        assert_problem(reused, 409, "request_id_reused")
    assert public_state(client, game_id) == state


# --------------------------------------------------------------------------- legal actions


@pytest.mark.parametrize(("game", "steps"), [("DS", 0), ("DS", 15), ("TF", 0), ("TF", 15)])
def test_every_listed_legal_action_is_accepted(
    client: CheckedClient, game: str, steps: int
) -> None:
    created = new_game(client, game=game)
    mirror, applied, _ = play_random(client, created, steps, seed=5)
    response = client.get(f"/games/{created['game_id']}/legal-actions")
    assert response.status_code == 200
    listing = response.json()
    assert listing["game_id"] == created["game_id"]
    assert listing["version"] == steps
    actions = listing["actions"]
    assert actions, "a game that is not won always has something to do"
    assert len({a["notation"] for a in actions}) == len(actions)
    for number, entry in enumerate(actions):
        assert as_object(entry["notation"]) == entry["action"]
        # A fresh copy of the game at the same point, then the listed action.
        copy = new_game(client, code=created["code"])
        for notation in applied:
            assert (
                post_action(client, copy["game_id"], copy["player_token"], notation).status_code
                == 200
            )
        form = entry["notation"] if number % 2 else entry["action"]
        answer = post_action(client, copy["game_id"], copy["player_token"], form)
        assert answer.status_code == 200, (entry, answer.text)
        assert answer.json()["notation"] == entry["notation"]
        expected = mirror.copy()
        expected.play(engine.parse_action(entry["notation"]))
        assert public_state(client, copy["game_id"]) == (steps + 1, expected.public_view())


# --------------------------------------------------------------------------- record


def test_record_needs_the_player_token_until_won(client: CheckedClient) -> None:
    created = new_game(client, game="DS", draw=3, scoring="vegas")
    game_id, token = created["game_id"], created["player_token"]
    _, applied, _ = play_random(client, created, 20, seed=9)
    for headers in ({}, auth("wrong"), auth(new_game(client)["player_token"])):
        response = client.get(f"/games/{game_id}/record", headers=headers)
        body = assert_problem(response, 401, "unauthorized")
        assert created["code"] not in response.text
        assert body.get("rule_id") is None
    response = client.get(f"/games/{game_id}/record", headers=auth(token))
    assert response.status_code == 200
    record = response.json()
    assert record == {
        "game_id": game_id,
        "code": created["code"],
        "actions": applied,
        "record": " ".join([created["code"], *applied]),
        "version": 20,
        "won": False,
        "resigned": False,
    }
    replayed = engine.GameRecord.parse(record["record"]).replay()
    assert replayed.public_view() == public_state(client, game_id)[1]
    assert replayed.serialize() == server_game(client, game_id).serialize()


def test_a_won_game_is_closed_and_its_record_public(client: CheckedClient) -> None:
    code, line = winnable_reflechi()
    created = new_game(client, code=code)
    game_id, token = created["game_id"], created["player_token"]
    last: dict[str, Any] = {}
    for number, notation in enumerate(line, start=1):
        response = post_action(client, game_id, token, notation)
        assert response.status_code == 200, (number, notation, response.text)
        last = response.json()
    assert last["version"] == len(line)
    assert last["change"]["events"][-1] == {"type": "won"}
    version, state = public_state(client, game_id)
    assert state["won"] is True
    assert state["foundations"] == ["KS", "KH", "KD", "KC"]
    assert state["undo_available"] == 0

    for headers in ({}, auth("wrong")):
        record = client.get(f"/games/{game_id}/record", headers=headers)
        assert record.status_code == 200, record.text
        assert record.json()["won"] is True
        assert record.json()["code"] == code
        assert record.json()["actions"] == line

    for action in ("d", "u", "c1>f"):
        response = post_action(client, game_id, token, action)
        body = assert_problem(response, 409, "rule_violation")
        assert body["rule_id"] == "TF-END-2"
        assert body["current_version"] == version
    assert client.get(f"/games/{game_id}/legal-actions").json()["actions"] == []
    assert public_state(client, game_id) == (version, state)


# --------------------------------------------------------------------------- health, OpenAPI


def test_health_and_readiness(client: CheckedClient, store_url: str) -> None:
    kind = "memory" if store_url.startswith("memory") else "redis"
    for path in ("/healthz", "/readyz"):
        response = client.get(path)
        assert response.status_code == 200
        assert response.json() == {"status": "ok", "store": kind}


def test_readiness_fails_when_redis_does_not_answer() -> None:
    with service_client(f"redis://127.0.0.1:{free_port()}/0") as client:
        response = client.get("/readyz")
        assert response.status_code == 503
        assert response.json() == {"status": "unavailable", "store": "redis"}
        assert client.get("/healthz").json() == {"status": "ok", "store": "redis"}
        failed = client.post("/games", json={"game": "DS"})
        assert_problem(failed, 503, "store_unavailable")


# --------------------------------------------------------------------------- browsers (CORS)

PAGE = "https://cards.example"


def test_a_page_of_any_origin_may_call_the_api_by_default(memory_client: CheckedClient) -> None:
    preflight = memory_client.options(
        "/games/some-game/actions",
        headers={
            "origin": PAGE,
            "access-control-request-method": "POST",
            "access-control-request-headers": "authorization, content-type",
        },
    )
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == "*"
    assert "POST" in preflight.headers["access-control-allow-methods"]
    allowed = preflight.headers["access-control-allow-headers"].lower()
    assert "authorization" in allowed and "content-type" in allowed
    assert "access-control-allow-credentials" not in preflight.headers

    created = memory_client.post("/games", json={"game": "TF"}, headers={"origin": PAGE})
    assert created.status_code == 201
    assert created.headers["access-control-allow-origin"] == "*"
    game_id = created.json()["game_id"]
    state = memory_client.get(f"/games/{game_id}", headers={"origin": PAGE})
    # A polling page reads the version from ETag and the new game's URL from Location.
    exposed = state.headers["access-control-expose-headers"].lower()
    assert "etag" in exposed and "location" in exposed


def test_cors_origins_can_be_listed_or_turned_off() -> None:
    with service_client(cors_origins=f"{PAGE}, https://other.example") as client:
        listed = client.get("/healthz", headers={"origin": PAGE})
        assert listed.headers["access-control-allow-origin"] == PAGE
        stranger = client.get("/healthz", headers={"origin": "https://evil.example"})
        assert "access-control-allow-origin" not in stranger.headers
        refused = client.options(
            "/games",
            headers={"origin": "https://evil.example", "access-control-request-method": "POST"},
        )
        assert refused.status_code == 400
    with service_client(cors_origins="") as client:
        response = client.get("/healthz", headers={"origin": PAGE})
        assert response.status_code == 200
        assert "access-control-allow-origin" not in response.headers


OPENAPI_OPERATIONS = [
    ("post", "/games"),
    ("get", "/games/{game_id}"),
    ("get", "/games/{game_id}/changes"),
    ("post", "/games/{game_id}/actions"),
    ("post", "/games/{game_id}/undo"),
    ("get", "/games/{game_id}/legal-actions"),
    ("get", "/games/{game_id}/record"),
    ("get", "/healthz"),
    ("get", "/readyz"),
]


def test_openapi_document(memory_client: CheckedClient) -> None:
    response = memory_client.get("/openapi.json")
    assert response.status_code == 200
    document = response.json()
    assert document["openapi"].startswith("3.1")
    assert document["info"]["title"]
    schemas = document["components"]["schemas"]
    for method, path in OPENAPI_OPERATIONS:
        operation = document["paths"][path][method]
        assert "200" in operation["responses"] or "201" in operation["responses"]
    acting = document["paths"]["/games/{game_id}/actions"]["post"]
    assert "401" in acting["responses"] and "409" in acting["responses"]
    assert acting.get("security")

    def refs(node: Any) -> list[str]:
        if isinstance(node, dict):
            found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
            return found + [r for value in node.values() for r in refs(value)]
        if isinstance(node, list):
            return [r for value in node for r in refs(value)]
        return []

    for ref in refs(document):
        assert ref.startswith("#/components/schemas/"), ref
        assert ref.removeprefix("#/components/schemas/") in schemas, ref


def test_openapi_documents_the_oversized_body_answer(memory_client: CheckedClient) -> None:
    document = memory_client.get("/openapi.json").json()
    big = {"action": "d", "request_id": "x", "padding": "y" * 20_000}
    created = new_game(memory_client)
    for method, path, url in [
        ("post", "/games", "/games"),
        ("post", "/games/{game_id}/actions", f"/games/{created['game_id']}/actions"),
    ]:
        response = memory_client.request(method.upper(), url, json=big)
        assert response.status_code == 413
        assert "413" in document["paths"][path][method]["responses"], path


def test_a_game_keeps_at_most_the_configured_number_of_actions(store_url: str) -> None:
    with service_client(store_url, max_actions_per_game=3) as client:
        created = new_game(client)
        game_id, token = created["game_id"], created["player_token"]
        for action in ("d", "u", "d"):
            assert post_action(client, game_id, token, action).status_code == 200
        state = public_state(client, game_id)
        for action in ("d", "u"):
            assert_problem(post_action(client, game_id, token, action), 409, "game_too_long")
        assert public_state(client, game_id) == state
        record = client.get(f"/games/{game_id}/record", headers=auth(token)).json()
        assert record["actions"] == ["d", "u", "d"]
