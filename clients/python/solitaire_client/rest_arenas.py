"""The arena calls of :class:`~solitaire_client.rest.ServiceClient`: list arenas, make
and cancel one, join and leave, read one with your line and heat, its standings and
heats. Making, cancelling, joining and leaving need the client's player token."""

from __future__ import annotations

from service.protocol.arenas import (
    ArenaHeats,
    ArenaList,
    ArenaResponse,
    ArenaStandings,
    CreateArenaRequest,
)
from service.protocol.pairing import PairingMode

from .rest_base import RestBase


class ArenaCalls(RestBase):
    """Arena tournaments; the race token of your heat is remembered for its race and game."""

    def _remember_heat(self, answer: ArenaResponse) -> ArenaResponse:
        heat = answer.you.heat if answer.you is not None else None
        if heat is not None and heat.player_token is not None:
            self._tokens[heat.race_id] = heat.player_token
            self._tokens[heat.game_id] = heat.player_token
        return answer

    async def list_arenas(self) -> ArenaList:
        """Arenas upcoming, running and finished (the last two days)."""
        return self._parse(ArenaList, await self._request("GET", "/arenas"))

    async def create_arena(
        self, mode: PairingMode, name: str, minutes: int, starts_in: int = 0
    ) -> ArenaResponse:
        """An arena of your own in ``mode``, lasting ``minutes``, starting ``starts_in``
        minutes from now."""
        body = CreateArenaRequest(mode=mode, name=name, minutes=minutes, starts_in=starts_in)
        response = await self._request("POST", "/arenas", body=body, token=self.player_token)
        return self._parse(ArenaResponse, response)

    async def get_arena(self, arena_id: str) -> ArenaResponse:
        """The arena; with your line and heat (``you``) once your player joined."""
        response = await self._request("GET", f"/arenas/{arena_id}", token=self.player_token)
        return self._remember_heat(self._parse(ArenaResponse, response))

    async def cancel_arena(self, arena_id: str) -> ArenaResponse:
        """Cancels an arena you made, before it starts."""
        response = await self._request("DELETE", f"/arenas/{arena_id}", token=self.player_token)
        return self._parse(ArenaResponse, response)

    async def join_arena(self, arena_id: str) -> ArenaResponse:
        """Joins the arena, or comes back to it after leaving."""
        response = await self._request(
            "POST", f"/arenas/{arena_id}/players", token=self.player_token
        )
        return self._remember_heat(self._parse(ArenaResponse, response))

    async def leave_arena(self, arena_id: str) -> ArenaResponse:
        """Leaves the arena: no more heats until you join again."""
        response = await self._request(
            "DELETE", f"/arenas/{arena_id}/players/me", token=self.player_token
        )
        return self._parse(ArenaResponse, response)

    async def arena_standings(self, arena_id: str, page: int = 1) -> ArenaStandings:
        """A page (from 1) of 20 lines of the standings."""
        response = await self._request(
            "GET", f"/arenas/{arena_id}/standings", params={"page": str(page)}
        )
        return self._parse(ArenaStandings, response)

    async def arena_heats(self, arena_id: str) -> ArenaHeats:
        """Every heat: its race (readable and replayable once over) and outcomes."""
        return self._parse(ArenaHeats, await self._request("GET", f"/arenas/{arena_id}/heats"))
