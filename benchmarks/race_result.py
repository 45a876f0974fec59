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
import math
import os
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing the package
    sys.path.insert(0, str(ROOT))

from benchmarks import _profile
from benchmarks._client import driver_collector_quiet, ws_connect
from benchmarks._processes import (
    Process,
    cpu_seconds,
    percentile_ms,
    start_service,
    wait_ready,
)
from benchmarks._report import Figure, report

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/12"
REPLY_TIMEOUT = 15.0
PROFILE_SECONDS = 1

Frame = dict[str, Any]


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


# =========================================================================== players


class Connection:
    """One player's WebSocket: a reader task stamps every frame with its arrival time."""

    def __init__(self, ws: Any, label: str) -> None:
        self.ws = ws
        self.label = label
        self.frames: list[tuple[float, Frame]] = []
        self.arrived = asyncio.Event()
        self.closed_by = ""
        self.reader = asyncio.create_task(self._read())
        self._ids = 0

    async def _read(self) -> None:
        import orjson

        try:
            async for data in self.ws:
                self.frames.append((time.perf_counter(), orjson.loads(data)))
                self.arrived.set()
        except Exception as exc:
            self.closed_by = repr(exc)
        finally:
            self.arrived.set()  # wakes a waiter up to see that the connection is gone

    def next_id(self) -> str:
        self._ids += 1
        return f"r{self._ids}"

    async def send(self, message: Frame) -> None:
        import orjson

        await self.ws.send(orjson.dumps(message).decode())

    async def wait_for(
        self,
        predicate: Callable[[Frame], bool],
        since: int = 0,
        what: str = "a frame",
        timeout: float = REPLY_TIMEOUT,
    ) -> tuple[float, Frame]:
        """The first frame from position ``since`` on that satisfies ``predicate``."""
        index = since
        try:
            async with asyncio.timeout(timeout):
                while True:
                    while index < len(self.frames):
                        stamp, frame = self.frames[index]
                        index += 1
                        if predicate(frame):
                            return stamp, frame
                    if self.reader.done():
                        code = getattr(self.ws, "close_code", None)
                        raise ConnectionError(
                            f"the connection closed ({code} {self.closed_by}), waiting for {what}"
                        )
                    self.arrived.clear()
                    await self.arrived.wait()
        except TimeoutError:
            last = self.frames[-1][1] if self.frames else None
            raise TimeoutError(
                f"{self.label}: no {what} within {timeout:g} s; last frame: {last}"
            ) from None

    async def request(self, message: Frame) -> Frame:
        """Sends ``message`` with a fresh id; its answer (``result``, ``race`` or ``error``)."""
        rid = self.next_id()
        since = len(self.frames)
        await self.send({**message, "id": rid})
        what = f"answer to {message.get('type')} {message.get('command', '')}".strip()
        _, frame = await self.wait_for(lambda f: f.get("id") == rid, since, what)
        return frame

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.reader


def race_message(race_id: str, predicate: Callable[[Frame], bool]) -> Callable[[Frame], bool]:
    return lambda f: f.get("type") == "race" and f["race_id"] == race_id and predicate(f["race"])


def finished_with_result(race: Frame) -> bool:
    return bool(race["status"] == "finished" and race["result"] is not None)


# =========================================================================== one race


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)  # seconds, one per race
    first: list[float] = field(default_factory=list)  # the first of the two players
    counts: Counter[str] = field(default_factory=Counter)
    # Service CPU seconds when the endings were let go, and when the last result arrived.
    cpu_at_open: float = float("nan")
    cpu_at_last: float = float("nan")


def expect(condition: bool, tally: Tally, what: str, detail: Any = None) -> None:
    if not condition:
        tally.counts[what] += 1
        raise RuntimeError(what if detail is None else f"{what}: {detail}")


class Gate:
    """Holds every race before its ending until all the races still alive got there."""

    def __init__(self, count: int, before_open: Callable[[], Any] | None = None) -> None:
        self.missing = count
        self.opened = asyncio.Event()
        self.before_open = before_open
        self.released = asyncio.Event()
        if before_open is None:
            self.released.set()
        # From the opening to close(): the driver's collector kept out of the endings.
        self.collector_quiet = contextlib.ExitStack()

    async def wait(self) -> None:
        self.missing -= 1
        if self.missing == 0:
            await self._open()
        await self.opened.wait()

    async def _open(self) -> None:
        if self.before_open is not None:
            await self.before_open()
        self.collector_quiet.enter_context(driver_collector_quiet())
        self.opened.set()

    def give_up(self) -> None:
        """A race that failed before the gate: the others need not wait for it."""
        self.missing -= 1
        if self.missing == 0:
            self._opener = asyncio.get_running_loop().create_task(self._open())


async def one_race(
    index: int, args: argparse.Namespace, service: Process, http: Any, tally: Tally, gate: Gate
) -> None:
    passed = False
    try:
        await _one_race(index, args, service, http, tally, gate)
        passed = True
    finally:
        if not passed and not gate.opened.is_set():
            gate.give_up()


async def _one_race(
    index: int, args: argparse.Namespace, service: Process, http: Any, tally: Tally, gate: Gate
) -> None:
    response = await http.post(f"{service.url}/races", json={"name": f"Host {index}", "game": "TF"})
    expect(response.status_code == 201, tally, "create_failed")
    host = response.json()
    race_id = host["race_id"]
    response = await http.post(
        f"{service.url}/races/join",
        json={"join_code": host["join_code"].lower(), "name": f"Guest {index}"},
    )
    expect(response.status_code == 201, tally, "join_failed")
    guest = response.json()
    players = [host, guest]

    async with contextlib.AsyncExitStack() as stack:
        conns = []
        for role in ("host", "guest"):
            ws = await stack.enter_async_context(
                ws_connect(service.port, compression="deflate", open_timeout=REPLY_TIMEOUT)
            )
            conn = Connection(ws, f"race {index} {role}")
            stack.push_async_callback(conn.close)
            conns.append(conn)
        for conn, who in zip(conns, players, strict=True):
            await conn.send({"type": "hello", "protocol": 1})
            await conn.wait_for(lambda f: f.get("type") == "welcome", what="welcome")
            answer = await conn.request(
                {"type": "watch_race", "race_id": race_id, "token": who["player_token"]}
            )
            expect(answer.get("type") == "race", tally, "watch_refused", answer)

        marks = [len(conn.frames) for conn in conns]
        for conn in conns:
            answer = await conn.request(
                {"type": "race_command", "race_id": race_id, "command": "ready"}
            )
            expect(answer.get("status") == "accepted", tally, "ready_refused", answer)
        for conn, mark in zip(conns, marks, strict=True):
            running = race_message(race_id, lambda r: r["status"] == "running")
            await conn.wait_for(running, mark, "the race running")

        async def play(conn: Connection, who: Frame) -> None:
            game_id = who["game_id"]
            answer = await conn.request(
                {"type": "subscribe", "game_id": game_id, "token": who["player_token"]}
            )
            expect(answer.get("type") == "subscribed", tally, "subscribe_refused", answer)
            for _ in range(args.moves):
                answer = await conn.request({"type": "action", "game_id": game_id, "action": "d"})
                expect(answer.get("status") == "accepted", tally, "action_refused", answer)
                tally.counts["actions"] += 1

        await asyncio.gather(*(play(c, w) for c, w in zip(conns, players, strict=True)))

        # The host resigns; the guest's resign, once both saw that, ends the race.
        marks = [len(conn.frames) for conn in conns]
        answer = await conns[0].request(
            {"type": "race_command", "race_id": race_id, "command": "resign"}
        )
        expect(answer.get("status") == "accepted", tally, "resign_refused", answer)
        host_id = host["player_id"]

        def host_resigned(race: Frame) -> bool:
            return any(
                p["player_id"] == host_id and p["state"] == "resigned" for p in race["players"]
            )

        for conn, mark in zip(conns, marks, strict=True):
            await conn.wait_for(race_message(race_id, host_resigned), mark, "host resigned")

        await gate.wait()
        if math.isnan(tally.cpu_at_open):
            tally.cpu_at_open = cpu_seconds(service.pid)
            if args.cprofile:
                os.kill(service.pid, signal.SIGUSR1)  # the recording starts
        if args.spread > 0:
            # Spread the endings out instead of all at once (see --spread).
            await asyncio.sleep(args.rng.uniform(0, args.spread))
        marks = [len(conn.frames) for conn in conns]
        sent = time.perf_counter()
        await conns[1].send(
            {"type": "race_command", "id": "end", "race_id": race_id, "command": "resign"}
        )
        arrivals = []
        finals = []
        for conn, mark in zip(conns, marks, strict=True):
            stamp, frame = await conn.wait_for(
                race_message(race_id, finished_with_result), mark, "the result"
            )
            arrivals.append(stamp)
            finals.append(frame["race"]["result"])
        tally.latencies.append(max(arrivals) - sent)
        if len(tally.latencies) == args.races:
            tally.cpu_at_last = cpu_seconds(service.pid)
            if args.cprofile:
                os.kill(service.pid, signal.SIGUSR1)  # and ends with the last result
        tally.first.append(min(arrivals) - sent)
        answer = (await conns[1].wait_for(lambda f: f.get("id") == "end", what="resign answer"))[1]
        expect(answer.get("status") == "accepted", tally, "final_resign_refused")

        result = finals[0]
        expect(finals[1] == result, tally, "results_differ")
        expect(len(result["ranking"]) == 2, tally, "bad_ranking")
        expect(set(result["records"]) == {p["player_id"] for p in players}, tally, "bad_records")
        for record in result["records"].values():
            # Each player drew, then resigned: resigning is the game's last action.
            expected = ["d"] * args.moves + ["resign"]
            expect(record.split(" ")[1:] == expected, tally, "bad_record")
        guest_id = players[1]["player_id"]

        def guest_resigned(frame: Frame) -> bool:
            return (
                frame.get("type") == "race_progress"
                and frame.get("player_id") == guest_id
                and frame.get("state") == "resigned"
            )

        # The last progress message travels through Redis pub/sub, the answer does not:
        # either may arrive first.
        for conn, mark in zip(conns, marks, strict=True):
            await conn.wait_for(guest_resigned, mark, "the last progress")
        progress = sum(
            1 for conn in conns for _, f in conn.frames if f.get("type") == "race_progress"
        )
        # One per draw and one per resignation, of each player, on each connection.
        expect(progress == 2 * len(players) * (args.moves + 1), tally, "progress_missing")
        tally.counts["progress_frames"] += progress
        tally.counts["races_finished"] += 1
        # Under --profile the connections stay open until the recording ends: their
        # closing (each a race update) would otherwise fill the profile of the endings.
        await gate.released.wait()


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
        try:
            import uvloop
        except ImportError:
            return asyncio.run(run(args))
        return uvloop.run(run(args))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("interrupted; the service was stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
