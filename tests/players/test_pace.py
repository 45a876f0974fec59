"""The plausibility floor: which timed action logs a person could have played."""

from __future__ import annotations

import random

from service.players.pace import (
    BURST_ACTIONS,
    BURST_GAP_MS,
    PACE_MEDIAN_MS,
    PACE_MIN_MOVES,
    judge,
)


def timed(gaps: list[int], notation: str = "c1>c2") -> list[tuple[str, int | None]]:
    """Actions ``notation`` arriving ``gaps`` ms apart, the first that long after the deal."""
    at = 0
    log: list[tuple[str, int | None]] = []
    for gap in gaps:
        at += gap
        log.append((notation, at))
    return log


def test_a_machine_at_5_ms_a_move_is_unverified() -> None:
    verdict = judge(timed([5] * 40))
    assert not verdict.verified and verdict.reason == "burst"
    assert verdict.detail is not None and "40 actions" in verdict.detail


def test_a_person_at_400_to_1500_ms_a_move_is_verified() -> None:
    rng = random.Random(7)
    verdict = judge(timed([rng.randint(400, 1500) for _ in range(300)]))
    assert verdict.verified and verdict.reason is None


def test_a_burst_one_short_of_the_floor_is_verified() -> None:
    gaps = [800] + [BURST_GAP_MS - 1] * (BURST_ACTIONS - 2) + [800] * 5
    assert judge(timed(gaps)).verified
    gaps = [800] + [BURST_GAP_MS - 1] * (BURST_ACTIONS - 1) + [800] * 5
    assert judge(timed(gaps)).reason == "burst"


def test_a_gap_of_exactly_the_floor_breaks_a_burst() -> None:
    assert judge(timed([800] + [BURST_GAP_MS] * 30, "d")).verified


def test_held_undo_repeating_at_the_keyboard_rate_is_not_a_burst() -> None:
    log = timed([900, 700]) + [("u", 1600 + 33 * n) for n in range(1, 30)]
    log += [("c1>c2", 1600 + 33 * 30 + 600)]
    assert judge(log).verified


def test_moves_at_a_machine_median_are_unverified_without_a_burst() -> None:
    # Each fast move follows a slow draw: no burst, but no person moves cards this fast.
    log: list[tuple[str, int | None]] = []
    at = 0
    for _ in range(PACE_MIN_MOVES):
        at += 600
        log.append(("d", at))
        at += PACE_MEDIAN_MS - 50
        log.append(("w>c1", at))
    verdict = judge(log)
    assert not verdict.verified and verdict.reason == "pace"


def test_the_pace_rule_waits_for_enough_moves() -> None:
    log: list[tuple[str, int | None]] = []
    at = 0
    for _ in range(PACE_MIN_MOVES - 1):
        at += 600
        log.append(("d", at))
        at += 60
        log.append(("w>c1", at))
    assert judge(log).verified


def test_actions_logged_without_a_time_are_left_out() -> None:
    assert judge([("c1>c2", None)] * 50).verified
