"""The Redis change feed: a subscription is in place when ``listen`` returns, and a lost
connection is subscribed again before the subscribers are resynchronised: to what is
watched then and nothing else, after an error or a silence alike, and without a word
while nothing is watched."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from service.store import Delivery
from service.store.redis_feed import ChangeFeed
from service.store.redis_layout import channel
from tests.support import RedisServer


async def wait_for(condition: object, seconds: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():  # type: ignore[operator]
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


async def _nothing(topics: list[str]) -> None:
    return None


@contextlib.asynccontextmanager
async def running(feed: ChangeFeed, *clients: aioredis.Redis) -> AsyncIterator[ChangeFeed]:
    """The feed, opened; closed at the end with the clients the test made."""
    await feed.open()
    try:
        yield feed
    finally:
        await feed.close()
        for client in clients:
            await client.aclose()


def named_client(url: str) -> tuple[aioredis.Redis, str]:
    """A client whose connections carry a name of their own, and that name."""
    name = f"feed-{secrets.token_hex(4)}"
    return aioredis.Redis.from_url(url, client_name=name), name


async def cut_feed(admin: aioredis.Redis, name: str) -> None:
    """Cuts the feed's pub/sub connection (its client's, by name): another test's
    connection closing just then is left alone."""
    ids = [c["id"] for c in await admin.client_list(_type="pubsub") if c["name"] == name]
    assert len(ids) == 1, ids
    assert await admin.client_kill_filter(_id=ids[0]) == 1


async def hands_on(admin: aioredis.Redis, got: list[Delivery], topic: str, version: int) -> None:
    """Publishes a change of ``topic`` as another instance would; the feed hands it on."""
    payload = b"change %d" % version
    await admin.publish(channel(topic), b"%d\n%s" % (version, payload))
    await wait_for(lambda: Delivery(topic, version, payload) in got)


async def test_listen_returns_once_redis_has_the_subscription(clean_redis: str) -> None:
    client = aioredis.Redis.from_url(clean_redis)
    admin = aioredis.Redis.from_url(clean_redis)
    got: list[Delivery] = []
    topics = [f"game-{n}" for n in range(40)]
    feed = ChangeFeed(client, got.append, lambda: topics, lambda: None, rewatch=_nothing)
    await feed.open()
    try:
        for topic in topics:
            await feed.listen(topic)
            # Asked on another connection straight away: a read of the game's log made
            # now could not miss a change that the subscription would not hear.
            [(_, count)] = await admin.pubsub_numsub(channel(topic))
            assert count == 1, topic
        await admin.publish(channel("game-7"), b"3\n{}")
        await wait_for(lambda: got)
        assert got == [Delivery("game-7", 3, b"{}")]
    finally:
        await feed.close()
        await client.aclose()
        await admin.aclose()


async def test_a_lost_feed_resubscribes_then_resynchronises(clean_redis: str) -> None:
    client, name = named_client(clean_redis)
    admin = aioredis.Redis.from_url(clean_redis)
    got: list[Delivery] = []
    numsub_at_resync: list[asyncio.Task[object]] = []
    rewatched: list[list[str]] = []
    rewatched_at_resync: list[int] = []

    async def rewatch(topics: list[str]) -> None:
        rewatched.append(topics)

    async def numsub() -> object:
        return await admin.pubsub_numsub(channel("game-1"))

    def resync() -> None:
        # Called once the pong behind the new subscriptions came back: by then Redis has
        # them, which a query sent now on another connection sees.
        numsub_at_resync.append(asyncio.create_task(numsub()))
        rewatched_at_resync.append(len(rewatched))

    feed = ChangeFeed(client, got.append, lambda: ["game-1"], resync, rewatch)
    await feed.open()
    try:
        await feed.listen("game-1")
        await cut_feed(admin, name)
        await wait_for(lambda: numsub_at_resync)
        assert await numsub_at_resync[0] == [(channel("game-1").encode(), 1)]
        assert (feed.up, feed.losses) == (True, 1)
        await admin.publish(channel("game-1"), b"5\nafter")
        await wait_for(lambda: got)
        assert got == [Delivery("game-1", 5, b"after")]
        assert len(numsub_at_resync) == 1
        # The watchers hashes were written again (by each attempt to subscribe again)
        # before the logs were read.
        assert rewatched and all(topics == ["game-1"] for topics in rewatched)
        assert rewatched_at_resync == [len(rewatched)]
    finally:
        await feed.close()
        await client.aclose()
        await admin.aclose()


async def test_a_recovery_asked_for_rewatches_then_resynchronises(clean_redis: str) -> None:
    client = aioredis.Redis.from_url(clean_redis)
    events: list[str] = []

    async def rewatch(topics: list[str]) -> None:
        events.append(f"rewatch {','.join(topics)}")

    feed = ChangeFeed(
        client,
        list[Delivery]().append,
        lambda: ["game-1"],
        lambda: events.append("resync"),
        rewatch,
    )
    await feed.open()
    try:
        await feed.listen("game-1")
        assert events == []
        feed.recover_soon()
        await wait_for(lambda: "resync" in events)
        assert events == ["rewatch game-1", "resync"]
    finally:
        await feed.close()
        await client.aclose()


async def test_a_lost_feed_subscribes_again_only_to_what_is_still_watched(
    clean_redis: str,
) -> None:
    client, name = named_client(clean_redis)
    admin = aioredis.Redis.from_url(clean_redis)
    prefix = secrets.token_hex(4)
    watched: set[str] = set()
    resyncs: list[int] = []
    feed = ChangeFeed(
        client,
        list[Delivery]().append,
        lambda: sorted(watched),
        lambda: resyncs.append(1),
        _nothing,
    )
    async with running(feed, client, admin):
        for n in range(30):
            topic = f"{prefix}-{n}"
            watched.add(topic)
            await feed.listen(topic)
        for n in range(1, 30):
            topic = f"{prefix}-{n}"
            watched.discard(topic)
            await feed.unlisten(topic)
        assert await admin.pubsub_channels(f"*{prefix}*") == [channel(f"{prefix}-0").encode()]

        await cut_feed(admin, name)
        await wait_for(lambda: resyncs)
        # The 29 games left before the connection was lost are not heard again.
        assert await admin.pubsub_channels(f"*{prefix}*") == [channel(f"{prefix}-0").encode()]


class FreezingProxy:
    """A TCP relay to Redis whose open connections can be frozen: nothing goes either way
    and nothing is closed, as when a network link drops without a word."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.frozen = asyncio.Event()
        self.connections = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: asyncio.Server | None = None

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        # Connections made after a freeze relay again.
        frozen = asyncio.Event()
        if not self.frozen.is_set():
            task = asyncio.create_task(self._pass_on(self.frozen, frozen))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.port)
        await asyncio.gather(
            self._pipe(reader, upstream_writer, frozen),
            self._pipe(upstream_reader, writer, frozen),
            return_exceptions=True,
        )
        writer.close()
        upstream_writer.close()

    @staticmethod
    async def _pass_on(source: asyncio.Event, target: asyncio.Event) -> None:
        await source.wait()
        target.set()

    @staticmethod
    async def _pipe(
        reader: asyncio.StreamReader, writer: asyncio.StreamWriter, frozen: asyncio.Event
    ) -> None:
        while data := await reader.read(65536):
            if frozen.is_set():
                await asyncio.Event().wait()  # hold everything, close nothing
            writer.write(data)
            await writer.drain()


@contextlib.asynccontextmanager
async def relayed(redis_url: str) -> AsyncIterator[tuple[FreezingProxy, str]]:
    upstream = aioredis.Redis.from_url(redis_url)
    kwargs = upstream.connection_pool.connection_kwargs
    await upstream.aclose()
    proxy = FreezingProxy(int(kwargs["port"]))
    port = await proxy.start()
    try:
        yield proxy, f"redis://127.0.0.1:{port}/{kwargs.get('db', 0)}"
    finally:
        await proxy.close()


async def test_a_feed_whose_connection_falls_silent_connects_again(clean_redis: str) -> None:
    admin = aioredis.Redis.from_url(clean_redis)
    got: list[Delivery] = []
    resyncs: list[int] = []
    async with relayed(clean_redis) as (proxy, url):
        client = aioredis.Redis.from_url(url)
        feed = ChangeFeed(
            client,
            got.append,
            lambda: ["game-1"],
            lambda: resyncs.append(1),
            _nothing,
            health_seconds=0.3,
        )
        async with running(feed, client, admin):
            await feed.listen("game-1")
            proxy.frozen.set()
            proxy.frozen = asyncio.Event()  # what connects from now on relays
            await admin.publish(channel("game-1"), b"2\nlost in the silence")
            # Quiet for 0.3 s, a PING, 0.3 s more without its pong: taken for lost.
            await wait_for(lambda: resyncs, seconds=10)
            assert (feed.up, feed.losses) == (True, 1)
            assert proxy.connections >= 2
            await hands_on(admin, got, "game-1", 3)


async def test_a_quiet_feed_on_a_sound_connection_is_not_taken_for_lost(clean_redis: str) -> None:
    client = aioredis.Redis.from_url(clean_redis)
    admin = aioredis.Redis.from_url(clean_redis)
    got: list[Delivery] = []
    feed = ChangeFeed(
        client, got.append, lambda: ["game-1"], lambda: None, _nothing, health_seconds=0.2
    )
    async with running(feed, client, admin):
        await feed.listen("game-1")
        # The feed looks at its health each second without a reply: over 3.5 s, PINGs go
        # out and their answers come back more than once.
        await asyncio.sleep(3.5)
        assert (feed.up, feed.losses) == (True, 0)
        await hands_on(admin, got, "game-1", 1)


async def test_with_nothing_watched_a_lost_feed_waits_quietly_for_the_next_listen(
    clean_redis: str, caplog: pytest.LogCaptureFixture
) -> None:
    client, name = named_client(clean_redis)
    admin = aioredis.Redis.from_url(clean_redis)
    watched: set[str] = set()
    got: list[Delivery] = []
    feed = ChangeFeed(client, got.append, lambda: sorted(watched), lambda: None, _nothing)
    async with running(feed, client, admin):
        watched.add("game-1")
        await feed.listen("game-1")
        watched.clear()
        await feed.unlisten("game-1")
        with caplog.at_level(logging.WARNING, logger="service.store.redis"):
            # No longer a pub/sub client (it left its one channel): found by its name.
            [feed_id] = [c["id"] for c in await admin.client_list() if c["name"] == name]
            assert await admin.client_kill_filter(_id=feed_id) == 1
            await asyncio.sleep(1.5)
        # One line for the loss, not one every tenth of a second while nothing is watched.
        assert len(caplog.records) <= 2, [r.getMessage() for r in caplog.records]

        watched.add("game-2")
        await feed.listen("game-2")
        await hands_on(admin, got, "game-2", 4)


async def test_a_subscription_asked_for_while_redis_is_down_is_made_once_it_is_back(
    tmp_path: Path,
) -> None:
    server = RedisServer(tmp_path)
    server.start()
    client = aioredis.Redis.from_url(server.url)
    admin = aioredis.Redis.from_url(server.url)
    got: list[Delivery] = []
    resyncs: list[int] = []
    feed = ChangeFeed(client, got.append, lambda: ["game-1"], lambda: resyncs.append(1), _nothing)
    server.stop()
    try:
        async with running(feed, client, admin):
            await feed.listen("game-1")  # returns at once, Redis being down
            await asyncio.sleep(0.5)
            assert not feed.up
            server.start()
            await wait_for(lambda: resyncs, seconds=10)
            assert feed.up
            assert await admin.pubsub_numsub(channel("game-1")) == [(channel("game-1").encode(), 1)]
            await hands_on(admin, got, "game-1", 1)
    finally:
        server.stop()
