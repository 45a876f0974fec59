"""Creating games: a new deal (random, secret, or a code's), a race's games, and the
answer that hands the player the game token and the moment the game's clock started."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .. import engine
from ..config import Settings
from ..errors import ServiceError, from_store
from ..protocol import ErrorCode
from ..store import Store, StoredGame, hash_token
from ..support.ids import new_id
from ..support.metrics import Metrics
from .hooks import PlayerHooks, RaceHooks
from .live import LiveGame, LiveGames
from .openings import Openings
from .reads import GameReads


def new_game_id() -> str:
    return new_id(16)


class GameCreation(GameReads):
    def __init__(
        self,
        store: Store,
        settings: Settings,
        *,
        races: RaceHooks,
        players: PlayerHooks,
        metrics: Metrics | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(
            store, settings, races=races, players=players, metrics=metrics, clock=clock
        )
        # The live copies of games kept between their actions on this instance.
        self._live = LiveGames()
        self.openings = Openings()

    async def create(
        self,
        game: str,
        draw: int,
        scoring: str,
        code_text: str | None,
        secret: bool = False,
        player_id: str = "",
    ) -> dict[str, Any]:
        """A new game: the deal of ``code_text``, or a random one (from a secret seed, whose
        code is withheld until the game is over, when ``secret``)."""
        try:
            if code_text is not None:
                code = engine.GameCode.parse(code_text)
            else:
                deal = engine.GameCode.random_secret if secret else engine.GameCode.random
                code = deal(engine.GameKind(game), draw, engine.Scoring(scoring))
        except engine.InvalidCodeError as exc:
            raise ServiceError(ErrorCode.BAD_CODE, 422, str(exc)) from exc
        return await self.create_from(code, hidden=secret, player_id=player_id)

    async def create_from(
        self,
        code: engine.GameCode,
        *,
        hidden: bool = False,
        player_id: str = "",
        challenge: str = "",
        game_id: str = "",
        token: str = "",
    ) -> dict[str, Any]:
        """A new game of ``code``; a ``hidden`` code is shown once the game is over.
        ``token``: the game token to hand out (a new random one if empty)."""
        state = engine.new_game(code)
        game_id = game_id or new_game_id()
        token = token or new_id(32)
        stored = StoredGame(
            game_id,
            0,
            state.serialize(),
            hash_token(token),
            str(code),
            player_id=player_id,
            challenge=challenge,
            hidden=hidden,
            created_ms=self.now_ms(),
        )
        await from_store(self.store.create(stored), self.store_refusal)
        live = LiveGame(
            0,
            state,
            stored.token_hash,
            player_id=player_id,
            challenge=challenge,
            created_ms=stored.created_ms,
        )
        self._live.remember(game_id, live)
        self.metrics.games_created.labels(code.game.value).inc()
        shown = None if hidden else str(code)
        return self.created_answer(game_id, token, shown, stored.created_ms, state.public_view())

    def created_answer(
        self, game_id: str, token: str, code: str | None, created_ms: int, state: dict[str, Any]
    ) -> dict[str, Any]:
        """The answer to a game's creation: the game's clock runs from ``created_ms``, the
        moment its cards are shown to the player."""
        return {
            "game_id": game_id,
            "player_token": token,
            "code": code,
            "version": 0,
            "state": state,
            "clock_started_at": created_ms,
            "server_time": self.now_ms(),
        }

    async def create_race_games(
        self,
        code: engine.GameCode,
        race_id: str,
        seats: list[tuple[str, str, str]],
        opening: str | None = None,
    ) -> None:
        """The games of a race's seats (game id, token hash, player id), all on one deal:
        dealt once (or ahead: ``opening``, the position ``code`` deals) and written as one
        text."""
        state = opening or engine.new_game(code).serialize()
        created = self.now_ms()
        for game_id, token_hash, player_id in seats:
            stored = StoredGame(
                game_id,
                0,
                state,
                token_hash,
                str(code),
                race_id=race_id,
                player_id=player_id,
                created_ms=created,
            )
            await from_store(self.store.create(stored), self.store_refusal)
        self.metrics.games_created.labels(code.game.value).inc(len(seats))
