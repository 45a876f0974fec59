"""Head-to-head races: every player gets a game of the same deal, started together.

``Races`` is what the routes, the WebSocket and ``Games`` use; its ``lobby`` (creating,
joining, getting ready, the start, the rematch) is in ``lobby.py``; reading and changing
the race document in the store, the messages its changes push and the timers in
``updates.py``; the status, the public view and the ranking, computed without I/O, in
``results.py``. The document's fields are ``RaceDocument`` (``store/race_document.py``).
"""

from __future__ import annotations

import time
from typing import Any

from .. import engine
from ..analysis import Analysis
from ..config import Settings
from ..errors import ServiceError
from ..games import Games
from ..games.hooks import RaceRead
from ..protocol import ErrorCode
from ..store.race_document import RaceDocument
from .lobby import RaceLobby, find_player, you
from .results import status
from .updates import RaceUpdates


def now_ms() -> int:
    return int(time.time() * 1000)


def _clock() -> int:
    # Looked up by name at every call: replacing ``now_ms`` moves the time of every part
    # of the races at once.
    return now_ms()


class Races:
    """Race logic; also the ``RaceHooks`` through which ``Games`` asks about race games."""

    def __init__(self, games: Games, settings: Settings, analysis: Analysis) -> None:
        self.games = games
        self.updates = RaceUpdates(games, _clock)
        self.lobby = RaceLobby(self.updates, games, settings, analysis)

    async def close(self) -> None:
        await self.updates.close()

    # ------------------------------------------------------------------ players

    async def state(self, race_id: str, token: str | None = None) -> dict[str, Any]:
        updates = self.updates
        (_, doc), progress = await updates.load_settled(race_id)
        if status(doc, now_ms()) == "running" and doc.ends_at and now_ms() >= doc.ends_at:
            doc, _ = await updates.update(race_id, lambda d, at: True)
            view = await updates.view(doc)
        else:
            view = await updates.view(doc, progress=progress)
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
        race_status = status(doc, now_ms())
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

    # ------------------------------------------------------------------ hooks for Games

    async def gate(self, race_id: str, game_id: str, earlier: RaceRead | None = None) -> RaceRead:
        read = earlier if earlier is not None else await self.updates.load(race_id)
        doc = read[1]
        at = now_ms()
        race_status = status(doc, at)
        if race_status in ("lobby", "countdown"):
            raise ServiceError(ErrorCode.RACE_NOT_STARTED, 409, "the race has not started yet")
        player = doc.player_of_game(game_id)
        if race_status == "finished" or player.state == "resigned":
            raise ServiceError(ErrorCode.RACE_OVER, 409, "the race is over for this game")
        if doc.ends_at is not None and at >= doc.ends_at:
            await self.updates.expire(race_id)
            raise ServiceError(ErrorCode.RACE_OVER, 409, "the race's time is up")
        return read

    async def after_action(
        self, race_id: str, game_id: str, game: engine.Klondike, gate_read: RaceRead | None
    ) -> None:
        player_id = self.updates.player_of_game.get(game_id, (race_id, ""))[1]
        ending = "won" if game.won else "resigned" if game.resigned else None

        def settle(doc: RaceDocument, at: int) -> bool:
            changed = False
            if doc.finished_at is not None and doc.result is not None:
                # An action that passed the gate just before the end was committed after
                # the result was computed: publish the result again so record and figures
                # agree.
                doc.result = None
                changed = True
            if ending is not None and doc.player_of_game(game_id).end(ending, at):
                changed = True
            return changed

        # One update for both: the result of a race this action ends is computed once.
        await self.updates.update(race_id, settle, {game_id: game}, gate_read)
        await self.updates.publish_progress(race_id, player_id, ending, game)

    async def stage(self, race_id: str) -> str:
        try:
            _, doc = await self.updates.load(race_id)
        except ServiceError as exc:
            if exc.code is ErrorCode.NOT_FOUND:
                return "finished"  # a race that expired leaves its games public
            raise
        at = now_ms()
        if doc.finished_at is None and doc.ends_at is not None and at >= doc.ends_at:
            doc, _ = await self.updates.update(race_id, lambda d, _: d.finished_at is None)
        return status(doc, at)
