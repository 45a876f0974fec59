"""The change feed of the Redis store: one pub/sub connection per instance, on which it
hears the changes of every game and race its clients watch, whichever instance made them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError

from . import Delivery
from .redis_layout import channel, game_of_channel

log = logging.getLogger("service.store.redis")

_RETRY_CAP = 5.0
# How long a new subscription waits for Redis to confirm it before going on regardless.
_CONFIRM_SECONDS = 2.0
# The PING sent after subscribing again: its pong, read in order behind the subscriptions'
# confirmations, says they are in place and the logs can be read.
_RESYNC_PING = b"resync"


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
    """

    def __init__(
        self,
        client: aioredis.Redis | RedisCluster,
        deliver: Callable[[Delivery], None],
        topics: Callable[[], list[str]],
        resync: Callable[[], None],
        rewatch: Callable[[list[str]], Awaitable[None]],
        connect_now: bool = True,
    ) -> None:
        self._deliver = deliver
        self._topics = topics
        self._resync = resync
        self._rewatch = rewatch
        # The cluster client picks its node at the first subscribe.
        self._connect_now = connect_now
        self._pubsub: PubSub = client.pubsub(ignore_subscribe_messages=True)
        self._subscribed = asyncio.Event()
        # One pub/sub connection: concurrent first subscriptions must not each open one.
        self._lock = asyncio.Lock()
        self._reader: asyncio.Task[None] | None = None
        self._pongs: dict[bytes, asyncio.Future[None]] = {}
        self._pings_sent = 0
        self._resync_pending = False
        self._recovery_asked = False

    async def open(self) -> None:
        if self._connect_now:
            with contextlib.suppress(RedisError, OSError):
                # Connected now; if Redis is down, the first subscribe (under the lock)
                # connects.
                await self._pubsub.connect()  # type: ignore[no-untyped-call]
        self._reader = asyncio.create_task(self._read(), name="redis-changes")

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        with contextlib.suppress(RedisError, OSError):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]

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
            self._subscribed.set()
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
        self._recovery_asked = True
        self._subscribed.set()

    async def unlisten(self, topic: str) -> None:
        with contextlib.suppress(RedisError, OSError):
            async with self._lock:
                await self._pubsub.unsubscribe(channel(topic))

    async def _read(self) -> None:
        """One reader for all of this instance's subscriptions, reconnecting with backoff.

        It reads the connection's replies itself instead of calling ``get_message``:
        that wrapper (a health check, a retry wrapper and a message dict per reply) cost
        about a tenth of the service's CPU per action, since every change comes back to
        the instance that made it. The health check runs when a second passes without a
        message, which is when it matters: traffic itself shows the connection is alive.
        """
        while True:
            await self._subscribed.wait()
            if self._recovery_asked:
                self._recovery_asked = False
                await self._recover()
                continue
            try:
                connection = self._pubsub.connection
                if connection is None:
                    raise RuntimeError("not connected yet")
                reply = await connection.read_response(
                    timeout=1.0, disconnect_on_error=False, push_request=True
                )
                if reply is None:
                    await self._pubsub.check_health()
                    continue
            except (RedisError, OSError) as exc:
                log.warning("change feed lost (%s); subscribing again", exc)
                await self._recover()
                continue
            except RuntimeError:
                # No channel was ever subscribed on this connection yet.
                await asyncio.sleep(0.05)
                continue
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

    async def _recover(self) -> None:
        """Subscribes to every topic again, with backoff, until Redis has taken it.

        Until then nothing is read: redis-py may connect again on its own while a
        subscribe fails, and a connection that is back is not yet one whose subscriptions
        and missed changes were seen to.
        """
        delay = 0.1
        while True:
            await asyncio.sleep(delay)
            try:
                await self._resubscribe()
                return
            except (RedisError, OSError) as exc:
                delay = min(delay * 2, _RETRY_CAP)
                log.warning("change feed still down (%s); retrying in %.1fs", exc, delay)

    async def _resubscribe(self) -> None:
        topics = self._topics()
        if not topics:
            return
        async with self._lock:
            await self._pubsub.subscribe(*[channel(topic) for topic in topics])
            # Before the resync reads the logs: from then on commits elsewhere publish.
            await self._rewatch(topics)
            await self._pubsub.ping(_RESYNC_PING)
        # Resynchronised when the pong comes back, behind the confirmations.
        self._resync_pending = True
