#!/usr/bin/env python
"""Idle connections: how many WebSockets one instance holds, and what each one costs.

The run starts a private redis-server and one service process (``python -m service``,
through a tiny wrapper that first raises its open-file limit to the hard limit, as this
process does for itself), creates ``--games`` games and then opens WebSocket connections
up to ``--target``: each says hello and subscribes as a watcher to a game (connection
``i`` to game ``i mod games``), then stays idle. Connections open ``--batch`` at a time.

With all of them held it reads the server's resident memory (VmRSS of /proc/<pid>/status)
against the reading taken before the first connection (after a warm-up of a few
connections opened and closed), checks that the server still answers: a ping on a fresh
connection and ``/readyz``, and times one change fanning out to every watcher of one game.

Output: a table, then one JSON line per figure: ``ws.idle_connections_held`` (connections
open and subscribed at the end), ``ws.bytes_per_idle_connection`` (RSS growth / held), and
more.

    python benchmarks/idle_connections.py [--target 5000] [--games 50] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing the package
    sys.path.insert(0, str(ROOT))

from benchmarks._client import recv_json, ws_connect
from benchmarks._processes import (
    HOST,
    Process,
    raise_open_files,
    start_redis,
    start_service,
    wait_ready,
    wait_redis,
)
from benchmarks._report import Figure, report

REPLY_TIMEOUT = 30.0
WARMUP_CONNECTIONS = 20

# Runs the service after raising the open-file limit (soft to hard) of its own process.
WRAPPER = """
import resource, runpy, sys
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
sys.argv = ["service"]
runpy.run_module("service", run_name="__main__", alter_sys=True)
"""


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def open_files_limit(pid: int) -> int:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    return -1


def start_service_with_raised_file_limit(redis_port: int) -> Process:
    rates = {
        "RATE_PER_SECOND": "1000",
        "RATE_BURST": "1000",
        "HTTP_WRITE_RATE_PER_SECOND": "1000000",
        "HTTP_WRITE_BURST": "1000000",
    }
    return start_service("service", f"redis://{HOST}:{redis_port}/0", rates, command=WRAPPER)


async def open_watcher(port: int, game_id: str) -> Any:
    import orjson

    ws = await ws_connect(port, open_timeout=REPLY_TIMEOUT)
    try:
        await ws.send(orjson.dumps({"type": "hello", "protocol": 1}).decode())
        if (await recv_json(ws, REPLY_TIMEOUT)).get("type") != "welcome":
            raise RuntimeError("no welcome")
        await ws.send(orjson.dumps({"type": "subscribe", "id": "w", "game_id": game_id}).decode())
        if (await recv_json(ws, REPLY_TIMEOUT)).get("type") != "subscribed":
            raise RuntimeError("not subscribed")
        if (await recv_json(ws, REPLY_TIMEOUT)).get("type") != "snapshot":
            raise RuntimeError("no snapshot")
    except BaseException:
        ws.transport.abort()
        raise
    return ws


async def run(args: argparse.Namespace) -> int:
    import httpx2
    import orjson

    own_limit = raise_open_files()
    main_task = asyncio.current_task()
    assert main_task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main_task.cancel)
    held: list[Any] = []
    watching: list[int] = []  # the game index of each held connection
    failures: list[str] = []
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory() as workdir:
        redis = start_redis(Path(workdir))
        server: Process | None = None
        try:
            await wait_redis(redis.port)
            server = start_service_with_raised_file_limit(redis.port)
            async with httpx2.AsyncClient(trust_env=False, timeout=30.0) as http:
                await wait_ready(http, server)
                pid = server.proc.pid
                games = []
                for _ in range(args.games):
                    response = await http.post(f"http://{HOST}:{server.port}/games", json={})
                    games.append(response.json())
                warm = [
                    await open_watcher(server.port, games[i % len(games)]["game_id"])
                    for i in range(WARMUP_CONNECTIONS)
                ]
                for ws in warm:
                    await ws.close()
                await asyncio.sleep(1.0)
                before = rss_bytes(pid)

                started = time.monotonic()
                while len(held) < args.target and time.monotonic() - started < args.max_seconds:
                    count = min(args.batch, args.target - len(held))
                    base = len(held) + len(failures)
                    results = await asyncio.gather(
                        *(
                            open_watcher(server.port, games[(base + i) % len(games)]["game_id"])
                            for i in range(count)
                        ),
                        return_exceptions=True,
                    )
                    for i, result in enumerate(results):
                        if isinstance(result, BaseException):
                            failures.append(repr(result))
                        else:
                            held.append(result)
                            watching.append((base + i) % len(games))
                    if len(failures) > args.batch:
                        break  # the server (or this machine) refuses more
                opened_in = time.monotonic() - started
                await asyncio.sleep(2.0)
                after = rss_bytes(pid)
                alive = sum(1 for ws in held if ws.close_code is None)

                # Still responsive: a ping on a fresh connection, /readyz, metrics.
                ping_started = time.monotonic()
                async with ws_connect(server.port, open_timeout=REPLY_TIMEOUT) as fresh:
                    await fresh.send(orjson.dumps({"type": "hello", "protocol": 1}).decode())
                    await recv_json(fresh, REPLY_TIMEOUT)
                    await fresh.send(orjson.dumps({"type": "ping", "id": "p"}).decode())
                    pong = await recv_json(fresh, REPLY_TIMEOUT)
                ping_ms = (time.monotonic() - ping_started) * 1000
                if pong.get("type") != "pong":
                    raise RuntimeError(f"ping answered {pong}")
                ready = await http.get(f"http://{HOST}:{server.port}/readyz")
                metrics_text = (await http.get(f"http://{HOST}:{server.port}/metrics")).text
                gauge = next(
                    float(line.split()[-1])
                    for line in metrics_text.splitlines()
                    if line.startswith("solitaire_ws_connections ")
                )

                # One change to every watcher of game 0.
                first = games[0]
                watchers = [ws for ws, g in zip(held, watching, strict=True) if g == 0]
                fan_started = time.monotonic()
                response = await http.post(
                    f"http://{HOST}:{server.port}/games/{first['game_id']}/actions",
                    json={"action": "d"},
                    headers={"authorization": f"Bearer {first['player_token']}"},
                )
                if response.status_code != 200:
                    raise RuntimeError(f"action answered {response.status_code}")
                changes = await asyncio.gather(*(recv_json(ws, REPLY_TIMEOUT) for ws in watchers))
                fanout_ms = (time.monotonic() - fan_started) * 1000
                if any(c.get("type") != "change" for c in changes):
                    raise RuntimeError("a watcher got something else than the change")

            per_connection = (after - before) / alive if alive else float("nan")
            figures = [
                Figure(
                    "ws.idle_connections_held",
                    alive,
                    "count",
                    f"idle subscribed connections held (target {args.target})",
                    f">= {args.target}",
                ),
                Figure(
                    "ws.bytes_per_idle_connection",
                    round(per_connection),
                    "B",
                    "server RSS growth / connections held",
                ),
                Figure("ws.idle.server_rss_mb", round(after / 2**20, 1), "MiB", "server RSS"),
                Figure(
                    "ws.idle.open_per_s",
                    round(len(held) / opened_in, 1),
                    "1/s",
                    f"connections opened per s (hello + subscribe, {args.batch} at a time)",
                ),
                Figure("ws.idle.ping_ms", round(ping_ms, 2), "ms", "fresh connection: hello+ping"),
                Figure(
                    "ws.idle.fanout_ms",
                    round(fanout_ms, 2),
                    "ms",
                    f"one change reaching all {len(watchers)} watchers of a game",
                ),
                Figure("ws.idle.failures", len(failures), "count", "connections refused/failed"),
            ]
            print(
                f"Idle connections: one instance, {args.games} games, target {args.target}; "
                f"open-file limits: driver {own_limit}, server {open_files_limit(pid)}; "
                f"readyz {ready.status_code}; connections gauge {gauge:g}; "
                f"{os.cpu_count()} CPUs"
            )
            if failures:
                print(f"first failures: {failures[:3]}")
            print()
            report("figures", figures)
        finally:
            for ws in held:
                with contextlib.suppress(Exception):
                    ws.transport.abort()
            if server is not None:
                server.stop()
            redis.stop()
    return 0 if figures and figures[0].value >= args.target else 1


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--target", type=int, default=5000, help="connections to hold")
    parser.add_argument("--games", type=int, default=50, help="games the watchers watch")
    parser.add_argument(
        "--batch",
        type=int,
        default=50,
        help="connections opened at once",
    )
    parser.add_argument("--max-seconds", type=float, default=300.0, help="bound on opening")
    parser.add_argument("--quick", action="store_true", help="500 connections, 10 games")
    args = parser.parse_args(argv)
    if args.quick:
        args.target, args.games = 500, 10
    return args


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(run(parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
