"""The requests of a WebSocket connection, read and answered one at a time: the hello,
subscriptions, actions (with undo and resign), hints and race commands.

Every request with an id is answered with that id: a result, or an error naming its code.
"""

from __future__ import annotations

import orjson
from pydantic import ValidationError

from .. import engine
from ..config import Settings
from ..errors import RuleRejected, ServiceError, invalid_action
from ..guards.rates import client_address
from ..hints import Hints
from ..protocol import PROTOCOL_VERSION, ErrorCode, describe_validation_error, parse_action_input
from ..protocol.ws import (
    CLIENT_MESSAGE,
    ActionMessage,
    CancelSeekMessage,
    ClientMessage,
    ErrorMessage,
    FollowArenaMessage,
    HelloMessage,
    HintMessage,
    PingMessage,
    RaceCommandMessage,
    ResignMessage,
    SeekMessage,
    SubscribeMessage,
    UndoMessage,
    UnfollowArenaMessage,
    UnsubscribeMessage,
    UnwatchRaceMessage,
    WatchRaceMessage,
)
from .follows import Following
from .frames import Outbox, accepted, request_id_of, welcome
from .pump import Pump, Subscription
from .seeking import Seeking


class Commands:
    def __init__(
        self,
        outbox: Outbox,
        pump: Pump,
        seeking: Seeking,
        following: Following,
        settings: Settings,
    ) -> None:
        self.outbox = outbox
        self.pump = pump
        self.seeking = seeking
        self.following = following
        self.games = pump.games
        self.races = pump.races
        self.settings = settings
        self.greeted = False
        # Asked for in hello: an accepted action's change rides in its result.
        self.changes_in_results = False

    async def handle(self, data: bytes) -> None:
        outbox = self.outbox
        try:
            # Parsed and validated in one pass, without a dict of the frame in between.
            message = CLIENT_MESSAGE.validate_json(data)
        except ValidationError:
            checked = await self.read_or_refuse(data)
            if checked is None:
                return
            message = checked
        request_id = getattr(message, "id", None)
        if isinstance(message, PingMessage):
            await outbox.send({"type": "pong", **({"id": message.id} if message.id else {})})
            return
        if isinstance(message, HelloMessage):
            await self.hello(message)
            return
        if not self.greeted:
            await outbox.error(
                ErrorCode.HELLO_REQUIRED, "send hello with the protocol version first", request_id
            )
            return
        try:
            if isinstance(message, SubscribeMessage):
                await self.pump.subscribe(message)
            elif isinstance(message, UnsubscribeMessage):
                await self.unsubscribe(message)
            elif isinstance(message, ActionMessage | UndoMessage | ResignMessage):
                await self.act(message)
            elif isinstance(message, WatchRaceMessage):
                await self.pump.watch_race(message)
            elif isinstance(message, UnwatchRaceMessage):
                await self.unwatch_race(message)
            elif isinstance(message, RaceCommandMessage):
                await self.race_command(message)
            elif isinstance(message, HintMessage):
                await self.hint(message)
            elif isinstance(message, SeekMessage):
                await self.seeking.seek(message)
            elif isinstance(message, CancelSeekMessage):
                await self.seeking.cancel(message)
            elif isinstance(message, FollowArenaMessage):
                await self.following.follow(message)
            elif isinstance(message, UnfollowArenaMessage):
                await self.following.unfollow(message)
        except RuleRejected as exc:
            await outbox.send(
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
            # The error's fields as over REST (its messages in both languages, the seek
            # that already waits), those the message has.
            extra = {k: v for k, v in exc.extra.items() if k in ErrorMessage.model_fields}
            await outbox.error(
                exc.code,
                exc.message,
                request_id,
                game_id=getattr(message, "game_id", None),
                race_id=getattr(message, "race_id", None),
                **extra,
            )

    async def read_or_refuse(self, data: bytes) -> ClientMessage | None:
        """A frame refused by the one-pass reader, read again in two steps: the error then
        says whether it is not JSON or which field is wrong, with the frame's id if any.
        None once that error is sent."""
        try:
            raw = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            await self.outbox.error(ErrorCode.BAD_JSON, f"frame is not valid JSON: {exc}")
            return None
        try:
            message: ClientMessage = CLIENT_MESSAGE.validate_python(raw)
            return message
        except ValidationError as exc:
            error = describe_validation_error(exc)
            await self.outbox.error(ErrorCode.BAD_MESSAGE, error, request_id_of(raw))
            return None

    async def hello(self, message: HelloMessage) -> None:
        if message.protocol != PROTOCOL_VERSION:
            await self.outbox.error(
                ErrorCode.UNSUPPORTED_PROTOCOL,
                f"this server speaks protocol {PROTOCOL_VERSION}, not {message.protocol}",
            )
            return
        self.greeted = True
        self.changes_in_results = message.changes_in_results
        await self.outbox.send(welcome(message, self.settings))

    async def unsubscribe(self, message: UnsubscribeMessage) -> None:
        await self.pump.unsubscribe(message.game_id)
        await self.outbox.send(
            {"type": "unsubscribed", "id": message.id, "game_id": message.game_id}
        )

    async def unwatch_race(self, message: UnwatchRaceMessage) -> None:
        await self.pump.unwatch_race(message.race_id)
        await self.outbox.send(
            {"type": "unsubscribed", "id": message.id, "race_id": message.race_id}
        )

    async def race_command(self, message: RaceCommandMessage) -> None:
        # As for a game (``as_player``): a race not watched, then a spectator's watch.
        if message.race_id not in self.pump.race_watches:
            raise ServiceError(ErrorCode.NOT_SUBSCRIBED, 409, "watch the race first")
        token = self.pump.race_token(message.race_id)
        if token is None:
            raise ServiceError(
                ErrorCode.NOT_PLAYER, 403, "watch the race with your race token first"
            )
        races, race_id = self.races, message.race_id
        command = message.command
        if command in ("ready", "unready"):
            await races.lobby.set_ready(race_id, token, command == "ready")
        elif command == "start":
            await races.lobby.start(race_id, token)
        elif command == "resign":
            await races.resign_game(race_id, token)
        else:
            await races.lobby.rematch(race_id, token)
        await self.outbox.send(
            {"type": "result", "id": message.id, "race_id": race_id, "status": "accepted"}
        )

    def as_player(self, game_id: str, doing: str) -> Subscription:
        """This connection's subscription to the game, which must be the player's: a game
        it does not follow is ``not_subscribed``, one it watches ``not_player``, whatever
        the request about it."""
        sub = self.pump.subscription(game_id)
        if sub is None:
            raise ServiceError(ErrorCode.NOT_SUBSCRIBED, 409, "subscribe to the game first")
        if sub.role != "player":
            raise ServiceError(
                ErrorCode.NOT_PLAYER, 403, f"subscribe with the game token to {doing}"
            )
        return sub

    async def hint(self, message: HintMessage) -> None:
        sub = self.as_player(message.game_id, "ask for hints")
        hints: Hints = self.outbox.ws.app.state.hints
        # The same quotas in the store as over HTTP, beside this connection's frame rate.
        address = client_address(self.outbox.ws.scope)
        answer = await hints.hint(message.game_id, sub.token, address)
        await self.outbox.send({"type": "hint", "id": message.id, **answer})

    async def act(self, message: ActionMessage | UndoMessage | ResignMessage) -> None:
        sub = self.as_player(message.game_id, "play this game")
        if isinstance(message, ActionMessage):
            try:
                action = parse_action_input(message.action)
            except engine.InvalidActionError as exc:
                raise invalid_action(exc) from exc
        elif isinstance(message, UndoMessage):
            action = engine.Undo()
        else:
            action = engine.Resign()
        expected_version = None if isinstance(message, ResignMessage) else message.expected_version
        if not self.changes_in_results:
            applied = await self.games.act(
                message.game_id, sub.token, action, expected_version, message.id
            )
            await self.outbox.send(accepted(message.id, message.game_id, applied))
            return
        await self.pump.act_in_order(sub, message.game_id, action, expected_version, message.id)
