"""Solving, kept off the event loop: pools of certified winnable deals, hints and the
"was it winnable?" analysis of ended games.

Everything the solver computes runs in worker processes (``concurrent.futures``), never
on the event loop: a search may take seconds of CPU. Winnable deals are secret codes
that the solver has won within its budget; they wait in one queue per mode in the store,
refilled in the background up to ``WINNABLE_POOL_SIZE``, so that creating such a game
costs one store round trip.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .. import engine
from ..config import Settings
from ..errors import ServiceError, from_store
from ..protocol import ErrorCode
from ..solver import Budget, Result, can_certify, hint, solve
from ..store import StoreUnavailable
from ..store.records import Records
from ..support.metrics import Metrics
from ..support.tasks import cancel_and_wait
from .searches import Searches, busy
from .workers import run_in_background, stop_now, worker_processes

log = logging.getLogger("service.analysis")

_POOL_WAIT_SECONDS = 3.0
_CLOSE_WAIT_SECONDS = 5.0


# --------------------------------------------------------------------------- in workers


def certify(code_text: str, seconds: float) -> bool:
    """True when the solver wins the deal of ``code_text`` within ``seconds`` of CPU, and
    its winning line, played through the engine, wins."""
    verdict = solve(engine.new_game(code_text), Budget(seconds=seconds))
    return verdict.result is Result.WON and _wins(code_text, verdict.line)


def _wins(code_text: str, line: tuple[str, ...]) -> bool:
    game = engine.new_game(code_text)
    try:
        for notation in line:
            game.play(engine.parse_action(notation))
    except engine.SolitaireError:
        return False
    return game.won


def hint_for(state: str) -> dict[str, Any]:
    """The hint for a serialized game; ``action`` is None when there is nothing to suggest.

    The solver's ``hint`` reads only the game's public view and the public views along
    its line (``line_of``, a replay of its undo history): here, off the event loop."""
    found = hint(engine.deserialize(state))
    return {
        "action": found.action,
        "reason": found.reason,
        "message_en": found.message_en,
        "message_fi": found.message_fi,
    }


def _verdict(game: engine.Klondike, seconds: float) -> dict[str, Any]:
    verdict = solve(game, Budget(seconds=seconds))
    return {
        "result": verdict.result.value,
        "line": list(verdict.line) if verdict.result is Result.WON else None,
        "seconds": round(verdict.seconds, 3),
    }


def analyse(record_text: str, seconds: float) -> dict[str, Any]:
    """The deal's verdict from its start and, for a game that ended before a win, the
    verdict from where the player stopped, each with a winning line when won."""
    record = engine.GameRecord.parse(record_text)
    start = engine.new_game(record.code)
    final = record.replay()
    position = None
    if not final.won:
        # The same table without the resignation: the solver searches from it.
        position = _verdict(engine.from_position(final.position_text()), seconds)
    return {"deal": _verdict(start, seconds), "position": position}


# --------------------------------------------------------------------------- the service side


class Analysis:
    def __init__(
        self, records: Records, settings: Settings, metrics: Metrics | None = None
    ) -> None:
        self.records = records
        self.settings = settings
        self.metrics = metrics or Metrics()
        self._solving: Executor | None = None
        self._hinting: Executor | None = None
        self._refills: dict[engine.Mode, asyncio.Task[None]] = {}
        # Analyses run in processes of their own, so the pools' refills keep theirs.
        self.searches = Searches(records, settings, self.metrics, analyse)
        self._hints_waiting = 0

    @property
    def solving(self) -> Executor:
        if self._solving is None:
            self._solving = worker_processes(self.settings.solver_processes)
        return self._solving

    @property
    def hinting(self) -> Executor:
        # A process of its own, so hints never wait behind a long search.
        if self._hinting is None:
            self._hinting = worker_processes(1)
        return self._hinting

    async def close(self) -> None:
        stopping = [asyncio.create_task(cancel_and_wait(t)) for t in self._refills.values()]
        if stopping:
            # Bounded: a shutdown must end even if a refill does not.
            _, pending = await asyncio.wait(stopping, timeout=_CLOSE_WAIT_SECONDS)
            if pending:
                log.warning("%d winnable-pool refills did not stop at shutdown", len(pending))
                for task in pending:
                    task.cancel()
        await self.searches.close()
        executors = [e for e in (self._solving, self._hinting) if e is not None]
        self._solving = self._hinting = None
        for executor in executors:
            manager = stop_now(executor)
            if manager is not None:
                await asyncio.to_thread(manager.join, _CLOSE_WAIT_SECONDS)

    # ------------------------------------------------------------------ winnable deals

    def start_refilling(self, modes: Iterable[engine.Mode] = ()) -> None:
        """Keeps the pools of ``modes`` full from now on (when pools are enabled)."""
        if self.settings.winnable_pool_size <= 0:
            return
        for mode in modes:
            if not can_certify(mode):
                continue
            if mode not in self._refills or self._refills[mode].done():
                self._refills[mode] = asyncio.create_task(self._refill(mode))

    async def _refill(self, mode: engine.Mode) -> None:
        queue = f"winnable:{mode}"
        while True:
            try:
                if await self.records.queue_length(queue) >= self.settings.winnable_pool_size:
                    await asyncio.sleep(self.settings.winnable_refill_poll_seconds)
                    continue
                code = str(mode.random_secret())
                won = await self._in_worker(False, certify, code, self.settings.certify_seconds)
                if won:
                    await self.records.queue_push(queue, code)
            except (StoreUnavailable, ServiceError) as exc:
                log.warning("winnable pool of %s not refilled: %s", mode, exc)
                await asyncio.sleep(1.0)

    async def take_winnable(self, mode: engine.Mode) -> engine.GameCode:
        """A certified deal of ``mode``; a short wait, then ``winnable_pool_empty``.

        A mode the solver cannot certify is refused at once (``winnable_not_offered``):
        its pool would never fill, and a client told to retry would wait for ever.
        """
        refusal = mode.game.settings_refusal(mode.draw, mode.scoring)
        if refusal is not None:
            raise ServiceError(ErrorCode.BAD_CODE, 422, refusal)
        if not can_certify(mode):
            raise ServiceError(
                ErrorCode.WINNABLE_NOT_OFFERED,
                422,
                f"the solver cannot certify winnable {mode} deals; ask for a secret deal",
            )
        self.start_refilling((mode,))
        deadline = asyncio.get_running_loop().time() + _POOL_WAIT_SECONDS
        while True:
            code = await from_store(self.records.queue_pop(f"winnable:{mode}"))
            if code is not None:
                return engine.GameCode.parse(code)
            if asyncio.get_running_loop().time() >= deadline:
                raise ServiceError(
                    ErrorCode.WINNABLE_POOL_EMPTY,
                    503,
                    f"no certified winnable {mode} deal is ready yet; retry shortly",
                    retry_after=5,
                )
            await asyncio.sleep(0.1)

    async def take_winnable_now(self, mode: engine.Mode) -> engine.GameCode | None:
        """A certified deal of ``mode`` if one is ready, without waiting; None otherwise
        (and for a mode the solver cannot certify)."""
        if mode.game.settings_refusal(mode.draw, mode.scoring) is not None:
            return None
        if not can_certify(mode):
            return None
        self.start_refilling((mode,))
        code = await from_store(self.records.queue_pop(f"winnable:{mode}"))
        return None if code is None else engine.GameCode.parse(code)

    async def certified(self, game_id: str) -> bool:
        return await from_store(self.records.get(f"certified:{game_id}")) is not None

    async def mark_certified(self, game_id: str, ttl_seconds: int) -> None:
        await from_store(self.records.claim(f"certified:{game_id}", "1", ttl_seconds))

    # ------------------------------------------------------------------ hints and analysis

    async def _in_worker(self, hinting: bool, work: Any, *args: Any) -> Any:
        """Runs ``work(*args)`` in a worker process; a pool whose process died is
        replaced, and the request answered ``store_unavailable`` (retry)."""
        executor = self.hinting if hinting else self.solving
        try:
            answer = asyncio.get_running_loop().run_in_executor(executor, work, *args)
            if not hinting:
                run_in_background(executor)  # certifying pool deals: nobody waits on it
            return await answer
        except BrokenProcessPool as exc:
            log.warning("a solver process died; starting a new one")
            stop_now(executor)
            if hinting:
                self._hinting = None
            else:
                self._solving = None
            raise ServiceError(
                ErrorCode.STORE_UNAVAILABLE, 503, "the solver is restarting; retry"
            ) from exc

    def enter_hint(self) -> None:
        """Takes a place among the ``hints_max_waiting`` hints worked out or waiting at
        once; ``busy`` when there is none. ``leave_hint`` gives it back."""
        if self._hints_waiting >= self.settings.hints_max_waiting:
            raise busy("hints", 1)
        self._hints_waiting += 1

    def leave_hint(self) -> None:
        self._hints_waiting -= 1

    async def hint(self, state: str) -> dict[str, Any]:
        found: dict[str, Any] = await self._in_worker(True, hint_for, state)
        return found

    async def analysis(self, game_id: str, record_text: str, address: str) -> dict[str, Any]:
        """The verdicts of an ended game, worked out once and then kept; ``busy`` when
        they must be worked out and ``analysis_max_searches`` searches are under way, or
        ``address`` has started its share of them."""
        kept = await self.searches.kept(game_id)
        if kept is not None:
            self.metrics.analyses.labels("kept").inc()
            return kept
        return await self.searches.wait(self.searches.join(game_id, record_text, address))
