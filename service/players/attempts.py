"""The daily challenge's ranked attempts: which game is a player's attempt, its place on
the challenge's board from its deal and once it ended, and the attempts still open when
the day is over. Every record of a day expires ``ATTEMPT_TTL_SECONDS`` after it is made.

Kept apart from the rest of the daily challenge (``daily.py``, which deals its games) so
that the players' side of ``Games`` (``careers.Careers``) can be built before ``Games``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Callable
from typing import Any

import orjson

from .. import engine
from ..errors import from_store
from ..store.records import Records
from .boards import Boards

# One challenge per game and draw, in the scoring both games offer.
DAILY_MODES = tuple(m for m in engine.Mode.all() if m.scoring is engine.Scoring.NORMAL)
_DAY_MS = 86_400_000
ATTEMPT_TTL_SECONDS = 400 * 86_400


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


def attempt_key(challenge: str, player_id: str) -> str:
    """The player's ranked attempt at ``challenge``: its game id, claimed once."""
    return f"daily-attempt:{challenge}:{player_id}"


def open_key(challenge: str, player_id: str) -> str:
    """A ranked attempt as dealt, until it ends."""
    return f"daily-open:{challenge}:{player_id}"


def entry_key(challenge: str, player_id: str) -> str:
    """A ranked attempt that ended, as it counted."""
    return f"daily-entry:{challenge}:{player_id}"


def board_of(challenge: str) -> str:
    return f"daily:{challenge}"


class DailyAttempts:
    def __init__(self, records: Records, boards: Boards, clock: Callable[[], float]) -> None:
        self.records = records
        self.boards = boards
        self.clock = clock

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    def is_public(self, challenge: str) -> bool:
        """A challenge's code and ranked games are public once its day is over."""
        return self.now_ms() >= end_ms(day_of(challenge))

    async def ranked_game(self, challenge: str, player_id: str) -> str | None:
        """The game id of the player's ranked attempt, if they made one."""
        found: str | None = await from_store(self.records.get(attempt_key(challenge, player_id)))
        return found

    async def is_ranked(self, challenge: str, player_id: str, game_id: str) -> bool:
        return await self.ranked_game(challenge, player_id) == game_id

    async def open_attempt(
        self,
        challenge: str,
        player_id: str,
        entry: dict[str, Any],
        rank_score: float,
        on_board: bool,
    ) -> None:
        """Records a ranked attempt as it is dealt, to be counted once its day ends if it
        has not ended before; ``on_board``, it ranks there as dealt meanwhile (after
        every ended attempt). Safe to do again."""
        claimed = await from_store(
            self.records.claim(
                open_key(challenge, player_id),
                orjson.dumps({**entry, "open": True, "on_board": on_board}).decode(),
                ttl_seconds=ATTEMPT_TTL_SECONDS,
            )
        )
        if claimed:
            await from_store(
                self.records.queue_push(
                    f"daily-attempts:{challenge}",
                    f"{player_id} {entry['game_id']}",
                    ttl_seconds=ATTEMPT_TTL_SECONDS,
                )
            )
        if on_board:
            await self.boards.add(
                board_of(challenge), player_id, rank_score, ttl_seconds=ATTEMPT_TTL_SECONDS
            )

    async def enter(
        self, challenge: str, player_id: str, entry: dict[str, Any], on_board: bool
    ) -> None:
        """Records a ranked attempt that ended; ``on_board``, its standing replaces the
        one it had as dealt, else it leaves the board (unverified, or its player not
        eligible)."""
        await from_store(
            self.records.claim(
                entry_key(challenge, player_id),
                orjson.dumps({**entry, "on_board": on_board}).decode(),
                ttl_seconds=ATTEMPT_TTL_SECONDS,
            )
        )
        board = board_of(challenge)
        if on_board:
            await self.boards.add(
                board, player_id, entry["rank_score"], replace=True, ttl_seconds=ATTEMPT_TTL_SECONDS
            )
        else:
            await from_store(self.records.board_remove(board, player_id))
        await from_store(self.records.delete(open_key(challenge, player_id)))

    async def still_open(self, challenge: str) -> AsyncIterator[tuple[str, str]]:
        """Once the day is over: each ranked attempt that had not ended, taken once
        (``player id``, ``game id``) whichever instance asks."""
        queue = f"daily-attempts:{challenge}"
        while (item := await from_store(self.records.queue_pop(queue))) is not None:
            player_id, game_id = item.split(" ", 1)
            if await from_store(self.records.get(open_key(challenge, player_id))):
                yield player_id, game_id

    async def entries(self, challenge: str, members: list[str]) -> dict[str, str | None]:
        """Each member's entry: the ended attempt's, else the open one's."""
        ended = await from_store(self.records.get_many([entry_key(challenge, m) for m in members]))
        details = dict(zip(members, ended, strict=True))
        missing = [m for m in members if details[m] is None]
        if missing:
            opened = await from_store(
                self.records.get_many([open_key(challenge, m) for m in missing])
            )
            details.update(zip(missing, opened, strict=True))
        return details
