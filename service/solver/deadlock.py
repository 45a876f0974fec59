"""Column cards that can never leave: a proof that a position cannot be won.

A card leaves its column by going home, by going onto a *parent* (a card of the other
colour one rank higher lying on top of a column), as a King to an empty column, or carried
along by the card beneath it when it continues that card's run. Each of these needs other
cards to leave first: the cards above it, the lower cards of its suit (to go home), or the
cards covering a parent. Starting from "no column card can leave" and marking a card as
able to leave as soon as one of its ways out only needs cards already marked gives a
generous estimate (timing and competition for places are ignored). A card never marked
can therefore never leave, whatever is played, and the position is lost.
"""

from __future__ import annotations

from service.engine.cards import KING, RANK_OF, SUIT_OF, Card

from .position import PARENTS, Position, Rules, fits


def _column_cards(position: Position) -> dict[Card, list[tuple[int, int]]]:
    where: dict[Card, list[tuple[int, int]]] = {}
    for i, col in enumerate(position.columns):
        for k, card in enumerate(col):
            where.setdefault(card, []).append((i, k))
    return where


def stuck_card(rules: Rules, position: Position) -> Card | None:
    """A column card that can never leave (see the module text), or None."""
    columns, down = position.columns, position.down
    where = _column_cards(position)
    per = rules.places_per_suit
    home = [max(position.foundations[s * per : s * per + per]) for s in range(4)]
    leaves = [[False] * len(col) for col in columns]

    def above_clear(i: int, k: int) -> bool:
        """Every card above (i, k) can leave, or travels with it in one run."""
        col = columns[i]
        run = k
        while run + 1 < len(col) and run + 1 > down[i] and fits(col[run + 1], col[run]):
            run += 1
        return all(leaves[i][run + 1 :])

    def can_be_home(card: Card) -> bool:
        # Off the columns (talon or foundation), or some copy can leave its column.
        spots = where.get(card, [])
        return len(spots) < per or any(leaves[i][k] for i, k in spots)

    def parent_ready(parent: Card, i: int, k: int) -> bool:
        spots = where.get(parent, [])
        if len(spots) < per:
            return True
        for pi, pk in spots:
            if pi == i:
                # Beneath the card it cannot be reached; above, it has to move away first.
                if pk > k and leaves[pi][pk]:
                    return True
                continue
            if all(leaves[pi][pk + 1 :]) or leaves[pi][pk]:
                return True
        return False

    changed = True
    while changed:
        changed = False
        for i, col in enumerate(columns):
            for k, card in enumerate(col):
                if leaves[i][k]:
                    continue
                carried = k > down[i] and fits(card, col[k - 1]) and leaves[i][k - 1]
                if not carried:
                    if not above_clear(i, k):
                        continue
                    suit, rank = SUIT_OF[card], RANK_OF[card]
                    way_out = (
                        RANK_OF[card] == KING
                        or all(can_be_home(suit * 13 + r - 1) for r in range(home[suit] + 1, rank))
                        or any(parent_ready(p, i, k) for p in PARENTS[card])
                    )
                    if not way_out:
                        continue
                leaves[i][k] = True
                changed = True
    for i, col in enumerate(columns):
        for k, card in enumerate(col):
            if not leaves[i][k]:
                return card
    return None
