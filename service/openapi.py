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


def _problem(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/problem+json": {"schema": _ref(Problem)}},
    }


_GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
_RACE_ID = {"name": "race_id", "in": "path", "required": True, "schema": {"type": "string"}}
_AUTH: list[dict[str, list[str]]] = [{"bearer": []}]
_ERRORS = {
    "404": _problem("No such game"),
    "422": _problem("Malformed request"),
    "503": _problem("Store unavailable"),
}
# Every operation with a JSON body can also meet these.
_BODY_ERRORS = {
    "400": _problem("Body is not JSON"),
    "413": _problem("Body over the size limit"),
}


def _race_command(operation_id: str, summary: str, body: type[BaseModel] | None) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "operationId": operation_id,
        "summary": summary,
        "security": _AUTH,
        "parameters": [_RACE_ID],
        "responses": {
            "200": _json(RaceResponse, "The race after the command"),
            "401": _problem("Missing or wrong player token"),
            "403": _problem("Only the host may do this"),
            "409": _problem("Not possible in the race's current state"),
            **_ERRORS,
        },
    }
    if body is not None:
        operation["requestBody"] = {"content": {"application/json": {"schema": _ref(body)}}}
        operation["responses"].update(_BODY_ERRORS)
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
    act_errors = {
        **_ERRORS,
        **_BODY_ERRORS,
        "401": _problem("Missing or wrong player token"),
        "409": _problem("Refused by a rule (rule_id), or stale expected_version"),
    }
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
                        **_BODY_ERRORS,
                        "422": _problem("Malformed request or bad game code"),
                        "503": _problem("Store unavailable"),
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
                        **_ERRORS,
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
                    "responses": {"200": _json(ChangesResponse, "Changes or snapshot"), **_ERRORS},
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
                    "responses": {"200": _json(ActionAccepted, "Accepted"), **act_errors},
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
                    "responses": {"200": _json(ActionAccepted, "Undone"), **act_errors},
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
                    "responses": {"200": _json(ActionAccepted, "Resigned"), **act_errors},
                }
            },
            "/games/{game_id}/legal-actions": {
                "get": {
                    "operationId": "getLegalActions",
                    "summary": "Every legal action now (hints, highlighting)",
                    "parameters": [_GAME_ID],
                    "responses": {"200": _json(LegalActionsResponse, "Legal actions"), **_ERRORS},
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
                        "401": _problem("Game not over and no player token"),
                        "409": _problem(
                            "`game_not_over`: a secret deal's code and record wait for its end"
                        ),
                        **_ERRORS,
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
                        "403": _problem("`race_running` or `daily_running`: not public yet"),
                        "409": _problem("`game_not_over`, or `race_not_started`"),
                        **_ERRORS,
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
                    "responses": {"201": _json(RaceJoined, "Created"), **_ERRORS, **_BODY_ERRORS},
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
                        "409": _problem("Race full or already started"),
                        "429": _problem(
                            "`rate_limited`: too many wrong join codes from this address "
                            "(see `Retry-After`)"
                        ),
                        **_ERRORS,
                        **_BODY_ERRORS,
                    },
                }
            },
            "/races/{race_id}": {
                "get": {
                    "operationId": "getRace",
                    "summary": "Lobby, progress and (once over) result; `you` with a token",
                    "security": [{}, {"bearer": []}],
                    "parameters": [_RACE_ID],
                    "responses": {"200": _json(RaceResponse, "The race"), **_ERRORS},
                }
            },
            "/races/{race_id}/ready": _race_command("raceReady", "Set ready", ReadyRequest),
            "/races/{race_id}/start": _race_command("raceStart", "Start (host)", None),
            "/races/{race_id}/resign": _race_command("raceResign", "Resign", None),
            "/races/{race_id}/rematch": _race_command(
                "raceRematch", "New race, same players, new deal", None
            ),
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
