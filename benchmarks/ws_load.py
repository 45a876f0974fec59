#!/usr/bin/env python
"""WebSocket load: the game service against a bare echo endpoint on the same stack.

One run starts three servers, each in its own process, on free ports of 127.0.0.1:

- the real service (``service.app.create_app``) with the Redis store and rate limits set
  out of reach, under uvicorn as ``python -m service`` runs it;
- a bare echo endpoint: a Starlette app with one WebSocket route that sends every text
  frame back, under the same uvicorn configuration;
- echo + store: the same echo, but each frame first makes one round trip to Redis through
  the service's own store (a PUBLISH on its pooled client): what one Redis round trip per
  message costs on this stack.

The load driver (this process, asyncio and the ``websockets`` client) then runs these
phases (``_ws_phases.py``; memory in ``_ws_players.py``):

1. echo, then echo + store: N connections, each sending an action-sized JSON frame and
   awaiting the echo. Echo + store and the service (2.) are measured in turns, in
   ``--slices`` slices of their windows each (ABBA order, ``_ws_windows.py``), so that
   the machine's drift during the run falls on the service and its baseline alike;
2. service: N games created over HTTP, one WebSocket per game (hello, subscribe with the
   player token), each looping: send the next random legal action (sometimes an undo)
   with a request id and time the round trip to its ``result``; the ``change`` frames
   that arrive in between are counted, not timed. The actions are drawn before the
   window, ``--script-actions`` per game on a copy of each game kept with
   ``service.engine`` (``--live-play`` draws each one in the window instead), and every
   answer's ``notation`` must be the one the script expects. At the end each local copy
   has played the accepted notations and is checked against the service's state;
3. memory: one Double Solitaire game played for 200 actions (undos included), then the
   ``MEMORY USAGE`` of all its Redis keys (``sol:{<game id>}:*``) summed.

Each connection is a closed loop (one request in flight), so throughput and latency are
those of N concurrent players who play as fast as the answers come. The driver is one
process unless ``--driver-processes`` splits every phase's connections over several,
started together (``_ws_drivers.py``), each phase then after the other; the fixed
figures are measured with one. The first ``--warmup`` seconds of each phase, and the
first ``--settle`` seconds of each later slice, are not counted. The Redis database of
``--redis-url`` is flushed before and after the run (that database only).

Request ids are 16 random hex characters; the Redis figure depends on their length, as
the service remembers the last 32 of each game. Besides throughput and latency the run
reports the CPU time per message of each server process, of Redis and of this driver,
read at the edges of the measured window: on a shared machine these vary far less than
throughput does. ``--profile FILE`` records the service with py-spy (speedscope format)
during the service phase and prints the costliest functions.

Output: a table, then one JSON line per figure, e.g.
``{"metric": "ws.service.actions_per_s", "value": 1234.5, "unit": "1/s"}``.

    python benchmarks/ws_load.py [--games 50] [--duration 10] [--redis-url URL] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import _profile
from benchmarks._client import Tally, run_driver
from benchmarks._processes import Process, wait_ready
from benchmarks._report import report
from benchmarks._ws_drivers import in_processes
from benchmarks._ws_figures import Usage, build_figures
from benchmarks._ws_phases import SCRIPT_ACTIONS_PER_SECOND, echo_phase, store_and_service
from benchmarks._ws_players import memory_phase
from benchmarks._ws_servers import serve, start_server

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/14"


# =========================================================================== main


async def run(args: argparse.Namespace) -> int:
    import httpx2
    import redis.asyncio as aioredis

    # SIGTERM ends the run like Ctrl-C does: through the finally blocks below.
    main_task = asyncio.current_task()
    assert main_task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main_task.cancel)
    rng = random.Random(args.seed)
    redis = aioredis.Redis.from_url(args.redis_url)
    await redis.flushdb()
    servers: list[Process] = []
    try:
        servers.append(start_server("echo", args.redis_url))
        servers.append(start_server("echo-store", args.redis_url))
        servers.append(start_server("service", args.redis_url))
        echo_server, echo_store_server, service_server = servers
        limits = httpx2.Limits(max_connections=64)
        async with httpx2.AsyncClient(trust_env=False, timeout=15.0, limits=limits) as http:
            await wait_ready(http, echo_server, "/healthz")
            await wait_ready(http, echo_store_server, "/healthz")
            await wait_ready(http, service_server, "/readyz")
            service: tuple[Tally, Usage, dict[str, Any]]
            if args.driver_processes > 1:
                echo = await in_processes("echo", args, echo_server)
                echo_store = await in_processes("echo-store", args, echo_store_server)
                service = (*await in_processes("service", args, service_server), {})
            else:
                echo = await echo_phase(args, echo_server)
                echo_store, service = await store_and_service(
                    args, echo_store_server, service_server, http, redis, rng
                )
            memory = await memory_phase(args, service_server, http, redis, rng)
    finally:
        for server in servers:
            server.stop()
        with contextlib.suppress(Exception):
            await redis.flushdb()
        await redis.aclose()

    title = (
        f"WebSocket load: {args.games} connections, {args.duration:g} s measured after "
        f"{args.warmup:g} s warm-up, compression={args.compression or 'none'}, "
        f"{os.cpu_count()} CPUs"
        + (f", {args.driver_processes} driver processes" if args.driver_processes > 1 else "")
    )
    report(title, build_figures(args, echo, echo_store, service, memory))
    profile = service[2]
    if profile:
        _profile.report(profile, "service profile", args.profile, sys.stderr)
    counts = service[0].counts
    bad = (
        counts["state_mismatches"]
        + counts["rejected"]
        + counts["script_mismatches"]
        + counts["changes_out_of_order"]
        + memory["mismatch"]
    )
    return 1 if bad else 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent games/connections")
    parser.add_argument("--duration", type=float, default=10.0, help="measured seconds per phase")
    parser.add_argument("--warmup", type=float, default=1.0, help="uncounted seconds first")
    parser.add_argument(
        "--redis-url",
        default=DEFAULT_REDIS_URL,
        help="Redis database to use; it is flushed before and after",
    )
    parser.add_argument("--quick", action="store_true", help="5 games, 2 s: a smoke run")
    parser.add_argument(
        "--compression",
        choices=["deflate", "none"],
        default="deflate",
        help="offer permessage-deflate (as browsers do) or not",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the random play")
    parser.add_argument(
        "--profile",
        metavar="FILE",
        default=None,
        help="record the service with py-spy (speedscope) during the window",
    )
    parser.add_argument(
        "--serve",
        choices=["service", "echo", "echo-store", "fanout", "fanout-store"],
        help=argparse.SUPPRESS,
    )
    parser.add_argument(
        "--separate-changes",
        dest="changes_in_results",
        action="store_false",
        help="the actor gets each change as a frame of its own after the result, as clients "
        "that do not ask for changes_in_results do (default: the change in the result)",
    )
    parser.add_argument(
        "--script-actions",
        type=int,
        default=None,
        help="actions drawn per game before the service phase (live play goes on after; "
        f"default: {SCRIPT_ACTIONS_PER_SECOND} per second of warm-up and window)",
    )
    parser.add_argument(
        "--live-play",
        action="store_true",
        help="draw each action in the window from the local copy of its game instead of "
        "a script drawn beforehand (the driver then takes about twice the CPU per action)",
    )
    parser.add_argument(
        "--driver-processes",
        type=int,
        default=1,
        help="split each phase's connections over this many driver processes, started "
        "together (default 1, as the fixed figures are measured)",
    )
    parser.add_argument(
        "--slices",
        type=int,
        default=5,
        help="measure echo + store and the service in turns, each in this many slices of "
        "its window (ABBA order, so the machine's drift falls on both); 1 measures one "
        "after the other, as runs before 2026-12-02 did (default 5)",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=0.25,
        help="uncounted seconds at the start of every slice but a phase's first (default 0.25)",
    )
    parser.add_argument("--fd", type=int, help=argparse.SUPPRESS)
    parser.set_defaults(start_together=None)
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.duration, args.warmup = 5, 2.0, 0.5
    if args.games < 1 or args.duration <= 0 or args.warmup < 0:
        parser.error("--games must be positive, --duration positive, --warmup not negative")
    if not 1 <= args.driver_processes <= args.games:
        parser.error("--driver-processes must be between 1 and --games")
    if args.slices < 1 or args.settle < 0:
        parser.error("--slices must be positive, --settle not negative")
    if args.driver_processes > 1:
        args.slices = 1  # several driver processes measure one phase after the other
    if args.driver_processes > 1 and args.profile:
        parser.error("--profile records one driver process's window: use one")
    args.compression = None if args.compression == "none" else args.compression
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.serve:
        serve(args.serve, args.fd, args.redis_url)
        return 0
    try:
        return run_driver(run(args))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("interrupted; servers stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
