"""The attackers of ``attacks.py``, each run in a child process of its own so that it does
not slow the players' driver: loops that repeat one old changes page, or one WebSocket
client that floods the service with small frames.

The children run ``attacks.py`` with its hidden ``--attack`` option, which calls
``run_attacker``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks._client import ws_connect
from benchmarks._processes import ROOT

ATTACKS = Path(__file__).resolve().with_name("attacks.py")


async def attack_changes(url: str, seconds: float, loops: int) -> dict[str, int]:
    import httpx2

    counts = {"served": 0, "refused": 0, "other": 0}
    end = time.monotonic() + seconds
    limits = httpx2.Limits(max_connections=loops)
    async with httpx2.AsyncClient(trust_env=False, timeout=30.0, limits=limits) as http:

        async def loop() -> None:
            while time.monotonic() < end:
                try:
                    response = await http.get(url)
                except httpx2.TransportError:
                    counts["other"] += 1
                    continue
                if response.status_code == 200:
                    counts["served"] += 1
                elif response.status_code == 429:
                    counts["refused"] += 1
                else:
                    counts["other"] += 1

        await asyncio.gather(*(loop() for _ in range(loops)))
    return counts


async def attack_flood(port: int, seconds: float, rate: int) -> dict[str, int]:
    from websockets.exceptions import ConnectionClosed

    counts = {"sent": 0, "received": 0, "closed": 0}
    end = time.monotonic() + seconds
    frame = '{"type":"ping","id":"flood"}'
    batch = max(1, rate // 100)
    while time.monotonic() < end:
        try:
            async with ws_connect(port, None) as ws:

                async def read(ws: Any = ws) -> None:
                    with contextlib.suppress(ConnectionClosed):
                        async for _ in ws:
                            counts["received"] += 1

                reader = asyncio.create_task(read())
                await ws.send('{"type":"hello","protocol":1}')
                tick = time.monotonic()
                while time.monotonic() < end:
                    for _ in range(batch):
                        await ws.send(frame)
                    counts["sent"] += batch
                    tick += batch / rate
                    await asyncio.sleep(max(0.0, tick - time.monotonic()))
                reader.cancel()
        except ConnectionClosed:
            counts["closed"] += 1
        except OSError:
            await asyncio.sleep(0.05)
    return counts


def run_attacker(args: argparse.Namespace) -> int:
    """The child's side: one attack for ``--seconds``, then its counts as a JSON line, the
    last line of its output, which the parent reads."""
    import json

    if args.attack == "flood":
        counts = asyncio.run(attack_flood(args.port, args.seconds, args.flood_rate))
    else:
        counts = asyncio.run(attack_changes(args.url, args.seconds, args.attackers))
    print(json.dumps(counts), flush=True)
    return 0


def start_attacker(
    kind: str, args: argparse.Namespace, port: int, url: str
) -> subprocess.Popen[str]:
    """Runs until a second after the phase's window, so that the whole window is attacked."""
    command = [
        sys.executable,
        str(ATTACKS),
        *("--attack", kind, "--port", str(port), "--url", url),
        *("--seconds", str(args.warmup + args.duration + 1.0)),
        *("--attackers", str(args.attackers), "--flood-rate", str(args.flood_rate)),
    ]
    return subprocess.Popen(command, cwd=str(ROOT), stdout=subprocess.PIPE, text=True)
