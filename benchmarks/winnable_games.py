#!/usr/bin/env python
"""Creating a winnable-deal game against creating a random one, while the pool is full.

A private redis-server and the service (``python -m service``, Redis store) run as child
processes, with a pool of ``--pool`` certified deals per mode kept by one solving
process. The benchmark first waits until the pool of ``--mode`` is full (the solver
fills it in the background), then creates ``--games`` games of each kind, alternating
``POST /games`` with a random deal and ``POST /games`` with ``"winnable": true``, from
``--clients`` clients at once. The pool is refilled while the games are created, as in
production, so the solving process competes for the CPU during the measurement.

Each kind's latency is timed from sending the request to reading the answer. The target
is the same p99 for both kinds: ``create.winnable_ratio`` (winnable p99 over random p99)
near 1.

    python benchmarks/winnable_games.py [--mode DS.D1N] [--games 200] [--pool 250] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx2
import redis.asyncio as aioredis

from benchmarks._processes import (
    percentile_ms,
    start_redis,
    start_service,
    wait_ready,
    wait_redis,
)
from benchmarks._report import Figure, report


def _request(mode: str) -> dict[str, object]:
    game, draw_scoring = mode.split(".")
    return {
        "game": game,
        "draw": int(draw_scoring[1]),
        "scoring": "normal" if draw_scoring[2] == "N" else "vegas",
    }


async def _fill(http: httpx2.AsyncClient, base: str, port: int, mode: str, pool: int) -> float:
    """Starts the pool of ``mode`` (its first winnable game) and waits until it is full."""
    started = time.perf_counter()
    await http.post(f"{base}/games", json={**_request(mode), "winnable": True})
    queue = f"sol:rec:queue:winnable:{mode}"
    store = aioredis.Redis(host="127.0.0.1", port=port)
    try:
        while await store.llen(queue) < pool:
            await asyncio.sleep(0.5)
    finally:
        await store.aclose()
    return time.perf_counter() - started


async def _client(
    http: httpx2.AsyncClient,
    base: str,
    body: dict[str, object],
    rounds: int,
    latencies: dict[str, list[float]],
) -> None:
    for _ in range(rounds):
        for kind, extra in (("random", {}), ("winnable", {"winnable": True})):
            started = time.perf_counter()
            response = await http.post(f"{base}/games", json={**body, **extra})
            elapsed = time.perf_counter() - started
            if response.status_code != 201:
                raise RuntimeError(f"{kind} game answered {response.status_code}: {response.text}")
            latencies[kind].append(elapsed)


async def main(args: argparse.Namespace) -> None:
    latencies: dict[str, list[float]] = {"random": [], "winnable": []}
    if args.games > args.pool:
        raise SystemExit("--games must not exceed --pool: the pool must not run dry")
    with tempfile.TemporaryDirectory() as workdir:
        redis_process = start_redis(Path(workdir))
        service = None
        try:
            await wait_redis(redis_process.port)
            url = f"redis://127.0.0.1:{redis_process.port}/0"
            service = start_service(
                "service",
                url,
                {
                    "WINNABLE_POOL_SIZE": str(args.pool),
                    "WINNABLE_REFILL_POLL_SECONDS": "0.5",
                    "SOLVER_PROCESSES": "1",
                    **({"CERTIFY_SECONDS": "1"} if args.quick else {}),
                    # Every client of the benchmark comes from one address.
                    "HTTP_WRITE_RATE_PER_SECOND": "100000",
                    "HTTP_WRITE_BURST": "100000",
                },
            )
            async with httpx2.AsyncClient(timeout=30) as http:
                await wait_ready(http, service)
                fill_s = await _fill(http, service.url, redis_process.port, args.mode, args.pool)
                rounds = args.games // args.clients
                await asyncio.gather(
                    *(
                        _client(http, service.url, _request(args.mode), rounds, latencies)
                        for _ in range(args.clients)
                    )
                )
        finally:
            if service is not None:
                service.stop()
            redis_process.stop()
    random_p99 = percentile_ms(latencies["random"], 99)
    winnable_p99 = percentile_ms(latencies["winnable"], 99)
    report(
        f"Game creation, {args.mode}: {len(latencies['random'])} random and "
        f"{len(latencies['winnable'])} winnable games from {args.clients} clients, pool of "
        f"{args.pool} (filled in {fill_s:.1f} s)",
        [
            Figure(
                "create.random.p50_ms",
                round(percentile_ms(latencies["random"], 50), 2),
                "ms",
                "random deal",
            ),
            Figure("create.random.p99_ms", round(random_p99, 2), "ms", "random deal"),
            Figure(
                "create.winnable.p50_ms",
                round(percentile_ms(latencies["winnable"], 50), 2),
                "ms",
                "certified deal from the pool",
            ),
            Figure(
                "create.winnable.p99_ms",
                round(winnable_p99, 2),
                "ms",
                "certified deal from the pool",
            ),
            Figure(
                "create.winnable_ratio",
                round(winnable_p99 / random_p99, 3),
                "1",
                "winnable p99 / random p99",
                "about 1",
            ),
        ],
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="DS.D1N")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--pool", type=int, default=250)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 4 games, pool of 4")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.games, arguments.pool, arguments.clients = 4, 4, 2
    asyncio.run(main(arguments))
