"""The store's connections pack commands in C, to the same bytes as redis-py."""

from __future__ import annotations

from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.exceptions import DataError

from service.config import Settings
from service.store.redis import RedisStore
from service.store.redis_batches import PackedInC

COMMANDS: list[tuple[Any, ...]] = [
    ("PING",),
    ("HGETALL", "sol:{abc}:g"),
    ("EVALSHA", "0" * 40, 2, "k1", "k2", 7, "DS 1N é", b"\x00\xff binary", -3, 0),
    ("SCRIPT LOAD", "return 1"),
    ("PUBLISH", "sol:{abc}:ch", bytearray(b"1\n{}")),
    ("SET", "k", memoryview(b"view")),
    ("SET", "k", "x" * 100_000),
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: str(c[0]))
def test_the_bytes_are_redis_pys(command: tuple[Any, ...]) -> None:
    ours = b"".join(PackedInC().pack_command(*command))
    theirs = b"".join(bytes(chunk) for chunk in aioredis.Connection().pack_command(*command))
    assert ours == theirs


@pytest.mark.parametrize("value", [None, True, object()])
def test_values_redis_cannot_take_are_refused_before_sending(value: object) -> None:
    with pytest.raises(DataError) as refused:
        PackedInC().pack_command("SET", "k", "a secret state", value)
    # The error reaches the log: it names the kinds of values, never the values.
    assert "a secret state" not in str(refused.value)
    assert type(value).__name__ in str(refused.value)


async def test_the_store_uses_it_and_round_trips_through_redis(clean_redis: str) -> None:
    store = RedisStore(Settings(store_url=clean_redis))
    await store.open()
    try:
        assert store._redis.connection_pool.connection_class is PackedInC  # type: ignore[union-attr]
        assert await store._redis.set("packed", "é" * 3) is True
        assert await store._redis.get("packed") == "ééé".encode()
    finally:
        await store.close()
