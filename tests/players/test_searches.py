"""The searches of "was it winnable?": requests about one game share one search (in one
instance and across instances), a search nobody waits for any more is stopped and its
process with it, and a bounded number run at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from service.analysis.searches import Searches
from service.config import Settings
from service.errors import ServiceError
from service.store import open_store
from service.support.metrics import Metrics
from tests.players.held_search import VERDICTS, alive, held, started

ADDRESS = "192.0.2.1"
OTHER_ADDRESS = "192.0.2.2"

# Generous: a loaded machine starts processes slowly. Nothing here measures speed.
PATIENCE_SECONDS = 120.0


@pytest.fixture
async def settings(store_url: str) -> Settings:
    return Settings(store_url=store_url, analysis_max_searches=1, winnable_pool_size=0)


async def _searches(settings: Settings) -> AsyncIterator[Searches]:
    store = open_store(settings)
    await store.open()
    searches = Searches(store.records, settings, Metrics(), held)
    try:
        yield searches
    finally:
        await searches.close()
        await store.close()


@pytest.fixture
async def searches(settings: Settings) -> AsyncIterator[Searches]:
    async for made in _searches(settings):
        yield made


async def _until(what: str, check: object) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE_SECONDS
    while not check():  # type: ignore[operator]
        assert loop.time() < deadline, f"still waiting for {what}"
        await asyncio.sleep(0.02)


def _count(searches: Searches, outcome: str) -> float:
    value: float = searches.metrics.analyses.labels(outcome)._value.get()
    return value


async def test_two_requests_about_one_game_share_one_search(
    searches: Searches, held_searches: Path
) -> None:
    first = asyncio.create_task(searches.wait(searches.join("g1", "record", ADDRESS)))
    await _until("the search to start", lambda: started(held_searches))
    second = asyncio.create_task(searches.wait(searches.join("g1", "record", ADDRESS)))
    await asyncio.sleep(0)
    (held_searches / "release").touch()
    assert await first == VERDICTS and await second == VERDICTS
    assert len(started(held_searches)) == 1
    assert (_count(searches, "searched"), _count(searches, "shared")) == (1, 1)
    # Kept: the next request costs no search.
    assert await searches.kept("g1") == VERDICTS


async def test_past_the_bound_another_game_is_busy(searches: Searches, held_searches: Path) -> None:
    running = asyncio.create_task(searches.wait(searches.join("g1", "record", ADDRESS)))
    with pytest.raises(ServiceError) as refused:
        searches.join("g2", "record", OTHER_ADDRESS)
    assert refused.value.code == "busy" and refused.value.status == 503
    assert refused.value.extra["retry_after"] >= 1
    (held_searches / "release").touch()
    assert await running == VERDICTS
    # The slot is free again.
    assert await searches.wait(searches.join("g2", "record", OTHER_ADDRESS)) == VERDICTS


async def test_one_address_starts_its_share_of_searches_and_others_find_a_slot(
    settings: Settings, held_searches: Path
) -> None:
    two_slots = settings.model_copy(update={"analysis_max_searches": 2})
    async for searches in _searches(two_slots):
        first = asyncio.create_task(searches.wait(searches.join("g1", "record", ADDRESS)))
        with pytest.raises(ServiceError) as refused:
            searches.join("g2", "record", ADDRESS)
        assert refused.value.code == "busy"
        # Joining a search under way is no new search: the address may share it.
        shared = asyncio.create_task(searches.wait(searches.join("g1", "record", ADDRESS)))
        other = asyncio.create_task(searches.wait(searches.join("g2", "record", OTHER_ADDRESS)))
        (held_searches / "release").touch()
        assert await first == VERDICTS and await shared == VERDICTS and await other == VERDICTS
        # Its search over, the address may start another.
        assert await searches.wait(searches.join("g3", "record", ADDRESS)) == VERDICTS


async def test_a_search_nobody_waits_for_is_stopped_with_its_process(
    searches: Searches, held_searches: Path
) -> None:
    search = searches.join("g1", "record", ADDRESS)
    waiters = [asyncio.create_task(searches.wait(search)) for _ in range(2)]
    await _until("the search to start", lambda: started(held_searches))
    [pid] = started(held_searches)
    waiters[0].cancel()
    await asyncio.sleep(0.2)
    assert alive(pid), "one request still waits: the search goes on"
    waiters[1].cancel()
    await _until("the search's process to end", lambda: not alive(pid))
    await _until("the slot to be free", lambda: searches.running == 0 and searches._free)
    assert _count(searches, "cancelled") == 1
    assert searches.metrics.orphan_seconds._value.get() > 0
    assert await searches.kept("g1") is None  # nothing kept from a search cut short
    # A new request starts a new search, in a new process.
    again = asyncio.create_task(searches.wait(searches.join("g1", "record", ADDRESS)))
    await _until("the new search to start", lambda: len(started(held_searches)) == 2)
    (held_searches / "release").touch()
    assert await again == VERDICTS


@pytest.mark.parametrize("store_url", ["redis"], indirect=True)
async def test_instances_share_one_search_through_the_store(
    searches: Searches, settings: Settings, held_searches: Path
) -> None:
    async for other in _searches(settings):
        first = asyncio.create_task(searches.wait(searches.join("g1", "record", ADDRESS)))
        await _until("the search to start", lambda: started(held_searches))
        second = asyncio.create_task(other.wait(other.join("g1", "record", OTHER_ADDRESS)))
        await asyncio.sleep(0.5)
        assert len(started(held_searches)) == 1, "the other instance waits for the first's search"
        (held_searches / "release").touch()
        assert await first == VERDICTS and await second == VERDICTS
        assert len(started(held_searches)) == 1


async def test_a_stopped_search_s_slot_is_free_only_once_its_process_is_gone(
    searches: Searches, held_searches: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ending a search's process may take longer than the stopping task waits before it
    cancels the search again: the slot stays taken, and its seconds for nobody counted,
    until the process is gone."""
    end = searches._end
    ended: list[bool] = []

    async def slow_end(*args: Any) -> None:
        await end(*args)
        await asyncio.sleep(0.5)  # several of ``cancel_and_wait``'s retries
        ended.append(True)

    monkeypatch.setattr(searches, "_end", slow_end)
    waiter = asyncio.create_task(searches.wait(searches.join("g1", "record", ADDRESS)))
    await _until("the search to start", lambda: started(held_searches))
    waiter.cancel()
    await _until("the slot to be free", lambda: searches.running == 0 and searches._free)
    assert ended == [True]
    assert searches.metrics.orphan_seconds._value.get() >= 0.5
