"""``ServiceClient``: the service's REST API as typed async calls.

Every answer is parsed into the service's own pydantic models (``service.protocol*``) and
every refusal is raised as a typed error from :mod:`solitaire_client.errors`.
"""

from __future__ import annotations

import uuid
from types import TracebackType
from typing import Any, Literal, TypeVar

import httpx2
from pydantic import BaseModel, TypeAdapter, ValidationError

from service.protocol import Health, Problem
from service.protocol_games import (
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
from service.protocol_players import (
    Board,
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
from service.protocol_races import (
    CreateRaceRequest,
    JoinRaceRequest,
    RaceJoined,
    RaceResponse,
    ReadyRequest,
)

from .errors import (
    ProtocolError,
    ServiceUnavailable,
    error_from,
    error_from_problem,
    error_from_status,
)
from .types import ActionLike, action_payload

M = TypeVar("M", bound=BaseModel)

DEFAULT_URL = "http://127.0.0.1:8000"
GameKind = Literal["DS", "TF"]
Draw = Literal[1, 3]
ScoringMode = Literal["normal", "vegas"]

_JSON: TypeAdapter[Any] = TypeAdapter(Any)


def websocket_url(base_url: str) -> str:
    """The WebSocket endpoint of a service given its HTTP base URL."""
    url = base_url.rstrip("/")
    if url.startswith("https://"):
        url = "wss://" + url.removeprefix("https://")
    elif url.startswith("http://"):
        url = "ws://" + url.removeprefix("http://")
    return url if url.endswith("/ws") else url + "/ws"


def new_request_id() -> str:
    """A fresh, unique request id (so a retried request is recognised, never re-applied)."""
    return uuid.uuid4().hex


class ServiceClient:
    """Async client for the REST API.

    Player tokens returned by :meth:`create_game`, :meth:`create_race` and
    :meth:`join_race` are remembered per game and race, so later calls need no ``token``.

    Use as ``async with ServiceClient(url) as client: ...`` or call :meth:`aclose`.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        *,
        timeout: float = 10.0,
        http: httpx2.AsyncClient | None = None,
        player_token: str | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.player_token = player_token
        """Sent with new games and races (they then count for the player), and with the
        player routes; :meth:`create_player` and :meth:`link_device` set it."""
        self._own_http = http is None
        self._http = http or httpx2.AsyncClient(base_url=self.base_url, timeout=timeout)
        self._tokens: dict[str, str] = {}
        self._etag_cache: dict[str, tuple[str, GameStateResponse]] = {}
        self.etag_hits = 0
        """How many :meth:`get_state` calls were answered ``304 Not Modified`` from cache."""

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> ServiceClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._own_http:
            await self._http.aclose()

    @property
    def ws_url(self) -> str:
        return websocket_url(self.base_url)

    # ------------------------------------------------------------------ tokens

    def remember_token(self, key: str, token: str) -> None:
        """Remembers the player token of a game id or race id."""
        self._tokens[key] = token

    def token_for(self, key: str) -> str | None:
        """The remembered player token of a game id or race id, if any."""
        return self._tokens.get(key)

    # ------------------------------------------------------------------ plumbing

    async def _request(
        self,
        method: str,
        path: str,
        *,
        body: BaseModel | None = None,
        token: str | None = None,
        params: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx2.Response:
        send_headers = dict(headers or {})
        if token is not None:
            send_headers["authorization"] = f"Bearer {token}"
        content = None
        if body is not None:
            content = body.model_dump_json(by_alias=True, exclude_none=True, exclude_unset=True)
            send_headers["content-type"] = "application/json"
        try:
            response = await self._http.request(
                method, path, content=content, headers=send_headers, params=params
            )
        except httpx2.TransportError as exc:
            raise ServiceUnavailable("unreachable", f"{self.base_url}: {exc}") from exc
        if response.status_code >= 400:
            raise self._error(response)
        return response

    @staticmethod
    def _error(response: httpx2.Response) -> ProtocolError:
        try:
            return error_from_problem(Problem.model_validate_json(response.content))
        except ValidationError:
            pass
        try:
            body = _JSON.validate_json(response.content)
        except ValidationError:
            return error_from_status(response.status_code, response.text)
        if isinstance(body, dict) and isinstance(body.get("code"), str):
            # A problem with a field this client's models do not know yet.
            return error_from(
                body["code"],
                str(body.get("detail", "")),
                current_version=body.get("current_version"),
                reason=body.get("reason"),
                rule_id=body.get("rule_id"),
                message_en=body.get("message_en"),
                message_fi=body.get("message_fi"),
            )
        return error_from_status(response.status_code, response.text)

    @staticmethod
    def _parse(model: type[M], response: httpx2.Response) -> M:
        try:
            return model.model_validate_json(response.content)
        except ValidationError as exc:
            raise ProtocolError(
                "bad_response", f"unexpected answer to {response.request.url.path}: {exc}"
            ) from exc

    def _token(self, key: str, token: str | None) -> str | None:
        return token if token is not None else self._tokens.get(key)

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
        """The game's code and every action (the player's token is needed until it is won)."""
        response = await self._request(
            "GET", f"/games/{game_id}/record", token=self._token(game_id, token)
        )
        return self._parse(GameRecordResponse, response)

    async def replay(self, game_id: str) -> ReplayResponse:
        """An ended game to watch again: its code, every action with its time, the result."""
        return self._parse(ReplayResponse, await self._request("GET", f"/games/{game_id}/replay"))

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
        """A game of a challenge: the player's first is the ranked attempt."""
        response = await self._request("POST", f"/daily/{date}/{mode}/games", token=self._player())
        created = self._parse(DailyGameCreated, response)
        self._tokens[created.game_id] = created.player_token
        return created

    async def daily_board(
        self, date: str, mode: str, *, top: int = 10, around: int = 5
    ) -> DailyBoard:
        """A challenge's board: the top rows and, when named, yours and your neighbours."""
        response = await self._request(
            "GET",
            f"/daily/{date}/{mode}",
            token=self._player(),
            params={"top": str(top), "around": str(around)},
        )
        return self._parse(DailyBoard, response)

    async def leaderboard(self, board: str, *, top: int = 10, around: int = 5) -> Board:
        """An all-time board such as ``streak.TF.D1N`` or ``best-time.DS.D3N``."""
        response = await self._request(
            "GET",
            f"/leaderboards/{board}",
            token=self._player(),
            params={"top": str(top), "around": str(around)},
        )
        return self._parse(Board, response)

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
    ) -> RaceJoined:
        """A new race with you as its host; share ``join_code`` with the other players."""
        body = CreateRaceRequest(
            name=name,
            game=game,
            draw=draw,
            scoring=scoring,
            max_players=max_players,
            time_limit_seconds=time_limit_seconds,
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
