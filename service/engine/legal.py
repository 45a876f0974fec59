"""Which actions the rules allow: legal-move listing and validation, shared by both games.

Validation turns an action into the move it will play (piles resolved to concrete places)
or raises: ``InvalidActionError`` for an action that names no real place,
``IllegalActionError`` with the rule id for one the rules forbid. Nothing here changes the
table; playing the move is ``klondike.py``'s business. The games set the rule ids, the
hook that differs (where a card goes on the foundations) and whether only ordered groups
may move from a column.
"""

from __future__ import annotations

import functools
from typing import ClassVar

from .actions import (
    WASTE,
    Action,
    Draw,
    Move,
    Pile,
    PileKind,
    Recycle,
    Resign,
    Tap,
    Undo,
    column,
    foundation,
)
from .cards import ACCEPTED_ON, KING, KINGS, RANK_OF, Card, fits_on
from .deal import Scoring
from .errors import IllegalActionError, InvalidActionError
from .history import MAX_COUNT
from .table import Table


@functools.cache
def _column_move(source: int, target: int, count: int) -> Move:
    # Moves are immutable values, so listings share them: building a frozen dataclass
    # costs several times more than finding it again.
    return Move(column(source), column(target), count)


class LegalMoves(Table):
    """A table that knows the shared rules: what may be played on it, and why not."""

    # Rule ids, by the situation that raises them.
    R_FIT: ClassVar[str]
    R_FACE_DOWN: ClassVar[str]
    R_GROUP: ClassVar[str]
    R_WASTE_TOP: ClassVar[str]
    R_EMPTY: ClassVar[str]
    R_FOUNDATION: ClassVar[str]
    R_FOUNDATION_ONE: ClassVar[str]
    R_RETURN: ClassVar[str]
    R_NOTHING_TO_DRAW: ClassVar[str]
    R_RECYCLE_STOCK: ClassVar[str]
    R_SINGLE_PASS: ClassVar[str]
    R_FINAL: ClassVar[str]
    R_TAP: ClassVar[str]
    R_DOUBLE_TAP: ClassVar[str]
    R_UNDO: ClassVar[str]

    __slots__ = ()

    # ----------------------------------------------------------------- game hooks

    def foundation_for(self, card: Card) -> int | None:
        """The place a card dropped on the foundation area goes to, or None."""
        raise NotImplementedError

    def _movable_start(self, index: int) -> int:
        """The lowest position in a column from which the cards above may move."""
        if not self.ordered_groups_only:
            return self.down[index]
        # Every card may be in sight, yet only the ordered run on top moves.
        col = self.columns[index]
        start = len(col) - 1
        while start > self.down[index] and col[start] in ACCEPTED_ON[col[start - 1]]:
            start -= 1
        return start

    # ----------------------------------------------------------------- listing

    def is_legal(self, action: Action) -> bool:
        try:
            self.resolve(action)
        except (IllegalActionError, InvalidActionError):
            return False
        return True

    def legal_actions(self) -> list[Action]:
        """Every legal action except taps and undo (which only restate moves) and resign.

        The order is part of the answer (the HTTP listing passes it on as it is): the
        draw or the recycle; the waste's top card to its foundation, then to each column
        it fits, left to right; for each column from the left, its top card to its
        foundation, then each movable card from the deepest one up (the longest run
        first), to each other column it fits, left to right; last, each foundation
        place's top card, place by place, to each column it fits, left to right.
        """
        if self.over:
            return []
        actions: list[Action] = []
        if self.stock:
            actions.append(Draw())
        elif self.waste and self.scoring is Scoring.NORMAL:
            actions.append(Recycle())
        # Which columns each card may go to, found once instead of testing every card
        # against every column: few cards fit anywhere.
        targets = self._columns_accepting()
        if self.waste:
            card = self.waste[-1]
            place = self.foundation_for(card)
            if place is not None:
                actions.append(Move(WASTE, foundation(place)))
            actions.extend(Move(WASTE, column(j)) for j in targets.get(card, ()))
        for i, col in enumerate(self.columns):
            if not col:
                continue
            size = len(col)
            source = column(i)
            place = self.foundation_for(col[-1])
            if place is not None:
                actions.append(Move(source, foundation(place)))
            for start in range(self._movable_start(i), size):
                # A King that already lies at the bottom gains nothing by moving to an
                # empty column, but the rules allow it, so it is listed.
                for j in targets.get(col[start], ()):
                    if j != i:
                        actions.append(_column_move(i, j, size - start))
        for place, height in enumerate(self.foundations):
            if height:
                card = self.foundation_suit(place) * 13 + height - 1
                if card in targets:
                    source = foundation(place)
                    actions.extend(Move(source, column(j)) for j in targets[card])
        return actions

    def _columns_accepting(self) -> dict[Card, list[int]]:
        """For each card that some column accepts, those columns in ascending order: a
        column accepts the cards that fit on its top card, an empty one the Kings."""
        targets: dict[Card, list[int]] = {}
        for j, col in enumerate(self.columns):
            for card in ACCEPTED_ON[col[-1]] if col else KINGS:
                targets.setdefault(card, []).append(j)
        return targets

    # ----------------------------------------------------------------- validation

    def resolve(self, action: Action) -> Action:
        """Validates ``action`` without playing it; returns what it would become."""
        if self.over:
            raise IllegalActionError(self.R_FINAL)
        if isinstance(action, Undo):
            if not self._undo:
                raise IllegalActionError(self.R_UNDO)
            return action
        if isinstance(action, Resign):
            return action
        if isinstance(action, Move):
            return self._plan_move(action)
        if isinstance(action, Tap):
            return self._plan_tap(action)
        if isinstance(action, Draw | Recycle):
            return self._plan_stock(isinstance(action, Recycle))
        raise InvalidActionError("bad_action", f"not an action: {action!r}")

    def _plan_stock(self, recycle: bool) -> Action:
        if self.stock:
            if recycle:
                raise IllegalActionError(self.R_RECYCLE_STOCK)
            return Draw()
        if not self.waste:
            raise IllegalActionError(self.R_NOTHING_TO_DRAW)
        if self.scoring is Scoring.VEGAS:
            raise IllegalActionError(self.R_SINGLE_PASS)
        return Recycle()

    def _column_index(self, pile: Pile) -> int:
        index = pile.index
        if index is None or not 0 <= index < self.column_count:
            raise InvalidActionError(
                "bad_index", f"there is no column {pile} (columns are c1..c{self.column_count})"
            )
        return index

    def _foundation_index(self, pile: Pile) -> int:
        index = pile.index
        if index is None or not 0 <= index < self.foundation_count:
            raise InvalidActionError(
                "bad_index",
                f"there is no foundation {pile} (places are f1..f{self.foundation_count})",
            )
        return index

    def _plan_move(self, move: Move) -> Move:
        """The move as it will be played: ``move`` itself when it names its places already."""
        if move.count < 1 or move.count > MAX_COUNT:
            raise InvalidActionError("bad_count", f"cannot move {move.count} cards")
        return self._plan_landing(move, self._leaving_card(move))

    def _leaving_card(self, move: Move) -> Card:
        """The lowest card ``move`` takes, once its source lets it go."""
        source, target, count = move.source, move.target, move.count
        kind = source.kind
        if kind is PileKind.COLUMN:
            i = self._column_index(source)
            col = self.columns[i]
            if not col:
                raise InvalidActionError("empty_pile", f"column {source} is empty")
            if count > len(col):
                raise InvalidActionError(
                    "bad_count", f"column {source} holds only {len(col)} card(s)"
                )
            start = len(col) - count
            if start < self.down[i]:
                raise IllegalActionError(self.R_FACE_DOWN)
            if start < self._movable_start(i):
                raise IllegalActionError(self.R_GROUP)
            return col[start]
        if kind is PileKind.WASTE:
            if not self.waste:
                raise InvalidActionError("empty_pile", "the waste is empty")
            if count != 1:
                raise IllegalActionError(self.R_WASTE_TOP)
            return self.waste[-1]
        if kind is PileKind.FOUNDATION:
            if source.index is None:
                raise InvalidActionError("bad_source", "name the foundation place (f1, f2, ...)")
            place = self._foundation_index(source)
            height = self.foundations[place]
            if not height:
                raise InvalidActionError("empty_pile", f"foundation {source} is empty")
            if count != 1 or target.kind is not PileKind.COLUMN:
                raise IllegalActionError(self.R_RETURN)
            return self.foundation_suit(place) * 13 + height - 1
        raise InvalidActionError("bad_source", "cards leave the stock only by drawing (d)")

    def _plan_landing(self, move: Move, card: Card) -> Move:
        """``move`` with its target place resolved, once the target takes ``card``."""
        source, target, count = move.source, move.target, move.count
        tkind = target.kind
        if tkind is PileKind.COLUMN:
            j = self._column_index(target)
            if source.kind is PileKind.COLUMN and j == source.index:
                raise InvalidActionError("same_pile", "source and target are the same column")
            tcol = self.columns[j]
            if not tcol:
                if RANK_OF[card] != KING:
                    raise IllegalActionError(self.R_EMPTY)
            elif not fits_on(card, tcol[-1]):
                raise IllegalActionError(self.R_FIT)
            return move
        if tkind is PileKind.FOUNDATION:
            if target.index is not None:
                self._foundation_index(target)
            if count != 1:
                raise IllegalActionError(self.R_FOUNDATION_ONE)
            fitting = self.foundation_for(card)
            if fitting is None:
                raise IllegalActionError(self.R_FOUNDATION)
            return move if target.index == fitting else Move(source, foundation(fitting))
        raise InvalidActionError(
            "bad_target", "cards can be moved only to a column or to the foundations"
        )

    def _plan_tap(self, tap: Tap) -> Move:
        source = tap.source
        if source.kind is PileKind.COLUMN:
            own = self._column_index(source)
            col = self.columns[own]
            if not col:
                raise InvalidActionError("empty_pile", f"column {source} is empty")
            card = col[-1]
        elif source.kind is PileKind.WASTE:
            own = -1
            if not self.waste:
                raise InvalidActionError("empty_pile", "the waste is empty")
            card = self.waste[-1]
        else:
            raise InvalidActionError("bad_source", "only a column or the waste can be tapped")
        place = self.foundation_for(card)
        if place is not None:
            return Move(source, foundation(place))
        if not tap.double:
            raise IllegalActionError(self.R_TAP)
        best = -1
        best_size = 0
        for j, col in enumerate(self.columns):
            if j != own and col and len(col) > best_size and fits_on(card, col[-1]):
                best, best_size = j, len(col)
        if best < 0 and RANK_OF[card] == KING:
            best = next((j for j, c in enumerate(self.columns) if not c and j != own), -1)
        if best < 0:
            raise IllegalActionError(self.R_DOUBLE_TAP)
        return Move(source, column(best))
