"""Seeks left waiting in Redis by a test of quick pairing are flushed after it: this
process's Redis is also the store of the service the SDK's tests share, whose waves
would pair them with the players of those tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis


@pytest.fixture(autouse=True)
def no_seeks_left(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    if "clean_redis" in request.fixturenames:
        client = redis.Redis.from_url(request.getfixturevalue("redis_url"))
        client.flushdb()
        client.close()
