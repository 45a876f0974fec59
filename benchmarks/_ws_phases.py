"""The phases of ``ws_load.py`` that drive connections: the echo (bare, or with one Redis
round trip per frame) and the service, each over one window, or echo + store and the
service in alternating slices of theirs (``_ws_windows.py``).

Here rather than in ``ws_load.py`` because its driver processes (``_ws_drivers.py``) run
the same phases, and ``ws_load.py`` starts those.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import random
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any

from benchmarks import _profile
from benchmarks._client import Tally, recv_json, ws_connect
from benchmarks._processes import Listening
from benchmarks._ws_figures import Usage
from benchmarks._ws_players import (
    Player,
    check_players,
    create_player,
    drain_changes,
    open_session,
    play_once,
    write_script,
)
from benchmarks._ws_windows import Sliced, Workers, alternate, run_window, service_seconds

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
