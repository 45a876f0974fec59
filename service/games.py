"""Playing games through the store: the logic that HTTP routes and WebSockets share.

Every action is validated by the engine on a live copy of the game, turned into a change
(normalized action, events, JSON Patch between public views, score change) and committed
with a compare-and-set on the version. Another instance may have moved the game on in
the meantime; the commit then reports a conflict and the action is tried again on the
fresh state, unless the client pinned ``expected_version``.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import orjson

from . import engine
from .config import Settings
from .diff import public_patch
from .metrics import Metrics
from .protocol import ErrorCode, action_object
from .store import CommitStatus, Store, StoredGame, StoreUnavailable, hash_token, log_entry

_COMMIT_ATTEMPTS = 8
log = logging.getLogger("service.games")
T = TypeVar("T")  # what a store read returns
_LIVE_CACHE_SIZE = 10_000
# A log's notations repeat (d, u, c3>f1, ...): a page replayed from it parses each one once.
_parse_logged = functools.lru_cache(maxsize=4096)(engine.parse_action)


class ServiceError(Exception):
    """A refused request: a stable code, an HTTP status and extra fields for the body."""

    def __init__(self, code: ErrorCode, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.message = message
        self.extra = {k: v for k, v in extra.items() if v is not None}


async def from_store(call: Awaitable[T]) -> T:
    """Awaits one store call; an unreachable store becomes ``store_unavailable`` (503)."""
    try:
        return await call
    except StoreUnavailable as exc:
        raise ServiceError(
            ErrorCode.STORE_UNAVAILABLE, 503, "the store is unavailable; retry"
        ) from exc


def request_id_reused(version: int) -> ServiceError:
    # Answering "duplicate" here would silently drop a new action of a client whose
    # request counter restarted; it must learn that its ids collide.
    return ServiceError(
        ErrorCode.REQUEST_ID_REUSED,
        409,
        f"this request id already named another request (which made version {version}); "
        "request ids must be unique within a game",
    )


def race_not_started() -> ServiceError:
    return ServiceError(ErrorCode.RACE_NOT_STARTED, 409, "the race has not started yet")


def race_running() -> ServiceError:
    return ServiceError(
        ErrorCode.RACE_RUNNING, 403, "this race game stays private until the race is over"
    )


def daily_running() -> ServiceError:
    return ServiceError(
        ErrorCode.DAILY_RUNNING,
        403,
        "a daily challenge game stays private to its player until the day is over",
    )


def game_not_over() -> ServiceError:
    return ServiceError(
        ErrorCode.GAME_NOT_OVER,
        409,
        "this game was dealt from a secret seed: its code and record are shown once the game "
        "is over (won or resigned)",
    )


class RuleRejected(ServiceError):
    def __init__(self, error: engine.IllegalActionError, game_id: str, version: int) -> None:
        super().__init__(
            ErrorCode.RULE_VIOLATION,
            409,
            error.message_en,
            rule_id=error.rule_id,
            message_en=error.message_en,
            message_fi=error.message_fi,
            current_version=version,
        )
        self.rejection = {
            "rule_id": error.rule_id,
            "message_en": error.message_en,
            "message_fi": error.message_fi,
        }
        self.game_id = game_id
        self.version = version


def not_found(game_id: str) -> ServiceError:
    # The id is echoed back: it is the caller's own input, never a secret.
    return ServiceError(ErrorCode.NOT_FOUND, 404, f"no game with id {game_id!r}")


@dataclass(slots=True)
class _Live:
    """A deserialized game at a known version; valid until a commit says otherwise."""

    version: int
    game: engine.Klondike
    token_hash: str
    race_id: str = ""
    # The public view at ``version``, so an action computes only the view after it.
    view: dict[str, Any] | None = None
    player_id: str = ""
    challenge: str = ""
    created_ms: int = 0


@dataclass(frozen=True, slots=True)
class Applied:
    version: int
    notation: str
    duplicate: bool
    change: dict[str, Any] | None


def build_change(
    game_id: str,
    version: int,
    outcome: engine.Outcome,
    before: dict[str, Any],
    after: dict[str, Any],
    game: engine.Klondike,
) -> dict[str, Any]:
    return {
        "type": "change",
        "game_id": game_id,
        "version": version,
        "notation": str(outcome.action),
        "action": action_object(outcome.action),
        "events": outcome.events(),
        "patch": public_patch(before, after),
        "score": {
            "delta": outcome.score_delta,
            "total": game.score,
            "display": game.score_display,
        },
    }


class RaceHooks(Protocol):
    """What the race layer needs to know about, and allow in, a race's games."""

    async def gate(self, race_id: str, game_id: str) -> None:
        """Raises ``ServiceError`` when the race does not allow play now."""

    async def after_action(self, race_id: str, game_id: str, game: engine.Klondike) -> None:
        """Called after each accepted action of a race game."""

    async def stage(self, race_id: str) -> str:
        """``lobby``, ``countdown``, ``running`` or ``finished`` (also for a race that
        expired): before the start nobody sees a race game, while it runs only its
        player, and once it is over anyone, code and record included."""


class PlayerHooks(Protocol):
    """What the players' layer counts: a game's first action (its clock starts) and the
    end of a game that belongs to a player."""

    async def first_action(
        self, game_id: str, player_id: str, challenge: str, game: engine.Klondike
    ) -> None: ...

    async def check_open(self, game_id: str, player_id: str, challenge: str) -> None:
        """Refuses an action on a ranked daily attempt whose day is over."""

    def challenge_public(self, challenge: str) -> bool:
        """A daily challenge's games are private to their players until its day is over:
        another attempt's later cards would tell a rival the stock."""

    async def game_over(
        self, game_id: str, player_id: str, challenge: str, game: engine.Klondike
    ) -> None: ...


def new_game_id() -> str:
    return secrets.token_urlsafe(16)


class Games:
    def __init__(
        self,
        store: Store,
        settings: Settings,
        metrics: Metrics | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.clock = clock
        self.settings = settings
        self.metrics = metrics or Metrics()
        self.races: RaceHooks | None = None
        self.players: PlayerHooks | None = None
        self._live: OrderedDict[str, _Live] = OrderedDict()
        self._locks: dict[str, list[Any]] = {}

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    def _log_entry(self, notation: str, created_ms: int) -> str:
        """The log keeps each action's time after the game's creation, for replays."""
        return log_entry(notation, self.now_ms() - created_ms) if created_ms else notation

    def _unavailable(self, exc: Exception) -> ServiceError:
        log.warning("store unavailable: %s", exc)
        self.metrics.store_errors.inc()
        return ServiceError(
            ErrorCode.STORE_UNAVAILABLE, 503, "the game store is unavailable; retry"
        )

    # ------------------------------------------------------------------ reads

    async def _load(self, game_id: str) -> StoredGame:
        return await self._read(self.store.load, game_id)

    async def _actions(self, game_id: str) -> list[str]:
        return await self._read(self.store.actions, game_id)

    async def _read(self, read: Callable[[str], Awaitable[T | None]], game_id: str) -> T:
        """One read of a game from the store; a missing game or store is a typed error."""
        try:
            found = await read(game_id)
        except StoreUnavailable as exc:
            raise self._unavailable(exc) from exc
        if found is None:
            raise not_found(game_id)
        return found

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
    ) -> dict[str, Any]:
        """A new game of ``code``; a ``hidden`` code is shown once the game is over."""
        state = engine.new_game(code)
        game_id = game_id or new_game_id()
        token = secrets.token_urlsafe(32)
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
        try:
            await self.store.create(stored)
        except StoreUnavailable as exc:
            raise self._unavailable(exc) from exc
        live = _Live(
            0,
            state,
            stored.token_hash,
            player_id=player_id,
            challenge=challenge,
            created_ms=stored.created_ms,
        )
        self._remember(game_id, live)
        self.metrics.games_created.labels(code.game.value).inc()
        return {
            "game_id": game_id,
            "player_token": token,
            "code": None if hidden else str(code),
            "version": 0,
            "state": state.public_view(),
        }

    async def create_race_game(
        self,
        game_id: str,
        code: engine.GameCode,
        token_hash: str,
        race_id: str,
        player_id: str = "",
    ) -> None:
        state = engine.new_game(code)
        stored = StoredGame(
            game_id,
            0,
            state.serialize(),
            token_hash,
            str(code),
            race_id=race_id,
            player_id=player_id,
            created_ms=self.now_ms(),
        )
        try:
            await self.store.create(stored)
        except StoreUnavailable as exc:
            raise self._unavailable(exc) from exc
        self.metrics.games_created.labels(code.game.value).inc()

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
        return self.players is None or self.players.challenge_public(challenge)

    async def _race_stage(self, race_id: str) -> str:
        return "finished" if self.races is None else await self.races.stage(race_id)

    async def snapshot(self, game_id: str, token: str | None = None) -> tuple[int, dict[str, Any]]:
        stored = await self._readable(game_id, token)
        return stored.version, engine.deserialize(stored.state).public_view()

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
        elif not stored.won:
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
        elif not stored.won:
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
            game.play(_parse_logged(text))
        changes = []
        before = game.public_view()
        for offset, text in enumerate(history.actions[skip:], start=since + 1):
            outcome = game.play(_parse_logged(text))
            after = game.public_view()
            changes.append(build_change(game_id, offset, outcome, before, after, game))
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
                ErrorCode.UNAUTHORIZED, 401, "a valid player token is required for this game"
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

    # ------------------------------------------------------------------ writes

    def _remember(self, game_id: str, live: _Live) -> None:
        self._live[game_id] = live
        self._live.move_to_end(game_id)
        while len(self._live) > _LIVE_CACHE_SIZE:
            self._live.popitem(last=False)

    async def _live_game(self, game_id: str, fresh: bool) -> _Live:
        live = None if fresh else self._live.get(game_id)
        if live is None:
            stored = await self._load(game_id)
            live = _Live(
                stored.version,
                engine.deserialize(stored.state),
                stored.token_hash,
                stored.race_id,
                player_id=stored.player_id,
                challenge=stored.challenge,
                created_ms=stored.created_ms,
            )
            self._remember(game_id, live)
        return live

    async def act(
        self,
        game_id: str,
        token: str | None,
        action: engine.Action,
        expected_version: int | None = None,
        request_id: str | None = None,
    ) -> Applied:
        """Validates and commits one action (or undo) of the game's player."""
        # One action at a time per game on this instance: the live copy is shared.
        entry = self._locks.get(game_id)
        if entry is None:
            entry = self._locks[game_id] = [asyncio.Lock(), 0]
        lock: asyncio.Lock = entry[0]
        entry[1] += 1
        started = time.perf_counter()
        try:
            async with lock:
                applied = await self._act(game_id, token, action, expected_version, request_id)
        except RuleRejected as exc:
            self.metrics.rejections.labels(exc.rejection["rule_id"]).inc()
            raise
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                del self._locks[game_id]
        self.metrics.actions.inc()
        self.metrics.action_latency.observe(time.perf_counter() - started)
        return applied

    async def _act(
        self,
        game_id: str,
        token: str | None,
        action: engine.Action,
        expected_version: int | None,
        request_id: str | None,
    ) -> Applied:
        # Every commit carries a request id: if Redis applied a commit whose reply was
        # lost and the client library sends it again, the id makes that a duplicate
        # instead of a second application.
        internal_id = request_id is None
        if request_id is None:
            request_id = "~" + secrets.token_hex(8)
        fresh = False
        for _ in range(_COMMIT_ATTEMPTS):
            live = await self._live_game(game_id, fresh)
            self.authorize(live.token_hash, token)
            if live.race_id and self.races is not None:
                await self.races.gate(live.race_id, game_id)
            if live.challenge and self.players is not None:
                await self.players.check_open(game_id, live.player_id, live.challenge)
            if expected_version is not None and expected_version != live.version and not fresh:
                fresh = True
                continue
            game = live.game
            before = live.view or game.public_view()
            try:
                if expected_version is not None and expected_version != live.version:
                    raise ServiceError(
                        ErrorCode.STALE_VERSION,
                        409,
                        f"the game is at version {live.version}, not {expected_version}",
                        current_version=live.version,
                    )
                outcome = game.play(action)
            except (ServiceError, engine.IllegalActionError, engine.InvalidActionError) as exc:
                if not fresh:
                    # Judged on this instance's copy, which another instance may have
                    # moved past: judge again on the stored state before refusing.
                    fresh = True
                    continue
                duplicate = (
                    None if internal_id else await self._duplicate(game_id, request_id, action)
                )
                if duplicate is not None:
                    return duplicate
                if isinstance(exc, engine.IllegalActionError):
                    raise RuleRejected(exc, game_id, live.version) from exc
                if isinstance(exc, engine.InvalidActionError):
                    raise ServiceError(
                        ErrorCode.INVALID_ACTION, 422, exc.message, reason=exc.code
                    ) from exc
                raise
            version = live.version + 1
            after = game.public_view()
            change = build_change(game_id, version, outcome, before, after, game)
            try:
                result = await self.store.commit(
                    game_id,
                    live.version,
                    game.serialize(),
                    self._log_entry(str(outcome.action), live.created_ms),
                    request_id,
                    game.over,
                    orjson.dumps(change),
                    str(action),
                )
            except StoreUnavailable as exc:
                self._live.pop(game_id, None)
                raise self._unavailable(exc) from exc
            if result.status is CommitStatus.APPLIED:
                live.version = version
                live.view = after
                if live.race_id and self.races is not None:
                    await self.races.after_action(live.race_id, game_id, game)
                if live.player_id and self.players is not None:
                    if version == 1:
                        await self.players.first_action(
                            game_id, live.player_id, live.challenge, game
                        )
                    if game.over:
                        await self.players.game_over(game_id, live.player_id, live.challenge, game)
                return Applied(version, change["notation"], False, change)
            # The live copy already has the action played on it: it must not be reused.
            self._live.pop(game_id, None)
            fresh = True
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
                raise ServiceError(
                    ErrorCode.STALE_VERSION,
                    409,
                    f"the game is at version {result.version}, not {expected_version}",
                    current_version=result.version,
                )
        raise ServiceError(
            ErrorCode.STALE_VERSION,
            409,
            "the game kept changing; retry",
            current_version=self._live[game_id].version if game_id in self._live else None,
        )

    async def _duplicate(
        self, game_id: str, request_id: str | None, action: engine.Action
    ) -> Applied | None:
        if request_id is None:
            return None
        fingerprint = str(action)
        try:
            seen = await self.store.seen_request(game_id, request_id)
        except StoreUnavailable as exc:
            raise self._unavailable(exc) from exc
        if seen is None:
            return None
        version, seen_fingerprint = seen
        if seen_fingerprint != fingerprint:
            raise request_id_reused(version)
        return await self._answer_duplicate(game_id, version)

    async def _answer_duplicate(self, game_id: str, version: int) -> Applied:
        actions = await self._actions(game_id)
        notation = actions[version - 1] if len(actions) >= version else "?"
        return Applied(version, notation, True, None)
