#!/usr/bin/env python
"""A flood of "was it winnable?" requests from one address, and what it costs others.

The service (``python -m service``, memory store, default settings but for the write
rate its set-up needs) runs as a child process. The benchmark ends ``2 × --requests``
games of Double Solitaire drawing three with Vegas scoring (created and resigned at
once, so each one's analysis is a fresh search, mostly of its whole budget), then
times ``GET /healthz`` from 127.0.0.1, one request after another, in three phases of
``--samples`` requests each:

1. idle: nothing else runs (the baseline);
2. waiting flood: ``--requests`` analyses of distinct games, sent at once from 127.0.0.2,
   each client waiting for its answer;
3. departed flood: ``--requests`` analyses of the other games, from 127.0.0.3, each
   client closing its connection as soon as the request is sent.

During the waiting flood, one more client (127.0.0.4) asks for the analysis of a game
of its own: ``floods.other_analysis_s`` is how long its answer took (``busy`` at once
while every search slot is taken, instead of a place in a queue behind the flood).

``floods.healthz_p99_ratio`` is the p99 under the waiting flood over the idle p99 (the
target: at most 2). ``floods.orphan_cpu_s`` is what the service's own counter
(``solitaire_analysis_orphan_seconds``) says its searches ran after every client waiting
for them had gone: from the last one's going to the end of the worker process, an upper
bound of the CPU spent for nobody (target 0). ``floods.departed_cpu_s`` checks it from
outside: the CPU the whole service (its process and every worker, ended ones included)
spent from the departed flood to the end of the run, beside ``floods.idle_cpu_s``, what
the idle phase's rate comes to over as long.

    python benchmarks/floods.py [--requests 50] [--samples 300] [--settle 3] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx2

from benchmarks._processes import HOST, Process, percentile_ms, start_service, wait_ready
from benchmarks._report import Figure, report

WAITING_ADDRESS = "127.0.0.2"
DEPARTED_ADDRESS = "127.0.0.3"
OTHER_ADDRESS = "127.0.0.4"
# Double Solitaire drawing three with Vegas scoring: the search mostly spends its whole
# budget on these deals (docs/winnability.md), as the costly analyses of the flood did.
GAME = {"game": "DS", "draw": 3, "scoring": "vegas"}


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of process ``pid``, of its ended children (reaped) and of the living
    ones, with theirs (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    total = sum(int(f) for f in fields[11:15]) / tick
    children: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children.update(int(c) for c in (task / "children").read_text().split())
        except OSError:
            continue
    return total + sum(tree_cpu_seconds(child) for child in children)


async def ended_games(http: httpx2.AsyncClient, base: str, count: int) -> list[str]:
    games = []
    for _ in range(count):
        game = (await http.post(f"{base}/games", json=GAME)).json()
        headers = {"authorization": f"Bearer {game['player_token']}"}
        await http.post(f"{base}/games/{game['game_id']}/resign", headers=headers)
        games.append(game["game_id"])
    return games


async def analysis(port: int, source: str, game_id: str, wait: bool) -> int:
    """Asks for a game's analysis from address ``source``; its HTTP status, or 0 for a
    client that left without reading it."""
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=(source, 0))
    request = f"GET /games/{game_id}/analysis HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n"
    writer.write(request.encode("ascii"))
    await writer.drain()
    status = 0
    if wait:
        line = await reader.readline()
        status = int(line.split()[1]) if line else -1
        await reader.read()
    writer.close()
    await writer.wait_closed()
    return status


async def healthz(http: httpx2.AsyncClient, base: str, samples: int, pause: float) -> list[float]:
    timings = []
    for _ in range(samples):
        started = time.perf_counter()
        response = await http.get(f"{base}/healthz")
        timings.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise RuntimeError(f"/healthz answered {response.status_code}")
        await asyncio.sleep(pause)
    return timings


async def metric(http: httpx2.AsyncClient, base: str, name: str, labels: str = "") -> float:
    text = (await http.get(f"{base}/metrics")).text
    pattern = rf"^{re.escape(name)}{re.escape(labels)} ([0-9.e+-]+)$"
    found = re.search(pattern, text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


async def run(args: argparse.Namespace, service: Process) -> list[Figure]:
    base = service.url
    async with httpx2.AsyncClient(timeout=120) as http:
        await wait_ready(http, service)
        games = await ended_games(http, base, 2 * args.requests + 1)
        idle_cpu_start, idle_start = tree_cpu_seconds(service.pid), time.monotonic()
        idle = await healthz(http, base, args.samples, args.pause)
        idle_rate = (tree_cpu_seconds(service.pid) - idle_cpu_start) / (
            time.monotonic() - idle_start
        )

        flood = [
            asyncio.create_task(analysis(service.port, WAITING_ADDRESS, g, True))
            for g in games[: args.requests]
        ]
        await asyncio.sleep(0.2)  # the flood is in
        other_started = time.perf_counter()
        other_status = await analysis(service.port, OTHER_ADDRESS, games[-1], True)
        other_seconds = time.perf_counter() - other_started
        waiting = await healthz(http, base, args.samples, args.pause)
        statuses = Counter(await asyncio.gather(*flood))

        departed_cpu_start, departed_start = tree_cpu_seconds(service.pid), time.monotonic()
        leaving = [
            asyncio.create_task(analysis(service.port, DEPARTED_ADDRESS, g, False))
            for g in games[args.requests : -1]
        ]
        departed = await healthz(http, base, args.samples, args.pause)
        await asyncio.gather(*leaving)
        await asyncio.sleep(args.settle)
        departed_cpu = tree_cpu_seconds(service.pid) - departed_cpu_start
        departed_seconds = time.monotonic() - departed_start
        orphan = await metric(http, base, "solitaire_analysis_orphan_seconds_total")
        outcomes = {
            outcome: await metric(
                http, base, "solitaire_analyses_total", f'{{outcome="{outcome}"}}'
            )
            for outcome in ("searched", "cancelled", "busy")
        }
    idle_p99, waiting_p99 = percentile_ms(idle, 99), percentile_ms(waiting, 99)
    return [
        Figure("floods.healthz_idle_p99_ms", round(idle_p99, 2), "ms", "GET /healthz, idle"),
        Figure(
            "floods.healthz_flood_p99_ms",
            round(waiting_p99, 2),
            "ms",
            f"GET /healthz under {args.requests} waiting analyses from one address",
        ),
        Figure(
            "floods.healthz_p99_ratio",
            round(waiting_p99 / idle_p99, 3),
            "1",
            "the two, divided",
            "<= 2",
        ),
        Figure(
            "floods.healthz_departed_p99_ms",
            round(percentile_ms(departed, 99), 2),
            "ms",
            f"GET /healthz under {args.requests} analyses whose clients left",
        ),
        Figure(
            "floods.orphan_cpu_s",
            round(orphan, 3),
            "s",
            "searches run after their clients had all gone (service counter)",
            "0",
        ),
        Figure(
            "floods.departed_cpu_s",
            round(departed_cpu, 3),
            "s",
            f"service CPU, workers included, {departed_seconds:.1f} s from the departed flood",
        ),
        Figure(
            "floods.idle_cpu_s",
            round(idle_rate * departed_seconds, 3),
            "s",
            "the same, at the idle phase's rate (what serving /healthz alone costs)",
        ),
        Figure(
            "floods.other_analysis_s",
            round(other_seconds, 3),
            "s",
            f"another address's analysis during the waiting flood (answered {other_status})",
        ),
        Figure("floods.answered", statuses[200], "1", "waiting flood: answered (200)"),
        Figure("floods.rate_limited", statuses[429], "1", "waiting flood: rate_limited (429)"),
        Figure("floods.busy", statuses[503], "1", "waiting flood: busy (503)"),
        Figure("floods.searches", int(outcomes["searched"]), "1", "searches started, both floods"),
        Figure(
            "floods.cancelled", int(outcomes["cancelled"]), "1", "searches stopped: clients gone"
        ),
    ]


def main(args: argparse.Namespace) -> None:
    service = start_service(
        "service",
        "memory://",
        # Only the set-up's game creation needs more than the default write rate; the
        # quotas and bounds on analyses are the defaults.
        {"HTTP_WRITE_RATE_PER_SECOND": "100000", "HTTP_WRITE_BURST": "100000"},
    )
    try:
        figures = asyncio.run(run(args, service))
    finally:
        service.stop()
    report(
        f"Floods: {args.requests} analyses from one address, waiting then leaving; "
        f"GET /healthz timed {args.samples} times per phase",
        figures,
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--pause", type=float, default=0.01, help="between /healthz requests")
    parser.add_argument(
        "--settle",
        type=float,
        default=3.0,
        help="seconds after the departed flood during which the service's CPU still counts "
        "(a search going on for nobody would show there)",
    )
    parser.add_argument("--quick", action="store_true", help="a smoke run: 6 requests")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.requests, arguments.samples = 6, 40
    main(arguments)
