"""The OpenAPI paths of games: creating, reading, playing and replaying them."""

from __future__ import annotations

from typing import Any

from ..protocol import ErrorCode
from ..protocol.games import (
    ActionAccepted,
    ActionRequest,
    ChangesResponse,
    CreatedGame,
    CreateGameRequest,
    GameRecordResponse,
    GameStateResponse,
    LegalActionsResponse,
    ReplayResponse,
    ResignRequest,
    UndoRequest,
)
from .common import (
    AUTH,
    BODY,
    ENDED_GAME_READ,
    GAME_ID,
    OPTIONAL_AUTH,
    PLAY,
    RACE_GAME_READ,
    errors,
    game_read,
    json_body,
    request_body,
)


def game_paths() -> dict[str, Any]:
    return {
        "/games": {"post": _create_game()},
        "/games/{game_id}": {"get": _get_game()},
        "/games/{game_id}/changes": {"get": _get_changes()},
        "/games/{game_id}/actions": {
            "post": _player_command(
                "postAction",
                "Play one action (player only)",
                request_body(ActionRequest, required=True),
                "Accepted",
                ErrorCode.INVALID_ACTION,
            )
        },
        "/games/{game_id}/undo": {
            "post": _player_command(
                "postUndo",
                "Undo the last action (player only)",
                request_body(UndoRequest),
                "Undone",
            )
        },
        "/games/{game_id}/resign": {
            "post": _player_command(
                "postResign",
                "End the game here, final like a won game (player only); in a "
                "race, resigns from the race",
                request_body(ResignRequest),
                "Resigned",
            )
        },
        "/games/{game_id}/legal-actions": {
            "get": game_read(
                "getLegalActions",
                "Every legal action now (hints, highlighting)",
                LegalActionsResponse,
                "Legal actions",
                *RACE_GAME_READ,
            )
        },
        "/games/{game_id}/record": {"get": _get_record()},
        "/games/{game_id}/replay": {
            "get": game_read(
                "getReplay",
                "An ended game with its actions' server times, to watch again",
                ReplayResponse,
                "Replay",
                *ENDED_GAME_READ,
            )
        },
    }


def _player_command(
    operation_id: str,
    summary: str,
    body: dict[str, Any],
    answer: str,
    *codes: ErrorCode,
) -> dict[str, Any]:
    return {
        "operationId": operation_id,
        "summary": summary,
        "security": AUTH,
        "parameters": [GAME_ID],
        "requestBody": body,
        "responses": {"200": json_body(ActionAccepted, answer), **errors(*PLAY, *codes)},
    }


def _create_game() -> dict[str, Any]:
    return {
        "operationId": "createGame",
        "summary": "Create a game from a code or a random deal",
        "requestBody": request_body(CreateGameRequest),
        "responses": {
            "201": json_body(CreatedGame, "Created; keep the game token (`player_token`) secret"),
            # 401: a player token that is wrong or revoked.
            **errors(
                *BODY,
                ErrorCode.BAD_CODE,
                ErrorCode.UNAUTHORIZED,
                ErrorCode.WINNABLE_NOT_OFFERED,
                ErrorCode.WINNABLE_POOL_EMPTY,
            ),
        },
    }


def _get_game() -> dict[str, Any]:
    return {
        "operationId": "getGame",
        "summary": "Public state; ETag is the version",
        "parameters": [
            GAME_ID,
            {"name": "If-None-Match", "in": "header", "schema": {"type": "string"}},
        ],
        "responses": {
            "200": json_body(GameStateResponse, "Public state"),
            "304": {"description": "Unchanged since the given ETag"},
            **errors(*RACE_GAME_READ),
        },
    }


def _get_changes() -> dict[str, Any]:
    return {
        "operationId": "getChanges",
        "summary": "Changes after version `since` (for polling clients)",
        "parameters": [
            GAME_ID,
            {
                "name": "since",
                "in": "query",
                "schema": {"type": "integer", "minimum": 0, "default": 0},
            },
        ],
        "responses": {
            "200": json_body(ChangesResponse, "Changes or snapshot"),
            **errors(
                *RACE_GAME_READ,
                ErrorCode.BAD_MESSAGE,
                ErrorCode.RATE_LIMITED,
                ErrorCode.DAILY_RUNNING,
            ),
        },
    }


def _get_record() -> dict[str, Any]:
    return {
        "operationId": "getRecord",
        "summary": "Code and actions: for anyone once won, else for the player",
        "security": OPTIONAL_AUTH,
        "parameters": [GAME_ID],
        "responses": {
            "200": json_body(GameRecordResponse, "Game record"),
            # 401: the game is not over and the request has no (right) token;
            # 403: a race or daily game's record stays private until its end;
            # 409: a secret deal's record waits for the end of the game.
            **errors(
                ErrorCode.NOT_FOUND,
                ErrorCode.UNAUTHORIZED,
                ErrorCode.RACE_RUNNING,
                ErrorCode.DAILY_RUNNING,
                ErrorCode.GAME_NOT_OVER,
            ),
        },
    }
