#!/usr/bin/env python
"""Quick pairing alone: from a player's ``seek`` to the ``paired`` message, over WebSocket.

The service runs as ``python -m service`` in a child process on a free port of
127.0.0.1: one instance on the memory store by default, or with ``--redis`` two
instances on a private ``redis-server`` that this script starts (and stops), the
seekers split between them. The driver (this process, asyncio with the ``websockets``
client and ``httpx2``) creates ``--seekers`` players over HTTP, then each opens a
WebSocket, says hello and sends ``seek`` in one mode at a random moment within
``--spread`` seconds. The figure is the time from sending ``seek`` to receiving its
``paired`` message: the wait for the wave that pairs the player (waves run every
``--wave`` seconds), the race made for the pair (its document and both games), and the
message through the store to whichever instance holds the socket. New players all
rate 1500, so every wave pairs whoever waits (an odd one out waits for the next).

Output: a table, then one JSON line per figure, e.g.
``{"metric": "pairing.p99_ms", "value": 512.3, "unit": "ms"}``.

    python benchmarks/pairing.py [--seekers 200] [--spread 2] [--wave 0.5] [--redis]
                                 [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing the package
    sys.path.insert(0, str(ROOT))

from benchmarks._client import recv_json, run_driver, ws_connect
from benchmarks._processes import (
    Process,
    percentile_ms,
    start_redis,
    start_service,
    wait_ready,
    wait_redis,
)
from benchmarks._report import Figure, report

MODE = "TF.D1N"
# A seeker still unpaired this long after the last seek was sent is counted as unpaired.
PAIRED_TIMEOUT = 60.0


async def one_seeker(
    index: int, service: Process, token: str, at: float, started: float
) -> tuple[float | None, str]:
    """Seconds from ``seek`` to ``paired`` (None: never paired), and the race id."""
    async with ws_connect(service.port) as ws:
        await ws.send('{"type": "hello", "protocol": 1}')
        await recv_json(ws)
        await asyncio.sleep(max(0.0, started + at - time.perf_counter()))
        sent = time.perf_counter()
        seek = {"type": "seek", "id": f"s{index}", "mode": MODE, "token": token}
        await ws.send(orjson.dumps(seek).decode())
        with contextlib.suppress(TimeoutError):
            while True:
                message = await recv_json(ws, PAIRED_TIMEOUT)
                if message["type"] == "paired":
                    return time.perf_counter() - sent, message["race_id"]
                if message["type"] == "error":
                    raise RuntimeError(f"seek refused: {message}")
    return None, ""


async def run(args: argparse.Namespace) -> int:
    import httpx2

    settings = {
        "HTTP_WRITE_RATE_PER_SECOND": "1000000000",
        "HTTP_WRITE_BURST": "1000000000",
        "PLAYERS_PER_HOUR": "1000000",
        "PAIRING_WAVE_SECONDS": str(args.wave),
    }
    redis: Process | None = None
    workdir = tempfile.TemporaryDirectory()
    services: list[Process] = []
    try:
        if args.redis:
            redis = start_redis(Path(workdir.name))
            await wait_redis(redis.port)
            url = f"redis://127.0.0.1:{redis.port}/0"
            services = [start_service(f"service {n}", url, settings) for n in (1, 2)]
        else:
            services = [start_service("service", "memory://", settings)]
        async with httpx2.AsyncClient(trust_env=False, timeout=30) as http:
            for service in services:
                await wait_ready(http, service)
            tokens = []
            for index in range(args.seekers):
                service = services[index % len(services)]
                created = await http.post(f"{service.url}/players", json={"name": f"P{index}"})
                created.raise_for_status()
                tokens.append(created.json()["player_token"])
        rng = random.Random(args.seed)
        started = time.perf_counter() + 1.0  # every socket open before the first seek
        seekers = [
            one_seeker(i, services[i % len(services)], token, rng.random() * args.spread, started)
            for i, token in enumerate(tokens)
        ]
        outcomes = await asyncio.gather(*seekers)
    finally:
        for service in services:
            service.stop()
        if redis is not None:
            redis.stop()
        workdir.cleanup()
    times = [seconds for seconds, _ in outcomes if seconds is not None]
    races: dict[str, int] = {}
    for _, race_id in outcomes:
        if race_id:
            races[race_id] = races.get(race_id, 0) + 1
    twice = sum(1 for count in races.values() if count != 2)
    figures = [
        Figure("pairing.seekers", args.seekers, "1", "players who sent seek"),
        Figure("pairing.paired", len(times), "1", "told paired", f">= {args.seekers - 1}"),
        Figure("pairing.races", len(races), "1", "races made"),
        Figure("pairing.races_not_of_two", twice, "1", "races told to other than 2", "0"),
        Figure("pairing.p50_ms", percentile_ms(times, 50), "ms", "seek -> paired, median"),
        Figure("pairing.p99_ms", percentile_ms(times, 99), "ms", "seek -> paired, 99th pct"),
        Figure("pairing.max_ms", percentile_ms(times, 100), "ms", "seek -> paired, slowest"),
    ]
    where = "two instances on one Redis" if args.redis else "one instance, memory store"
    title = (
        f"Quick pairing: {args.seekers} seekers over WebSocket within {args.spread:g} s, "
        f"waves every {args.wave:g} s, {where}, {os.cpu_count()} CPUs"
    )
    report(title, [f for f in figures if f.value == f.value])
    return 0 if len(times) >= args.seekers - 1 and twice == 0 else 1


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seekers", type=int, default=200, help="players who seek")
    parser.add_argument(
        "--spread", type=float, default=2.0, help="seconds over which the seeks are sent"
    )
    parser.add_argument("--wave", type=float, default=0.5, help="PAIRING_WAVE_SECONDS")
    parser.add_argument(
        "--redis", action="store_true", help="two instances on a private redis-server"
    )
    parser.add_argument("--seed", type=int, default=35, help="seed of the seek times")
    parser.add_argument("--quick", action="store_true", help="10 seekers: a smoke run")
    args = parser.parse_args(argv)
    if args.quick:
        args.seekers, args.spread = 10, 0.5
    return args


def main(argv: list[str] | None = None) -> int:
    return run_driver(run(parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
