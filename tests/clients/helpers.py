"""Shared helpers for the client tests: known deals, input streams, waiting on output."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

from solitaire_client import ServiceClient

# A deal and a line of play that wins it (found offline by a depth-first search with
# the engine, then shortened). Replaying it exercises every kind of change up to "won".
WINNING_CODE = "TF1-D1N-AAAAAAK"
WINNING_LINE = """\
c1>f1 c3>f4 c2>c1 d d d w>c6 d d d w>c4 c5>c4 d d d w>c3 c6:2>c3 c7>c6 d d d w>c2 d d d
d w>c2 c6:2>c2 d d d w>c4 c2:5>c4 c1>c2 c3:4>c1 c3>f1 c4:6>c6 d w>f4 w>f4 d d d d w>c5 r
d d d c6:6>c4 c5>c1 d w>c7 w>c7 w>c7 w>c7 d d c4:6>c6 d w>c3 w>c3 w>c3 c4:3>c3 c6:6>c3
c3:10>c4 d w>c1 c7:5>c1 c7>c6 d d w>c3 d d w>c3 c4:8>c3 d w>c6 c3:8>c4 d w>c6 c4:8>c3 d
w>c4 c3:3>c6 c3:4>c4 c6:7>c3 c1:9>c6 c3:3>c4 c6:10>c2 c6>f4 r d w>c1 c2:7>c5 c4:3>c3
c2>c1 c5:8>c2 c2:2>c6 c3:2>c5 c2:5>c1 c5:3>c4 c5>f2 c7>f2 c5>c2 c3:10>c5 c5:9>c7
c4:11>c5 c6:3>c4 c1:9>c6 c5:2>c7 c6:4>c2 c5:10>c3 c2:9>c5 c6:5>c1 c5:9>c6 c3:10>c5
c1:5>c2 c7:12>c1 c7>f3 c1>f3 c1>f1 c4>f3 c4>f1 c5>f3 c5>f1 c6>f3 c5>f3 c7>f2 c1>f2 c1>f4
c4>f2 c1>f2 c4>f1 c4>f3 c5>f1 c6>f4 c1>f4 c1>f3 c2>f3 c6>f2 c5>f2 c6>f1 c5>f1 c2>f1
c6>f2 c5>f2 c2:3>c3 c5:3>c2 c3:3>c7 c6:4>c5 c7:3>c4 c1:5>c3 c2:3>c1 c3:5>c2 c4:3>c3
c2:5>c4 c3:3>c2 c5:4>c7 c4:2>c1 c4>f1 c7:4>c3 c1:5>c6 c3:4>c5 c4:2>c3 c2:3>c4 c5:4>c1
c3:2>c2 c1:4>c3 c2:2>c1 c3>c4 c3>f2 c1>f2 c6:4>c1 c6>c5 c4:4>c7 c1:5>c2 c3:2>c1 c5>c6
c7:4>c3 c6>c4 c1:2>c6 c3:4>c1 c4>c7 c6:2>c4 c1:2>c4 c1>f1 c1>f2 c7>f1 c4:4>c7 c2:5>c5 d
w>f4 c5>f4 c5>f3 c7>f4 c5>f4 c7>f3 c5>f3 c7>f4 c5>f4 c7>f3
"""


async def illegal_column_move(client: ServiceClient, game_id: str) -> str:
    """A well-formed column-to-column move that the rules refuse right now."""
    state = await client.get_state(game_id)
    legal = {a.notation for a in (await client.legal_actions(game_id)).actions}
    columns = state.state.columns
    for i, source in enumerate(columns, start=1):
        if not source.up:
            continue
        for j in range(1, len(columns) + 1):
            notation = f"c{i}>c{j}"
            if j != i and notation not in legal:
                return notation
    raise AssertionError("every column move is legal")


class Lines:
    """An async stream of input lines that a test feeds while the app runs."""

    def __init__(self, *lines: str) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        for line in lines:
            self.send(line)

    def send(self, *lines: str) -> None:
        for line in lines:
            self.queue.put_nowait(line)

    def end(self) -> None:
        self.queue.put_nowait(None)

    async def __aiter__(self) -> AsyncIterator[str]:
        while (line := await self.queue.get()) is not None:
            yield line


async def wait_for_text(out: io.StringIO, text: str, timeout: float = 10.0) -> None:
    """Waits until ``text`` has been written to ``out``."""
    async with asyncio.timeout(timeout):
        while text not in out.getvalue():
            await asyncio.sleep(0.01)
