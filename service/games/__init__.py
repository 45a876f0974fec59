"""Playing games through the store: the logic that HTTP routes and WebSockets share.

Every action is validated by the engine on a live copy of the game, turned into a change
(normalized action, events, JSON Patch between public views, score change) and committed
with a compare-and-set on the version. Another instance may have moved the game on in
the meantime; the commit then reports a conflict and the action is tried again on the
fresh state, unless the client pinned ``expected_version``. Reading games, with the
privacy of races and daily challenges, is ``GameReads``, which ``Games`` extends.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable

import orjson

from .. import engine
from ..config import Settings
from ..errors import (
    RuleRejected,
    ServiceError,
    from_store,
    invalid_action,
    not_found,
    request_id_reused,
)
from ..protocol import ErrorCode
from ..store import (
    CommitResult,
    CommitStatus,
    Store,
    StoreUnavailable,
    log_entry,
)
from ..support.locks import KeyedLocks
from ..support.metrics import Metrics
from .changes import Applied, build_change
from .creation import GameCreation
from .hooks import PlayerHooks, RaceHooks, RaceRead
from .live import LiveGame
from .telling import EARLIER_WAIT_SECONDS, Telling

_COMMIT_ATTEMPTS = 8


def _stale_version(version: int, expected_version: int) -> ServiceError:
    return ServiceError(
        ErrorCode.STALE_VERSION,
        409,
        f"the game is at version {version}, not {expected_version}",
        current_version=version,
    )


class Games(GameCreation):
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
        self._locks = KeyedLocks()
        self._telling = Telling(self, self._live)

    def _log_entry(self, notation: str, created_ms: int) -> str:
        """The log keeps each action's time after the game's creation, for replays."""
        return log_entry(notation, self.now_ms() - created_ms) if created_ms else notation

    # ------------------------------------------------------------------ writes

    async def _load_live(self, game_id: str) -> LiveGame:
        """The game as stored, deserialized and kept as the live copy."""
        stored = await self._load(game_id)
        live = LiveGame(
            stored.version,
            engine.deserialize(stored.state),
            stored.token_hash,
            stored.race_id,
            player_id=stored.player_id,
            challenge=stored.challenge,
            created_ms=stored.created_ms,
        )
        self._live.remember(game_id, live)
        return live

    async def act(
        self,
        game_id: str,
        token: str | None,
        action: engine.Action,
        expected_version: int | None = None,
        request_id: str | None = None,
        race_read: RaceRead | None = None,
    ) -> Applied:
        """Validates and commits one action (or undo) of the game's player.

        ``race_read`` is the game's race as the caller has just read it (a race command
        does), which the race's gate may judge instead of reading it again.
        """
        started = time.perf_counter()
        try:
            # One action at a time per game on this instance: the live copy is shared.
            async with self._locks(game_id):
                earlier = self._telling.unfinished.get(game_id)
                if earlier is not None:
                    # Told of in the order of the actions.
                    await asyncio.wait({earlier}, timeout=EARLIER_WAIT_SECONDS)
                applied = await self._act(
                    game_id, token, action, expected_version, request_id, race_read
                )
        except RuleRejected as exc:
            self.metrics.rejections.labels(exc.rejection["rule_id"]).inc()
            raise
        self.metrics.actions.count(time.perf_counter() - started)
        return applied

    async def _act(
        self,
        game_id: str,
        token: str | None,
        action: engine.Action,
        expected_version: int | None,
        request_id: str | None,
        race_read: RaceRead | None,
    ) -> Applied:
        # Every commit carries a request id: if Redis applied a commit whose reply was
        # lost and the client library sends it again, the id makes that a duplicate
        # instead of a second application. Only a client's own id names its earlier requests.
        client_id = request_id
        if request_id is None:
            request_id = "~" + secrets.token_hex(8)
        fresh = False  # once set, every attempt judges the action on the stored state
        for _ in range(_COMMIT_ATTEMPTS):
            live = None if fresh else self._live.get(game_id)
            if live is None:
                live = await self._load_live(game_id)
            self.authorize(live.token_hash, token)
            gate_read = None
            if live.race_id or live.challenge:
                gate_read = await self._admit(game_id, live, race_read)
                # A retry (the commit lost a compare-and-set) judges the race as it is then.
                race_read = None
            before = live.view or live.game.public_view()
            try:
                if expected_version is not None and expected_version != live.version:
                    raise _stale_version(live.version, expected_version)
                outcome = live.game.play(action)
            except (ServiceError, engine.IllegalActionError, engine.InvalidActionError) as exc:
                if not fresh:
                    # Judged on this instance's copy, which another instance may have
                    # moved past: judge again on the stored state before refusing.
                    fresh = True
                    continue
                return await self._refused(game_id, live.version, exc, client_id, action)
            # The commit is awaited here rather than in a step of its own: a coroutine more
            # per action costs about 0.4 % of the action path's instructions.
            game = live.game
            version = live.version + 1
            try:
                after = game.public_view()
                change = build_change(game_id, version, outcome, before, after)
                change_json = orjson.dumps(change)
                result = await self.store.commit(
                    game_id,
                    live.version,
                    game.serialize(),
                    self._log_entry(change["notation"], live.created_ms),
                    request_id,
                    game.over,
                    change_json,
                    str(action),
                )
            except BaseException as exc:
                # The live copy has the action played, and whether the store has it is
                # unknown: the store failed, or the action was cancelled (its connection
                # went away) while it waited. A copy reused now would commit that move
                # with the next action, though the action log never got it.
                self._live.drop(game_id)
                if isinstance(exc, StoreUnavailable):
                    raise self.store_refusal(exc) from exc
                raise
            if result.status is CommitStatus.APPLIED:
                live.version = version
                live.view = after
                if (live.race_id or live.player_id) and self._telling.wanted(live):
                    await self._telling.tell(game_id, live, gate_read)
                return Applied(version, change["notation"], False, change, change_json)
            # The live copy already has the action played on it: it must not be reused, and
            # the action is judged again on the stored state.
            self._live.drop(game_id)
            fresh = True
            duplicate = await self._not_applied(game_id, result, expected_version)
            if duplicate is not None:
                return duplicate
        raise self._kept_changing(game_id)

    async def _admit(
        self, game_id: str, live: LiveGame, race_read: RaceRead | None
    ) -> RaceRead | None:
        """Refuses an action that the game's race or daily challenge does not allow now;
        returns the race as its gate judged it, for ``after_action``."""
        gate_read = None
        if live.race_id:
            gate_read = await self.races.gate(live.race_id, game_id, race_read)
        if live.challenge:
            await self.players.check_open(game_id, live.player_id, live.challenge)
        return gate_read

    async def _refused(
        self,
        game_id: str,
        version: int,
        refusal: ServiceError | engine.IllegalActionError | engine.InvalidActionError,
        client_id: str | None,
        action: engine.Action,
    ) -> Applied:
        """The answer to an action refused on the stored state: the answer it had if it
        was committed before (the client sent it again), else the refusal."""
        duplicate = await self._duplicate(game_id, client_id, action)
        if duplicate is not None:
            return duplicate
        if isinstance(refusal, engine.IllegalActionError):
            raise RuleRejected(refusal, game_id, version) from refusal
        if isinstance(refusal, engine.InvalidActionError):
            raise invalid_action(refusal) from refusal
        raise refusal

    async def close(self, wait_seconds: float = 5.0) -> None:
        """Lets what is still being told of committed actions (see ``telling.py``) end,
        or stops it after ``wait_seconds``, before the store closes."""
        await self._telling.close(wait_seconds)

    async def _not_applied(
        self, game_id: str, result: CommitResult, expected_version: int | None
    ) -> Applied | None:
        """The answer to an action whose commit the store did not apply: the answer it had
        (a duplicate), a refusal, or None when another instance moved the game on and
        the action is to be judged again on the stored state."""
        if result.status is CommitStatus.DUPLICATE:
            return await self._answer_duplicate(game_id, result.version)
        if result.status is CommitStatus.REUSED:
            raise request_id_reused(result.version)
        if result.status is CommitStatus.MISSING:
            raise not_found(game_id)
        if result.status is CommitStatus.FULL:
            raise ServiceError(
                ErrorCode.GAME_TOO_LONG,
                409,
                f"a game keeps at most {self.settings.max_actions_per_game} actions",
            )
        if expected_version is not None:
            raise _stale_version(result.version, expected_version)
        return None

    def _kept_changing(self, game_id: str) -> ServiceError:
        """The refusal of an action whose every commit lost to another instance's."""
        live = self._live.get(game_id)
        return ServiceError(
            ErrorCode.STALE_VERSION,
            409,
            "the game kept changing; retry",
            current_version=live.version if live is not None else None,
        )

    async def _duplicate(
        self, game_id: str, request_id: str | None, action: engine.Action
    ) -> Applied | None:
        if request_id is None:
            return None
        fingerprint = str(action)
        seen = await from_store(self.store.seen_request(game_id, request_id), self.store_refusal)
        if seen is None:
            return None
        version, seen_fingerprint = seen
        if seen_fingerprint != fingerprint:
            raise request_id_reused(version)
        return await self._answer_duplicate(game_id, version)

    async def _answer_duplicate(self, game_id: str, version: int) -> Applied:
        actions = await self._actions(game_id)
        if len(actions) == version:
            await self._tell_again(game_id, version)
        notation = actions[version - 1] if len(actions) >= version else "?"
        return Applied(version, notation, True, None)

    async def _tell_again(self, game_id: str, version: int) -> None:
        """Tells again of the game's latest action, which a client sent again because
        its answer went missing: telling of it may have failed after the commit (the
        store, or the instance, going away), and a race would then wait for ever for a
        win it was never told of. Every telling may be done twice."""
        live = await self._load_live(game_id)
        if live.version == version and self._telling.wanted(live):
            await self._telling.tell(game_id, live, None)
