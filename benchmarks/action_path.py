#!/usr/bin/env python
"""The service's action path in one process: CPU, and instructions, per action.

Usage: ``python benchmarks/action_path.py [--games 10] [--actions 400] [--redis-url URL]
[--instructions]``

Each game gets what a WebSocket connection gets (``Outbox``, ``Pump``, ``Commands``, the
``FrameGate``), on a stand-in socket that only counts the frames sent to it: hello,
subscribe, then the game's script of random legal actions and undos, drawn beforehand
from a fixed seed on fixed deals, one frame at a time through the gate, every game
playing at once. So the figure holds everything an action costs the service above the
socket (the rate limit, validation, the engine, the view, the patch, serialization, the
store, the pump, the metrics) and nothing of uvicorn, Starlette's WebSocket, the network
or a load driver. The store is the
in-memory one unless ``--redis-url`` is given (its database is flushed before and after).

On a shared machine CPU time per action moves by 10 to 30 % from run to run.
``--instructions`` counts instructions instead, which do not move: it runs this script
under ``valgrind --tool=callgrind`` (Debian's ``valgrind``) once with the scripts drawn but
not played and once played, and divides the difference by the actions played. With the memory
store the count repeats within 0.1 %; with Redis it also depends on how the commits
happened to batch.

Output: a table, then one JSON line per figure.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing the package
    sys.path.insert(0, str(ROOT))

from benchmarks._client import run_driver
from benchmarks._report import Figure, report
from benchmarks._ws_players import Player, write_script

SEED = 20261202


class CountingSocket:
    """What ``Outbox`` and ``Commands`` use of a WebSocket: frames are only counted."""

    client = None

    def __init__(self, app: Any) -> None:
        self.app = app
        self.frames = 0

    async def send_text(self, text: str) -> None:
        self.frames += 1

    async def close(self, code: int = 1000, reason: str = "") -> None:
        return None


async def play(
    games: int, actions: int, store_url: str, drive_them: bool = True
) -> tuple[int, float, int]:
    """Plays the scripts (only draws them unless ``drive_them``); the actions played, their
    CPU seconds, the frames sent."""
    import orjson

    from service import engine
    from service.app import create_app
    from service.config import Settings
    from service.server import tune_garbage_collector
    from service.ws.commands import Commands
    from service.ws.follows import Following
    from service.ws.frames import FrameGate, Outbox
    from service.ws.pump import Pump
    from service.ws.seeking import Seeking

    settings = Settings(
        store_url=store_url,
        rate_per_second=1e9,
        rate_burst=10**9,
        winnable_pool_size=0,  # no solving in the background of the figure
    )
    app = create_app(settings)
    rng = random.Random(SEED)
    async with app.router.lifespan_context(app):
        state = app.state
        players: list[tuple[FrameGate, Commands, list[bytes], CountingSocket]] = []
        for _ in range(games):
            code = engine.GameCode(
                engine.GameKind.DOUBLE, 1, engine.Scoring.NORMAL, rng.randrange(10**9)
            )
            created = await state.games.create("DS", 1, "normal", str(code))
            socket = CountingSocket(app)
            outbox = Outbox(socket, state.games.metrics)  # type: ignore[arg-type]
            pump = Pump(outbox, state.games, state.races, settings)
            pump.start()
            seeking = Seeking(outbox, state.pairing)
            following = Following(state.arena_followers, pump.queue_frame)
            commands = Commands(outbox, pump, seeking, following, settings)
            # Every frame passes the gate (rate, flood guard, size) as it does in
            # ``ws.Connection``.
            gate = FrameGate(outbox, settings, commands.handle)
            game_id = created["game_id"]
            hello = {"type": "hello", "protocol": 1, "changes_in_results": True}
            await commands.handle(orjson.dumps(hello))
            subscribe = {
                "type": "subscribe",
                "id": "s",
                "game_id": game_id,
                "token": created["player_token"],
            }
            await commands.handle(orjson.dumps(subscribe))
            # The scripts of ws_load.py's players, drawn the same way.
            player = Player(game_id, created["player_token"], str(code), None, rng)
            write_script(player, actions)
            script = [step.frame.encode() for step in player.script]
            players.append((gate, commands, script, socket))
        tune_garbage_collector()

        async def drive(gate: FrameGate, script: list[bytes]) -> None:
            for frame in script:
                await gate.admit(frame)

        if not drive_them:
            players = [(gate, commands, [], socket) for gate, commands, _, socket in players]
        before = resource.getrusage(resource.RUSAGE_SELF)
        await asyncio.gather(*(drive(gate, script) for gate, _, script, _ in players))
        after = resource.getrusage(resource.RUSAGE_SELF)
        for _, commands, _, _ in players:
            await commands.pump.stop()
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    played = sum(len(script) for _, _, script, _ in players)
    frames = sum(socket.frames for _, _, _, socket in players)
    return played, cpu, frames


def instructions(args: argparse.Namespace) -> tuple[int, int]:
    """Instructions per action under callgrind, and the actions played."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")

    def collected(*options: str) -> tuple[int, str]:
        command = [
            *("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"),
            *(sys.executable, __file__, "--games", str(args.games)),
            *("--actions", str(args.actions), "--store-url", args.store_url, *options),
        ]
        # A fixed hash seed: dict and set layouts, and so the instructions, repeat.
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
        match = re.search(r"Collected : (\d+)", done.stderr)
        if match is None:
            raise SystemExit(f"no instruction count from valgrind: {done.stderr[-500:]}")
        return int(match.group(1)), done.stdout

    # The same run with its scripts drawn but not played: what the difference leaves is
    # the service's part alone.
    setup, _ = collected("--draw-only")
    total, shown = collected()
    played = re.search(r'"metric": "action_path[.][^"]*[.]actions", "value": (\d+)', shown)
    if played is None:
        raise SystemExit(f"the run under valgrind played nothing: {shown[-500:]}")
    return (total - setup) // int(played.group(1)), int(played.group(1))


def flush(store_url: str) -> None:
    if store_url.startswith("memory://"):
        return
    import redis

    client = redis.Redis.from_url(store_url)
    client.flushdb()
    client.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games playing at once")
    parser.add_argument("--actions", type=int, default=400, help="scripted actions per game")
    parser.add_argument(
        "--redis-url",
        dest="store_url",
        default="memory://",
        help="a Redis database to play on (flushed before and after); default: memory",
    )
    parser.add_argument("--store-url", dest="store_url", help=argparse.SUPPRESS)
    parser.add_argument("--draw-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions under valgrind"
    )
    parser.add_argument("--quick", action="store_true", help="3 games, 50 actions: a smoke run")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.actions = 3, 50
    if args.games < 1 or args.actions < 0:
        parser.error("--games must be positive, --actions not negative")
    store = "memory" if args.store_url.startswith("memory://") else "redis"
    figures: list[Figure] = []
    flush(args.store_url)
    try:
        started = time.perf_counter()
        played, cpu, frames = run_driver(
            play(args.games, args.actions, args.store_url, not args.draw_only)
        )
        elapsed = time.perf_counter() - started
        if played:
            figures += [
                Figure(
                    f"action_path.DS.{store}.cpu_us",
                    round(cpu / played * 1e6, 1),
                    "us",
                    "CPU per action, socket excluded",
                ),
                Figure(f"action_path.DS.{store}.actions", played, "count", "actions played"),
                Figure(
                    f"action_path.DS.{store}.frames", frames, "count", "frames sent (hellos too)"
                ),
            ]
        if args.instructions and args.actions:
            per_action, counted = instructions(args)
            figures.append(
                Figure(
                    f"action_path.DS.{store}.instructions",
                    per_action,
                    "1",
                    f"instructions per action (callgrind, {counted} actions)",
                )
            )
    finally:
        flush(args.store_url)
    if figures:
        report(f"Action path: {args.games} games at once, {store} store ({elapsed:.1f} s)", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
