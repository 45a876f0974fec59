"""Hints and "was it winnable?": what the solver tells a player about their game.

A hint is worked out from the public view only (the solver's ``hint`` never sees a hidden
card) and from what the earlier public views of the game's line showed (``line_of``), so
that hints followed alone end in ``no_useful_move`` instead of going round for ever. It is
counted in the game, and refused where play is ranked (races and ranked daily attempts).
The analysis of a game waits until the game is over and public, since its winning line
shows every hidden card.

Both cost solver time, so both count against quotas in the store, per client address and
per player (the game's player for a hint, the player token sent for an analysis), before
any of it is spent. A request refused after taking its place (``busy``, or a hint not
allowed) gives the place back.
"""

from __future__ import annotations

import contextlib
from typing import Any, Protocol

from . import engine
from .analysis import Analysis
from .errors import ServiceError, from_store
from .games import Games
from .guards.quotas import Quotas, cost_quotas
from .protocol import ErrorCode, action_object
from .store import StoredGame


class PlayerTokens(Protocol):
    """Who holds a player token (the players' domain, which comes above this one)."""

    async def player_id_of(self, token: str | None) -> str: ...


def hints_not_allowed(where: str) -> ServiceError:
    return ServiceError(ErrorCode.HINTS_NOT_ALLOWED, 403, f"no hints {where}")


class Hints:
    def __init__(self, games: Games, analysis: Analysis, players: PlayerTokens) -> None:
        self.games = games
        self.analysis = analysis
        self.players = players

    def _quotas(self, what: str, address: str, player_id: str) -> Quotas:
        settings = self.games.settings
        if what == "hints":
            limits = settings.hints_per_address_per_minute, settings.hints_per_player_per_minute
        else:
            limits = (
                settings.analyses_per_address_per_minute,
                settings.analyses_per_player_per_minute,
            )
        return cost_quotas(
            self.games.store, what, address, player_id, limits, now=self.games.clock()
        )

    async def used(self, game_id: str) -> int:
        tally = self.games.store.tally(f"hints:{game_id}", 1, add=0)
        return await from_store(tally, self.games.store_refusal)

    async def hint(self, game_id: str, token: str | None, address: str) -> dict[str, Any]:
        stored = await self.games.load_for_player(game_id, token)
        if stored.race_id:
            raise hints_not_allowed("during a race")
        if stored.challenge:
            # Every game of a challenge is a ranked attempt (fail closed: whatever its
            # records say), and none is played once its day is over.
            raise hints_not_allowed("in a ranked daily attempt")
        quotas = self._quotas("hints", address, stored.player_id)
        await quotas.take()
        try:
            self.analysis.enter_hint()
        except ServiceError:
            await quotas.give_back()  # busy: nothing was done, nothing counts
            raise
        try:
            return await self._hint(game_id, stored)
        finally:
            self.analysis.leave_hint()

    async def _hint(self, game_id: str, stored: StoredGame) -> dict[str, Any]:
        if stored.over:
            used = await self.used(game_id)  # answered game_over, not counted
        else:
            ttl = self.games.settings.game_ttl_seconds
            tally = self.games.store.tally(f"hints:{game_id}", ttl, add=1)
            used = await from_store(tally, self.games.store_refusal)
        found = await self.analysis.hint(stored.state)
        answer: dict[str, Any] = {"game_id": game_id, "version": stored.version}
        if found["action"] is None:
            del found["action"]  # nothing to play: the answer says why, in ``no_hint``
            return {**answer, "hint": None, "hints_used": used, "no_hint": found}
        found["action_object"] = action_object(engine.parse_action(found["action"]))
        return {**answer, "hint": found, "hints_used": used, "no_hint": None}

    async def analysis_of(self, game_id: str, token: str | None, address: str) -> dict[str, Any]:
        """``token``, when sent, is a player token: its player's quota counts too. A token
        that names no player is the same as none (the address's quota counts)."""
        replay = await self.games.replay(game_id)  # the same rules: ended and public
        record = " ".join([replay["code"], *(a["notation"] for a in replay["actions"])])
        player_id = ""
        if token:
            with contextlib.suppress(ServiceError):
                player_id = await self.players.player_id_of(token)
        quotas = self._quotas("analyses", address, player_id)
        await quotas.take()
        try:
            verdicts = await self.analysis.analysis(game_id, record, address)
        except ServiceError as exc:
            if exc.code is ErrorCode.BUSY:
                await quotas.give_back()
            raise
        return {"game_id": game_id, **verdicts}
