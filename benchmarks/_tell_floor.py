"""The floor under ``arena.py``'s pairing figure, measured in the same run: how long this
machine, right now, takes to put one frame on each of the players' sockets at once.

A wave that pairs every player (an arena's first wave) ends by telling each of them its
heat. The floor is that telling and nothing else: one fan-out server process per service
instance of the run (``_ws_servers.py``, ``fanout``), each holding the sockets of the
players that instance holds; the driver sends one frame to each server and every server
sends it on to all its connections, after one Redis round trip with ``--redis``
(``fanout-store``). The time of a frame is from the driver's send to the kernel's stamp
of its arrival at the player's socket (``_stamped.py``), as for the arena's figures.

The machine is shared and its speed moves from hour to hour: the pairing figure is read
against this floor, not against a figure remembered from another run.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from benchmarks._processes import Process, wait_ready
from benchmarks._stamped import StampedWebSocket
from benchmarks._ws_servers import start_server

BURSTS = 5
PAUSE_SECONDS = 0.3
OPENING_AT_ONCE = 50


async def tell_floor(http: Any, instances: int, players: int, redis_url: str) -> list[float]:
    """Seconds from the send to each player's socket, over ``BURSTS`` fan-outs to
    ``players`` sockets split over ``instances`` servers."""
    kind = "fanout" if redis_url.startswith("memory") else "fanout-store"
    servers: list[Process] = []
    try:
        servers = [start_server(kind, redis_url) for _ in range(instances)]
        for server in servers:
            await wait_ready(http, server, "/healthz")
        return await _bursts([server.port for server in servers], players)
    finally:
        for server in servers:
            server.stop()


async def _bursts(ports: list[int], players: int) -> list[float]:
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    async with contextlib.AsyncExitStack() as stack:

        async def opened(index: int) -> StampedWebSocket:
            async with gate:
                socket = StampedWebSocket(ports[index % len(ports)])
                return await stack.enter_async_context(socket)

        sockets = await asyncio.gather(*(opened(i) for i in range(players)))
        # The first socket of each server carries the frame it fans out.
        senders = [sockets[i] for i in range(min(len(ports), players))]
        times: list[float] = []
        for burst in range(BURSTS):
            await asyncio.sleep(PAUSE_SECONDS)
            text = f'{{"type": "floor", "burst": {burst}}}'
            sent = time.time() * 1000
            await asyncio.gather(*(sender.send(text) for sender in senders))
            arrivals = await asyncio.gather(*(socket.recv() for socket in sockets))
            times += [max(0.0, stamp - sent) / 1000 for stamp, _ in arrivals]
        return times
