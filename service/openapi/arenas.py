"""The OpenAPI paths of arena tournaments: the list, one arena, its standings and heats;
make, cancel, join and leave."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ..protocol import ErrorCode
from ..protocol.arenas import (
    ArenaHeats,
    ArenaList,
    ArenaResponse,
    ArenaStandings,
    CreateArenaRequest,
)
from .common import (
    ARENA_ID,
    AUTH,
    BODY,
    OPTIONAL_AUTH,
    WRITE,
    errors,
    json_body,
    request_body,
)

ARENA_MODELS: list[type[BaseModel]] = [
    CreateArenaRequest,
    ArenaResponse,
    ArenaList,
    ArenaStandings,
    ArenaHeats,
]
_PAGE = {
    "name": "page",
    "in": "query",
    "required": False,
    "schema": {"type": "integer", "minimum": 1, "maximum": 500, "default": 1},
    "description": "Page of 20 lines, from 1.",
}


def arena_paths() -> dict[str, Any]:
    return {
        "/arenas": {"get": _list(), "post": _create()},
        "/arenas/{arena_id}": {"get": _get(), "delete": _cancel()},
        "/arenas/{arena_id}/players": {"post": _join()},
        "/arenas/{arena_id}/players/me": {"delete": _leave()},
        "/arenas/{arena_id}/standings": {"get": _standings()},
        "/arenas/{arena_id}/heats": {"get": _heats()},
    }


def _op(operation_id: str, summary: str, **rest: Any) -> dict[str, Any]:
    return {"operationId": operation_id, "summary": summary, **rest}


def _list() -> dict[str, Any]:
    return _op(
        "listArenas",
        "Arenas upcoming, running and finished (the last two days)",
        responses={"200": json_body(ArenaList, "The arenas"), **errors()},
    )


def _create() -> dict[str, Any]:
    return _op(
        "createArena",
        "Make an arena of your own, starting now or later, with your player token",
        security=AUTH,
        requestBody=request_body(CreateArenaRequest, required=True),
        responses={
            "201": json_body(ArenaResponse, "The arena"),
            **errors(*BODY, ErrorCode.UNAUTHORIZED),
        },
    )


def _get() -> dict[str, Any]:
    return _op(
        "getArena",
        "An arena; with the player token of one of its players, your line and heat too",
        security=OPTIONAL_AUTH,
        parameters=[ARENA_ID],
        responses={
            "200": json_body(ArenaResponse, "The arena"),
            **errors(ErrorCode.NOT_FOUND, ErrorCode.UNAUTHORIZED),
        },
    )


def _cancel() -> dict[str, Any]:
    return _op(
        "cancelArena",
        "Cancel an arena you made, before it starts",
        security=AUTH,
        parameters=[ARENA_ID],
        responses={
            "200": json_body(ArenaResponse, "The arena, cancelled"),
            **errors(
                ErrorCode.NOT_FOUND,
                ErrorCode.UNAUTHORIZED,
                ErrorCode.NOT_YOUR_ARENA,
                ErrorCode.ARENA_STARTED,
                *WRITE,
            ),
        },
    )


def _join() -> dict[str, Any]:
    return _op(
        "joinArena",
        "Join an upcoming or running arena, or come back to it after leaving",
        security=AUTH,
        parameters=[ARENA_ID],
        responses={
            "200": json_body(ArenaResponse, "The arena and your line"),
            **errors(ErrorCode.NOT_FOUND, ErrorCode.UNAUTHORIZED, ErrorCode.ARENA_OVER, *WRITE),
        },
    )


def _leave() -> dict[str, Any]:
    return _op(
        "leaveArena",
        "Leave an arena: no more heats until you join again (a heat under way goes on)",
        security=AUTH,
        parameters=[ARENA_ID],
        responses={
            "200": json_body(ArenaResponse, "The arena and your line"),
            **errors(
                ErrorCode.NOT_FOUND,
                ErrorCode.UNAUTHORIZED,
                ErrorCode.ARENA_OVER,
                ErrorCode.NOT_IN_ARENA,
                *WRITE,
            ),
        },
    )


def _standings() -> dict[str, Any]:
    return _op(
        "getArenaStandings",
        "A page of 20 lines of an arena's standings",
        parameters=[ARENA_ID, _PAGE],
        responses={
            "200": json_body(ArenaStandings, "The page"),
            **errors(ErrorCode.NOT_FOUND, ErrorCode.BAD_MESSAGE),
        },
    )


def _heats() -> dict[str, Any]:
    return _op(
        "getArenaHeats",
        "Every heat of an arena: its race (readable and replayable once over) and outcomes",
        parameters=[ARENA_ID],
        responses={"200": json_body(ArenaHeats, "The heats"), **errors(ErrorCode.NOT_FOUND)},
    )
