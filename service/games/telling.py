"""Telling a game's race and its player's records of each committed action.

An action is committed whatever becomes of its caller (its WebSocket closing while the
race is being told): the race and the records must still hear of it, or a race misses a
player's win and a game's clock never starts. So the telling runs in a task of its own
that a cancelled caller leaves running; the live copy it reads is dropped from the
cache, so that no later action plays on it meanwhile, and the game's next action waits
for it (a while), so that the race and the records hear of the actions in their order.
"""

from __future__ import annotations

import asyncio
import functools

from ..support.tasks import cancel_and_wait
from .hooks import RaceRead
from .live import LiveGame, LiveGames
from .reads import GameReads, log

# How long an action waits for the telling of the game's earlier action: a telling waits
# only on the store, whose calls time out, but an action never waits on it for ever.
EARLIER_WAIT_SECONDS = 10.0


class Telling:
    def __init__(self, games: GameReads, live: LiveGames) -> None:
        self._games = games
        self._live = live
        # Per game, the telling of an action whose caller went away before it ended (a
        # dict rather than a method: every action of every game looks here).
        self.unfinished: dict[str, asyncio.Task[None]] = {}

    def wanted(self, live: LiveGame) -> bool:
        """Whether the action just committed has anything to tell (asked first, of race
        and player games: most actions of a player's game have not, and a task costs
        about 8 µs)."""
        if live.race_id:
            return True
        return bool(live.player_id) and live.game.over

    async def tell(self, game_id: str, live: LiveGame, gate_read: RaceRead | None) -> None:
        """Tells of the action just committed, to the end even if the caller is cancelled."""
        telling = asyncio.create_task(self._tell(game_id, live, gate_read))
        try:
            await asyncio.shield(telling)
        except asyncio.CancelledError:
            if not telling.done():
                self._live.drop(game_id)
                self.unfinished[game_id] = telling
                telling.add_done_callback(functools.partial(self._ended, game_id))
            raise

    async def _tell(self, game_id: str, live: LiveGame, gate_read: RaceRead | None) -> None:
        game = live.game
        races, players = self._games.races, self._games.players
        if live.race_id:
            await races.after_action(live.race_id, game_id, game, gate_read)
        if live.player_id and game.over:
            await players.game_over(game_id, live.player_id, live.challenge, game)

    def _ended(self, game_id: str, telling: asyncio.Task[None]) -> None:
        if self.unfinished.get(game_id) is telling:
            del self.unfinished[game_id]
        if not telling.cancelled() and telling.exception() is not None:
            # Nobody awaits it any more: the one place its failure can be told.
            log.warning("telling of game %s failed: %r", game_id, telling.exception())

    async def close(self, wait_seconds: float) -> None:
        """Lets the tellings whose callers went away end, or stops them after
        ``wait_seconds``."""
        unfinished = set(self.unfinished.values())
        if not unfinished:
            return
        _, late = await asyncio.wait(unfinished, timeout=wait_seconds)
        for telling in late:
            await cancel_and_wait(telling)
