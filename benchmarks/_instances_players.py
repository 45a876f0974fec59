"""The players of ``instances.py``: one game each on its home instance, its WebSocket and
a local copy of the game kept in step with it; and one cell (instances x games) played,
from creating the games to checking every copy against another instance."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import _profile
from benchmarks._client import Tally, random_move, recv_json, ws_connect
from benchmarks._processes import HOST, Process, cpu_seconds

REPLY_TIMEOUT = 15.0


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


@dataclass
class Player:
    """One game, played on instance ``home``, and a local copy of it that plays what the
    service accepts (so that the next action drawn is legal)."""

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
    """What one cell measured: round trips, CPU cores per process, and the copies that
    ended out of step with the service."""

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
    """Creates ``games`` games round-robin over ``servers``, plays them through the window,
    then checks each local copy on another instance than the one that played it."""
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
                measured = asyncio.create_task(usage())
                await asyncio.gather(
                    measured, *(play(p, ws, tally) for p, ws in zip(players, sockets, strict=True))
                )
            cpu = measured.result()
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
