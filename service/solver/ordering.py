"""Which moves the search tries first, and which it leaves to the complete pass.

The quick pass leaves out the two kinds of move that blow the tree up (moving only part of
a run, taking a card back from a foundation) unless they enable another move at once.
Ordering only changes how soon a win is found, never what is proved.
"""

from __future__ import annotations

from service.engine.cards import RANK_OF, Card

from .position import (
    Position,
    Rules,
    SolverMove,
    fits,
    foundation_place,
    movable_start,
    talon_reach,
)


def _enables_foundation(rules: Rules, position: Position, card: Card) -> bool:
    return foundation_place(rules, position.foundations, card) >= 0


def _host_is_wanted(position: Position, rules: Rules, card: Card, column: int) -> bool:
    """Some card (a run's base in another column, or the waste top) could go on ``card``."""
    for i, col in enumerate(position.columns):
        if i == column or not col:
            continue
        start = movable_start(rules, col, position.down[i])
        if any(fits(col[base], card) for base in range(start, len(col))):
            return True
    talon = position.talon
    reach = talon_reach(len(talon), position.pos, rules.draw, rules.can_recycle)
    return any(fits(talon[index], card) for index, _, _, _ in reach)


def is_quick_move(rules: Rules, position: Position, move: SolverMove) -> bool:
    """Moves the quick pass keeps: everything but aimless part-runs and foundation returns."""
    if move.kind == "c" and move.target >= 0:
        col = position.columns[move.source]
        start = len(col) - move.count
        full = movable_start(rules, col, position.down[move.source])
        if start == 0 and not position.columns[move.target]:
            return False  # a whole column to an empty one only renames columns
        if start == full:
            return True
        # Part of a run: only when the card it uncovers can go home at once.
        return _enables_foundation(rules, position, col[start - 1])
    if move.kind == "f":
        per = rules.places_per_suit
        card = (move.source // per) * 13 + position.foundations[move.source] - 1
        return _host_is_wanted(position, rules, card, move.target)
    return True


def move_priority(rules: Rules, position: Position, move: SolverMove) -> int:
    """Lower is tried first."""
    draw_cost = move.draws + move.draws_after + (8 if move.recycle else 0)
    if move.kind == "c":
        col = position.columns[move.source]
        start = len(col) - move.count
        down = position.down[move.source]
        uncovers = start > 0 and start == down
        empties = start == 0
        if move.target < 0:
            return 0 if uncovers or empties else 10
        if uncovers:
            return 5 - min(down, 4)  # deep columns first: they hide the most
        if empties:
            has_king = any(
                RANK_OF[c[movable_start(rules, c, d)]] == 13 and movable_start(rules, c, d) > 0
                for c, d in zip(position.columns, position.down, strict=False)
                if c
            )
            return 20 if has_king else 60
        if start > 0 and _enables_foundation(rules, position, col[start - 1]):
            return 15
        return 70
    if move.kind == "t":
        return (30 if move.target < 0 else 40) + draw_cost
    return 90


def ordered_children(
    rules: Rules, position: Position, moves: list[SolverMove], quick: bool
) -> list[SolverMove]:
    if quick:
        moves = [m for m in moves if is_quick_move(rules, position, m)]
    moves.sort(key=lambda m: move_priority(rules, position, m))
    return moves
