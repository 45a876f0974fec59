"""The OpenAPI paths of players, statistics, the daily challenge, leaderboards, hints
and the analysis of ended games."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ..players.boards import MAX_AROUND, MAX_OFFSET, MAX_TOP
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


def _query(name: str, default: int, maximum: int, description: str) -> dict[str, Any]:
    schema = {"type": "integer", "minimum": 0, "maximum": maximum, "default": default}
    return {"name": name, "in": "query", "description": description, "schema": schema}


_BOARD_QUERY = [
    _query(
        "top",
        10,
        MAX_TOP,
        "How many rows `top` holds: the page's size. Written in plain digits, as every "
        "number of this query (`bad_message`, 422, otherwise or out of range).",
    ),
    _query(
        "offset",
        0,
        MAX_OFFSET,
        "Rows skipped before `top`: `top` starts at rank `offset + 1`. The next page's is "
        "the answer's `next_offset`.",
    ),
    _query(
        "around",
        5,
        MAX_AROUND,
        "With a player token: rows either side of your own in `around`.",
    ),
]


def player_paths() -> dict[str, Any]:
    return {
        "/games/{game_id}/hint": {"post": _post_hint()},
        "/games/{game_id}/analysis": {"get": _get_analysis()},
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
            **errors(
                ErrorCode.NOT_FOUND, _TOKEN, ErrorCode.HINTS_NOT_ALLOWED, *WRITE, ErrorCode.BUSY
            ),
        },
    }


def _get_analysis() -> dict[str, Any]:
    operation = game_read(
        "getAnalysis",
        "Was it winnable? Verdicts of an ended game, from the deal and from "
        "where the player stopped",
        AnalysisResponse,
        "Verdicts",
        *ENDED_GAME_READ,
        # Counted per address, and per player when a player token is sent.
        ErrorCode.RATE_LIMITED,
        ErrorCode.BUSY,
    )
    return {**operation, "security": OPTIONAL_AUTH}


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


_READING = (
    " Rows rank by `score`, lowest first; equal scores in the order they were reached (the"
    " first to reach a value ranks first), the same on every read and page. `top` holds"
    " `top` rows from rank `offset + 1`; `next_offset` is the next page's `offset`, null"
    " after the last: reading with `offset=<next_offset>` until it is null gives every row"
    " once, in order. Points (Normal or Vegas) rank on no board."
)


def _get_daily_board() -> dict[str, Any]:
    return {
        "operationId": "getDailyBoard",
        "summary": "A challenge's leaderboard (code and games once the day is over)",
        "description": (
            "Every ranked attempt from its first action: won first, by time (`time_ms`,"
            " milliseconds, lower is better), then fewer moves; then the others by cards on"
            " the foundations (more first), then fewer moves. `score` packs that order: won,"
            " `time_ms` x 100000 + `moves`; not won (or still `open`), 10^14 + cards not on"
            " the foundations x 100000 + `moves`." + _READING
        ),
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
        "description": (
            "One of each per mode, Vegas modes included. `best-time.<mode>`: each player's"
            " best time (`value` and `score`, milliseconds from the first action to the win;"
            " lower is better) among wins of games created with `winnable: true` by a player,"
            " without hints (undo allowed); no game of a code, plain secret deal, daily"
            " challenge or race enters. `streak.<mode>`: the longest streak of games won in"
            " a row (`value`, higher is better; `score` is minus it), every player who"
            " finished a game of the mode, at 0 until a first win." + _READING
        ),
        "security": OPTIONAL_AUTH,
        "parameters": [path_param("board"), *_BOARD_QUERY],
        "responses": {
            "200": json_body(Board, "Board"),
            **errors(*_BOARD),
        },
    }
