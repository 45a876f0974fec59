"""Shared fixtures: a real Redis server and service clients on both store backends.

Under pytest-xdist (``make test`` runs ``pytest -n``) every worker has its own session
fixtures, so each starts its own private redis-server on a free port. A shared server
given by ``TEST_REDIS_URL`` is split instead: worker ``gwN`` uses database N of it.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis

from service.config import Settings
from service.store import Store, open_store
from tests.support import CheckedClient, RedisServer, service_client


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real Redis: TEST_REDIS_URL if set, else a private redis-server for the session."""
    if os.environ.get("TEST_REDIS_URL"):
        yield worker_database(os.environ["TEST_REDIS_URL"])
        return
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start("--appendonly", "no")
    try:
        yield server.url
    finally:
        server.stop()


def worker_database(url: str) -> str:
    """``url`` with the database of this xdist worker (the URL's own when not under xdist),
    so that workers flushing their database never wipe each other's keys."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker:
        return url
    index = int(worker.removeprefix("gw"))
    if index > 15:
        pytest.fail("TEST_REDIS_URL gives each xdist worker a database: use at most 16 workers")
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{index}"))


@pytest.fixture
def clean_redis(redis_url: str) -> str:
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    client.close()
    return redis_url


@pytest.fixture(params=["memory", "redis"])
def store_url(request: pytest.FixtureRequest) -> str:
    """Runs a test against both backends."""
    if request.param == "memory":
        return "memory://"
    url: str = request.getfixturevalue("clean_redis")
    return url


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[Store]:
    """The store itself, opened, on each backend (memory, then real Redis)."""
    opened = open_store(Settings(store_url=store_url))
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def client(store_url: str) -> Iterator[CheckedClient]:
    """A service client on each backend (memory, then real Redis)."""
    with service_client(store_url) as test_client:
        yield test_client


@pytest.fixture
def memory_client() -> Iterator[CheckedClient]:
    with service_client() as test_client:
        yield test_client
