"""``ws_load.py``'s phases driven from several processes (``--driver-processes``).

One driver process reads every answer of every connection in turn; when the service sends
a batch's results together, the last of them waits for the driver to read the others, a
wait that separate clients do not have. With N driver processes each phase's connections
are split between N spawned processes, which open their connections, wait for each other
and then run the same window together; their round trips are pooled. Every phase is
driven the same way, so the service is still compared with its baselines under one
method. The servers' and Redis's CPU are read by the first process; the driver's CPU is
the sum of all of them.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
from dataclasses import dataclass
from typing import Any

from benchmarks._client import Tally, run_driver
from benchmarks._processes import Listening
from benchmarks._ws_figures import Usage
from benchmarks._ws_phases import echo_phase, service_phase

# Long enough for the slowest process to create its games and draw their scripts.
START_TIMEOUT = 300.0


@dataclass(frozen=True)
class ServerAddress:
    """What a driver process needs of a server: where it listens and its process id."""

    port: int
    pid: int


@dataclass
class Share:
    """What one driver process measured in its part of a phase."""

    tally: Tally
    usage: Usage


def split(games: int, processes: int) -> list[int]:
    """``games`` connections over ``processes`` drivers, as evenly as they go."""
    return [games // processes + (i < games % processes) for i in range(processes)]


def pool(shares: list[Share]) -> tuple[Tally, Usage]:
    """One phase's figures from its processes: round trips and counts pooled, the
    servers' and Redis's CPU as the first process read it, the driver's CPU summed."""
    first = shares[0]
    tally = Tally(first.tally.window_start, first.tally.window_end)
    for share in shares:
        tally.latencies += share.tally.latencies
        tally.ended += share.tally.ended
        tally.done += share.tally.done
        tally.refused += share.tally.refused
        tally.counts.update(share.tally.counts)
    usage = Usage(
        client=sum(share.usage.client for share in shares),
        server=first.usage.server,
        redis=first.usage.redis,
        commit_calls=first.usage.commit_calls,
        commit_usec=first.usage.commit_usec,
    )
    return tally, usage


async def in_processes(
    kind: str, args: argparse.Namespace, server: Listening
) -> tuple[Tally, Usage]:
    """Phase ``kind`` run from ``args.driver_processes`` processes, awaited in a thread."""
    address = ServerAddress(server.port, server.pid)
    return await asyncio.to_thread(run_shares, kind, args, address, args.driver_processes)


def run_shares(
    kind: str, args: argparse.Namespace, server: ServerAddress, processes: int
) -> tuple[Tally, Usage]:
    """Runs phase ``kind`` (``echo``, ``echo-store`` or ``service``) from ``processes``
    spawned drivers and pools what they measured. Blocking: call it from a thread."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(processes, timeout=START_TIMEOUT)
    results = context.Queue()
    drivers = [
        context.Process(
            target=_drive,
            args=(kind, args, server, games, index, barrier, results),
            daemon=True,
        )
        for index, games in enumerate(split(args.games, processes))
    ]
    for driver in drivers:
        driver.start()
    try:
        shares: dict[int, Share | str] = {}
        while len(shares) < processes:
            index, share = results.get(timeout=START_TIMEOUT + args.warmup + args.duration)
            shares[index] = share
    finally:
        for driver in drivers:
            driver.join(timeout=10)
            if driver.is_alive():
                driver.kill()
    failed = [share for share in shares.values() if isinstance(share, str)]
    if failed:
        raise RuntimeError(f"a driver process failed: {failed[0]}")
    return pool([share for _, share in sorted(shares.items()) if isinstance(share, Share)])


def _drive(
    kind: str,
    args: argparse.Namespace,
    server: ServerAddress,
    games: int,
    index: int,
    barrier: Any,
    results: Any,
) -> None:
    """A driver process: its part of the phase, then its ``Share`` (or an error text)."""
    args = argparse.Namespace(**vars(args))
    args.games = games
    args.start_together = barrier.wait
    try:
        share = run_driver(_drive_share(kind, args, server, index))
        results.put((index, share))
    except BaseException as exc:  # reported to the parent, which raises it
        barrier.abort()  # the other drivers stop waiting for this one
        results.put((index, f"{type(exc).__name__}: {exc}"))


async def _drive_share(
    kind: str, args: argparse.Namespace, server: ServerAddress, index: int
) -> Share:
    import httpx2
    import redis.asyncio as aioredis

    redis = aioredis.Redis.from_url(args.redis_url)
    try:
        if kind == "echo":
            tally, usage = await echo_phase(args, server)
        elif kind == "echo-store":
            tally, usage = await echo_phase(args, server, redis)
        else:
            rng = random.Random(None if args.seed is None else args.seed + 1 + index)
            async with httpx2.AsyncClient(trust_env=False, timeout=15.0) as http:
                tally, usage, _ = await service_phase(args, server, http, redis, rng)
    finally:
        await redis.aclose()
    return Share(tally, usage)
