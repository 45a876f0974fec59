"""Dead ends of a single pass: under Vegas scoring the waste is a stack that never turns.

A card played from deep in the stock leaves every card drawn before it on the waste, where
each can only come off after the ones above it. Two cards of one suit lying on the waste
in the wrong order (the higher one nearer the top) are a dead end when the higher one can
never leave the waste except to its foundation.
"""

from __future__ import annotations

from .position import Position, Rules


def is_dead_end(rules: Rules, position: Position) -> bool:
    return False
