"""What every part of :class:`~solitaire_client.rest.ServiceClient` stands on: the
service's address, the game and race tokens it remembers, and one request sent, its refusal
raised as a typed error from :mod:`solitaire_client.errors` and its answer parsed into the
service's own pydantic models (``service.protocol*``).
"""

from __future__ import annotations

import uuid
from types import TracebackType
from typing import Any, Literal, Self, TypeVar

import httpx2
from pydantic import BaseModel, TypeAdapter, ValidationError

from service.protocol import Problem
from service.protocol.games import GameStateResponse

from .errors import (
    ProtocolError,
    ServiceUnavailable,
    error_from,
    error_from_problem,
    error_from_status,
)

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


def http_url(websocket: str) -> str:
    """The HTTP base URL of a service given its WebSocket endpoint (``websocket_url``)."""
    url = websocket.rstrip("/").removesuffix("/ws")
    if url.startswith("wss://"):
        return "https://" + url.removeprefix("wss://")
    if url.startswith("ws://"):
        return "http://" + url.removeprefix("ws://")
    return url


def new_request_id() -> str:
    """A fresh, unique request id (so a retried request is recognised, never re-applied)."""
    return uuid.uuid4().hex


class RestBase:
    """The plumbing of :class:`~solitaire_client.rest.ServiceClient`; the calls of each
    part of the API are added by the classes built on it."""

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

    async def __aenter__(self) -> Self:
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
        """Remembers the game token of a game id, or the race token of a race id."""
        self._tokens[key] = token

    def token_for(self, key: str) -> str | None:
        """The remembered game token of a game id, or race token of a race id, if any."""
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
                seek_id=body.get("seek_id"),
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
