"""The race documents in the store, and what their changes send to the players.

A race is one JSON document in the store, changed only by compare-and-set, so the
instances that serve its players agree on who joined, who is ready, when it starts and
who finished when. Each saved change pushes the public race to its subscribers; live
progress (cards on foundations, score, moves) is published after each accepted action
without touching the document. Timers push the race again when its countdown ends and
finish it when its time is up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from .. import engine
from ..errors import ServiceError, StoreRefusal, from_store
from ..games.hooks import RaceRead
from ..players.ratings import Ratings
from ..protocol import ErrorCode
from ..store import CommitStatus, Store, StoreUnavailable, race_topic
from ..store.race_document import RaceDocument
from ..store.versioned import compare_and_set
from ..support.tasks import cancel_and_wait
from .results import finish_if_done, public_view, race_result

log = logging.getLogger("service.races")

_SAVE_ATTEMPTS = 16


def figures(standing: engine.Standing) -> dict[str, Any]:
    """A player's progress as races show it."""
    return {
        "foundations": standing.foundations,
        "score": standing.score,
        "score_display": standing.score_display,
        "moves": standing.moves,
    }


class RaceUpdates:
    def __init__(
        self,
        store: Store,
        refusal: StoreRefusal,
        clock: Callable[[], int],
        ratings: Ratings,
    ) -> None:
        self.store = store
        self.ratings = ratings
        # The games layer's answer to an unreachable store: races meet the same outages.
        self.refusal = refusal
        # Milliseconds of server time.
        self.clock = clock
        # A race's timers wait as event loop timers, and become tasks only when due: an
        # arena's first wave starts hundreds of races at once, each with two timers.
        self._waiting: dict[int, asyncio.TimerHandle] = {}
        self._timer_count = 0
        self._timers: set[asyncio.Task[None]] = set()
        # Game id -> (race id, player id), learnt from every document read.
        self.player_of_game: dict[str, tuple[str, str]] = {}

    async def close(self) -> None:
        for handle in self._waiting.values():
            handle.cancel()
        self._waiting.clear()
        for task in list(self._timers):
            await cancel_and_wait(task)

    # ------------------------------------------------------------------ documents

    async def load(self, race_id: str) -> RaceRead:
        stored = await from_store(self.store.load_race(race_id), self.refusal)
        if stored is None:
            raise ServiceError(ErrorCode.NOT_FOUND, 404, f"no race with id {race_id!r}")
        doc = RaceDocument.parse(stored.doc)
        for player in doc.players:
            self.player_of_game[player.game_id] = (race_id, player.player_id)
        return stored, doc

    async def versions(self, race_ids: list[str]) -> dict[str, int]:
        """The stored version of each of these races that exists, read in one call."""
        return await from_store(self.store.race_versions(race_ids), self.refusal)

    async def load_settled(self, race_id: str) -> tuple[RaceRead, dict[str, dict[str, Any]]]:
        """The race and its players' progress, with every ending it was never told of.

        A race hears of the action that ends a game (a win, a resignation) after the
        action is committed. An instance that stopped in between, with a client that
        never sent the action again, would leave the race waiting for an ending that
        happened; reading the race finds such a game by its state and records the ending
        at the server time the game's action log gives the action.
        """
        read = await self.load(race_id)
        progress, _, endings = await self.progress(read[1])
        unseen = {
            player.game_id: (endings[player.player_id], await self._last_action_at(player.game_id))
            for player in read[1].players
            if player.player_id in endings and not player.ended
        }
        if not unseen:
            return read, progress

        def settle(doc: RaceDocument, at: int) -> bool:
            changed = False
            for player in doc.players:
                if player.game_id in unseen:
                    ending, ended_at = unseen[player.game_id]
                    changed = player.end(ending, ended_at or at) or changed
            return changed

        await self.update(race_id, settle)
        read = await self.load(race_id)
        progress, _, _ = await self.progress(read[1])
        return read, progress

    async def _last_action_at(self, game_id: str) -> int | None:
        """The server time of the game's latest action, if its log keeps it."""
        refusal = self.refusal
        stored = await from_store(self.store.load(game_id), refusal)
        actions = await from_store(self.store.timed_actions(game_id), refusal)
        if stored is None or not stored.created_ms or not actions or actions[-1][1] is None:
            return None
        return stored.created_ms + actions[-1][1]

    async def update(
        self,
        race_id: str,
        change: Callable[[RaceDocument, int], bool],
        known: dict[str, engine.Klondike] | None = None,
        earlier: RaceRead | None = None,
    ) -> tuple[RaceDocument, dict[str, Any] | None]:
        """Applies ``change`` (which returns False when there is nothing to save) by CAS.

        Returns the document and the public view pushed with it (None when nothing was
        saved), so a caller answering with the race need not build the view again.
        ``known`` holds games by id as just committed, which need not be read again.
        ``earlier`` is the race as read before (by the gate of the action just
        committed; it is changed in place): the first attempt starts from it when there
        is something to save, since the compare-and-set proves it current or starts
        over. With nothing to save the race is read again: an old copy proves nothing.
        """
        # The server time of the attempt under way: its change and its finishing agree.
        at = 0
        view: dict[str, Any] | None = None

        def apply(read: RaceRead) -> bool:
            nonlocal at
            at = self.clock()
            return change(read[1], at)

        async def write(read: RaceRead) -> bool:
            nonlocal view
            stored, doc = read
            finish_if_done(doc, at)
            # The result and the view pushed with it share one read of the games.
            wants_result = doc.finished_at is not None and doc.result is None
            progress, actions, _ = await self.progress(doc, wants_result, known)
            if wants_result:
                doc.result = race_result(doc, progress, actions)
                if doc.rated and not await self._told(doc):
                    doc.rated = False
                if doc.rated:
                    doc.result["ratings"] = await self._rating_outcome(doc)
            view = await self.view(doc, at, progress)
            message = {
                "type": "race",
                "race_id": race_id,
                "version": stored.version + 1,
                "race": view,
            }
            result = await from_store(
                self.store.save_race(
                    race_id,
                    stored.version,
                    doc.to_json(),
                    orjson.dumps(message),
                    over=doc.finished_at is not None,
                ),
                self.refusal,
            )
            if result.status is CommitStatus.MISSING:
                raise ServiceError(ErrorCode.NOT_FOUND, 404, f"no race with id {race_id!r}")
            return result.status is CommitStatus.APPLIED

        (_, doc), saved = await compare_and_set(
            lambda: self.load(race_id),
            apply,
            write,
            attempts=_SAVE_ATTEMPTS,
            kept_changing=lambda: ServiceError(
                ErrorCode.STALE_VERSION, 409, "the race kept changing; retry"
            ),
            earlier=earlier,
        )
        if saved and doc.result is not None and doc.result.get("ratings"):
            await self.apply_ratings(doc)
        return doc, view if saved else None

    async def _told(self, doc: RaceDocument) -> bool:
        """Whether the race's players were ever told of it. A race made for a pairing is
        made first and told only once the pairing is recorded: an arena's heat in its
        arena, a quick pairing in both seeks. One whose pairing never was recorded (a
        store that failed in between, an instance that stopped, heats made before an
        arena's start and not used) ends unrated."""
        if doc.heat_of is not None:
            found = await from_store(
                self.store.arenas.heats(doc.heat_of, [doc.race_id]), self.refusal
            )
            return bool(found)
        if doc.pair_of is not None:
            seek = await from_store(self.store.seeks.get(doc.pair_of), self.refusal)
            return seek is not None and (seek.paired or {}).get("race_id") == doc.race_id
        return True

    async def _rating_outcome(self, doc: RaceDocument) -> list[dict[str, Any]] | None:
        assert doc.result is not None
        seats = [(p.player_id, p.account, p.game_id) for p in doc.players if p.account]
        mode = str(engine.Mode.named(doc.game, doc.draw, doc.scoring))
        return await self.ratings.outcome(mode, seats, doc.result["ranking"])

    async def apply_ratings(self, doc: RaceDocument) -> None:
        """Applies a finished rated race's outcome to its players' ratings: done once
        per player whoever calls it and however often (``Ratings.apply``), so every
        reader of the finished race may call it to finish what a stopped instance left."""
        changes = (doc.result or {}).get("ratings") or []
        accounts = {p.player_id: p.account for p in doc.players}
        mode = str(engine.Mode.named(doc.game, doc.draw, doc.scoring))
        for change in changes:
            await self.ratings.apply(doc.race_id, mode, accounts[change["player_id"]], change)

    async def progress(
        self,
        doc: RaceDocument,
        with_actions: bool = False,
        known: dict[str, engine.Klondike] | None = None,
    ) -> tuple[dict[str, dict[str, Any]], dict[str, list[str]], dict[str, str]]:
        """Each player's game as progress figures (games exist once the race started),
        with ``with_actions`` each action log, all read in one round trip, and the
        players whose games show an ending (``won`` or ``resigned``). A game in ``known``
        is taken as it is (its log is still read for the records)."""
        cards = 13 * engine.GAME_CLASSES[engine.GameKind(doc.game)].foundation_count
        known = known or {}
        scoring = engine.Scoring(doc.scoring)
        opening = engine.Standing(
            0, engine.VEGAS_START if scoring is engine.Scoring.VEGAS else 0, 0, scoring
        )
        players = doc.players
        started = doc.start_at is not None
        wanted = [
            p.game_id for p in players if with_actions or (started and p.game_id not in known)
        ]
        found: dict[str, tuple[Any, list[str] | None]] = {}
        if wanted:
            loaded = await from_store(self.store.load_many(wanted, with_actions), self.refusal)
            found = dict(zip(wanted, loaded, strict=True))
        progress: dict[str, dict[str, Any]] = {}
        logs: dict[str, list[str]] = {}
        endings: dict[str, str] = {}
        for player in players:
            stored, actions = found.get(player.game_id, (None, None))
            standing = opening
            game = known.get(player.game_id)
            if game is not None and started:
                standing = game.standing()
            elif stored is not None and started:
                # Read from the text: dealing the whole game again was the costliest part
                # of a race update.
                standing = engine.standing(stored.state)
            progress[player.player_id] = figures(standing)
            logs[player.player_id] = actions or []
            if standing.foundations == cards:
                endings[player.player_id] = "won"
            elif standing.resigned:
                endings[player.player_id] = "resigned"
        return progress, logs, endings

    async def view(
        self,
        doc: RaceDocument,
        at: int | None = None,
        progress: dict[str, dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """The public race (see ``public_view``), reading the games' progress if needed."""
        at = self.clock() if at is None else at
        if progress is None:
            progress, _, _ = await self.progress(doc)
        return public_view(doc, at, progress)

    async def publish_progress(
        self, race_id: str, player_id: str, ending: str | None, game: engine.Klondike
    ) -> None:
        """One player's figures after an action, to every subscriber of the race."""
        progress = {
            "type": "race_progress",
            "race_id": race_id,
            "player_id": player_id,
            "state": ending or "playing",
            **figures(game.standing()),
            "server_time": self.clock(),
        }
        try:
            await self.store.publish(race_topic(race_id), orjson.dumps(progress))
        except StoreUnavailable:
            log.warning("race progress of %s not published", race_id)

    # ------------------------------------------------------------------ timers

    async def after_start(self, doc: RaceDocument) -> None:
        """Sets the timers of a race that has just started."""
        if doc.start_at is None or doc.finished_at is not None:
            return
        race_id = doc.race_id
        if not doc.announced:
            self._later(doc.start_at, lambda: self._announce(race_id))
        if doc.ends_at is not None:
            self._later(doc.ends_at, lambda: self.expire(race_id))

    def _later(self, at_ms: int, work: Callable[[], Awaitable[None]]) -> None:
        """Runs ``work`` at server time ``at_ms``; other instances act lazily instead."""
        self._timer_count += 1
        self._wait(self._timer_count, at_ms, work)

    def _wait(self, key: int, at_ms: int, work: Callable[[], Awaitable[None]]) -> None:
        loop = asyncio.get_running_loop()
        wait = max(0, at_ms - self.clock()) / 1000
        self._waiting[key] = loop.call_later(wait, self._due, key, at_ms, work)

    def _due(self, key: int, at_ms: int, work: Callable[[], Awaitable[None]]) -> None:
        del self._waiting[key]
        # The event loop's clock and the wall clock can disagree by a little: a timer that
        # woke early must not announce a race that has not started yet.
        if at_ms > self.clock():
            self._wait(key, at_ms, work)
            return

        async def run() -> None:
            try:
                await work()
            except (ServiceError, StoreUnavailable) as exc:
                log.warning("race timer failed: %s", exc)

        task = asyncio.create_task(run())
        self._timers.add(task)
        task.add_done_callback(self._timers.discard)

    async def _announce(self, race_id: str) -> None:
        """Pushes the race again when the countdown ends, so clients flip to running."""

        def mark_running(doc: RaceDocument, at: int) -> bool:
            # A saved change, so the message has a version of its own like every other.
            if doc.announced or doc.finished_at is not None:
                return False
            doc.announced = True
            return True

        await self.update(race_id, mark_running)

    async def expire(self, race_id: str) -> None:
        await self.update(race_id, lambda doc, at: doc.finished_at is None)

    async def call_off(self, race_id: str) -> None:
        """Ends a race made for a pairing that could not be completed (a seek cancelled,
        an arena entry changed, while it was made): its players were never told of it,
        so it ends now, unrated, instead of counting as a rated draw between them when
        its time runs out."""

        def void(doc: RaceDocument, at: int) -> bool:
            if doc.finished_at is not None:
                return False
            doc.rated = False
            doc.finished_at = at
            return True

        await self.update(race_id, void)
