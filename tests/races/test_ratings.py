"""Ratings from rated races: a lobby race its host marks rated updates each player's
rating in the mode once, however often the race is read or its outcome applied again;
the ranking for the rating follows the documented race order, ties included."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from service.players.ratings import INITIAL_RATING, rating_order
from service.store.race_document import RaceDocument
from tests.players.conftest import new_player
from tests.support import CheckedClient, auth, service_client


@pytest.fixture
def service(store_url: str) -> Iterator[CheckedClient]:
    with service_client(store_url, race_countdown_seconds=0, rating_provisional_games=1) as client:
        yield client


def _entry(player_id: str, state: str, finish: int | None, f: int, s: int, m: int) -> Any:
    return {
        "player_id": player_id,
        "state": state,
        "finish_ms": finish,
        "foundations": f,
        "score": s,
        "moves": m,
    }


def test_the_rating_order_is_the_race_order_with_ties() -> None:
    ranking = [
        _entry("a", "won", 5_000, 52, 0, 90),
        _entry("b", "won", 7_000, 52, 0, 80),
        _entry("c", "resigned", None, 10, 5, 30),
        _entry("d", "playing", None, 10, 5, 30),
        _entry("e", "playing", None, 3, 0, 12),
    ]
    verified = {"a": True, "b": True, "c": True, "d": True, "e": True}
    assert rating_order(ranking, verified) == {"a": 1, "b": 2, "c": 3, "d": 3, "e": 5}
    # A game played faster than a person plays ranks after every other, as lost.
    verified["a"] = False
    assert rating_order(ranking, verified) == {"a": 5, "b": 1, "c": 2, "d": 2, "e": 4}


def test_a_race_ended_by_time_with_no_winner_ranks_by_cards_score_moves() -> None:
    ranking = [
        _entry("a", "playing", None, 8, 40, 50),
        _entry("b", "playing", None, 8, 40, 45),
        _entry("c", "playing", None, 9, 0, 99),
    ]
    assert rating_order(ranking, dict.fromkeys("abc", True)) == {"c": 1, "b": 2, "a": 3}


def _rated_race(service: CheckedClient) -> tuple[dict[str, Any], dict[str, Any], str]:
    """Ada hosts a rated race that Bob joins; Ada draws once, then both resign: Bob ranks
    first (as many cards, fewer moves)."""
    ada, bob = new_player(service, "Ada"), new_player(service, "Bob")
    body = {"name": "Ada", "game": "TF", "rated": True}
    created = service.post("/races", json=body, headers=auth(ada["player_token"]))
    assert created.status_code == 201, created.text
    host = created.json()
    assert host["race"]["rated"] is True
    joined = service.post(
        "/races/join",
        json={"join_code": host["join_code"], "name": "Bob"},
        headers=auth(bob["player_token"]),
    ).json()
    race_id = host["race_id"]
    for seat in (host, joined):
        answer = service.post(
            f"/races/{race_id}/ready", json={"ready": True}, headers=auth(seat["player_token"])
        )
        assert answer.status_code == 200, answer.text
    drawn = service.post(
        f"/games/{host['game_id']}/actions",
        json={"action": "d"},
        headers=auth(host["player_token"]),
    )
    assert drawn.status_code == 200, drawn.text
    for seat in (host, joined):
        resigned = service.post(f"/races/{race_id}/resign", headers=auth(seat["player_token"]))
        assert resigned.status_code == 200, resigned.text
    return ada, bob, race_id


def test_a_rated_race_moves_each_players_rating_once(service: CheckedClient) -> None:
    ada, bob, race_id = _rated_race(service)
    race = service.get(f"/races/{race_id}").json()["race"]
    changes = {c["player_id"]: c for c in race["result"]["ratings"]}
    ranking = {e["name"]: e["player_id"] for e in race["result"]["ranking"]}
    assert changes[ranking["Bob"]]["rank"] == 1 and changes[ranking["Ada"]]["rank"] == 2
    assert changes[ranking["Bob"]]["change"] > 0 > changes[ranking["Ada"]]["change"]

    def rating(player: dict[str, Any]) -> dict[str, Any]:
        stats = service.get(f"/players/{player['player_id']}/stats").json()
        found: dict[str, Any] = stats["ratings"]["TF.D1N"]
        return found

    first = rating(bob), rating(ada)
    assert first[0]["rating"] > INITIAL_RATING > first[1]["rating"]
    assert first[0]["games"] == 1 and not first[0]["provisional"]
    # Read again, and the outcome applied again as after a lost reply: nothing moves.
    service.get(f"/races/{race_id}")
    store = service.app.state.games.store  # type: ignore[attr-defined]
    updates = service.app.state.races.updates  # type: ignore[attr-defined]
    assert service.portal is not None
    stored = service.portal.call(store.load_race, race_id)
    doc = RaceDocument.parse(stored.doc)
    service.portal.call(updates.apply_ratings, doc)
    service.portal.call(updates.apply_ratings, doc)
    assert (rating(bob), rating(ada)) == first
    me = service.get("/players/me", headers=auth(bob["player_token"])).json()
    assert me["ratings"]["TF.D1N"] == first[0]
    board = service.get("/leaderboards/rating.TF.D1N").json()
    assert [row["name"] for row in board["top"]] == ["Bob", "Ada"]
    assert board["top"][0]["value"] == first[0]["rating"]


def test_a_rated_race_needs_its_hosts_player_token(service: CheckedClient) -> None:
    refused = service.post("/races", json={"name": "Ada", "rated": True})
    assert refused.status_code == 401 and refused.json()["code"] == "unauthorized"


def test_an_unrated_race_moves_no_rating(service: CheckedClient) -> None:
    ada = new_player(service, "Ada")
    host = service.post(
        "/races", json={"name": "Ada", "game": "TF"}, headers=auth(ada["player_token"])
    ).json()
    assert host["race"]["rated"] is False
    assert service.get(f"/players/{ada['player_id']}/stats").json()["ratings"] == {}
