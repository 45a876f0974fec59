"""Lobby rules: joining, readiness, who may start, and refused requests."""

from __future__ import annotations

from typing import Any

import pytest
import redis as redis_client

from tests.races.race_support import (
    Clock,
    create_race,
    is_race,
    join_race,
    peers,
    player_in,
    problem_code,
    race_post,
)
from tests.support import CheckedClient, auth, service_client


def _expect(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, (response.status_code, response.text)
    assert problem_code(response) == code


@pytest.fixture
def race_client(store_url: str) -> Any:
    with service_client(store_url, race_countdown_seconds=0.2) as client:
        yield client


def test_create_race_defaults_and_view(race_client: CheckedClient) -> None:
    ann = create_race(race_client, "  Ann  ")
    race = ann["race"]
    assert (race["game"], race["draw"], race["scoring"], race["max_players"]) == (
        "DS",
        1,
        "normal",
        4,
    )
    assert race["time_limit_seconds"] is None and race["ends_at"] is None
    assert race["players"][0]["name"] == "Ann"  # trimmed
    assert race["players"][0]["player_id"] == ann["player_id"] == race["host"]
    assert len(ann["join_code"]) == 8 and ann["join_code"] == ann["join_code"].upper()
    view = race_client.get(f"/races/{ann['race_id']}")
    assert view.status_code == 200
    assert view.json().get("you") is None
    mine = race_client.get(f"/races/{ann['race_id']}", headers=auth(ann["player_token"]))
    assert mine.json()["you"] == {"player_id": ann["player_id"], "game_id": ann["game_id"]}
    # Race ids and join codes are not guessable from one another.
    other = create_race(race_client, "Bob")
    assert other["race_id"] != ann["race_id"] and other["join_code"] != ann["join_code"]


def test_join_rules(race_client: CheckedClient) -> None:
    ann = create_race(race_client, "Ann", max_players=2)
    _expect(
        race_client.post("/races/join", json={"join_code": "ZZZZ99", "name": "Bob"}),
        404,
        "not_found",
    )
    bob = join_race(race_client, ann["join_code"].lower(), "Bob")
    assert [p["name"] for p in bob["race"]["players"]] == ["Ann", "Bob"]
    _expect(
        race_client.post("/races/join", json={"join_code": ann["join_code"], "name": "Cy"}),
        409,
        "race_full",
    )
    # A full race stays as it was.
    view = race_client.get(f"/races/{ann['race_id']}").json()["race"]
    assert len(view["players"]) == 2

    # Joining once the race started (not full): race_started.
    host = create_race(race_client, "Host", max_players=4)
    join_race(race_client, host["join_code"], "Early")
    response = race_post(race_client, host["race_id"], "start", host["player_token"])
    assert response.status_code == 200, response.text
    _expect(
        race_client.post("/races/join", json={"join_code": host["join_code"], "name": "Late"}),
        409,
        "race_started",
    )


def test_ready_unready_and_start_when_all_ready(race_client: CheckedClient) -> None:
    ann = create_race(race_client, "Ann", max_players=3)
    race_id = ann["race_id"]
    # Alone and ready: a race needs two players to start by readiness.
    response = race_post(race_client, race_id, "ready", ann["player_token"])
    assert response.status_code == 200 and response.json()["race"]["status"] == "lobby"
    assert player_in(response.json()["race"], ann["player_id"])["ready"]
    bob = join_race(race_client, ann["join_code"], "Bob")
    cy = join_race(race_client, ann["join_code"], "Cy")
    with peers(race_client, "spectator") as (spec,):
        spec.watch(race_id)
        response = race_post(race_client, race_id, "ready", bob["player_token"], ready=True)
        assert response.status_code == 200
        view = spec.until(is_race(race_id, lambda r: player_in(r, bob["player_id"])["ready"]))
        assert view["race"]["status"] == "lobby"
        # Ready again: nothing changes.
        again = race_post(race_client, race_id, "ready", bob["player_token"])
        assert again.status_code == 200 and again.json()["race"]["status"] == "lobby"
        response = race_post(race_client, race_id, "ready", bob["player_token"], ready=False)
        assert response.status_code == 200
        assert not player_in(response.json()["race"], bob["player_id"])["ready"]
        spec.until(is_race(race_id, lambda r: not player_in(r, bob["player_id"])["ready"]))
        race_post(race_client, race_id, "ready", cy["player_token"])
        assert race_client.get(f"/races/{race_id}").json()["race"]["status"] == "lobby"
        response = race_post(race_client, race_id, "ready", bob["player_token"])
        race = response.json()["race"]
        assert race["status"] == "countdown"
        assert race["start_at"] > race["server_time"]
        # Nobody holds a race socket here: in the race, but shown as disconnected.
        assert all(p["state"] == "disconnected" for p in race["players"])
        assert not any(p["connected"] for p in race["players"])
        spec.until(is_race(race_id, lambda r: r["status"] == "countdown"))
        # No change of mind after the start.
        _expect(
            race_post(race_client, race_id, "ready", cy["player_token"], ready=False),
            409,
            "race_started",
        )
        _expect(race_post(race_client, race_id, "start", ann["player_token"]), 409, "race_started")


def test_only_the_host_starts_even_with_players_not_ready(store_url: str) -> None:
    clock = Clock()
    with service_client(store_url, clock=clock, race_countdown_seconds=0.2) as race_client:
        _only_the_host_starts(race_client, clock)


def _only_the_host_starts(race_client: CheckedClient, clock: Clock) -> None:
    ann = create_race(race_client, "Ann")
    bob = join_race(race_client, ann["join_code"], "Bob")
    race_id = ann["race_id"]
    _expect(race_post(race_client, race_id, "start", bob["player_token"]), 403, "not_host")
    with peers(race_client, "bob") as (pb,):
        pb.watch(race_id, bob["player_token"])
        refused = pb.command(race_id, "start")
        assert refused["type"] == "error" and refused["code"] == "not_host"
        assert refused["race_id"] == race_id
        # Resigning before the start: refused.
        refused = pb.command(race_id, "resign")
        assert refused["type"] == "error" and refused["code"] == "race_not_started"
        assert race_client.get(f"/races/{race_id}").json()["race"]["status"] == "lobby"

        mark = pb.mark()
        clock.hold()  # the countdown lasts until the early action was refused, however slow
        response = race_post(race_client, race_id, "start", ann["player_token"])
        assert response.status_code == 200, response.text
        race = response.json()["race"]
        assert race["status"] == "countdown"
        assert [p["ready"] for p in race["players"]] == [False, False]
        # Bob watches the race; Ann only uses REST, so she shows as disconnected.
        assert [p["state"] for p in race["players"]] == ["disconnected", "playing"]
        assert response.json()["you"]["player_id"] == ann["player_id"]
        pb.until(is_race(race_id, lambda r: r["status"] == "countdown"), since=mark)
        # The games exist from the start; play waits for the countdown.
        refused_early = race_client.post(
            f"/games/{bob['game_id']}/actions",
            json={"action": "d"},
            headers=auth(bob["player_token"]),
        )
        _expect(refused_early, 409, "race_not_started")
        clock.release()
        running = pb.until(is_race(race_id, lambda r: r["status"] == "running"), since=mark)
        assert running["race"]["server_time"] >= running["race"]["start_at"]
        played = race_client.post(
            f"/games/{bob['game_id']}/actions",
            json={"action": "d"},
            headers=auth(bob["player_token"]),
        )
        assert played.status_code == 200, played.text
        assert pb.command(race_id, "resign")["status"] == "accepted"
        refused = pb.command(race_id, "resign")
        assert refused["type"] == "error" and refused["code"] == "race_over"
        after = race_client.post(
            f"/games/{bob['game_id']}/actions",
            json={"action": "d"},
            headers=auth(bob["player_token"]),
        )
        _expect(after, 409, "race_over")
        # Ann still plays: the race is not over while one player is still in it.
        assert race_client.get(f"/races/{race_id}").json()["race"]["status"] == "running"


BAD_CREATES: list[Any] = [
    {},
    {"name": ""},
    {"name": "   "},
    {"name": "x" * 33},
    {"name": "Ann", "max_players": 1},
    {"name": "Ann", "max_players": 9},
    {"name": "Ann", "time_limit_seconds": 29},
    {"name": "Ann", "time_limit_seconds": 86401},
    {"name": "Ann", "game": "XX"},
    {"name": "Ann", "draw": 2},
    {"name": "Ann", "scoring": "fast"},
    {"name": "Ann", "colour": "red"},
    {"name": 7},
    [],
]


@pytest.mark.parametrize("body", BAD_CREATES)
def test_bad_create_bodies_are_422(memory_client: CheckedClient, body: Any) -> None:
    _expect(memory_client.post("/races", json=body), 422, "bad_message")


def test_bad_bodies_and_unknown_races(race_client: CheckedClient) -> None:
    # Solitaire Réfléchi has no Vegas scoring.
    _expect(
        race_client.post("/races", json={"name": "Ann", "game": "TF", "scoring": "vegas"}),
        422,
        "bad_code",
    )
    _expect(
        race_client.post(
            "/races", content=b"{not json", headers={"content-type": "application/json"}
        ),
        400,
        "bad_json",
    )
    for body in ({"join_code": "ABC", "name": "Bob"}, {"join_code": "ABCDEF"}, {"name": "Bob"}):
        _expect(race_client.post("/races/join", json=body), 422, "bad_message")
    ann = create_race(race_client, "Ann")
    race_id = ann["race_id"]
    for ready_body in ({"ready": "maybe"}, {"ready": True, "extra": 1}):
        response = race_client.post(
            f"/races/{race_id}/ready", json=ready_body, headers=auth(ann["player_token"])
        )
        _expect(response, 422, "bad_message")
    _expect(race_client.get("/races/no-such-race"), 404, "not_found")
    for command in ("ready", "start", "resign", "rematch"):
        _expect(
            race_post(race_client, "no-such-race", command, ann["player_token"]), 404, "not_found"
        )


def test_commands_need_a_player_token_of_this_race(race_client: CheckedClient) -> None:
    ann = create_race(race_client, "Ann")
    bob = join_race(race_client, ann["join_code"], "Bob")
    other = create_race(race_client, "Zed")
    race_id = ann["race_id"]
    for command in ("ready", "start", "resign", "rematch"):
        for token in (None, "wrong-token", other["player_token"]):
            _expect(race_post(race_client, race_id, command, token), 401, "unauthorized")
    _expect(race_client.get(f"/races/{race_id}", headers=auth("wrong-token")), 401, "unauthorized")
    _expect(
        race_client.get(f"/races/{race_id}", headers=auth(other["player_token"])),
        401,
        "unauthorized",
    )
    view = race_client.get(f"/races/{race_id}").json()["race"]
    assert not any(p["ready"] for p in view["players"])

    with peers(race_client, "spectator", "intruder") as (spec, intruder):
        # Commands over the socket need a watch with this race's race token: without a
        # watch they are not_subscribed (as for a game), with a spectator's not_player.
        refused = intruder.command(race_id, "ready")
        assert refused["type"] == "error" and refused["code"] == "not_subscribed"
        spec.watch(race_id)
        refused = spec.command(race_id, "ready")
        assert refused["type"] == "error" and refused["code"] == "not_player"
        rid = intruder.next_id()
        intruder.send(
            {"type": "watch_race", "id": rid, "race_id": race_id, "token": other["player_token"]}
        )
        refused = intruder.reply(rid)
        assert refused["type"] == "error" and refused["code"] == "unauthorized"
        refused = intruder.command(race_id, "ready")
        assert refused["type"] == "error" and refused["code"] == "not_subscribed"
        rid = intruder.next_id()
        intruder.send({"type": "watch_race", "id": rid, "race_id": "no-such-race"})
        refused = intruder.reply(rid)
        assert refused["type"] == "error" and refused["code"] == "not_found"
        rid = intruder.next_id()
        intruder.send({"type": "unwatch_race", "id": rid, "race_id": race_id})
        refused = intruder.reply(rid)
        assert refused["type"] == "error" and refused["code"] == "not_subscribed"
        rid = intruder.next_id()
        intruder.send({"type": "race_command", "id": rid, "race_id": race_id, "command": "fly"})
        refused = intruder.reply(rid)
        assert refused["type"] == "error" and refused["code"] == "bad_message"

        # The refused watch left nothing behind: the intruder hears nothing of the race.
        race_post(race_client, race_id, "ready", bob["player_token"])
        spec.until(is_race(race_id, lambda r: player_in(r, bob["player_id"])["ready"]))
        assert not any(f["type"] in ("race", "race_progress") for f in intruder.drain())

        # Unwatching stops the race messages.
        rid = spec.next_id()
        spec.send({"type": "unwatch_race", "id": rid, "race_id": race_id})
        answer = spec.reply(rid)
        assert answer == {"type": "unsubscribed", "id": rid, "race_id": race_id}
        race_post(race_client, race_id, "ready", bob["player_token"], ready=False)
        view = race_client.get(f"/races/{race_id}").json()["race"]
        assert not player_in(view, bob["player_id"])["ready"]
        assert not any(f["type"] == "race" for f in spec.drain())


def test_watch_before_hello_is_refused(memory_client: CheckedClient) -> None:
    ann = create_race(memory_client, "Ann")
    with memory_client.checked_websocket() as ws:
        ws.send_json({"type": "watch_race", "id": "w", "race_id": ann["race_id"]})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "hello_required"


def test_a_finished_race_is_kept_for_its_result(clean_redis: str) -> None:
    """A race that is over keeps its result (WON_GAME_TTL_SECONDS, 0 = for good); a race
    still in its lobby expires like an idle game."""
    with service_client(clean_redis, race_countdown_seconds=0.0) as client:
        host = create_race(client, "Ann")
        guest = join_race(client, host["join_code"], "Bo")
        idle = create_race(client, "Cy")
        for player in (host, guest):
            token = auth(player["player_token"])
            client.post(f"/races/{host['race_id']}/ready", json={"ready": True}, headers=token)
        for player in (host, guest):
            answer = client.post(
                f"/races/{host['race_id']}/resign", headers=auth(player["player_token"])
            )
        assert answer.json()["race"]["status"] == "finished"
    keys = redis_client.Redis.from_url(clean_redis)
    try:
        assert keys.ttl(f"sol:{{race:{host['race_id']}}}:doc") == -1
        assert keys.ttl(f"sol:{{race:{idle['race_id']}}}:doc") > 0
    finally:
        keys.close()
