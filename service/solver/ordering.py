"""Which moves the search tries first, which it leaves to the complete pass, and which
positions best-first expands first (``estimate``).

The quick pass leaves out the kinds of move that blow the tree up (moving only part of a
run, taking a card back from a foundation) unless they enable another move at once.
Ordering only changes how soon a win is found, never what is proved.
"""

from __future__ import annotations

from service.engine.cards import KING, RANK_OF, SUIT_OF, Card

from .position import (
    CHILDREN,
    Position,
    Rules,
    SolverMove,
    fits,
    foundation_place,
    movable_start,
    talon_reach,
)

# Where a card that could be built on something comes from: a column index, or these.
_FROM_TALON = -1
_FROM_FOUNDATION = -2


class Surroundings:
    """What one position offers, worked out once for all of its moves."""

    __slots__ = ("_available", "kings_waiting", "position", "rules", "starts")

    def __init__(self, rules: Rules, position: Position) -> None:
        self.rules = rules
        self.position = position
        self.starts = [
            movable_start(rules, col, down) if col else 0
            for col, down in zip(position.columns, position.down, strict=True)
        ]
        self._available: dict[Card, list[tuple[int, int]]] | None = None
        self.kings_waiting = any(
            RANK_OF[col[start]] == KING and start > 0
            for col, start in zip(position.columns, self.starts, strict=True)
            if col
        )

    @property
    def available(self) -> dict[Card, list[tuple[int, int]]]:
        """Cards that could be put on a column right now, with where they are."""
        if self._available is not None:
            return self._available
        rules, position = self.rules, self.position
        available: dict[Card, list[tuple[int, int]]] = {}
        for i, col in enumerate(position.columns):
            for base in range(self.starts[i], len(col)):
                available.setdefault(col[base], []).append((i, base))
        talon = position.talon
        for index, _, _, _ in talon_reach(len(talon), position.pos, rules.draw, rules.can_recycle):
            available.setdefault(talon[index], []).append((_FROM_TALON, index))
        per = rules.places_per_suit
        for place, height in enumerate(position.foundations):
            if height:
                available.setdefault((place // per) * 13 + height - 1, []).append(
                    (_FROM_FOUNDATION, place)
                )
        self._available = available
        return available

    def host_is_wanted(self, card: Card, move: SolverMove) -> bool:
        """Some other card could be built on ``card`` right after ``move`` puts it down."""
        for child in CHILDREN[card]:
            for where, index in self.available.get(child, ()):
                if (
                    where >= 0
                    and where != move.target
                    and not (move.kind == "c" and where == move.source)
                ):
                    return True
                if where == _FROM_TALON and not (move.kind == "t" and index == move.source):
                    return True
                if where == _FROM_FOUNDATION and not (move.kind == "f" and index == move.source):
                    return True
        return False

    def next_card_ready(self, card: Card) -> bool:
        """The next card of the suit is on top of a column or in the talon (or this is a King).

        Where the talon is free, a talon card can wait there until the card that follows it
        home is ready to go too: sending it home earlier gains nothing.
        """
        if RANK_OF[card] == KING:
            return True
        follower = card + 1
        return follower in self.position.talon or any(
            col and col[-1] == follower for col in self.position.columns
        )

    def room_wanted(self) -> bool:
        """Some King lies elsewhere than at the bottom of a column: an empty column helps."""
        if any(RANK_OF[card] == KING for card in self.position.talon):
            return True
        return any(RANK_OF[card] == KING for col in self.position.columns for card in col[1:])

    def goes_home(self, card: Card) -> bool:
        return foundation_place(self.rules, self.position.foundations, card) >= 0

    def keep(self, move: SolverMove, quick: bool) -> bool:
        """Whether the search tries ``move``; with ``quick`` False only provably idle moves go.

        Where the talon is free, a talon card put on a column is only worth it when
        something is built on it next, and one sent home only when the next card of its
        suit can follow: any winning line can wait with it until then. The
        quick pass also takes a card back from a foundation only to build on it at once,
        moves part of a run only when that sends the card it uncovers home, and (in
        Double Solitaire) a whole run only when that turns a card up, empties a column
        for a King that is not at the bottom of one, or frees the card beneath to go
        home or to take another card.
        """
        position = self.position
        if move.kind == "c" and move.target >= 0:
            col = position.columns[move.source]
            start = len(col) - move.count
            if start == 0 and not position.columns[move.target]:
                return False  # a whole column to an empty one only renames columns
            whole = start == self.starts[move.source]
            if not quick or (whole and self.rules.ordered_groups):
                return True
            if start == 0:
                return self.room_wanted()
            below = col[start - 1]
            if not whole:
                return self.goes_home(below)
            if start == position.down[move.source]:
                return True  # turns a hidden card up
            # Double Solitaire's twin cards let a run go to and fro between two parents;
            # that only helps when it frees the card beneath. (Réfléchi searched with
            # this test left deals unknown that it wins without it.)
            return self.goes_home(below) or self.host_is_wanted(below, move)
        if move.target < 0:
            if move.kind == "t" and self.rules.talon_is_free and not quick:
                return self.next_card_ready(position.talon[move.source])
            return True
        if move.kind == "t":
            if not self.rules.talon_is_free:
                return True
            return self.host_is_wanted(position.talon[move.source], move)
        # The complete pass takes every card back: one may be needed before anything can
        # be built on it, to let the card beneath it come back too (a position of
        # tests/solver/test_pruning.py is won only so).
        if not quick:
            return True
        per = self.rules.places_per_suit
        card = (move.source // per) * 13 + position.foundations[move.source] - 1
        return self.host_is_wanted(card, move)

    def priority(self, move: SolverMove) -> int:
        """Lower is tried first."""
        position = self.position
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
                return 20 if self.kings_waiting else 60
            if start > 0 and self.goes_home(col[start - 1]):
                return 15
            return 70
        if move.kind == "t":
            draw_cost = move.draws + move.draws_after + (8 if move.recycle else 0)
            return (30 if move.target < 0 else 40) + draw_cost
        return 90


def kept_moves(
    rules: Rules, position: Position, moves: list[SolverMove], quick: bool, ordered: bool
) -> list[SolverMove]:
    around = Surroundings(rules, position)
    kept = [m for m in moves if around.keep(m, quick)]
    if ordered:
        kept.sort(key=around.priority)
    return kept


# Best-first expands the position with the lowest estimate first.
def estimate(rules: Rules, position: Position, waste_weight: int = 0) -> int:
    """Rough work left: lower is more promising (only steers the order of search).

    ``waste_weight`` is what each card on the waste adds (see the Vegas passes).
    """
    left = 0
    for col, down in zip(position.columns, position.down, strict=True):
        left += 3 * down
        lowest = 99
        for card in col:
            rank = RANK_OF[card]
            if rank > lowest:
                left += 2  # lies on a lower card: has to move at least once more
            lowest = min(lowest, rank)
    if rules.ordered_groups:
        left += _blocked_in_groups(position.columns)
    left += waste_weight * position.pos
    return left + len(position.talon) - 4 * sum(position.foundations)


def _blocked_in_groups(columns: tuple[bytes, ...]) -> int:
    """Where only ordered groups move, what holds a column up most, roughly.

    A card on a lower card of its own suit blocks that suit's way home until it finds
    another place; and every card that is not part of an ordered group resting on a King
    at the bottom of its column has to move at least once more.
    """
    left = 0
    for col in columns:
        lowest = [99, 99, 99, 99]
        for card in col:
            suit, rank = SUIT_OF[card], RANK_OF[card]
            if rank > lowest[suit]:
                left += 3
            elif rank < lowest[suit]:
                lowest[suit] = rank
        settled = 0
        if col and RANK_OF[col[0]] == KING:
            settled = 1
            while settled < len(col) and fits(col[settled], col[settled - 1]):
                settled += 1
        left += len(col) - settled if col else -2
    return left
