"""Modes: a game, its draw and its scoring, written ``DS.D1N``, ``DS.D3V``, ``TF.D1N``...

A mode names what statistics, leaderboards, daily challenges and pools of winnable deals
are kept per: the text is part of store keys, URLs and JSON, and never changes. Which
modes exist follows from what each game offers (``GameKind``).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from .deal import GameCode, GameKind, Scoring
from .errors import InvalidModeError
from .klondike import Klondike

_SCORING_OF_LETTER = {scoring.letter: scoring for scoring in Scoring}
_KINDS = "|".join(re.escape(kind.value) for kind in GameKind)
_DRAWS = "".join(sorted({str(draw) for kind in GameKind for draw in kind.draws}))
# Case and spacing as written: a mode is a key, not input to be forgiving about.
_MODE_RE = re.compile(rf"({_KINDS})\.D([{_DRAWS}])([{''.join(_SCORING_OF_LETTER)}])", re.ASCII)


@dataclass(frozen=True, slots=True)
class Mode:
    """A game kind with a draw and a scoring, which the game need not offer (``all``
    lists those it does); ``str`` gives its text."""

    game: GameKind
    draw: int
    scoring: Scoring

    def __str__(self) -> str:
        return f"{self.game.value}.D{self.draw}{self.scoring.letter}"

    @classmethod
    def parse(cls, text: str) -> Mode:
        """The mode ``text`` writes, exactly (``ds.d1n`` is not one)."""
        match = _MODE_RE.fullmatch(text)
        if match is None:
            raise InvalidModeError(f"not a mode: {text!r} (expected e.g. DS.D1N or TF.D3N)")
        game, draw, scoring = match.groups()
        return cls(GameKind(game), int(draw), _SCORING_OF_LETTER[scoring])

    @classmethod
    def find(cls, text: str, among: Collection[Mode]) -> Mode | None:
        """The mode ``text`` writes if it is one of ``among``, else None."""
        try:
            mode = cls.parse(text)
        except InvalidModeError:
            return None
        return mode if mode in among else None

    @classmethod
    def named(cls, game: str, draw: int, scoring: str) -> Mode:
        """The mode of a request's fields: ``DS``, 1, ``vegas``."""
        return cls(GameKind(game), draw, Scoring(scoring))

    @classmethod
    def of(cls, game: Klondike) -> Mode:
        return cls(game.kind, game.draw, game.scoring)

    @staticmethod
    def all() -> tuple[Mode, ...]:
        """Every mode some game offers: by game, then scoring, then draw."""
        return tuple(
            Mode(kind, draw, scoring)
            for kind in GameKind
            for scoring in kind.scorings
            for draw in kind.draws
        )

    def code(self, deal: int) -> GameCode:
        """The code of deal number ``deal`` in this mode."""
        return GameCode(self.game, self.draw, self.scoring, deal)

    def random_secret(self) -> GameCode:
        """A deal of this mode from a secret seed (see ``GameCode.random_secret``)."""
        return GameCode.random_secret(self.game, self.draw, self.scoring)
