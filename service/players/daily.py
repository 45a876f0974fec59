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
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

import orjson

from .. import engine
from ..analysis import Analysis
from ..errors import ServiceError, from_store
from ..games import Games, new_game_id
from ..protocol import ErrorCode
from ..store.records import Records
from . import Players
from .boards import Boards, rows

# One challenge per game and draw, in the scoring both games offer.
DAILY_MODES = tuple(m for m in engine.Mode.all() if m.scoring is engine.Scoring.NORMAL)
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DAY_MS = 86_400_000
_ATTEMPT_TTL_SECONDS = 400 * 86_400
_CLOSE_WAIT_SECONDS = 2.0


def challenge_id(day: dt.date, mode: engine.Mode) -> str:
    return f"{day.isoformat()}.{mode}"


def day_of(challenge: str) -> dt.date:
    return dt.date.fromisoformat(challenge[:10])


def mode_of(challenge: str) -> engine.Mode:
    return engine.Mode.parse(challenge[11:])


def end_ms(day: dt.date) -> int:
    """Server time (ms) when ``day`` ends, UTC."""
    start = dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)
    return int(start.timestamp() * 1000) + _DAY_MS


class Daily:
    def __init__(
        self,
        games: Games,
        players: Players,
        boards: Boards,
        records: Records,
        clock: Callable[[], float],
        analysis: Analysis,
    ) -> None:
        self.games = games
        self.players = players
        self.boards = boards
        self.records = records
        self.clock = clock
        self.analysis = analysis
        # Counts a challenge's attempts still open at its end. The careers do that, and
        # they are built on this object: the lifespan links them once both exist.
        self.close_attempts: Callable[[str], Coroutine[Any, Any, None]] | None = None
        self._closing: dict[str, asyncio.Task[None]] = {}

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    def today(self) -> dt.date:
        return dt.datetime.fromtimestamp(self.clock(), dt.UTC).date()

    def is_public(self, challenge: str) -> bool:
        """A challenge's code and ranked games are public once its day is over."""
        return self.now_ms() >= end_ms(day_of(challenge))

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
                entry["ranked_game_id"] = await from_store(
                    self.records.get(f"daily-attempt:{challenge}:{player.player_id}")
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
        attempt_key = ""
        if player is not None:
            # The attempt is claimed before the game exists, so that a refused ranked
            # request creates nothing and two requests at once cannot both be ranked.
            attempt_key = f"daily-attempt:{challenge}:{player.player_id}"
            ranked = await from_store(
                self.records.claim(attempt_key, game_id, ttl_seconds=_ATTEMPT_TTL_SECONDS)
            )
        if ranked_only and not ranked:
            used = await from_store(self.records.get(attempt_key))
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
                await from_store(self.records.delete(attempt_key))
            raise
        return {**created, "challenge_id": challenge, "ranked": ranked}

    async def is_ranked(self, challenge: str, player_id: str, game_id: str) -> bool:
        attempt = await from_store(self.records.get(f"daily-attempt:{challenge}:{player_id}"))
        return bool(attempt == game_id)

    async def open_attempt(
        self, challenge: str, player_id: str, entry: dict[str, Any], rank_score: float
    ) -> None:
        """Puts a ranked attempt on the board at its first action, as it stands then:
        an attempt that never ends still ranks (after every ended one)."""
        claimed = await from_store(
            self.records.claim(
                f"daily-open:{challenge}:{player_id}",
                orjson.dumps({**entry, "open": True}).decode(),
                ttl_seconds=_ATTEMPT_TTL_SECONDS,
            )
        )
        if claimed:
            await from_store(
                self.records.queue_push(
                    f"daily-attempts:{challenge}", f"{player_id} {entry['game_id']}"
                )
            )
            await self.boards.add(f"daily:{challenge}", player_id, rank_score)

    async def enter(self, challenge: str, player_id: str, entry: dict[str, Any]) -> None:
        """Puts a ranked attempt that ended on the challenge's board."""
        await from_store(
            self.records.claim(
                f"daily-entry:{challenge}:{player_id}",
                orjson.dumps(entry).decode(),
                ttl_seconds=_ATTEMPT_TTL_SECONDS,
            )
        )
        # The ended attempt's standing replaces the one of its first action.
        await self.boards.add(f"daily:{challenge}", player_id, entry["rank_score"], replace=True)
        await from_store(self.records.delete(f"daily-open:{challenge}:{player_id}"))

    async def still_open(self, challenge: str) -> AsyncIterator[tuple[str, str]]:
        """Once the day is over: each ranked attempt that had not ended, taken once
        (``player id``, ``game id``) whichever instance asks."""
        queue = f"daily-attempts:{challenge}"
        while (item := await from_store(self.records.queue_pop(queue))) is not None:
            player_id, game_id = item.split(" ", 1)
            if await from_store(self.records.get(f"daily-open:{challenge}:{player_id}")):
                yield player_id, game_id

    async def _close(self, challenge: str) -> None:
        """Finishes the attempts still open when the day ended (at most once at a time
        per instance; the board waits a little for it)."""
        if self.close_attempts is None:
            return
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
        public = self.is_public(challenge)
        if public:
            await self._close(challenge)
        you = await self.players.player_id_of(token) if token else None
        board = await self.boards.view(f"daily:{challenge}", you, top, around, offset)
        members = sorted({row["player_id"] for row in rows(board)})
        details = await self._entries(challenge, members)
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

    async def _entries(self, challenge: str, members: list[str]) -> dict[str, str | None]:
        """Each member's entry: the ended attempt's, else the open one's."""
        ended = await from_store(
            self.records.get_many([f"daily-entry:{challenge}:{m}" for m in members])
        )
        details = dict(zip(members, ended, strict=True))
        missing = [m for m in members if details[m] is None]
        if missing:
            opened = await from_store(
                self.records.get_many([f"daily-open:{challenge}:{m}" for m in missing])
            )
            details.update(zip(missing, opened, strict=True))
        return details
