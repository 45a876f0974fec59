"""A commit publishes only when another instance watches the game, and every watcher, on
every instance, still gets every change once and in order."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError

from service.config import Settings
from service.store import CommitStatus, Delivery, StoredGame, race_topic
from service.store.redis import RedisStore
from service.store.redis_layout import channel, watchers_key


class Collector:
    def __init__(self) -> None:
        self.got: list[Delivery] = []

    def deliver(self, delivery: Delivery) -> None:
        self.got.append(delivery)

    def versions(self) -> list[int]:
        return [d.version for d in self.got]


async def wait_for(condition: Any, seconds: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


@pytest.fixture
async def instances(clean_redis: str) -> AsyncIterator[tuple[RedisStore, RedisStore]]:
    """Two instances of the service's store on one Redis."""
    first = RedisStore(Settings(store_url=clean_redis))
    second = RedisStore(Settings(store_url=clean_redis))
    await first.open()
    await second.open()
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


@pytest.fixture
async def admin(clean_redis: str) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.Redis.from_url(clean_redis)
    try:
        yield client
    finally:
        await client.aclose()


async def create(store: RedisStore, game_id: str) -> None:
    await store.create(StoredGame(game_id, 0, "state-0", "hash", "DS 1N 1"))


async def commit(store: RedisStore, game_id: str, version: int, request_id: str = "") -> Any:
    return await store.commit(
        game_id,
        version,
        f"state-{version + 1}",
        "d",
        request_id or f"r{version}",
        False,
        b'{"version": %d}' % (version + 1),
        "d",
    )


async def published_while(admin: aioredis.Redis, game_id: str, action: Any) -> list[bytes]:
    """What a plain subscriber (not an instance: it is in no watchers hash) hears."""
    pubsub = admin.pubsub()
    await pubsub.subscribe(channel(game_id))
    try:
        await action()
        # A PING on the same connection comes back behind anything published before it.
        await pubsub.ping(b"end")
        heard: list[bytes] = []
        while True:
            message = await pubsub.get_message(timeout=2.0)
            assert message is not None, "no pong"
            if message["type"] == "pong" or message["data"] == b"end":
                return heard
            if message["type"] == "message":
                heard.append(message["data"])
    finally:
        await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # unannotated before redis-py 8.2


async def watching_again(
    instances: tuple[RedisStore, RedisStore], admin: aioredis.Redis, watcher: Collector
) -> None:
    """The second instance resynchronised its watcher of "g1", is named in the game's
    watchers hash again, and hears the first instance's next commit."""
    first, second = instances
    await wait_for(lambda: Delivery("g1", -1, None) in watcher.got)
    assert await admin.hexists(watchers_key("g1"), second._watchers.instance_id)
    await commit(first, "g1", 0)
    await wait_for(lambda: 1 in watcher.versions())


async def test_a_game_watched_on_its_own_instance_only_is_not_published(
    instances: tuple[RedisStore, RedisStore], admin: aioredis.Redis
) -> None:
    first, _ = instances
    await create(first, "g1")
    watcher = Collector()
    await first.subscribe("g1", watcher)
    assert await admin.hgetall(watchers_key("g1")) == {first._watchers.instance_id.encode(): b"1"}
    heard = await published_while(admin, "g1", lambda: commit(first, "g1", 0))
    assert heard == []
    assert watcher.versions() == [1]


async def test_a_game_watched_on_another_instance_is_published_to_it(
    instances: tuple[RedisStore, RedisStore], admin: aioredis.Redis
) -> None:
    first, second = instances
    await create(first, "g1")
    here, there = Collector(), Collector()
    await first.subscribe("g1", here)
    await second.subscribe("g1", there)

    async def play() -> None:
        for version in range(5):
            await commit(first if version % 2 else second, "g1", version)

    heard = await published_while(admin, "g1", play)
    assert len(heard) == 5
    await wait_for(lambda: len(here.got) == 5 and len(there.got) == 5)
    await asyncio.sleep(0.1)  # nothing more comes: no change twice
    assert here.versions() == there.versions() == [1, 2, 3, 4, 5]


async def test_a_game_nobody_watches_is_not_published(
    instances: tuple[RedisStore, RedisStore], admin: aioredis.Redis
) -> None:
    first, second = instances
    await create(first, "g1")
    watcher = Collector()
    await second.subscribe("g1", watcher)
    await second.unsubscribe("g1", watcher)
    assert await admin.exists(watchers_key("g1")) == 0
    assert await published_while(admin, "g1", lambda: commit(first, "g1", 0)) == []


async def test_the_entry_follows_the_last_of_overlapping_subscribes_and_unsubscribes(
    instances: tuple[RedisStore, RedisStore], admin: aioredis.Redis
) -> None:
    first, second = instances
    await create(first, "g1")
    watchers = [Collector() for _ in range(6)]
    for round_ in range(10):
        await asyncio.gather(
            *(first.subscribe("g1", w) for w in watchers[:3]),
            *(first.unsubscribe("g1", w) for w in watchers[:3]),
        )
        await first.subscribe("g1", watchers[3])
        await asyncio.gather(
            first.unsubscribe("g1", watchers[3]), first.subscribe("g1", watchers[4])
        )
        watched = "g1" in first._local
        entry = await admin.hexists(watchers_key("g1"), first._watchers.instance_id)
        assert bool(entry) == watched, round_
        await first.unsubscribe("g1", watchers[4])
    assert await admin.exists(watchers_key("g1")) == 0
    # And a watcher there still hears commits from elsewhere.
    await first.subscribe("g1", watchers[5])
    await commit(second, "g1", 0)
    await wait_for(lambda: watchers[5].versions() == [1])


async def test_a_duplicate_commit_resynchronises_the_local_watchers(
    instances: tuple[RedisStore, RedisStore],
) -> None:
    """A retried commit whose first try was applied (its reply lost) reports a duplicate:
    that change reached no watcher of this instance, which must read the log."""
    first, _ = instances
    await create(first, "g1")
    watcher = Collector()
    await first.subscribe("g1", watcher)
    assert (await commit(first, "g1", 0, "same")).status is CommitStatus.APPLIED
    assert (await commit(first, "g1", 0, "same")).status is CommitStatus.DUPLICATE
    assert watcher.got[-1] == Delivery("g1", -1, None)


async def test_an_entry_lost_in_redis_is_written_again_when_the_feed_reconnects(
    instances: tuple[RedisStore, RedisStore], admin: aioredis.Redis
) -> None:
    first, second = instances
    await create(first, "g1")
    watcher = Collector()
    await second.subscribe("g1", watcher)
    await admin.delete(watchers_key("g1"))  # as a failover to a stale replica might
    killed = await admin.client_kill_filter(_type="pubsub")
    assert killed >= 1
    await watching_again(instances, admin, watcher)


async def test_a_failed_entry_write_has_the_feed_write_it_again_and_resync(
    instances: tuple[RedisStore, RedisStore], admin: aioredis.Redis
) -> None:
    first, second = instances
    await create(first, "g1")
    watchers = second._watchers
    real_run = watchers._run
    failures = 0

    async def failing_once(*commands: tuple[Any, ...]) -> list[Any]:
        nonlocal failures
        if failures == 0 and commands[0][0] == "HSET":
            failures += 1
            raise RedisConnectionError("lost")
        return await real_run(*commands)

    watchers._run = failing_once  # type: ignore[assignment]
    watcher = Collector()
    await second.subscribe("g1", watcher)
    assert failures == 1
    await watching_again(instances, admin, watcher)


async def test_races_have_no_watchers_hash(
    instances: tuple[RedisStore, RedisStore], admin: aioredis.Redis
) -> None:
    first, _ = instances
    await first.subscribe(race_topic("r1"), Collector())
    assert await admin.keys("*:w") == []


async def test_a_lower_version_made_elsewhere_is_handed_out_after_a_higher_one(
    instances: tuple[RedisStore, RedisStore],
) -> None:
    """Its own commit v5 reaches an instance's watchers before v4, made on another
    instance, comes through pub/sub: v4 is still handed out, and each version once."""
    first, _ = instances
    watcher = Collector()
    await first.subscribe("g1", watcher)
    for version in (5, 4, 5, 4, 6):
        first._dispatch(Delivery("g1", version, b"{}"))
    assert watcher.versions() == [5, 4, 6]
