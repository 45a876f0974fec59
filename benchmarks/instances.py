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
import os
import random
import signal
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing the package
    sys.path.insert(0, str(ROOT))

from benchmarks import _profile
from benchmarks._instances_players import Cell, run_cell
from benchmarks._processes import (
    HOST,
    Process,
    raise_open_files,
    start_redis,
    start_service,
    wait_ready,
    wait_redis,
)
from benchmarks._report import Figure, report


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
