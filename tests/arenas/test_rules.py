"""The arena's rules without I/O: points and the fire streak, heat outcomes, the order
of the standings and who a wave pairs."""

from __future__ import annotations

from typing import Any

import pytest

from service.arenas import rules
from service.arenas.records import new_entry

START = 1_700_000_000_000


def entry(player_id: str, rating: float = 1500, last: str = "") -> dict[str, Any]:
    made = new_entry(player_id, player_id.title(), rating, "hash", START)
    made["last_opponent"] = last
    return made


def test_wins_score_two_then_four_on_fire_until_a_non_win() -> None:
    ada = entry("ada")
    earned = [
        rules.score_heat(ada, outcome, 1500, START + i)
        for i, outcome in enumerate(["win", "win", "win", "draw", "win", "loss", "win"])
    ]
    # Two wins light the fire: the third win is worth 4 and the draw 2; the draw puts
    # it out, so the next win is worth 2 again.
    assert earned == [2, 2, 4, 2, 2, 0, 2]
    assert ada["points"] == 14 and ada["heats"] == 7
    assert (ada["wins"], ada["draws"], ada["losses"]) == (5, 1, 1)
    assert ada["streak"] == 1


def test_performance_is_the_mean_of_opponent_rating_plus_or_minus_400() -> None:
    ada = entry("ada")
    rules.score_heat(ada, "win", 1600, START)
    rules.score_heat(ada, "loss", 1400, START)
    rules.score_heat(ada, "draw", 1500, START)
    assert rules.performance(ada) == round((2000 + 1000 + 1500) / 3)


def _ranked(*entries: dict[str, Any]) -> list[str]:
    order = sorted(entries, key=lambda e: -rules.standing_score(e, START))
    return [e["player_id"] for e in order]


def test_standings_order_points_then_performance_then_who_got_there_first() -> None:
    ada, bob, cy, di = entry("ada"), entry("bob"), entry("cy"), entry("di")
    rules.score_heat(ada, "win", 1500, START + 5_000)
    rules.score_heat(bob, "win", 1700, START + 9_000)  # same points, better performance
    rules.score_heat(cy, "win", 1500, START + 2_000)  # same as ada, but sooner
    rules.score_heat(di, "win", 1500, START + 1_000)
    rules.score_heat(di, "win", 1300, START + 3_000)  # more points beat everything
    assert _ranked(ada, bob, cy, di) == ["di", "bob", "cy", "ada"]


@pytest.mark.parametrize(
    ("a", "b", "gone", "expected"),
    [
        ({"state": "won", "rank": 1}, {"state": "playing", "rank": 2}, set(), ("win", "loss")),
        ({"state": "won", "rank": 2}, {"state": "won", "rank": 1}, set(), ("loss", "win")),
        # Neither won: the one who disconnected loses by time, even with more cards.
        ({"foundations": 9}, {}, {"a"}, ("loss", "win")),
        ({"state": "resigned"}, {}, set(), ("loss", "win")),
        ({"foundations": 4}, {"foundations": 3}, set(), ("win", "loss")),
        ({}, {}, set(), ("draw", "draw")),
        ({"state": "resigned"}, {"state": "resigned"}, set(), ("draw", "draw")),
    ],
)
def test_heat_outcomes(
    a: dict[str, Any], b: dict[str, Any], gone: set[str], expected: tuple[str, str]
) -> None:
    base = {"state": "playing", "foundations": 3}
    ranking = [
        {**base, "rank": 1, **a, "player_id": "a"},
        {**base, "rank": 2, **b, "player_id": "b"},
    ]
    outcomes = rules.heat_outcomes(ranking, {p: True for p in gone})
    assert (outcomes["a"], outcomes["b"]) == expected


def test_a_game_that_broke_the_plausibility_floor_loses_its_heat() -> None:
    won = {"state": "won", "rank": 1, "foundations": 8, "player_id": "bot"}
    playing = {"state": "playing", "rank": 2, "foundations": 1, "player_id": "ada"}
    assert rules.heat_outcomes([won, playing], {}, {"bot"}) == {"bot": "loss", "ada": "win"}
    both = rules.heat_outcomes([won, playing], {}, {"bot", "ada"})
    assert both == {"bot": "loss", "ada": "loss"}


def test_a_wave_pairs_by_standing_and_avoids_an_immediate_rematch() -> None:
    ada, bob, cy, di = entry("ada", last="bob"), entry("bob", last="ada"), entry("cy"), entry("di")
    rank = {"ada": 0, "bob": 1, "cy": 2, "di": 3}
    pairs = rules.pair_free([di, cy, bob, ada], rank)
    # Ada and Bob, first and second, just raced each other: each takes the next one.
    assert pairs == [("ada", "cy"), ("bob", "di")]


def test_two_left_alone_race_again_and_one_alone_waits() -> None:
    ada, bob = entry("ada", last="bob"), entry("bob", last="ada")
    assert rules.pair_free([ada, bob], {}) == [("ada", "bob")]
    assert rules.pair_free([ada], {}) == []


def test_the_schedule_is_read_and_refused_when_wrong() -> None:
    modes = {"DS.D1N", "TF.D1N"}
    found = rules.parse_schedule("hourly DS.D1N 30m; daily TF.D1N 120m", modes)
    assert [(r.every, r.mode, r.minutes) for r in found] == [
        ("hourly", "DS.D1N", 30),
        ("daily", "TF.D1N", 120),
    ]
    starts = found[0].starts(START + 90 * 60_000, 1)
    assert starts[1] - starts[0] == 3600_000 and starts[0] <= START + 90 * 60_000 < starts[1]
    for wrong in ("weekly DS.D1N 30m", "hourly XX.D1N 30m", "hourly DS.D1N 90m", "hourly DS.D1N"):
        with pytest.raises(ValueError):
            rules.parse_schedule(wrong, modes)
