"""The OpenAPI 3.1 document, built from the protocol models."""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from .protocol import (
    PROTOCOL_VERSION,
    ActionAccepted,
    ActionRequest,
    ChangesResponse,
    CreatedGame,
    CreateGameRequest,
    CreateRaceRequest,
    ErrorCode,
    GameRecordResponse,
    GameStateResponse,
    Health,
    JoinRaceRequest,
    LegalActionsResponse,
    Problem,
    RaceJoined,
    RaceResponse,
    ReadyRequest,
    ReplayResponse,
    ResignRequest,
    UndoRequest,
)

_MODELS: list[type[BaseModel]] = [
    ActionAccepted,
    ActionRequest,
    ChangesResponse,
    CreatedGame,
    CreateGameRequest,
    GameRecordResponse,
    GameStateResponse,
    Health,
    LegalActionsResponse,
    Problem,
    UndoRequest,
    ResignRequest,
    ReplayResponse,
    CreateRaceRequest,
    JoinRaceRequest,
    ReadyRequest,
    RaceJoined,
    RaceResponse,
]


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{model.__name__}"}


def _json(model: type[BaseModel], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ref(model)}}}


_GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
_RACE_ID = {"name": "race_id", "in": "path", "required": True, "schema": {"type": "string"}}
_AUTH: list[dict[str, list[str]]] = [{"bearer": []}]

# The HTTP status of every error code (docs/protocol.md repeats it in its error table).
# Codes without one are sent over the WebSocket only.
ERROR_STATUS: dict[ErrorCode, int] = {
    ErrorCode.BAD_JSON: 400,
    ErrorCode.BAD_MESSAGE: 422,
    ErrorCode.FRAME_TOO_LARGE: 413,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.UNAUTHORIZED: 401,
    ErrorCode.BAD_CODE: 422,
    ErrorCode.INVALID_ACTION: 422,
    ErrorCode.RULE_VIOLATION: 409,
    ErrorCode.STALE_VERSION: 409,
    ErrorCode.GAME_TOO_LONG: 409,
    ErrorCode.STORE_UNAVAILABLE: 503,
    ErrorCode.REQUEST_ID_REUSED: 409,
    ErrorCode.METHOD_NOT_ALLOWED: 405,
    ErrorCode.INTERNAL_ERROR: 500,
    ErrorCode.RACE_RUNNING: 403,
    ErrorCode.RACE_FULL: 409,
    ErrorCode.RACE_STARTED: 409,
    ErrorCode.RACE_NOT_STARTED: 409,
    ErrorCode.RACE_OVER: 409,
    ErrorCode.RACE_NOT_FINISHED: 409,
    ErrorCode.NOT_HOST: 403,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.GAME_NOT_OVER: 409,
    ErrorCode.BAD_NAME: 422,
    ErrorCode.DAILY_CLOSED: 409,
    ErrorCode.DAILY_RUNNING: 403,
    ErrorCode.DAILY_ATTEMPT_USED: 409,
    ErrorCode.WINNABLE_POOL_EMPTY: 503,
    ErrorCode.HINTS_NOT_ALLOWED: 403,
}

_STATUS_TEXT = {
    400: "Body is not JSON",
    401: "Missing or wrong player token",
    403: "Forbidden",
    404: "No such game, race or join code",
    405: "Method not allowed",
    409: "Conflict with the state of the game or race",
    413: "Body over the size limit",
    422: "Malformed request",
    429: "Too many requests from this address; see Retry-After",
    500: "Fault in the service",
    503: "Store unavailable; retry",
}

# Codes that any request can meet, and those of any request with a JSON body.
_ANY = [ErrorCode.STORE_UNAVAILABLE, ErrorCode.INTERNAL_ERROR]
# Every POST counts against its address's write rate.
_WRITE = [ErrorCode.RATE_LIMITED]
_BODY = [ErrorCode.BAD_JSON, ErrorCode.FRAME_TOO_LARGE, ErrorCode.BAD_MESSAGE, *_WRITE]
# Reading an ended game (replay, analysis): public once the game, its race or its day
# is over.
_ENDED_GAME_READ = [
    ErrorCode.NOT_FOUND,
    ErrorCode.GAME_NOT_OVER,
    ErrorCode.RACE_NOT_STARTED,
    ErrorCode.RACE_RUNNING,
    ErrorCode.DAILY_RUNNING,
]
# Reading a game that belongs to a race: nobody before the start, only its player (with
# the token) while the race runs.
_RACE_GAME_READ = [
    ErrorCode.NOT_FOUND,
    ErrorCode.UNAUTHORIZED,
    ErrorCode.RACE_NOT_STARTED,
    ErrorCode.RACE_RUNNING,
    # Likewise a daily challenge game, until its day is over.
    ErrorCode.DAILY_RUNNING,
]
_PLAY = [
    *_BODY,
    ErrorCode.NOT_FOUND,
    ErrorCode.UNAUTHORIZED,
    ErrorCode.INVALID_ACTION,
    ErrorCode.RULE_VIOLATION,
    ErrorCode.STALE_VERSION,
    ErrorCode.GAME_TOO_LONG,
    ErrorCode.REQUEST_ID_REUSED,
    ErrorCode.RACE_NOT_STARTED,
    ErrorCode.RACE_OVER,
    # A ranked daily attempt stands as it was when its day ended.
    ErrorCode.DAILY_CLOSED,
]
# A race that changes under a command is retried a few times, then refused as stale.
_RACE_COMMAND = [ErrorCode.NOT_FOUND, ErrorCode.UNAUTHORIZED, ErrorCode.STALE_VERSION]


def _errors(*codes: ErrorCode) -> dict[str, Any]:
    """The problem responses of an operation, one per status, each naming its codes.

    The schema of each narrows ``code`` to the codes this operation can send with that
    status, so a client generated from the document knows exactly what to expect.
    """
    by_status: dict[int, list[ErrorCode]] = {}
    for code in [*codes, *_ANY]:
        listed = by_status.setdefault(ERROR_STATUS[code], [])
        if code not in listed:
            listed.append(code)
    responses: dict[str, Any] = {}
    for status in sorted(by_status):
        names = [code.value for code in by_status[status]]
        described = ", ".join(f"`{name}`" for name in names)
        responses[str(status)] = {
            "description": f"{_STATUS_TEXT[status]}: {described}",
            "content": {
                "application/problem+json": {
                    "schema": {
                        "allOf": [
                            _ref(Problem),
                            {"properties": {"code": {"enum": names}}, "required": ["code"]},
                        ]
                    }
                }
            },
        }
    return responses


_API_INDEX: dict[str, Any] = {
    "type": "object",
    "properties": {
        "service": {"const": "solitaire"},
        "openapi": {"type": "string"},
        "websocket": {"type": "string"},
        "games": {"type": "string"},
    },
    "required": ["service", "openapi", "websocket", "games"],
    "additionalProperties": False,
}


def _race_command(
    operation_id: str, summary: str, body: type[BaseModel] | None, *codes: ErrorCode
) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "operationId": operation_id,
        "summary": summary,
        "security": _AUTH,
        "parameters": [_RACE_ID],
        "responses": {
            "200": _json(RaceResponse, "The race after the command"),
            **_errors(*_RACE_COMMAND, *codes, *(_BODY if body is not None else _WRITE)),
        },
    }
    if body is not None:
        operation["requestBody"] = {"content": {"application/json": {"schema": _ref(body)}}}
    return {"post": operation}


@functools.cache
def openapi_document() -> dict[str, Any]:
    # The players' part builds on the helpers here, so it is imported late.
    from .openapi_players import PLAYER_MODELS, player_paths

    models: list[type[BaseModel]] = [*_MODELS, *PLAYER_MODELS]
    _, defs = models_json_schema(
        [(m, "serialization") for m in models] + [(m, "validation") for m in models],
        ref_template="#/components/schemas/{model}",
    )
    schemas = defs.get("$defs", {})
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Solitaire service",
            "version": f"{PROTOCOL_VERSION}.0",
            "description": "Double Solitaire and Solitaire Réfléchi over REST and WebSocket "
            "(`/ws`, see docs/protocol.md and schemas/).",
        },
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "paths": {
            "/games": {
                "post": {
                    "operationId": "createGame",
                    "summary": "Create a game from a code or a random deal",
                    "requestBody": {
                        "content": {"application/json": {"schema": _ref(CreateGameRequest)}}
                    },
                    "responses": {
                        "201": _json(CreatedGame, "Created; keep the player token secret"),
                        # 401: a player token that is wrong or revoked.
                        **_errors(
                            *_BODY,
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
                        _GAME_ID,
                        {"name": "If-None-Match", "in": "header", "schema": {"type": "string"}},
                    ],
                    "responses": {
                        "200": _json(GameStateResponse, "Public state"),
                        "304": {"description": "Unchanged since the given ETag"},
                        **_errors(*_RACE_GAME_READ),
                    },
                }
            },
            "/games/{game_id}/changes": {
                "get": {
                    "operationId": "getChanges",
                    "summary": "Changes after version `since` (for polling clients)",
                    "parameters": [
                        _GAME_ID,
                        {
                            "name": "since",
                            "in": "query",
                            "schema": {"type": "integer", "minimum": 0, "default": 0},
                        },
                    ],
                    "responses": {
                        "200": _json(ChangesResponse, "Changes or snapshot"),
                        **_errors(
                            *_RACE_GAME_READ,
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
                    "security": _AUTH,
                    "parameters": [_GAME_ID],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref(ActionRequest)}},
                    },
                    "responses": {
                        "200": _json(ActionAccepted, "Accepted"),
                        **_errors(*_PLAY, ErrorCode.INVALID_ACTION),
                    },
                }
            },
            "/games/{game_id}/undo": {
                "post": {
                    "operationId": "postUndo",
                    "summary": "Undo the last action (player only)",
                    "security": _AUTH,
                    "parameters": [_GAME_ID],
                    "requestBody": {
                        "content": {"application/json": {"schema": _ref(UndoRequest)}},
                    },
                    "responses": {"200": _json(ActionAccepted, "Undone"), **_errors(*_PLAY)},
                }
            },
            "/games/{game_id}/resign": {
                "post": {
                    "operationId": "postResign",
                    "summary": "End the game here, final like a won game (player only); in a "
                    "race, resigns from the race",
                    "security": _AUTH,
                    "parameters": [_GAME_ID],
                    "requestBody": {
                        "content": {"application/json": {"schema": _ref(ResignRequest)}},
                    },
                    "responses": {"200": _json(ActionAccepted, "Resigned"), **_errors(*_PLAY)},
                }
            },
            "/games/{game_id}/legal-actions": {
                "get": {
                    "operationId": "getLegalActions",
                    "summary": "Every legal action now (hints, highlighting)",
                    "parameters": [_GAME_ID],
                    "responses": {
                        "200": _json(LegalActionsResponse, "Legal actions"),
                        **_errors(*_RACE_GAME_READ),
                    },
                }
            },
            "/games/{game_id}/record": {
                "get": {
                    "operationId": "getRecord",
                    "summary": "Code and actions: for anyone once won, else for the player",
                    "security": [{}, {"bearer": []}],
                    "parameters": [_GAME_ID],
                    "responses": {
                        "200": _json(GameRecordResponse, "Game record"),
                        # 401: the game is not over and the request has no (right) token;
                        # 403: a race or daily game's record stays private until its end;
                        # 409: a secret deal's record waits for the end of the game.
                        **_errors(
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
                    "parameters": [_GAME_ID],
                    "responses": {
                        "200": _json(ReplayResponse, "Replay"),
                        **_errors(*_ENDED_GAME_READ),
                    },
                }
            },
            "/races": {
                "post": {
                    "operationId": "createRace",
                    "summary": "Create a race; you are its host and first player",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref(CreateRaceRequest)}},
                    },
                    "responses": {
                        "201": _json(RaceJoined, "Created"),
                        **_errors(
                            *_BODY,
                            ErrorCode.BAD_CODE,
                            ErrorCode.UNAUTHORIZED,
                            ErrorCode.WINNABLE_POOL_EMPTY,
                        ),
                    },
                }
            },
            "/races/join": {
                "post": {
                    "operationId": "joinRace",
                    "summary": "Join a race in its lobby with the shared join code",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref(JoinRaceRequest)}},
                    },
                    "responses": {
                        "201": _json(RaceJoined, "Joined"),
                        **_errors(
                            *_BODY,
                            ErrorCode.NOT_FOUND,
                            ErrorCode.RACE_FULL,
                            ErrorCode.RACE_STARTED,
                            ErrorCode.STALE_VERSION,
                            ErrorCode.UNAUTHORIZED,
                        ),
                    },
                }
            },
            "/races/{race_id}": {
                "get": {
                    "operationId": "getRace",
                    "summary": "Lobby, progress and (once over) result; `you` with a token",
                    "security": [{}, {"bearer": []}],
                    "parameters": [_RACE_ID],
                    "responses": {
                        "200": _json(RaceResponse, "The race"),
                        **_errors(*_RACE_COMMAND),
                    },
                }
            },
            "/races/{race_id}/ready": _race_command(
                "raceReady", "Set ready", ReadyRequest, ErrorCode.RACE_STARTED
            ),
            "/races/{race_id}/start": _race_command(
                "raceStart", "Start (host)", None, ErrorCode.NOT_HOST, ErrorCode.RACE_STARTED
            ),
            "/races/{race_id}/resign": _race_command(
                "raceResign",
                "Resign",
                None,
                ErrorCode.RACE_NOT_STARTED,
                ErrorCode.RACE_OVER,
            ),
            "/races/{race_id}/rematch": _race_command(
                "raceRematch",
                "New race, same players, new deal",
                None,
                ErrorCode.RACE_NOT_FINISHED,
                ErrorCode.BAD_CODE,
            ),
            "/api": {
                "get": {
                    "operationId": "apiIndex",
                    "summary": "Where the API documents and entry points are",
                    "responses": {
                        "200": {
                            "description": "Paths of the OpenAPI document, the WebSocket "
                            "and the games",
                            "content": {"application/json": {"schema": _API_INDEX}},
                        }
                    },
                }
            },
            "/openapi.json": {
                "get": {
                    "operationId": "openapi",
                    "summary": "This document",
                    "responses": {
                        "200": {
                            "description": "OpenAPI 3.1",
                            "content": {"application/json": {"schema": {"type": "object"}}},
                        }
                    },
                }
            },
            "/metrics": {
                "get": {
                    "operationId": "metrics",
                    "summary": "Prometheus metrics of this instance",
                    "responses": {
                        "200": {
                            "description": "Text exposition format",
                            "content": {"text/plain": {"schema": {"type": "string"}}},
                        }
                    },
                }
            },
            "/healthz": {
                "get": {
                    "operationId": "health",
                    "summary": "Liveness",
                    "responses": {"200": _json(Health, "Alive")},
                }
            },
            "/readyz": {
                "get": {
                    "operationId": "ready",
                    "summary": "Readiness: fails when the store is unreachable",
                    "responses": {
                        "200": _json(Health, "Ready"),
                        "503": _json(Health, "Store unreachable"),
                    },
                }
            },
            **player_paths(),
        },
    }
