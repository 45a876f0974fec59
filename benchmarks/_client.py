"""What the benchmark drivers do as clients of the service: connect a WebSocket, read one
JSON frame, pick the next random move of a game kept locally, and tally the answers."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import secrets
from collections import Counter
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from benchmarks._processes import HOST, percentile_ms

UNDO_SHARE = 0.1
T = TypeVar("T")  # what a driver's main coroutine returns


@contextlib.contextmanager
def driver_collector_quiet() -> Iterator[None]:
    """Keeps the driver's own garbage collector from stalling a measured window.

    A driver holds what it set up (scripts of thousands of actions, local games, sockets)
    while it measures; a full collection walking all of it took 24-62 ms in a 10 s
    window, and every answer in flight during it was timed that much slower, as if the
    server had stalled. What exists when the window starts is frozen (still freed by
    reference counting) and young collections made rarer, as the service does.
    """
    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 100)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def run_driver(main: Coroutine[Any, Any, T]) -> T:
    """Runs a driver's main coroutine on uvloop when installed, as the servers run."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def ws_connect(port: int, compression: str | None = None, open_timeout: float = 30.0) -> Any:
    """``websockets`` connect to the service's endpoint (use with ``async with`` or await)."""
    from websockets.asyncio.client import connect

    return connect(
        f"ws://{HOST}:{port}/ws",
        proxy=None,
        compression=compression,
        open_timeout=open_timeout,
        close_timeout=2,
        ping_interval=None,
        max_size=1 << 20,
    )


async def recv_json(ws: Any, timeout: float = 15.0) -> dict[str, Any]:
    import orjson

    async with asyncio.timeout(timeout):
        message: dict[str, Any] = orjson.loads(await ws.recv())
    return message


def random_move(
    game: Any, game_id: str, rng: random.Random, undo_share: float = UNDO_SHARE
) -> dict[str, Any] | None:
    """An action or undo message for ``game`` (an ``engine.Klondike``): a random legal
    action, an undo one time in ten; None once nothing is left to play."""
    legal = [] if game.won else game.legal_actions()
    request_id = secrets.token_hex(8)
    if game.undo_available and (not legal or rng.random() < undo_share):
        return {"type": "undo", "id": request_id, "game_id": game_id}
    if not legal:
        return None
    return {
        "type": "action",
        "id": request_id,
        "game_id": game_id,
        "action": str(rng.choice(legal)),
    }


# The stretch of time ``bursts`` counts in: a few service round trips long.
TAIL_BURST_SECONDS = 0.010


@dataclass
class Tally:
    """What the connections of one run saw inside the measured window."""

    window_start: float = 0.0  # of the window, or of the slice being measured
    window_end: float = 0.0
    latencies: list[float] = field(default_factory=list)  # round trips of the answers done
    done: int = 0  # accepted actions (service) or echoes (echo) completed in the window
    refused: int = 0  # answers in the window that were not done
    counts: Counter[str] = field(default_factory=Counter)
    # Seconds measured in the slices already done (``_ws_windows.alternate``); 0 for one
    # window.
    measured: float = 0.0
    ended: list[float] = field(default_factory=list)  # when each of ``latencies`` ended

    def record(self, sent: float, received: float, ok: bool) -> None:
        if self.window_start <= received < self.window_end:
            if ok:
                self.done += 1
                self.latencies.append(received - sent)
                self.ended.append(received)
            else:
                self.refused += 1

    @property
    def rate(self) -> float:
        return self.done / (self.measured or self.window_end - self.window_start)

    def percentile_ms(self, q: float) -> float:
        return percentile_ms(self.latencies, q)

    def tail_ends(self, q: float) -> list[float]:
        """When the round trips at or above the ``q``th percentile ended."""
        if not self.latencies:
            return []
        threshold = percentile_ms(self.latencies, q) / 1000
        ended = zip(self.latencies, self.ended, strict=True)
        return [end for latency, end in ended if latency >= threshold]


def bursts(ends: list[float], width: float = TAIL_BURST_SECONDS) -> int:
    """In how many stretches of ``width`` seconds the moments ``ends`` fall.

    Of a tail's round trips (``Tally.tail_ends``): stalls that hold every connection at
    once (the process or the machine busy elsewhere) end in few stretches, about one per
    connection's worth of slow round trips; slow actions of their own end in about as
    many stretches as there are of them. The two call for different remedies.
    """
    return len({int(end // width) for end in ends})
