"""Which moves the search tries first, and which it leaves to the complete pass.

The quick pass leaves out the kinds of move that blow the tree up (moving only part of a
run, taking a card back from a foundation, laying talon cards down) unless they enable
another move at once. Ordering only changes how soon a win is found, never what is proved.
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


def _host_is_wanted(rules: Rules, position: Position, card: Card, skip: SolverMove) -> bool:
    """Some other card could be built on ``card`` right after ``skip`` puts it down."""
    for i, col in enumerate(position.columns):
        if col and i != skip.target and not (skip.kind == "c" and i == skip.source):
            start = movable_start(rules, col, position.down[i])
            if any(fits(col[base], card) for base in range(start, len(col))):
                return True
    talon = position.talon
    reach = talon_reach(len(talon), position.pos, rules.draw, rules.can_recycle)
    skipped = skip.source if skip.kind == "t" else -1
    if any(fits(talon[i], card) for i, _, _, _ in reach if i != skipped):
        return True
    per = rules.places_per_suit
    for place, height in enumerate(position.foundations):
        other = not (skip.kind == "f" and place == skip.source)
        if height and other and fits((place // per) * 13 + height - 1, card):
            return True
    return False


def keep_move(rules: Rules, position: Position, move: SolverMove, quick: bool) -> bool:
    """Whether the search tries ``move``; with ``quick`` False only provably idle moves go.

    Where the talon is free, a talon card put on a column is only worth it when something
    is built on it next: any winning line can wait with it until then. The quick pass
    applies the same test to every talon card and to foundation returns, and moves part of
    a run only when that sends the card it uncovers home.
    """
    if move.kind == "c" and move.target >= 0:
        col = position.columns[move.source]
        start = len(col) - move.count
        if start == 0 and not position.columns[move.target]:
            return False  # a whole column to an empty one only renames columns
        if not quick:
            return True
        if start == movable_start(rules, col, position.down[move.source]):
            return True
        return _enables_foundation(rules, position, col[start - 1])
    if move.target < 0:
        return True
    if move.kind == "t":
        if not rules.talon_is_free:
            return True
        return _host_is_wanted(rules, position, position.talon[move.source], move)
    if not quick:
        return True
    per = rules.places_per_suit
    card = (move.source // per) * 13 + position.foundations[move.source] - 1
    return _host_is_wanted(rules, position, card, move)


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
    moves = [m for m in moves if keep_move(rules, position, m, quick)]
    moves.sort(key=lambda m: move_priority(rules, position, m))
    return moves
