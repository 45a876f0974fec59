"""The daily challenge: every UTC day, one deal per mode, the same for everyone.

A day's deal comes from a secret seed, chosen by the first request of the day (every
instance agrees through the store) among the deals the solver has won. Until the day is
over the deal is played only as ranked attempts, one per player, dealt to a player
token: no anonymous game, practice, hint, analysis, record or replay of it. The code
and every attempt are public once the day is over, and anyone may then play the deal
by its code. A past day that nobody played has no deal: reading it draws nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hmac
import re
from typing import Any

import orjson

from .. import engine
from ..analysis import Analysis
from ..errors import ServiceError, from_store
from ..games import Games
from ..games.creation import new_game_id
from ..protocol import ErrorCode
from ..store import hash_token
from ..store.records import Records
from ..support.ids import derived_token
from . import Players
from .attempts import (
    ATTEMPT_TTL_SECONDS,
    DAILY_MODES,
    DailyAttempts,
    attempt_key,
    board_of,
    challenge_id,
    day_of,
    end_ms,
    mode_of,
)
from .boards import Boards, rows
from .careers import Careers, daily_entry
from .stats import Ending

_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_CLOSE_WAIT_SECONDS = 2.0


class Daily:
    def __init__(
        self,
        games: Games,
        players: Players,
        attempts: DailyAttempts,
        analysis: Analysis,
        careers: Careers,
    ) -> None:
        self.games = games
        self.players = players
        self.attempts = attempts
        self.boards: Boards = attempts.boards
        self.records: Records = attempts.records
        self.clock = attempts.clock
        self.analysis = analysis
        # Counts the attempts still open at a day's end, and says who may be on boards.
        self.careers = careers
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

    async def code(self, challenge: str) -> engine.GameCode | None:
        """The challenge's deal; today's is chosen by its first request. A past day's is
        the one it had, or None: reading an old day never takes a deal from the pools."""
        key = f"daily:{challenge}"
        existing = await from_store(self.records.get(key))
        if existing is not None:
            return engine.GameCode.parse(existing)
        if day_of(challenge) != self.today():
            return None
        code = await self.analysis.take_winnable(mode_of(challenge))
        await from_store(self.records.claim(key, str(code), ttl_seconds=ATTEMPT_TTL_SECONDS))
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
                "players": await self.boards.size(board_of(challenge)),
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

    async def play(self, date: str, mode: str, token: str | None) -> dict[str, Any]:
        """The player's ranked attempt at today's challenge, dealt now: the only game of
        the day's deal until the day is over.

        Sent again by the device that made it (the same player token) before its first
        action, it answers the same attempt with the same game token: a request whose
        answer was lost is safe to retry.
        """
        day, chosen = self.parse(date, mode)
        if day != self.today():
            raise ServiceError(
                ErrorCode.DAILY_CLOSED,
                409,
                f"the challenge of {date} is over: see its board, and play its deal by its code",
            )
        if not token:
            raise ServiceError(
                ErrorCode.UNAUTHORIZED,
                401,
                "today's challenge is played only as a player's ranked attempt: "
                "send a player token",
            )
        player = await self.players.authenticate(token)
        challenge = challenge_id(day, chosen)
        code = await self.code(challenge)
        assert code is not None  # today's deal is chosen on demand
        # The attempt is claimed before the game exists, so that two requests at once
        # cannot both be ranked.
        attempt = attempt_key(challenge, player.player_id)
        game_id = new_game_id()
        if not await from_store(
            self.records.claim(attempt, game_id, ttl_seconds=ATTEMPT_TTL_SECONDS)
        ):
            claimed: str | None = await from_store(self.records.get(attempt))
            if claimed is None:
                # Claimed, and gone by now (a deal that failed gives its claim back): the
                # attempt is not dealt without a claim of its own. Fail closed.
                raise ServiceError(
                    ErrorCode.STORE_UNAVAILABLE, 503, "your ranked attempt is being dealt; retry"
                )
            game_id = claimed
            again = await self._dealt_again(game_id, token, player.player_id, challenge, code)
            if again is None:
                raise ServiceError(
                    ErrorCode.DAILY_ATTEMPT_USED,
                    409,
                    f"your ranked attempt at {challenge} is game {game_id}; the deal opens "
                    "to practice when the day is over",
                )
            return again
        try:
            return await self._deal(game_id, token, player.player_id, challenge, code)
        except ServiceError:
            await from_store(self.records.delete(attempt))
            raise

    async def _deal(
        self, game_id: str, token: str, player_id: str, challenge: str, code: engine.GameCode
    ) -> dict[str, Any]:
        created = await self.games.create_from(
            code,
            hidden=True,
            player_id=player_id,
            challenge=challenge,
            game_id=game_id,
            token=derived_token(token, "daily", game_id),
        )
        await self._open(game_id, player_id, challenge, engine.new_game(code))
        return {**created, "challenge_id": challenge, "ranked": True}

    async def _open(
        self, game_id: str, player_id: str, challenge: str, game: engine.Klondike
    ) -> None:
        """The attempt counts from its deal: on the board as dealt (if its player may be
        there), and counted when the day ends if it has not ended before."""
        dealt = Ending.of(game_id, game, None)
        refusal = await self.careers.board_refusal(player_id)
        entry = {
            **daily_entry(dealt),
            "off_board": None if refusal is None else "not_eligible",
            "off_board_detail": refusal,
        }
        await self.attempts.open_attempt(
            challenge, player_id, entry, dealt.rank_score(), refusal is None
        )

    async def _dealt_again(
        self, game_id: str, token: str, player_id: str, challenge: str, code: engine.GameCode
    ) -> dict[str, Any] | None:
        """The attempt's deal answered again to the device that asked for it, if its
        game has not been played: its creation, or its answer, was lost."""
        stored = await from_store(self.games.store.load(game_id), self.games.store_refusal)
        if stored is None:
            return await self._deal(game_id, token, player_id, challenge, code)
        game_token = derived_token(token, "daily", game_id)
        if stored.version != 0 or not hmac.compare_digest(
            stored.token_hash, hash_token(game_token)
        ):
            return None
        await self._open(game_id, player_id, challenge, engine.deserialize(stored.state))
        state = engine.deserialize(stored.state).public_view()
        answer = self.games.created_answer(game_id, game_token, None, stored.created_ms, state)
        return {**answer, "challenge_id": challenge, "ranked": True}

    async def _close(self, challenge: str) -> None:
        """Finishes the attempts still open when the day ended (at most once at a time
        per instance; the board waits a little for it)."""
        task = self._closing.get(challenge)
        if task is None:
            task = asyncio.create_task(self.careers.close_attempts(challenge))
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
        board = await self.boards.view(board_of(challenge), you, top, around, offset)
        members = sorted({row["player_id"] for row in rows(board)} | ({you} if you else set()))
        details = await self.attempts.entries(challenge, members)
        for row in rows(board):
            detail = orjson.loads(details[row["player_id"]] or "{}")
            row.update({k: detail[k] for k in _ROW_FIELDS if k in detail})
            if not public:
                row.pop("game_id", None)  # its record would show the deal before the end
        own = details.get(you) if you else None
        mine = None if own is None else orjson.loads(own)
        code = await self.code(challenge) if public else None
        return {
            "challenge_id": challenge,
            "date": day.isoformat(),
            "mode": str(chosen),
            "public": public,
            "public_at": end_ms(day),
            "code": None if code is None else str(code),
            "mine": None if mine is None else _own_attempt(mine),
            **board,
        }


# What a board row shows of an attempt; its player's own view (``mine``) shows more.
_ROW_FIELDS = ("game_id", "won", "time_ms", "moves", "foundations", "open")


def _own_attempt(entry: dict[str, Any]) -> dict[str, Any]:
    """The player's own attempt, as only they see it: on the board or why not."""
    return {
        "game_id": entry["game_id"],
        "won": entry["won"],
        "time_ms": entry["time_ms"],
        "moves": entry["moves"],
        "foundations": entry["foundations"],
        "open": bool(entry.get("open", False)),
        "verified": entry.get("verified"),
        "reason": entry.get("reason"),
        "detail": entry.get("detail"),
        "on_board": entry.get("on_board", True),
        "off_board": entry.get("off_board"),
        "off_board_detail": entry.get("off_board_detail"),
    }
