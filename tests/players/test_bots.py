"""A scripted bot on the daily board: the same script wins the day's deal at a machine's
pace and at a person's. The server times every action with its clock (the tests move it
between actions, as time would pass), so the judgement needs nothing the client says."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tests.players.conftest import FakeClock, new_player
from tests.players.test_boards import _fix_daily_deal, _winnable
from tests.support import CheckedClient, auth

TODAY = "2026-12-01"


def bot(
    client: CheckedClient, clock: FakeClock, token: str, pause: Callable[[], float]
) -> dict[str, Any]:
    """Plays its ranked attempt at the day's deal from the winning line it found
    offline, waiting ``pause()`` seconds before each action."""
    attempt: dict[str, Any] = client.post(
        f"/daily/{TODAY}/TF.D1N/games", headers=auth(token)
    ).json()
    headers = auth(attempt["player_token"])
    for action in _winnable()[1]:
        clock.now += pause()
        answer = client.post(
            f"/games/{attempt['game_id']}/actions", json={"action": action}, headers=headers
        )
        assert answer.status_code == 200, answer.text
    return attempt


def test_a_bot_at_5_ms_a_move_ends_off_the_board_with_its_reason(
    service: CheckedClient, clock: FakeClock
) -> None:
    _fix_daily_deal(service, f"{TODAY}.TF.D1N", _winnable()[0])
    fast = new_player(service, "Fast")["player_token"]
    attempt = bot(service, clock, fast, lambda: 0.005)

    board = service.get(f"/daily/{TODAY}/TF.D1N", headers=auth(fast)).json()
    assert board["size"] == 0 and board["you"] is None
    mine = board["mine"]
    assert mine["game_id"] == attempt["game_id"] and mine["won"] is True
    assert (mine["verified"], mine["reason"], mine["on_board"]) == (False, "burst", False)
    assert mine["off_board"] == "unverified" and "under 100 ms" in mine["detail"]
    # Kept and counted for its player, who sees why; nobody else does.
    stats = service.get("/players/me/stats", headers=auth(fast)).json()
    figures = stats["modes"]["TF.D1N"]
    assert (figures["played"], figures["won"], figures["unverified"]) == (1, 1, 1)
    assert figures["best_time_ms"] is None and figures["best_verified_streak"] == 0
    assert [g["game_id"] for g in stats["unverified_games"]] == [attempt["game_id"]]
    assert stats["unverified_games"][0]["reason"] == "burst"
    public = service.get(f"/players/{stats['player_id']}/stats").json()
    assert "unverified" not in public["modes"]["TF.D1N"] and "unverified_games" not in public
    assert service.get("/leaderboards/streak.TF.D1N").json()["size"] == 0


def test_the_same_bot_at_a_persons_pace_stays_on_the_board(
    service: CheckedClient, clock: FakeClock
) -> None:
    _fix_daily_deal(service, f"{TODAY}.TF.D1N", _winnable()[0])
    steady = new_player(service, "Steady")["player_token"]
    pauses = random.Random(3)
    waited: list[float] = []

    def person() -> float:
        waited.append(pauses.randint(400, 1500) / 1000)
        return waited[-1]

    attempt = bot(service, clock, steady, person)
    board = service.get(f"/daily/{TODAY}/TF.D1N", headers=auth(steady)).json()
    assert [row["name"] for row in board["top"]] == ["Steady"]
    row = board["top"][0]
    assert row["won"] is True and row["time_ms"] == round(sum(waited) * 1000)
    mine = board["mine"]
    assert mine["game_id"] == attempt["game_id"]
    assert (mine["verified"], mine["on_board"], mine["off_board"]) == (True, True, None)
