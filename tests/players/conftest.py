"""A service with a clock the tests move, on both stores."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from service.app import create_app
from service.config import Settings
from tests.players.held_search import HELD_SEARCH_DIR
from tests.support import CheckedClient, auth, fill_winnable_pools

# 2026-12-01 12:00:00 UTC
NOON = 1_796_126_400.0


class FakeClock:
    def __init__(self, now: float = NOON) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@contextmanager
def players_client(store_url: str, clock: FakeClock, **overrides: Any) -> Iterator[CheckedClient]:
    options: dict[str, Any] = {
        "rate_per_second": 1000,
        "rate_burst": 1000,
        "winnable_pool_size": 0,
        "http_write_rate_per_second": 1000,
        "http_write_burst": 1000,
        # Hints followed to the end of a game ask hundreds from one address in a minute.
        "hints_per_address_per_minute": 100_000,
        "hints_per_player_per_minute": 100_000,
        # Every player stands on public boards at once, unless a test says otherwise.
        "board_min_account_hours": 0,
        "board_min_games": 0,
        **overrides,
    }
    settings = Settings(store_url=store_url, **options)
    with CheckedClient(create_app(settings, clock=clock)) as client:
        fill_winnable_pools(client.app)
        yield client


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(store_url: str, clock: FakeClock) -> Iterator[CheckedClient]:
    with players_client(store_url, clock) as client:
        yield client


def new_player(client: CheckedClient, name: str = "Ada") -> dict[str, Any]:
    response = client.post("/players", json={"name": name})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


Bearer = Callable[[str], dict[str, str]]


def play_paced(
    client: CheckedClient,
    game: dict[str, Any],
    line: list[str],
    clock: FakeClock,
    seconds: float,
) -> None:
    """Plays ``line`` in ``game`` at an even, human pace: the clock moves on before each
    action, and the last comes ``seconds`` after the clock stood when play began (the
    deal, for a game just created)."""
    start = clock.now
    headers = auth(game["player_token"])
    for index, action in enumerate(line, start=1):
        clock.now = start + round(seconds * 1000 * index / len(line)) / 1000
        response = client.post(
            f"/games/{game['game_id']}/actions", json={"action": action}, headers=headers
        )
        assert response.status_code == 200, response.text


@pytest.fixture
def held_searches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Analyses run ``held`` instead of the solver (their processes read the folder from
    the environment they start with); the test creates ``release`` to let them end."""
    monkeypatch.setenv(HELD_SEARCH_DIR, str(tmp_path))
    try:
        yield tmp_path
    finally:
        (tmp_path / "release").touch()
