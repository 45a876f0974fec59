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
    PLAY,
    RACE_GAME_READ,
    errors,
    json_body,
    ref,
)


def game_paths() -> dict[str, Any]:
    return {
        "/games": {
            "post": {
                "operationId": "createGame",
                "summary": "Create a game from a code or a random deal",
                "requestBody": {
                    "content": {"application/json": {"schema": ref(CreateGameRequest)}}
                },
                "responses": {
                    "201": json_body(CreatedGame, "Created; keep the player token secret"),
                    # 401: a player token that is wrong or revoked.
                    **errors(
                        *BODY,
                        ErrorCode.BAD_CODE,
                        ErrorCode.UNAUTHORIZED,
                        ErrorCode.WINNABLE_POOL_EMPTY,
                    ),
                },
            }
        },
        "/games/{game_id}": {
            "get": {
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
        },
        "/games/{game_id}/changes": {
            "get": {
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
        },
        "/games/{game_id}/actions": {
            "post": {
                "operationId": "postAction",
                "summary": "Play one action (player only)",
                "security": AUTH,
                "parameters": [GAME_ID],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": ref(ActionRequest)}},
                },
                "responses": {
                    "200": json_body(ActionAccepted, "Accepted"),
                    **errors(*PLAY, ErrorCode.INVALID_ACTION),
                },
            }
        },
        "/games/{game_id}/undo": {
            "post": {
                "operationId": "postUndo",
                "summary": "Undo the last action (player only)",
                "security": AUTH,
                "parameters": [GAME_ID],
                "requestBody": {
                    "content": {"application/json": {"schema": ref(UndoRequest)}},
                },
                "responses": {"200": json_body(ActionAccepted, "Undone"), **errors(*PLAY)},
            }
        },
        "/games/{game_id}/resign": {
            "post": {
                "operationId": "postResign",
                "summary": "End the game here, final like a won game (player only); in a "
                "race, resigns from the race",
                "security": AUTH,
                "parameters": [GAME_ID],
                "requestBody": {
                    "content": {"application/json": {"schema": ref(ResignRequest)}},
                },
                "responses": {"200": json_body(ActionAccepted, "Resigned"), **errors(*PLAY)},
            }
        },
        "/games/{game_id}/legal-actions": {
            "get": {
                "operationId": "getLegalActions",
                "summary": "Every legal action now (hints, highlighting)",
                "parameters": [GAME_ID],
                "responses": {
                    "200": json_body(LegalActionsResponse, "Legal actions"),
                    **errors(*RACE_GAME_READ),
                },
            }
        },
        "/games/{game_id}/record": {
            "get": {
                "operationId": "getRecord",
                "summary": "Code and actions: for anyone once won, else for the player",
                "security": [{}, {"bearer": []}],
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
        },
        "/games/{game_id}/replay": {
            "get": {
                "operationId": "getReplay",
                "summary": "An ended game with its actions' server times, to watch again",
                "parameters": [GAME_ID],
                "responses": {
                    "200": json_body(ReplayResponse, "Replay"),
                    **errors(*ENDED_GAME_READ),
                },
            }
        },
    }
