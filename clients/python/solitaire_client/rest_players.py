"""The player calls of :class:`~solitaire_client.rest.ServiceClient`: players and their
devices, statistics, the daily challenge and the leaderboards."""

from __future__ import annotations

from collections.abc import AsyncIterator

from service.protocol.players import (
    Board,
    BoardRow,
    CreatePlayerRequest,
    DailyBoard,
    DailyGameCreated,
    DailyOverview,
    LinkCode,
    LinkRequest,
    PlayerCreated,
    PlayerStats,
    PlayerView,
    RenameRequest,
    Revoked,
)

from .rest_base import RestBase


class PlayerCalls(RestBase):
    """Players, statistics, the daily challenge and leaderboards (the player token is
    :attr:`player_token`)."""

    # ------------------------------------------------------------------ players

    def _player(self) -> str | None:
        return self.player_token

    async def create_player(self, name: str) -> PlayerCreated:
        """A new player; its token becomes this client's :attr:`player_token`."""
        body = CreatePlayerRequest(name=name)
        created = self._parse(PlayerCreated, await self._request("POST", "/players", body=body))
        self.player_token = created.player_token
        return created

    async def me(self) -> PlayerView:
        response = await self._request("GET", "/players/me", token=self._player())
        return self._parse(PlayerView, response)

    async def rename(self, name: str) -> PlayerView:
        body = RenameRequest(name=name)
        response = await self._request("PATCH", "/players/me", body=body, token=self._player())
        return self._parse(PlayerView, response)

    async def link_code(self) -> LinkCode:
        """A one-time code for another device (valid a few minutes)."""
        response = await self._request("POST", "/players/me/link-codes", token=self._player())
        return self._parse(LinkCode, response)

    async def link_device(self, link_code: str) -> PlayerCreated:
        """This device joins the player of ``link_code``, with a token of its own."""
        body = LinkRequest(link_code=link_code)
        linked = self._parse(PlayerCreated, await self._request("POST", "/players/link", body=body))
        self.player_token = linked.player_token
        return linked

    async def revoke_other_devices(self) -> Revoked:
        """Every token of the player stops working except this client's."""
        response = await self._request("POST", "/players/me/revoke-others", token=self._player())
        return self._parse(Revoked, response)

    async def stats(self, player_id: str | None = None) -> PlayerStats:
        """Statistics per mode: yours, or the public view of ``player_id``."""
        if player_id is None:
            response = await self._request("GET", "/players/me/stats", token=self._player())
        else:
            response = await self._request("GET", f"/players/{player_id}/stats")
        return self._parse(PlayerStats, response)

    # ------------------------------------------------------------------ daily challenge

    async def daily(self) -> DailyOverview:
        """Today's challenges and the time to the next ones (yours marked when named)."""
        response = await self._request("GET", "/daily", token=self._player())
        return self._parse(DailyOverview, response)

    async def play_daily(self, date: str, mode: str) -> DailyGameCreated:
        """The player's ranked attempt at today's challenge, the only game of its deal
        until the day is over; asked for again before its first action, the same one."""
        response = await self._request("POST", f"/daily/{date}/{mode}/games", token=self._player())
        created = self._parse(DailyGameCreated, response)
        self._tokens[created.game_id] = created.player_token
        return created

    async def daily_board(
        self, date: str, mode: str, *, top: int = 10, around: int = 5, offset: int = 0
    ) -> DailyBoard:
        """A challenge's board: ``top`` rows from rank ``offset + 1`` and, when named,
        yours and your neighbours (``around`` either side)."""
        response = await self._request(
            "GET",
            f"/daily/{date}/{mode}",
            token=self._player(),
            params=_paging(top, around, offset),
        )
        return self._parse(DailyBoard, response)

    async def leaderboard(
        self, board: str, *, top: int = 10, around: int = 5, offset: int = 0
    ) -> Board:
        """An all-time board such as ``streak.TF.D1N`` or ``best-time.DS.D3N``: ``top``
        rows from rank ``offset + 1`` and, when named, yours and your neighbours."""
        response = await self._request(
            "GET",
            f"/leaderboards/{board}",
            token=self._player(),
            params=_paging(top, around, offset),
        )
        return self._parse(Board, response)

    async def leaderboard_rows(self, board: str, *, page: int = 100) -> AsyncIterator[BoardRow]:
        """Every row of an all-time board, first to last, ``page`` rows a request."""
        offset: int | None = 0
        while offset is not None:
            read = await self.leaderboard(board, top=page, around=0, offset=offset)
            for row in read.top:
                yield row
            offset = read.next_offset

    async def daily_board_rows(
        self, date: str, mode: str, *, page: int = 100
    ) -> AsyncIterator[BoardRow]:
        """Every row of a challenge's board, first to last, ``page`` rows a request."""
        offset: int | None = 0
        while offset is not None:
            read = await self.daily_board(date, mode, top=page, around=0, offset=offset)
            for row in read.top:
                yield row
            offset = read.next_offset


def _paging(top: int, around: int, offset: int) -> dict[str, str]:
    return {"top": str(top), "around": str(around), "offset": str(offset)}
