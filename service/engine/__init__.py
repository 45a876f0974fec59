"""Pure rules engine for Double Solitaire and Solitaire Réfléchi: no I/O, no service code.

A first reading: ``new_game`` (game.py) deals a game of ``double.py`` or ``reflechi.py``;
both subclass ``Klondike``, whose shared rules are read in three layers, ``table.py``
(the cards), ``legal.py`` (what may be played) and ``klondike.py`` (play and undo).
Cards, actions, codes and modes are small value types in ``cards.py``, ``actions.py``,
``deal.py`` and ``mode.py``; a refusal names its rule from ``rules.py``.
"""

from .actions import (
    FOUNDATIONS,
    STOCK,
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
    parse_actions,
    parse_pile,
)
from .cards import Card, card_text, parse_card
from .deal import DEAL_COUNT, GameCode, GameKind, Scoring, secret_shuffled_deck, shuffled_deck
from .double import DoubleSolitaire
from .errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidCodeError,
    InvalidModeError,
    InvalidPositionError,
    SolitaireError,
)
from .game import GAME_CLASSES, deserialize, from_position, new_game, standing
from .klondike import Klondike
from .mode import Mode
from .outcome import Outcome
from .record import GameRecord
from .reflechi import SolitaireReflechi
from .scoring import VEGAS_START, Standing, format_score

__all__ = [
    "DEAL_COUNT",
    "FOUNDATIONS",
    "GAME_CLASSES",
    "STOCK",
    "VEGAS_START",
    "WASTE",
    "Action",
    "Card",
    "DoubleSolitaire",
    "Draw",
    "GameCode",
    "GameKind",
    "GameRecord",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidCodeError",
    "InvalidModeError",
    "InvalidPositionError",
    "Klondike",
    "Mode",
    "Move",
    "Outcome",
    "Pile",
    "PileKind",
    "Recycle",
    "Resign",
    "Scoring",
    "SolitaireError",
    "SolitaireReflechi",
    "Standing",
    "Tap",
    "Undo",
    "card_text",
    "column",
    "deserialize",
    "format_score",
    "foundation",
    "from_position",
    "new_game",
    "parse_action",
    "parse_actions",
    "parse_card",
    "parse_pile",
    "secret_shuffled_deck",
    "shuffled_deck",
    "standing",
]
