"""Statistics per mode: recorded once when a game ends (won, resigned, or replaced after
a move), exact under concurrent endings on several instances, kept across restarts."""

from __future__ import annotations

import functools
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from service import engine
from service.app import create_app
from service.config import Settings
from service.games.hooks import PlayerHooks
from service.players.stats import Ending
from tests.players.conftest import FakeClock, new_player, play_paced, players_client
from tests.races.race_support import fixed_code
from tests.service.helpers import winnable_reflechi
from tests.support import CheckedClient, auth


@functools.cache
def _winnable() -> tuple[str, list[str]]:
    return winnable_reflechi()


def _game(client: CheckedClient, token: str, **body: Any) -> dict[str, Any]:
    response = client.post("/games", json=body or {"game": "TF"}, headers=auth(token))
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def _play(client: CheckedClient, game: dict[str, Any], action: str) -> dict[str, Any]:
    response = client.post(
        f"/games/{game['game_id']}/actions",
        json={"action": action},
        headers=auth(game["player_token"]),
    )
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _stats(client: CheckedClient, token: str) -> dict[str, Any]:
    response = client.get("/players/me/stats", headers=auth(token))
    assert response.status_code == 200
    modes: dict[str, Any] = response.json()["modes"]
    return modes


def test_a_win_then_a_resignation(service: CheckedClient, clock: FakeClock) -> None:
    player = new_player(service)
    token = player["player_token"]
    code, line = _winnable()
    game = _game(service, token, code=code)
    assert game["clock_started_at"] == int(clock.now * 1000)  # the clock runs from the deal
    play_paced(service, game, line, clock, 95.5)
    figures = _stats(service, token)["TF.D1N"]
    assert figures["played"] == 1 and figures["won"] == 1 and figures["win_rate"] == 1.0
    assert figures["current_streak"] == 1 and figures["best_streak"] == 1
    assert figures["best_time_ms"] == 95_500
    assert figures["fewest_moves"] == len(line)
    assert figures["best_score"] > 0
    assert "bankroll" not in figures or figures["bankroll"] is None

    second = _game(service, token, code=code)
    _play(service, second, "d")
    service.post(f"/games/{second['game_id']}/resign", headers=auth(second["player_token"]))
    figures = _stats(service, token)["TF.D1N"]
    assert figures["played"] == 2 and figures["won"] == 1 and figures["win_rate"] == 0.5
    assert figures["current_streak"] == 0 and figures["best_streak"] == 1
    # Public view of the same statistics, less what only their player sees.
    public = service.get(f"/players/{player['player_id']}/stats").json()
    assert figures.pop("unverified") == 0
    assert public["modes"]["TF.D1N"] == figures and public["name"] == "Ada"
    assert "unverified_games" not in public and "boards" not in public


def test_a_replaced_game_counts_once_from_its_deal(service: CheckedClient) -> None:
    """Dealt is played: a game left for another counts as played and not won, moves or
    none, so that opening deals until an easy one comes costs a game each."""
    token = new_player(service)["player_token"]
    untouched = _game(service, token)
    _game(service, token)  # replaces a game without moves: played, not won
    assert _stats(service, token)["TF.D1N"]["played"] == 1
    started = _game(service, token)  # and replaces the second, untouched too
    assert _stats(service, token)["TF.D1N"]["played"] == 2
    _play(service, started, "d")
    _game(service, token)  # replaces a game with a move: played, not won
    figures = _stats(service, token)["TF.D1N"]
    assert figures["played"] == 3 and figures["won"] == 0 and figures["current_streak"] == 0
    # Ending a replaced game later does not count it again.
    service.post(f"/games/{started['game_id']}/resign", headers=auth(started["player_token"]))
    service.post(f"/games/{untouched['game_id']}/resign", headers=auth(untouched["player_token"]))
    assert _stats(service, token)["TF.D1N"]["played"] == 3


def test_anonymous_games_count_for_nobody(service: CheckedClient) -> None:
    token = new_player(service)["player_token"]
    game = service.post("/games", json={"game": "TF"}).json()
    service.post(f"/games/{game['game_id']}/resign", headers=auth(game["player_token"]))
    assert _stats(service, token) == {}


def test_vegas_keeps_a_running_bankroll(service: CheckedClient) -> None:
    token = new_player(service)["player_token"]
    totals = []
    for _ in range(2):
        game = _game(service, token, game="DS", draw=3, scoring="vegas")
        answer = _play(service, game, "d")
        totals.append(answer["change"]["score"]["total"])
        service.post(f"/games/{game['game_id']}/resign", headers=auth(game["player_token"]))
    figures = _stats(service, token)["DS.D3V"]
    assert figures["played"] == 2 and figures["bankroll"] == sum(totals) == -208


def test_concurrent_endings_on_two_instances_all_count(clean_redis: str) -> None:
    settings = Settings(
        store_url=clean_redis,
        rate_per_second=1000,
        rate_burst=1000,
        winnable_pool_size=0,
        http_write_rate_per_second=1000,
        http_write_burst=1000,
    )
    clock = FakeClock()
    with (
        CheckedClient(create_app(settings, clock=clock)) as one,
        CheckedClient(create_app(settings, clock=clock)) as two,
    ):
        player = new_player(one)
        token = player["player_token"]
        games = []
        for index in range(24):
            client = one if index % 2 else two
            # Made by the games layer, not the route: a new game from the route would
            # count the last one as left for it, before it could end concurrently.
            create = client.app.state.games.create  # type: ignore[attr-defined]
            assert client.portal is not None
            created = client.portal.call(
                functools.partial(create, "TF", 1, "normal", None, player_id=player["player_id"])
            )
            games.append((client, created))
        # Play one move in each, then resign them all at once from both instances.
        for client, created in games:
            _play(client, created, "d")

        def resign(pair: tuple[CheckedClient, dict[str, Any]]) -> int:
            client, created = pair
            response = client.post(
                f"/games/{created['game_id']}/resign", headers=auth(created["player_token"])
            )
            return response.status_code

        with ThreadPoolExecutor(max_workers=8) as pool:
            assert set(pool.map(resign, games)) == {200}
        figures = _stats(one, token)["TF.D1N"]
        assert figures["played"] == 24 and figures["won"] == 0

    # The statistics outlive the instances.
    with players_client(clean_redis, clock) as again:
        assert _stats(again, token)["TF.D1N"]["played"] == 24


def test_race_games_of_a_player_count(store_url: str, clock: FakeClock) -> None:
    with players_client(store_url, clock, race_countdown_seconds=0) as client:
        token = new_player(client)["player_token"]
        host = client.post("/races", json={"name": "Ada", "game": "TF"}, headers=auth(token)).json()
        guest = client.post(
            "/races/join", json={"join_code": host["join_code"], "name": "Bob"}
        ).json()
        race_id = host["race_id"]
        started = client.post(f"/races/{race_id}/start", headers=auth(host["player_token"]))
        assert started.status_code == 200, started.text
        resigned = client.post(
            f"/games/{host['game_id']}/resign", headers=auth(host["player_token"])
        )
        assert resigned.status_code == 200, resigned.text
        client.post(f"/races/{race_id}/resign", headers=auth(guest["player_token"]))
        assert _stats(client, token)["TF.D1N"]["played"] == 1


def test_a_race_win_is_timed_from_the_race_start(
    store_url: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A race game is dealt when its player joins and shown when the race starts: the
    wait in the lobby is not part of its time."""
    code, line = _winnable()
    monkeypatch.setattr(engine.GameCode, "random_secret", fixed_code(engine.GameCode.parse(code)))
    with players_client(store_url, clock, race_countdown_seconds=0) as client:
        token = new_player(client)["player_token"]
        host = client.post("/races", json={"name": "Ada", "game": "TF"}, headers=auth(token)).json()
        client.post("/races/join", json={"join_code": host["join_code"], "name": "Bob"})
        clock.now += 300  # five minutes in the lobby
        started = client.post(f"/races/{host['race_id']}/start", headers=auth(host["player_token"]))
        assert started.status_code == 200, started.text
        play_paced(client, host, line, clock, 90)
        assert _stats(client, token)["TF.D1N"]["best_time_ms"] == 90_000


class _Unheard:
    """A player's records that never hear of a game's end, as when the instance stops
    between the commit of the game's last action and the counting."""

    def __init__(self, careers: PlayerHooks) -> None:
        self.careers = careers

    async def check_open(self, game_id: str, player_id: str, challenge: str) -> None:
        await self.careers.check_open(game_id, player_id, challenge)

    def challenge_public(self, challenge: str) -> bool:
        return self.careers.challenge_public(challenge)

    async def game_over(
        self, game_id: str, player_id: str, challenge: str, game: engine.Klondike
    ) -> None:
        return None


def _resign_unseen(client: CheckedClient, game: dict[str, Any]) -> None:
    """Resigns as an instance would that stops right after the commit: the game is over
    in the store, and nothing has counted it."""
    games = client.app.state.games  # type: ignore[attr-defined]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(games, "players", _Unheard(games.players))
        resigned = client.post(
            f"/games/{game['game_id']}/resign", headers=auth(game["player_token"])
        )
    assert resigned.status_code == 200, resigned.text


def test_an_ending_lost_in_a_crash_is_counted_once_when_the_player_comes_back(
    service: CheckedClient,
) -> None:
    token = new_player(service)["player_token"]
    game = _game(service, token)
    _play(service, game, "d")
    _resign_unseen(service, game)
    # Reading the statistics repairs the player's latest game, once however often.
    assert _stats(service, token)["TF.D1N"]["played"] == 1
    assert _stats(service, token)["TF.D1N"]["played"] == 1

    lost = _game(service, token)
    _play(service, lost, "d")
    _resign_unseen(service, lost)
    _game(service, token)  # a new game counts the lost ending as it ended
    figures = _stats(service, token)["TF.D1N"]
    assert figures["played"] == 2 and figures["won"] == 0


def test_counting_the_same_ending_again_counts_nothing(service: CheckedClient) -> None:
    results = service.app.state.results  # type: ignore[attr-defined]
    token = new_player(service)["player_token"]
    player_id = service.get("/players/me", headers=auth(token)).json()["player_id"]
    ending = Ending("g1", "TF.D1N", True, 60_000, 120, 0, 52, 52, False, False)
    assert service.portal is not None
    assert service.portal.call(results.count, player_id, ending)[0] is True
    assert service.portal.call(results.count, player_id, ending)[0] is False
    figures = _stats(service, token)["TF.D1N"]
    assert (figures["played"], figures["won"], figures["best_time_ms"]) == (1, 1, 60_000)
