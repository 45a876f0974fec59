"""Leaderboards: ranked members (players) by a score, lowest first; equal scores in the
order the members reached them (the first to reach a score ranks first).

Boards live in the store as sorted sets, so entering a score, a member's rank and a
page of the board each cost O(log n) however many players there are. A whole board is
read page after page: ``top`` rows from rank ``offset``, and ``next_offset`` for the next.
"""

from __future__ import annotations

from typing import Any

from .. import engine
from ..errors import ServiceError, from_store
from ..protocol import ErrorCode
from ..store.records import BoardPage, Ranked, Records
from . import name_key

MAX_TOP = 100
MAX_AROUND = 25
MAX_OFFSET = 1_000_000_000
ALL_TIME_KINDS = ("best-time", "streak", "rating")


def check_paging(top: int, around: int, offset: int) -> None:
    for name, value, most in (
        ("top", top, MAX_TOP),
        ("around", around, MAX_AROUND),
        ("offset", offset, MAX_OFFSET),
    ):
        if not 0 <= value <= most:
            raise ServiceError(ErrorCode.BAD_MESSAGE, 422, f"{name} is 0 to {most}")


def rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every row of a view (``top``, ``around`` and ``you``), to be completed alike: the
    same player's row reads the same wherever it is."""
    return [*view["top"], *view["around"], *([view["you"]] if view["you"] else [])]


class Boards:
    def __init__(self, records: Records) -> None:
        self.records = records

    async def add(
        self,
        board: str,
        player_id: str,
        score: float,
        replace: bool = False,
        ttl_seconds: int = 0,
    ) -> None:
        await from_store(self.records.board_add(board, player_id, score, replace, ttl_seconds))

    async def size(self, board: str) -> int:
        size: int = await from_store(self.records.board_size(board))
        return size

    async def view(
        self, board: str, you: str | None, top: int, around: int, offset: int = 0
    ) -> dict[str, Any]:
        """``top`` rows from rank ``offset`` (0: the first), and ``around`` rows either
        side of ``you``."""
        check_paging(top, around, offset)
        page: BoardPage = await from_store(self.records.board_page(board, you, top, around, offset))
        mine = page.you
        names = await self._names(
            [r.member for r in [*page.top, *page.around]] + ([you] if mine and you else [])
        )
        end = offset + len(page.top)
        return {
            "board": board,
            "size": page.size,
            "offset": offset,
            "next_offset": end if page.top and end < page.size else None,
            "top": [self._row(r, names) for r in page.top],
            "you": None if mine is None else self._row(mine, names),
            "around": [self._row(r, names) for r in page.around],
        }

    async def _names(self, player_ids: list[str]) -> dict[str, str]:
        unique = list(dict.fromkeys(player_ids))
        values = await from_store(self.records.get_many([name_key(p) for p in unique]))
        return {p: v or "?" for p, v in zip(unique, values, strict=True)}

    @staticmethod
    def _row(ranked: Ranked, names: dict[str, str]) -> dict[str, Any]:
        return {
            "rank": ranked.rank + 1,
            "player_id": ranked.member,
            "name": names.get(ranked.member, "?"),
            "score": ranked.score,
        }

    async def all_time(
        self, board: str, you: str | None, top: int, around: int, offset: int = 0
    ) -> dict[str, Any]:
        """``best-time.<mode>`` (ms), ``streak.<mode>`` (longest win streak) or
        ``rating.<mode>`` (the rating, rounded: ``ratings``)."""
        kind, _, mode = board.partition(".")
        if kind not in ALL_TIME_KINDS or engine.Mode.find(mode, engine.Mode.all()) is None:
            raise ServiceError(
                ErrorCode.NOT_FOUND,
                404,
                "boards are best-time.<mode>, streak.<mode> and rating.<mode>, mode one of "
                + ", ".join(map(str, engine.Mode.all())),
            )
        view = await self.view(f"{kind}:{mode}", you, top, around, offset)
        view["board"] = board
        for row in rows(view):
            if kind == "rating":
                row["value"] = round(-row["score"])
            else:
                row["value"] = int(-row["score"]) if kind == "streak" else int(row["score"])
        return view
