"""The scenarios whose every write may lose its reply: what players do, end to end.

Each is a function of a ``Driver`` that asserts the status of every answer; the fault
tests compare the answers and the state it leaves with the fault-free run's.
"""

from __future__ import annotations

import functools
from typing import Any

from tests.faults.harness import Driver
from tests.service.helpers import winnable_reflechi

DAY = 86_400.0
TODAY = "2026-12-01"
CHALLENGE = f"{TODAY}.TF.D1N"


@functools.cache
def winning() -> tuple[str, list[str]]:
    """A Réfléchi deal and its winning line (135 actions)."""
    return winnable_reflechi()


def _player(driver: Driver, name: str) -> dict[str, Any]:
    created: dict[str, Any] = driver.call("POST", "/players", {"name": name}, status=201)
    return created


def daily_attempt(driver: Driver) -> None:
    """A player's ranked attempt at today's challenge, won, then the day's board once the
    day is over (which closes the day's attempts)."""
    _, line = winning()
    ada = _player(driver, "Ada")
    token = ada["player_token"]
    driver.call("GET", "/daily", token=token)
    attempt = driver.call("POST", f"/daily/{TODAY}/TF.D1N/games", token=token, status=201)
    assert attempt["ranked"]
    driver.play(attempt, line, 120)
    board = driver.call("GET", f"/daily/{TODAY}/TF.D1N", token=token)
    assert board["mine"]["won"] and not board["mine"]["open"]
    driver.call("GET", "/players/me/stats", token=token)
    driver.clock.now += DAY
    board = driver.call("GET", f"/daily/{TODAY}/TF.D1N", token=token)
    assert board["public"] and [row["name"] for row in board["top"]] == ["Ada"]
    driver.call("GET", f"/games/{attempt['game_id']}/record")


def race_with_rematch(driver: Driver) -> None:
    """Three players race on a winnable deal and all resign, one after the other (the
    race is over when every game is); then all three ask for a rematch. (A win takes 135
    actions: the daily attempt and the ten games have one each.)"""
    _, line = winning()
    players = [_player(driver, name) for name in ("Ada", "Bob", "Cy")]
    ada, bob, cy = (p["player_token"] for p in players)
    body = {"name": "Ada", "game": "TF", "draw": 1, "scoring": "normal", "max_players": 3}
    host = driver.call("POST", "/races", {**body, "winnable": True}, ada, status=201)
    race_id = host["race_id"]
    seats = [host]
    for name, token in (("Bob", bob), ("Cy", cy)):
        join = {"join_code": host["join_code"], "name": name}
        seats.append(driver.call("POST", "/races/join", join, token, status=201))
    driver.call("POST", f"/races/{race_id}/start", token=host["player_token"])
    driver.clock.now += 601
    driver.play(host, line[:6], 6, ids="ada-")
    driver.call("POST", f"/races/{race_id}/resign", token=seats[1]["player_token"])
    driver.play(seats[2], line[:2], 5, ids="cy-")
    for seat in (seats[2], host):
        driver.call("POST", f"/races/{race_id}/resign", token=seat["player_token"])
    race = driver.call("GET", f"/races/{race_id}")["race"]
    assert race["status"] == "finished", race
    for seat in seats:
        rematch = driver.call("POST", f"/races/{race_id}/rematch", token=seat["player_token"])
    driver.call("GET", f"/races/{rematch['race']['race_id']}")
    driver.call("GET", "/players/me/stats", token=ada)


def linked_device(driver: Driver) -> None:
    """A player links a second device, which then signs the first one out."""
    first = _player(driver, "Ada")["player_token"]
    code = driver.call("POST", "/players/me/link-codes", token=first, status=201)["link_code"]
    driver.call("POST", "/players/link", {"link_code": "WRONG234"}, status=404)
    second = driver.call("POST", "/players/link", {"link_code": code}, status=201)
    driver.call("POST", "/players/link", {"link_code": code}, status=404)
    driver.call("GET", "/players/me", token=second["player_token"])
    revoked = driver.call("POST", "/players/me/revoke-others", token=second["player_token"])
    assert revoked == {"revoked": 1}
    driver.call("GET", "/players/me", token=first, status=401)
    driver.call("PATCH", "/players/me", {"name": "Ada L."}, second["player_token"])


def ten_games(driver: Driver) -> None:
    """Ten games of one player: a win, resignations, and games left for the next one."""
    code, line = winning()
    token = _player(driver, "Ada")["player_token"]
    for number in range(10):
        game = driver.call("POST", "/games", {"code": code}, token, status=201)
        if number == 4:
            driver.play(game, line, 100, ids="g4-")
        elif number % 3 == 0:
            driver.play(game, line[:3], 3)
            driver.call("POST", f"/games/{game['game_id']}/resign", token=game["player_token"])
        elif number % 3 == 1:
            driver.play(game, line[:1], 1, ids=f"g{number}-")
        driver.clock.now += 10
    stats = driver.call("GET", "/players/me/stats", token=token)
    figures = stats["modes"]["TF.D1N"]
    assert (figures["played"], figures["won"]) == (10, 1), figures
    driver.call("GET", "/leaderboards/streak.TF.D1N", token=token)


def arena(driver: Driver) -> None:
    """A player's arena of four: waves pair them into heats, every heat is resigned and
    counted, three rounds, one player leaving for a round and coming back; then the
    standings, the heats and each player's entry."""
    players = [_player(driver, name) for name in ("Ada", "Bob", "Cy", "Di")]
    tokens = [p["player_token"] for p in players]
    body = {"mode": "TF.D1N", "name": "Friday arena", "minutes": 60}
    arena_id = driver.call("POST", "/arenas", body, tokens[0], status=201)["arena"]["arena_id"]
    for token in tokens:
        driver.call("POST", f"/arenas/{arena_id}/players", token=token)
    driver.call("POST", f"/arenas/{arena_id}/players", token=tokens[1])  # twice: nothing
    for round_ in range(3):
        if round_ == 1:
            driver.call("DELETE", f"/arenas/{arena_id}/players/me", token=tokens[3])
        if round_ == 2:
            driver.call("POST", f"/arenas/{arena_id}/players", token=tokens[3])
        assert driver.wave() == (1 if round_ == 1 else 2)
        driver.call("GET", f"/arenas/{arena_id}/heats")
        heats = [driver.call("GET", f"/arenas/{arena_id}", token=t)["you"]["heat"] for t in tokens]
        driver.clock.now += 601
        for heat in filter(None, heats):
            driver.call("POST", f"/races/{heat['race_id']}/resign", token=heat["player_token"])
    driver.clock.now += 10
    assert driver.wave() == 2
    driver.call("GET", f"/arenas/{arena_id}/standings")
    heats = driver.call("GET", f"/arenas/{arena_id}/heats")["heats"]
    assert len(heats) == 7 and sum(h["outcomes"] is None for h in heats) == 2, heats
    counted = [driver.call("GET", f"/arenas/{arena_id}", token=t)["you"]["heats"] for t in tokens]
    assert sum(counted) == 10 and counted[3] == 2, counted  # five heats counted, each once
