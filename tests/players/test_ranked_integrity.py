"""What keeps ranked play earned at the table: today's deal reaches nobody but its ranked
attempts (over the WebSocket as over REST), a player holds one seat per race, reading
old days draws no deal, and new accounts wait before they stand on public boards."""

from __future__ import annotations

from typing import Any

import pytest

from tests.players.conftest import NOON, FakeClock, new_player, play_paced, players_client
from tests.players.test_boards import _fix_daily_deal, _winnable
from tests.service.helpers import greet, recv
from tests.support import CheckedClient, auth

TODAY = "2026-12-01"


def test_the_websocket_keeps_todays_deal_to_its_attempts(service: CheckedClient) -> None:
    ada = new_player(service, "Ada")
    bob = new_player(service, "Bob")
    attempt = service.post(f"/daily/{TODAY}/TF.D1N/games", headers=auth(ada["player_token"]))
    game = attempt.json()
    with service.checked_websocket() as ws:
        greet(ws)
        # Watched without its token, or with another player's: refused, nothing sent.
        for rid, token in (("watch", None), ("rival", bob["player_token"])):
            message: dict[str, Any] = {"type": "subscribe", "id": rid, "game_id": game["game_id"]}
            if token:
                message["token"] = token
            ws.send_json(message)
            refused = recv(ws)
            assert refused["type"] == "error" and refused["id"] == rid, refused
            assert refused["code"] == ("daily_running" if token is None else "unauthorized")
        # Its own player: no hint, however it is asked.
        ws.send_json(
            {
                "type": "subscribe",
                "id": "own",
                "game_id": game["game_id"],
                "token": game["player_token"],
            }
        )
        assert recv(ws)["type"] == "subscribed"
        assert recv(ws)["type"] == "snapshot"
        ws.send_json({"type": "hint", "id": "h", "game_id": game["game_id"]})
        hint = recv(ws)
        assert hint["type"] == "error" and hint["code"] == "hints_not_allowed", hint


def test_a_player_holds_one_seat_per_race(service: CheckedClient) -> None:
    ada = new_player(service, "Ada")
    host = service.post("/races", json={"name": "Host", "game": "TF"}).json()
    body = {"join_code": host["join_code"], "name": "Ada"}
    first = service.post("/races/join", json=body, headers=auth(ada["player_token"]))
    assert first.status_code == 201, first.text
    # The same request again (its answer lost, say): the same seat, the same race token.
    again = service.post("/races/join", json=body, headers=auth(ada["player_token"]))
    assert again.status_code == 201
    assert again.json()["player_token"] == first.json()["player_token"]
    assert again.json()["game_id"] == first.json()["game_id"]
    # Another device of the same player: refused, nothing changed.
    code = service.post("/players/me/link-codes", headers=auth(ada["player_token"])).json()
    phone = service.post("/players/link", json={"link_code": code["link_code"]}).json()
    refused = service.post("/races/join", json=body, headers=auth(phone["player_token"]))
    assert refused.status_code == 409 and refused.json()["code"] == "already_in_race"
    race = service.get(f"/races/{host['race_id']}").json()["race"]
    assert [p["name"] for p in race["players"]] == ["Host", "Ada"]
    # A host who is a player cannot take a second seat in their own race either.
    own = service.post(
        "/races", json={"name": "Bea", "game": "TF"}, headers=auth(ada["player_token"])
    ).json()
    twice = service.post(
        "/races/join",
        json={"join_code": own["join_code"], "name": "Bea again"},
        headers=auth(ada["player_token"]),
    )
    assert twice.status_code == 409 and twice.json()["code"] == "already_in_race"


def _pool_size(service: CheckedClient, mode: str) -> int:
    records = service.app.state.games.store.records  # type: ignore[attr-defined]
    assert service.portal is not None
    size: int = service.portal.call(records.queue_length, f"winnable:{mode}")
    return size


def test_reading_days_nobody_played_draws_no_deal(service: CheckedClient) -> None:
    before = _pool_size(service, "TF.D1N")
    for day in ("2026-11-30", "2001-01-01", "0001-01-01"):
        board = service.get(f"/daily/{day}/TF.D1N")
        assert board.status_code == 200, board.text
        assert board.json()["public"] is True and board.json()["code"] is None
        assert board.json()["size"] == 0
    assert _pool_size(service, "TF.D1N") == before
    tomorrow = service.get("/daily/2026-12-02/TF.D1N")
    assert tomorrow.status_code == 404 and _pool_size(service, "TF.D1N") == before


@pytest.fixture
def strict(store_url: str, clock: FakeClock) -> Any:
    """A service with the public boards' eligibility as deployed."""
    with players_client(store_url, clock, board_min_account_hours=24, board_min_games=5) as client:
        yield client


def test_a_new_account_reaches_public_boards_after_a_day_and_five_games(
    strict: CheckedClient, clock: FakeClock
) -> None:
    code, line = _winnable()
    _fix_daily_deal(strict, f"{TODAY}.TF.D1N", code)
    new = new_player(strict, "New")["player_token"]
    attempt = strict.post(f"/daily/{TODAY}/TF.D1N/games", headers=auth(new)).json()
    play_paced(strict, attempt, line, clock, 200)
    board = strict.get(f"/daily/{TODAY}/TF.D1N", headers=auth(new)).json()
    assert board["size"] == 0
    mine = board["mine"]
    assert mine["verified"] is True and mine["on_board"] is False
    assert mine["off_board"] == "not_eligible"
    assert "younger than 24 hours" in mine["off_board_detail"]
    assert "4 more counted games" in mine["off_board_detail"]
    stats = strict.get("/players/me/stats", headers=auth(new)).json()
    assert stats["boards"]["eligible"] is False and stats["modes"]["TF.D1N"]["won"] == 1

    # A day later and four more games (lost ones count): the next win stands.
    clock.now = NOON + 24 * 3600
    for _ in range(4):
        game = strict.post("/games", json={"code": code}, headers=auth(new)).json()
        strict.post(f"/games/{game['game_id']}/resign", headers=auth(game["player_token"]))
    stats = strict.get("/players/me/stats", headers=auth(new)).json()
    assert stats["boards"] == {"eligible": True, "reason": None}
    game = strict.post("/games", json={"code": code}, headers=auth(new)).json()
    play_paced(strict, game, line, clock, 200)
    streaks = strict.get("/leaderboards/streak.TF.D1N").json()
    assert [(row["name"], row["value"]) for row in streaks["top"]] == [("New", 1)]
