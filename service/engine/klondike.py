"""The Klondike core both games share: playing and undoing actions.

``Klondike`` is built in three layers, each in its own module, so that each reads alone:

* ``table.py``: ``Table``, the cards where they lie, views and text forms;
* ``legal.py``: ``LegalMoves``, which actions the shared rules allow, and why not;
* this module: ``Klondike``, which plays a validated action and takes it back.

The games (``double.py``, ``reflechi.py``) subclass ``Klondike`` with their sizes, rule
ids and differences, as python-chess variants subclass ``Board``. Every accepted action
leaves a compact record in the undo history (layout in ``history.py``), so undo restores
the exact earlier state.
"""

from __future__ import annotations

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
    parse_action,
)
from .cards import Card
from .errors import IllegalActionError, InvalidActionError
from .history import MAX_COUNT, PILE_CODE, PILE_KINDS, REC_DRAW, REC_MOVE, REC_RECYCLE, RECORD_BYTES
from .legal import LegalMoves
from .outcome import Outcome
from .scoring import RECYCLE_COST, move_points


class Klondike(LegalMoves):
    """The rules both games share; subclasses set sizes, rule ids and the differences."""

    __slots__ = ()

    def play(self, action: Action) -> Outcome:
        """Validates and applies ``action``; raises without changing anything if refused."""
        if isinstance(action, Undo):
            return self.undo()
        if self.over:
            raise IllegalActionError(self.R_FINAL)
        if isinstance(action, Resign):
            self.resigned = True
            return Outcome(action, 0, resigned=True)
        if isinstance(action, Move):
            return self._apply_move(self._plan_move(action))
        if isinstance(action, Tap):
            return self._apply_move(self._plan_tap(action))
        if isinstance(action, Draw | Recycle):
            planned = self._plan_stock(isinstance(action, Recycle))
            if isinstance(planned, Draw):
                return self._apply_draw()
            return self._apply_recycle()
        raise InvalidActionError("bad_action", f"not an action: {action!r}")

    def play_text(self, text: str) -> Outcome:
        return self.play(parse_action(text))

    def _apply_move(self, move: Move) -> Outcome:
        source, target, count = move.source, move.target, move.count
        skind, tkind = source.kind, target.kind
        flipped: Card | None = None
        if skind is PileKind.COLUMN:
            i = source.index
            assert i is not None
            col = self.columns[i]
            moving = col[-count:]
            del col[-count:]
            if col and self.down[i] == len(col):
                self.down[i] -= 1
                flipped = col[-1]
        elif skind is PileKind.WASTE:
            moving = [self.waste.pop()]
        else:
            place = source.index
            assert place is not None
            height = self.foundations[place]
            moving = [self.foundation_suit(place) * 13 + height - 1]
            self.foundations[place] = height - 1
        index = target.index
        assert index is not None
        won = False
        if tkind is PileKind.COLUMN:
            self.columns[index].extend(moving)
        else:
            self.foundations[index] += 1
            won = sum(self.foundations) == 13 * self.foundation_count
        points = move_points(self.scoring, skind, tkind, flipped is not None)
        self.score += points
        self.moves += 1
        self.won = won
        self._remember(
            REC_MOVE
            | PILE_CODE[skind] << 3
            | (source.index or 0) << 5
            | PILE_CODE[tkind] << 9
            | index << 11
            | count << 15
            | (flipped is not None) << 21
        )
        return Outcome(move, points, source, target, tuple(moving), flipped, won)

    def _apply_draw(self) -> Outcome:
        stock, waste = self.stock, self.waste
        n = min(self.draw, len(stock))
        for _ in range(n):
            waste.append(stock.pop())
        self.moves += 1
        self._remember(REC_DRAW | n << 3)
        return Outcome(Draw(), 0, cards=tuple(waste[-n:]), drawn=n)

    def _apply_recycle(self) -> Outcome:
        # Reversing the waste makes its bottom card, drawn first, the top of the stock again.
        count = len(self.waste)
        self.waste.reverse()
        self.stock, self.waste = self.waste, self.stock
        cost = min(RECYCLE_COST, self.score)
        self.score -= cost
        self.moves += 1
        self._remember(REC_RECYCLE | cost << 3)
        return Outcome(Recycle(), -cost, recycled=count)

    def _remember(self, record: int) -> None:
        self._undo += record.to_bytes(RECORD_BYTES, "big")
        if len(self._undo) > self.undo_limit * RECORD_BYTES:
            del self._undo[:RECORD_BYTES]

    def undo(self) -> Outcome:
        """Takes back the last action (DS-APP-4): state and score exactly as before."""
        if self.over:
            raise IllegalActionError(self.R_FINAL)
        if not self._undo:
            raise IllegalActionError(self.R_UNDO)
        record = int.from_bytes(self._undo[-RECORD_BYTES:], "big")
        del self._undo[-RECORD_BYTES:]
        kind = record & 7
        if kind == REC_DRAW:
            n = record >> 3 & 3
            for _ in range(n):
                self.stock.append(self.waste.pop())
            return Outcome(Undo(), 0, undone=Draw(), drawn=n)
        if kind == REC_RECYCLE:
            cost = record >> 3
            count = len(self.stock)
            self.stock.reverse()
            self.stock, self.waste = self.waste, self.stock
            self.score += cost
            return Outcome(Undo(), cost, undone=Recycle(), recycled=count)
        skind = PILE_KINDS[record >> 3 & 3]
        sindex = record >> 5 & 15
        tkind = PILE_KINDS[record >> 9 & 3]
        tindex = record >> 11 & 15
        count = record >> 15 & MAX_COUNT
        was_flipped = bool(record >> 21 & 1)
        if tkind is PileKind.COLUMN:
            tcol = self.columns[tindex]
            moving = tcol[-count:]
            del tcol[-count:]
            target = column(tindex)
        else:
            height = self.foundations[tindex]
            moving = [self.foundation_suit(tindex) * 13 + height - 1]
            self.foundations[tindex] = height - 1
            target = foundation(tindex)
        turned_down: Pile | None = None
        if skind is PileKind.COLUMN:
            if was_flipped:
                self.down[sindex] += 1
                turned_down = column(sindex)
            self.columns[sindex].extend(moving)
            source = column(sindex)
        elif skind is PileKind.WASTE:
            self.waste.append(moving[0])
            source = WASTE
        else:
            self.foundations[sindex] += 1
            source = foundation(sindex)
        points = move_points(self.scoring, skind, tkind, was_flipped)
        self.score -= points
        undone = Move(source, target, count)
        return Outcome(
            Undo(), -points, target, source, tuple(moving), undone=undone, turned_down=turned_down
        )
