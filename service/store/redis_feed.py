"""The change feed of the Redis store: one pub/sub connection per instance, on which it
hears the changes of every game and race its clients watch, whichever instance made them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError

from . import Delivery
from .redis_layout import channel, game_of_channel

log = logging.getLogger("service.store.redis")

_RETRY_CAP = 5.0


class ChangeFeed:
    """Subscribes to topics and hands each message to ``deliver``, in order.

    When the connection is lost it reconnects with backoff, subscribes to ``topics()``
    again and calls ``resync``: what was published meanwhile is in each game's log.
    """

    def __init__(
        self,
        client: aioredis.Redis | RedisCluster,
        deliver: Callable[[Delivery], None],
        topics: Callable[[], list[str]],
        resync: Callable[[], None],
        connect_now: bool = True,
    ) -> None:
        self._deliver = deliver
        self._topics = topics
        self._resync = resync
        # The cluster client picks its node at the first subscribe.
        self._connect_now = connect_now
        self._pubsub: PubSub = client.pubsub(ignore_subscribe_messages=True)
        self._subscribed = asyncio.Event()
        # One pub/sub connection: concurrent first subscriptions must not each open one.
        self._lock = asyncio.Lock()
        self._reader: asyncio.Task[None] | None = None

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
        try:
            async with self._lock:
                await self._pubsub.subscribe(channel(topic))
        except (RedisError, OSError) as exc:
            # The reader re-subscribes every channel once Redis is back.
            log.warning("subscribe failed, will retry: %s", exc)
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
        delay = 0.1
        while True:
            await self._subscribed.wait()
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
                log.warning("change feed lost (%s); retrying in %.1fs", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, _RETRY_CAP)
                await self._resubscribe()
                continue
            except RuntimeError:
                # No channel was ever subscribed on this connection yet.
                await asyncio.sleep(0.05)
                continue
            delay = 0.1
            # Subscription confirmations and health-check pongs are not changes.
            if isinstance(reply, list) and len(reply) == 3 and reply[0] == b"message":
                version, _, payload = reply[2].partition(b"\n")
                self._deliver(Delivery(game_of_channel(reply[1]), int(version), payload))

    async def _resubscribe(self) -> None:
        channels = [channel(topic) for topic in self._topics()]
        try:
            if channels:
                async with self._lock:
                    await self._pubsub.subscribe(*channels)
        except (RedisError, OSError):
            return
        # Whatever was published while the feed was down is in each game's log.
        self._resync()
