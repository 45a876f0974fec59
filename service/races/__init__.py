"""Head-to-head races: every player gets a game of the same deal, started together.

``Races`` is what the routes and the WebSocket use; its ``lobby`` (creating, joining,
getting ready, the start, the rematch) is in ``lobby.py``; what ``Games`` asks of a race
game (may it be played now, what its actions change, who may read it) in ``gate.py``;
reading and changing the race document in the store, the messages its changes push and
the timers in ``updates.py``; the status, the public view and the ranking, computed without I/O, in
``results.py``. The document's fields are ``RaceDocument`` (``store/race_document.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import engine
from ..analysis import Analysis
from ..config import Settings
from ..errors import ServiceError
from ..games import Games
from ..protocol import ErrorCode
from ..store.race_document import RaceDocument
from .lobby import RaceLobby
from .results import status
from .seats import find_player, you
from .updates import RaceUpdates


class Races:
    """Race logic for the routes and the WebSocket; what ``Games`` asks of a race game is
    the ``RaceGate`` it was handed, which shares these race documents (``updates``)."""

    def __init__(
        self,
        games: Games,
        updates: RaceUpdates,
        settings: Settings,
        analysis: Analysis,
        clock: Callable[[], int],
    ) -> None:
        self.games = games
        self.updates = updates
        # Milliseconds of server time.
        self.clock = clock
        self.lobby = RaceLobby(updates, games, settings, analysis)

    async def close(self) -> None:
        await self.updates.close()

    # ------------------------------------------------------------------ players

    async def state(self, race_id: str, token: str | None = None) -> dict[str, Any]:
        updates = self.updates
        (_, doc), progress = await updates.load_settled(race_id)
        if status(doc, self.clock()) == "running" and doc.ends_at and self.clock() >= doc.ends_at:
            doc, _ = await updates.update(race_id, lambda d, at: True)
            view = await updates.view(doc)
        else:
            view = await updates.view(doc, progress=progress)
            # What an instance that stopped after saving the result left undone.
            await updates.apply_ratings(doc)
        response: dict[str, Any] = {"race": view}
        if token is not None:
            response["you"] = you(find_player(doc, token))
        return response

    async def resign(self, race_id: str, token: str | None) -> dict[str, Any]:
        """Resigns (see ``resign_game``) and answers with the race as it is now."""
        await self.resign_game(race_id, token)
        _, doc = await self.updates.load(race_id)
        return await self.lobby.answer(doc, None, token)

    async def resign_game(self, race_id: str, token: str | None) -> None:
        """Resigning from a race is resigning one's game: the game ends, final, and
        ``after_action`` marks the player resigned (one meaning for both)."""
        read = await self.updates.load(race_id)
        doc = read[1]
        player = find_player(doc, token)
        race_status = status(doc, self.clock())
        if race_status == "finished":
            raise ServiceError(ErrorCode.RACE_OVER, 409, "the race is over")
        if race_status != "running":
            raise ServiceError(ErrorCode.RACE_NOT_STARTED, 409, "the race is not running")
        if player.state != "playing":
            raise ServiceError(ErrorCode.RACE_OVER, 409, "you have already finished this race")
        # The gate of the resignation judges the race as just read: read once, not twice.
        await self.games.act(player.game_id, token, engine.Resign(), race_read=read)

    async def set_connected(self, race_id: str, token: str | None, connected: bool) -> None:
        """Counts the player's race subscriptions: connected while at least one is open."""

        def mark(doc: RaceDocument, at: int) -> bool:
            player = find_player(doc, token)
            watches = max(0, (player.watches or 0) + (1 if connected else -1))
            player.watches = watches
            player.connected = watches > 0
            return True

        await self.updates.update(race_id, mark)

    async def watch(self, race_id: str, token: str | None) -> tuple[dict[str, Any], int]:
        """The race message for a new subscriber (with ``you`` for a player)."""
        (stored, doc), progress = await self.updates.load_settled(race_id)
        message: dict[str, Any] = {
            "type": "race",
            "race_id": race_id,
            "version": stored.version,
            "race": await self.updates.view(doc, progress=progress),
        }
        if token is not None:
            message["you"] = you(find_player(doc, token))
        return message, stored.version
