"""Reading games from the store: snapshots, legal actions, records, replays, changes.

Every read goes through the privacy of races and daily challenges: before a race starts
nobody sees its games, while it runs only their players do, and a daily challenge's
games stay with their players until the day is over. ``Games`` builds on this with the
creation of games and the action path.
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from .. import engine
from ..config import Settings
from ..errors import (
    ServiceError,
    StoreRefusal,
    daily_running,
    from_store,
    game_not_over,
    not_found,
    race_not_started,
    race_running,
)
from ..protocol import ErrorCode, action_object
from ..store import Store, StoredGame, hash_token
from ..support.metrics import Metrics
from .changes import build_change
from .hooks import PlayerHooks, RaceHooks

# Operators follow store outages under the games layer's name, whichever read met them.
log = logging.getLogger("service.games")
T = TypeVar("T")  # what a store read returns


def game_store_refusal(metrics: Metrics) -> StoreRefusal:
    """What every store call about games (and their races) answers when the store cannot
    be reached: logged and counted, as most outages are met here."""
    return StoreRefusal("the game store is unavailable; retry", log, metrics)


class GameReads:
    """The games of the store as their readers may see them."""

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
        self.store = store
        self.clock = clock
        self.settings = settings
        self.metrics = metrics or Metrics()
        # Handed over when the games are made, never set later: a game of a race or a
        # daily challenge is never judged or shown without the layer that owns it.
        self.races = races
        self.players = players
        self.store_refusal = game_store_refusal(self.metrics)

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # ------------------------------------------------------------------ reads

    async def _load(self, game_id: str) -> StoredGame:
        return await self._read(self.store.load, game_id)

    async def _actions(self, game_id: str) -> list[str]:
        return await self._read(self.store.actions, game_id)

    async def _read(self, read: Callable[[str], Awaitable[T | None]], game_id: str) -> T:
        """One read of a game from the store; a missing game or store is a typed error."""
        found = await from_store(read(game_id), self.store_refusal)
        if found is None:
            raise not_found(game_id)
        return found

    async def _readable(self, game_id: str, token: str | None) -> StoredGame:
        """Loads a game for reading; a running race's games only for their player."""
        stored = await self._load(game_id)
        if stored.race_id:
            stage = await self._race_stage(stored.race_id)
            if stage in ("lobby", "countdown"):
                # Seeing the deal during the countdown would be a head start.
                raise race_not_started()
            if stage == "running":
                if token is None:
                    raise race_running()
                self.authorize(stored.token_hash, token)
        elif stored.challenge and not self._challenge_public(stored.challenge):
            if token is None:
                raise daily_running()
            self.authorize(stored.token_hash, token)
        return stored

    def _challenge_public(self, challenge: str) -> bool:
        return self.players.challenge_public(challenge)

    async def _race_stage(self, race_id: str) -> str:
        return await self.races.stage(race_id)

    async def snapshot(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        """The game's public state, with the moment it was dealt (its clock's origin)."""
        stored = await self._readable(game_id, token)
        return {
            "game_id": game_id,
            "version": stored.version,
            "state": engine.deserialize(stored.state).public_view(),
            "clock_started_at": stored.created_ms or None,
            "server_time": self.now_ms(),
        }

    async def legal_actions(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        stored = await self._readable(game_id, token)
        game = engine.deserialize(stored.state)
        return {
            "game_id": game_id,
            "version": stored.version,
            "actions": [
                {"notation": str(a), "action": action_object(a)} for a in game.legal_actions()
            ],
        }

    async def record(self, game_id: str, token: str | None) -> dict[str, Any]:
        stored = await self._load(game_id)
        if stored.race_id:
            # The code would reveal every opponent's hidden cards until the race is over.
            if await self._race_stage(stored.race_id) != "finished":
                raise race_running()
        elif stored.challenge and not self._challenge_public(stored.challenge):
            raise daily_running()
        elif not stored.over:
            self.authorize(stored.token_hash, token)
            if stored.hidden:
                # The code names every hidden card: a secret deal keeps it until the end.
                raise game_not_over()
        actions = await self._actions(game_id)
        game = engine.deserialize(stored.state)
        return {
            "game_id": game_id,
            "code": stored.code,
            "actions": actions,
            "record": " ".join([stored.code, *actions]),
            "version": len(actions),
            "won": game.won,
            "resigned": game.resigned,
        }

    async def replay(self, game_id: str) -> dict[str, Any]:
        """Everything to watch an ended game again: code, actions with their server times
        and the result. Race games once the race is over, daily ones once the day is."""
        stored = await self._load(game_id)
        if stored.race_id:
            stage = await self._race_stage(stored.race_id)
            if stage in ("lobby", "countdown"):
                raise race_not_started()
            if stage != "finished":
                raise race_running()
        elif stored.challenge:
            if not self._challenge_public(stored.challenge):
                raise daily_running()
        elif not stored.over:
            raise ServiceError(
                ErrorCode.GAME_NOT_OVER, 409, "a game can be replayed once it is over"
            )
        timed = await self._read(self.store.timed_actions, game_id)
        # The stored state is the game after its last action: no replay on the loop.
        game = engine.deserialize(stored.state)
        finished = [at for _, at in timed if at is not None]
        return {
            "game_id": game_id,
            "code": stored.code,
            "created_at": stored.created_ms or None,
            "race_id": stored.race_id or None,
            "challenge_id": stored.challenge or None,
            "actions": [{"notation": notation, "at_ms": at} for notation, at in timed],
            "result": {
                "won": game.won,
                "resigned": game.resigned,
                "moves": game.moves,
                "foundations": game.cards_on_foundations(),
                "score": game.score,
                "score_display": game.score_display,
                "duration_ms": finished[-1] - finished[0] if finished else None,
            },
        }

    async def changes_since(
        self, game_id: str, since: int, token: str | None = None
    ) -> dict[str, Any]:
        """The changes after version ``since``, one page at a time.

        A page holds at most ``changes_page_size`` changes, rebuilt by replaying the
        action log from the checkpoint at or before ``since``, so that its cost does not
        grow with the game; ``more`` and ``next_since`` say where the next page starts.
        Too old a gap (over ``catchup_limit``) or a version the game never had gets a
        snapshot with ``recovered: false`` instead.
        """
        stored = await self._readable(game_id, token)
        if since > stored.version or stored.version - since > self.settings.catchup_limit:
            return {
                "game_id": game_id,
                "version": stored.version,
                "recovered": False,
                "changes": [],
                "more": False,
                "state": engine.deserialize(stored.state).public_view(),
            }
        stop = since + self.settings.changes_page_size
        history = await self._read(lambda g: self.store.history(g, since, stop), game_id)
        if history.base_state is None:
            game = engine.new_game(stored.code)
        else:
            game = engine.deserialize(history.base_state)
        skip = since - history.base_version
        for text in history.actions[:skip]:
            game.play(engine.parse_action(text))
        changes = []
        before = game.public_view()
        for offset, text in enumerate(history.actions[skip:], start=since + 1):
            outcome = game.play(engine.parse_action(text))
            after = game.public_view()
            changes.append(build_change(game_id, offset, outcome, before, after))
            before = after
        last = since + len(changes)
        page: dict[str, Any] = {
            "game_id": game_id,
            "version": history.length,
            "recovered": True,
            "changes": changes,
            "more": last < history.length,
        }
        if page["more"]:
            page["next_since"] = last
        return page

    # ------------------------------------------------------------------ auth

    @staticmethod
    def authorize(token_hash: str, token: str | None) -> None:
        if token is None or not hmac.compare_digest(token_hash, hash_token(token)):
            raise ServiceError(
                ErrorCode.UNAUTHORIZED, 401, "a valid game token is required for this game"
            )

    async def load_for_player(self, game_id: str, token: str | None) -> StoredGame:
        """The stored game, for its player only."""
        stored = await self._load(game_id)
        self.authorize(stored.token_hash, token)
        return stored

    async def role(self, game_id: str, token: str | None) -> tuple[str, StoredGame]:
        """``player`` with the right token, ``watcher`` with none; a wrong token is refused."""
        stored = await self._readable(game_id, token)
        if token is None:
            return "watcher", stored
        self.authorize(stored.token_hash, token)
        return "player", stored
