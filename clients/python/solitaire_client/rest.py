"""``ServiceClient``: the service's REST API as typed async calls.

Every answer is parsed into the service's own pydantic models (``service.protocol*``) and
every refusal is raised as a typed error from :mod:`solitaire_client.errors`. The calls of
games are here; those of players (:mod:`.rest_players`) and races (:mod:`.rest_races`)
and the plumbing they share (:mod:`.rest_base`) have modules of their own.
"""

from __future__ import annotations

from service.protocol import Health
from service.protocol.games import (
    ActionAccepted,
    ActionRequest,
    AnalysisResponse,
    ChangesResponse,
    CreatedGame,
    CreateGameRequest,
    GameRecordResponse,
    GameStateResponse,
    HintResponse,
    LegalActionsResponse,
    ReplayResponse,
    ResignRequest,
    UndoRequest,
)

from .rest_arenas import ArenaCalls
from .rest_base import (
    DEFAULT_URL,
    Draw,
    GameKind,
    ScoringMode,
    new_request_id,
    websocket_url,
)
from .rest_pairing import PairingCalls
from .rest_players import PlayerCalls
from .rest_races import RaceCalls
from .types import ActionLike, action_payload

__all__ = [
    "DEFAULT_URL",
    "Draw",
    "GameKind",
    "ScoringMode",
    "ServiceClient",
    "new_request_id",
    "websocket_url",
]


class ServiceClient(PlayerCalls, RaceCalls, PairingCalls, ArenaCalls):
    """Async client for the REST API.

    The game and race tokens returned by :meth:`create_game`, :meth:`create_race` and
    :meth:`join_race` are remembered per game and race, so later calls need no ``token``.

    Use as ``async with ServiceClient(url) as client: ...`` or call :meth:`aclose`.
    """

    # ------------------------------------------------------------------ games

    async def health(self) -> Health:
        return self._parse(Health, await self._request("GET", "/healthz"))

    async def ready(self) -> Health:
        """Readiness: the store answers (raises ``ServiceUnavailable`` when it does not)."""
        return self._parse(Health, await self._request("GET", "/readyz"))

    async def create_game(
        self,
        game: GameKind = "DS",
        draw: Draw = 1,
        scoring: ScoringMode = "normal",
        code: str | None = None,
        secret: bool = False,
        winnable: bool = False,
    ) -> CreatedGame:
        """A new game: a random deal, or the deal of ``code`` (which fixes the settings).

        ``secret`` deals from a secret seed: ``code`` in the answer is ``None`` and the
        record shows it once the game is over. ``winnable`` deals one the service's solver
        has won (a secret deal too).
        """
        if code is not None:
            body = CreateGameRequest(code=code)
        else:
            body = CreateGameRequest(
                game=game, draw=draw, scoring=scoring, secret=secret, winnable=winnable
            )
        response = await self._request("POST", "/games", body=body, token=self.player_token)
        created = self._parse(CreatedGame, response)
        self._tokens[created.game_id] = created.player_token
        return created

    async def get_state(self, game_id: str, *, token: str | None = None) -> GameStateResponse:
        """The game's public state; unchanged games are answered from an ETag cache."""
        cached = self._etag_cache.get(game_id)
        headers = {"if-none-match": cached[0]} if cached else None
        response = await self._request(
            "GET", f"/games/{game_id}", token=self._token(game_id, token), headers=headers
        )
        if response.status_code == 304 and cached is not None:
            self.etag_hits += 1
            return cached[1]
        state = self._parse(GameStateResponse, response)
        etag = response.headers.get("etag")
        if etag:
            self._etag_cache[game_id] = (etag, state)
        return state

    async def changes_since(
        self, game_id: str, since: int, *, token: str | None = None
    ) -> ChangesResponse:
        """The changes after version ``since``, one page (``more`` and ``next_since``
        say where the next starts), or a snapshot when that is too old."""
        response = await self._request(
            "GET",
            f"/games/{game_id}/changes",
            params={"since": str(since)},
            token=self._token(game_id, token),
        )
        return self._parse(ChangesResponse, response)

    async def act(
        self,
        game_id: str,
        action: ActionLike,
        *,
        token: str | None = None,
        expected_version: int | None = None,
        request_id: str | None = None,
    ) -> ActionAccepted:
        """Plays one action (notation such as ``c3>f1`` or an action object).

        A fresh request id is sent unless one is given; sending the same id again
        returns the first answer (``duplicate: true``) instead of playing twice.
        """
        body = ActionRequest(
            action=action_payload(action),
            expected_version=expected_version,
            request_id=request_id or new_request_id(),
        )
        response = await self._request(
            "POST", f"/games/{game_id}/actions", body=body, token=self._token(game_id, token)
        )
        return self._parse(ActionAccepted, response)

    async def undo(
        self,
        game_id: str,
        *,
        token: str | None = None,
        expected_version: int | None = None,
        request_id: str | None = None,
    ) -> ActionAccepted:
        body = UndoRequest(
            expected_version=expected_version, request_id=request_id or new_request_id()
        )
        response = await self._request(
            "POST", f"/games/{game_id}/undo", body=body, token=self._token(game_id, token)
        )
        return self._parse(ActionAccepted, response)

    async def resign(
        self, game_id: str, *, token: str | None = None, request_id: str | None = None
    ) -> ActionAccepted:
        """Ends the game where it stands, final like a won game (in a race: resigns)."""
        body = ResignRequest(request_id=request_id or new_request_id())
        response = await self._request(
            "POST", f"/games/{game_id}/resign", body=body, token=self._token(game_id, token)
        )
        return self._parse(ActionAccepted, response)

    async def hint(self, game_id: str, *, token: str | None = None) -> HintResponse:
        """One suggested action, from what the player can see (counted in the game)."""
        response = await self._request(
            "POST", f"/games/{game_id}/hint", token=self._token(game_id, token)
        )
        return self._parse(HintResponse, response)

    async def analysis(self, game_id: str) -> AnalysisResponse:
        """Was it winnable? The solver's verdicts, once the game is over."""
        return self._parse(
            AnalysisResponse, await self._request("GET", f"/games/{game_id}/analysis")
        )

    async def legal_actions(
        self, game_id: str, *, token: str | None = None
    ) -> LegalActionsResponse:
        response = await self._request(
            "GET", f"/games/{game_id}/legal-actions", token=self._token(game_id, token)
        )
        return self._parse(LegalActionsResponse, response)

    async def record(self, game_id: str, *, token: str | None = None) -> GameRecordResponse:
        """The game's code and every action (the game token is needed until it is over)."""
        response = await self._request(
            "GET", f"/games/{game_id}/record", token=self._token(game_id, token)
        )
        return self._parse(GameRecordResponse, response)

    async def replay(self, game_id: str) -> ReplayResponse:
        """An ended game to watch again: its code, every action with its time, the result."""
        return self._parse(ReplayResponse, await self._request("GET", f"/games/{game_id}/replay"))
