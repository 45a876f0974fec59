"""What lets the search skip work without losing a win: keys, safe moves, finishing.

Everything here is *sound*: a position is merged with another only when both have the
same future, a move is forced only when playing it first can never lose a win, and a
position is called won only when a winning finish is certain.
"""

from __future__ import annotations

import itertools

from service.engine.cards import IS_RED, RANK_OF, SUIT_OF, Card

from .position import Position, Rules, SolverMove, apply, foundation_place, talon_reach

_SUITS_OF_COLOUR = ((0, 3), (1, 2))  # black: spades, clubs; red: hearts, diamonds


def position_key(rules: Rules, position: Position) -> bytes:
    """Equal keys mean equal futures: column order and twin foundation places do not matter.

    Where recycling is allowed, every talon pointer on the cycle that draws and recycles
    go through reaches the same positions, so those pointers share one key.
    """
    pos = position.pos
    size = len(position.talon)
    if rules.can_recycle and (pos == size or pos % rules.draw == 0):
        pos = 255
    founds = position.foundations
    if rules.places_per_suit == 2:
        founds = tuple(h for s in range(4) for h in sorted((founds[2 * s], founds[2 * s + 1])))
    cols = sorted(position.column_keys)
    return b"\xff".join((bytes(founds), position.talon, bytes((pos,)), *cols))


def suit_heights(rules: Rules, foundations: tuple[int, ...]) -> list[int]:
    """For each suit, the lower of its places (what every copy of a card is sure to pass)."""
    per = rules.places_per_suit
    return [min(foundations[s * per : s * per + per]) for s in range(4)]


def is_safe_to_foundation(rules: Rules, foundations: tuple[int, ...], card: Card) -> bool:
    """A card that no later move can need anywhere but on its foundation.

    Because foundation cards can come back, "all cards that could go on it are home" is not
    enough: a card taken back could be built on it in turn. Requiring the other colour's
    cards one rank lower *and* the same colour's other suit two ranks lower to be home
    leaves nothing that could ever be built on the card or on such a chain.
    """
    rank = RANK_OF[card]
    if rank <= 2:
        return True
    heights = suit_heights(rules, foundations)
    red = IS_RED[card]
    other = _SUITS_OF_COLOUR[0 if red else 1]
    same = _SUITS_OF_COLOUR[1 if red else 0]
    if any(heights[s] < rank - 1 for s in other):
        return False
    return all(heights[s] >= rank - 2 for s in same if s != SUIT_OF[card])


def forced_move(rules: Rules, position: Position, quick: bool) -> SolverMove | None:
    """A foundation move to play before anything else, if there is one.

    Both passes force only provably safe moves; where the talon is not free, only the
    quick pass forces one from the top of the waste.
    """
    safe = is_safe_to_foundation
    founds = position.foundations
    for i, col in enumerate(position.columns):
        top_fits = col and foundation_place(rules, founds, col[-1]) >= 0
        if top_fits and safe(rules, founds, col[-1]):
            return SolverMove("c", i, -1)
    talon = position.talon
    if rules.talon_is_free:
        # Any talon card is as good as the top one: draws bring it up and change nothing.
        for index, draws, recycle, after in talon_reach(
            len(talon), position.pos, rules.draw, rules.can_recycle
        ):
            card = talon[index]
            if foundation_place(rules, founds, card) >= 0 and safe(rules, founds, card):
                return SolverMove("t", index, -1, 1, draws, recycle, after)
    elif quick and position.pos:
        # Elsewhere taking a card out of the talon shifts what later draws turn up.
        card = talon[position.pos - 1]
        if foundation_place(rules, founds, card) >= 0 and safe(rules, founds, card):
            return SolverMove("t", position.pos - 1, -1)
    return None


def finish_is_certain(rules: Rules, position: Position) -> bool:
    """Nothing hidden and every column descending: the lowest card left is always playable.

    The lowest card not yet home lies on top of its column (columns descend), and every
    lower card is home, so it fits. With a talon this holds only where the talon is free.
    """
    if position.talon and not rules.talon_is_free:
        return False
    for col, down in zip(position.columns, position.down, strict=False):
        if down:
            return False
        for lower, upper in itertools.pairwise(col):
            if RANK_OF[upper] >= RANK_OF[lower]:
                return False
    return True


def finishing_moves(rules: Rules, position: Position) -> list[tuple[SolverMove, int]]:
    """The moves of the certain finish (see ``finish_is_certain``) and their places."""
    moves: list[tuple[SolverMove, int]] = []
    while True:
        best: tuple[int, SolverMove] | None = None
        founds = position.foundations
        for i, col in enumerate(position.columns):
            fitting = col and foundation_place(rules, founds, col[-1]) >= 0
            if fitting and (best is None or RANK_OF[col[-1]] < best[0]):
                best = (RANK_OF[col[-1]], SolverMove("c", i, -1))
        talon = position.talon
        for index, draws, recycle, after in talon_reach(
            len(talon), position.pos, rules.draw, rules.can_recycle
        ):
            card = talon[index]
            fitting = foundation_place(rules, founds, card) >= 0
            if fitting and (best is None or RANK_OF[card] < best[0]):
                best = (RANK_OF[card], SolverMove("t", index, -1, 1, draws, recycle, after))
        if best is None:
            return moves
        position, place = apply(rules, position, best[1])
        moves.append((best[1], place))
