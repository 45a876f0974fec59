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
from .common import (
    AUTH,
    BODY,
    ENDED_GAME_READ,
    GAME_ID,
    OPTIONAL_AUTH,
    WRITE,
    errors,
    game_read,
    json_body,
    path_param,
    request_body,
)

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


def _query(name: str, default: int, maximum: int) -> dict[str, Any]:
    schema = {"type": "integer", "minimum": 0, "maximum": maximum, "default": default}
    return {"name": name, "in": "query", "schema": schema}


_BOARD_QUERY = [_query("top", 10, 100), _query("around", 5, 25)]


def player_paths() -> dict[str, Any]:
    return {
        "/games/{game_id}/hint": {"post": _post_hint()},
        "/games/{game_id}/analysis": {
            "get": game_read(
                "getAnalysis",
                "Was it winnable? Verdicts of an ended game, from the deal and from "
                "where the player stopped",
                AnalysisResponse,
                "Verdicts",
                *ENDED_GAME_READ,
            )
        },
        "/players": {"post": _create_player()},
        "/players/me": {"get": _get_me(), "patch": _rename_me()},
        "/players/me/link-codes": {"post": _new_link_code()},
        "/players/link": {"post": _link_device()},
        "/players/me/revoke-others": {"post": _revoke_other_tokens()},
        "/players/me/stats": {"get": _get_my_stats()},
        "/players/{player_id}/stats": {"get": _get_player_stats()},
        "/daily": {"get": _get_daily()},
        "/daily/{date}/{mode}/games": {"post": _play_daily()},
        "/daily/{date}/{mode}": {"get": _get_daily_board()},
        "/leaderboards/{board}": {"get": _get_leaderboard()},
    }


def _post_hint() -> dict[str, Any]:
    return {
        "operationId": "postHint",
        "summary": "One suggested action, from what the player can see (counted)",
        "security": AUTH,
        "parameters": [GAME_ID],
        "responses": {
            "200": json_body(HintResponse, "A hint, or null"),
            **errors(ErrorCode.NOT_FOUND, _TOKEN, ErrorCode.HINTS_NOT_ALLOWED, *WRITE),
        },
    }


def _create_player() -> dict[str, Any]:
    return {
        "operationId": "createPlayer",
        "summary": "Create an anonymous player; its player token is shown once",
        "requestBody": request_body(CreatePlayerRequest, required=True),
        "responses": {
            "201": json_body(PlayerCreated, "Created"),
            **errors(*BODY, ErrorCode.BAD_NAME),
        },
    }


def _get_me() -> dict[str, Any]:
    return {
        "operationId": "getMe",
        "summary": "The player of the player token",
        "security": AUTH,
        "responses": {"200": json_body(PlayerView, "You"), **errors(_TOKEN)},
    }


def _rename_me() -> dict[str, Any]:
    return {
        "operationId": "renameMe",
        "summary": "Change your display name",
        "security": AUTH,
        "requestBody": request_body(RenameRequest, required=True),
        "responses": {
            "200": json_body(PlayerView, "Renamed"),
            **errors(*BODY, _TOKEN, ErrorCode.BAD_NAME),
        },
    }


def _new_link_code() -> dict[str, Any]:
    return {
        "operationId": "newLinkCode",
        "summary": "A single-use code for joining this player from another device",
        "security": AUTH,
        "responses": {"201": json_body(LinkCode, "Code"), **errors(_TOKEN, *WRITE)},
    }


def _link_device() -> dict[str, Any]:
    return {
        "operationId": "linkDevice",
        "summary": "Trade a link code for a player token of the same player",
        "requestBody": request_body(LinkRequest, required=True),
        "responses": {
            "201": json_body(PlayerCreated, "Linked: a new player token of the same player"),
            # 404: no such code, or it was used or expired; 429 after too many.
            **errors(*BODY, ErrorCode.NOT_FOUND),
        },
    }


def _revoke_other_tokens() -> dict[str, Any]:
    return {
        "operationId": "revokeOtherTokens",
        "summary": "Revoke every player token of the player except this one",
        "security": AUTH,
        "responses": {"200": json_body(Revoked, "Revoked"), **errors(_TOKEN, *WRITE)},
    }


def _get_my_stats() -> dict[str, Any]:
    return {
        "operationId": "getMyStats",
        "summary": "Your statistics per mode",
        "security": AUTH,
        "responses": {
            "200": json_body(PlayerStats, "Statistics"),
            **errors(_TOKEN),
        },
    }


def _get_player_stats() -> dict[str, Any]:
    return {
        "operationId": "getPlayerStats",
        "summary": "Another player's statistics (public)",
        "parameters": [path_param("player_id")],
        "responses": {
            "200": json_body(PlayerStats, "Statistics"),
            **errors(ErrorCode.NOT_FOUND),
        },
    }


def _get_daily() -> dict[str, Any]:
    return {
        "operationId": "getDaily",
        "summary": "Today's challenges (UTC) and the time to the next ones",
        "security": OPTIONAL_AUTH,
        "responses": {
            "200": json_body(DailyOverview, "Today"),
            **errors(_TOKEN),
        },
    }


def _play_daily() -> dict[str, Any]:
    return {
        "operationId": "playDaily",
        "summary": "A game of today's challenge: your first is ranked",
        "security": OPTIONAL_AUTH,
        "parameters": [path_param("date"), path_param("mode")],
        "requestBody": request_body(DailyPlayRequest, required=False),
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


def _get_daily_board() -> dict[str, Any]:
    return {
        "operationId": "getDailyBoard",
        "summary": "A challenge's leaderboard (code and games once the day is over)",
        "security": OPTIONAL_AUTH,
        "parameters": [path_param("date"), path_param("mode"), *_BOARD_QUERY],
        "responses": {
            "200": json_body(DailyBoard, "Board"),
            **errors(*_BOARD, ErrorCode.WINNABLE_POOL_EMPTY),
        },
    }


def _get_leaderboard() -> dict[str, Any]:
    return {
        "operationId": "getLeaderboard",
        "summary": "All-time boards: `best-time.<mode>` and `streak.<mode>`",
        "security": OPTIONAL_AUTH,
        "parameters": [path_param("board"), *_BOARD_QUERY],
        "responses": {
            "200": json_body(Board, "Board"),
            **errors(*_BOARD),
        },
    }
