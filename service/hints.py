"""Hints and "was it winnable?": what the solver tells a player about their game.

A hint is worked out from the public view only (the solver's ``hint`` never sees a hidden
card) and from what the earlier public views of the game's line showed (``line_of``), so
that hints followed alone end in ``no_useful_move`` instead of going round for ever. It is
counted in the game, and refused where play is ranked (races and ranked daily attempts).
The analysis of a game waits until the game is over and public, since its winning line
shows every hidden card.
"""

from __future__ import annotations

from typing import Any

from . import engine
from .analysis import Analysis
from .errors import ServiceError, from_store
from .games import Games
from .protocol import ErrorCode, action_object


def hints_not_allowed(where: str) -> ServiceError:
    return ServiceError(ErrorCode.HINTS_NOT_ALLOWED, 403, f"no hints {where}")


class Hints:
    def __init__(self, games: Games, analysis: Analysis) -> None:
        self.games = games
        self.analysis = analysis

    async def used(self, game_id: str) -> int:
        tally = self.games.store.tally(f"hints:{game_id}", 1, add=0)
        return await from_store(tally, self.games.store_refusal)

    async def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        stored = await self.games.load_for_player(game_id, token)
        if stored.race_id:
            raise hints_not_allowed("during a race")
        if stored.challenge:
            # Every game of a challenge is a ranked attempt (fail closed: whatever its
            # records say), and none is played once its day is over.
            raise hints_not_allowed("in a ranked daily attempt")
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

    async def analysis_of(self, game_id: str) -> dict[str, Any]:
        replay = await self.games.replay(game_id)  # the same rules: ended and public
        record = " ".join([replay["code"], *(a["notation"] for a in replay["actions"])])
        verdicts = await self.analysis.analysis(game_id, record)
        return {"game_id": game_id, **verdicts}
