"""The live copies of games: each a deserialized game at a known version, kept between
actions so that an action neither reads nor parses its game again."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from .. import engine


@dataclass(slots=True)
class LiveGame:
    """A deserialized game at a known version; valid until a commit says otherwise."""

    version: int
    game: engine.Klondike
    token_hash: str
    race_id: str = ""
    # The public view at ``version``, so an action computes only the view after it.
    view: dict[str, Any] | None = None
    player_id: str = ""
    challenge: str = ""
    created_ms: int = 0


class LiveGames:
    """The live copies of the games played last on this instance, at most ``size``."""

    __slots__ = ("_copies", "_size")

    def __init__(self, size: int = 10_000) -> None:
        self._copies: OrderedDict[str, LiveGame] = OrderedDict()
        self._size = size

    def get(self, game_id: str) -> LiveGame | None:
        return self._copies.get(game_id)

    def remember(self, game_id: str, live: LiveGame) -> None:
        self._copies[game_id] = live
        self._copies.move_to_end(game_id)
        while len(self._copies) > self._size:
            self._copies.popitem(last=False)

    def drop(self, game_id: str) -> None:
        """Forgets a copy that may hold an action the store does not have."""
        self._copies.pop(game_id, None)
