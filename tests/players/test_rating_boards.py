"""A rating reaches its public board only when it is not provisional and its player may
stand on public boards: a throwaway account cannot farm a rating board."""

from __future__ import annotations

from service.config import Settings
from service.players import Players
from service.players.ratings import Ratings
from service.store import Store

CHANGE = {"change": 40.0, "deviation": 480.0, "deviation_before": 500.0}
HOUR = 3600.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def _board(store: Store) -> list[str]:
    return [row.member for row in await store.records.board_range("rating:TF.D1N", 0, 10)]


async def test_a_young_account_enters_the_rating_board_at_its_first_race_once_old_enough(
    store: Store,
) -> None:
    settings = Settings(rating_provisional_games=2, board_min_account_hours=24, board_min_games=1)
    clock = Clock()
    players = Players(store.records, settings, clock)
    ratings = Ratings(store, settings, players)
    ada = (await players.create("Ada"))["player_id"]
    await ratings.apply("race-1", "TF.D1N", ada, CHANGE)
    assert await _board(store) == []  # provisional
    await ratings.apply("race-2", "TF.D1N", ada, CHANGE)
    assert await _board(store) == []  # no longer provisional, but the account is new
    clock.now += 25 * HOUR
    await ratings.apply("race-3", "TF.D1N", ada, CHANGE)
    assert await _board(store) == [ada]
    assert (await ratings.of(ada))["TF.D1N"]["games"] == 3
