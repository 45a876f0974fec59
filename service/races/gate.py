"""What the games layer asks of races (``games.hooks.RaceHooks``): whether a race game
may be played now, what its accepted actions change in the race, and who may read it.

Built before the games layer, from the race documents alone (``RaceUpdates``), so that
``Games`` is handed it when it is made: nothing about a race game is decided without it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from .. import engine
from ..errors import ServiceError, from_store
from ..games.hooks import RaceRead
from ..protocol import ErrorCode
from ..store.race_document import RaceDocument
from .results import status
from .updates import RaceUpdates

# Races whose renewal this instance remembers: the oldest are forgotten beyond this many
# (and renewed again at their next action).
_RENEWALS_KEPT = 4096


class RaceGate:
    def __init__(
        self, updates: RaceUpdates, clock: Callable[[], int], ttl_seconds: int = 0
    ) -> None:
        self.updates = updates
        # Milliseconds of server time.
        self.clock = clock
        # A race played is renewed to this lifetime (0: races never expire) once a tenth
        # of it, a minute at most, has run down since it was written or this instance
        # last renewed it, as a game's keys are by its commits: the race document is not
        # saved as its games are played, and it must not expire under them.
        self.ttl_seconds = ttl_seconds
        self._renew_every_ms = min(60_000, ttl_seconds * 100)
        self._renewed: OrderedDict[str, int] = OrderedDict()

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
        await self._renew(doc, at)
        return read

    async def _renew(self, doc: RaceDocument, at: int) -> None:
        if self.ttl_seconds <= 0:
            return
        race_id = doc.race_id
        # Written with its full lifetime: a race younger than a renewal's period (an
        # arena heat, most quick pairings) need not be renewed by any instance yet.
        last = self._renewed.get(race_id, doc.created_at)
        if at - last < self._renew_every_ms:
            return
        await from_store(self.updates.store.renew_race(race_id), self.updates.refusal)
        self._renewed[race_id] = at
        self._renewed.move_to_end(race_id)
        if len(self._renewed) > _RENEWALS_KEPT:
            self._renewed.popitem(last=False)

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
                # Fail closed: a race whose document is gone (expired, or lost) keeps its
                # games as private as a running race's, code and record included.
                return "running"
            raise
        at = self.clock()
        if doc.finished_at is None and doc.ends_at is not None and at >= doc.ends_at:
            doc, _ = await self.updates.update(race_id, lambda d, _: d.finished_at is None)
        return status(doc, at)
