"""The daily challenge: every UTC day, one deal per mode, the same for everyone.

A day's deal comes from a secret seed, chosen by the first request of the day (every
instance agrees through the store) among the deals the solver has won. Each player has
one ranked attempt per challenge; later plays are unranked. The code and the ranked games
stay secret until the day is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import re
from collections.abc import Callable, Coroutine
from typing import Any

import orjson

from .. import engine
from ..analysis import Analysis
from ..errors import ServiceError, from_store
from ..games import Games, new_game_id
from ..protocol import ErrorCode
from ..store.records import Records
from . import Players
from .attempts import (
    ATTEMPT_TTL_SECONDS,
    DAILY_MODES,
    DailyAttempts,
    attempt_key,
    challenge_id,
    end_ms,
    mode_of,
)
from .boards import Boards, rows

_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_CLOSE_WAIT_SECONDS = 2.0


class Daily:
    def __init__(
        self,
        games: Games,
        players: Players,
        attempts: DailyAttempts,
        analysis: Analysis,
        close_attempts: Callable[[str], Coroutine[Any, Any, None]],
    ) -> None:
        self.games = games
        self.players = players
        self.attempts = attempts
        self.boards: Boards = attempts.boards
        self.records: Records = attempts.records
        self.clock = attempts.clock
        self.analysis = analysis
        # Counts a challenge's attempts still open at its end (the careers do).
        self.close_attempts = close_attempts
        self._closing: dict[str, asyncio.Task[None]] = {}

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    def today(self) -> dt.date:
        return dt.datetime.fromtimestamp(self.clock(), dt.UTC).date()

    def parse(self, date: str, mode: str) -> tuple[dt.date, engine.Mode]:
        """The day and mode of a challenge that exists (today or earlier), or a typed
        error."""
        if not _DATE_RE.match(date):
            raise ServiceError(ErrorCode.BAD_MESSAGE, 422, "a date reads YYYY-MM-DD")
        try:
            day = dt.date.fromisoformat(date)
        except ValueError as exc:
            raise ServiceError(ErrorCode.BAD_MESSAGE, 422, f"no such date: {date}") from exc
        chosen = engine.Mode.find(mode, DAILY_MODES)
        if chosen is None:
            raise ServiceError(
                ErrorCode.NOT_FOUND,
                404,
                f"daily challenges are {', '.join(map(str, DAILY_MODES))}",
            )
        if day > self.today():
            raise ServiceError(ErrorCode.NOT_FOUND, 404, "that day's challenge is not out yet")
        return day, chosen

    async def code(self, challenge: str) -> engine.GameCode:
        key = f"daily:{challenge}"
        existing = await from_store(self.records.get(key))
        if existing is not None:
            return engine.GameCode.parse(existing)
        code = await self.analysis.take_winnable(mode_of(challenge))
        await from_store(self.records.claim(key, str(code)))
        # Another instance may have chosen first: everyone plays the stored one.
        stored = await from_store(self.records.get(key))
        return engine.GameCode.parse(stored or str(code))

    async def overview(self, token: str | None) -> dict[str, Any]:
        today = self.today()
        player = await self.players.authenticate(token) if token else None
        challenges = []
        for mode in DAILY_MODES:
            challenge = challenge_id(today, mode)
            entry: dict[str, Any] = {
                "challenge_id": challenge,
                "date": today.isoformat(),
                "mode": str(mode),
                "players": await self.boards.size(f"daily:{challenge}"),
            }
            if player is not None:
                entry["ranked_game_id"] = await self.attempts.ranked_game(
                    challenge, player.player_id
                )
            challenges.append(entry)
        next_at = end_ms(today)
        return {
            "date": today.isoformat(),
            "server_time": self.now_ms(),
            "next_at": next_at,
            "seconds_to_next": max(0, (next_at - self.now_ms()) // 1000),
            "challenges": challenges,
        }

    async def play(
        self, date: str, mode: str, token: str | None, ranked_only: bool = False
    ) -> dict[str, Any]:
        """A game of the challenge: ranked for a player's first attempt, else unranked;
        with ``ranked_only`` the ranked attempt or a typed error, nothing created."""
        day, chosen = self.parse(date, mode)
        if day != self.today():
            raise ServiceError(
                ErrorCode.DAILY_CLOSED, 409, f"the challenge of {date} is over; see its board"
            )
        challenge = challenge_id(day, chosen)
        player = await self.players.authenticate(token) if token else None
        if ranked_only and player is None:
            raise ServiceError(ErrorCode.UNAUTHORIZED, 401, "a ranked attempt needs a player token")
        code = await self.code(challenge)
        game_id = new_game_id()
        ranked = False
        attempt = ""
        if player is not None:
            # The attempt is claimed before the game exists, so that a refused ranked
            # request creates nothing and two requests at once cannot both be ranked.
            attempt = attempt_key(challenge, player.player_id)
            ranked = await from_store(
                self.records.claim(attempt, game_id, ttl_seconds=ATTEMPT_TTL_SECONDS)
            )
        if ranked_only and not ranked:
            used = await from_store(self.records.get(attempt))
            raise ServiceError(
                ErrorCode.DAILY_ATTEMPT_USED,
                409,
                f"your ranked attempt at {challenge} is game {used}; later games are unranked",
            )
        try:
            created = await self.games.create_from(
                code,
                hidden=True,
                player_id=player.player_id if player else "",
                challenge=challenge,
                game_id=game_id,
            )
        except ServiceError:
            if ranked:
                await from_store(self.records.delete(attempt))
            raise
        return {**created, "challenge_id": challenge, "ranked": ranked}

    async def _close(self, challenge: str) -> None:
        """Finishes the attempts still open when the day ended (at most once at a time
        per instance; the board waits a little for it)."""
        task = self._closing.get(challenge)
        if task is None:
            task = asyncio.create_task(self.close_attempts(challenge))
            self._closing[challenge] = task
            task.add_done_callback(lambda _: self._closing.pop(challenge, None))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(task), _CLOSE_WAIT_SECONDS)

    async def board(
        self, date: str, mode: str, token: str | None, top: int, around: int, offset: int = 0
    ) -> dict[str, Any]:
        day, chosen = self.parse(date, mode)
        challenge = challenge_id(day, chosen)
        public = self.attempts.is_public(challenge)
        if public:
            await self._close(challenge)
        you = await self.players.player_id_of(token) if token else None
        board = await self.boards.view(f"daily:{challenge}", you, top, around, offset)
        members = sorted({row["player_id"] for row in rows(board)})
        details = await self.attempts.entries(challenge, members)
        for row in rows(board):
            detail = orjson.loads(details[row["player_id"]] or "{}")
            row.update({k: v for k, v in detail.items() if k != "rank_score"})
            if not public:
                row.pop("game_id", None)  # its record would show the deal before the end
        code = str(await self.code(challenge)) if public else None
        return {
            "challenge_id": challenge,
            "date": day.isoformat(),
            "mode": str(chosen),
            "public": public,
            "public_at": end_ms(day),
            "code": code,
            **board,
        }
