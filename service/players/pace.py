"""Whether a ranked game was played at a pace a person holds: the plausibility floor.

The server timed every action as it arrived (the action log keeps each one's time), so
the judgement needs nothing the client says. Two rules, each far from what people do:

- **burst**: ``burst_actions`` actions in a row (undos aside: a held Ctrl+Z repeats at
  the keyboard's rate) each arriving less than ``burst_gap_ms`` after the one before;
- **pace**: over a game of at least ``min_moves`` card moves, the median time before a
  move under ``median_ms``.

The defaults (``PaceRule()``) are the service's; its settings may move them. A game that
breaks one is kept and counted for its player, but marked unverified and left off public
boards. Neither rule stops a program that paces itself like a person.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

BURST_ACTIONS = 8
BURST_GAP_MS = 100
PACE_MIN_MOVES = 20
PACE_MEDIAN_MS = 150


@dataclass(frozen=True, slots=True)
class PaceRule:
    """The two rules' thresholds; ``burst_actions`` or ``median_ms`` 0 turns one off."""

    burst_actions: int = BURST_ACTIONS
    burst_gap_ms: int = BURST_GAP_MS
    min_moves: int = PACE_MIN_MOVES
    median_ms: int = PACE_MEDIAN_MS


# As the action log writes them (docs/notation.md): undo, and a move between piles.
_UNDO = "u"
_MOVE_MARK = ">"


@dataclass(frozen=True, slots=True)
class Verification:
    """``verified``, or the rule it broke (``burst`` or ``pace``) with what was seen."""

    verified: bool
    reason: str | None = None
    detail: str | None = None

    def as_json(self) -> dict[str, object]:
        return {"verified": self.verified, "reason": self.reason, "detail": self.detail}


VERIFIED = Verification(True)


def judge(actions: list[tuple[str, int | None]], rule: PaceRule = PaceRule()) -> Verification:
    """The verdict on a game's timed action log: (notation, ms after the deal) per action.

    Actions logged without a time (games from before times were kept) are judged by the
    rest."""
    timed = [(notation, at) for notation, at in actions if at is not None]
    burst = _longest_burst(timed, rule.burst_gap_ms)
    if rule.burst_actions and burst >= rule.burst_actions:
        return Verification(
            False,
            "burst",
            f"{burst} actions in a row each under {rule.burst_gap_ms} ms after the one before",
        )
    gaps = _gaps_before_moves(timed)
    if rule.median_ms and len(gaps) >= rule.min_moves:
        median = statistics.median(gaps)
        if median < rule.median_ms:
            return Verification(
                False,
                "pace",
                f"a card move every {median:g} ms (median of {len(gaps)} moves), "
                f"under {rule.median_ms} ms",
            )
    return VERIFIED


def _longest_burst(timed: list[tuple[str, int]], gap_ms: int) -> int:
    """The most actions in a row, undos left out, each under ``gap_ms`` after the one
    before."""
    longest = run = 0
    previous: int | None = None
    for notation, at in timed:
        if notation == _UNDO:
            continue
        run = run + 1 if previous is not None and at - previous < gap_ms else 1
        longest = max(longest, run)
        previous = at
    return longest


def _gaps_before_moves(timed: list[tuple[str, int]]) -> list[int]:
    """For each card move, the time since the action before it (the deal for the first)."""
    gaps = []
    previous = 0
    for notation, at in timed:
        if _MOVE_MARK in notation:
            gaps.append(at - previous)
        previous = at
    return gaps
