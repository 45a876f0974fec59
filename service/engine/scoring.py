"""Points: what a move earns, what a recycle costs, and how a score is shown.

Normal scoring (DS-SCORE-N, TF-SCORE-1) rewards progress anywhere on the table; Vegas
scoring (DS-SCORE-V, Double Solitaire only) pays only for cards placed on a foundation.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import PileKind
from .deal import Scoring

RECYCLE_COST = 100
VEGAS_START = -104


def format_score(score: int, scoring: Scoring) -> str:
    """Normal points as a number; Vegas as dollars: ``$416``, ``$0``, ``-$104``."""
    if scoring is Scoring.NORMAL:
        return str(score)
    return f"-${-score}" if score < 0 else f"${score}"


class Standing(NamedTuple):
    """How far a game has got, as a race shows it."""

    foundations: int
    score: int
    moves: int
    scoring: Scoring
    resigned: bool = False

    @property
    def score_display(self) -> str:
        return format_score(self.score, self.scoring)


def move_points(scoring: Scoring, source: PileKind, target: PileKind, flipped: bool) -> int:
    """What moving cards from ``source`` to ``target`` earns; undo takes the same back."""
    if scoring is Scoring.VEGAS:
        return 5 if target is PileKind.FOUNDATION and source is not PileKind.FOUNDATION else 0
    points = 5 if flipped else 0
    if target is PileKind.FOUNDATION:
        points += 10
    elif source is PileKind.WASTE:
        points += 5
    return points
