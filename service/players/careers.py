"""What a player's game counts for: statistics per mode, win streaks, and the boards
(daily challenge, all-time best times, longest streaks).

A player's game counts from its deal: a win, a resignation, an attempt still open when
its day ends, or a game left for another (the player starts a new one, played or not)
each count once, whichever instance sees it. Its time is the server's, from the deal to
the winning action, read from the game's action log, which also says whether it was
played at a person's pace (``pace.judge``): a game that was not is counted for its
player, marked unverified, and kept off every public board, as are the games of players
not yet eligible for them (``eligibility``). An instance that stops between a game's
last commit and its counting leaves the game uncounted until the repair: the player's
latest game is checked when they read their statistics or start a new game, and daily
attempts when their day closes.
"""

from __future__ import annotations

from typing import Any

from .. import engine
from ..analysis import Analysis
from ..config import Settings
from ..errors import ServiceError
from ..protocol import ErrorCode
from ..store import Store, StoreUnavailable
from ..store.race_document import RaceDocument
from . import Player, Players
from .attempts import DailyAttempts
from .boards import Boards
from .eligibility import board_refusal, games_counted
from .pace import PaceRule, Verification, judge
from .stats import Ending, Results


def daily_entry(ending: Ending) -> dict[str, Any]:
    """A ranked attempt as its board row and its player's own view show it."""
    return {
        "game_id": ending.game_id,
        "won": ending.won,
        "time_ms": ending.time_ms if ending.won else None,
        "moves": ending.moves,
        "foundations": ending.foundations,
    }


def off_board_reason(
    verification: Verification, refusal: str | None
) -> tuple[str | None, str | None]:
    """Why a result stays off public boards (``unverified`` or ``not_eligible``, with the
    reason in words), or (None, None) when it stands there."""
    if not verification.verified:
        return "unverified", verification.detail
    if refusal is not None:
        return "not_eligible", refusal
    return None, None


class Careers:
    """The players' side of ``Games`` (its ``PlayerHooks``): statistics and boards.

    Built before ``Games``, which is handed it, from the store and the players' records.
    """

    def __init__(
        self,
        results: Results,
        attempts: DailyAttempts,
        players: Players,
        store: Store,
        analysis: Analysis,
        settings: Settings,
    ) -> None:
        self.analysis = analysis
        self.results = results
        self.attempts = attempts
        self.players = players
        self.boards: Boards = attempts.boards
        self.store = store
        self.settings = settings
        self.pace = PaceRule(
            settings.pace_burst_actions,
            settings.pace_burst_gap_ms,
            settings.pace_min_moves,
            settings.pace_median_ms,
        )

    async def check_open(self, game_id: str, player_id: str, challenge: str) -> None:
        # Every game of a challenge is a ranked attempt: none is played once its day ends.
        if self.attempts.is_public(challenge):
            raise ServiceError(
                ErrorCode.DAILY_CLOSED,
                409,
                "the day of this ranked attempt is over: it stands on the board as it was",
            )

    def challenge_public(self, challenge: str) -> bool:
        return self.attempts.is_public(challenge)

    async def board_refusal(
        self, player_id: str, stats: dict[str, Any] | None = None
    ) -> str | None:
        """Why the player is not on public boards yet (None: they are)."""
        player = await self.players.load(player_id)
        if stats is None:
            stats = await self.results.document(player_id)
        return board_refusal(
            self.settings, player.created_at, games_counted(stats), self.attempts.now_ms()
        )

    async def close_attempts(self, challenge: str) -> None:
        """Counts the ranked attempts still open when their day ended, as they stood:
        one never played counts as played and not won."""
        async for player_id, game_id in self.attempts.still_open(challenge):
            try:
                stored = await self.store.load(game_id)
            except StoreUnavailable:
                return
            if stored is not None:
                await self.game_over(
                    game_id, player_id, challenge, engine.deserialize(stored.state)
                )

    async def _judged(self, game_id: str, game: engine.Klondike) -> tuple[int | None, Verification]:
        """A win's time from the moment its cards were shown (the deal; a race game's,
        the race's start) to the winning action, and the pace of the game, both from its
        action log as the server timed it."""
        try:
            timed = await self.store.timed_actions(game_id) or []
            time_ms = await self._won_in(game_id, timed) if game.won else None
        except StoreUnavailable:
            # Counted now as it stands, or never: the time and the pace are left unknown,
            # and an unknown pace keeps the game off public boards.
            return None, Verification(False, "unknown", "the action log could not be read")
        return time_ms, judge(timed, self.pace)

    async def _won_in(self, game_id: str, timed: list[tuple[str, int | None]]) -> int | None:
        won_at = timed[-1][1] if timed else None
        if won_at is None:
            return None
        stored = await self.store.load(game_id)
        if stored is None or not stored.race_id:
            return won_at
        # A race game is dealt when its player joins, and shown when the race starts.
        race = await self.store.load_race(stored.race_id)
        start_at = RaceDocument.parse(race.doc).start_at if race is not None else None
        return won_at if start_at is None else max(0, stored.created_ms + won_at - start_at)

    async def game_over(
        self, game_id: str, player_id: str, challenge: str, game: engine.Klondike
    ) -> None:
        """Counts the player's game as it stands: over, or left for another."""
        try:
            hinted = await self.store.tally(f"hints:{game_id}", 1, add=0) > 0
        except StoreUnavailable:
            hinted = False
        time_ms, verification = await self._judged(game_id, game)
        ending = Ending.of(game_id, game, time_ms, hinted, verification)
        counted, stats = await self.results.count(player_id, ending)
        if not counted:
            return
        off_board, why = off_board_reason(
            ending.verification,
            await self.board_refusal(player_id, stats) if ending.verified else None,
        )
        on_board = off_board is None
        if on_board:
            best = stats["modes"][ending.mode]["best_verified_streak"]
            await self.boards.add(f"streak:{ending.mode}", player_id, -float(best))
        if (
            on_board
            and ending.won
            and time_ms is not None
            and not hinted
            and not challenge
            and await self.analysis.certified(game_id)
        ):
            # A winnable deal of this game alone, from a secret seed: nobody could play
            # it before. Not a daily attempt: the day's deal is everyone's.
            await self.boards.add(f"best-time:{ending.mode}", player_id, time_ms)
        if challenge and await self.attempts.is_ranked(challenge, player_id, game_id):
            entry = {
                **daily_entry(ending),
                "rank_score": ending.rank_score(),
                **ending.verification.as_json(),
                "off_board": off_board,
                "off_board_detail": why,
            }
            await self.attempts.enter(challenge, player_id, entry, on_board)

    async def new_solo_game(self, player: Player, game_id: str) -> None:
        """The player's new game replaces the last one, which counts as played (not won)
        if it is not over: dealt is played."""
        previous: list[str | None] = [None]

        def replace(found: Player) -> None:
            previous[0] = found.current_game
            found.current_game = game_id

        await self.players.update(player.player_id, replace)
        if previous[0] is not None:
            await self._count_left(previous[0], player.player_id)

    async def repair_latest(self, player: Player) -> None:
        """Counts the player's latest game if it is over and was not counted."""
        if player.current_game is not None:
            await self._count_left(player.current_game, player.player_id, only_over=True)

    async def _count_left(self, game_id: str, player_id: str, only_over: bool = False) -> None:
        try:
            stored = await self.store.load(game_id)
        except StoreUnavailable:
            return  # counted when it ends, or when the player next starts a game
        if stored is None or (only_over and not stored.over):
            return
        # Over: counted when it ended, unless that instance stopped first (counting
        # again counts nothing twice).
        game = engine.deserialize(stored.state)
        await self.game_over(game_id, player_id, stored.challenge, game)
