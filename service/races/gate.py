"""What the games layer asks of races (``games.hooks.RaceHooks``): whether a race game
may be played now, what its accepted actions change in the race, and who may read it.

Built before the games layer, from the race documents alone (``RaceUpdates``), so that
``Games`` is handed it when it is made: nothing about a race game is decided without it.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import engine
from ..errors import ServiceError
from ..games.hooks import RaceRead
from ..protocol import ErrorCode
from ..store.race_document import RaceDocument
from .results import status
from .updates import RaceUpdates


class RaceGate:
    def __init__(self, updates: RaceUpdates, clock: Callable[[], int]) -> None:
        self.updates = updates
        # Milliseconds of server time.
        self.clock = clock

    async def gate(self, race_id: str, game_id: str, earlier: RaceRead | None = None) -> RaceRead:
        read = earlier if earlier is not None else await self.updates.load(race_id)
        doc = read[1]
        at = self.clock()
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
        updates = self.updates
        player_id = updates.player_of_game.get(game_id, (race_id, ""))[1]
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
        await updates.update(race_id, settle, {game_id: game}, gate_read)
        await updates.publish_progress(race_id, player_id, ending, game)

    async def stage(self, race_id: str) -> str:
        try:
            _, doc = await self.updates.load(race_id)
        except ServiceError as exc:
            if exc.code is ErrorCode.NOT_FOUND:
                return "finished"  # a race that expired leaves its games public
            raise
        at = self.clock()
        if doc.finished_at is None and doc.ends_at is not None and at >= doc.ends_at:
            doc, _ = await self.updates.update(race_id, lambda d, _: d.finished_at is None)
        return status(doc, at)
