"""The change feed of the Redis store: one pub/sub connection per instance, on which it
hears the changes of every game and race its clients watch, whichever instance made them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from ..support.tasks import cancel_and_wait
from .base import Delivery
from .redis_layout import channel, game_of_channel

log = logging.getLogger("service.store.redis")

_RETRY_CAP = 5.0
# How long a new subscription waits for Redis to confirm it before going on regardless.
_CONFIRM_SECONDS = 2.0
# The PING sent after subscribing again: its pong, read in order behind the subscriptions'
# confirmations, says they are in place and the logs can be read.
_RESYNC_PING = b"resync"
# The PING sent after this long without a reply; as long again without one, and the
# connection is taken for lost.
_HEALTH_PING = b"health"
_HEALTH_SECONDS = 10.0


class ChangeFeed:
    """Subscribes to topics and hands each message to ``deliver``, in order.

    When the connection is lost it reconnects with backoff, subscribes to ``topics()``
    again, has ``rewatch`` write them into their watchers hashes again, and calls
    ``resync``: what was published meanwhile is in each game's log.

    Redis does not answer SUBSCRIBE before it takes the next command, and it reads each
    connection on its own: a read of a game's log on another connection may run before the
    subscription, and a change committed in between would reach neither. So a
    subscription counts from its confirmation, which a PING behind it brings back in
    order: ``listen`` returns, and ``resync`` is called, only once that pong is read.

    The reader is the only one to read the connection. It takes the place of redis-py's
    message handler, so it keeps the pub/sub object's record of channels as that handler
    would (redis-py subscribes to all of them again whenever it reconnects), and it checks
    the connection's health itself: the client's own check reads the reply of its PING,
    which would race the reader. A connection silent for ``health_seconds`` gets a PING;
    one that stays silent for as long again is taken for lost, as a dropped link that no
    error reports would otherwise never be.
    """

    def __init__(
        self,
        client: aioredis.Redis | RedisCluster,
        deliver: Callable[[Delivery], None],
        topics: Callable[[], list[str]],
        resync: Callable[[], None],
        rewatch: Callable[[list[str]], Awaitable[None]],
        connect_now: bool = True,
        health_seconds: float = _HEALTH_SECONDS,
    ) -> None:
        self._deliver = deliver
        self._topics = topics
        self._resync = resync
        self._rewatch = rewatch
        # The cluster client picks its node at the first subscribe.
        self._connect_now = connect_now
        self._health_seconds = health_seconds
        self._pubsub: PubSub = client.pubsub(ignore_subscribe_messages=True)
        # Set while there is something to read: cleared when the connection is lost with
        # nothing to watch, until the next ``listen``.
        self._subscribed = asyncio.Event()
        # One pub/sub connection: concurrent first subscriptions must not each open one.
        self._lock = asyncio.Lock()
        self._reader: asyncio.Task[None] | None = None
        self._pongs: dict[bytes, asyncio.Future[None]] = {}
        self._pings_sent = 0
        self._resync_pending = False
        self._recovery_asked = False
        self._heard_at = 0.0
        self._health_asked_at: float | None = None
        # False from a loss (or a failed subscribe) until every topic is subscribed again.
        self.up = True
        self.losses = 0

    async def open(self) -> None:
        if self._connect_now:
            with contextlib.suppress(RedisError, OSError):
                # Connected now; if Redis is down, the first subscribe (under the lock)
                # connects.
                await self._pubsub.connect()  # type: ignore[no-untyped-call]
        self._heard_at = asyncio.get_running_loop().time()
        self._reader = asyncio.create_task(self._read(), name="redis-changes")

    async def close(self) -> None:
        if self._reader is not None:
            await cancel_and_wait(self._reader)
        with contextlib.suppress(RedisError, OSError):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]

    async def listen(self, topic: str) -> None:
        """Subscribes to ``topic``; returns once Redis has the subscription (or after a
        bounded wait, or at once when Redis is down: the reader subscribes again and
        calls ``resync`` once it is back)."""
        self._pings_sent += 1
        token = b"listen-%d" % self._pings_sent
        confirmed = asyncio.get_running_loop().create_future()
        self._pongs[token] = confirmed
        try:
            async with self._lock:
                await self._pubsub.subscribe(channel(topic))
                await self._pubsub.ping(token)
        except (RedisError, OSError) as exc:
            log.warning("subscribe failed, will retry: %s", exc)
            self._pongs.pop(token, None)
            self.recover_soon()
            return
        self._subscribed.set()
        try:
            await asyncio.wait({confirmed}, timeout=_CONFIRM_SECONDS)
        finally:
            self._pongs.pop(token, None)
        if not confirmed.done():
            log.warning(
                "no confirmation of the subscription to %s within %ss", topic, _CONFIRM_SECONDS
            )

    def recover_soon(self) -> None:
        """Has the reader subscribe to every topic again and resync, as after a lost
        connection (within a second when no message comes)."""
        self.up = False
        self._recovery_asked = True
        self._subscribed.set()

    async def unlisten(self, topic: str) -> None:
        name = channel(topic)
        async with self._lock:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.unsubscribe(name)
            # Out of the record now, confirmed or not: a failed UNSUBSCRIBE means a lost
            # connection, which took the subscription with it.
            key = self._pubsub.encoder.encode(name)
            self._pubsub.channels.pop(key, None)
            self._pubsub.pending_unsubscribe_channels.discard(key)

    async def _read(self) -> None:
        """One reader for all of this instance's subscriptions, reconnecting with backoff.

        It reads the connection's replies itself instead of calling ``get_message``:
        that wrapper (a health check, a retry wrapper and a message dict per reply) cost
        about a tenth of the service's CPU per action, since every change comes back to
        the instance that made it.
        """
        while True:
            await self._subscribed.wait()
            if self._recovery_asked:
                self._recovery_asked = False
                await self._recover()
                continue
            try:
                reply = await self._next_reply()
            except Exception as exc:  # whatever broke the connection, the feed goes on
                log.warning("change feed lost (%s); subscribing again", exc)
                self.up = False
                self.losses += 1
                await self._drop_connection()
                await self._recover()
                continue
            if reply is None:
                continue
            try:
                self._take(reply)
            except Exception as exc:
                # Only this service publishes here; a message it cannot read is skipped
                # (not shown: it may hold a game's state) rather than end the feed.
                log.warning("change feed message skipped: %s", type(exc).__name__)

    async def _next_reply(self) -> Any:
        """The next reply, or None after a second without one."""
        connection = self._pubsub.connection
        if connection is None:
            raise RedisConnectionError("not connected")
        reply = await connection.read_response(
            timeout=1.0, disconnect_on_error=False, push_request=True
        )
        now = asyncio.get_running_loop().time()
        if reply is not None:
            self._heard_at = now
            self._health_asked_at = None
            return reply
        if self._health_asked_at is not None:
            if now - self._health_asked_at > self._health_seconds:
                raise RedisConnectionError(f"no answer from Redis in {now - self._heard_at:.0f}s")
        elif now - self._heard_at > self._health_seconds:
            await connection.send_command("PING", _HEALTH_PING, check_health=False)
            self._health_asked_at = now
        return None

    def _take(self, reply: Any) -> None:
        if isinstance(reply, list) and reply:
            if reply[0] == b"message" and len(reply) == 3:
                version, _, payload = reply[2].partition(b"\n")
                self._deliver(Delivery(game_of_channel(reply[1]), int(version), payload))
            elif reply[0] == b"pong" and len(reply) == 2:
                self._ponged(reply[1])
            # (Subscription confirmations need nothing.)
        elif isinstance(reply, bytes):
            # redis-py hands a pong on a subscribed connection back as its message.
            self._ponged(reply)

    def _ponged(self, token: bytes) -> None:
        if token == _RESYNC_PING:
            if self._resync_pending:
                self._resync_pending = False
                # Whatever was published while the feed was down is in each game's log.
                self._resync()
            return
        confirmed = self._pongs.pop(token, None)
        if confirmed is not None and not confirmed.done():
            confirmed.set_result(None)

    async def _drop_connection(self) -> None:
        """Closes the connection, so the next command connects again, and empties
        redis-py's record of its channels, which Redis dropped with it: redis-py
        subscribes again to what is on record as it reconnects, and ``_resubscribe``
        sends only what is still watched."""
        connection = self._pubsub.connection
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.disconnect(nowait=True)
        self._pubsub.channels.clear()
        self._pubsub.pending_unsubscribe_channels.clear()

    async def _recover(self) -> None:
        """Subscribes to every topic again, with backoff, until Redis has taken it.

        Until then nothing is read: redis-py may connect again on its own while a
        subscribe fails, and a connection that is back is not yet one whose subscriptions
        and missed changes were seen to. With nothing to watch the reader waits for the
        next ``listen``, which connects.
        """
        delay = 0.1
        while True:
            await asyncio.sleep(delay)
            try:
                if not await self._resubscribe():
                    self._subscribed.clear()
                self.up = True
                return
            except (RedisError, OSError) as exc:
                delay = min(delay * 2, _RETRY_CAP)
                log.warning("change feed still down (%s); retrying in %.1fs", exc, delay)

    async def _resubscribe(self) -> bool:
        """Whether there was anything to subscribe to."""
        topics = self._topics()
        if not topics:
            return False
        async with self._lock:
            await self._pubsub.subscribe(*[channel(topic) for topic in topics])
            # Before the resync reads the logs: from then on commits elsewhere publish.
            await self._rewatch(topics)
            await self._pubsub.ping(_RESYNC_PING)
        self._heard_at = asyncio.get_running_loop().time()
        self._health_asked_at = None
        # Resynchronised when the pong comes back, behind the confirmations.
        self._resync_pending = True
        return True
