"""Stopping tasks for good, including one whose cancellation was lost on its way (as
``asyncio.wait_for`` loses it before Python 3.12 when what it waits for completes at the
same moment), and a connection's pump stuck that way in a catch-up read."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any, cast

from service.config import Settings
from service.store import Delivery
from service.support.tasks import cancel_and_wait
from service.ws.pump import Pump, Subscription


async def _swallows_one_cancellation(started: asyncio.Event) -> None:
    started.set()
    with contextlib.suppress(asyncio.CancelledError):  # a lost cancellation, from inside
        await asyncio.sleep(30)
    await asyncio.sleep(30)


async def ends_within(seconds: float, work: Coroutine[Any, Any, None]) -> bool:
    """Whether ``work`` ends within ``seconds``. Not ``asyncio.wait_for``, whose own
    cancellation at the deadline would cancel a task that ``work`` awaits."""
    running = asyncio.create_task(work)
    done, _ = await asyncio.wait({running}, timeout=seconds)
    if not done:
        running.cancel()
    return bool(done)


async def test_a_task_that_loses_its_cancellation_is_cancelled_again() -> None:
    started = asyncio.Event()
    task = asyncio.create_task(_swallows_one_cancellation(started))
    await started.wait()
    assert await ends_within(5, cancel_and_wait(task))
    assert task.cancelled()


async def test_ended_and_failing_tasks_are_waited_for_quietly() -> None:
    async def fails() -> None:
        raise ValueError("ended badly")

    done = asyncio.create_task(asyncio.sleep(0))
    failing = asyncio.create_task(fails())
    await asyncio.sleep(0.01)
    await cancel_and_wait(done)
    await cancel_and_wait(failing)
    assert done.done() and not done.cancelled()
    assert isinstance(failing.exception(), ValueError)


class ReadThatOutlivesItsCancel:
    """A game's changes read as a Redis round trip can end on Python 3.11: cancelled just
    as the reply arrives, it returns the page all the same."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.store = self

    async def changes_since(self, game_id: str, since: int, token: str | None) -> dict[str, Any]:
        self.started.set()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(30)
        return {"version": since, "recovered": True, "changes": [], "more": False}

    async def unsubscribe(self, game_id: str, subscriber: object) -> None:
        return None


async def test_a_pump_stops_even_when_its_catch_up_read_loses_the_cancellation() -> None:
    games = ReadThatOutlivesItsCancel()
    pump = Pump(cast(Any, None), cast(Any, games), cast(Any, None), Settings())
    pump.subscriptions["g"] = Subscription("watcher", None, 3)
    pump.start()
    pump.deliver(Delivery("g", -1, None))  # resynchronise: read what was missed
    await asyncio.wait_for(games.started.wait(), 5)
    assert await ends_within(5, pump.stop())
    assert pump.task is not None and pump.task.cancelled()
    assert pump.subscriptions == {}
