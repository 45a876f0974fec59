"""HTTP routes of hints and of "was it winnable?"."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..hints import Hints
from ..http import bearer_token, json_response


def _hints(request: Request) -> Hints:
    hints: Hints = request.app.state.hints
    return hints


async def post_hint(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    return json_response(await _hints(request).hint(game_id, bearer_token(request)))


async def get_analysis(request: Request) -> Response:
    return json_response(await _hints(request).analysis_of(request.path_params["game_id"]))


HINT_ROUTES = [
    Route("/games/{game_id}/hint", post_hint, methods=["POST"]),
    Route("/games/{game_id}/analysis", get_analysis, methods=["GET"]),
]
