"""HTTP routes of quick pairing: ask to race now, read the seek (polling keeps it), cancel."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..errors import ServiceError
from ..http import bearer_token, json_response, read_body
from ..pairing import Pairing
from ..protocol import ErrorCode
from ..protocol.pairing import SeekRequest

_MAX_SEEK_ID = 64


def _pairing(request: Request) -> Pairing:
    pairing: Pairing = request.app.state.pairing
    return pairing


def _seek_id(request: Request) -> str:
    seek_id: str = request.path_params["seek_id"]
    if len(seek_id) > _MAX_SEEK_ID:
        raise ServiceError(ErrorCode.NOT_FOUND, 404, "no such seek (or it expired)")
    return seek_id


async def create_seek(request: Request) -> Response:
    body = await read_body(request, SeekRequest)
    seek = await _pairing(request).seek(bearer_token(request), body.mode)
    return json_response({"seek": seek}, 201, {"location": f"/pairing/seeks/{seek['seek_id']}"})


async def get_seek(request: Request) -> Response:
    seek = await _pairing(request).read(_seek_id(request), bearer_token(request))
    return json_response({"seek": seek})


async def cancel_seek(request: Request) -> Response:
    seek = await _pairing(request).cancel(_seek_id(request), bearer_token(request))
    return json_response({"seek": seek})


PAIRING_ROUTES = [
    Route("/pairing/seeks", create_seek, methods=["POST"]),
    Route("/pairing/seeks/{seek_id}", get_seek, methods=["GET"]),
    Route("/pairing/seeks/{seek_id}", cancel_seek, methods=["DELETE"]),
]
