"""Starting a game and reading one back: from a code, a position or a serialized state.

The games themselves live in ``double.py`` and ``reflechi.py`` on the shared core of
``klondike.py``; this module picks the right one by its kind and reads the text forms
that ``Table.position_text`` and ``Table.serialize`` write (docs/notation.md).
"""

from __future__ import annotations

import base64

from .cards import RANK_CHARS, Card, parse_cards
from .deal import GameCode, GameKind, Scoring
from .double import DoubleSolitaire
from .errors import InvalidPositionError
from .history import RECORD_BYTES, record_is_valid, unpack
from .klondike import Klondike
from .outcome import Outcome
from .reflechi import SolitaireReflechi
from .scoring import VEGAS_START, Standing, format_score

# The games and their scoring were defined here before they had modules of their own;
# code written against that layout keeps working.
__all__ = [
    "GAME_CLASSES",
    "VEGAS_START",
    "DoubleSolitaire",
    "Klondike",
    "Outcome",
    "SolitaireReflechi",
    "deserialize",
    "format_score",
    "from_position",
    "new_game",
    "standing",
]

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
        if len(raw) % RECORD_BYTES or len(raw) // RECORD_BYTES > game.undo_limit:
            raise InvalidPositionError("bad undo history length")
        columns, places = game.column_count, game.foundation_count
        if not all(record_is_valid(record, columns, places) for record in unpack(raw)):
            raise InvalidPositionError("bad undo record")
        game._undo = bytearray(raw)
    game.resigned = resigned
    return game


_RANK_VALUE = {char: rank for rank, char in enumerate(RANK_CHARS, start=1)} | {"-": 0}


def standing(text: str) -> Standing:
    """Cards on the foundations, score, moves and whether the game was resigned, of a
    ``serialize()`` text, read without dealing the game again (a tenth of the cost of
    ``deserialize``)."""
    fields = text.split(" ", 8)
    if len(fields) != 9 or len(fields[1]) != 2 or fields[1][1] not in "NV":
        raise InvalidPositionError("not a serialized state")
    try:
        foundations = sum(_RANK_VALUE[char] for char in fields[5])
        score, moves = int(fields[6]), int(fields[7])
    except (KeyError, ValueError) as exc:
        raise InvalidPositionError("bad foundations, score or moves") from exc
    scoring = Scoring.NORMAL if fields[1][1] == "N" else Scoring.VEGAS
    return Standing(foundations, score, moves, scoring, fields[8].endswith(" resigned"))


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
