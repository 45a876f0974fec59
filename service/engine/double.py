"""Double Solitaire (docs/rules.md, DS-*): Klondike with two decks.

What sets it apart from the shared core: 9 columns dealt face down but for each last
card, 8 foundations (two places per suit, one row per suit), any face-up card may move
with the cards on it, and Vegas scoring may be chosen (then the waste is never recycled).
"""

from __future__ import annotations

from .cards import RANK_OF, SUIT_OF, Card
from .deal import GameKind
from .klondike import Klondike


class DoubleSolitaire(Klondike):
    """Double Solitaire (DS1): two decks, 9 columns, 8 foundations, two per suit."""

    __slots__ = ()
    kind = GameKind.DOUBLE
    column_count = 9
    foundation_count = 8
    undo_limit = 200
    R_FIT = "DS-TAB-1"
    R_FACE_DOWN = "DS-TAB-2"
    R_GROUP = "DS-TAB-2"
    R_WASTE_TOP = "DS-WASTE-1"
    R_EMPTY = "DS-EMPTY-1"
    R_FOUNDATION = "DS-FND-1"
    R_FOUNDATION_ONE = "DS-FND-1"
    R_RETURN = "DS-FND-4"
    R_NOTHING_TO_DRAW = "DS-STOCK-1"
    R_RECYCLE_STOCK = "DS-STOCK-4"
    R_SINGLE_PASS = "DS-STOCK-5"
    R_FINAL = "DS-END-2"
    R_TAP = "DS-APP-2"
    R_DOUBLE_TAP = "DS-APP-3"
    R_UNDO = "DS-APP-4"

    @classmethod
    def foundation_suit(cls, place: int) -> int:
        # Places 2s and 2s + 1 form the row of suit s.
        return place >> 1

    def foundation_for(self, card: Card) -> int | None:
        # DS-FND-3: the first place of the card's own row that it continues.
        first = SUIT_OF[card] * 2
        wanted = RANK_OF[card] - 1
        if self.foundations[first] == wanted:
            return first
        if self.foundations[first + 1] == wanted:
            return first + 1
        return None
