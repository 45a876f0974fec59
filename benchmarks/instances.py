#!/usr/bin/env python
"""Many instances: action throughput and round trip with 1, 2 and 3 instances on one Redis.

For every cell (instance count x concurrent games) the run starts that many service
processes (``python -m service``, rate limits out of reach) on a private redis-server,
creates the games over HTTP and opens one WebSocket per game, spread round-robin over the
instances (game ``i`` on instance ``i mod n``). Each connection says hello, subscribes with
the player token and then plays in a closed loop: a random legal action (sometimes an
undo) picked from a local ``service.engine`` copy of its game, sent with a request id, and
the round trip timed to its ``result``; the ``change`` frames in between are counted. The
first ``--warmup`` seconds are not counted. At the end every local copy is checked against
the service's state (GET on another instance than the one that played it).

CPU time of every process (instances, Redis, this driver) is read at the edges of the
measured window: on a small machine that runs everything at once, it shows who had the
cores. ``--profile FILE`` records the first instance with py-spy (speedscope format)
during the measured window of the cell given by ``--profile-cell`` (e.g. ``1x50``) and
prints the costliest functions.

Output: a table, then one JSON line per figure, e.g.
``{"metric": "instances.2.games.50.actions_per_s", "value": 1234.5, "unit": "1/s"}``.

    python benchmarks/instances.py [--duration 10] [--warmup 2] [--url-options ...] [--quick]
    python benchmarks/instances.py --workers 1,2   # one port, WORKERS=1 then WORKERS=2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing the package
    sys.path.insert(0, str(ROOT))

from benchmarks import _profile
from benchmarks._client import Tally, random_move, recv_json, ws_connect
from benchmarks._processes import (
    Process,
    cpu_seconds,
    raise_open_files,
    start_redis,
    start_service,
    wait_ready,
    wait_redis,
)
from benchmarks._report import Figure, report

HOST = "127.0.0.1"
REPLY_TIMEOUT = 15.0


def start_instance(name: str, redis_port: int, url_options: str = "", workers: int = 1) -> Process:
    query = f"?{url_options}" if url_options else ""
    limits = {
        "WORKERS": str(workers),
        "RATE_PER_SECOND": "1000000000",
        "RATE_BURST": "1000000000",
        "HTTP_WRITE_RATE_PER_SECOND": "1000000000",
        "HTTP_WRITE_BURST": "1000000000",
    }
    return start_service(name, f"redis://{HOST}:{redis_port}/0{query}", limits)


def process_ids(server: Process) -> dict[str, int]:
    """The server's process, or with ``WORKERS`` above 1 each of its worker processes (the
    parent only waits for them; its CPU time would not count theirs)."""
    pid = server.proc.pid
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    if not children:
        return {server.name: pid}
    return {f"{server.name}.w{i}": int(child) for i, child in enumerate(children)}


# =========================================================================== one cell


@dataclass
class Player:
    game_id: str
    token: str
    local: Any
    rng: random.Random
    home: int
    accepted: int = 0
    changes: int = 0

    def next_message(self) -> dict[str, Any] | None:
        return random_move(self.local, self.game_id, self.rng)


async def open_session(player: Player, ws: Any) -> None:
    import orjson

    await ws.send(orjson.dumps({"type": "hello", "protocol": 1}).decode())
    if (await recv_json(ws)).get("type") != "welcome":
        raise RuntimeError("no welcome")
    message = {"type": "subscribe", "id": "s", "game_id": player.game_id, "token": player.token}
    await ws.send(orjson.dumps(message).decode())
    answer = await recv_json(ws)
    if answer.get("type") != "subscribed" or answer.get("role") != "player":
        raise RuntimeError(f"subscribe answered {answer}")
    if (await recv_json(ws)).get("type") != "snapshot":
        raise RuntimeError("no snapshot")


async def play(player: Player, ws: Any, tally: Tally) -> None:
    import orjson

    from service import engine

    while time.perf_counter() < tally.window_end:
        message = player.next_message()
        if message is None:
            tally.counts["games_over"] += 1
            return
        sent = time.perf_counter()
        await ws.send(orjson.dumps(message).decode())
        while True:
            reply = await recv_json(ws)
            kind = reply.get("type")
            if kind == "change":
                player.changes += 1
                continue
            if reply.get("id") == message["id"]:
                break
            tally.counts[f"unexpected_{kind}"] += 1
        accepted = kind == "result" and reply.get("status") == "accepted"
        tally.record(sent, time.perf_counter(), accepted)
        if accepted:
            player.local.play(engine.parse_action(reply["notation"]))
            player.accepted += 1
        elif kind == "result":
            tally.counts["rejected"] += 1  # a legal action refused: the copies diverged
        else:
            tally.counts[f"error_{reply.get('code')}"] += 1


async def drain(player: Player, ws: Any) -> None:
    import orjson

    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(3):
            while player.changes < player.accepted:
                if orjson.loads(await ws.recv()).get("type") == "change":
                    player.changes += 1


@dataclass
class Cell:
    instances: int
    games: int
    tally: Tally
    seconds: float
    cpu: dict[str, float]
    mismatches: int
    missing_changes: int
    profile: dict[str, Any] = field(default_factory=dict)
    workers: bool = False  # ``instances`` counts the processes of one WORKERS service


async def run_cell(
    args: argparse.Namespace,
    http: Any,
    redis: Process,
    servers: list[Process],
    games: int,
    rng: random.Random,
) -> Cell:
    import redis.asyncio as aioredis

    from service import engine

    store = aioredis.Redis(host=HOST, port=redis.port)
    await store.flushdb()
    await store.aclose()
    n = len(servers)

    async def create(index: int) -> Player:
        server = servers[index % n]
        response = await http.post(
            f"http://{HOST}:{server.port}/games", json={"game": "DS", "draw": 1}
        )
        if response.status_code != 201:
            raise RuntimeError(f"create answered {response.status_code}: {response.text}")
        body = response.json()
        return Player(
            body["game_id"],
            body["player_token"],
            engine.new_game(body["code"]),
            random.Random(rng.random()),
            index % n,
        )

    semaphore = asyncio.Semaphore(64)

    async def bounded(coro: Any) -> Any:
        async with semaphore:
            return await coro

    players = await asyncio.gather(*(bounded(create(i)) for i in range(games)))
    tally = Tally()
    profile: dict[str, Any] = {}
    async with contextlib.AsyncExitStack() as stack:

        async def connect(player: Player) -> Any:
            ws = await stack.enter_async_context(ws_connect(servers[player.home].port))
            await open_session(player, ws)
            return ws

        sockets = await asyncio.gather(*(bounded(connect(p)) for p in players))
        tally.window_start = time.perf_counter() + args.warmup
        tally.window_end = tally.window_start + args.duration
        spy = None
        if args.profile and args.profile_cell == f"{n}x{games}" and not args.workers:
            spy = _profile.start(servers[0].proc.pid, args.profile, args.warmup + args.duration)
        pids = {"redis": redis.proc.pid}
        for server in servers:
            pids.update(process_ids(server))

        async def usage() -> dict[str, float]:
            await asyncio.sleep(max(0.0, tally.window_start - time.perf_counter()))
            before = {k: cpu_seconds(p) for k, p in pids.items()}
            before["driver"] = time.process_time()
            await asyncio.sleep(max(0.0, tally.window_end - time.perf_counter()))
            after = {k: cpu_seconds(p) for k, p in pids.items()}
            after["driver"] = time.process_time()
            return {k: (after[k] - before[k]) / args.duration for k in before}

        try:
            async with asyncio.timeout(args.warmup + args.duration + 4 * REPLY_TIMEOUT):
                cpu, *_ = await asyncio.gather(
                    usage(), *(play(p, ws, tally) for p, ws in zip(players, sockets, strict=True))
                )
        finally:
            if spy is not None:
                profile = _profile.finish(spy, args.profile, args.warmup + args.duration)
        await asyncio.gather(*(drain(p, ws) for p, ws in zip(players, sockets, strict=True)))

    async def check(player: Player) -> bool:
        other = servers[(player.home + 1) % n]
        response = await http.get(f"http://{HOST}:{other.port}/games/{player.game_id}")
        body = response.json()
        return bool(
            body["version"] == player.accepted and body["state"] == player.local.public_view()
        )

    results = await asyncio.gather(*(bounded(check(p)) for p in players))
    return Cell(
        args.workers_in_cell if args.workers else n,
        games,
        tally,
        args.duration,
        cpu,
        sum(not ok for ok in results),
        sum(p.accepted - p.changes for p in players),
        profile,
        bool(args.workers),
    )


# =========================================================================== report


def figures_of(cells: list[Cell]) -> list[Figure]:
    figures: list[Figure] = []
    for cell in cells:
        kind = "workers" if cell.workers else "instances"
        prefix = f"instances.{cell.instances}.games.{cell.games}"
        if cell.workers:
            prefix = f"instances.workers.{cell.instances}.games.{cell.games}"
        where = f"{cell.instances} {kind}, {cell.games} games"
        rate = cell.tally.done / cell.seconds
        figures.append(Figure(f"{prefix}.actions_per_s", round(rate, 1), "1/s", where))
        if cell.tally.refused:
            refused = round(cell.tally.refused / cell.seconds, 1)
            figures.append(Figure(f"{prefix}.refused_per_s", refused, "1/s", f"{where}: refused"))
        for q in (50, 99):
            value = cell.tally.percentile_ms(q)
            if value == value:  # not nan
                figures.append(
                    Figure(f"{prefix}.p{q}_ms", round(value, 2), "ms", f"{where}: p{q} trip")
                )
    return figures


def print_matrix(cells: list[Cell]) -> None:
    first = "proc" if cells and cells[0].workers else "inst"
    header = (
        f"{first:>4} {'games':>5} {'actions/s':>10} {'refused/s':>10} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'inst cores':>10} {'redis':>6} {'driver':>6}  notes"
    )
    print(header)
    print("-" * len(header))
    for cell in cells:
        servers = sum(v for k, v in cell.cpu.items() if k.startswith("i"))
        notes = [f"{k}={v}" for k, v in sorted(cell.tally.counts.items())]
        if cell.mismatches:
            notes.append(f"STATE MISMATCHES={cell.mismatches}")
        if cell.missing_changes:
            notes.append(f"missing change frames={cell.missing_changes}")
        print(
            f"{cell.instances:>4} {cell.games:>5} {cell.tally.done / cell.seconds:>10,.0f} "
            f"{cell.tally.refused / cell.seconds:>10,.0f} "
            f"{cell.tally.percentile_ms(50):>8.2f} {cell.tally.percentile_ms(99):>8.2f} "
            f"{servers:>10.2f} {cell.cpu.get('redis', 0):>6.2f} {cell.cpu.get('driver', 0):>6.2f}"
            f"  {' '.join(notes)}"
        )
    print()


# =========================================================================== main


async def run(args: argparse.Namespace) -> int:
    import httpx2

    raise_open_files()
    main_task = asyncio.current_task()
    assert main_task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main_task.cancel)
    rng = random.Random(args.seed)
    cells: list[Cell] = []
    with tempfile.TemporaryDirectory() as workdir:
        redis = start_redis(Path(workdir))
        try:
            await wait_redis(redis.port)
            limits = httpx2.Limits(max_connections=64)
            async with httpx2.AsyncClient(trust_env=False, timeout=30.0, limits=limits) as http:
                unit = "worker process(es)" if args.workers else "instance(s)"
                for count in args.workers or args.instances:
                    if args.workers:
                        args.workers_in_cell = count
                        servers = [start_instance("i0", redis.port, args.url_options, count)]
                    else:
                        servers = [
                            start_instance(f"i{i}", redis.port, args.url_options)
                            for i in range(count)
                        ]
                    try:
                        for server in servers:
                            await wait_ready(http, server)
                        for games in args.games:
                            print(f"... {count} {unit}, {games} games", file=sys.stderr)
                            cells.append(await run_cell(args, http, redis, servers, games, rng))
                    finally:
                        for server in servers:
                            server.stop()
        finally:
            redis.stop()

    options = f" (STORE_URL options: {args.url_options})" if args.url_options else ""
    what = "One service with WORKERS processes" if args.workers else "Many instances"
    title = (
        f"{what} on one Redis{options}: {args.duration:g} s measured after "
        f"{args.warmup:g} s warm-up per cell, one WebSocket per game, closed loop; "
        f"round trips of accepted actions; {os.cpu_count()} CPUs"
    )
    print(title)
    print()
    print_matrix(cells)
    report("figures", figures_of(cells))
    for cell in cells:
        if cell.profile:
            _profile.report(cell.profile, "profile of instance i0", args.profile)
    bad = sum(c.mismatches + c.tally.counts["rejected"] for c in cells)
    return 1 if bad else 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=10.0, help="measured s per cell")
    parser.add_argument("--warmup", type=float, default=2.0, help="uncounted s first")
    parser.add_argument(
        "--instances", default="1,2,3", help="instance counts, comma separated (default 1,2,3)"
    )
    parser.add_argument(
        "--workers",
        default="",
        help="instead of separate instances: one service on one port with WORKERS set to "
        "each of these counts, comma separated (e.g. 1,2)",
    )
    parser.add_argument(
        "--games", default="50,500", help="concurrent games, comma separated (default 50,500)"
    )
    parser.add_argument(
        "--url-options",
        default="",
        help="query options added to the instances' STORE_URL (passed on to redis-py)",
    )
    parser.add_argument("--quick", action="store_true", help="1-2 instances, 5-20 games, 2 s")
    parser.add_argument("--seed", type=int, default=None, help="seed of the random play")
    parser.add_argument("--profile", metavar="FILE", default=None, help="py-spy speedscope out")
    parser.add_argument(
        "--profile-cell", default="1x50", help="cell to profile, as INSTANCESxGAMES"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.instances, args.games = "1,2", "5,20"
        args.duration, args.warmup = 2.0, 0.5
        if args.profile_cell == "1x50":
            args.profile_cell = "1x20"
    args.instances = [int(x) for x in str(args.instances).split(",")]
    args.workers = [int(x) for x in str(args.workers).split(",") if x]
    args.games = [int(x) for x in str(args.games).split(",")]
    return args


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(run(parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
