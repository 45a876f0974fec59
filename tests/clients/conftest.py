"""Fixtures for the Python SDK and terminal client: the real service over real sockets.

The service runs under uvicorn in a background thread (its own event loop) on a free
port, backed by the session's private Redis server, so the SDK is exercised exactly as
it would be against a deployment: HTTP, WebSocket frames, Redis pub/sub.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from service.app import create_app
from service.config import Settings
from tests.support import fill_winnable_pools, free_port

CLIENT_ROOT = Path(__file__).resolve().parents[2] / "clients" / "python"
if str(CLIENT_ROOT) not in sys.path:
    sys.path.insert(0, str(CLIENT_ROOT))


class ServiceThread:
    """The service under uvicorn in a daemon thread; ``url`` is its HTTP base URL."""

    def __init__(self, settings: Settings, port: int | None = None) -> None:
        self.port = port or free_port()
        self.app = create_app(settings)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="service", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the service did not start")
            time.sleep(0.01)
        fill_winnable_pools(self.app)

    def stop(self) -> None:
        if self.thread.is_alive():
            self.server.should_exit = True
            self.thread.join(15)


def service_settings(redis_url: str, **overrides: Any) -> Settings:
    """Settings for a test service: generous rate limits, a short race countdown, every
    player on public boards, no plausibility floor (the SDK's scripted plays move as fast
    as a program does), and a short analysis (its search runs at a low CPU priority, and
    on a loaded machine the full budget outlasts the client's timeout)."""
    options: dict[str, Any] = {
        "rate_per_second": 1_000_000,
        "rate_burst": 1_000_000,
        "http_write_rate_per_second": 1_000_000,
        "http_write_burst": 1_000_000,
        "race_countdown_seconds": 0.2,
        "winnable_pool_size": 0,
        "board_min_account_hours": 0,
        "board_min_games": 0,
        "pace_burst_actions": 0,
        "pace_median_ms": 0,
        "analysis_seconds": 0.5,
        **overrides,
    }
    return Settings(store_url=redis_url, **options)


@contextmanager
def running_service(redis_url: str, **overrides: Any) -> Iterator[ServiceThread]:
    service = ServiceThread(service_settings(redis_url, **overrides))
    service.start()
    try:
        yield service
    finally:
        service.stop()


@pytest.fixture(scope="session")
def service_url(redis_url: str) -> Iterator[str]:
    """Base URL of a real service (uvicorn + Redis) shared by the client tests."""
    with running_service(redis_url) as service:
        yield service.url
