#!/usr/bin/env python
"""Hints through the service, and what they cost the other players.

A private redis-server and the service (``python -m service``, Redis store) run as child
processes. ``--players`` players each play a Double Solitaire game over a WebSocket of
their own: a random legal action (or undo) every ``--pause`` seconds, each one timed
from sending it to its accepted ``result``. The run has two phases of ``--seconds`` each,
in this order, on the same instance:

1. players only: their action latency is the baseline (``hints.baseline_p99_ms``);
2. the same players while ``--hinters`` clients ask ``POST /games/{id}/hint`` on games of
   their own, one after another without pause (``solver.hint_p99_ms`` is their latency,
   ``hints.others_p99_ms`` the players' latency meanwhile).

The target is ``hints.others_p99_ms`` within 10 % of the baseline (``hints.others_ratio``
at most 1.1) and ``solver.hint_p99_ms`` at most 50 ms.

    python benchmarks/hints.py [--players 20] [--hinters 2] [--seconds 10] [--pause 0.05]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx2
import orjson

from benchmarks._client import random_move, recv_json, ws_connect
from benchmarks._processes import (
    percentile_ms,
    start_redis,
    start_service,
    wait_ready,
    wait_redis,
)
from benchmarks._report import Figure, report
from service import engine


async def player(
    port: int,
    http: httpx2.AsyncClient,
    base: str,
    pause: float,
    stop: asyncio.Event,
    latencies: list[list[float]],
    phase: list[int],
    seed: int,
) -> None:
    created = (await http.post(f"{base}/games", json={"game": "DS", "draw": 1})).json()
    game_id, token = created["game_id"], created["player_token"]
    # A local copy of the game, from its code, to pick legal moves.
    game = engine.new_game(created["code"])
    rng = random.Random(seed)
    async with ws_connect(port) as ws:
        await ws.send('{"type": "hello", "protocol": 1}')
        await recv_json(ws)
        await ws.send(
            f'{{"type": "subscribe", "id": "s", "game_id": "{game_id}", "token": "{token}"}}'
        )
        while (await recv_json(ws))["type"] != "snapshot":
            pass
        while not stop.is_set():
            move = random_move(game, game_id, rng)
            if move is None:
                break
            started = time.perf_counter()
            await ws.send(orjson.dumps(move))
            while True:
                frame = await recv_json(ws)
                if frame.get("id") == move["id"]:
                    break
            if frame.get("status") == "accepted":
                latencies[phase[0]].append(time.perf_counter() - started)
                game.play(engine.parse_action(frame["notation"]))
            await asyncio.sleep(pause)


async def hinter(
    http: httpx2.AsyncClient, base: str, stop: asyncio.Event, latencies: list[float]
) -> None:
    created = (await http.post(f"{base}/games", json={"game": "DS", "draw": 1})).json()
    headers = {"authorization": f"Bearer {created['player_token']}"}
    url = f"{base}/games/{created['game_id']}/hint"
    while not stop.is_set():
        started = time.perf_counter()
        response = await http.post(url, headers=headers)
        if response.status_code != 200:
            raise RuntimeError(f"hint answered {response.status_code}: {response.text}")
        latencies.append(time.perf_counter() - started)


async def main(args: argparse.Namespace) -> None:
    players: list[list[float]] = [[], []]
    hints: list[float] = []
    with tempfile.TemporaryDirectory() as workdir:
        redis_process = start_redis(Path(workdir))
        service = None
        try:
            await wait_redis(redis_process.port)
            url = f"redis://127.0.0.1:{redis_process.port}/0"
            service = start_service(
                "service",
                url,
                {
                    # Every client of the benchmark comes from one address.
                    "RATE_PER_SECOND": "100000",
                    "RATE_BURST": "100000",
                    "HTTP_WRITE_RATE_PER_SECOND": "100000",
                    "HTTP_WRITE_BURST": "100000",
                },
            )
            async with httpx2.AsyncClient(timeout=30) as http:
                await wait_ready(http, service)
                # Warm the hint process up: its first answer includes starting it.
                warm = (await http.post(f"{service.url}/games", json={"game": "TF"})).json()
                await http.post(
                    f"{service.url}/games/{warm['game_id']}/hint",
                    headers={"authorization": f"Bearer {warm['player_token']}"},
                )
                stop, phase = asyncio.Event(), [0]
                playing = [
                    asyncio.create_task(
                        player(
                            service.port, http, service.url, args.pause, stop, players, phase, seed
                        )
                    )
                    for seed in range(args.players)
                ]
                await asyncio.sleep(args.seconds)
                phase[0] = 1
                hint_stop = asyncio.Event()
                hinting = [
                    asyncio.create_task(hinter(http, service.url, hint_stop, hints))
                    for _ in range(args.hinters)
                ]
                await asyncio.sleep(args.seconds)
                stop.set()
                hint_stop.set()
                await asyncio.gather(*playing, *hinting)
        finally:
            if service is not None:
                service.stop()
            redis_process.stop()
    baseline = percentile_ms(players[0], 99)
    others = percentile_ms(players[1], 99)
    report(
        f"Hints: {args.players} players acting every {args.pause}s, then {args.hinters} "
        f"hinting clients besides them ({args.seconds}s each phase)",
        [
            Figure(
                "solver.hint_p99_ms",
                round(percentile_ms(hints, 99), 2),
                "ms",
                f"hint latency over HTTP ({len(hints)} hints)",
                "<= 50",
            ),
            Figure(
                "hints.baseline_p99_ms",
                round(baseline, 2),
                "ms",
                "players' action latency, no hints",
            ),
            Figure(
                "hints.others_p99_ms",
                round(others, 2),
                "ms",
                "players' action latency while hints are asked",
            ),
            Figure(
                "hints.others_ratio", round(others / baseline, 3), "1", "the two, divided", "<= 1.1"
            ),
        ],
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--hinters", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--pause", type=float, default=0.05)
    asyncio.run(main(parser.parse_args()))
