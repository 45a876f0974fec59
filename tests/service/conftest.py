"""Fixtures of the service's store tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis


@pytest.fixture
def db(clean_redis: str) -> Iterator[redis.Redis]:
    """A plain client of the tests' Redis database, emptied first."""
    client = redis.Redis.from_url(clean_redis)
    try:
        yield client
    finally:
        client.close()
