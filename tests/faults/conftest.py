"""A private Redis, and the fault proxy in front of it, for each test process; and a
store of each kind the primitives are proved on: memory, Redis, and Redis behind the
proxy losing the first reply of every write."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import redis

from service.config import Settings
from service.store import Store, open_store
from tests.faults.proxy import FaultPlan, FaultProxy
from tests.support import RedisServer

KINDS = ["memory", "redis", "redis losing every first reply"]


@pytest.fixture(scope="session")
def fault_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A Redis of the fault tests' own: each run flushes it, scripts included."""
    server = RedisServer(tmp_path_factory.mktemp("faults-redis"))
    server.start("--appendonly", "no")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def proxy(fault_redis: RedisServer) -> Iterator[FaultProxy]:
    faulty = FaultProxy("127.0.0.1", fault_redis.port)
    faulty.start()
    try:
        yield faulty
    finally:
        faulty.stop()


@pytest.fixture(params=KINDS)
async def store(
    request: pytest.FixtureRequest, proxy: FaultProxy, fault_redis: RedisServer
) -> AsyncIterator[Store]:
    url = "memory://"
    if request.param != "memory":
        db = redis.Redis.from_url(fault_redis.url)
        db.flushall()
        db.close()
        url = fault_redis.url
    if request.param == "redis losing every first reply":
        proxy.plan = FaultPlan(first_sends=True)
        url = proxy.url
    opened = open_store(Settings(store_url=url))
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()
        lost = proxy.plan.lost
        proxy.plan = FaultPlan()
    if request.param == "redis losing every first reply":
        assert lost, "no reply was lost"
