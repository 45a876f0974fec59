"""The race calls of :class:`~solitaire_client.rest.ServiceClient`: creating and joining
races, and the commands of their players."""

from __future__ import annotations

from service.protocol.races import (
    CreateRaceRequest,
    JoinRaceRequest,
    RaceJoined,
    RaceResponse,
    ReadyRequest,
)

from .rest_base import Draw, GameKind, RestBase, ScoringMode


class RaceCalls(RestBase):
    """Races; the race token each answer gives is remembered for the race and its game."""

    # ------------------------------------------------------------------ races

    def _remember_race(self, joined: RaceJoined) -> RaceJoined:
        self._tokens[joined.race_id] = joined.player_token
        self._tokens[joined.game_id] = joined.player_token
        return joined

    async def create_race(
        self,
        name: str,
        *,
        game: GameKind = "DS",
        draw: Draw = 1,
        scoring: ScoringMode = "normal",
        max_players: int = 4,
        time_limit_seconds: int | None = None,
        rated: bool = False,
    ) -> RaceJoined:
        """A new race with you as its host; share ``join_code`` with the other players.
        ``rated`` (with this client's player token): finishing updates the ratings."""
        body = CreateRaceRequest(
            name=name,
            game=game,
            draw=draw,
            scoring=scoring,
            max_players=max_players,
            time_limit_seconds=time_limit_seconds,
            rated=rated,
        )
        response = await self._request("POST", "/races", body=body, token=self.player_token)
        return self._remember_race(self._parse(RaceJoined, response))

    async def join_race(self, join_code: str, name: str) -> RaceJoined:
        body = JoinRaceRequest(join_code=join_code, name=name)
        response = await self._request("POST", "/races/join", body=body, token=self.player_token)
        return self._remember_race(self._parse(RaceJoined, response))

    async def get_race(self, race_id: str, *, token: str | None = None) -> RaceResponse:
        response = await self._request(
            "GET", f"/races/{race_id}", token=self._token(race_id, token)
        )
        return self._parse(RaceResponse, response)

    async def race_ready(
        self, race_id: str, ready: bool = True, *, token: str | None = None
    ) -> RaceResponse:
        response = await self._request(
            "POST",
            f"/races/{race_id}/ready",
            body=ReadyRequest(ready=ready),
            token=self._token(race_id, token),
        )
        return self._parse(RaceResponse, response)

    async def _race_command(self, race_id: str, command: str, token: str | None) -> RaceResponse:
        response = await self._request(
            "POST", f"/races/{race_id}/{command}", token=self._token(race_id, token)
        )
        return self._parse(RaceResponse, response)

    async def start_race(self, race_id: str, *, token: str | None = None) -> RaceResponse:
        """Starts the countdown (host only), even if not everybody is ready."""
        return await self._race_command(race_id, "start", token)

    async def resign_race(self, race_id: str, *, token: str | None = None) -> RaceResponse:
        return await self._race_command(race_id, "resign", token)

    async def rematch_race(self, race_id: str, *, token: str | None = None) -> RaceResponse:
        """The rematch race (same players, new deal), created by the first who asks.

        Your token stays valid there; it is remembered for the new race and game.
        """
        used = self._token(race_id, token)
        response = await self._race_command(race_id, "rematch", used)
        if used is not None:
            self._tokens[response.race.race_id] = used
            if response.you is not None:
                self._tokens[response.you.game_id] = used
        return response
