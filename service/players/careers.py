"""What a player's finished game counts for: statistics per mode, win streaks, and the
boards (daily challenge, all-time best times, longest streaks).

A game is counted once, whichever instance sees it end (a win, a resignation, or the
player starting a new game after at least one move). Statistics are one document per
player, changed by compare-and-set together with the ids of the games counted last, so
games of one player ending at once on several instances all count, and counting again
after a crash counts nothing twice. An instance that stops between a game's last commit
and its counting leaves the game uncounted until the repair: the player's latest game is
checked when they read their statistics or start a new game, and daily attempts when
their day closes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from .. import engine
from ..analysis import Analysis
from ..errors import ServiceError, from_store
from ..protocol import ErrorCode
from ..store import Store, StoreUnavailable
from ..store.records import Records
from ..store.versioned import compare_and_set
from . import Player, Players
from .attempts import DailyAttempts
from .boards import Boards

_SAVE_ATTEMPTS = 32
# Games already counted, kept in the statistics document. A game is only ever counted
# again by the repair of a player's latest game, so a short memory is enough.
_COUNTED_KEPT = 64
# Ranks pack into one float: won games by time, then moves; others after every winner,
# by cards left off the foundations, then moves. Exact below 2^53.
_MOVES_SPAN = 100_000
_UNFINISHED = 10**14


@dataclass(frozen=True, slots=True)
class Ending:
    """A finished game as it counts: ``won`` false for a resignation or an abandon."""

    game_id: str
    mode: str  # as ``engine.Mode`` writes it: statistics and boards are kept per mode
    won: bool
    time_ms: int | None
    moves: int
    score: int
    foundations: int
    total_cards: int
    hinted: bool
    vegas: bool

    @classmethod
    def of(
        cls, game_id: str, game: engine.Klondike, time_ms: int | None, hinted: bool = False
    ) -> Ending:
        return cls(
            game_id=game_id,
            mode=str(engine.Mode.of(game)),
            won=game.won,
            time_ms=time_ms,
            moves=game.moves,
            score=game.score,
            foundations=game.cards_on_foundations(),
            total_cards=13 * game.foundation_count,
            hinted=hinted,
            vegas=game.scoring is engine.Scoring.VEGAS,
        )

    def rank_score(self) -> float:
        """Lower ranks first: won, by time, then fewer moves; then cards on foundations."""
        moves = min(self.moves, _MOVES_SPAN - 1)
        if self.won and self.time_ms is not None:
            return float(self.time_ms * _MOVES_SPAN + moves)
        left = self.total_cards - self.foundations
        return float(_UNFINISHED + left * _MOVES_SPAN + moves)


def _empty_mode(vegas: bool) -> dict[str, Any]:
    figures: dict[str, Any] = {
        "played": 0,
        "won": 0,
        "hinted": 0,
        "current_streak": 0,
        "best_streak": 0,
        "best_time_ms": None,
        "fewest_moves": None,
        "best_score": None,
    }
    if vegas:
        figures["bankroll"] = 0
    return figures


def _count(figures: dict[str, Any], ending: Ending) -> None:
    figures["played"] += 1
    if ending.vegas:
        # Vegas players keep one running bankroll: each game adds its final dollars.
        figures["bankroll"] += ending.score
    best_score = figures["best_score"]
    figures["best_score"] = ending.score if best_score is None else max(best_score, ending.score)
    if ending.hinted:
        figures["hinted"] += 1
    if not ending.won:
        figures["current_streak"] = 0
        return
    figures["won"] += 1
    figures["current_streak"] += 1
    figures["best_streak"] = max(figures["best_streak"], figures["current_streak"])
    if ending.hinted:
        return  # counted, but kept apart from the best times and moves
    if ending.time_ms is not None:
        best = figures["best_time_ms"]
        figures["best_time_ms"] = ending.time_ms if best is None else min(best, ending.time_ms)
    fewest = figures["fewest_moves"]
    figures["fewest_moves"] = ending.moves if fewest is None else min(fewest, ending.moves)


def public_stats(doc: dict[str, Any]) -> dict[str, Any]:
    modes = {}
    for mode, figures in sorted(doc.get("modes", {}).items()):
        played = figures["played"]
        modes[mode] = {**figures, "win_rate": figures["won"] / played if played else 0.0}
    return {"modes": modes}


def _daily_entry(ending: Ending) -> dict[str, Any]:
    return {
        "game_id": ending.game_id,
        "won": ending.won,
        "time_ms": ending.time_ms if ending.won else None,
        "moves": ending.moves,
        "foundations": ending.foundations,
    }


class Results:
    def __init__(self, records: Records, clock: Callable[[], float]) -> None:
        self.records = records
        self.clock = clock

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    async def first_action(self, game_id: str, ttl_seconds: int) -> None:
        """Starts the game's clock (the server's, from the first action on)."""
        await from_store(self.records.claim(f"started:{game_id}", str(self.now_ms()), ttl_seconds))

    async def elapsed_ms(self, game_id: str) -> int | None:
        started = await from_store(self.records.get(f"started:{game_id}"))
        return None if started is None else max(0, self.now_ms() - int(started))

    async def count(self, player_id: str, ending: Ending) -> bool:
        """Counts ``ending`` in the player's statistics once; False if already counted.

        The game's id is written into the same document in the same compare-and-set, so
        counting can be tried again after a crash at any point without counting twice.
        """
        key = f"stats:{player_id}"

        async def read() -> tuple[int, dict[str, Any]]:
            stored = await from_store(self.records.load(key))
            if stored is None:
                return 0, {"modes": {}}
            return stored.version, orjson.loads(stored.text)

        def add(read: tuple[int, dict[str, Any]]) -> bool:
            doc = read[1]
            counted: list[str] = doc.setdefault("counted", [])
            if ending.game_id in counted:
                return False
            figures = doc["modes"].setdefault(ending.mode, _empty_mode(ending.vegas))
            _count(figures, ending)
            doc["counted"] = [*counted, ending.game_id][-_COUNTED_KEPT:]
            return True

        async def write(read: tuple[int, dict[str, Any]]) -> bool:
            version, doc = read
            saved: bool = await from_store(
                self.records.save(key, version, orjson.dumps(doc).decode())
            )
            return saved

        (_, doc), counted = await compare_and_set(
            read,
            add,
            write,
            attempts=_SAVE_ATTEMPTS,
            kept_changing=lambda: ServiceError(
                ErrorCode.STALE_VERSION, 409, "the statistics kept changing"
            ),
        )
        if counted:
            best_streak = doc["modes"][ending.mode]["best_streak"]
            await from_store(
                self.records.board_add(f"streak:{ending.mode}", player_id, -float(best_streak))
            )
        return counted

    async def stats(self, player_id: str) -> dict[str, Any]:
        stored = await from_store(self.records.load(f"stats:{player_id}"))
        return public_stats(orjson.loads(stored.text) if stored else {})


class Careers:
    """The players' side of ``Games`` (its ``PlayerHooks``): clocks, statistics, boards.

    Built before ``Games``, which is handed it, from the store and the players' records.
    """

    def __init__(
        self,
        results: Results,
        attempts: DailyAttempts,
        store: Store,
        analysis: Analysis,
        ttl_seconds: int,
    ) -> None:
        self.analysis = analysis
        self.results = results
        self.attempts = attempts
        self.boards: Boards = attempts.boards
        self.store = store
        self.ttl_seconds = ttl_seconds

    async def first_action(
        self, game_id: str, player_id: str, challenge: str, game: engine.Klondike
    ) -> None:
        await self.results.first_action(game_id, self.ttl_seconds)
        if challenge and await self.attempts.is_ranked(challenge, player_id, game_id):
            ending = Ending.of(game_id, game, None)
            await self.attempts.open_attempt(
                challenge, player_id, _daily_entry(ending), ending.rank_score()
            )

    async def check_open(self, game_id: str, player_id: str, challenge: str) -> None:
        if self.attempts.is_public(challenge) and await self.attempts.is_ranked(
            challenge, player_id, game_id
        ):
            raise ServiceError(
                ErrorCode.DAILY_CLOSED,
                409,
                "the day of this ranked attempt is over: it stands on the board as it was",
            )

    async def close_attempts(self, challenge: str) -> None:
        """Counts the ranked attempts still open when their day ended, as they stood."""
        async for player_id, game_id in self.attempts.still_open(challenge):
            try:
                stored = await self.store.load(game_id)
            except StoreUnavailable:
                return
            if stored is not None:
                await self.game_over(
                    game_id, player_id, challenge, engine.deserialize(stored.state)
                )

    def challenge_public(self, challenge: str) -> bool:
        return self.attempts.is_public(challenge)

    async def game_over(
        self, game_id: str, player_id: str, challenge: str, game: engine.Klondike
    ) -> None:
        try:
            hinted = await self.store.tally(f"hints:{game_id}", 1, add=0) > 0
        except StoreUnavailable:
            hinted = False
        elapsed = await self.results.elapsed_ms(game_id)
        ending = Ending.of(game_id, game, elapsed, hinted)
        if not await self.results.count(player_id, ending):
            return
        if (
            ending.won
            and elapsed is not None
            and not hinted
            and not challenge
            and await self.analysis.certified(game_id)
        ):
            # A winnable deal of this game alone, from a secret seed: nobody could play
            # it before. Not a daily attempt: the day's deal is everyone's, and anyone
            # may practise it (anonymously, or as another player) before their attempt.
            await self.boards.add(f"best-time:{ending.mode}", player_id, elapsed)
        if challenge and await self.attempts.is_ranked(challenge, player_id, game_id):
            entry = {**_daily_entry(ending), "rank_score": ending.rank_score()}
            await self.attempts.enter(challenge, player_id, entry)

    async def new_solo_game(self, player: Player, players: Players, game_id: str) -> None:
        """The player's new game replaces the last one, which counts as played (not won)
        if it had at least one move and is not over."""
        previous: list[str | None] = [None]

        def replace(found: Player) -> None:
            previous[0] = found.current_game
            found.current_game = game_id

        await players.update(player.player_id, replace)
        if previous[0] is None:
            return
        try:
            stored = await self.store.load(previous[0])
        except StoreUnavailable:
            return  # counted when it ends, if it ever does
        if stored is None or stored.version == 0:
            return
        game = engine.deserialize(stored.state)
        if stored.over:
            # Over: counted when it ended, unless that instance stopped first.
            await self.game_over(previous[0], player.player_id, stored.challenge, game)
            return
        ending = Ending.of(previous[0], game, await self.results.elapsed_ms(previous[0]))
        await self.results.count(player.player_id, ending)

    async def repair_latest(self, player: Player) -> None:
        """Counts the player's latest game if it is over and was not counted."""
        if player.current_game is None:
            return
        try:
            stored = await self.store.load(player.current_game)
        except StoreUnavailable:
            return
        if stored is not None and stored.over:
            game = engine.deserialize(stored.state)
            await self.game_over(player.current_game, player.player_id, stored.challenge, game)
