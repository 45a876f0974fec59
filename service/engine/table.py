"""The table: where every card lies, and everything that can be read from that alone.

``Table`` is the state of a game as plain lists of card integers, so that play and undo
are a handful of list operations. It builds, checks and copies positions, shows them to
players and writes them as text; which moves are legal is ``legal.py``'s business, and
playing them ``klondike.py``'s. The games (``double.py``, ``reflechi.py``) fill in the
sizes and the few hooks below.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from .cards import CARD_TEXT, KING, Card
from .deal import GameCode, GameKind, Scoring
from .errors import InvalidPositionError
from .history import RECORD_BYTES, unpack
from .scoring import VEGAS_START, Standing, format_score
from .views import PileCache


class Table:
    """The cards of one game where they lie, with score, move count and undo history."""

    kind: ClassVar[GameKind]
    column_count: ClassVar[int]
    foundation_count: ClassVar[int]
    undo_limit: ClassVar[int]
    # Whether only an ordered group may move from a column, rather than any face-up card
    # with the cards on it.
    ordered_groups_only: ClassVar[bool] = False

    __slots__ = (
        "_code_text",
        "_parts",
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
        self._check_settings(draw, scoring)
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
        # Undo records (see history.py), oldest first: kept as bytes so serializing is cheap.
        self._undo = bytearray()
        self.won = sum(self.foundations) == 13 * self.foundation_count
        self.resigned = False
        self._check_shape()
        self._parts = PileCache(self.column_count, self.foundation_count)

    # ----------------------------------------------------------------- construction

    @classmethod
    def deal(cls, code: GameCode) -> Self:
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

    def copy(self) -> Self:
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
        # Not shared: the copy's piles may be edited apart from the original's.
        clone._parts = PileCache(self.column_count, self.foundation_count)
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
        self._check_faces()
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

    # ----------------------------------------------------------------- game hooks

    @classmethod
    def _check_settings(cls, draw: int, scoring: Scoring) -> None:
        refusal = cls.kind.settings_refusal(draw, scoring)
        if refusal is not None:
            raise InvalidPositionError(refusal)

    def _check_faces(self) -> None:
        """Refuses face-down cards where the game deals none (a column's count is checked)."""

    @staticmethod
    def _dealt_face_down(size: int) -> int:
        return size - 1

    @classmethod
    def foundation_suit(cls, place: int) -> int:
        raise NotImplementedError

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
        return 0 if self.over else len(self._undo) // RECORD_BYTES

    @property
    def history(self) -> list[int]:
        """The undo records, oldest first (see the layout in history.py)."""
        return unpack(self._undo)

    def cards_on_foundations(self) -> int:
        return sum(self.foundations)

    def standing(self) -> Standing:
        return Standing(sum(self.foundations), self.score, self.moves, self.scoring, self.resigned)

    # ----------------------------------------------------------------- views

    def public_view(self) -> dict[str, Any]:
        """What a player may see: face-down cards and the stock only as counts.

        The piles' parts come from the cache (views.py) and are shared with earlier
        views where the piles did not change: a view is a value, never to be edited.
        """
        parts = self._parts
        parts.view(self.columns, self.down, self.waste, self.foundations, self.foundation_suit)
        # ``_value_`` is what ``value`` returns, without the enum property's lookup.
        return {
            "game": self.kind._value_,
            "draw": self.draw,
            "scoring": self.scoring._value_,
            "columns": parts.columns_view,
            "stock": len(self.stock),
            "waste": parts.waste_view,
            "foundations": parts.foundations_view,
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
        parts = self._parts
        parts.text(
            self.columns, self.down, self.stock, self.waste, self.foundations, self.foundation_suit
        )
        return " ".join(
            (
                self.kind._value_,
                f"{self.draw}{self.scoring.letter}",
                parts.columns_text,
                parts.stock_text or "-",
                parts.waste_text or "-",
                parts.foundations_text,
                str(self.score),
                str(self.moves),
            )
        )

    def serialize(self) -> str:
        """Position, code and undo history in one compact line; ``deserialize`` reverses it.

        A resigned game ends with an eleventh field, ``resigned``.
        """
        history = self._parts.history(self._undo) or "-"
        ending = " resigned" if self.resigned else ""
        return f"{self.position_text()} {self._code_text} {history}{ending}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return type(self) is type(other) and self.serialize() == other.serialize()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.position_text()!r}>"
