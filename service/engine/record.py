"""Game records: a code plus the actions played, replayable to every state."""

from __future__ import annotations

from dataclasses import dataclass, field

from .actions import Action, parse_actions
from .deal import GameCode
from .game import new_game
from .klondike import Klondike


@dataclass(slots=True)
class GameRecord:
    """``DS1-D1N-AAAAAAB d c3>f1 u ...``: the code, then one token per accepted action."""

    code: GameCode
    actions: list[Action] = field(default_factory=list)

    def __str__(self) -> str:
        return " ".join([str(self.code), *(str(a) for a in self.actions)])

    @classmethod
    def parse(cls, text: str) -> GameRecord:
        code, *rest = text.split(maxsplit=1)
        return cls(GameCode.parse(code), parse_actions(rest[0] if rest else ""))

    def replay(self) -> Klondike:
        """Plays every action from the deal; raises if any of them is refused."""
        game = new_game(self.code)
        for action in self.actions:
            game.play(action)
        return game
