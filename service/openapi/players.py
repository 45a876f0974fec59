"""The OpenAPI paths of players, statistics, the daily challenge, leaderboards, hints
and the analysis of ended games."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ..protocol import ErrorCode
from ..protocol.games import AnalysisResponse, CreatedGame, HintResponse
from ..protocol.players import (
    Board,
    CreatePlayerRequest,
    DailyBoard,
    DailyGameCreated,
    DailyOverview,
    DailyPlayRequest,
    LinkCode,
    LinkRequest,
    PlayerCreated,
    PlayerStats,
    PlayerView,
    RenameRequest,
    Revoked,
)
from .common import AUTH, BODY, ENDED_GAME_READ, WRITE, errors, json_body, ref

PLAYER_MODELS: list[type[BaseModel]] = [
    CreatePlayerRequest,
    RenameRequest,
    LinkRequest,
    DailyPlayRequest,
    PlayerCreated,
    PlayerView,
    LinkCode,
    Revoked,
    PlayerStats,
    DailyOverview,
    DailyGameCreated,
    Board,
    DailyBoard,
    CreatedGame,
    HintResponse,
    AnalysisResponse,
]

_TOKEN = ErrorCode.UNAUTHORIZED
_BOARD = [ErrorCode.NOT_FOUND, ErrorCode.BAD_MESSAGE, ErrorCode.UNAUTHORIZED]


def _path_param(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


def _query(name: str, default: int, maximum: int) -> dict[str, Any]:
    schema = {"type": "integer", "minimum": 0, "maximum": maximum, "default": default}
    return {"name": name, "in": "query", "schema": schema}


def _body(model: Any) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": ref(model)}}}


def player_paths() -> dict[str, Any]:
    board_query = [_query("top", 10, 100), _query("around", 5, 25)]
    optional_player: list[dict[str, list[str]]] = [{}, {"bearer": []}]
    return {
        "/games/{game_id}/hint": {
            "post": {
                "operationId": "postHint",
                "summary": "One suggested action, from what the player can see (counted)",
                "security": AUTH,
                "parameters": [_path_param("game_id")],
                "responses": {
                    "200": json_body(HintResponse, "A hint, or null"),
                    **errors(ErrorCode.NOT_FOUND, _TOKEN, ErrorCode.HINTS_NOT_ALLOWED, *WRITE),
                },
            }
        },
        "/games/{game_id}/analysis": {
            "get": {
                "operationId": "getAnalysis",
                "summary": "Was it winnable? Verdicts of an ended game, from the deal and from "
                "where the player stopped",
                "parameters": [_path_param("game_id")],
                "responses": {
                    "200": json_body(AnalysisResponse, "Verdicts"),
                    **errors(*ENDED_GAME_READ),
                },
            }
        },
        "/players": {
            "post": {
                "operationId": "createPlayer",
                "summary": "Create an anonymous player; the token is shown once",
                "requestBody": _body(CreatePlayerRequest),
                "responses": {
                    "201": json_body(PlayerCreated, "Created"),
                    **errors(*BODY, ErrorCode.BAD_NAME),
                },
            }
        },
        "/players/me": {
            "get": {
                "operationId": "getMe",
                "summary": "The player of the token",
                "security": AUTH,
                "responses": {"200": json_body(PlayerView, "You"), **errors(_TOKEN)},
            },
            "patch": {
                "operationId": "renameMe",
                "summary": "Change your display name",
                "security": AUTH,
                "requestBody": _body(RenameRequest),
                "responses": {
                    "200": json_body(PlayerView, "Renamed"),
                    **errors(*BODY, _TOKEN, ErrorCode.BAD_NAME),
                },
            },
        },
        "/players/me/link-codes": {
            "post": {
                "operationId": "newLinkCode",
                "summary": "A single-use code for joining this player from another device",
                "security": AUTH,
                "responses": {"201": json_body(LinkCode, "Code"), **errors(_TOKEN, *WRITE)},
            }
        },
        "/players/link": {
            "post": {
                "operationId": "linkDevice",
                "summary": "Trade a link code for a token of the same player",
                "requestBody": _body(LinkRequest),
                "responses": {
                    "201": json_body(PlayerCreated, "Linked: a new token of the same player"),
                    # 404: no such code, or it was used or expired; 429 after too many.
                    **errors(*BODY, ErrorCode.NOT_FOUND),
                },
            }
        },
        "/players/me/revoke-others": {
            "post": {
                "operationId": "revokeOtherTokens",
                "summary": "Revoke every token of the player except this one",
                "security": AUTH,
                "responses": {"200": json_body(Revoked, "Revoked"), **errors(_TOKEN, *WRITE)},
            }
        },
        "/players/me/stats": {
            "get": {
                "operationId": "getMyStats",
                "summary": "Your statistics per mode",
                "security": AUTH,
                "responses": {
                    "200": json_body(PlayerStats, "Statistics"),
                    **errors(_TOKEN),
                },
            }
        },
        "/players/{player_id}/stats": {
            "get": {
                "operationId": "getPlayerStats",
                "summary": "Another player's statistics (public)",
                "parameters": [_path_param("player_id")],
                "responses": {
                    "200": json_body(PlayerStats, "Statistics"),
                    **errors(ErrorCode.NOT_FOUND),
                },
            }
        },
        "/daily": {
            "get": {
                "operationId": "getDaily",
                "summary": "Today's challenges (UTC) and the time to the next ones",
                "security": optional_player,
                "responses": {
                    "200": json_body(DailyOverview, "Today"),
                    **errors(_TOKEN),
                },
            }
        },
        "/daily/{date}/{mode}/games": {
            "post": {
                "operationId": "playDaily",
                "summary": "A game of today's challenge: your first is ranked",
                "security": optional_player,
                "parameters": [_path_param("date"), _path_param("mode")],
                "requestBody": {**_body(DailyPlayRequest), "required": False},
                "responses": {
                    "201": json_body(DailyGameCreated, "Created"),
                    **errors(
                        *_BOARD,
                        *WRITE,
                        *BODY,
                        ErrorCode.DAILY_CLOSED,
                        ErrorCode.DAILY_ATTEMPT_USED,
                        ErrorCode.WINNABLE_POOL_EMPTY,
                    ),
                },
            }
        },
        "/daily/{date}/{mode}": {
            "get": {
                "operationId": "getDailyBoard",
                "summary": "A challenge's leaderboard (code and games once the day is over)",
                "security": optional_player,
                "parameters": [_path_param("date"), _path_param("mode"), *board_query],
                "responses": {
                    "200": json_body(DailyBoard, "Board"),
                    **errors(*_BOARD, ErrorCode.WINNABLE_POOL_EMPTY),
                },
            }
        },
        "/leaderboards/{board}": {
            "get": {
                "operationId": "getLeaderboard",
                "summary": "All-time boards: `best-time.<mode>` and `streak.<mode>`",
                "security": optional_player,
                "parameters": [_path_param("board"), *board_query],
                "responses": {
                    "200": json_body(Board, "Board"),
                    **errors(*_BOARD),
                },
            }
        },
    }
