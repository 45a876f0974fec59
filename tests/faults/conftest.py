"""A private Redis, and the fault proxy in front of it, for each test process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.faults.proxy import FaultProxy
from tests.support import RedisServer


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
