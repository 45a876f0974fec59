"""A lock per key: one holder at a time, and nothing kept for keys nobody uses."""

from __future__ import annotations

import asyncio
import contextlib

from service.support.locks import KeyedLocks


async def test_one_holder_per_key_and_no_entry_left() -> None:
    locks = KeyedLocks()
    inside: list[str] = []
    most = 0

    async def hold(key: str) -> None:
        nonlocal most
        async with locks(key):
            inside.append(key)
            most = max(most, inside.count("a"))
            await asyncio.sleep(0.01)
            inside.remove(key)

    await asyncio.gather(*(hold("a") for _ in range(5)), hold("b"))
    assert most == 1
    assert len(locks) == 0


async def test_a_waiter_cancelled_leaves_no_entry() -> None:
    locks = KeyedLocks()
    release = asyncio.Event()

    async def holder() -> None:
        async with locks("a"):
            await release.wait()

    first = asyncio.create_task(holder())
    await asyncio.sleep(0)
    waiter = asyncio.create_task(holder())
    await asyncio.sleep(0)
    waiter.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await waiter
    release.set()
    await first
    assert len(locks) == 0
