"""The measured windows of ``ws_load.py``: one per phase, or alternating slices.

A shared machine's speed drifts: on one 2-vCPU machine the echo + store baseline,
measured once before the service and once after it in the same run, differed by up to
28 % in throughput and 59 % in p99. Phases measured one after the other then compare
the service with a baseline taken on a faster or slower machine than its own.
``alternate`` measures the baseline and the service in turns instead, in slices of the
same window (ABBA order: A B, B A, A B ...), so that a drift or a noisy neighbour falls
on both alike.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from benchmarks._client import Tally, driver_collector_quiet
from benchmarks._processes import Listening
from benchmarks._ws_figures import Clock, Usage, watch_usage

REPLY_TIMEOUT = 15.0

Workers = list[Coroutine[Any, Any, None]]


async def run_window(
    tally: Tally,
    workers: Workers,
    warmup: float,
    duration: float,
    server: Listening,
    redis: Any | None = None,
    start_together: Callable[[], object] | None = None,
    clock: Clock = time.perf_counter,
) -> Usage:
    """Runs every worker coroutine (they stop at ``tally.window_end``); the window's usage.

    ``start_together`` blocks until every driver process is ready (``--driver-processes``).
    ``clock`` places the window: it must be the one the workers time their round trips
    with.
    """
    usage = Usage()
    if start_together is not None:
        start_together()
    with driver_collector_quiet():
        now = clock()
        tally.window_start = now + warmup
        tally.window_end = tally.window_start + duration
        async with asyncio.timeout(warmup + duration + 4 * REPLY_TIMEOUT):
            await asyncio.gather(watch_usage(tally, usage, server, redis, clock), *workers)
    return usage


@dataclass
class Sliced:
    """One phase of an alternation: its server, a way to start its workers afresh for
    each slice (its connections stay open between slices), and what it measured."""

    server: Listening
    workers: Callable[[], Workers]
    tally: Tally = field(default_factory=Tally)
    usage: Usage = field(default_factory=Usage)


async def alternate(
    phases: tuple[Sliced, Sliced],
    slices: int,
    warmup: float,
    settle: float,
    duration: float,
    redis: Any | None = None,
    clock: Clock = time.perf_counter,
) -> None:
    """Measures each phase for ``duration`` seconds in all, in ``slices`` turns each.

    A phase's first slice starts with ``warmup`` seconds that are not counted, every later
    one with ``settle`` seconds (its connections start again from idle all at once).
    """
    length = duration / slices
    first, second = phases
    for turn in range(slices):
        for phase in (first, second) if turn % 2 == 0 else (second, first):
            lead = settle if phase.tally.measured else warmup
            used = await run_window(
                phase.tally, phase.workers(), lead, length, phase.server, redis, clock=clock
            )
            phase.usage.add(used)
            phase.tally.measured += length


def service_seconds(warmup: float, settle: float, duration: float, slices: int) -> float:
    """How long the service is driven in all, warm-ups included."""
    return warmup + (slices - 1) * settle + duration
