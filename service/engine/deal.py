"""Game codes (CODE-1) and the portable deal: deal number -> card order.

The shuffle is specified step by step in ``docs/deal.md`` so that any front end can
reproduce a deal from its code: SplitMix64 seeded with the deal number drives a
Fisher-Yates shuffle of the unshuffled deck. Nothing here depends on Python's ``random``.

A seven-letter deal number is small enough to search: whoever sees the opening cards can
find the number, and with it every hidden card. Ranked play therefore deals from a secret
seed of 128 bits (a code with a 28-letter last field), shuffled with SHA-256 in counter
mode, and the service reveals that code only once play is over.
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
from dataclasses import dataclass
from enum import Enum

from .cards import DECK_SIZE, Card
from .errors import InvalidCodeError

DEAL_LETTERS = 7
DEAL_COUNT = 26**DEAL_LETTERS
SECRET_SEED_BITS = 128
SECRET_SEED_COUNT = 1 << SECRET_SEED_BITS
# The fewest letters that write every 128-bit seed in base 26.
SECRET_LETTERS = 28
_MASK64 = (1 << 64) - 1


class Scoring(Enum):
    NORMAL = "normal"
    VEGAS = "vegas"

    @property
    def letter(self) -> str:
        return "N" if self is Scoring.NORMAL else "V"


class GameKind(Enum):
    DOUBLE = "DS"
    REFLECHI = "TF"

    @property
    def deck_copies(self) -> int:
        return 2 if self is GameKind.DOUBLE else 1

    # What each game offers, said once here: the game classes, the codes and the modes
    # all read it (the classes are built on this module, so it cannot read them).

    @property
    def title(self) -> str:
        return "Double Solitaire" if self is GameKind.DOUBLE else "Solitaire Réfléchi"

    @property
    def draws(self) -> tuple[int, ...]:
        return (1, 3)

    @property
    def scorings(self) -> tuple[Scoring, ...]:
        if self is GameKind.DOUBLE:
            return (Scoring.NORMAL, Scoring.VEGAS)
        return (Scoring.NORMAL,)  # TF-SCORE-2

    def settings_refusal(self, draw: int, scoring: Scoring) -> str | None:
        """Why the game does not offer this draw mode and scoring (the draw named first),
        or None when it does."""
        if draw not in self.draws:
            return f"draw must be {' or '.join(map(str, self.draws))}, not {draw}"
        if scoring not in self.scorings:
            offered = " and ".join(s.value.title() for s in self.scorings)
            return f"{self.title} has {offered} scoring only"
        return None


# ASCII only: upper-casing first would turn "ß" into "SS" and let it through.
_CODE_RE = re.compile(r"^(DS|TF)1-D([13])([NV])-([A-Z]{7}|[A-Z]{28})$", re.IGNORECASE | re.ASCII)


@dataclass(frozen=True, slots=True)
class GameCode:
    """A deal with its draw mode and scoring, e.g. ``DS1-D1N-AAAAAAB``.

    ``secret`` codes carry a 128-bit seed instead of a deal number (28 letters instead of
    seven) and are shuffled by ``secret_shuffled_deck``.
    """

    game: GameKind
    draw: int
    scoring: Scoring
    deal: int
    secret: bool = False

    def __post_init__(self) -> None:
        refusal = self.game.settings_refusal(self.draw, self.scoring)
        if refusal is not None:
            raise InvalidCodeError(refusal)
        limit = SECRET_SEED_COUNT if self.secret else DEAL_COUNT
        if not 0 <= self.deal < limit:
            what = "a secret seed" if self.secret else "deal number"
            raise InvalidCodeError(f"{what} must be in 0..{limit - 1}")

    def __str__(self) -> str:
        return _code_text(self.game, self.draw, self.scoring, self.deal, self.secret)

    def shuffled_deck(self) -> list[Card]:
        if self.secret:
            return secret_shuffled_deck(self.game, self.deal)
        return shuffled_deck(self.game, self.deal)

    @classmethod
    def parse(cls, text: str) -> GameCode:
        match = _CODE_RE.match(text.strip())
        if match is None:
            raise InvalidCodeError(
                f"not a game code: {text!r} (expected e.g. DS1-D1N-AAAAAAB or TF1-D3N-QWERTYU)"
            )
        game, draw, scoring, letters = (group.upper() for group in match.groups())
        return cls(
            GameKind(game),
            int(draw),
            Scoring.NORMAL if scoring == "N" else Scoring.VEGAS,
            deal_number(letters),
            secret=len(letters) == SECRET_LETTERS,
        )

    @classmethod
    def random(cls, game: GameKind, draw: int = 1, scoring: Scoring = Scoring.NORMAL) -> GameCode:
        return cls(game, draw, scoring, secrets.randbelow(DEAL_COUNT))

    @classmethod
    def random_secret(
        cls, game: GameKind, draw: int = 1, scoring: Scoring = Scoring.NORMAL
    ) -> GameCode:
        return cls(game, draw, scoring, secrets.randbits(SECRET_SEED_BITS), secret=True)


@functools.lru_cache(maxsize=1024)
def _code_text(game: GameKind, draw: int, scoring: Scoring, deal: int, secret: bool) -> str:
    # Cached: a new race's code is written out several times (its document, each game).
    letters = deal_letters(deal, SECRET_LETTERS if secret else DEAL_LETTERS)
    return f"{game.value}1-D{draw}{scoring.letter}-{letters}"


def deal_letters(number: int, count: int = DEAL_LETTERS) -> str:
    """Base 26, ``A`` = 0, most significant letter first, always ``count`` letters."""
    letters = []
    for _ in range(count):
        number, digit = divmod(number, 26)
        letters.append(chr(ord("A") + digit))
    return "".join(reversed(letters))


def deal_number(letters: str) -> int:
    number = 0
    for letter in letters.upper():
        number = number * 26 + ord(letter) - ord("A")
    return number


def splitmix64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: returns (new state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def shuffled_deck(game: GameKind, deal: int) -> list[Card]:
    """The deck of ``game`` after the shuffle of deal number ``deal``.

    The unshuffled deck is cards 0..51 (spades A..K, hearts, diamonds, clubs), twice over
    for Double Solitaire. Fisher-Yates from the last position down: position ``i`` swaps
    with ``next() mod (i + 1)``.
    """
    deck = list(range(DECK_SIZE)) * game.deck_copies
    state = deal
    for i in range(len(deck) - 1, 0, -1):
        state, value = splitmix64(state)
        j = value % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# ``k`` as 4 bytes big-endian for every number a shuffle takes (a double deck takes 103).
_STREAM_INDEXES = tuple(k.to_bytes(4, "big") for k in range(2 * DECK_SIZE))


def secret_stream(seed: int, count: int) -> list[int]:
    """The first ``count`` 64-bit numbers that shuffle a secret deal, in the order the
    shuffle takes them (at most the 104 a double deck could take).

    Output ``k`` (from 0) is the first 8 bytes, big-endian, of SHA-256 over the seed as
    16 bytes big-endian followed by ``k`` as 4 bytes big-endian. A list, not a generator:
    every paired race and arena heat deals one, and a generator's calls were a third of
    the deal's time.
    """
    prefix = seed.to_bytes(16, "big")
    sha256, from_bytes = hashlib.sha256, int.from_bytes
    return [from_bytes(sha256(prefix + k).digest()[:8], "big") for k in _STREAM_INDEXES[:count]]


def secret_shuffled_deck(game: GameKind, seed: int) -> list[Card]:
    """The deck of ``game`` shuffled by a 128-bit secret seed (docs/deal.md, section 9).

    The same Fisher-Yates as ``shuffled_deck``, with ``secret_stream`` instead of
    SplitMix64: a seed this large cannot be found from the cards it deals.
    """
    deck = list(range(DECK_SIZE)) * game.deck_copies
    numbers = secret_stream(seed, len(deck) - 1)
    for value, i in zip(numbers, range(len(deck) - 1, 0, -1), strict=True):
        j = value % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck
