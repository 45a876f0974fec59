"""Reading the changes a subscription missed, page by page, and sending them.

A subscription that resumes, or whose pump saw a gap, reads the changes after its last
version from the game's action log: under the per-address limit of HTTP changes pages,
and again after a short wait while the store is coming back.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..errors import ServiceError
from ..games import Games
from ..guards.rates import AddressBuckets
from ..protocol import ErrorCode
from .frames import Outbox

CATCH_UP_RETRIES = (0.05, 0.2, 0.5, 1.0, 2.0, None)


class ChangePages:
    """One connection's reader and sender of missed changes."""

    def __init__(self, outbox: Outbox, games: Games, buckets: AddressBuckets | None) -> None:
        self.outbox = outbox
        self.games = games
        self.buckets = buckets

    async def read(self, game_id: str, since: int, token: str | None) -> dict[str, Any] | None:
        """The changes after ``since``; None once an error was sent."""
        await self.wait_for_page()
        for delay in CATCH_UP_RETRIES:
            try:
                return await self.games.changes_since(game_id, since, token)
            except ServiceError as exc:
                # Right after Redis comes back, pooled connections fail once each.
                if exc.code is not ErrorCode.STORE_UNAVAILABLE or delay is None:
                    await self.outbox.error(exc.code, exc.message, game_id=game_id)
                    return None
                await asyncio.sleep(delay)
        return None

    async def wait_for_page(self) -> None:
        """A resume reads its pages under the per-address limit of HTTP changes pages;
        over it, the resume waits instead of failing."""
        if self.buckets is None:
            return
        ws = self.outbox.ws
        address = ws.client.host if ws.client else ""
        while (wait := self.buckets.take(address)) > 0.0:
            await asyncio.sleep(wait)

    async def send(self, game_id: str, result: dict[str, Any]) -> None:
        """The missed changes in order, or a snapshot when they are not recovered."""
        if result["recovered"]:
            for change in result["changes"]:
                await self.outbox.send(change)
            return
        await self.outbox.send(
            {
                "type": "snapshot",
                "game_id": game_id,
                "version": result["version"],
                "state": result["state"],
            }
        )
