#!/usr/bin/env python
"""An arena's first wave made in-process: the cost of making its heats, without sockets.

``benchmarks/arena.py`` measures the first wave end to end, through a thousand
WebSockets and a driver sharing the machine; its figure moves with everything the
machine does. This one builds the service in this process (Starlette's test client, the
memory store, or with ``--redis`` a private ``redis-server`` that it starts and stops),
makes ``--arenas`` upcoming arenas of ``--players`` players each, deals their first
heats ahead as the service does in the seconds before a start, moves the service's
clock past the starts and runs each arena's first wave in turn: every player free, half
as many heats as players, each heat's race and games written and both players told
(nobody follows, so no frame is sent). Old and new code run this way one after the
other are an A/B of the wave's own work.

Then it runs ``--open-waves`` more waves of each arena while every heat goes on: each
reads the open heats' races to see whether any is over, and counts and pairs nobody,
as most waves of an arena whose heats last minutes do.

Figures: ``arena.first_wave_in_process_ms`` (the median wave), ``..._min_ms`` and
``..._max_ms``, ``arena.first_wave_in_process_us_per_heat`` (the median wave per heat),
and ``arena.open_wave_in_process_ms`` (the median of the waves after it).

With ``--followers`` every player also follows the top page of the standings with their
player token, as in ``benchmarks/arena.py``, through a follower that keeps the frames
instead of sending them: each wave is then timed until its last telling is over (every
player told their heat, every follower the page), which is the work of telling without
the sockets. Figures: ``arena.first_wave_told_in_process_ms`` (the median) and
``arena.frames_per_first_wave`` (frames made for one wave's followers). With ``--pages``
the followers follow every page instead, 20 to a page (as players who each watch the
page around their own line), so each telling reads every page.

    python benchmarks/arena_wave.py [--players 1000] [--arenas 4] [--open-waves 5]
                                    [--followers [--pages]] [--redis] [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing the package
    sys.path.insert(0, str(ROOT))

from benchmarks._processes import start_redis
from benchmarks._report import Figure, report
from service.arenas import PAGE_SIZE

MODE = "TF.D1N"


class Clock:
    """The service's clock (seconds): the wall clock, moved ahead when told."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.time() + self.ahead

    def move_past(self, at_ms: float) -> None:
        self.ahead += max(0.0, at_ms / 1000 - self()) + 0.001


def run(
    args: argparse.Namespace, store_url: str, frame_counts: list[int]
) -> tuple[list[float], list[float]]:
    from starlette.testclient import TestClient

    from service import engine
    from service.app import create_app
    from service.config import Settings

    settings = Settings(
        store_url=store_url,
        winnable_pool_size=0,
        rate_per_second=1_000_000,
        rate_burst=1_000_000,
        http_write_rate_per_second=1_000_000_000,
        http_write_burst=1_000_000_000,
        players_per_hour=1_000_000,
        # Waves only when this script runs one.
        arena_wave_seconds=3600,
        # Pages told as soon as a wave lets them go, as for players who joined long
        # before the start, not a tenth of a second after the joins' last telling.
        arena_page_seconds=0,
        pairing_wave_seconds=3600,
    )
    clock = Clock()
    waves_ms: list[float] = []
    open_ms: list[float] = []
    frames: list[bytes] = []
    with TestClient(create_app(settings, clock=clock)) as client:
        assert client.portal is not None
        portal = client.portal
        state: Any = client.app.state  # type: ignore[attr-defined]

        def new_player(index: int) -> str:
            made = client.post("/players", json={"name": f"P{index}"})
            made.raise_for_status()
            token: str = made.json()["player_token"]
            return token

        async def follow(arena_id: str, token: str, page: int) -> None:
            from service.ws.following import Follower

            player_id = await state.players.player_id_of(token)
            follower = Follower(page, token, player_id, frames.append)
            await state.arena_followers.add(arena_id, follower, "f")

        host = new_player(0)
        arenas: list[dict[str, Any]] = []
        for number in range(args.arenas):
            body = {"mode": MODE, "name": f"Wave {number}", "minutes": 60, "starts_in": 1}
            made = client.post("/arenas", json=body, headers={"authorization": f"Bearer {host}"})
            made.raise_for_status()
            arena = made.json()["arena"]
            for index in range(args.players):
                token = new_player(index)
                joined = client.post(
                    f"/arenas/{arena['arena_id']}/players",
                    headers={"authorization": f"Bearer {token}"},
                )
                joined.raise_for_status()
                if args.followers:
                    page = index // PAGE_SIZE + 1 if args.pages else 1
                    portal.call(follow, arena["arena_id"], token, page)
            arenas.append(arena)
        mode = engine.Mode.parse(MODE)
        portal.call(state.games.openings.prepare, mode, args.arenas * args.players // 2)
        clock.move_past(max(a["start_at"] for a in arenas))
        waves = state.arena_waves

        async def told(arena_id: str) -> None:
            """Until the arena's tellings are over, pages included."""
            followed = state.arena_followers._followed.get(arena_id)
            while followed is not None and followed.task is not None:
                await followed.task

        async def first_wave(arena_id: str) -> tuple[int, float]:
            record = orjson.loads(await waves.store.get(arena_id))
            await told(arena_id)  # the joins' tellings
            del frames[:]
            started = time.perf_counter()
            made: int = await waves.arena_wave(record)
            await told(arena_id)
            return made, (time.perf_counter() - started) * 1000

        for arena in arenas:
            heats, ms = portal.call(first_wave, arena["arena_id"])
            if heats != args.players // 2:
                raise SystemExit(f"the first wave made {heats} heats, not {args.players // 2}")
            waves_ms.append(ms)
            frame_counts.append(len(frames))
        # The waves after it while every heat goes on: each reads the open heats' races to
        # see whether any is over, and counts and pairs nobody.
        for arena in arenas:
            for _ in range(args.open_waves):
                heats, ms = portal.call(first_wave, arena["arena_id"])
                assert heats == 0
                open_ms.append(ms)
    return waves_ms, open_ms


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000, help="players in each arena")
    parser.add_argument("--arenas", type=int, default=4, help="arenas, one first wave each")
    parser.add_argument("--redis", action="store_true", help="on a private redis-server")
    parser.add_argument(
        "--open-waves", type=int, default=5, help="waves after the first, every heat open"
    )
    parser.add_argument(
        "--followers",
        action="store_true",
        help="every player follows the top page; waves timed until told",
    )
    parser.add_argument(
        "--pages",
        action="store_true",
        help="with --followers: every page followed, 20 followers each, not the top page",
    )
    parser.add_argument("--quick", action="store_true", help="40 players, 2 arenas: a smoke run")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.arenas = 40, 2
    workdir = tempfile.TemporaryDirectory()
    redis = None
    try:
        store_url = "memory://"
        if args.redis:
            import asyncio

            from benchmarks._processes import wait_redis

            redis = start_redis(Path(workdir.name))
            asyncio.run(wait_redis(redis.port))
            store_url = f"redis://127.0.0.1:{redis.port}/0"
        told: list[int] = []
        waves_ms, open_ms = run(args, store_url, told)
    finally:
        if redis is not None:
            redis.stop()
        workdir.cleanup()
    median = statistics.median(waves_ms)
    heats = args.players // 2
    where = "a private Redis" if args.redis else "the memory store"
    first = [Figure("arena.first_wave_in_process_ms", round(median, 1), "ms", "median wave")]
    if args.followers:
        first = [
            Figure(
                "arena.first_wave_told_in_process_ms",
                round(median, 1),
                "ms",
                "median wave, until every follower was told",
            ),
            Figure(
                "arena.frames_per_first_wave", statistics.median(told), "1", "frames told a wave"
            ),
        ]
    following = ""
    if args.followers:
        following = (
            ", every page followed" if args.pages else ", every player following the top page"
        )
    report(
        f"An arena's first wave in-process: {args.arenas} arenas of {args.players} players "
        f"({heats} heats each){following}, on {where}, {os.cpu_count()} CPUs",
        [
            *first,
            Figure("arena.first_wave_in_process_min_ms", round(min(waves_ms), 1), "ms", "fastest"),
            Figure("arena.first_wave_in_process_max_ms", round(max(waves_ms), 1), "ms", "slowest"),
            Figure(
                "arena.first_wave_in_process_us_per_heat",
                round(median * 1000 / heats, 1),
                "us",
                "median wave, per heat",
            ),
            Figure(
                "arena.open_wave_in_process_ms",
                round(statistics.median(open_ms), 2),
                "ms",
                f"median wave after it, {heats} heats open",
            ),
        ],
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
