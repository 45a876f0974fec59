#!/usr/bin/env python
"""Other players' latency while one client attacks the service.

One run starts a private redis-server and, per phase, a fresh service process
(``python -m service``, Redis store, the default limits unless said otherwise) on free
ports of 127.0.0.1. A second service process on the same Redis, with its limits lifted,
first plays one long Double Solitaire game (``--long-actions`` actions, undos included)
that the attacks read. Then, in each phase, ``--players`` players play their own games
over WebSocket at ``--pace`` actions per second each (an action or undo, then wait for
its ``result``), and the round trips of those results are the figures. The attacker is
a child process of its own, so that it does not slow the players' driver:

- ``none``: no attacker (the reference);
- ``changes_replay``: ``--attackers`` loops repeat ``GET /games/{id}/changes?since=``
  the oldest version still within ``CATCHUP_LIMIT`` of the long game, as fast as the
  answers come (all from 127.0.0.1, like the players);
- ``changes_replay_unthrottled``: the same with the per-address limit on changes pages
  lifted, as for an attacker with many addresses: what one page costs, alone;
- ``flood``: one WebSocket client sends ``--flood-rate`` small frames a second, steadily,
  reading whatever comes back, and reconnects at once whenever it is closed.

Before the ``changes_replay_unthrottled`` phase, ``--samples`` sequential requests of
that old ``since`` on the otherwise idle service give the time of one request.

Output: a table, then one JSON line per figure, e.g.
``{"metric": "attack.changes_replay.others_p99_ms", "value": 12.3, "unit": "ms"}``.

    python benchmarks/attacks.py [--players 20] [--duration 10] [--long-actions 5000]
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
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks._attacks_attackers import run_attacker, start_attacker
from benchmarks._client import Tally, ws_connect
from benchmarks._processes import (
    HOST,
    Process,
    cpu_seconds,
    percentile_ms,
    start_redis,
    start_service,
    wait_ready,
    wait_redis,
)
from benchmarks._report import Figure, report
from benchmarks._ws_players import Player, create_player, open_session, play_once

LIFTED = {
    "RATE_PER_SECOND": "1000000000",
    "RATE_BURST": "1000000000",
    "HTTP_WRITE_RATE_PER_SECOND": "1000000000",
    "HTTP_WRITE_BURST": "1000000000",
    "CHANGES_RATE_PER_SECOND": "1000000000",
    "CHANGES_BURST": "1000000000",
}
CATCHUP_LIMIT = 1000  # the service's default
PHASES = ("none", "changes_replay", "changes_replay_unthrottled", "flood")


# =========================================================================== players


@dataclass
class PhaseResult:
    tally: Tally
    attack: dict[str, int] = field(default_factory=dict)
    service_cpu: float = float("nan")  # service process CPU seconds in the window


async def play_paced(player: Player, ws: Any, tally: Tally, interval: float) -> None:
    """Plays one action every ``interval`` seconds until the window ends."""
    tick = time.perf_counter()
    while time.perf_counter() < tally.window_end:
        if not await play_once(player, ws, tally):
            tally.counts["games_finished"] += 1
            return
        tick += interval
        await asyncio.sleep(max(0.0, tick - time.perf_counter()))


async def run_phase(
    args: argparse.Namespace, http: Any, service: Process, attack: str, long_game: str
) -> PhaseResult:
    rng = random.Random(args.seed)
    players = await asyncio.gather(
        *(create_player(http, service.port, rng) for _ in range(args.players))
    )
    tally = Tally()
    attacker = None
    async with contextlib.AsyncExitStack() as stack:
        sockets = [await stack.enter_async_context(ws_connect(service.port, None)) for _ in players]
        await asyncio.gather(
            *(open_session(p, ws, False) for p, ws in zip(players, sockets, strict=True))
        )
        since = max(0, args.long_actions - CATCHUP_LIMIT)
        url = f"{service.url}/games/{long_game}/changes?since={since}"
        if attack != "none":
            kind = "flood" if attack == "flood" else "changes"
            attacker = start_attacker(kind, args, service.port, url)
        now = time.perf_counter()
        tally.window_start = now + args.warmup
        tally.window_end = tally.window_start + args.duration
        cpu: list[float] = []

        async def read_cpu() -> None:
            for edge in (tally.window_start, tally.window_end):
                await asyncio.sleep(max(0.0, edge - time.perf_counter()))
                cpu.append(cpu_seconds(service.pid))

        await asyncio.gather(
            read_cpu(),
            *(
                play_paced(p, ws, tally, 1.0 / args.pace)
                for p, ws in zip(players, sockets, strict=True)
            ),
        )
    result = PhaseResult(tally, service_cpu=cpu[1] - cpu[0])
    if attacker is not None:
        import json

        out, _ = attacker.communicate(timeout=60)
        lines = [line for line in out.splitlines() if line.startswith("{")]
        result.attack = json.loads(lines[-1]) if lines else {}
    return result


async def build_long_game(args: argparse.Namespace, http: Any, builder: Process) -> str:
    """A DS game with ``--long-actions`` accepted actions and undos, played flat out."""
    rng = random.Random(args.seed)
    tally = Tally(window_start=0.0, window_end=float("inf"))
    while True:
        player = await create_player(http, builder.port, rng)
        async with ws_connect(builder.port, None) as ws:
            await open_session(player, ws, False)
            while player.accepted < args.long_actions:
                if not await play_once(player, ws, tally):
                    break
        if player.accepted >= args.long_actions:
            return player.game_id


async def time_one_request(http: Any, url: str, samples: int) -> list[float]:
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        response = await http.get(url)
        times.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise RuntimeError(f"changes answered {response.status_code}: {response.text[:200]}")
        await asyncio.sleep(0.05)
    return times


# =========================================================================== main


async def run(args: argparse.Namespace) -> int:
    import httpx2

    main_task = asyncio.current_task()
    assert main_task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main_task.cancel)
    workdir = Path(tempfile.mkdtemp(prefix="attacks-"))
    redis = start_redis(workdir)
    results: dict[str, PhaseResult] = {}
    request_times: list[float] = []
    page_changes = 0
    try:
        await wait_redis(redis.port)
        store = f"redis://{HOST}:{redis.port}/0"
        limits = httpx2.Limits(max_connections=64)
        async with httpx2.AsyncClient(trust_env=False, timeout=30.0, limits=limits) as http:
            builder = start_service("builder", store, LIFTED)
            try:
                await wait_ready(http, builder)
                long_game = await build_long_game(args, http, builder)
                since = max(0, args.long_actions - CATCHUP_LIMIT)
                url = f"{builder.url}/games/{long_game}/changes?since={since}"
                page_changes = len((await http.get(url)).json()["changes"])
                request_times = await time_one_request(http, url, args.samples)
            finally:
                builder.stop()
            for phase in args.phases:
                settings: dict[str, str] = {}
                if phase == "changes_replay_unthrottled":
                    settings = {
                        "CHANGES_RATE_PER_SECOND": "1000000000",
                        "CHANGES_BURST": "1000000000",
                    }
                service = start_service(phase, store, settings)
                try:
                    await wait_ready(http, service)
                    results[phase] = await run_phase(args, http, service, phase, long_game)
                finally:
                    service.stop()
    finally:
        redis.stop()

    figures = [
        Figure(
            "attack.changes_request_p50_ms",
            round(percentile_ms(request_times, 50), 3),
            "ms",
            f"one GET changes?since=version-{CATCHUP_LIMIT}, idle service, p50",
        ),
        Figure(
            "attack.changes_request_max_ms",
            round(percentile_ms(request_times, 100), 3),
            "ms",
            "the same, slowest of the samples",
        ),
        Figure("attack.changes_request_changes", page_changes, "count", "changes in that answer"),
    ]
    for phase, result in results.items():
        tally = result.tally
        prefix = f"attack.{phase}"
        figures += [
            Figure(
                f"{prefix}.others_p50_ms",
                round(tally.percentile_ms(50), 3),
                "ms",
                f"{phase}: other players' p50 round trip",
            ),
            Figure(
                f"{prefix}.others_p99_ms",
                round(tally.percentile_ms(99), 3),
                "ms",
                f"{phase}: other players' p99 round trip",
            ),
            Figure(
                f"{prefix}.others_max_ms",
                round(tally.percentile_ms(100), 3),
                "ms",
                f"{phase}: other players' slowest round trip",
            ),
            Figure(
                f"{prefix}.others_actions_per_s",
                round(tally.rate, 1),
                "1/s",
                f"{phase}: other players' accepted actions per s",
            ),
        ]
        figures.append(
            Figure(
                f"{prefix}.service_cpu_share",
                round(result.service_cpu / args.duration, 3),
                "cores",
                f"{phase}: service process busy (CPU s per s)",
            )
        )
        refused = sum(v for k, v in tally.counts.items() if k.startswith(("error_", "unexpected_")))
        figures.append(
            Figure(
                f"{prefix}.others_errors",
                refused,
                "count",
                f"{phase}: error answers to other players (must be 0)",
            )
        )
        seconds = args.warmup + args.duration + 1.0
        for key, value in sorted(result.attack.items()):
            unit, number = (
                ("count", value) if key == "closed" else ("1/s", round(value / seconds, 1))
            )
            figures.append(
                Figure(f"{prefix}.attacker_{key}", number, unit, f"{phase}: attacker {key}")
            )
    title = (
        f"Attacks: {args.players} players at {args.pace:g} actions/s each, {args.duration:g} s "
        f"measured per phase after {args.warmup:g} s; long game of {args.long_actions} "
        f"actions; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end"
    )
    report(title, figures)
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=20, help="players measured")
    parser.add_argument("--pace", type=float, default=10.0, help="actions per s per player")
    parser.add_argument("--duration", type=float, default=10.0, help="measured s per phase")
    parser.add_argument("--warmup", type=float, default=1.0, help="uncounted seconds first")
    parser.add_argument("--long-actions", type=int, default=5000, help="actions of the long game")
    parser.add_argument("--attackers", type=int, default=4, help="concurrent changes loops")
    parser.add_argument("--flood-rate", type=int, default=2900, help="flood frames per s")
    parser.add_argument("--samples", type=int, default=20, help="timed single requests")
    parser.add_argument("--phases", default=",".join(PHASES), help="phases to run, in order")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="a smoke run: small and short")
    parser.add_argument("--attack", choices=["changes", "flood"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--url", default="", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=0.0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.duration, args.warmup = 3, 1.0, 0.5
        args.long_actions, args.samples = 300, 3
    args.phases = [p for p in args.phases.split(",") if p]
    unknown = set(args.phases) - set(PHASES)
    if unknown:
        parser.error(f"unknown phases {sorted(unknown)}; choose from {', '.join(PHASES)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.attack:
        return run_attacker(args)
    try:
        return asyncio.run(run(args))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("interrupted; servers stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
