"""The subscriptions of one WebSocket connection and the pump that feeds them.

The store hands every change of a subscribed game (or race) to ``deliver``, which never
blocks; the pump forwards them in version order. A change that arrives out of order
(after a Redis reconnect, say) makes the pump rebuild the missing ones from the game's
action log, page by page, so a subscriber never sees a gap or a repeat. An action of
the connection's own, whose change rides in its result, is committed through the pump
too, which alone moves what a subscription has been sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

import orjson

from .. import engine
from ..config import Settings
from ..errors import ServiceError
from ..games import Games
from ..guards.rates import AddressBuckets
from ..protocol import ErrorCode
from ..protocol.ws import SubscribeMessage, WatchRaceMessage
from ..races import Races
from ..store import Delivery, race_topic
from ..support.tasks import cancel_and_wait
from .frames import Outbox, accepted
from .pages import ChangePages

log = logging.getLogger("service.ws")

# Close code (the application's 4000 range) of a client that cannot keep up.
CLOSE_TOO_SLOW = 4008
RACE_PREFIX = race_topic("")
# The topic of the ready-made frames queued by ``queue_frame``.
QUEUED_FRAME = "frame:"


@dataclass(slots=True)
class Subscription:
    """A game this connection follows; ``last_version``, the version of the last change
    sent, is the pump's to move."""

    role: str
    token: str | None
    last_version: int


class Held:
    """The game held by ``Pump.hold``, and the version whose change a result carried,
    once there is one. A class rather than a generator context manager, and one per
    pump, reused by every action (the pump holds one game at a time, under its lock):
    it is entered once per action."""

    __slots__ = ("carried", "game_id", "pump")

    def __init__(self, pump: Pump) -> None:
        self.pump = pump
        self.game_id = ""
        self.carried: int | None = None

    def __enter__(self) -> Held:
        self.pump._held_game = self.game_id
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.pump._release(self)


class Pump:
    """The store's subscriber for one connection: what it follows, and in what order
    the changes go out."""

    def __init__(
        self,
        outbox: Outbox,
        games: Games,
        races: Races,
        settings: Settings,
        page_buckets: AddressBuckets | None = None,
    ) -> None:
        self.outbox = outbox
        self.games = games
        self.races = races
        self.settings = settings
        self.pages = ChangePages(outbox, games, page_buckets)
        self.subscriptions: dict[str, Subscription] = {}
        # Race id -> the player's race token, or None for a spectator.
        self.race_watches: dict[str, str | None] = {}
        # Race id -> the version of the last race message sent: each is the whole race, so
        # one no newer (published while the watch began, before the race it sent was
        # read) is left out.
        self.race_versions: dict[str, int] = {}
        self.inbox: asyncio.Queue[Delivery] = asyncio.Queue(settings.send_queue_size)
        # Held while a subscription is being set up or an action of this connection
        # commits, so the pump cannot race ahead of the snapshot or result it must follow.
        self._lock = asyncio.Lock()
        self.too_slow = False
        self.task: asyncio.Task[None] | None = None
        self.closer: asyncio.Task[None] | None = None
        self._stopping: asyncio.Task[None] | None = None
        # The game this connection is acting on while its change rides in the result
        # (``hold``), and what arrived for it meanwhile, in order.
        self._held_game: str | None = None
        self._held: list[Delivery] = []
        self._holding = Held(self)

    def start(self) -> asyncio.Task[None]:
        self.task = asyncio.create_task(self._run())
        return self.task

    async def stop(self) -> None:
        """Stops the pump and leaves every game and race it followed.

        The clean-up runs to its end even if the caller is cancelled meanwhile (the
        caller is then told at once): a connection's subscriptions must not outlive it.
        """
        if self._stopping is None:
            self._stopping = asyncio.create_task(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        if self.task is not None:
            await cancel_and_wait(self.task)
        for game_id in list(self.subscriptions):
            await self._leave(self.games.store.unsubscribe(game_id, self))
        self.subscriptions.clear()
        for race_id in list(self.race_watches):
            await self._leave(self._stop_watching(race_id))

    @staticmethod
    async def _leave(leaving: Awaitable[None]) -> None:
        # One topic that cannot be left (the store failing in a way of its own) must not
        # keep the connection's others subscribed.
        try:
            await leaving
        except Exception as exc:
            log.warning("could not leave a game or race: %s", type(exc).__name__)

    # ------------------------------------------------------------------ delivery

    def deliver(self, delivery: Delivery) -> None:
        """Called by the store for every change of a subscribed game; never blocks."""
        if self.too_slow:
            return
        if delivery.game_id == self._held_game:
            self._held.append(delivery)
            return
        try:
            self.inbox.put_nowait(delivery)
        except asyncio.QueueFull:
            # A client that cannot keep up is cut off rather than allowed to hold memory
            # or delay anybody else; it can reconnect and resume from its last version.
            self.too_slow = True
            self.games.metrics.slow_disconnects.inc()
            if self.task is not None:
                self.task.cancel()
            self.closer = asyncio.create_task(self._close_slow())

    def queue_frame(self, payload: bytes) -> None:
        """Queues a frame made elsewhere (arena standings) behind what is queued: sent in
        order, never awaited by the caller, and a client that cannot keep up is cut off
        as for game changes."""
        self.deliver(Delivery(QUEUED_FRAME, 0, payload))

    def hold(self, game_id: str) -> Held:
        """Keeps back what arrives for ``game_id`` inside the ``with`` block, then queues
        it in order, except the version set as ``carried``: it went out in a result.

        An action's own change is dispatched while it commits; queueing it only for the
        pump to drop it again cost about a twentieth of the CPU of an action. Used with
        the pump's lock held (``act_in_order``), so nothing of the game is being
        forwarded meanwhile.
        """
        held = self._holding
        held.game_id = game_id
        held.carried = None
        return held

    def _release(self, held: Held) -> None:
        self._held_game = None
        if not self._held:
            return
        waiting, self._held = self._held, []
        for delivery in waiting:
            if delivery.payload is None or delivery.version != held.carried:
                self.deliver(delivery)

    async def _close_slow(self) -> None:
        # Sending the close frame itself may wait on the stuck client: bounded.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                self.outbox.ws.close(CLOSE_TOO_SLOW, "client too slow: resume from last version"),
                timeout=2.0,
            )

    async def _run(self) -> None:
        while True:
            delivery = await self.inbox.get()
            async with self._lock:
                await self._forward(delivery)

    async def _forward(self, delivery: Delivery) -> None:
        if delivery.game_id == QUEUED_FRAME and delivery.payload is not None:
            await self.outbox.send_raw(delivery.payload)
            return
        if delivery.game_id.startswith(RACE_PREFIX):
            await self._forward_race(delivery)
            return
        sub = self.subscriptions.get(delivery.game_id)
        if sub is None or (delivery.payload is not None and delivery.version <= sub.last_version):
            return
        if delivery.payload is not None and delivery.version == sub.last_version + 1:
            await self.outbox.send_raw(delivery.payload)
            sub.last_version = delivery.version
            return
        await self._catch_up(delivery.game_id, sub)

    async def _forward_race(self, delivery: Delivery) -> None:
        race_id = delivery.game_id.removeprefix(RACE_PREFIX)
        if race_id not in self.race_watches:
            return
        if delivery.payload is not None:
            if delivery.version > 0:  # (0: a message that is not stored, e.g. progress)
                if delivery.version <= self.race_versions.get(race_id, 0):
                    return
                self.race_versions[race_id] = delivery.version
            await self.outbox.send_raw(delivery.payload)
            return
        try:
            message, version = await self.races.watch(race_id, self.race_watches[race_id])
        except ServiceError as exc:
            await self.outbox.error(exc.code, exc.message, race_id=race_id)
            return
        self.race_versions[race_id] = version
        await self.outbox.send(message)

    # ------------------------------------------------------------------ catching up

    async def _catch_up(self, game_id: str, sub: Subscription) -> None:
        result = await self.pages.read(game_id, sub.last_version, sub.token)
        if result is not None:
            await self._send_pages(game_id, sub, result)

    async def _send_pages(self, game_id: str, sub: Subscription, result: dict[str, Any]) -> None:
        """Sends a catch-up, then each page after it, read once the previous one is sent:
        a long resume never holds the event loop for more than one page."""
        while True:
            await self.pages.send(game_id, result)
            if not result.get("more"):
                sub.last_version = result["version"]
                return
            sub.last_version = result["next_since"]
            await asyncio.sleep(0)
            next_page = await self.pages.read(game_id, sub.last_version, sub.token)
            if next_page is None:
                return
            result = next_page

    # ------------------------------------------------------------------ acting

    async def act_in_order(
        self,
        sub: Subscription,
        game_id: str,
        action: engine.Action,
        expected_version: int | None,
        request_id: str,
    ) -> None:
        """Commits a player's action and sends its result, with the change in it when that
        change is the next one this connection is due; otherwise (changes made elsewhere
        not forwarded yet) the change goes out after those, as a frame.

        The pump waits while the action is committed: its change, which can come back
        through pub/sub before the commit's own reply, must not overtake the result that
        carries it, and is skipped by its version once the result went out.
        """
        async with self._lock:
            with self.hold(game_id) as held:
                applied = await self.games.act(
                    game_id, sub.token, action, expected_version, request_id
                )
                result = accepted(request_id, game_id, applied)
                if applied.change_json is not None and sub.last_version == applied.version - 1:
                    # Already serialized for the commit: embedded as it is.
                    result["change"] = orjson.Fragment(applied.change_json)
                    sub.last_version = held.carried = applied.version
            await self.outbox.send(result)

    # ------------------------------------------------------------------ following

    def subscription(self, game_id: str) -> Subscription | None:
        return self.subscriptions.get(game_id)

    def race_token(self, race_id: str) -> str | None:
        """The race token ``race_id`` is watched with; None for a spectator, or for a
        race this connection does not watch."""
        return self.race_watches.get(race_id)

    async def subscribe(self, message: SubscribeMessage) -> None:
        game_id = message.game_id
        if game_id not in self.subscriptions:
            self._check_room()
        async with self._lock:
            # Listen first, then read: a change committed in between is then either in
            # the snapshot or delivered after it, never lost.
            await self.games.store.subscribe(game_id, self)
            try:
                role, stored = await self.games.role(game_id, message.token)
                if message.since is not None:
                    await self.pages.wait_for_page()
                    result = await self.games.changes_since(game_id, message.since, message.token)
                else:
                    state = engine.deserialize(stored.state).public_view()
                    result = {"version": stored.version, "recovered": False, "state": state}
            except ServiceError:
                if game_id not in self.subscriptions:
                    await self.games.store.unsubscribe(game_id, self)
                raise
            version = result["version"]
            sub = self.subscriptions[game_id] = Subscription(role, message.token, version)
            await self.outbox.send(
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

    async def unsubscribe(self, game_id: str) -> None:
        if self.subscriptions.pop(game_id, None) is None:
            raise ServiceError(ErrorCode.NOT_SUBSCRIBED, 409, "not subscribed to this game")
        await self.games.store.unsubscribe(game_id, self)

    def _check_room(self) -> None:
        if len(self.subscriptions) + len(self.race_watches) >= self.settings.max_subscriptions:
            raise ServiceError(
                ErrorCode.TOO_MANY_SUBSCRIPTIONS,
                429,
                f"at most {self.settings.max_subscriptions} games and races per connection",
            )

    async def watch_race(self, message: WatchRaceMessage) -> None:
        race_id = message.race_id
        if race_id not in self.race_watches:
            self._check_room()
        async with self._lock:
            await self.games.store.subscribe(race_topic(race_id), self)
            try:
                snapshot, version = await self.races.watch(race_id, message.token)
            except ServiceError:
                if race_id not in self.race_watches:
                    await self.games.store.unsubscribe(race_topic(race_id), self)
                raise
            self.race_watches[race_id] = message.token
            self.race_versions[race_id] = version
            await self.outbox.send({**snapshot, "id": message.id})
        if message.token is not None:
            await self.races.set_connected(race_id, message.token, True)

    async def unwatch_race(self, race_id: str) -> None:
        if race_id not in self.race_watches:
            raise ServiceError(ErrorCode.NOT_SUBSCRIBED, 409, "not watching this race")
        await self._stop_watching(race_id)

    async def _stop_watching(self, race_id: str) -> None:
        token = self.race_watches.pop(race_id, None)
        self.race_versions.pop(race_id, None)
        await self.games.store.unsubscribe(race_topic(race_id), self)
        if token is not None:
            try:
                await self.races.set_connected(race_id, token, False)
            except ServiceError as exc:
                log.info("could not mark a race player disconnected: %s", exc.message)
