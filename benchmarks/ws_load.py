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
   awaiting the echo;
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
those of N concurrent players who play as fast as the answers come. The first
``--warmup`` seconds of each phase are not counted. The Redis database of
``--redis-url`` is flushed before and after the run (that database only).

Request ids are 16 random hex characters; the Redis figure depends on their length, as
the service remembers the last 64 of each game. Besides throughput and latency the run
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
import socket
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import _profile
from benchmarks._client import (
    Tally,
    driver_collector_quiet,
    random_move,
    recv_json,
    ws_connect,
)
from benchmarks._processes import Process, cpu_seconds, spawn, wait_ready
from benchmarks._report import Figure, report

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/14"
HOST = "127.0.0.1"
MEMORY_ACTIONS = 200
# Targets (docs/benchmarks.md).
TARGET_RATIO = 0.4
TARGET_BYTES_PER_GAME = 8 * 1024
TARGET_RATIO_VS_ECHO_STORE = 0.6
TARGET_P99_VS_ECHO_STORE = 1.5
REPLY_TIMEOUT = 15.0
# Scripted actions drawn per game for each second of the service phase: twice what a
# game played per second on the fastest machine measured (280), because a game that runs
# out plays its whole script on the local copy at once, stalling the driver.
SCRIPT_ACTIONS_PER_SECOND = 600


# =========================================================================== servers
# The children run this same file with the hidden ``--serve`` option.


def _echo_app(settings: Any = None) -> Any:
    """The bare echo; with ``settings``, each frame first makes one Redis round trip on the
    service's Redis store's pooled client (a PUBLISH), to show what one round trip costs."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    from service.store.redis import RedisStore
    from service.store.redis_layout import channel

    store = RedisStore(settings) if settings is not None else None
    topic = f"bench-{secrets.token_hex(4)}"

    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            while True:
                text = await websocket.receive_text()
                if store is not None:
                    # One PUBLISH round trip per frame on the store's pooled client, as
                    # the yardstick has always been: not through the store's batching,
                    # which would make it a measure of pipelining instead.
                    await store._redis.publish(channel(topic), text.encode())
                await websocket.send_text(text)
        except WebSocketDisconnect:
            pass

    async def healthz(request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok")

    return Starlette(routes=[Route("/healthz", healthz), WebSocketRoute("/ws", echo)])


def _service_app(redis_url: str) -> Any:
    from service.app import create_app
    from service.config import Settings

    settings = Settings(
        store_url=redis_url,
        rate_per_second=1e9,
        rate_burst=1_000_000_000,
        winnable_pool_size=0,  # no solving in the background of a throughput figure
        http_write_rate_per_second=1e9,
        http_write_burst=1_000_000_000,
    )
    return create_app(settings), settings


def serve(kind: str, fd: int, redis_url: str) -> None:
    """Child process: serve ``kind`` on the listening socket inherited as ``fd``."""
    import uvicorn

    _exit_with_parent()
    from service.server import server_options, tune_garbage_collector

    sock = socket.socket(fileno=fd)
    app, settings = _service_app(redis_url)
    if kind == "echo":
        app = _echo_app()
    elif kind == "echo-store":
        app = _echo_app(settings)
    # The same options and collector tuning as ``python -m service`` (uvloop, httptools,
    # websockets-sansio, no per-frame compression), for every server.
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=2,
        **server_options(settings),
    )
    tune_garbage_collector()
    uvicorn.Server(config).run(sockets=[sock])


def _exit_with_parent() -> None:
    """Asks Linux for a SIGTERM (uvicorn's graceful stop) if the driver dies first."""
    import ctypes

    parent = os.getppid()
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG; no extra thread to profile
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


def start_server(kind: str, redis_url: str) -> Process:
    """This file with ``--serve kind``, on a listening socket it inherits."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, 0))
    sock.listen(2048)
    port = sock.getsockname()[1]
    try:
        fd = sock.fileno()
        command = [
            sys.executable,
            str(Path(__file__).resolve()),
            *("--serve", kind, "--fd", str(fd), "--redis-url", redis_url),
        ]
        return spawn(kind, command, port, env=os.environ, pass_fds=[fd])
    finally:
        sock.close()


# =========================================================================== measuring


@dataclass
class Usage:
    """Resources used inside the measured window (seconds, Redis microseconds)."""

    client: float = 0.0
    server: float | None = None
    redis: float | None = None
    commit_calls: int = 0
    commit_usec: int = 0


@dataclass(frozen=True)
class _Reading:
    client: float
    server: float | None
    redis: float | None
    commit_calls: int
    commit_usec: int


async def _read_usage(server: Process, redis: Any | None) -> _Reading:
    cpu: float | None = None
    calls = usec = 0
    if redis is not None:
        info = await redis.info("cpu")
        cpu = float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
        stats = await redis.info("commandstats")
        for name in ("cmdstat_evalsha", "cmdstat_eval"):
            calls += int(stats.get(name, {}).get("calls", 0))
            usec += int(stats.get(name, {}).get("usec", 0))
    return _Reading(time.process_time(), cpu_seconds(server.pid), cpu, calls, usec)


async def watch_usage(tally: Tally, usage: Usage, server: Process, redis: Any | None) -> None:
    """Reads CPU counters at the start and at the end of the measured window."""
    await asyncio.sleep(max(0.0, tally.window_start - time.perf_counter()))
    before = await _read_usage(server, redis)
    await asyncio.sleep(max(0.0, tally.window_end - time.perf_counter()))
    after = await _read_usage(server, redis)
    usage.client = after.client - before.client
    if before.server is not None and after.server is not None:
        usage.server = after.server - before.server
    if before.redis is not None and after.redis is not None:
        usage.redis = after.redis - before.redis
    # Redis may be shared: other clients' scripts in the window count too.
    usage.commit_calls = after.commit_calls - before.commit_calls
    usage.commit_usec = after.commit_usec - before.commit_usec


async def run_window(
    tally: Tally,
    workers: list[Any],
    warmup: float,
    duration: float,
    server: Process,
    redis: Any | None = None,
) -> Usage:
    """Runs every worker coroutine (they stop at ``tally.window_end``); the window's usage."""
    usage = Usage()
    with driver_collector_quiet():
        now = time.perf_counter()
        tally.window_start = now + warmup
        tally.window_end = tally.window_start + duration
        async with asyncio.timeout(warmup + duration + 4 * REPLY_TIMEOUT):
            await asyncio.gather(watch_usage(tally, usage, server, redis), *workers)
    return usage


# --------------------------------------------------------------------------- echo


async def echo_phase(
    args: argparse.Namespace, server: Process, redis: Any | None = None
) -> tuple[Tally, Usage]:
    import orjson

    tally = Tally()
    game_id = secrets.token_urlsafe(16)

    async def worker(index: int, ws: Any) -> None:
        n = 0
        while time.perf_counter() < tally.window_end:
            n += 1
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

    async with contextlib.AsyncExitStack() as stack:
        sockets = [
            await stack.enter_async_context(ws_connect(server.port, args.compression))
            for _ in range(args.games)
        ]
        usage = await run_window(
            tally,
            [worker(i, ws) for i, ws in enumerate(sockets)],
            args.warmup,
            args.duration,
            server,
            redis,
        )
    return tally, usage


# --------------------------------------------------------------------------- service


@dataclass(frozen=True, slots=True)
class Step:
    """One action or undo to send: its request id, its frame, and the notation the service
    answers with (None when drawn live: the answer is then played on the local copy)."""

    request_id: str
    frame: str
    notation: str | None
    undo: bool


@dataclass
class Player:
    """One game, its WebSocket and a local copy of the game kept in step with it.

    With a script (``write_script``) the actions were drawn before the measured window,
    on a copy of their own: in the window the driver only sends them and checks each
    answer's notation, so that its CPU per action is close to the echo phases' driver
    and leaves the machine's cores to the servers. The local copy plays the accepted
    notations after the window (or when the script runs out, and live play goes on).
    """

    game_id: str
    token: str
    code: str
    local: Any  # engine.Klondike
    rng: random.Random
    accepted: int = 0
    changes: int = 0
    script: list[Step] = field(default_factory=list)
    sent: int = 0  # steps of the script sent
    played: list[str] = field(default_factory=list)  # accepted notations not yet on local

    def next_step(self, tally: Tally) -> Step | None:
        if self.script:
            if self.sent < len(self.script):
                self.sent += 1
                return self.script[self.sent - 1]
            tally.counts["scripts_run_out"] += 1
            self.script = []
            self.catch_up_local()
        message = random_move(self.local, self.game_id, self.rng)
        if message is None:
            return None
        return Step(message["id"], json_text(message), None, message["type"] == "undo")

    def catch_up_local(self) -> None:
        from service import engine

        for notation in self.played:
            self.local.play(engine.parse_action(notation))
        self.played = []


def json_text(message: dict[str, Any]) -> str:
    import orjson

    return orjson.dumps(message).decode()


def write_script(player: Player, length: int) -> None:
    """Draws ``length`` random legal actions and undos (fewer if the game ends) for
    ``player``, on a copy of its game."""
    from service import engine

    game = engine.new_game(player.code)
    script = []
    for _ in range(length):
        message = random_move(game, player.game_id, player.rng)
        if message is None:
            break
        undo = message["type"] == "undo"
        action = engine.Undo() if undo else engine.parse_action(message["action"])
        notation = str(game.play(action).action)
        script.append(Step(message["id"], json_text(message), notation, undo))
    player.script = script


async def create_player(http: Any, port: int, rng: random.Random, game: str = "DS") -> Player:
    from service import engine

    response = await http.post(
        f"http://{HOST}:{port}/games", json={"game": game, "draw": 1, "scoring": "normal"}
    )
    if response.status_code != 201:
        raise RuntimeError(f"create game answered {response.status_code}: {response.text}")
    body = response.json()
    local = engine.new_game(body["code"])
    if local.public_view() != body["state"]:
        raise RuntimeError("the local engine does not deal the game the service dealt")
    return Player(
        body["game_id"], body["player_token"], body["code"], local, random.Random(rng.random())
    )


async def open_session(player: Player, ws: Any, in_results: bool) -> None:
    import orjson

    hello = {"type": "hello", "protocol": 1, "changes_in_results": in_results}
    await ws.send(orjson.dumps(hello).decode())
    welcome = await recv_json(ws)
    if welcome.get("type") != "welcome":
        raise RuntimeError(f"hello answered {welcome}")
    await ws.send(
        orjson.dumps(
            {"type": "subscribe", "id": "s", "game_id": player.game_id, "token": player.token}
        ).decode()
    )
    subscribed = await recv_json(ws)
    if subscribed.get("type") != "subscribed" or subscribed.get("role") != "player":
        raise RuntimeError(f"subscribe answered {subscribed}")
    snapshot = await recv_json(ws)
    if snapshot.get("type") != "snapshot":
        raise RuntimeError(f"expected a snapshot, got {snapshot}")


async def play_once(player: Player, ws: Any, tally: Tally) -> bool:
    """Sends one action or undo and waits for its result; False when the game is over."""
    from service import engine

    step = player.next_step(tally)
    if step is None:
        return False
    rid = step.request_id
    sent = time.perf_counter()
    await ws.send(step.frame)
    while True:
        reply = await recv_json(ws)
        kind = reply.get("type")
        if kind == "change":
            count_change(player, reply, tally)
            continue
        if reply.get("id") != rid:
            tally.counts[f"unexpected_{kind}"] += 1
            continue
        break
    received = time.perf_counter()
    accepted = kind == "result" and reply.get("status") == "accepted"
    tally.record(sent, received, accepted)
    if accepted and "change" in reply:
        count_change(player, reply["change"], tally)
    if accepted:
        if step.notation is None:
            player.local.play(engine.parse_action(reply["notation"]))
        else:
            if reply["notation"] != step.notation:
                tally.counts["script_mismatches"] += 1
            player.played.append(reply["notation"])
        player.accepted += 1
        tally.counts["undos" if step.undo else "actions"] += 1
    elif kind == "result":
        # A rejected legal action means the local copy went wrong: worth a loud count.
        tally.counts["rejected"] += 1
    else:
        tally.counts[f"error_{reply.get('code')}"] += 1
    return True


async def drain_changes(player: Player, ws: Any, tally: Tally, timeout: float = 2.0) -> None:
    """Reads the change frames still on their way (one per accepted action)."""
    import orjson

    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(timeout):
            while player.changes < player.accepted:
                reply = orjson.loads(await ws.recv())
                if reply.get("type") == "change":
                    count_change(player, reply, tally)


def count_change(player: Player, change: dict[str, Any], tally: Tally) -> None:
    """Every change once and in order, as a frame or inside its result."""
    if change.get("version") != player.changes + 1:
        tally.counts["changes_out_of_order"] += 1
    player.changes += 1
    tally.counts["change_frames"] += 1


async def check_players(http: Any, port: int, players: list[Player], tally: Tally) -> None:
    """Each local copy must equal the service's state, version included."""

    async def check(player: Player) -> None:
        response = await http.get(f"http://{HOST}:{port}/games/{player.game_id}")
        body = response.json()
        if body["version"] != player.accepted or body["state"] != player.local.public_view():
            tally.counts["state_mismatches"] += 1

    await asyncio.gather(*(check(p) for p in players))


async def service_phase(
    args: argparse.Namespace, server: Process, http: Any, redis: Any, rng: random.Random
) -> tuple[Tally, Usage, dict[str, Any]]:
    tally = Tally()
    players = await asyncio.gather(
        *(create_player(http, server.port, rng) for _ in range(args.games))
    )
    if not args.live_play:
        length = args.script_actions
        if length is None:
            length = SCRIPT_ACTIONS_PER_SECOND * math.ceil(args.warmup + args.duration)
        for player in players:
            write_script(player, length)

    async def worker(player: Player, ws: Any) -> None:
        while time.perf_counter() < tally.window_end:
            if not await play_once(player, ws, tally):
                tally.counts["games_finished"] += 1
                return

    profile: dict[str, Any] = {}
    async with contextlib.AsyncExitStack() as stack:
        sockets = [
            await stack.enter_async_context(ws_connect(server.port, args.compression))
            for _ in players
        ]
        await asyncio.gather(
            *(
                open_session(p, ws, args.changes_in_results)
                for p, ws in zip(players, sockets, strict=True)
            )
        )
        spy = (
            _profile.start(server.pid, args.profile, args.warmup + args.duration)
            if args.profile
            else None
        )
        try:
            usage = await run_window(
                tally,
                [worker(p, ws) for p, ws in zip(players, sockets, strict=True)],
                args.warmup,
                args.duration,
                server,
                redis,
            )
        finally:
            if spy is not None:
                profile = _profile.finish(spy, args.profile, args.warmup + args.duration)
        await asyncio.gather(
            *(drain_changes(p, ws, tally) for p, ws in zip(players, sockets, strict=True))
        )
    for player in players:
        player.catch_up_local()
    await check_players(http, server.port, players, tally)
    tally.counts["change_frames_missing"] = sum(p.accepted - p.changes for p in players)
    return tally, usage, profile


# --------------------------------------------------------------------------- memory


async def memory_phase(
    args: argparse.Namespace, server: Process, http: Any, redis: Any, rng: random.Random
) -> dict[str, Any]:
    """Redis bytes of one DS game after ``MEMORY_ACTIONS`` accepted actions and undos."""
    player = await create_player(http, server.port, rng, "DS")
    tally = Tally(window_start=0.0, window_end=float("inf"))
    async with ws_connect(server.port, args.compression) as ws:
        await open_session(player, ws, args.changes_in_results)
        while player.accepted < MEMORY_ACTIONS:
            if not await play_once(player, ws, tally):
                raise RuntimeError("the memory game ended before 200 actions; try again")
        await drain_changes(player, ws, tally)
    check = Tally()
    await check_players(http, server.port, [player], check)
    per_key: dict[str, int] = {}
    async for key in redis.scan_iter(match=f"sol:{{{player.game_id}}}:*", count=100):
        size = await redis.memory_usage(key, samples=0)
        per_key[key.decode().rsplit(":", 1)[-1]] = int(size or 0)
    return {
        "bytes": sum(per_key.values()),
        "per_key": per_key,
        "undos": tally.counts["undos"],
        "mismatch": check.counts["state_mismatches"],
    }


# =========================================================================== report


def divide(a: float, b: float) -> float:
    return a / b if b else float("nan")


def per(cpu: float | None, count: int) -> float:
    """Microseconds of CPU per message."""
    return cpu / count * 1e6 if cpu is not None and count else float("nan")


def figure(
    metric: str, value: float, unit: str, label: str, target: str = "", ok: bool | None = None
) -> Figure | None:
    """A rounded figure, its verdict in the label; None when it could not be measured."""
    if value != value:  # nan
        return None
    if ok is not None:
        label = f"{label}: {'pass' if ok else 'FAIL'}"
    rounded: int | float = int(value) if float(value).is_integer() else round(value, 3)
    return Figure(metric, rounded, unit, label, target)


def build_figures(
    args: argparse.Namespace,
    echo: tuple[Tally, Usage],
    echo_store: tuple[Tally, Usage],
    service: tuple[Tally, Usage, dict[str, Any]],
    memory: dict[str, Any],
) -> list[Figure]:
    echo_tally, echo_usage = echo
    store_tally, store_usage = echo_store
    store_cpu = per(store_usage.server, store_tally.done)
    svc, svc_usage, _ = service
    ratio = divide(svc.rate, echo_tally.rate)
    svc_cpu = per(svc_usage.server, svc.done)
    echo_cpu = per(echo_usage.server, echo_tally.done)
    size = memory["bytes"]
    commit_us = divide(svc_usage.commit_usec, svc_usage.commit_calls)
    window = args.duration
    errors = sum(v for k, v in svc.counts.items() if k.startswith(("error_", "unexpected_")))
    figures = [
        figure("ws.service.actions_per_s", svc.rate, "1/s", "service: accepted actions per s"),
        figure("ws.echo.msgs_per_s", echo_tally.rate, "1/s", "echo: messages per s"),
        figure(
            "ws.ratio_vs_echo",
            ratio,
            "ratio",
            "service / echo throughput",
            f">= {TARGET_RATIO}",
            ratio >= TARGET_RATIO,
        ),
        figure("ws.service.p50_ms", svc.percentile_ms(50), "ms", "service: p50 round trip"),
        figure("ws.service.p99_ms", svc.percentile_ms(99), "ms", "service: p99 round trip"),
        figure("ws.echo.p50_ms", echo_tally.percentile_ms(50), "ms", "echo: p50 round trip"),
        figure("ws.echo.p99_ms", echo_tally.percentile_ms(99), "ms", "echo: p99 round trip"),
        figure(
            "redis.DS.bytes_per_game",
            size,
            "B",
            f"Redis bytes of one DS game after {MEMORY_ACTIONS} actions",
            f"<= {TARGET_BYTES_PER_GAME}",
            size <= TARGET_BYTES_PER_GAME,
        ),
    ]
    figures += [
        figure(f"redis.DS.bytes_per_game.{key}", value, "B", f"of which key :{key}")
        for key, value in sorted(memory["per_key"].items())
    ]
    store_ratio = divide(svc.rate, store_tally.rate)
    p99_ratio = divide(svc.percentile_ms(99), store_tally.percentile_ms(99))
    figures += [
        figure(
            "ws.echo_store.msgs_per_s",
            store_tally.rate,
            "1/s",
            "echo + one store round trip: messages per s",
        ),
        figure(
            "ws.echo_store.ratio_vs_echo",
            divide(store_tally.rate, echo_tally.rate),
            "ratio",
            "echo + store / echo throughput",
        ),
        figure(
            "ws.ratio_vs_echo_store",
            store_ratio,
            "ratio",
            "service / (echo + store) throughput",
            f">= {TARGET_RATIO_VS_ECHO_STORE}",
            store_ratio >= TARGET_RATIO_VS_ECHO_STORE,
        ),
        figure("ws.echo_store.p50_ms", store_tally.percentile_ms(50), "ms", "echo + store: p50"),
        figure("ws.echo_store.p99_ms", store_tally.percentile_ms(99), "ms", "echo + store: p99"),
        figure(
            "ws.service.p99_vs_echo_store",
            p99_ratio,
            "ratio",
            "service p99 / (echo + store) p99",
            f"<= {TARGET_P99_VS_ECHO_STORE}",
            p99_ratio <= TARGET_P99_VS_ECHO_STORE,
        ),
        figure(
            "ws.echo_store.server_cpu_us",
            store_cpu,
            "us",
            "echo + store process CPU per message",
        ),
        figure(
            "ws.echo_store.redis_cpu_us",
            per(store_usage.redis, store_tally.done),
            "us",
            "Redis CPU per echo + store message",
        ),
        figure(
            "ws.ratio_vs_echo_cpu",
            divide(echo_cpu, svc_cpu),
            "ratio",
            "echo / service server CPU per message",
        ),
        figure("ws.service.server_cpu_us", svc_cpu, "us", "service process CPU per action"),
        figure("ws.echo.server_cpu_us", echo_cpu, "us", "echo process CPU per message"),
        figure(
            "ws.service.redis_cpu_us",
            per(svc_usage.redis, svc.done),
            "us",
            "Redis CPU per action (all its clients)",
        ),
        figure("redis.commit_script_us", commit_us, "us", "Redis time per commit script"),
        figure(
            "ws.service.driver_cpu_us",
            per(svc_usage.client, svc.done),
            "us",
            "driver CPU per action",
        ),
        figure(
            "ws.echo.driver_cpu_us",
            per(echo_usage.client, echo_tally.done),
            "us",
            "driver CPU per echo",
        ),
        figure(
            "ws.service.server_cores",
            (svc_usage.server or 0) / window,
            "cores",
            "service process busy",
        ),
        figure(
            "ws.service.driver_cores",
            svc_usage.client / window,
            "cores",
            "driver busy, service phase",
        ),
        figure(
            "ws.echo.server_cores", (echo_usage.server or 0) / window, "cores", "echo process busy"
        ),
        figure(
            "ws.echo.driver_cores", echo_usage.client / window, "cores", "driver busy, echo phase"
        ),
        figure(
            "ws.service.change_frames",
            svc.counts["change_frames"],
            "count",
            "change frames received",
        ),
        figure("ws.service.undos", svc.counts["undos"], "count", "undos accepted"),
        figure(
            "ws.service.rejected",
            svc.counts["rejected"],
            "count",
            "legal actions rejected (must be 0)",
        ),
        figure(
            "ws.service.state_mismatches",
            svc.counts["state_mismatches"],
            "count",
            "local copy != service state (must be 0)",
        ),
        figure(
            "ws.service.script_mismatches",
            svc.counts["script_mismatches"],
            "count",
            "answers whose notation is not the script's (must be 0)",
        ),
        figure(
            "ws.service.scripts_run_out",
            svc.counts["scripts_run_out"],
            "count",
            "games that played on live after their script",
        ),
        figure(
            "ws.service.change_frames_missing",
            svc.counts["change_frames_missing"],
            "count",
            "accepted actions without a change (frame or in the result)",
        ),
        figure(
            "ws.service.changes_out_of_order",
            svc.counts["changes_out_of_order"],
            "count",
            "changes not in version order, repeated or skipped (must be 0)",
        ),
        figure("ws.service.errors", errors, "count", "error frames"),
    ]
    return [f for f in figures if f is not None]


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
            echo = await echo_phase(args, echo_server)
            echo_store = await echo_phase(args, echo_store_server, redis)
            service = await service_phase(args, service_server, http, redis, rng)
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
    parser.add_argument("--fd", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.duration, args.warmup = 5, 2.0, 0.5
    if args.games < 1 or args.duration <= 0 or args.warmup < 0:
        parser.error("--games must be positive, --duration positive, --warmup not negative")
    args.compression = None if args.compression == "none" else args.compression
    return args


@contextlib.contextmanager
def _event_loop_policy() -> Iterator[None]:
    """uvloop for the driver too, when installed: the servers run on it."""
    try:
        import uvloop
    except ImportError:
        yield
        return
    previous = asyncio.get_event_loop_policy()
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    try:
        yield
    finally:
        asyncio.set_event_loop_policy(previous)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.serve:
        serve(args.serve, args.fd, args.redis_url)
        return 0
    try:
        with _event_loop_policy():
            return asyncio.run(run(args))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("interrupted; servers stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
