"""The players of ``race_result.py``: each race's two connections, the gate that holds
every race before its ending, and one race played from creation to its result."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import signal
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from benchmarks._client import driver_collector_quiet, ws_connect
from benchmarks._processes import Process, cpu_seconds

REPLY_TIMEOUT = 15.0

Frame = dict[str, Any]


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
