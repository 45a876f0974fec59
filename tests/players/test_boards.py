"""All-time leaderboards: longest win streaks, and best times of the wins that count
(winnable deals, each its own game's, from secret seeds); top rows, your rank and your
neighbours; equal values in the order they were reached."""

from __future__ import annotations

import asyncio
import functools
from typing import Any

import redis

from service.store.records import MemoryRecords
from tests.players.conftest import FakeClock, new_player, play_paced
from tests.service.helpers import winnable_reflechi
from tests.support import CheckedClient, auth


@functools.cache
def _winnable() -> tuple[str, list[str]]:
    return winnable_reflechi()


def _win(client: CheckedClient, created: dict[str, Any], clock: FakeClock, seconds: float) -> None:
    """Wins the game ``seconds`` after the clock stood (its deal, for a new game)."""
    play_paced(client, created, _winnable()[1], clock, seconds)


def test_streak_board(service: CheckedClient, clock: FakeClock) -> None:
    code, _ = _winnable()
    streaks = {"Ada": 3, "Bob": 1, "Cy": 2}
    tokens = {}
    for name, wins in streaks.items():
        tokens[name] = new_player(service, name)["player_token"]
        for _ in range(wins):
            created = service.post("/games", json={"code": code}, headers=auth(tokens[name])).json()
            _win(service, created, clock, 100)
    board = service.get("/leaderboards/streak.TF.D1N?top=2&around=1", headers=auth(tokens["Bob"]))
    assert board.status_code == 200, board.text
    body = board.json()
    assert body["size"] == 3
    assert [(r["name"], r["value"]) for r in body["top"]] == [("Ada", 3), ("Cy", 2)]
    assert body["you"]["name"] == "Bob" and body["you"]["rank"] == 3
    assert [r["name"] for r in body["around"]] == ["Cy", "Bob"]
    assert body["you"] == body["around"][-1]  # the same row wherever it is


def _fix_daily_deal(service: CheckedClient, challenge: str, code: str) -> None:
    """Today's challenge becomes ``code``, a deal the test can win."""
    records = service.app.state.games.store.records  # type: ignore[attr-defined]
    if isinstance(records, MemoryRecords):
        asyncio.run(records.claim(f"daily:{challenge}", code))  # no I/O: any loop will do
        return
    connection = redis.Redis.from_url(service.app.state.settings.store_url)  # type: ignore[attr-defined]
    connection.set(f"sol:rec:val:daily:{challenge}", code)
    connection.close()


def _undo(service: CheckedClient, created: dict[str, Any], clock: FakeClock) -> None:
    _, line = _winnable()
    headers = auth(created["player_token"])
    path = f"/games/{created['game_id']}"
    clock.now += 1
    assert service.post(f"{path}/actions", json={"action": line[0]}, headers=headers).is_success
    clock.now += 1
    assert service.post(f"{path}/undo", headers=headers).is_success


def test_which_wins_enter_the_best_time_board(service: CheckedClient, clock: FakeClock) -> None:
    """Only wins of winnable deals (each its own game's, from a secret seed), by a player,
    without hints, timed from the deal; undo is part of the rules. Daily attempts rank on
    their own board."""
    code, _ = _winnable()
    _fix_daily_deal(service, "2026-12-01.TF.D1N", code)
    token = {name: new_player(service, name)["player_token"] for name in ("Ada", "Bob", "Cy")}
    token["Dee"] = new_player(service, "Dee")["player_token"]
    _win(service, _winnable_game(service, token["Ada"]), clock, 120)
    undone = _winnable_game(service, token["Bob"])
    _undo(service, undone, clock)  # 2 s of the 90
    _win(service, undone, clock, 88)
    ranked = service.post("/daily/2026-12-01/TF.D1N/games", headers=auth(token["Cy"])).json()
    assert ranked["ranked"]
    _win(service, ranked, clock, 30)
    # Dee wins a game of the same deal by its code, which anyone could study: no entry.
    _win(
        service,
        service.post("/games", json={"code": code}, headers=auth(token["Dee"])).json(),
        clock,
        60,
    )

    body = service.get("/leaderboards/best-time.TF.D1N").json()
    assert [(r["name"], r["value"]) for r in body["top"]] == [("Bob", 90_000), ("Ada", 120_000)]
    daily = service.get("/daily/2026-12-01/TF.D1N").json()
    assert [(r["name"], r["won"], r["time_ms"]) for r in daily["top"]] == [("Cy", True, 30_000)]
    # Each of these wins counts in its player's statistics all the same.
    for name, seconds in (("Bob", 90), ("Cy", 30), ("Dee", 60)):
        stats = service.get("/players/me/stats", headers=auth(token[name])).json()
        assert stats["modes"]["TF.D1N"]["best_time_ms"] == seconds * 1000, name


def test_unknown_boards(service: CheckedClient) -> None:
    for board in ("best-time.TF.D1V", "fastest.TF.D1N", "streak", "streak.TF.D1N%0A"):
        response = service.get(f"/leaderboards/{board}")
        assert response.status_code == 404 and response.json()["code"] == "not_found"


def _pool(service: CheckedClient, code: str) -> None:
    """Makes ``code`` the only deal in the pool of winnable ``TF.D1N`` deals."""
    records = service.app.state.games.store.records  # type: ignore[attr-defined]

    async def push() -> None:
        while await records.queue_pop("winnable:TF.D1N") is not None:
            pass
        await records.queue_push("winnable:TF.D1N", code)

    assert service.portal is not None
    service.portal.call(push)


def _winnable_game(service: CheckedClient, token: str) -> dict[str, Any]:
    code, _ = _winnable()
    _pool(service, code)
    created = service.post("/games", json={"game": "TF", "winnable": True}, headers=auth(token))
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    return game


def test_equal_values_rank_in_the_order_they_were_reached(
    service: CheckedClient, clock: FakeClock
) -> None:
    code, _ = _winnable()
    _fix_daily_deal(service, "2026-12-01.TF.D1N", code)
    players = [new_player(service, name) for name in ("Ada", "Bob", "Cy")]
    # They win against the order of their ids, so that the ids cannot be what decides.
    players.sort(key=lambda player: player["player_id"], reverse=True)
    for player in players:
        token = player["player_token"]
        created = service.post("/daily/2026-12-01/TF.D1N/games", headers=auth(token)).json()
        _win(service, created, clock, 100)
    for player in players:
        _win(service, _winnable_game(service, player["player_token"]), clock, 100)
    first = [player["player_id"] for player in players]
    for path in ("/daily/2026-12-01/TF.D1N", "/leaderboards/best-time.TF.D1N"):
        rows = service.get(path).json()["top"]
        assert len({row["score"] for row in rows}) == 1  # a three-way tie
        assert [row["player_id"] for row in rows] == first, path
    # The same streak, reached in the same order.
    streaks = service.get("/leaderboards/streak.TF.D1N").json()["top"]
    assert [(row["player_id"], row["value"]) for row in streaks] == [(p, 2) for p in first]
