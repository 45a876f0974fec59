"""The WebSocket endpoint: hello, subscribe, act, and ordered change delivery.

Each connection has two tasks: the receive loop, which answers requests one at a time
(``frames`` admits each frame, ``commands`` answers it), and a pump (``pump``), which
forwards the changes of subscribed games in version order, so a subscriber never sees a
gap or a repeat (what it missed is read and sent by ``pages``).
"""

from __future__ import annotations

import asyncio

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from ..config import Settings
from ..games import Games
from ..guards.rates import AddressBuckets
from ..pairing import Pairing
from ..races import Races
from .commands import Commands
from .following import ArenaFollowers
from .follows import Following
from .frames import FrameGate, Outbox
from .pump import Pump
from .seeking import Seeking


class Connection:
    def __init__(
        self,
        websocket: WebSocket,
        games: Games,
        races: Races,
        pairing: Pairing,
        arena_followers: ArenaFollowers,
        settings: Settings,
        page_buckets: AddressBuckets | None = None,
    ) -> None:
        self.ws = websocket
        self.games = games
        self.outbox = Outbox(websocket, games.metrics)
        self.pump = Pump(self.outbox, games, races, settings, page_buckets)
        self.seeking = Seeking(self.outbox, pairing)
        self.following = Following(arena_followers, self.pump.queue_frame)
        self.commands = Commands(self.outbox, self.pump, self.seeking, self.following, settings)
        self.gate = FrameGate(self.outbox, settings, self.commands.handle)

    async def run(self) -> None:
        await self.ws.accept()
        metrics = self.games.metrics
        metrics.connections.inc()
        self.pump.start()
        try:
            while True:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                data = raw.encode() if raw is not None else message.get("bytes") or b""
                if not await self.gate.admit(data):
                    break
        except (WebSocketDisconnect, WebSocketDisconnected):
            # The client left, possibly while an answer was being sent to it.
            pass
        finally:
            # A task, so that the seeks are cancelled even when this is cancelled first.
            self.leaving = asyncio.ensure_future(self.seeking.stop())
            try:
                await self.following.stop()
                await self.pump.stop()
                await asyncio.shield(self.leaving)
            finally:
                metrics.connections.dec()


async def websocket_endpoint(websocket: WebSocket) -> None:
    state = websocket.app.state
    pages = getattr(state, "page_buckets", None)
    await Connection(
        websocket,
        state.games,
        state.races,
        state.pairing,
        state.arena_followers,
        state.settings,
        pages,
    ).run()
