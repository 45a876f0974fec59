#!/usr/bin/env python
"""Leaderboards: ranks and neighbours over HTTP on a board of many players.

A private redis-server and the service (``python -m service``, Redis store) run as child
processes. The board ``streak.TF.D1N`` is filled with ``--players`` players through the
store's own interface (``RedisRecords.board_add``, the call a finished game makes), with
a name each; that rate is ``leaderboard.submit_per_s``. A sample of them get a player
token. Then ``--clients`` concurrent clients ask ``GET /leaderboards/streak.TF.D1N
?top=10&around=5`` with a random sampled player's token, ``--requests`` times in all:
the answer holds the top ten, the player's own rank and the five players either side.
``leaderboard.rank_p99_ms`` is the 99th percentile of those requests' latency.

    python benchmarks/leaderboard.py [--players 100000] [--requests 3000] [--clients 8]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
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
from service.players import Player, player_key
from service.store import hash_token
from service.store.redis_records import RedisRecords

BOARD = "streak:TF.D1N"
SAMPLE = 500
BATCH = 1000


async def fill(redis_url: str, players: int) -> tuple[float, list[str]]:
    """Enters ``players`` players; returns submissions per second and sampled tokens."""
    pool = aioredis.BlockingConnectionPool.from_url(redis_url, max_connections=64)
    client = aioredis.Redis(connection_pool=pool)
    records = RedisRecords(client)
    rng = random.Random(7)
    ids = [f"p{n:07d}" for n in range(players)]
    started = time.perf_counter()
    for first in range(0, players, BATCH):
        batch = ids[first : first + BATCH]
        await asyncio.gather(
            *(records.board_add(BOARD, pid, -float(rng.randint(0, 60))) for pid in batch)
        )
    submit_per_s = players / (time.perf_counter() - started)
    async with client.pipeline(transaction=False) as pipe:
        for pid in ids:
            pipe.set(f"sol:rec:val:player-name:{pid}", f"Player {pid[1:]}")
        await pipe.execute()
    tokens = []
    for pid in rng.sample(ids, min(SAMPLE, players)):
        token = secrets.token_urlsafe(32)
        digest = hash_token(token)
        player = Player(pid, f"Player {pid[1:]}", 0, [digest])
        await records.save(player_key(pid), 0, player.dump())
        await records.claim(f"player-token:{digest}", pid)
        tokens.append(token)
    await client.aclose()
    return submit_per_s, tokens


async def ask(
    base: str, tokens: list[str], requests: int, clients: int, path: str = ""
) -> list[float]:
    """Latencies of ``requests`` board requests (or of ``path``, the baseline)."""
    latencies: list[float] = []
    queue = list(range(requests))
    rng = random.Random(11)

    async def worker(http: httpx2.AsyncClient) -> None:
        while queue:
            queue.pop()
            token = rng.choice(tokens)
            started = time.perf_counter()
            response = await http.get(
                f"{base}{path or '/leaderboards/streak.TF.D1N?top=10&around=5'}",
                headers={"authorization": f"Bearer {token}"},
            )
            latencies.append(time.perf_counter() - started)
            if path:
                continue
            body = response.json()
            if response.status_code != 200 or body["you"] is None or len(body["around"]) < 6:
                raise RuntimeError(f"unexpected answer {response.status_code}: {body}")

    async with httpx2.AsyncClient(timeout=30) as http:
        await asyncio.gather(*(worker(http) for _ in range(clients)))
    return latencies


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as workdir:
        redis_process = start_redis(Path(workdir))
        service = None
        try:
            await wait_redis(redis_process.port)
            redis_url = f"redis://127.0.0.1:{redis_process.port}/0"
            submit_per_s, tokens = await fill(redis_url, args.players)
            service = start_service(
                "service", redis_url, {"RATE_PER_SECOND": "100000", "RATE_BURST": "100000"}
            )
            async with httpx2.AsyncClient() as http:
                await wait_ready(http, service)
            await ask(service.url, tokens, min(200, args.requests), args.clients)  # warm-up
            latencies = await ask(service.url, tokens, args.requests, args.clients)
            # The floor on this machine now: the same clients on a route that does nothing.
            baseline = await ask(service.url, tokens, args.requests, args.clients, "/healthz")
        finally:
            if service is not None:
                service.stop()
            redis_process.stop()
    report(
        f"Leaderboard: {args.players:,} players on one board, {args.requests:,} rank "
        f"requests from {args.clients} clients",
        [
            Figure(
                "leaderboard.rank_p99_ms",
                round(percentile_ms(latencies, 99), 2),
                "ms",
                "own rank + 5 either side + top 10, over HTTP",
                "<= 10",
            ),
            Figure(
                "leaderboard.rank_p50_ms",
                round(percentile_ms(latencies, 50), 2),
                "ms",
                "the same, median",
            ),
            Figure(
                "leaderboard.healthz_p99_ms",
                round(percentile_ms(baseline, 99), 2),
                "ms",
                "baseline: GET /healthz, same clients, same run",
            ),
            Figure(
                "leaderboard.submit_per_s",
                round(submit_per_s),
                "1/s",
                "scores entered through the store interface (1,000 in flight)",
            ),
        ],
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--clients", type=int, default=8)
    asyncio.run(main(parser.parse_args()))
