"""What the games layer asks of the layers above it: races and players.

``Games`` is handed one of each when it is made (they are built first, from the store
and the records alone) and calls them at the points of a game's life that they care
about; the Protocols keep ``games`` from importing the layers that import it.
"""

from __future__ import annotations

from typing import Protocol

from .. import engine
from ..store import StoredRace
from ..store.race_document import RaceDocument

# A race document as read from the store, with its parsed JSON.
RaceRead = tuple[StoredRace, RaceDocument]


class RaceHooks(Protocol):
    """What the race layer needs to know about, and allow in, a race's games."""

    async def gate(self, race_id: str, game_id: str, earlier: RaceRead | None = None) -> RaceRead:
        """Raises ``ServiceError`` when the race does not allow play now; returns the race
        as it judged it (``earlier``, a read the caller just made, or a new one), for
        ``after_action`` of the same action."""

    async def after_action(
        self, race_id: str, game_id: str, game: engine.Klondike, gate_read: RaceRead | None
    ) -> None:
        """Called after each accepted action of a race game."""

    async def stage(self, race_id: str) -> str:
        """``lobby``, ``countdown``, ``running`` or ``finished``: before the start nobody
        sees a race game, while it runs only its player, and once it is over anyone, code
        and record included. A race that cannot be found is ``running`` (fail closed)."""


class PlayerHooks(Protocol):
    """What the players' layer counts: the end of a game that belongs to a player (its
    clock ran from its creation, which the game's log times every action from)."""

    async def check_open(self, game_id: str, player_id: str, challenge: str) -> None:
        """Refuses an action on a ranked daily attempt whose day is over."""

    def challenge_public(self, challenge: str) -> bool:
        """A daily challenge's games are private to their players until its day is over:
        another attempt's later cards would tell a rival the stock."""

    async def game_over(
        self, game_id: str, player_id: str, challenge: str, game: engine.Klondike
    ) -> None: ...
