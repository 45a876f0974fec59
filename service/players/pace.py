"""Whether a ranked game was played at a pace a person holds: the plausibility floor.

The server timed every action as it arrived (the action log keeps each one's time), so
the judgement needs nothing the client says. Two rules, each far from what people do:

- **burst**: ``BURST_ACTIONS`` actions in a row (undos aside: a held Ctrl+Z repeats at
  the keyboard's rate) each arriving less than ``BURST_GAP_MS`` after the one before;
- **pace**: over a game of at least ``PACE_MIN_MOVES`` card moves, the median time
  before a move under ``PACE_MEDIAN_MS``.

A game that breaks one is kept and counted for its player, but marked unverified and
left off public boards. Neither rule stops a program that paces itself like a person.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

BURST_ACTIONS = 8
BURST_GAP_MS = 100
PACE_MIN_MOVES = 20
PACE_MEDIAN_MS = 150

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


def judge(actions: list[tuple[str, int | None]]) -> Verification:
    """The verdict on a game's timed action log: (notation, ms after the deal) per action.

    Actions logged without a time (games from before times were kept) are judged by the
    rest."""
    timed = [(notation, at) for notation, at in actions if at is not None]
    burst = _longest_burst(timed)
    if burst >= BURST_ACTIONS:
        return Verification(
            False,
            "burst",
            f"{burst} actions in a row each under {BURST_GAP_MS} ms after the one before",
        )
    gaps = _gaps_before_moves(timed)
    if len(gaps) >= PACE_MIN_MOVES:
        median = statistics.median(gaps)
        if median < PACE_MEDIAN_MS:
            return Verification(
                False,
                "pace",
                f"a card move every {median:g} ms (median of {len(gaps)} moves), "
                f"under {PACE_MEDIAN_MS} ms",
            )
    return VERIFIED


def _longest_burst(timed: list[tuple[str, int]]) -> int:
    """The most actions in a row, undos left out, each under ``BURST_GAP_MS`` after the
    one before."""
    longest = run = 0
    previous: int | None = None
    for notation, at in timed:
        if notation == _UNDO:
            continue
        run = run + 1 if previous is not None and at - previous < BURST_GAP_MS else 1
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
