"""Stopping a background task for good.

Before Python 3.12, ``asyncio.wait_for`` returns normally when the task running it is
cancelled just as what it waits for completes, and the cancellation is lost: the task
goes on as if nothing had been asked. redis-py sends every command through
``wait_for`` (its socket timeout), so a task cancelled while it talks to Redis may keep
running, and whoever awaits its end waits for ever. So a task is cancelled again until
it has ended.
"""

from __future__ import annotations

import asyncio
from typing import Any

# How long a cancelled task has to end before it is cancelled again.
_AGAIN_AFTER_SECONDS = 0.1


async def cancel_and_wait(task: asyncio.Task[Any]) -> None:
    """Cancels ``task`` and returns once it has ended, however it ended."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=_AGAIN_AFTER_SECONDS)
    if not task.cancelled():
        task.exception()  # retrieved: how a stopped task ended is of no interest
