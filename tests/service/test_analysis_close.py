"""Shutting the analysis down is bounded, even when a pool refill does not stop."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest

from service import analysis as analysis_module
from service.analysis import Analysis
from service.config import Settings
from service.engine import Mode
from service.store.memory import MemoryStore

TF_D1N = Mode.parse("TF.D1N")


def new_analysis() -> Analysis:
    settings = Settings(store_url="memory://", winnable_pool_size=1)
    return Analysis(MemoryStore(settings).records, settings)


async def test_refills_stop_at_close() -> None:
    analysis = new_analysis()
    analysis.start_refilling((TF_D1N,))
    await asyncio.sleep(0.05)
    refill = analysis._refills[TF_D1N]
    await asyncio.wait_for(analysis.close(), 10)
    assert refill.done()


async def test_close_does_not_wait_for_a_refill_that_ignores_cancelling(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(analysis_module, "_CLOSE_WAIT_SECONDS", 0.2)
    analysis = new_analysis()
    release = asyncio.Event()

    async def stubborn() -> None:
        while not release.is_set():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(10)

    analysis._refills[TF_D1N] = asyncio.create_task(stubborn())
    await asyncio.sleep(0)
    with caplog.at_level(logging.WARNING, logger="service.analysis"):
        await asyncio.wait_for(analysis.close(), 5)
    assert "did not stop at shutdown" in caplog.text
    release.set()
    analysis._refills[TF_D1N].cancel()
    await asyncio.sleep(0)
