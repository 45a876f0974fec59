#!/usr/bin/env python
"""One arena with many players: pairing and standings pushes, measured end to end.

The service runs as ``python -m service`` in a child process on a free port of
127.0.0.1: one instance on the memory store by default, or with ``--redis`` two
instances on a private ``redis-server`` that this script starts (and stops), the
players split between them. The driver (this process, asyncio with the ``websockets``
Sans-I/O protocol and ``httpx2``) creates ``--players`` players over HTTP and an arena; each player
opens a WebSocket, follows the top page of the standings with its player token
(``follow_arena``), and joins over HTTP. Whenever its line shows a new heat, it resigns
the heat's race (countdown 0) after playing a random 0.5 to 1.5 times ``--heat-seconds``
(10 s), so every heat is a draw that ends when both players resigned. It plays
``--heats`` heats and keeps following until the end. By default the arena is a scheduled
one: it starts a minute after it is made, the players join while it is upcoming, and its
first wave pairs them all at its start (the run is a minute longer, and the service CPU
figure includes that minute's upkeep).

Two harder cases, beyond what an arena of this size asks of a service: ``--heat-seconds
0`` resigns every heat at once (every wave pairs nearly everybody, and the resignations
of the heats just told arrive while the wave still makes the others: hundreds of heats a
second), and ``--no-upcoming`` has the players join the running arena all at once, so
the first waves run while a thousand joins and follows are still arriving. ``--quick``
is a smoke run of both (20 players, 2 heats, resigned at once, joining while it runs).

Before the service starts, the run measures its floor (``_tell_floor.py``): one frame
sent to every player's socket at once, through one fan-out server process per service
instance (after one Redis round trip with ``--redis``). That is the least that telling a
wave's players takes on this machine at this moment, and the figure to read the pairing
figure against on a shared machine whose speed moves from hour to hour.

Figures:

- ``arena.pairing_p99_ms``: from the wave's pairing of a player (the heat's
  ``started_at``: when the wave, having counted the heats that ended, began pairing) to
  the player's socket receiving its new heat (the kernel's stamp of the frame's arrival,
  ``benchmarks/_stamped.py``: on a machine the driver shares with the service, a driver
  busy with a thousand connections reads a frame later than it arrived, and that delay
  is the driver's, not the service's);
- ``arena.tell_floor_p99_ms``: the floor above, from the driver's send to each socket's
  stamped arrival, p99 over five fan-outs;
- ``arena.first_wave_ms``: the first wave (every player free at once, half as many
  heats as players) from its pairing to the last of its heats told, and
  ``arena.pairing_later_p99_ms``, the pairing figure of the waves after it;
- ``arena.free_to_paired_p99_ms``: from the player being free (joined, or its previous
  heat's race over: both players' resignations answered) to its new heat received, the
  wait for the next wave included;
- ``arena.standings_update_p99_ms``: from a heat being counted (its ``ended_at``) to a
  follower's socket receiving (stamped as above) the changed line of a player of that
  heat (on its page, or its own);
- ``arena.pairing_read_p99_ms`` and ``arena.standings_update_read_p99_ms``: the same two
  latencies to the moment the driver's loop read the frame, its own delay included (the
  figures of this benchmark before it read the kernel's stamps);
- ``arena.redis_commands_per_heat`` (``--redis``): Redis commands of the whole run after
  the joins, per heat counted (every call, from both instances);
- ``arena.redis_cpu_ms_per_heat`` (``--redis``): CPU of the Redis server over the same
  window (its ``used_cpu_sys`` and ``used_cpu_user``), per heat;
- ``arena.cpu_ms_per_heat``: CPU of the service processes over the same window, per heat;
- ``arena.driver_lag_p99_ms``: how late the driver's own event loop runs a 10 ms timer,
  which every latency figure above may include (pooled over the driver processes).

With ``--driver-processes N`` the players are split over N spawned driver processes, each
with its own event loop and HTTP client: heats resigned at once keep one driver's loop
hundreds of milliseconds late, and what it stamps late is the driver's delay, not the
service's. Times are wall-clock milliseconds, comparable across the processes.

Output: a table, then one JSON line per figure, e.g.
``{"metric": "arena.pairing_p99_ms", "value": 41.0, "unit": "ms"}``.

    python benchmarks/arena.py [--players 1000] [--heats 3] [--heat-seconds 10] [--wave 1]
                               [--page-seconds 0.1] [--no-upcoming] [--redis]
                               [--driver-processes 1] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing the package
    sys.path.insert(0, str(ROOT))

from benchmarks._client import run_driver
from benchmarks._processes import (
    Process,
    cpu_seconds,
    percentile_ms,
    start_redis,
    start_service,
    wait_ready,
    wait_redis,
)
from benchmarks._report import Figure, report
from benchmarks._stamped import StampedWebSocket
from benchmarks._tell_floor import tell_floor

MODE = "TF.D1N"
# Heats are played for 0.5 to 1.5 times this. Arena heats last minutes: this turns heats
# over tens of times faster than a real arena of this size.
DEFAULT_HEAT_SECONDS = 10.0
# How long the driver waits for every player's heats: a base, and as long again per
# hundred heats (one instance makes a few dozen heats a second at best).
WAIT_BASE_SECONDS = 60.0
WAIT_PER_HEAT_SECONDS = 0.1


def now_ms() -> float:
    return time.time() * 1000


@dataclass(frozen=True)
class Seat:
    """A player made for the run, and the instance it plays on (picklable: a driver
    process gets its share of them)."""

    index: int
    url: str
    port: int
    token: str


@dataclass
class Played:
    """What the driver saw of one player (wall-clock ms, comparable across processes)."""

    joined_ms: float = 0.0
    # Race id -> when the heat's frame reached the player's socket (the kernel's stamp).
    told: dict[str, float] = field(default_factory=dict)
    # Race id -> when the driver's loop read that frame.
    read: dict[str, float] = field(default_factory=dict)
    # Race id -> when its resignation was answered.
    resigned: dict[str, float] = field(default_factory=dict)
    # (reached the socket, read, player id, heats) of every changed line after the first
    # page.
    lines: list[tuple[float, float, str, int]] = field(default_factory=list)


@dataclass
class Player:
    seat: Seat
    played: Played = field(default_factory=Played)
    done: asyncio.Event = field(default_factory=asyncio.Event)


async def play(
    player: Player, arena_id: str, args: argparse.Namespace, http: Any, stop: asyncio.Event
) -> None:
    heats = args.heats
    base = player.seat.url
    seen = player.played
    auth = {"authorization": f"Bearer {player.seat.token}"}
    async with StampedWebSocket(player.seat.port) as ws:
        await ws.send('{"type": "hello", "protocol": 1}')
        await ws.recv()
        follow = {
            "type": "follow_arena",
            "id": "f",
            "arena_id": arena_id,
            "token": player.seat.token,
        }
        await ws.send(orjson.dumps(follow).decode())
        first = orjson.loads((await ws.recv())[1])
        assert first["type"] == "arena_standings", first
        known = {row["player_id"]: row["heats"] for row in first["rows"]}
        seen.joined_ms = now_ms()
        joined = await http.post(f"{base}/arenas/{arena_id}/players", headers=auth)
        joined.raise_for_status()
        resigning: set[asyncio.Task[Any]] = set()
        while not stop.is_set():
            try:
                arrived, text = await ws.recv(1.0)
            except TimeoutError:
                continue
            at = now_ms()
            message = orjson.loads(text)
            if message["type"] != "arena_standings":
                continue
            rows = list(message["rows"])
            if message.get("you"):
                rows.append(message["you"])
            for row in rows:
                if row["heats"] > known.get(row["player_id"], 0):
                    seen.lines.append((arrived, at, row["player_id"], row["heats"]))
                known[row["player_id"]] = row["heats"]
            heat = (message.get("you") or {}).get("heat")
            if heat and heat["race_id"] not in seen.told and len(seen.told) < heats:
                seen.told[heat["race_id"]] = arrived
                seen.read[heat["race_id"]] = at
                url = f"{base}/races/{heat['race_id']}/resign"
                playing = args.heat_seconds * random.uniform(0.5, 1.5)
                race_id = heat["race_id"]
                task = asyncio.create_task(
                    resign(http, url, heat["player_token"], playing, seen.resigned, race_id)
                )
                resigning.add(task)
                task.add_done_callback(resigning.discard)
                if len(seen.told) == heats:
                    player.done.set()
        await asyncio.gather(*resigning, return_exceptions=True)


async def drive(
    seats: list[Seat], arena_id: str, args: argparse.Namespace
) -> tuple[list[Played], list[float]]:
    """Plays ``seats`` to the end of the run: what each player saw, and the driver's lags."""
    import httpx2

    # The driver's own collector tuned as the service's is: a full collection over
    # 1,000 connections' objects stalled the driver for 100 ms and more, and the
    # frames it read meanwhile were stamped late.
    from service.server import tune_garbage_collector

    tune_garbage_collector()
    stop = asyncio.Event()
    lags: list[float] = []
    players = [Player(seat) for seat in seats]
    limits = httpx2.Limits(max_connections=200)
    async with httpx2.AsyncClient(trust_env=False, timeout=60, limits=limits) as http:
        watching = asyncio.create_task(driver_lag(lags, stop))
        tasks = [asyncio.create_task(play(p, arena_id, args, http, stop)) for p in players]
        waiting = [asyncio.create_task(p.done.wait()) for p in players]
        wait = WAIT_BASE_SECONDS + WAIT_PER_HEAT_SECONDS * args.players * args.heats / 2
        wait += 1.5 * args.heat_seconds * args.heats + (60 if args.upcoming else 0)
        _, pending = await asyncio.wait(waiting, timeout=wait)
        for task in pending:
            task.cancel()
        # The last heats ended by the last resignations: let a wave count them.
        await asyncio.sleep(args.wave * 2 + 1)
        stop.set()
        await watching
        await asyncio.gather(*tasks, return_exceptions=True)
    return [p.played for p in players], lags


def drive_in_process(
    seats: list[Seat], arena_id: str, args: argparse.Namespace
) -> tuple[list[Played], list[float]]:
    """``drive`` in a spawned driver process (``--driver-processes``)."""
    return run_driver(drive(seats, arena_id, args))


async def drive_all(
    seats: list[Seat], arena_id: str, args: argparse.Namespace
) -> tuple[list[Played], list[float]]:
    """Every player driven: from this process, or split over ``--driver-processes``
    spawned ones, their players' records and lags pooled."""
    if args.driver_processes == 1:
        return await drive(seats, arena_id, args)
    shares = [seats[i :: args.driver_processes] for i in range(args.driver_processes)]
    context = multiprocessing.get_context("spawn")
    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(args.driver_processes, mp_context=context) as pool:
        runs = [
            loop.run_in_executor(pool, drive_in_process, share, arena_id, args) for share in shares
        ]
        done = await asyncio.gather(*runs)
    # Back in the order of ``seats``.
    by_index: dict[int, Played] = {}
    lags: list[float] = []
    for share, (played, share_lags) in zip(shares, done, strict=True):
        by_index.update((seat.index, p) for seat, p in zip(share, played, strict=True))
        lags += share_lags
    return [by_index[seat.index] for seat in seats], lags


async def driver_lag(lags: list[float], stop: asyncio.Event) -> None:
    """How late the driver's event loop wakes for a 10 ms timer, every 10 ms: a frame that
    arrives while the driver is busy (reading a page told to 1,000 followers, say) is
    stamped that much late, so every latency figure includes up to this much of the
    driver's own."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        asked = loop.time()
        await asyncio.sleep(0.01)
        lags.append(max(0.0, loop.time() - asked - 0.01))


async def resign(
    http: Any, url: str, token: str, after: float, resigned: dict[str, float], race_id: str
) -> None:
    """Resigns a heat ``after`` seconds, again when the connection was cut under the
    request (a kept-alive connection the server closed): a heat left unresigned would
    last its time limit."""
    import httpx2

    if after > 0:
        await asyncio.sleep(after)
    for _ in range(5):
        try:
            await http.post(url, headers={"authorization": f"Bearer {token}"})
            resigned[race_id] = now_ms()
            return
        except httpx2.TransportError:
            await asyncio.sleep(0.1)


def redis_usage(port: int) -> tuple[Counter[str], float]:
    """The commands the Redis server has run, by name (those run by scripts too), and
    its CPU seconds."""
    import redis

    client = redis.Redis(host="127.0.0.1", port=port)
    try:
        stats = client.info("commandstats")
        cpu = client.info("cpu")
    finally:
        client.close()
    calls = Counter({name.removeprefix("cmdstat_"): int(e["calls"]) for name, e in stats.items()})
    return calls, float(cpu["used_cpu_sys"]) + float(cpu["used_cpu_user"])


async def run(args: argparse.Namespace) -> int:
    import httpx2

    settings = {
        "HTTP_WRITE_RATE_PER_SECOND": "1000000000",
        "HTTP_WRITE_BURST": "1000000000",
        "RATE_PER_SECOND": "1000000",
        "RATE_BURST": "1000000",
        "PLAYERS_PER_HOUR": "1000000",
        "MAX_CONNECTIONS_PER_ADDRESS": "100000",
        "MAX_CONNECTIONS": "100000",
        "ARENA_WAVE_SECONDS": str(args.wave),
        "ARENA_PAGE_SECONDS": str(args.page_seconds),
        "PAIRING_WAVE_SECONDS": "3600",
        "RACE_COUNTDOWN_SECONDS": "0",
    }
    redis: Process | None = None
    workdir = tempfile.TemporaryDirectory()
    services: list[Process] = []
    try:
        url = "memory://"
        if args.redis:
            redis = start_redis(Path(workdir.name))
            await wait_redis(redis.port)
            url = f"redis://127.0.0.1:{redis.port}/0"
        instances = 2 if args.redis else 1
        limits = httpx2.Limits(max_connections=200)
        async with httpx2.AsyncClient(trust_env=False, timeout=60, limits=limits) as http:
            floor = await tell_floor(http, instances, args.players, url)
            services = [
                start_service(f"service {n}" if args.redis else "service", url, settings)
                for n in range(1, instances + 1)
            ]
            for service in services:
                await wait_ready(http, service)
            made = await http.post(f"{services[0].url}/players", json={"name": "Host"})
            host = made.json()["player_token"]
            body = {"mode": MODE, "name": "Benchmark", "minutes": 60, "starts_in": 0}
            if args.upcoming:
                body["starts_in"] = 1
            arena = await http.post(
                f"{services[0].url}/arenas", json=body, headers={"authorization": f"Bearer {host}"}
            )
            arena.raise_for_status()
            arena_id = arena.json()["arena"]["arena_id"]
            start_at = float(arena.json()["arena"]["start_at"])
            gate = asyncio.Semaphore(50)

            async def new_player(index: int) -> Seat:
                service = services[index % len(services)]
                async with gate:
                    created = await http.post(f"{service.url}/players", json={"name": f"P{index}"})
                created.raise_for_status()
                return Seat(index, service.url, service.port, created.json()["player_token"])

            seats = await asyncio.gather(*(new_player(i) for i in range(args.players)))
            calls_before, redis_cpu_before = redis_usage(redis.port) if redis else (Counter(), 0.0)
            cpu_before = sum(cpu_seconds(s.pid) for s in services)
            started = time.perf_counter()
            players, lags = await drive_all(list(seats), arena_id, args)
            elapsed = time.perf_counter() - started
            cpu = sum(cpu_seconds(s.pid) for s in services) - cpu_before
            calls, redis_cpu = redis_usage(redis.port) if redis else (Counter(), 0.0)
            calls -= calls_before
            redis_cpu -= redis_cpu_before
            heats = (await http.get(f"{services[0].url}/arenas/{arena_id}/heats")).json()["heats"]
    finally:
        for service in services:
            service.stop()
        if redis is not None:
            redis.stop()
        workdir.cleanup()
    return figures(args, players, heats, elapsed, cpu, calls, redis_cpu, lags, start_at, floor)


def figures(
    args: argparse.Namespace,
    players: list[Played],
    heats: list[dict[str, Any]],
    elapsed: float,
    cpu: float,
    calls: Counter[str],
    redis_cpu: float,
    lags: list[float],
    start_at: float,
    floor: list[float],
) -> int:
    started = {h["race_id"]: h["started_at"] for h in heats}
    counted = [h for h in heats if h["outcomes"] is not None]
    # Player id -> the ended_at of its heats in order (its k-th heat counted at [k-1]).
    ends: dict[str, list[float]] = {}
    for heat in sorted(counted, key=lambda h: h["ended_at"]):
        for seat in heat["players"]:
            ends.setdefault(seat["player_id"], []).append(heat["ended_at"])
    first_wave = min(started.values(), default=0)
    # Wave -> told, the heats of the arena's first wave (every player free at once) apart.
    pairing_later: list[float] = []
    first_told = first_wave
    pairing, free_to_paired, standings = [], [], []
    # The same two latencies to when the driver's loop read the frame.
    pairing_read, standings_read = [], []
    # Race id -> when it was over: the later of its two resignations.
    over: dict[str, float] = {}
    for player in players:
        for race_id, at in player.resigned.items():
            over[race_id] = max(at, over.get(race_id, 0.0))
    for player in players:
        # A player who joined before the start is free from the start.
        previous = max(player.joined_ms, start_at)
        for race_id, told in sorted(player.told.items(), key=lambda item: item[1]):
            if race_id in started:
                pairing.append(max(0.0, told - started[race_id]) / 1000)
                pairing_read.append(max(0.0, player.read[race_id] - started[race_id]) / 1000)
                if started[race_id] == first_wave:
                    first_told = max(first_told, told)
                else:
                    pairing_later.append(max(0.0, told - started[race_id]) / 1000)
            free_to_paired.append(max(0.0, told - previous) / 1000)
            previous = over.get(race_id, told)
        for at, read, player_id, count in player.lines:
            ended = ends.get(player_id, [])
            if 0 < count <= len(ended):
                standings.append(max(0.0, at - ended[count - 1]) / 1000)
                standings_read.append(max(0.0, read - ended[count - 1]) / 1000)
    told = sum(len(p.told) for p in players)
    stuck = sum(1 for p in players if len(p.told) < args.heats)
    per_heat = max(1, len(counted))
    results = [
        Figure("arena.players", args.players, "1", "players"),
        Figure("arena.heats_counted", len(counted), "1", "heats counted"),
        Figure("arena.heats_told", told, "1", "heats told to a player"),
        Figure("arena.players_stuck", stuck, "1", f"told fewer than {args.heats} heats", "0"),
        Figure("arena.pairing_p50_ms", percentile_ms(pairing, 50), "ms", "wave -> told, median"),
        Figure("arena.pairing_p99_ms", percentile_ms(pairing, 99), "ms", "wave -> told", "<= 100"),
        Figure(
            "arena.tell_floor_p99_ms",
            percentile_ms(floor, 99),
            "ms",
            "one frame to every player at once, no pairing",
        ),
        Figure(
            "arena.first_wave_ms",
            round(first_told - first_wave, 1),
            "ms",
            "first wave -> its last heat told",
        ),
        Figure(
            "arena.pairing_later_p99_ms",
            percentile_ms(pairing_later, 99),
            "ms",
            "wave -> told, after the first wave",
        ),
        Figure(
            "arena.free_to_paired_p99_ms",
            percentile_ms(free_to_paired, 99),
            "ms",
            "free -> told, wave wait included",
        ),
        Figure(
            "arena.standings_update_p50_ms",
            percentile_ms(standings, 50),
            "ms",
            "heat counted -> follower has it, median",
        ),
        Figure(
            "arena.standings_update_p99_ms",
            percentile_ms(standings, 99),
            "ms",
            "heat counted -> follower has it",
            "<= 200",
        ),
        Figure("arena.standings_samples", len(standings), "1", "changed lines received"),
        Figure(
            "arena.pairing_read_p99_ms",
            percentile_ms(pairing_read, 99),
            "ms",
            "wave -> the driver read it",
        ),
        Figure(
            "arena.standings_update_read_p99_ms",
            percentile_ms(standings_read, 99),
            "ms",
            "heat counted -> the driver read it",
        ),
        Figure("arena.cpu_ms_per_heat", round(cpu * 1000 / per_heat, 2), "ms", "service CPU"),
        Figure(
            "arena.driver_lag_p99_ms",
            percentile_ms(lags, 99),
            "ms",
            "the driver's own delay in reading a frame",
        ),
        Figure(
            "arena.driver_lag_max_ms",
            percentile_ms(lags, 100),
            "ms",
            "the driver's longest such delay",
        ),
        Figure("arena.seconds", round(elapsed, 1), "s", "run after the players were made"),
    ]
    if args.redis:
        results[-2:-2] = [
            Figure(
                "arena.redis_commands_per_heat",
                round(calls.total() / per_heat, 1),
                "1",
                "all, those of scripts too",
            ),
            Figure(
                "arena.redis_cpu_ms_per_heat",
                round(redis_cpu * 1000 / per_heat, 3),
                "ms",
                "Redis server CPU",
            ),
        ]
    where = "two instances on one Redis" if args.redis else "one instance, memory store"
    if args.driver_processes > 1:
        where += f", {args.driver_processes} driver processes"
    lasting = f"heats of {args.heat_seconds:g} s" if args.heat_seconds else "heats resigned at once"
    if args.upcoming:
        lasting += ", all joined before the start"
    title = (
        f"Arena: {args.players} players, {args.heats} heats each, {lasting}, "
        f"waves every {args.wave:g} s, {where}, {os.cpu_count()} CPUs"
    )
    report(title, [f for f in results if f.value == f.value])
    if args.redis:
        print_commands(calls, per_heat)
    return 0 if stuck == 0 else 1


def print_commands(calls: Counter[str], per_heat: int) -> None:
    """Where a heat's Redis commands go: the most called, per heat."""
    print("\nRedis commands per heat, by name (a script's own commands counted too)")
    for name, count in calls.most_common(16):
        print(f"  {name:<24} {count / per_heat:8.1f}")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000, help="players in the arena")
    parser.add_argument("--heats", type=int, default=3, help="heats each player plays")
    parser.add_argument(
        "--heat-seconds",
        type=float,
        help="mean seconds a heat is played before resigning (0: at once; 10, or 0 with --quick)",
    )
    parser.add_argument("--wave", type=float, default=1.0, help="ARENA_WAVE_SECONDS")
    parser.add_argument("--page-seconds", type=float, default=0.1, help="ARENA_PAGE_SECONDS")
    parser.add_argument(
        "--redis", action="store_true", help="two instances on a private redis-server"
    )
    parser.add_argument(
        "--upcoming",
        action=argparse.BooleanOptionalAction,
        help="the arena starts a minute after it is made, everybody joins before its start "
        "(the default but with --quick); --no-upcoming: it runs, and they join it then",
    )
    parser.add_argument(
        "--driver-processes",
        type=int,
        default=1,
        help="spawned processes the players are split over (1: this one)",
    )
    parser.add_argument("--quick", action="store_true", help="20 players, 2 heats: a smoke run")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.heats = 20, 2
    if args.heat_seconds is None:
        args.heat_seconds = 0.0 if args.quick else DEFAULT_HEAT_SECONDS
    if args.upcoming is None:
        args.upcoming = not args.quick
    if not 1 <= args.driver_processes <= args.players:
        parser.error("--driver-processes must be between 1 and --players")
    return args


def main(argv: list[str] | None = None) -> int:
    return run_driver(run(parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
