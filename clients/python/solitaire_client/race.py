"""``RaceSession``: follow a race over WebSocket, and send race commands as a player."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Literal

from service.protocol.races import RaceView, You
from service.protocol.ws import (
    ErrorMessage,
    RaceCommandMessage,
    RaceMessage,
    RaceProgressMessage,
    ResultMessage,
    UnwatchRaceMessage,
    WatchRaceMessage,
)

from .connection import AnyServerMessage, Connection, Send
from .errors import ProtocolError, error_from_message
from .following import Following
from .rest import new_request_id

log = logging.getLogger("solitaire_client")

RaceUpdate = RaceMessage | RaceProgressMessage
RaceCommand = Literal["ready", "unready", "start", "resign", "rematch"]


class RaceSession(Following):
    """Watches a race (as a player with ``token``, or as a spectator without one).

    ``race`` is the latest race view, ``you`` the player's own ids (with a token) and
    ``progress`` the latest progress of each player id during the race.
    """

    first_view = "the race"

    def __init__(
        self,
        url: str | None = None,
        race_id: str = "",
        *,
        token: str | None = None,
        connection: Connection | None = None,
    ) -> None:
        super().__init__(url, connection)
        if not race_id:
            raise ValueError("race_id is required")
        self.race_id = race_id
        self.token = token
        self.race: RaceView | None = None
        self.you: You | None = None
        self.version = -1
        self.progress: dict[str, RaceProgressMessage] = {}
        self._watch_ids: set[str] = set()
        self._listeners: list[Callable[[RaceUpdate], None]] = []

    def _unfollow_message(self) -> dict[str, Any]:
        return UnwatchRaceMessage(
            type="unwatch_race", id=new_request_id(), race_id=self.race_id
        ).model_dump()

    def add_listener(self, listener: Callable[[RaceUpdate], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    async def wait_for(
        self, predicate: Callable[[RaceView], bool], timeout: float | None = 30.0
    ) -> RaceView:
        """Waits until the race view satisfies ``predicate``; returns that view."""
        async with asyncio.timeout(timeout):
            while self.race is None or not predicate(self.race):
                self._check_usable()
                event = self._changed
                await event.wait()
        return self.race

    # ------------------------------------------------------------------ commands

    async def command(self, command: RaceCommand) -> ResultMessage:
        """Sends a race command (the race token is needed) and returns the result."""
        message = RaceCommandMessage(
            type="race_command", id=new_request_id(), race_id=self.race_id, command=command
        )
        answer = await self.connection.request(message.model_dump())
        if not isinstance(answer, ResultMessage):
            raise ProtocolError("bad_answer", f"expected a result, got {answer.type}")
        return answer

    async def ready(self, ready: bool = True) -> ResultMessage:
        return await self.command("ready" if ready else "unready")

    async def start_race(self) -> ResultMessage:
        return await self.command("start")

    async def resign(self) -> ResultMessage:
        return await self.command("resign")

    async def rematch(self) -> ResultMessage:
        return await self.command("rematch")

    # ------------------------------------------------------------------ subscription

    async def on_connected(self, send: Send) -> None:
        self._watch_ids.clear()
        await self._watch(send)

    async def _watch(self, send: Send) -> None:
        message = WatchRaceMessage(
            type="watch_race", id=new_request_id(), race_id=self.race_id, token=self.token
        )
        self._watch_ids.add(message.id)
        await send(message.model_dump(exclude_none=True))

    async def on_rate_limited(self, send: Send) -> None:
        if self._watch_ids:
            await self._watch(send)

    def on_fatal(self, error: ProtocolError) -> None:
        self._failure = self._failure or error
        self._ready.set()
        self._changed.set()

    async def on_message(self, message: AnyServerMessage) -> None:
        if isinstance(message, RaceMessage) and message.race_id == self.race_id:
            if message.id is not None:
                self._watch_ids.discard(message.id)
            # A countdown's end is announced again under the same version.
            if message.version < self.version:
                return
            self.version = message.version
            self.race = message.race
            if message.you is not None:
                self.you = message.you
            self._notify(message)
            self._ready.set()
        elif isinstance(message, RaceProgressMessage) and message.race_id == self.race_id:
            self.progress[message.player_id] = message
            if self.race is not None:
                self.race = _with_progress(self.race, message)
            self._notify(message)
        elif (
            isinstance(message, ErrorMessage)
            and message.id is not None
            and message.id in self._watch_ids
        ):
            self._watch_ids.discard(message.id)
            self._failure = error_from_message(message)
            self._ready.set()
            self._changed.set()

    def _notify(self, update: RaceUpdate) -> None:
        event, self._changed = self._changed, asyncio.Event()
        event.set()
        for listener in list(self._listeners):
            try:
                listener(update)
            except Exception:
                log.exception("race listener failed")


def _with_progress(race: RaceView, progress: RaceProgressMessage) -> RaceView:
    """The race view with one player's latest progress figures folded in."""
    players = [
        player.model_copy(
            update={
                "foundations": progress.foundations,
                "score": progress.score,
                "score_display": progress.score_display,
                "moves": progress.moves,
                **({"state": "won"} if progress.state == "won" else {}),
            }
        )
        if player.player_id == progress.player_id
        else player
        for player in race.players
    ]
    return race.model_copy(update={"players": players})
