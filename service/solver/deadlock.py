"""Cards that can never leave their pile: a proof that a position cannot be won.

A card leaves its column by going home, by going onto a *parent* (a card of the other
colour one rank higher lying on top of a column), as a King to an empty column, or carried
along by the card beneath it when it continues that card's run. Each of these needs other
cards to leave first: the cards above it, the lower cards of its suit (to go home), or the
cards covering a parent. Starting from "no column card can leave" and marking a card as
able to leave as soon as one of its ways out only needs cards already marked gives a
generous estimate (timing and competition for places are ignored). A card never marked
can therefore never leave, whatever is played, and the position is lost.

In a single pass through the stock (Vegas scoring) the talon is checked the same way,
as stacks that nothing can be built on (see ``_piles``). The search runs this test on
every position whose single pass is over, not only on the deal.
"""

from __future__ import annotations

from service.engine.cards import KING, RANK_OF, SUIT_OF, Card

from .position import PARENTS, Position, Rules, fits


def _piles(rules: Rules, position: Position) -> tuple[list[bytes], list[int], int]:
    """The columns, then (single pass only) the talon as piles; and how many are columns.

    Without recycling the talon pointer never goes back, so the talon is a set of stacks:
    the waste, where a card can only come off after every card above it, and the stock cut
    into the groups the coming draws turn over, where a card comes up only once the cards
    of its group drawn after it have left. With recycling any talon card can come up again
    in another pass, so talon cards are left out and count as free.
    """
    piles = list(position.columns)
    down = list(position.down)
    count = len(piles)
    if not rules.can_recycle:
        talon, pos = position.talon, position.pos
        if pos:
            piles.append(talon[:pos])
            down.append(0)
        for first in range(pos, len(talon), rules.draw):
            piles.append(talon[first : first + rules.draw])
            down.append(0)
    return piles, down, count


def stuck_card(rules: Rules, position: Position) -> Card | None:
    """A card that can never leave its column (see the module text), or None.

    In a single pass the cards of the talon are checked too (see ``_piles``).
    """
    columns, down, column_count = _piles(rules, position)
    where: dict[Card, list[tuple[int, int]]] = {}
    for i, col in enumerate(columns):
        for k, card in enumerate(col):
            where.setdefault(card, []).append((i, k))
    per = rules.places_per_suit
    home = [max(position.foundations[s * per : s * per + per]) for s in range(4)]
    leaves = [[False] * len(col) for col in columns]

    def above_clear(i: int, k: int) -> bool:
        """Every card above (i, k) can leave, or travels with it in one run."""
        col = columns[i]
        run = k
        if i < column_count:
            while run + 1 < len(col) and run + 1 > down[i] and fits(col[run + 1], col[run]):
                run += 1
        return all(leaves[i][run + 1 :])

    def can_be_home(card: Card) -> bool:
        # A copy is on a foundation or off the piles, or some copy can leave its pile.
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
            if leaves[pi][pk] or (pi < column_count and all(leaves[pi][pk + 1 :])):
                return True  # nothing is ever built on the talon: a parent there must leave
        return False

    changed = True
    while changed:
        changed = False
        for i, col in enumerate(columns):
            is_column = i < column_count
            # From the top down: a card usually waits for the cards above it, so one sweep
            # marks a whole pile instead of one card per sweep.
            for k in range(len(col) - 1, -1, -1):
                if leaves[i][k]:
                    continue
                card = col[k]
                carried = is_column and k > down[i] and fits(card, col[k - 1]) and leaves[i][k - 1]
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


def stuck_in_waste(rules: Rules, position: Position) -> Card | None:
    """A waste card of a single pass that can never come off, found cheaply; or None.

    The same reasoning as ``stuck_card`` restricted to the waste, with every card
    elsewhere taken to be free: a waste card can only wait for the cards beneath it,
    so one pass from the top down settles each card. A card whose needed cards (a lower
    card of its suit, for each rank still missing at home, or one of its parents) all
    have every copy beneath it is stuck. Weaker than ``stuck_card`` but cheap enough for
    every position.
    """
    if rules.can_recycle:
        return None
    waste = position.talon[: position.pos]
    per = rules.places_per_suit
    beneath = [0] * 52
    for card in waste:
        beneath[card] += 1
    founds = position.foundations
    for card in reversed(waste):
        beneath[card] -= 1
        rank = RANK_OF[card]
        if rank == KING:
            continue
        if any(beneath[parent] < per for parent in PARENTS[card]):
            continue
        suit = SUIT_OF[card]
        home = max(founds[suit * per : suit * per + per])
        if all(beneath[suit * 13 + r - 1] < per for r in range(home + 1, rank)):
            continue
        return card
    return None
