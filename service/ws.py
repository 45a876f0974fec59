"""The WebSocket endpoint: hello, subscribe, act, and ordered change delivery.

Each connection has two tasks: the receive loop, which answers requests one at a time,
and a pump, which forwards the changes of subscribed games in version order. A change
that arrives out of order (after a Redis reconnect, say) makes the pump rebuild the
missing ones from the game's action log, so a subscriber never sees a gap or a repeat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from . import engine
from .config import Settings
from .errors import RuleRejected, ServiceError
from .games import Applied, Games
from .hints import Hints
from .protocol import PROTOCOL_VERSION, ErrorCode, describe_validation_error, parse_action_input
from .protocol_ws import (
    CLIENT_MESSAGE,
    ActionMessage,
    HelloMessage,
    HintMessage,
    PingMessage,
    RaceCommandMessage,
    ResignMessage,
    SubscribeMessage,
    UndoMessage,
    UnsubscribeMessage,
    UnwatchRaceMessage,
    WatchRaceMessage,
)
from .races import Races
from .rates import AddressBuckets, TokenBucket
from .store import Delivery, race_topic

log = logging.getLogger("service.ws")

# Close codes (RFC 6455 and the 4000 range for the application).
CLOSE_TOO_SLOW = 4008
CLOSE_FLOOD = 1008
RACE_PREFIX = race_topic("")
CATCH_UP_RETRIES = (0.05, 0.2, 0.5, 1.0, 2.0, None)


@dataclass(slots=True)
class _Subscription:
    role: str
    token: str | None
    last_version: int


class Connection:
    def __init__(
        self,
        websocket: WebSocket,
        games: Games,
        races: Races,
        settings: Settings,
        page_buckets: AddressBuckets | None = None,
    ) -> None:
        self.ws = websocket
        self.page_buckets = page_buckets
        self.games = games
        self.races = races
        self.settings = settings
        self.subscriptions: dict[str, _Subscription] = {}
        # Race id -> the player's token, or None for a spectator.
        self.race_watches: dict[str, str | None] = {}
        self.inbox: asyncio.Queue[Delivery] = asyncio.Queue(settings.send_queue_size)
        self.send_lock = asyncio.Lock()
        # Held while a subscription is being set up, so the pump cannot race ahead of
        # the snapshot it must follow.
        self.pump_lock = asyncio.Lock()
        self.bucket = TokenBucket(settings.rate_per_second, settings.rate_burst, time.monotonic())
        self.greeted = False
        # Asked for in hello: an accepted action's change rides in its result.
        self.changes_in_results = False
        self.too_slow = False
        self.pump_task: asyncio.Task[None] | None = None
        self.closer: asyncio.Task[None] | None = None
        # When the last frames over the rate came: more than flood_dropped_frames of
        # them within flood_window_seconds close the connection.
        self.dropped: deque[float] = deque(maxlen=settings.flood_dropped_frames + 1)
        # A dropped frame is answered (rate_limited) only if a frame was admitted since
        # the last such answer, or a second has passed: a flood costs no reply per frame,
        # yet a client that re-sends what was refused is always told again.
        self.admitted_since_notice = True
        self.next_notice = 0.0

    # ------------------------------------------------------------------ sending

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_raw(orjson.dumps(message))

    async def send_raw(self, payload: bytes) -> None:
        async with self.send_lock:
            await self.ws.send_text(payload.decode())

    async def error(
        self,
        code: ErrorCode,
        message: str,
        request_id: str | None = None,
        **extra: Any,
    ) -> None:
        self.games.metrics.errors.labels(code.value).inc()
        body: dict[str, Any] = {"type": "error", "code": code.value, "message": message}
        if request_id is not None:
            body["id"] = request_id
        body.update({k: v for k, v in extra.items() if v is not None})
        await self.send(body)

    # ------------------------------------------------------------------ delivery

    def deliver(self, delivery: Delivery) -> None:
        """Called by the store for every change of a subscribed game; never blocks."""
        if self.too_slow:
            return
        try:
            self.inbox.put_nowait(delivery)
        except asyncio.QueueFull:
            # A client that cannot keep up is cut off rather than allowed to hold memory
            # or delay anybody else; it can reconnect and resume from its last version.
            self.too_slow = True
            self.games.metrics.slow_disconnects.inc()
            if self.pump_task is not None:
                self.pump_task.cancel()
            self.closer = asyncio.create_task(self._close_slow())

    async def _close_slow(self) -> None:
        # Sending the close frame itself may wait on the stuck client: bounded.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                self.ws.close(CLOSE_TOO_SLOW, "client too slow: resume from last version"),
                timeout=2.0,
            )

    async def pump(self) -> None:
        while True:
            delivery = await self.inbox.get()
            async with self.pump_lock:
                await self._forward(delivery)

    async def _forward(self, delivery: Delivery) -> None:
        if delivery.game_id.startswith(RACE_PREFIX):
            await self._forward_race(delivery)
            return
        sub = self.subscriptions.get(delivery.game_id)
        if sub is None or (delivery.payload is not None and delivery.version <= sub.last_version):
            return
        if delivery.payload is not None and delivery.version == sub.last_version + 1:
            await self.send_raw(delivery.payload)
            sub.last_version = delivery.version
            return
        await self._catch_up(delivery.game_id, sub)

    async def _forward_race(self, delivery: Delivery) -> None:
        race_id = delivery.game_id.removeprefix(RACE_PREFIX)
        if race_id not in self.race_watches:
            return
        if delivery.payload is not None:
            await self.send_raw(delivery.payload)
            return
        try:
            message, _ = await self.races.watch(race_id, self.race_watches[race_id])
        except ServiceError as exc:
            await self.error(exc.code, exc.message, race_id=race_id)
            return
        await self.send(message)

    async def _catch_up(self, game_id: str, sub: _Subscription) -> None:
        result = await self._read_changes(game_id, sub)
        if result is not None:
            await self._send_pages(game_id, sub, result)

    async def _read_changes(self, game_id: str, sub: _Subscription) -> dict[str, Any] | None:
        """The changes after the subscription's version; None once an error was sent."""
        await self._wait_for_page()
        for delay in CATCH_UP_RETRIES:
            try:
                return await self.games.changes_since(game_id, sub.last_version, sub.token)
            except ServiceError as exc:
                # Right after Redis comes back, pooled connections fail once each.
                if exc.code is not ErrorCode.STORE_UNAVAILABLE or delay is None:
                    await self.error(exc.code, exc.message, game_id=game_id)
                    return None
                await asyncio.sleep(delay)
        return None

    async def _wait_for_page(self) -> None:
        """A resume reads its pages under the per-address limit of HTTP changes pages;
        over it, the resume waits instead of failing."""
        if self.page_buckets is None:
            return
        address = self.ws.client.host if self.ws.client else ""
        while (wait := self.page_buckets.take(address)) > 0.0:
            await asyncio.sleep(wait)

    async def _send_pages(self, game_id: str, sub: _Subscription, result: dict[str, Any]) -> None:
        """Sends a catch-up, then each page after it, read once the previous one is sent:
        a long resume never holds the event loop for more than one page."""
        while True:
            await self._send_catch_up(game_id, result)
            if not result.get("more"):
                sub.last_version = result["version"]
                return
            sub.last_version = result["next_since"]
            await asyncio.sleep(0)
            next_page = await self._read_changes(game_id, sub)
            if next_page is None:
                return
            result = next_page

    async def _send_catch_up(self, game_id: str, result: dict[str, Any]) -> None:
        """The missed changes in order, or a snapshot when they are not recovered."""
        if result["recovered"]:
            for change in result["changes"]:
                await self.send(change)
            return
        await self.send(
            {
                "type": "snapshot",
                "game_id": game_id,
                "version": result["version"],
                "state": result["state"],
            }
        )

    # ------------------------------------------------------------------ receiving

    async def run(self) -> None:
        await self.ws.accept()
        metrics = self.games.metrics
        metrics.connections.inc()
        pump = self.pump_task = asyncio.create_task(self.pump())
        try:
            while True:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                data = raw.encode() if raw is not None else message.get("bytes") or b""
                if not await self.admit(data):
                    break
        except (WebSocketDisconnect, WebSocketDisconnected):
            # The client left, possibly while an answer was being sent to it.
            pass
        finally:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pump
            for game_id in list(self.subscriptions):
                await self.games.store.unsubscribe(game_id, self)
            self.subscriptions.clear()
            for race_id in list(self.race_watches):
                await self._stop_watching(race_id)
            metrics.connections.dec()

    async def admit(self, data: bytes) -> bool:
        """Rate-limits and size-checks one frame; False ends the connection (a flood).

        The rate is checked before anything else: a frame over it is dropped unread.
        """
        if not self.bucket.take(time.monotonic()):
            return await self._drop(data)
        self.admitted_since_notice = True
        if len(data) > self.settings.max_frame_bytes:
            await self.error(
                ErrorCode.FRAME_TOO_LARGE,
                f"frames are limited to {self.settings.max_frame_bytes} bytes",
            )
            return True
        await self.handle(data)
        return True

    async def _drop(self, data: bytes) -> bool:
        settings = self.settings
        self.games.metrics.ws_frames_dropped.inc()
        now = time.monotonic()
        dropped = self.dropped
        dropped.append(now)
        if len(dropped) == dropped.maxlen and now - dropped[0] <= settings.flood_window_seconds:
            self.games.metrics.ws_flood_closes.inc()
            log.info(
                "closing a flooding connection from %s",
                self.ws.client.host if self.ws.client else "?",
            )
            await self.ws.close(
                CLOSE_FLOOD,
                f"message flood: more than {settings.flood_dropped_frames} frames over the "
                f"rate within {settings.flood_window_seconds:g} s",
            )
            return False
        if self.admitted_since_notice or now >= self.next_notice:
            self.admitted_since_notice = False
            self.next_notice = now + 1.0
            await self.error(
                ErrorCode.RATE_LIMITED,
                f"at most {settings.rate_per_second:g} messages per second "
                f"(bursts of {settings.rate_burst}); this message was ignored",
                self._cheap_request_id(data),
            )
        return True

    def _cheap_request_id(self, data: bytes) -> str | None:
        """The id of a refused frame, so the client knows which request to send again."""
        if len(data) > self.settings.max_frame_bytes:
            return None
        try:
            return _request_id_of(orjson.loads(data))
        except orjson.JSONDecodeError:
            return None

    async def handle(self, data: bytes) -> None:
        try:
            raw = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            await self.error(ErrorCode.BAD_JSON, f"frame is not valid JSON: {exc}")
            return
        request_id = _request_id_of(raw)
        try:
            message = CLIENT_MESSAGE.validate_python(raw)
        except ValidationError as exc:
            await self.error(ErrorCode.BAD_MESSAGE, describe_validation_error(exc), request_id)
            return
        if isinstance(message, PingMessage):
            await self.send({"type": "pong", **({"id": message.id} if message.id else {})})
            return
        if isinstance(message, HelloMessage):
            await self.hello(message)
            return
        if not self.greeted:
            await self.error(
                ErrorCode.HELLO_REQUIRED, "send hello with the protocol version first", request_id
            )
            return
        try:
            if isinstance(message, SubscribeMessage):
                await self.subscribe(message)
            elif isinstance(message, UnsubscribeMessage):
                await self.unsubscribe(message)
            elif isinstance(message, ActionMessage | UndoMessage | ResignMessage):
                await self.act(message)
            elif isinstance(message, WatchRaceMessage):
                await self.watch_race(message)
            elif isinstance(message, UnwatchRaceMessage):
                await self.unwatch_race(message)
            elif isinstance(message, RaceCommandMessage):
                await self.race_command(message)
            elif isinstance(message, HintMessage):
                await self.hint(message)
        except RuleRejected as exc:
            await self.send(
                {
                    "type": "result",
                    "id": request_id,
                    "game_id": exc.game_id,
                    "status": "rejected",
                    "version": exc.version,
                    "rejection": exc.rejection,
                }
            )
        except ServiceError as exc:
            await self.error(
                exc.code,
                exc.message,
                request_id,
                game_id=getattr(message, "game_id", None),
                race_id=getattr(message, "race_id", None),
                current_version=exc.extra.get("current_version"),
                reason=exc.extra.get("reason"),
            )

    async def hello(self, message: HelloMessage) -> None:
        if message.protocol != PROTOCOL_VERSION:
            await self.error(
                ErrorCode.UNSUPPORTED_PROTOCOL,
                f"this server speaks protocol {PROTOCOL_VERSION}, not {message.protocol}",
            )
            return
        self.greeted = True
        self.changes_in_results = message.changes_in_results
        settings = self.settings
        welcome: dict[str, Any] = {
            "type": "welcome",
            "protocol": PROTOCOL_VERSION,
            "max_frame_bytes": settings.max_frame_bytes,
            "max_subscriptions": settings.max_subscriptions,
            "rate_per_second": settings.rate_per_second,
            "rate_burst": settings.rate_burst,
        }
        if message.changes_in_results:
            welcome["changes_in_results"] = True
        await self.send(welcome)

    async def subscribe(self, message: SubscribeMessage) -> None:
        game_id = message.game_id
        if game_id not in self.subscriptions:
            self._check_subscription_room()
        async with self.pump_lock:
            # Listen first, then read: a change committed in between is then either in
            # the snapshot or delivered after it, never lost.
            await self.games.store.subscribe(game_id, self)
            try:
                role, stored = await self.games.role(game_id, message.token)
                if message.since is not None:
                    await self._wait_for_page()
                    result = await self.games.changes_since(game_id, message.since, message.token)
                else:
                    state = engine.deserialize(stored.state).public_view()
                    result = {"version": stored.version, "recovered": False, "state": state}
            except ServiceError:
                if game_id not in self.subscriptions:
                    await self.games.store.unsubscribe(game_id, self)
                raise
            version = result["version"]
            sub = self.subscriptions[game_id] = _Subscription(role, message.token, version)
            await self.send(
                {
                    "type": "subscribed",
                    "id": message.id,
                    "game_id": game_id,
                    "role": role,
                    "version": version,
                    "recovered": result["recovered"],
                }
            )
            await self._send_pages(game_id, sub, result)

    def _check_subscription_room(self) -> None:
        if len(self.subscriptions) + len(self.race_watches) >= self.settings.max_subscriptions:
            raise ServiceError(
                ErrorCode.TOO_MANY_SUBSCRIPTIONS,
                429,
                f"at most {self.settings.max_subscriptions} games and races per connection",
            )

    async def watch_race(self, message: WatchRaceMessage) -> None:
        race_id = message.race_id
        if race_id not in self.race_watches:
            self._check_subscription_room()
        async with self.pump_lock:
            await self.games.store.subscribe(race_topic(race_id), self)
            try:
                snapshot, _ = await self.races.watch(race_id, message.token)
            except ServiceError:
                if race_id not in self.race_watches:
                    await self.games.store.unsubscribe(race_topic(race_id), self)
                raise
            self.race_watches[race_id] = message.token
            await self.send({**snapshot, "id": message.id})
        if message.token is not None:
            await self.races.set_connected(race_id, message.token, True)

    async def unwatch_race(self, message: UnwatchRaceMessage) -> None:
        if message.race_id not in self.race_watches:
            raise ServiceError(ErrorCode.NOT_SUBSCRIBED, 409, "not watching this race")
        await self._stop_watching(message.race_id)
        await self.send({"type": "unsubscribed", "id": message.id, "race_id": message.race_id})

    async def _stop_watching(self, race_id: str) -> None:
        token = self.race_watches.pop(race_id, None)
        await self.games.store.unsubscribe(race_topic(race_id), self)
        if token is not None:
            try:
                await self.races.set_connected(race_id, token, False)
            except ServiceError as exc:
                log.info("could not mark a race player disconnected: %s", exc.message)

    async def race_command(self, message: RaceCommandMessage) -> None:
        token = self.race_watches.get(message.race_id)
        if token is None:
            raise ServiceError(
                ErrorCode.NOT_PLAYER, 403, "watch the race with your player token first"
            )
        races, race_id = self.races, message.race_id
        command = message.command
        if command in ("ready", "unready"):
            await races.set_ready(race_id, token, command == "ready")
        elif command == "start":
            await races.start(race_id, token)
        elif command == "resign":
            await races.resign_game(race_id, token)
        else:
            await races.rematch(race_id, token)
        await self.send(
            {"type": "result", "id": message.id, "race_id": race_id, "status": "accepted"}
        )

    async def hint(self, message: HintMessage) -> None:
        sub = self.subscriptions.get(message.game_id)
        if sub is None or sub.role != "player":
            raise ServiceError(
                ErrorCode.NOT_PLAYER, 403, "subscribe with the player token to ask for hints"
            )
        hints: Hints = self.ws.app.state.hints
        answer = await hints.hint(message.game_id, sub.token)
        await self.send({"type": "hint", "id": message.id, **answer})

    async def unsubscribe(self, message: UnsubscribeMessage) -> None:
        if self.subscriptions.pop(message.game_id, None) is None:
            raise ServiceError(ErrorCode.NOT_SUBSCRIBED, 409, "not subscribed to this game")
        await self.games.store.unsubscribe(message.game_id, self)
        await self.send({"type": "unsubscribed", "id": message.id, "game_id": message.game_id})

    async def act(self, message: ActionMessage | UndoMessage | ResignMessage) -> None:
        sub = self.subscriptions.get(message.game_id)
        if sub is None:
            raise ServiceError(ErrorCode.NOT_SUBSCRIBED, 409, "subscribe to the game first")
        if sub.role != "player":
            raise ServiceError(
                ErrorCode.NOT_PLAYER, 403, "subscribe with the player token to play this game"
            )
        if isinstance(message, ActionMessage):
            try:
                action = parse_action_input(message.action)
            except engine.InvalidActionError as exc:
                raise ServiceError(
                    ErrorCode.INVALID_ACTION, 422, exc.message, reason=exc.code
                ) from exc
        elif isinstance(message, UndoMessage):
            action = engine.Undo()
        else:
            action = engine.Resign()
        expected_version = None if isinstance(message, ResignMessage) else message.expected_version
        if not self.changes_in_results:
            applied = await self.games.act(
                message.game_id, sub.token, action, expected_version, message.id
            )
            await self.send(_accepted(message.id, message.game_id, applied))
            return
        # The pump waits while the action is committed: its change, which can come back
        # through pub/sub before the commit's own reply, must not overtake the result that
        # carries it. The change rides along only when it is the next one this connection
        # is due; otherwise (changes made elsewhere not forwarded yet) the pump sends it
        # after those, as a frame, and skips it here by its version.
        async with self.pump_lock:
            applied = await self.games.act(
                message.game_id, sub.token, action, expected_version, message.id
            )
            result = _accepted(message.id, message.game_id, applied)
            if applied.change is not None and sub.last_version == applied.version - 1:
                result["change"] = applied.change
                sub.last_version = applied.version
            await self.send(result)


def _accepted(request_id: str, game_id: str, applied: Applied) -> dict[str, Any]:
    return {
        "type": "result",
        "id": request_id,
        "game_id": game_id,
        "status": "accepted",
        "version": applied.version,
        "notation": applied.notation,
        "duplicate": applied.duplicate,
    }


def _request_id_of(raw: Any) -> str | None:
    if isinstance(raw, dict):
        value = raw.get("id")
        if isinstance(value, str) and 0 < len(value) <= 64:
            return value
    return None


async def websocket_endpoint(websocket: WebSocket) -> None:
    state = websocket.app.state
    pages = getattr(state, "page_buckets", None)
    await Connection(websocket, state.games, state.races, state.settings, pages).run()
