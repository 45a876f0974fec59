"""The searches of "was it winnable?": one per game at a time, a bounded number at once,
and none for nobody.

A search costs seconds of CPU. Requests about the same game share the search under way:
in this instance its task, across instances a claim in the store (``analysing:{id}``)
whose holder stores the verdicts (``analysis:{id}``) for the others to read. Each search
runs in the worker process of a slot of its own, ``analysis_max_searches`` of them, apart
from the processes that fill the winnable pools, which therefore keep theirs. A request
that finds every slot taken is answered ``busy`` at once rather than queued behind them,
and so is one from an address that has already started as many searches as it may run at
once (``analysis_searches_per_address``): one address cannot hold every slot, so somebody
else always finds one while only one address floods.

When every request waiting for a search has gone, the search is cancelled and its
process ended: a process pool cannot cancel a call that is running, and only ending its
process stops the CPU it spends. The slot starts a new process for its next search.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import orjson

from ..config import Settings
from ..errors import ServiceError, from_store
from ..protocol import ErrorCode
from ..store.records import Records
from ..support.metrics import Metrics
from ..support.tasks import cancel_and_wait
from .workers import processes_of, run_in_background, stop_now, worker_processes

log = logging.getLogger("service.analysis")

# How often a request whose game another instance is searching looks for its verdicts.
_POLL_SECONDS = 0.25
_STOP_WAIT_SECONDS = 5.0

Work = Callable[[str, float], dict[str, Any]]


def busy(what: str, retry_after: int) -> ServiceError:
    return ServiceError(
        ErrorCode.BUSY,
        503,
        f"the solver is busy with other {what}; retry after {retry_after} s",
        retry_after=retry_after,
    )


class _Search:
    __slots__ = ("orphaned_at", "task", "waiters")

    def __init__(self) -> None:
        self.task: asyncio.Task[dict[str, Any]] | None = None
        self.waiters = 0
        self.orphaned_at = 0.0


class Searches:
    def __init__(self, records: Records, settings: Settings, metrics: Metrics, work: Work) -> None:
        self.records = records
        self.settings = settings
        self.metrics = metrics
        self.work = work
        self._executors: list[Executor | None] = [None] * settings.analysis_max_searches
        self._free = list(range(settings.analysis_max_searches))
        self._searches: dict[str, _Search] = {}
        self._started_by: dict[str, int] = {}
        self._stopping: set[asyncio.Task[None]] = set()
        # A search runs two verdicts of ``analysis_seconds`` CPU each; on a loaded machine
        # it takes longer in wall time, and a claim outliving its holder blocks nobody for
        # longer than this.
        self._claim_seconds = math.ceil(8 * settings.analysis_seconds) + 60
        self.retry_after = math.ceil(2 * settings.analysis_seconds) + 1

    @property
    def running(self) -> int:
        """Slots taken: searches under way, and searches stopping whose process has not
        ended yet (their slot, and their address's share, are free only then)."""
        return len(self._executors) - len(self._free)

    async def kept(self, game_id: str) -> dict[str, Any] | None:
        text = await from_store(self.records.get(f"analysis:{game_id}"))
        if text is None:
            return None
        verdicts: dict[str, Any] = orjson.loads(text)
        return verdicts

    def join(self, game_id: str, record_text: str, address: str) -> _Search:
        """The search of ``game_id`` under way here, or a new one started for ``address``;
        ``busy`` when a new one finds no free slot or the address has started its share.
        Synchronous: two requests cannot both start one."""
        search = self._searches.get(game_id)
        if search is not None:
            self.metrics.analyses.labels("shared").inc()
            return search
        started = self._started_by.get(address, 0)
        if not self._free or started >= self.settings.analysis_searches_per_address:
            self.metrics.analyses.labels("busy").inc()
            raise busy("analyses", self.retry_after)
        self._started_by[address] = started + 1
        slot = self._free.pop()
        search = _Search()
        task = asyncio.create_task(self._search(search, game_id, record_text, slot))
        search.task = task
        self._searches[game_id] = search
        task.add_done_callback(lambda _: self._finished(search, game_id, slot, address))
        self.metrics.analyses.labels("searched").inc()
        return search

    def _finished(self, search: _Search, game_id: str, slot: int, address: str) -> None:
        if self._searches.get(game_id) is search:
            del self._searches[game_id]
        self._free.append(slot)
        left = self._started_by.pop(address) - 1
        if left:
            self._started_by[address] = left

    async def wait(self, search: _Search) -> dict[str, Any]:
        """The verdicts of ``search``; when the last request waiting for it goes (its
        client left, or it was cancelled), the search is cancelled."""
        task = search.task
        assert task is not None
        search.waiters += 1
        try:
            return await asyncio.shield(task)
        finally:
            search.waiters -= 1
            if search.waiters == 0 and not task.done():
                search.orphaned_at = time.monotonic()
                # Requests from now on start a search of their own instead of joining one
                # that is stopping.
                for game_id, found in list(self._searches.items()):
                    if found is search:
                        del self._searches[game_id]
                self.metrics.analyses.labels("cancelled").inc()
                # Cancelled until it ends: a single cancellation can be lost in a store
                # round trip (``cancel_and_wait``).
                stopping = asyncio.create_task(cancel_and_wait(task))
                self._stopping.add(stopping)
                stopping.add_done_callback(self._stopping.discard)

    async def _search(
        self, search: _Search, game_id: str, record_text: str, slot: int
    ) -> dict[str, Any]:
        claim = f"analysing:{game_id}"
        while True:
            kept = await self.kept(game_id)
            if kept is not None:
                return kept
            if await from_store(self.records.claim(claim, "1", self._claim_seconds)):
                break
            # Another instance is searching: its verdicts will be in the store, or its
            # claim will lapse if it went away.
            await asyncio.sleep(_POLL_SECONDS)
        try:
            verdicts = await self._run(search, slot, record_text)
            text = orjson.dumps(verdicts).decode()
            ttl = self.settings.game_ttl_seconds
            await from_store(self.records.claim(f"analysis:{game_id}", text, ttl))
            return verdicts
        finally:
            # Shielded: the claim must go even if the search is cancelled again meanwhile,
            # or other instances would wait for verdicts nobody works out.
            with contextlib.suppress(ServiceError, asyncio.CancelledError):
                await asyncio.shield(from_store(self.records.delete(claim)))

    def _executor(self, slot: int) -> Executor:
        executor = self._executors[slot]
        if executor is None:
            executor = self._executors[slot] = worker_processes(1)
        return executor

    async def _run(self, search: _Search, slot: int, record_text: str) -> dict[str, Any]:
        executor = self._executor(slot)
        future = executor.submit(self.work, record_text, self.settings.analysis_seconds)
        run_in_background(executor)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            if not future.done():
                # The slot is free only once its process is gone: the search is
                # cancelled again meanwhile (``cancel_and_wait``), and each time the
                # ending goes on.
                ending = asyncio.ensure_future(self._orphaned(search, slot, executor))
                while not ending.done():
                    with contextlib.suppress(asyncio.CancelledError):
                        await asyncio.shield(ending)
            raise
        except BrokenProcessPool as exc:
            log.warning("a solver process died; starting a new one")
            await self._end(slot, executor)
            raise ServiceError(
                ErrorCode.STORE_UNAVAILABLE, 503, "the solver is restarting; retry"
            ) from exc

    async def _orphaned(self, search: _Search, slot: int, executor: Executor) -> None:
        """Ends the process of a search nobody waits for, and counts the seconds it ran
        for nobody: from its last request's going to its process's end."""
        await self._end(slot, executor)
        if search.orphaned_at:
            self.metrics.orphan_seconds.inc(time.monotonic() - search.orphaned_at)

    async def _end(self, slot: int, executor: Executor) -> None:
        """Ends the slot's process, and returns once it is gone."""
        if self._executors[slot] is executor:
            self._executors[slot] = None
        processes = processes_of(executor)
        manager = stop_now(executor)

        def reap() -> None:
            for process in processes:
                process.join(_STOP_WAIT_SECONDS)
            if manager is not None:
                manager.join(_STOP_WAIT_SECONDS)

        await asyncio.to_thread(reap)

    async def close(self) -> None:
        tasks = [s.task for s in self._searches.values() if s.task is not None]
        self._searches.clear()
        for task in [*tasks, *self._stopping]:
            await cancel_and_wait(task)
        for slot, executor in enumerate(self._executors):
            if executor is not None:
                await self._end(slot, executor)
