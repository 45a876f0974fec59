"""Cards as small integers, so that piles are plain lists and comparisons are cheap.

A card is ``suit * 13 + rank - 1``: suit 0..3 is spades, hearts, diamonds, clubs (the
foundation row order), rank 1..13 is Ace..King. Two-character text (``TH``, ``KS``) is the
only form that leaves the engine.
"""

from __future__ import annotations

from typing import TypeAlias

Card: TypeAlias = int

SUIT_CHARS = "SHDC"
RANK_CHARS = "A23456789TJQK"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
ACE = 1
KING = 13
DECK_SIZE = 52

# Lookup tables: the hot paths of the engine index these instead of dividing.
SUIT_OF: tuple[int, ...] = tuple(c // 13 for c in range(DECK_SIZE))
RANK_OF: tuple[int, ...] = tuple(c % 13 + 1 for c in range(DECK_SIZE))
IS_RED: tuple[bool, ...] = tuple(SUIT_OF[c] in (1, 2) for c in range(DECK_SIZE))
CARD_TEXT: tuple[str, ...] = tuple(
    RANK_CHARS[c % 13] + SUIT_CHARS[c // 13] for c in range(DECK_SIZE)
)
_CARD_BY_TEXT: dict[str, Card] = {text: card for card, text in enumerate(CARD_TEXT)}


def make_card(suit: int, rank: int) -> Card:
    if not (0 <= suit < 4 and ACE <= rank <= KING):
        raise ValueError(f"no card with suit {suit} and rank {rank}")
    return suit * 13 + rank - 1


def card_text(card: Card) -> str:
    return CARD_TEXT[card]


def parse_card(text: str) -> Card:
    """Parses ``TH``-style text (any letter case); ``10H`` is accepted for the ten."""
    key = text.strip().upper()
    if key.startswith("10"):
        key = "T" + key[2:]
    try:
        return _CARD_BY_TEXT[key]
    except KeyError:
        raise ValueError(f"not a card: {text!r}") from None


def parse_cards(text: str) -> list[Card]:
    """Parses concatenated two-character cards, e.g. ``KSQH`` -> [K of spades, Q of hearts]."""
    if len(text) % 2:
        raise ValueError(f"card list has an odd length: {text!r}")
    return [parse_card(text[i : i + 2]) for i in range(0, len(text), 2)]


def cards_text(cards: list[Card] | tuple[Card, ...]) -> str:
    return "".join([CARD_TEXT[c] for c in cards])


def fits_on(card: Card, target: Card) -> bool:
    """True when ``card`` may be built on ``target`` in a tableau column."""
    return RANK_OF[target] == RANK_OF[card] + 1 and IS_RED[target] != IS_RED[card]


# What each card accepts in a tableau column (DS-TAB-1, TF-TAB-1), and what an empty column
# accepts (DS-EMPTY-1, TF-EMPTY-1): the legal-move listing indexes these.
ACCEPTED_ON: tuple[tuple[Card, ...], ...] = tuple(
    tuple(card for card in range(DECK_SIZE) if fits_on(card, target)) for target in range(DECK_SIZE)
)
KINGS: tuple[Card, ...] = tuple(suit * 13 + KING - 1 for suit in range(4))
