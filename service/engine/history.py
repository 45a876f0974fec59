"""The undo history: one small integer record per accepted action.

A record holds only what the position after the action cannot tell (which piles, how
many cards, whether a card was flipped, what a recycle really cost), so undo restores
the exact earlier state from the record and the current position alone.

Layout (an int, stored as 3 big-endian bytes): bits 0-2 kind; for a move, source pile
kind (2 bits), source index (4), target kind (2), target index (4), count (6), flip (1);
for a draw, the number of cards (2 bits); for a recycle, the points it really cost (7).

``klondike.py`` packs and unpacks records inline, as play and undo are the engine's
hottest paths; this module owns the layout and checks records read from outside.
"""

from __future__ import annotations

from .actions import PileKind
from .scoring import RECYCLE_COST

REC_MOVE, REC_DRAW, REC_RECYCLE = 0, 1, 2
PILE_CODE = {PileKind.WASTE: 0, PileKind.COLUMN: 1, PileKind.FOUNDATION: 2}
PILE_KINDS = {code: kind for kind, code in PILE_CODE.items()}
MAX_COUNT = 63
RECORD_BYTES = 3


def unpack(raw: bytes | bytearray) -> list[int]:
    """The records of a history, oldest first."""
    return [
        int.from_bytes(raw[i : i + RECORD_BYTES], "big") for i in range(0, len(raw), RECORD_BYTES)
    ]


def record_is_valid(record: int, column_count: int, foundation_count: int) -> bool:
    """Shape checks only: a record that passes cannot index outside the table."""
    kind = record & 7
    if kind == REC_DRAW:
        return 1 <= record >> 3 <= 3
    if kind == REC_RECYCLE:
        return record >> 3 <= RECYCLE_COST
    if kind != REC_MOVE or record >> 22:
        return False
    limits = {0: 1, 1: column_count, 2: foundation_count}
    source, target = record >> 3 & 3, record >> 9 & 3
    if source not in limits or target not in (1, 2) or source == target == 2:
        return False
    return (
        (record >> 5 & 15) < limits[source]
        and (record >> 11 & 15) < limits[target]
        and (record >> 15 & MAX_COUNT) >= 1
    )
