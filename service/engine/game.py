"""The two games: one Klondike core, two variants (as python-chess shares ``Board``).

State is plain lists of card integers, so play and undo are a handful of list operations.
Every accepted action leaves a compact integer record in the undo history; the record
holds only what the current position cannot tell (which piles, how many cards, whether a
card was flipped, what a recycle really cost), so undo restores the exact earlier state.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any, ClassVar

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
from .cards import (
    CARD_TEXT,
    KING,
    RANK_CHARS,
    RANK_OF,
    SUIT_OF,
    Card,
    cards_text,
    fits_on,
    parse_cards,
)
from .deal import GameCode, GameKind, Scoring
from .errors import IllegalActionError, InvalidActionError, InvalidPositionError

# Undo record layout (an int, stored as 3 bytes): bits 0-2 kind; for a move, source pile
# kind (2 bits), source index (4), target kind (2), target index (4), count (6), flip (1);
# for a draw, the number of cards (2 bits); for a recycle, the points it really cost (7).
_REC_MOVE, _REC_DRAW, _REC_RECYCLE = 0, 1, 2
_PILE_CODE = {PileKind.WASTE: 0, PileKind.COLUMN: 1, PileKind.FOUNDATION: 2}
_MAX_COUNT = 63
_RECORD_BYTES = 3

RECYCLE_COST = 100
VEGAS_START = -104


def format_score(score: int, scoring: Scoring) -> str:
    """Normal points as a number; Vegas as dollars: ``$416``, ``$0``, ``-$104``."""
    if scoring is Scoring.NORMAL:
        return str(score)
    return f"-${-score}" if score < 0 else f"${score}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one accepted action did: the normalized action and what moved.

    ``cards`` are the cards that moved (all face up by then); ``flipped`` is the card that
    turned face up, if any. For an undo, ``undone`` is the action taken back and
    ``turned_down`` the column whose card went face down again.
    """

    action: Action
    score_delta: int
    source: Pile | None = None
    target: Pile | None = None
    cards: tuple[Card, ...] = ()
    flipped: Card | None = None
    won: bool = False
    resigned: bool = False
    undone: Action | None = None
    turned_down: Pile | None = None
    drawn: int = 0
    recycled: int = 0

    def events(self) -> list[dict[str, Any]]:
        """Semantic events for animation, as JSON-ready dicts (only public information)."""
        events: list[dict[str, Any]] = []
        if self.undone is not None:
            events.append({"type": "undone", "action": str(self.undone)})
        if self.source is not None and self.target is not None:
            events.append(
                {
                    "type": "moved",
                    "from": str(self.source),
                    "to": str(self.target),
                    "cards": [CARD_TEXT[c] for c in self.cards],
                }
            )
        if self.flipped is not None and self.source is not None:
            events.append(
                {"type": "flipped", "pile": str(self.source), "card": CARD_TEXT[self.flipped]}
            )
        if self.turned_down is not None:
            events.append({"type": "turned_down", "pile": str(self.turned_down)})
        if self.drawn:
            if self.undone is None:
                events.append({"type": "drew", "cards": [CARD_TEXT[c] for c in self.cards]})
            else:
                events.append({"type": "undrew", "count": self.drawn})
        if self.recycled:
            kind = "recycled" if self.undone is None else "unrecycled"
            events.append({"type": kind, "count": self.recycled})
        if self.won:
            events.append({"type": "won"})
        if self.resigned:
            events.append({"type": "resigned"})
        return events


@dataclass(slots=True)
class _Plan:
    """A validated move, ready to apply: piles resolved to concrete places."""

    source: Pile
    target: Pile
    count: int
    action: Move = field(init=False)

    def __post_init__(self) -> None:
        self.action = Move(self.source, self.target, self.count)


class Klondike:
    """The rules both games share; subclasses set sizes, rule ids and the differences."""

    kind: ClassVar[GameKind]
    column_count: ClassVar[int]
    foundation_count: ClassVar[int]
    undo_limit: ClassVar[int]
    # Réfléchi moves only ordered groups; in Double Solitaire any face-up card moves.
    groups_must_be_ordered: ClassVar[bool]
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

    __slots__ = (
        "_code_text",
        "_undo",
        "code",
        "columns",
        "down",
        "draw",
        "foundations",
        "moves",
        "resigned",
        "score",
        "scoring",
        "stock",
        "waste",
        "won",
    )

    def __init__(
        self,
        *,
        draw: int = 1,
        scoring: Scoring = Scoring.NORMAL,
        columns: list[list[Card]],
        down: list[int],
        stock: list[Card],
        waste: list[Card] | None = None,
        foundations: list[int] | None = None,
        score: int | None = None,
        moves: int = 0,
        code: GameCode | None = None,
    ) -> None:
        if draw not in (1, 3):
            raise InvalidPositionError(f"draw must be 1 or 3, not {draw}")
        if scoring is Scoring.VEGAS and self.kind is GameKind.REFLECHI:
            raise InvalidPositionError("Solitaire Réfléchi has Normal scoring only")
        self.draw = draw
        self.scoring = scoring
        self.code = code
        self._code_text = str(code) if code else "-"
        self.columns = columns
        self.down = down
        self.stock = stock
        self.waste = waste if waste is not None else []
        self.foundations = foundations if foundations is not None else [0] * self.foundation_count
        if score is None:
            score = VEGAS_START if scoring is Scoring.VEGAS else 0
        self.score = score
        self.moves = moves
        # Undo records, 3 bytes each, oldest first: kept as bytes so serializing is cheap.
        self._undo = bytearray()
        self.won = sum(self.foundations) == 13 * self.foundation_count
        self.resigned = False
        self._check_shape()

    # ----------------------------------------------------------------- construction

    @classmethod
    def deal(cls, code: GameCode) -> Klondike:
        """The opening position of ``code`` (DS-DEAL-*, TF-DEAL-*), as docs/deal.md says."""
        if code.game is not cls.kind:
            raise InvalidPositionError(f"{code} is not a {cls.kind.value} code")
        deck = code.shuffled_deck()
        columns: list[list[Card]] = []
        taken = 0
        for size in range(1, cls.column_count + 1):
            columns.append(deck[taken : taken + size])
            taken += size
        stock = deck[taken:]
        stock.reverse()  # deck[taken] is drawn first, and the top of a pile is its end
        down = [cls._dealt_face_down(len(col)) for col in columns]
        return cls(draw=code.draw, scoring=code.scoring, columns=columns, down=down,
                   stock=stock, code=code)  # fmt: skip

    @staticmethod
    def _dealt_face_down(size: int) -> int:
        return size - 1

    def copy(self) -> Klondike:
        clone = type(self).__new__(type(self))
        clone.draw = self.draw
        clone.scoring = self.scoring
        clone.code = self.code
        clone._code_text = self._code_text
        clone.columns = [list(col) for col in self.columns]
        clone.down = list(self.down)
        clone.stock = list(self.stock)
        clone.waste = list(self.waste)
        clone.foundations = list(self.foundations)
        clone.score = self.score
        clone.moves = self.moves
        clone._undo = bytearray(self._undo)
        clone.won = self.won
        clone.resigned = self.resigned
        return clone

    def _check_shape(self) -> None:
        if len(self.columns) != self.column_count or len(self.down) != self.column_count:
            raise InvalidPositionError(f"{self.kind.value} has {self.column_count} columns")
        if len(self.foundations) != self.foundation_count:
            raise InvalidPositionError(f"{self.kind.value} has {self.foundation_count} foundations")
        for col, hidden in zip(self.columns, self.down, strict=True):
            if not 0 <= hidden <= len(col) or (col and hidden == len(col)):
                raise InvalidPositionError("a non-empty column must end in a face-up card")
        if any(not 0 <= n <= KING for n in self.foundations):
            raise InvalidPositionError("a foundation holds 0 to 13 cards")
        if self.kind is GameKind.REFLECHI and any(self.down):
            raise InvalidPositionError("in Solitaire Réfléchi every column card is face up")
        if self.scoring is Scoring.NORMAL and self.score < 0:
            raise InvalidPositionError("a Normal score is never below 0")
        if self.moves < 0:
            raise InvalidPositionError("the move counter is never negative")
        counts = [0] * 52
        for pile in (*self.columns, self.stock, self.waste):
            for card in pile:
                counts[card] += 1
        for place, height in enumerate(self.foundations):
            suit = self.foundation_suit(place)
            for rank in range(1, height + 1):
                counts[suit * 13 + rank - 1] += 1
        copies = self.kind.deck_copies
        if any(n != copies for n in counts):
            raise InvalidPositionError(f"every card must be on the table exactly {copies} time(s)")

    # ----------------------------------------------------------------- variant hooks

    @classmethod
    def foundation_suit(cls, place: int) -> int:
        raise NotImplementedError

    def foundation_for(self, card: Card) -> int | None:
        """The place a card dropped on the foundation area goes to, or None."""
        raise NotImplementedError

    def _points_for_move(self, source: PileKind, target: PileKind, flipped: bool) -> int:
        if self.scoring is Scoring.VEGAS:
            return 5 if target is PileKind.FOUNDATION and source is not PileKind.FOUNDATION else 0
        points = 5 if flipped else 0
        if target is PileKind.FOUNDATION:
            points += 10
        elif source is PileKind.WASTE:
            points += 5
        return points

    # ----------------------------------------------------------------- queries

    @property
    def score_display(self) -> str:
        return format_score(self.score, self.scoring)

    @property
    def over(self) -> bool:
        """Won or resigned: final (DS-END-2, TF-END-2), nothing more is played or undone."""
        return self.won or self.resigned

    @property
    def undo_available(self) -> int:
        return 0 if self.over else len(self._undo) // _RECORD_BYTES

    def cards_on_foundations(self) -> int:
        return sum(self.foundations)

    def is_legal(self, action: Action) -> bool:
        try:
            self.resolve(action)
        except (IllegalActionError, InvalidActionError):
            return False
        return True

    def legal_actions(self) -> list[Action]:
        """Every legal action except taps and undo (which only restate moves) and resign."""
        if self.over:
            return []
        actions: list[Action] = []
        if self.stock:
            actions.append(Draw())
        elif self.waste and self.scoring is Scoring.NORMAL:
            actions.append(Recycle())
        columns = self.columns
        ncols = self.column_count
        if self.waste:
            card = self.waste[-1]
            place = self.foundation_for(card)
            if place is not None:
                actions.append(Move(WASTE, foundation(place)))
            actions.extend(
                Move(WASTE, column(j)) for j in range(ncols) if self._accepts(columns[j], card)
            )
        for i in range(ncols):
            col = columns[i]
            if not col:
                continue
            size = len(col)
            top = col[-1]
            place = self.foundation_for(top)
            if place is not None:
                actions.append(Move(column(i), foundation(place)))
            for start in range(self._movable_start(i), size):
                card = col[start]
                # A King that already lies at the bottom gains nothing by moving to an
                # empty column, but the rules allow it, so it is listed.
                for j in range(ncols):
                    if j != i and self._accepts(columns[j], card):
                        actions.append(Move(column(i), column(j), size - start))
        for place, height in enumerate(self.foundations):
            if height:
                card = self.foundation_suit(place) * 13 + height - 1
                actions.extend(
                    Move(foundation(place), column(j))
                    for j in range(ncols)
                    if self._accepts(columns[j], card)
                )
        return actions

    def _accepts(self, col: list[Card], card: Card) -> bool:
        if not col:
            return RANK_OF[card] == KING
        return fits_on(card, col[-1])

    def _movable_start(self, index: int) -> int:
        """The lowest position in a column from which the cards above may move."""
        col = self.columns[index]
        start = len(col) - 1
        if not self.groups_must_be_ordered:
            return self.down[index]
        while start > self.down[index] and fits_on(col[start], col[start - 1]):
            start -= 1
        return start

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
            return self._plan_move(action).action
        if isinstance(action, Tap):
            return self._plan_tap(action).action
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

    def _plan_move(self, move: Move) -> _Plan:
        source, target, count = move.source, move.target, move.count
        kind = source.kind
        if count < 1 or count > _MAX_COUNT:
            raise InvalidActionError("bad_count", f"cannot move {count} cards")
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
            card = col[start]
        elif kind is PileKind.WASTE:
            if not self.waste:
                raise InvalidActionError("empty_pile", "the waste is empty")
            if count != 1:
                raise IllegalActionError(self.R_WASTE_TOP)
            card = self.waste[-1]
        elif kind is PileKind.FOUNDATION:
            if source.index is None:
                raise InvalidActionError("bad_source", "name the foundation place (f1, f2, ...)")
            place = self._foundation_index(source)
            height = self.foundations[place]
            if not height:
                raise InvalidActionError("empty_pile", f"foundation {source} is empty")
            if count != 1 or target.kind is not PileKind.COLUMN:
                raise IllegalActionError(self.R_RETURN)
            card = self.foundation_suit(place) * 13 + height - 1
        else:
            raise InvalidActionError("bad_source", "cards leave the stock only by drawing (d)")

        tkind = target.kind
        if tkind is PileKind.COLUMN:
            j = self._column_index(target)
            if kind is PileKind.COLUMN and j == source.index:
                raise InvalidActionError("same_pile", "source and target are the same column")
            tcol = self.columns[j]
            if not tcol:
                if RANK_OF[card] != KING:
                    raise IllegalActionError(self.R_EMPTY)
            elif not fits_on(card, tcol[-1]):
                raise IllegalActionError(self.R_FIT)
            return _Plan(source, column(j), count)
        if tkind is PileKind.FOUNDATION:
            if target.index is not None:
                self._foundation_index(target)
            if count != 1:
                raise IllegalActionError(self.R_FOUNDATION_ONE)
            fitting = self.foundation_for(card)
            if fitting is None:
                raise IllegalActionError(self.R_FOUNDATION)
            return _Plan(source, foundation(fitting), 1)
        raise InvalidActionError(
            "bad_target", "cards can be moved only to a column or to the foundations"
        )

    def _plan_tap(self, tap: Tap) -> _Plan:
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
            return _Plan(source, foundation(place), 1)
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
        return _Plan(source, column(best), 1)

    # ----------------------------------------------------------------- play and undo

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

    def _apply_move(self, plan: _Plan) -> Outcome:
        source, target, count = plan.source, plan.target, plan.count
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
        points = self._points_for_move(skind, tkind, flipped is not None)
        self.score += points
        self.moves += 1
        self.won = won
        self._remember(
            _REC_MOVE
            | _PILE_CODE[skind] << 3
            | (source.index or 0) << 5
            | _PILE_CODE[tkind] << 9
            | index << 11
            | count << 15
            | (flipped is not None) << 21
        )
        return Outcome(plan.action, points, source, target, tuple(moving), flipped, won)

    def _apply_draw(self) -> Outcome:
        stock, waste = self.stock, self.waste
        n = min(self.draw, len(stock))
        for _ in range(n):
            waste.append(stock.pop())
        self.moves += 1
        self._remember(_REC_DRAW | n << 3)
        return Outcome(Draw(), 0, cards=tuple(waste[-n:]), drawn=n)

    def _apply_recycle(self) -> Outcome:
        # Reversing the waste makes its bottom card, drawn first, the top of the stock again.
        count = len(self.waste)
        self.waste.reverse()
        self.stock, self.waste = self.waste, self.stock
        cost = min(RECYCLE_COST, self.score)
        self.score -= cost
        self.moves += 1
        self._remember(_REC_RECYCLE | cost << 3)
        return Outcome(Recycle(), -cost, recycled=count)

    def _remember(self, record: int) -> None:
        self._undo += record.to_bytes(_RECORD_BYTES, "big")
        if len(self._undo) > self.undo_limit * _RECORD_BYTES:
            del self._undo[:_RECORD_BYTES]

    @property
    def history(self) -> list[int]:
        """The undo records, oldest first (see the layout at the top of this module)."""
        undo = self._undo
        return [int.from_bytes(undo[i : i + _RECORD_BYTES], "big") for i in range(0, len(undo), 3)]

    def undo(self) -> Outcome:
        """Takes back the last action (DS-APP-4): state and score exactly as before."""
        if self.over:
            raise IllegalActionError(self.R_FINAL)
        if not self._undo:
            raise IllegalActionError(self.R_UNDO)
        record = int.from_bytes(self._undo[-_RECORD_BYTES:], "big")
        del self._undo[-_RECORD_BYTES:]
        kind = record & 7
        if kind == _REC_DRAW:
            n = record >> 3 & 3
            for _ in range(n):
                self.stock.append(self.waste.pop())
            return Outcome(Undo(), 0, undone=Draw(), drawn=n)
        if kind == _REC_RECYCLE:
            cost = record >> 3
            count = len(self.stock)
            self.stock.reverse()
            self.stock, self.waste = self.waste, self.stock
            self.score += cost
            return Outcome(Undo(), cost, undone=Recycle(), recycled=count)
        skind = _PILE_KINDS[record >> 3 & 3]
        sindex = record >> 5 & 15
        tkind = _PILE_KINDS[record >> 9 & 3]
        tindex = record >> 11 & 15
        count = record >> 15 & _MAX_COUNT
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
        points = self._points_for_move(skind, tkind, was_flipped)
        self.score -= points
        undone = Move(source, target, count)
        return Outcome(
            Undo(), -points, target, source, tuple(moving), undone=undone, turned_down=turned_down
        )

    # ----------------------------------------------------------------- views

    def public_view(self) -> dict[str, Any]:
        """What a player may see: face-down cards and the stock only as counts."""
        return {
            "game": self.kind.value,
            "draw": self.draw,
            "scoring": self.scoring.value,
            "columns": [
                {"down": hidden, "up": [CARD_TEXT[c] for c in col[hidden:]]}
                for col, hidden in zip(self.columns, self.down, strict=True)
            ],
            "stock": len(self.stock),
            "waste": [CARD_TEXT[c] for c in self.waste],
            "foundations": [
                CARD_TEXT[self.foundation_suit(p) * 13 + h - 1] if h else None
                for p, h in enumerate(self.foundations)
            ],
            "score": self.score,
            "score_display": self.score_display,
            "moves": self.moves,
            "undo_available": self.undo_available,
            "won": self.won,
            "resigned": self.resigned,
        }

    def private_view(self) -> dict[str, Any]:
        """The whole state, hidden cards included: never for clients."""
        view = self.public_view()
        view["columns"] = [
            {
                "down": [CARD_TEXT[c] for c in col[:hidden]],
                "up": [CARD_TEXT[c] for c in col[hidden:]],
            }
            for col, hidden in zip(self.columns, self.down, strict=True)
        ]
        view["stock"] = [CARD_TEXT[c] for c in self.stock]
        view["code"] = str(self.code) if self.code else None
        return view

    def hidden_cards(self) -> list[Card]:
        """Face-down column cards and the stock: what must never reach a client."""
        hidden = [c for col, n in zip(self.columns, self.down, strict=True) for c in col[:n]]
        return hidden + self.stock

    # ----------------------------------------------------------------- text forms

    def position_text(self) -> str:
        """A FEN-like one-line position (see docs/notation.md); history not included."""
        cols = "/".join(
            f"{cards_text(col[:n])}|{cards_text(col[n:])}"
            for col, n in zip(self.columns, self.down, strict=True)
        )
        founds = "".join(RANK_CHARS[h - 1] if h else "-" for h in self.foundations)
        return " ".join(
            (
                self.kind.value,
                f"{self.draw}{self.scoring.letter}",
                cols,
                cards_text(self.stock) or "-",
                cards_text(self.waste) or "-",
                founds,
                str(self.score),
                str(self.moves),
            )
        )

    def serialize(self) -> str:
        """Position, code and undo history in one compact line; ``deserialize`` reverses it.

        A resigned game ends with an eleventh field, ``resigned``.
        """
        history = base64.b64encode(self._undo).decode("ascii") if self._undo else "-"
        ending = " resigned" if self.resigned else ""
        return f"{self.position_text()} {self._code_text} {history}{ending}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Klondike):
            return NotImplemented
        return type(self) is type(other) and self.serialize() == other.serialize()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.position_text()!r}>"


_PILE_KINDS = {code: kind for kind, code in _PILE_CODE.items()}


class DoubleSolitaire(Klondike):
    """Double Solitaire (DS1): two decks, 9 columns, 8 foundations, two per suit."""

    __slots__ = ()
    kind = GameKind.DOUBLE
    column_count = 9
    foundation_count = 8
    undo_limit = 200
    groups_must_be_ordered = False
    R_FIT = "DS-TAB-1"
    R_FACE_DOWN = "DS-TAB-2"
    R_GROUP = "DS-TAB-2"
    R_WASTE_TOP = "DS-WASTE-1"
    R_EMPTY = "DS-EMPTY-1"
    R_FOUNDATION = "DS-FND-1"
    R_FOUNDATION_ONE = "DS-FND-1"
    R_RETURN = "DS-FND-4"
    R_NOTHING_TO_DRAW = "DS-STOCK-1"
    R_RECYCLE_STOCK = "DS-STOCK-4"
    R_SINGLE_PASS = "DS-STOCK-5"
    R_FINAL = "DS-END-2"
    R_TAP = "DS-APP-2"
    R_DOUBLE_TAP = "DS-APP-3"
    R_UNDO = "DS-APP-4"

    @classmethod
    def foundation_suit(cls, place: int) -> int:
        return place >> 1

    def foundation_for(self, card: Card) -> int | None:
        # DS-FND-3: the first place of the card's own row that it continues.
        first = SUIT_OF[card] * 2
        wanted = RANK_OF[card] - 1
        if self.foundations[first] == wanted:
            return first
        if self.foundations[first + 1] == wanted:
            return first + 1
        return None


class SolitaireReflechi(Klondike):
    """Solitaire Réfléchi (TF1): one deck, every tableau card face up, ordered groups."""

    __slots__ = ()
    kind = GameKind.REFLECHI
    column_count = 7
    foundation_count = 4
    undo_limit = 100
    groups_must_be_ordered = True
    R_FIT = "TF-TAB-1"
    R_FACE_DOWN = "TF-GROUP-2"
    R_GROUP = "TF-GROUP-2"
    R_WASTE_TOP = "TF-WASTE-1"
    R_EMPTY = "TF-EMPTY-1"
    R_FOUNDATION = "TF-FND-1"
    R_FOUNDATION_ONE = "TF-FND-MOVE-1"
    R_RETURN = "TF-FND-3"
    R_NOTHING_TO_DRAW = "TF-STOCK-1"
    R_RECYCLE_STOCK = "TF-STOCK-4"
    R_SINGLE_PASS = "TF-STOCK-4"
    R_FINAL = "TF-END-2"
    R_TAP = "TF-APP-2"
    R_DOUBLE_TAP = "TF-APP-2"
    R_UNDO = "TF-APP-4"

    @staticmethod
    def _dealt_face_down(size: int) -> int:
        return 0

    @classmethod
    def foundation_suit(cls, place: int) -> int:
        return place

    def foundation_for(self, card: Card) -> int | None:
        suit = SUIT_OF[card]
        return suit if self.foundations[suit] == RANK_OF[card] - 1 else None


GAME_CLASSES: dict[GameKind, type[Klondike]] = {
    GameKind.DOUBLE: DoubleSolitaire,
    GameKind.REFLECHI: SolitaireReflechi,
}


def new_game(code: GameCode | str) -> Klondike:
    """The opening position of a game code such as ``DS1-D1N-AAAAAAB``."""
    if isinstance(code, str):
        code = GameCode.parse(code)
    return GAME_CLASSES[code.game].deal(code)


def from_position(text: str) -> Klondike:
    """Reads ``position_text()`` output; the history starts empty."""
    fields = text.split()
    if len(fields) != 8:
        raise InvalidPositionError("a position has 8 fields")
    return _from_fields(fields, code=None)


def deserialize(text: str) -> Klondike:
    fields = text.split()
    resigned = len(fields) == 11 and fields[10] == "resigned"
    if len(fields) != 10 and not resigned:
        raise InvalidPositionError("serialized state has 10 fields (11 when resigned)")
    code = None if fields[8] == "-" else GameCode.parse(fields[8])
    game = _from_fields(fields[:8], code)
    if fields[9] != "-":
        try:
            raw = base64.b64decode(fields[9], validate=True)
        except ValueError as exc:
            raise InvalidPositionError("bad undo history") from exc
        if len(raw) % _RECORD_BYTES or len(raw) // _RECORD_BYTES > game.undo_limit:
            raise InvalidPositionError("bad undo history length")
        records = [
            int.from_bytes(raw[i : i + _RECORD_BYTES], "big")
            for i in range(0, len(raw), _RECORD_BYTES)
        ]
        if not all(_record_is_valid(game, record) for record in records):
            raise InvalidPositionError("bad undo record")
        game._undo = bytearray(raw)
    game.resigned = resigned
    return game


def _record_is_valid(game: Klondike, record: int) -> bool:
    """Shape checks only: a record that passes cannot index outside the table."""
    kind = record & 7
    if kind == _REC_DRAW:
        return 1 <= record >> 3 <= 3
    if kind == _REC_RECYCLE:
        return record >> 3 <= RECYCLE_COST
    if kind != _REC_MOVE or record >> 22:
        return False
    limits = {0: 1, 1: game.column_count, 2: game.foundation_count}
    source, target = record >> 3 & 3, record >> 9 & 3
    if source not in limits or target not in (1, 2) or source == target == 2:
        return False
    return (
        (record >> 5 & 15) < limits[source]
        and (record >> 11 & 15) < limits[target]
        and (record >> 15 & _MAX_COUNT) >= 1
    )


def _from_fields(fields: list[str], code: GameCode | None) -> Klondike:
    kind_text, mode, cols, stock, waste, founds, score, moves = fields
    try:
        cls = GAME_CLASSES[GameKind(kind_text)]
        if len(mode) != 2 or mode[1] not in "NV":
            raise ValueError(f"bad mode {mode!r}")
        scoring = Scoring.NORMAL if mode[1] == "N" else Scoring.VEGAS
        columns: list[list[Card]] = []
        down: list[int] = []
        for col_text in cols.split("/"):
            hidden, _, up = col_text.partition("|")
            hidden_cards = parse_cards(hidden)
            columns.append(hidden_cards + parse_cards(up))
            down.append(len(hidden_cards))
        foundations = [0 if ch == "-" else RANK_CHARS.index(ch) + 1 for ch in founds]
        return cls(
            draw=int(mode[0]),
            scoring=scoring,
            columns=columns,
            down=down,
            stock=[] if stock == "-" else parse_cards(stock),
            waste=[] if waste == "-" else parse_cards(waste),
            foundations=foundations,
            score=int(score),
            moves=int(moves),
            code=code,
        )
    except InvalidPositionError:
        raise
    except ValueError as exc:
        raise InvalidPositionError(str(exc)) from exc
