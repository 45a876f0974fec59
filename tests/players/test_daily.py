"""The daily challenge: one deal per mode and UTC day for everyone, one ranked attempt per
player, a board ranked by won, time, cards on foundations and moves, and nothing of the
deal public before midnight (tested across midnight with the service's clock)."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from service import engine
from service.players.stats import Ending
from tests.players.conftest import NOON, FakeClock, new_player
from tests.support import CheckedClient, auth

TODAY = "2026-12-01"


def _play_daily(client: CheckedClient, mode: str, token: str | None) -> dict[str, Any]:
    headers = auth(token) if token else {}
    response = client.post(f"/daily/{TODAY}/{mode}/games", headers=headers)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def _act(client: CheckedClient, game: dict[str, Any], path: str, **body: Any) -> Any:
    return client.post(
        f"/games/{game['game_id']}/{path}", json=body or None, headers=auth(game["player_token"])
    )


def test_today_lists_one_challenge_per_mode(service: CheckedClient) -> None:
    overview = service.get("/daily").json()
    assert overview["date"] == TODAY
    assert [c["mode"] for c in overview["challenges"]] == ["DS.D1N", "DS.D3N", "TF.D1N", "TF.D3N"]
    assert overview["next_at"] == int((NOON + 12 * 3600) * 1000)
    assert overview["seconds_to_next"] == 12 * 3600
    assert all(c["challenge_id"] == f"{TODAY}.{c['mode']}" for c in overview["challenges"])


def test_everyone_gets_the_same_deal_and_one_ranked_attempt(service: CheckedClient) -> None:
    ada = new_player(service, "Ada")["player_token"]
    bob = new_player(service, "Bob")["player_token"]
    first = _play_daily(service, "DS.D1N", ada)
    other = _play_daily(service, "DS.D1N", bob)
    assert first["ranked"] and other["ranked"]
    assert first["code"] is None
    assert first["state"] == other["state"]
    assert first["state"] != _play_daily(service, "DS.D3N", ada)["state"]
    # The clock runs from the deal, which the answer names.
    assert first["clock_started_at"] == int(NOON * 1000) == first["server_time"]
    overview = service.get("/daily", headers=auth(ada)).json()
    entry = next(c for c in overview["challenges"] if c["mode"] == "DS.D1N")
    assert entry["ranked_game_id"] == first["game_id"]


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/daily/2026-12-02/TF.D1N", 404, "not_found"),  # tomorrow
        ("/daily/2026-13-01/TF.D1N", 422, "bad_message"),
        ("/daily/yesterday/TF.D1N", 422, "bad_message"),
        (f"/daily/{TODAY}/TF.D1V", 404, "not_found"),
        (f"/daily/{TODAY}/TF.D1N?top=1000", 422, "bad_message"),
        (f"/daily/{TODAY}/TF.D1N?around=x", 422, "bad_message"),
    ],
)
def test_bad_days_and_modes(service: CheckedClient, path: str, status: int, code: str) -> None:
    response = service.get(path)
    assert response.status_code == status, response.text
    assert response.json()["code"] == code
    if path.count("/") == 3 and "?" not in path:
        played = service.post(path + "/games")
        assert played.status_code == status


def test_a_past_day_cannot_be_played(service: CheckedClient, clock: FakeClock) -> None:
    clock.now += 24 * 3600
    response = service.post(f"/daily/{TODAY}/TF.D1N/games")
    assert response.status_code == 409 and response.json()["code"] == "daily_closed"


def test_today_is_played_only_as_each_players_ranked_attempt(service: CheckedClient) -> None:
    """No anonymous game of today's deal, and no practice before or after one's attempt:
    nobody sees the deal but in the game that ranks."""
    path = f"/daily/{TODAY}/TF.D1N/games"
    anonymous = service.post(path)
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "unauthorized"
    ada = new_player(service, "Ada")
    first = _play_daily(service, "TF.D1N", ada["player_token"])
    assert _act(service, first, "actions", action="d").status_code == 200
    for body in (None, {"ranked": True}):
        again = service.post(path, json=body, headers=auth(ada["player_token"]))
        assert again.status_code == 409 and again.json()["code"] == "daily_attempt_used"
        assert first["game_id"] in again.json()["detail"]
    # Neither hints nor the solver's verdict on it; no record or replay, even its own.
    hint = _act(service, first, "hint")
    assert hint.status_code == 403 and hint.json()["code"] == "hints_not_allowed"
    for what in ("analysis", "replay", "record"):
        response = service.get(
            f"/games/{first['game_id']}/{what}", headers=auth(first["player_token"])
        )
        assert response.status_code == 403 and response.json()["code"] == "daily_running", what


def test_the_request_of_an_attempt_sent_again_answers_the_same_attempt(
    service: CheckedClient,
) -> None:
    """A device whose answer was lost asks again: before its first action it gets the
    same game with the same game token; another device of the same player does not."""
    ada = new_player(service, "Ada")
    first = _play_daily(service, "TF.D1N", ada["player_token"])
    again = _play_daily(service, "TF.D1N", ada["player_token"])
    assert again["game_id"] == first["game_id"]
    assert again["player_token"] == first["player_token"]
    assert again["state"] == first["state"] and again["ranked"] is True
    linked = service.post("/players/me/link-codes", headers=auth(ada["player_token"])).json()
    other = service.post("/players/link", json={"link_code": linked["link_code"]}).json()
    refused = service.post(f"/daily/{TODAY}/TF.D1N/games", headers=auth(other["player_token"]))
    assert refused.status_code == 409 and refused.json()["code"] == "daily_attempt_used"
    assert _act(service, first, "actions", action="d").status_code == 200
    played = service.post(f"/daily/{TODAY}/TF.D1N/games", headers=auth(ada["player_token"]))
    assert played.status_code == 409 and played.json()["code"] == "daily_attempt_used"


def _secret_forms(code: str) -> list[str]:
    seed = engine.GameCode.parse(code).deal
    raw = seed.to_bytes(16, "big")
    return [
        code,
        code.rsplit("-", 1)[1],
        str(seed),
        f"{seed:x}",
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
    ]


def test_the_board_and_the_reveal_at_midnight(service: CheckedClient, clock: FakeClock) -> None:
    seen: list[str] = []

    def get(path: str, token: str | None = None) -> Any:
        response = service.get(path, headers=auth(token) if token else {})
        seen.append(f"{response.status_code} {dict(response.headers)} {response.text}")
        return response

    players = {name: new_player(service, name) for name in ("Ada", "Bob", "Cy")}
    games = {}
    for name, player in players.items():
        game = _play_daily(service, "TF.D3N", player["player_token"])
        seen.append(json.dumps(game))
        games[name] = game
    # Each draws a different number of times and resigns; nobody wins.
    for name, draws in (("Ada", 1), ("Bob", 2), ("Cy", 3)):
        for _ in range(draws):
            seen.append(_act(service, games[name], "actions", action="d").text)
        seen.append(_act(service, games[name], "resign").text)

    ada = players["Ada"]["player_token"]
    # Before midnight: the games and records are private, the board shows no games.
    for name, game in games.items():
        record = get(f"/games/{game['game_id']}/record", players[name]["player_token"])
        assert record.status_code == 403 and record.json()["code"] == "daily_running"
        assert get(f"/games/{game['game_id']}").status_code == 403
        assert get(f"/games/{game['game_id']}/changes?since=0").status_code == 403
    own = get(f"/games/{games['Ada']['game_id']}", games["Ada"]["player_token"])
    assert own.status_code == 200
    board = get(f"/daily/{TODAY}/TF.D3N?top=10&around=1", ada).json()
    assert board["public"] is False and board["code"] is None
    assert board["size"] == 3
    assert [row["name"] for row in board["top"]] == ["Ada", "Bob", "Cy"]  # fewer moves first
    assert all("game_id" not in row or row["game_id"] is None for row in board["top"])
    assert board["you"]["rank"] == 1 and board["you"]["name"] == "Ada"
    assert [row["name"] for row in board["around"]] == ["Ada", "Bob"]

    clock.now += 12 * 3600  # midnight
    board = service.get(f"/daily/{TODAY}/TF.D3N").json()
    assert board["public"] is True
    code = board["code"]
    assert engine.GameCode.parse(code).secret and code.startswith("TF1-D3N-")
    assert {row["game_id"] for row in board["top"]} == {g["game_id"] for g in games.values()}
    for game in games.values():
        record = service.get(f"/games/{game['game_id']}/record")
        assert record.status_code == 200 and record.json()["code"] == code
    for form in _secret_forms(code):
        for text in seen:
            assert form not in text, f"{form} was sent before midnight: {text}"
    # The next day has a new deal.
    tomorrow = service.post("/daily/2026-12-02/TF.D3N/games", headers=auth(ada))
    assert tomorrow.json()["state"] != games["Ada"]["state"]


def _ending(won: bool, time_ms: int | None, moves: int, foundations: int) -> Ending:
    return Ending("g", "TF.D1N", won, time_ms, moves, 0, foundations, 52, False, False)


def test_ranking_won_then_time_then_foundations_then_moves() -> None:
    order = [
        _ending(True, 60_000, 300, 52),
        _ending(True, 60_000, 301, 52),
        _ending(True, 61_000, 100, 52),
        _ending(False, None, 500, 40),
        _ending(False, None, 10, 39),
        _ending(False, None, 11, 39),
        _ending(False, None, 0, 0),
    ]
    scores = [ending.rank_score() for ending in order]
    assert scores == sorted(scores) and len(set(scores)) == len(scores)


def test_asking_for_the_ranked_attempt_once_played_is_refused_and_creates_nothing(
    service: CheckedClient,
) -> None:
    ada = new_player(service, "Ada")["player_token"]
    path = f"/daily/{TODAY}/TF.D1N/games"
    first = service.post(path, json={"ranked": True}, headers=auth(ada))
    assert first.status_code == 201 and first.json()["ranked"] is True
    again = service.post(path, json={"ranked": True}, headers=auth(ada))
    assert again.status_code == 201 and again.json()["game_id"] == first.json()["game_id"]
    assert _act(service, first.json(), "actions", action="d").status_code == 200
    again = service.post(path, json={"ranked": True}, headers=auth(ada))
    assert again.status_code == 409, again.text
    assert again.json()["code"] == "daily_attempt_used"
    assert first.json()["game_id"] in again.json()["detail"]
    anonymous = service.post(path, json={"ranked": True})
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "unauthorized"
    refused = service.post(path, json={"ranked": False}, headers=auth(ada))
    assert refused.status_code == 422 and refused.json()["code"] == "bad_message"
    # Nothing was created by the refusals: the ranked attempt is still the first game.
    overview = service.get("/daily", headers=auth(ada)).json()
    entry = next(c for c in overview["challenges"] if c["mode"] == "TF.D1N")
    assert entry["ranked_game_id"] == first.json()["game_id"]


def test_a_ranked_attempt_closes_at_midnight_and_counts_as_it_stood(
    service: CheckedClient, clock: FakeClock
) -> None:
    ada, bob = new_player(service, "Ada"), new_player(service, "Bob")
    cy = new_player(service, "Cy")
    open_attempt = _play_daily(service, "DS.D3N", ada["player_token"])
    ended = _play_daily(service, "DS.D3N", bob["player_token"])
    untouched = _play_daily(service, "DS.D3N", cy["player_token"])
    for _ in range(3):
        assert _act(service, open_attempt, "actions", action="d").status_code == 200
    assert _act(service, ended, "actions", action="d").status_code == 200
    assert _act(service, ended, "resign").status_code == 200

    board = service.get(f"/daily/{TODAY}/DS.D3N").json()
    assert board["size"] == 3  # an attempt is on the board from its deal
    rows = {row["name"]: row for row in board["top"]}
    assert rows["Ada"]["open"] is True and rows["Bob"].get("open") is None
    assert rows["Cy"]["open"] is True and rows["Cy"]["moves"] == 0

    clock.now += 12 * 3600  # midnight: every attempt is frozen
    late = _act(service, open_attempt, "actions", action="d")
    assert late.status_code == 409 and late.json()["code"] == "daily_closed"
    assert _act(service, open_attempt, "resign").status_code == 409

    board = service.get(f"/daily/{TODAY}/DS.D3N").json()
    rows = {row["name"]: row for row in board["top"]}
    assert rows["Ada"].get("open") is None and rows["Ada"]["won"] is False
    assert rows["Ada"]["moves"] == 3 and rows["Ada"]["game_id"] == open_attempt["game_id"]
    # Dealt and never played: counted as played and not won, which ends a streak.
    assert rows["Cy"].get("open") is None and rows["Cy"]["game_id"] == untouched["game_id"]
    for player in (ada, cy):
        stats = service.get("/players/me/stats", headers=auth(player["player_token"])).json()
        assert stats["modes"]["DS.D3N"]["played"] == 1 and stats["modes"]["DS.D3N"]["won"] == 0
    # Counted once, however often the board is read.
    service.get(f"/daily/{TODAY}/DS.D3N")
    stats = service.get("/players/me/stats", headers=auth(ada["player_token"])).json()
    assert stats["modes"]["DS.D3N"]["played"] == 1


def test_your_row_is_your_row_of_the_top(service: CheckedClient, clock: FakeClock) -> None:
    """``you`` carries every field of the same player's row in ``top``: an open attempt,
    an ended one, before midnight (no game) and after (with it)."""
    players = {name: new_player(service, name) for name in ("Ada", "Bob", "Cy")}
    games = {name: _play_daily(service, "TF.D3N", p["player_token"]) for name, p in players.items()}
    for name, draws in (("Ada", 1), ("Bob", 2), ("Cy", 1)):
        for _ in range(draws):
            assert _act(service, games[name], "actions", action="d").status_code == 200
    assert _act(service, games["Ada"], "resign").status_code == 200
    assert _act(service, games["Bob"], "resign").status_code == 200  # Cy's stays open

    def check() -> None:
        for name, player in players.items():
            token = player["player_token"]
            board = service.get(f"/daily/{TODAY}/TF.D3N?around=0", headers=auth(token)).json()
            mine = [row for row in board["top"] if row["player_id"] == player["player_id"]]
            assert [board["you"]] == mine, name
            assert {"won", "moves", "foundations"} <= board["you"].keys()

    check()
    clock.now += 12 * 3600  # midnight: the rows show their games, Cy's attempt counted
    check()
