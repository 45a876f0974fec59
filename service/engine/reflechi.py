"""Solitaire Réfléchi (docs/rules.md, TF-*): Klondike with every card in sight.

What sets it apart from the shared core: 7 columns dealt all face up, 4 foundations (one
per suit), only an ordered group may move from a column (TF-GROUP-1), and Normal scoring
only (TF-SCORE-2).
"""

from __future__ import annotations

from .cards import ACCEPTED_ON, RANK_OF, SUIT_OF, Card
from .deal import GameKind, Scoring
from .errors import InvalidPositionError
from .klondike import Klondike


class SolitaireReflechi(Klondike):
    """Solitaire Réfléchi (TF1): one deck, every tableau card face up, ordered groups."""

    __slots__ = ()
    kind = GameKind.REFLECHI
    column_count = 7
    foundation_count = 4
    undo_limit = 100
    R_FIT = "TF-TAB-1"
    R_FACE_DOWN = "TF-GROUP-2"
    R_GROUP = "TF-GROUP-2"
    R_WASTE_TOP = "TF-WASTE-1"
    R_EMPTY = "TF-EMPTY-1"
    R_FOUNDATION = "TF-FND-1"
    R_FOUNDATION_ONE = "TF-FND-MOVE-1"
    R_RETURN = "TF-FND-3"
    R_NOTHING_TO_DRAW = "TF-STOCK-1"
    R_RECYCLE_STOCK = "TF-STOCK-4"
    R_SINGLE_PASS = "TF-STOCK-4"
    R_FINAL = "TF-END-2"
    R_TAP = "TF-APP-2"
    R_DOUBLE_TAP = "TF-APP-2"
    R_UNDO = "TF-APP-4"

    @classmethod
    def _check_settings(cls, draw: int, scoring: Scoring) -> None:
        super()._check_settings(draw, scoring)
        if scoring is Scoring.VEGAS:
            raise InvalidPositionError("Solitaire Réfléchi has Normal scoring only")

    def _check_faces(self) -> None:
        if any(self.down):
            raise InvalidPositionError("in Solitaire Réfléchi every column card is face up")

    @staticmethod
    def _dealt_face_down(size: int) -> int:
        return 0

    @classmethod
    def foundation_suit(cls, place: int) -> int:
        return place

    def foundation_for(self, card: Card) -> int | None:
        suit = SUIT_OF[card]
        return suit if self.foundations[suit] == RANK_OF[card] - 1 else None

    def _movable_start(self, index: int) -> int:
        # TF-GROUP-1: every card is visible, yet only the ordered run on top may move.
        col = self.columns[index]
        start = len(col) - 1
        while start > self.down[index] and col[start] in ACCEPTED_ON[col[start - 1]]:
            start -= 1
        return start
