"""The arena tests' service: waves when a test runs one, on a clock the test moves."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.arenas.support import arena_service
from tests.races.race_support import Clock
from tests.support import CheckedClient


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(store_url: str, clock: Clock) -> Iterator[CheckedClient]:
    with arena_service(store_url, clock) as client:
        yield client
