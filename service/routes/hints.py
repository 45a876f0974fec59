"""HTTP routes of hints and of "was it winnable?"."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..guards.rates import client_address
from ..hints import Hints
from ..http import CLIENT_GONE, bearer_token, json_response, while_connected


def _hints(request: Request) -> Hints:
    hints: Hints = request.app.state.hints
    return hints


async def post_hint(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    address = client_address(request.scope)
    return json_response(await _hints(request).hint(game_id, bearer_token(request), address))


async def get_analysis(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    address = client_address(request.scope)
    # A client that leaves stops waiting, and a search nobody waits for is cancelled.
    answer = await while_connected(
        request, _hints(request).analysis_of(game_id, bearer_token(request), address)
    )
    if answer is None:
        return Response(status_code=CLIENT_GONE)
    return json_response(answer)


HINT_ROUTES = [
    Route("/games/{game_id}/hint", post_hint, methods=["POST"]),
    Route("/games/{game_id}/analysis", get_analysis, methods=["GET"]),
]
