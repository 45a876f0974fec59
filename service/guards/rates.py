"""Cheap refusals of HTTP clients that ask too much: token buckets per client address.

Two limits are kept per client address (the peer address of the TCP connection; behind
a reverse proxy every client shares the proxy's): writes (every ``POST`` and ``DELETE``) and changes
pages (``GET /games/{id}/changes``, the one read whose cost grows with a game's
history). A refused request is answered 429 before its body is read or its route runs.

The buckets live in this instance's memory: with several instances each one counts for
itself. That is enough to refuse a flood cheaply, which is the point; a shared count
would cost a store round trip per request, the very thing being protected. Their number
is bounded: a bucket that has refilled is forgotten (a new one would be the same), and
past ``MAX_ADDRESSES`` the longest idle addresses are forgotten first.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from ..config import Settings

MAX_ADDRESSES = 100_000


class TokenBucket:
    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next token, after a refused ``take``."""
        return (1.0 - self.tokens) / self.rate


class AddressBuckets:
    """One token bucket per client address, bounded in number."""

    def __init__(self, rate: float, burst: int, max_addresses: int = MAX_ADDRESSES) -> None:
        self.rate = rate
        self.burst = burst
        self.max_addresses = max_addresses
        # Least recently used first, so the idle ones are found at the front.
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self._refill_seconds = burst / rate

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, address: str, now: float | None = None) -> float:
        """0.0 when the request may go ahead, else the seconds to wait before retrying."""
        now = time.monotonic() if now is None else now
        bucket = self._buckets.get(address)
        if bucket is None:
            self._forget_idle(now)
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst, now)
        else:
            self._buckets.move_to_end(address)
        if bucket.take(now):
            return 0.0
        return bucket.wait()

    def _forget_idle(self, now: float) -> None:
        buckets = self._buckets
        while buckets:
            oldest = next(iter(buckets.values()))
            if now - oldest.stamp < self._refill_seconds and len(buckets) < self.max_addresses:
                return
            buckets.popitem(last=False)


Refuse = Callable[[Scope, str, float], Response]


class RateLimits:
    """ASGI middleware: refuses writes and changes pages over their rate per address.

    ``refuse(scope, kind, wait)`` builds the 429 answer (``kind`` is ``write`` or
    ``changes``, ``wait`` the seconds until the next token). ``changes`` may be shared
    with the WebSocket resumes, which read the same pages.
    """

    def __init__(
        self,
        app: ASGIApp,
        settings: Settings,
        refuse: Refuse,
        changes: AddressBuckets | None = None,
    ) -> None:
        self.app = app
        self.refuse = refuse
        self.writes = AddressBuckets(settings.http_write_rate_per_second, settings.http_write_burst)
        self.changes = changes or page_buckets(settings)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            kind, buckets = self._limit_of(scope)
            if buckets is not None:
                wait = buckets.take(client_address(scope))
                if wait > 0.0:
                    await self.refuse(scope, kind, wait)(scope, receive, send)
                    return
        await self.app(scope, receive, send)

    def _limit_of(self, scope: Scope) -> tuple[str, AddressBuckets | None]:
        if scope["method"] in ("POST", "DELETE"):
            return "write", self.writes
        path: str = scope["path"]
        if scope["method"] == "GET" and path.startswith("/games/") and path.endswith("/changes"):
            return "changes", self.changes
        return "", None


def page_buckets(settings: Settings) -> AddressBuckets:
    """The per-address limit on changes pages, over HTTP and WebSocket resumes alike."""
    return AddressBuckets(settings.changes_rate_per_second, settings.changes_burst)


def retry_after(wait: float) -> str:
    """A ``Retry-After`` value: whole seconds, at least 1."""
    return str(max(1, math.ceil(wait)))


def client_address(scope: Scope) -> str:
    client: Any = scope.get("client")
    return str(client[0]) if client else ""
