"""Solitaire Réfléchi (docs/rules.md, TF-*): Klondike with every card in sight.

What sets it apart from the shared core: 7 columns dealt all face up, 4 foundations (one
per suit), only an ordered group may move from a column (TF-GROUP-1), and Normal scoring
only (TF-SCORE-2).
"""

from __future__ import annotations

from .cards import RANK_OF, SUIT_OF, Card
from .deal import GameKind
from .errors import InvalidPositionError
from .klondike import Klondike


class SolitaireReflechi(Klondike):
    """Solitaire Réfléchi (TF1): one deck, every tableau card face up, ordered groups."""

    __slots__ = ()
    kind = GameKind.REFLECHI
    column_count = 7
    foundation_count = 4
    undo_limit = 100
    ordered_groups_only = True  # TF-GROUP-1
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
