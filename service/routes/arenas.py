"""HTTP routes of arena tournaments: the list, one arena, its standings and heats; make,
cancel, join and leave."""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..arenas import MAX_ARENA_ID, Arenas
from ..errors import ServiceError
from ..http import bearer_token, json_response, read_body
from ..protocol import ErrorCode
from ..protocol.arenas import CreateArenaRequest

_DIGITS = re.compile(r"[0-9]{1,4}")
MAX_PAGE = 500


def _arenas(request: Request) -> Arenas:
    arenas: Arenas = request.app.state.arenas
    return arenas


def _arena_id(request: Request) -> str:
    arena_id: str = request.path_params["arena_id"]
    if len(arena_id) > MAX_ARENA_ID:
        raise ServiceError(ErrorCode.NOT_FOUND, 404, "no such arena")
    return arena_id


async def list_arenas(request: Request) -> Response:
    return json_response(await _arenas(request).listing())


async def create_arena(request: Request) -> Response:
    body = await read_body(request, CreateArenaRequest)
    made = await _arenas(request).create(
        bearer_token(request), body.mode, body.starts_in, body.minutes, body.name
    )
    location = f"/arenas/{made['arena']['arena_id']}"
    return json_response(made, 201, {"location": location})


async def get_arena(request: Request) -> Response:
    return json_response(await _arenas(request).view(_arena_id(request), bearer_token(request)))


async def cancel_arena(request: Request) -> Response:
    arenas = _arenas(request)
    return json_response(await arenas.cancel(_arena_id(request), bearer_token(request)))


async def join_arena(request: Request) -> Response:
    arenas = _arenas(request)
    return json_response(await arenas.join(_arena_id(request), bearer_token(request)))


async def leave_arena(request: Request) -> Response:
    arenas = _arenas(request)
    return json_response(await arenas.leave(_arena_id(request), bearer_token(request)))


async def arena_standings(request: Request) -> Response:
    raw = request.query_params.get("page", "1")
    if not _DIGITS.fullmatch(raw) or not 1 <= int(raw) <= MAX_PAGE:
        raise ServiceError(ErrorCode.BAD_MESSAGE, 422, f"page is a whole number, 1 to {MAX_PAGE}")
    return json_response(await _arenas(request).standings(_arena_id(request), int(raw)))


async def arena_heats(request: Request) -> Response:
    return json_response(await _arenas(request).heats(_arena_id(request)))


ARENA_ROUTES = [
    Route("/arenas", list_arenas, methods=["GET"]),
    Route("/arenas", create_arena, methods=["POST"]),
    Route("/arenas/{arena_id}", get_arena, methods=["GET"]),
    Route("/arenas/{arena_id}", cancel_arena, methods=["DELETE"]),
    Route("/arenas/{arena_id}/players", join_arena, methods=["POST"]),
    Route("/arenas/{arena_id}/players/me", leave_arena, methods=["DELETE"]),
    Route("/arenas/{arena_id}/standings", arena_standings, methods=["GET"]),
    Route("/arenas/{arena_id}/heats", arena_heats, methods=["GET"]),
]
