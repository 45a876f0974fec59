#!/usr/bin/env python
"""Race results: from the request that ends a race to every player holding the result.

The service runs as ``python -m service`` (uvicorn, Redis store, production rate limits)
in a child process on a free port of 127.0.0.1. The driver (this process, asyncio with
the ``websockets`` client and ``httpx2``) then runs ``--races`` two-player races at once:

1. the host creates a Solitaire Réfléchi race over HTTP and the guest joins it by code;
2. each player opens a WebSocket of its own, says hello and watches the race with its
   token; both send ``race_command: ready``, and once the countdown has run out each
   subscribes to its game and draws ``--moves`` times (every accepted action is pushed
   to both as ``race_progress``);
3. the host resigns, and once both players have seen that, the guest sends the
   ``resign`` that ends the race. The figure is the time from sending that request to
   the moment the *last* of the two players has received the ``race`` message with
   status ``finished`` and the result (code, ranking, records).

Receive times are taken by each connection's reader as frames arrive. All races run
concurrently; each waits before its final resign until every race has got that far, so
the measured endings do not overlap the other races' set-up and moves. Then all final
resigns go at once by default (a burst of ``--races`` endings, the worst case), or each
after a random 0..S seconds with ``--spread S`` (endings at a steadier rate).
The Redis database of ``--redis-url`` is flushed before and after the run (that one
only). The service gets the same URL, query options included: with redis-py, e.g.
``?max_connections=1000`` sets the size of its connection pool.

Output: a table, then one JSON line per figure, e.g.
``{"metric": "race.result_p99_ms", "value": 12.3, "unit": "ms"}``.

    python benchmarks/race_result.py [--races 100] [--moves 3] [--spread 0] [--redis-url URL]
                                     [--quick] [--profile FILE | --cprofile FILE]

``race.service_cpu_ms`` is the service's CPU from the moment the endings are let go to
the last result (10 ms ticks). ``--cprofile`` runs the service under cProfile, records
that same stretch and prints the functions by time with their calls per ending.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing the package
    sys.path.insert(0, str(ROOT))

from benchmarks import _profile
from benchmarks._client import run_driver
from benchmarks._processes import (
    Process,
    percentile_ms,
    start_service,
    wait_ready,
)
from benchmarks._race_players import REPLY_TIMEOUT, Gate, Tally, one_race
from benchmarks._report import Figure, report

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/12"
PROFILE_SECONDS = 1


# =========================================================================== the service


def log_summary(service: Process, top: int = 5) -> list[tuple[str, int]]:
    """The most frequent log messages (their first 160 characters) with their counts."""
    counts: Counter[str] = Counter()
    for line in service.tail(100_000).splitlines():
        start = line.find('"message":"')
        text = line[start + 11 :] if start >= 0 else line.strip()
        if text:
            counts[text[:160]] += 1
    return counts.most_common(top)


# =========================================================================== figures


def build_figures(args: argparse.Namespace, tally: Tally, elapsed: float) -> list[Figure]:
    def rounded(value: float) -> float:
        return round(value, 2)

    failed = args.races - tally.counts["races_finished"]
    return [
        Figure(
            "race.result_p50_ms",
            rounded(percentile_ms(tally.latencies, 50)),
            "ms",
            "ending request -> both players have the result, p50",
        ),
        Figure(
            "race.result_p99_ms",
            rounded(percentile_ms(tally.latencies, 99)),
            "ms",
            "ending request -> both players have the result, p99",
        ),
        Figure(
            "race.result_max_ms",
            rounded(percentile_ms(tally.latencies, 100)),
            "ms",
            "ending request -> both players have the result, max",
        ),
        Figure(
            "race.result_first_p50_ms",
            rounded(percentile_ms(tally.first, 50)),
            "ms",
            "ending request -> the first player has it, p50",
        ),
        Figure(
            "race.service_cpu_ms",
            rounded((tally.cpu_at_last - tally.cpu_at_open) * 1000),
            "ms",
            "service CPU from the endings' start to the last result (10 ms ticks)",
        ),
        Figure("race.races", args.races, "count", "concurrent two-player races"),
        Figure("race.spread_s", args.spread, "s", "final resigns spread over"),
        Figure("race.finished", tally.counts["races_finished"], "count", "races measured"),
        Figure("race.actions", tally.counts["actions"], "count", "accepted actions"),
        Figure(
            "race.progress_frames",
            tally.counts["progress_frames"],
            "count",
            "race_progress frames received",
        ),
        Figure("race.failed", failed, "count", "races that failed or timed out (must be 0)"),
        Figure("race.elapsed_s", rounded(elapsed), "s", "whole run, set-up included"),
    ]


# =========================================================================== main


async def run(args: argparse.Namespace) -> int:
    import httpx2
    import redis.asyncio as aioredis

    main_task = asyncio.current_task()
    assert main_task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main_task.cancel)
    redis = aioredis.Redis.from_url(args.redis_url)
    await redis.flushdb()
    # Every simulated player comes from this one address: its HTTP limit is lifted.
    settings = {
        "RACE_COUNTDOWN_SECONDS": str(args.countdown),
        "HTTP_WRITE_RATE_PER_SECOND": "1000000000",
        "HTTP_WRITE_BURST": "1000000000",
    }
    command = ""
    if args.cprofile:
        # The service writes it at the end of the recording: an older one must not pass.
        Path(args.cprofile).unlink(missing_ok=True)
        command = _profile.cprofiled_service(args.cprofile)
    service = start_service("service", args.redis_url, settings, command)
    tally = Tally()
    recording: asyncio.Task[dict[str, Any]] | None = None

    async def start_profile() -> None:
        nonlocal recording
        spy = _profile.start(service.pid, args.profile, PROFILE_SECONDS)

        async def finish() -> dict[str, Any]:
            try:
                return await asyncio.to_thread(_profile.finish, spy, args.profile, PROFILE_SECONDS)
            finally:
                gate.released.set()

        recording = asyncio.create_task(finish())
        await asyncio.sleep(0.5)  # py-spy attaches before the endings are sent

    gate = Gate(args.races, start_profile if args.profile else None)
    started = time.perf_counter()
    try:
        limits = httpx2.Limits(max_connections=64)
        async with httpx2.AsyncClient(
            trust_env=False, timeout=REPLY_TIMEOUT, limits=limits
        ) as http:
            await wait_ready(http, service)
            outcomes = await asyncio.gather(
                *(one_race(i, args, service, http, tally, gate) for i in range(args.races)),
                return_exceptions=True,
            )
        gate.collector_quiet.close()
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                print(f"a race failed: {outcome!r}", file=sys.stderr)
        reasons = {
            k: v
            for k, v in tally.counts.items()
            if k not in ("actions", "progress_frames", "races_finished")
        }
        if reasons:
            print(f"refusals: {reasons}", file=sys.stderr)
        if recording is not None:
            profile = await recording
            if profile:
                _profile.report(profile, "Service during the endings", args.profile)
        if args.cprofile and tally.counts["races_finished"] == args.races:
            for _ in range(50):  # the service writes the file on the second signal
                if os.path.exists(args.cprofile):
                    break
                await asyncio.sleep(0.1)
            if os.path.exists(args.cprofile):
                title = "Service from the first ending to the last result, per race ending"
                _profile.report_cprofile(args.cprofile, title, args.races)
            else:
                print(f"no cProfile recording in {args.cprofile}", file=sys.stderr)
        summary = log_summary(service)
        if summary:
            print("service log (warnings and errors), most frequent:", file=sys.stderr)
            for message, count in summary:
                print(f"  {count:5d}  {message}", file=sys.stderr)
    finally:
        service.stop()
        with contextlib.suppress(Exception):
            await redis.flushdb()
        await redis.aclose()
    elapsed = time.perf_counter() - started
    title = (
        f"Race results: {args.races} concurrent two-player races, {args.moves} draws each, "
        f"countdown {args.countdown:g} s, endings spread over {args.spread:g} s, "
        f"{os.cpu_count()} CPUs"
    )
    figures = [f for f in build_figures(args, tally, elapsed) if f.value == f.value]
    report(title, figures)
    return 0 if tally.counts["races_finished"] == args.races else 1


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=100, help="concurrent two-player races")
    parser.add_argument("--moves", type=int, default=3, help="draws per player before the end")
    parser.add_argument(
        "--countdown", type=float, default=1.0, help="race countdown of the service, seconds"
    )
    parser.add_argument(
        "--redis-url",
        default=DEFAULT_REDIS_URL,
        help="Redis database to use; it is flushed before and after",
    )
    parser.add_argument(
        "--spread",
        type=float,
        default=0.0,
        help="seconds over which the races' final resigns are spread at random, once "
        "every race is ready to end (0: all at once)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of --spread")
    parser.add_argument("--quick", action="store_true", help="5 races: a smoke run")
    parser.add_argument(
        "--profile",
        metavar="FILE",
        default=None,
        help=f"record the service with py-spy for {PROFILE_SECONDS} s from the endings on "
        "(speedscope format; needs py-spy)",
    )
    parser.add_argument(
        "--cprofile",
        metavar="FILE",
        default=None,
        help="run the service under cProfile, recording from the endings' start to the "
        "last result into FILE (pstats), and print where the time went per ending",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.races = 5
    if args.races < 1 or not 0 <= args.moves <= 20 or args.countdown < 0 or args.spread < 0:
        parser.error(
            "--races must be positive, --moves 0..20, --countdown and --spread not negative"
        )
    args.rng = random.Random(args.seed)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return run_driver(run(args))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("interrupted; the service was stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
