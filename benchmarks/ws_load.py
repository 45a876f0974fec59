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

The load driver (this process, asyncio and the ``websockets`` client) then runs:

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
import math
import os
import random
import secrets
import signal
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import _profile
from benchmarks._client import Tally, recv_json, run_driver, ws_connect
from benchmarks._processes import Listening, Process, wait_ready
from benchmarks._report import report
from benchmarks._ws_drivers import in_processes
from benchmarks._ws_figures import Usage, build_figures
from benchmarks._ws_players import (
    Player,
    check_players,
    create_player,
    drain_changes,
    memory_phase,
    open_session,
    play_once,
    write_script,
)
from benchmarks._ws_servers import serve, start_server
from benchmarks._ws_windows import Sliced, Workers, alternate, run_window, service_seconds

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/14"
# Scripted actions drawn per game for each second of the service phase: twice what a
# game played per second on the fastest machine measured (280), because a game that runs
# out plays its whole script on the local copy at once, stalling the driver.
SCRIPT_ACTIONS_PER_SECOND = 600


# --------------------------------------------------------------------------- echo


def echo_worker(tally: Tally, game_id: str) -> Callable[[Any], Coroutine[Any, Any, None]]:
    """A connection's loop until the window ends: an action-sized frame, then its echo."""
    import orjson

    async def worker(ws: Any) -> None:
        while time.perf_counter() < tally.window_end:
            rid = secrets.token_hex(8)
            # The size and shape of a service action frame.
            frame = orjson.dumps(
                {"type": "action", "id": rid, "game_id": game_id, "action": "c3:2>c5"}
            ).decode()
            sent = time.perf_counter()
            await ws.send(frame)
            reply = await recv_json(ws)
            received = time.perf_counter()
            ok = reply.get("id") == rid
            if not ok:
                tally.counts["bad_echo"] += 1
            tally.record(sent, received, ok)

    return worker


async def echo_sockets(
    stack: contextlib.AsyncExitStack, args: argparse.Namespace, server: Listening
) -> list[Any]:
    return [
        await stack.enter_async_context(ws_connect(server.port, args.compression))
        for _ in range(args.games)
    ]


async def echo_phase(
    args: argparse.Namespace, server: Listening, redis: Any | None = None
) -> tuple[Tally, Usage]:
    tally = Tally()
    worker = echo_worker(tally, secrets.token_urlsafe(16))
    async with contextlib.AsyncExitStack() as stack:
        sockets = await echo_sockets(stack, args, server)
        usage = await run_window(
            tally,
            [worker(ws) for ws in sockets],
            args.warmup,
            args.duration,
            server,
            redis,
            args.start_together,
        )
    return tally, usage


# --------------------------------------------------------------------------- service


async def service_sessions(
    stack: contextlib.AsyncExitStack,
    args: argparse.Namespace,
    server: Listening,
    http: Any,
    rng: random.Random,
) -> list[tuple[Player, Any]]:
    """The games, their scripts, and a WebSocket per game subscribed as its player."""
    players = await asyncio.gather(
        *(create_player(http, server.port, rng) for _ in range(args.games))
    )
    if not args.live_play:
        length = args.script_actions
        if length is None:
            seconds = service_seconds(args.warmup, args.settle, args.duration, args.slices)
            length = SCRIPT_ACTIONS_PER_SECOND * math.ceil(seconds)
        for player in players:
            write_script(player, length)
    sockets = [
        await stack.enter_async_context(ws_connect(server.port, args.compression)) for _ in players
    ]
    sessions = list(zip(players, sockets, strict=True))
    await asyncio.gather(*(open_session(p, ws, args.changes_in_results) for p, ws in sessions))
    return sessions


def service_workers(tally: Tally, sessions: list[tuple[Player, Any]]) -> Workers:
    """Each game's loop until the window ends: an action, then its result."""

    async def worker(player: Player, ws: Any) -> None:
        while time.perf_counter() < tally.window_end:
            if not await play_once(player, ws, tally):
                tally.counts["games_finished"] += 1
                return

    return [worker(player, ws) for player, ws in sessions]


async def check_sessions(
    http: Any, server: Listening, sessions: list[tuple[Player, Any]], tally: Tally
) -> None:
    """Reads the changes still on their way, then checks every game against its copy."""
    await asyncio.gather(*(drain_changes(p, ws, tally) for p, ws in sessions))
    players = [player for player, _ in sessions]
    for player in players:
        player.catch_up_local()
    await check_players(http, server.port, players, tally)
    tally.counts["change_frames_missing"] = sum(p.accepted - p.changes for p in players)


def start_profile(args: argparse.Namespace, server: Listening, seconds: float) -> Any:
    return _profile.start(server.pid, args.profile, seconds) if args.profile else None


def finish_profile(args: argparse.Namespace, spy: Any, seconds: float) -> dict[str, Any]:
    return _profile.finish(spy, args.profile, seconds) if spy is not None else {}


async def service_phase(
    args: argparse.Namespace, server: Listening, http: Any, redis: Any, rng: random.Random
) -> tuple[Tally, Usage, dict[str, Any]]:
    tally = Tally()
    seconds = args.warmup + args.duration
    async with contextlib.AsyncExitStack() as stack:
        sessions = await service_sessions(stack, args, server, http, rng)
        spy = start_profile(args, server, seconds)
        try:
            usage = await run_window(
                tally,
                service_workers(tally, sessions),
                args.warmup,
                args.duration,
                server,
                redis,
                args.start_together,
            )
        finally:
            profile = finish_profile(args, spy, seconds)
        await check_sessions(http, server, sessions, tally)
    return tally, usage, profile


async def store_and_service(
    args: argparse.Namespace,
    store_server: Listening,
    server: Listening,
    http: Any,
    redis: Any,
    rng: random.Random,
) -> tuple[tuple[Tally, Usage], tuple[Tally, Usage, dict[str, Any]]]:
    """Echo + store and the service measured in alternating slices (``_ws_windows``)."""
    async with contextlib.AsyncExitStack() as stack:
        # Games and scripts first: a connection silent for 10 s after its upgrade is
        # closed (the hello timeout), and drawing the scripts takes about that long.
        sessions = await service_sessions(stack, args, server, http, rng)
        sockets = await echo_sockets(stack, args, store_server)
        store_tally, service_tally = Tally(), Tally()
        worker = echo_worker(store_tally, secrets.token_urlsafe(16))
        store = Sliced(store_server, lambda: [worker(ws) for ws in sockets], store_tally)
        service = Sliced(server, lambda: service_workers(service_tally, sessions), service_tally)
        # The profiler samples the service only while it runs: the whole alternation,
        # with a second a slice for the driver's collections between slices.
        span = 2 * service_seconds(args.warmup, args.settle, args.duration, args.slices)
        seconds = span + args.slices
        spy = start_profile(args, server, seconds)
        try:
            await alternate(
                (store, service), args.slices, args.warmup, args.settle, args.duration, redis
            )
        finally:
            profile = finish_profile(args, spy, seconds)
        await check_sessions(http, server, sessions, service.tally)
    return (store.tally, store.usage), (service.tally, service.usage, profile)


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
        "--serve", choices=["service", "echo", "echo-store"], help=argparse.SUPPRESS
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
