"""The Redis change feed: a subscription is in place when ``listen`` returns, and a lost
connection is subscribed again before the subscribers are resynchronised."""

from __future__ import annotations

import asyncio

import redis.asyncio as aioredis

from service.store import Delivery
from service.store.redis_feed import ChangeFeed
from service.store.redis_layout import channel


async def wait_for(condition: object, seconds: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():  # type: ignore[operator]
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


async def _nothing(topics: list[str]) -> None:
    return None


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
    client = aioredis.Redis.from_url(clean_redis)
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
        assert await admin.client_kill_filter(_type="pubsub") == 1
        await wait_for(lambda: numsub_at_resync)
        assert await numsub_at_resync[0] == [(channel("game-1").encode(), 1)]
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
