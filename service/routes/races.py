"""HTTP routes of races: creating, joining, the lobby, the start, resigning, the rematch."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..http import bearer_token, json_response, read_body
from ..players import Players
from ..protocol.races import CreateRaceRequest, JoinRaceRequest, ReadyRequest
from ..races import Races


def _races(request: Request) -> Races:
    races: Races = request.app.state.races
    return races


async def _account(request: Request) -> str:
    """The player id of a player token sent to create or join something ('' for none)."""
    token = bearer_token(request)
    if token is None:
        return ""
    players: Players = request.app.state.players
    return (await players.authenticate(token)).player_id


async def create_race(request: Request) -> Response:
    body = await read_body(request, CreateRaceRequest)
    joined = await _races(request).lobby.create(
        account=await _account(request),
        name=body.name.strip(),
        game=body.game,
        draw=body.draw,
        scoring=body.scoring,
        max_players=body.max_players,
        time_limit_seconds=body.time_limit_seconds,
        winnable=body.winnable,
        rated=body.rated,
    )
    return json_response(joined, 201, {"location": f"/races/{joined['race_id']}"})


async def join_race(request: Request) -> Response:
    body = await read_body(request, JoinRaceRequest)
    client = request.client.host if request.client else ""
    account = await _account(request)
    joined = await _races(request).lobby.join(
        body.join_code, body.name.strip(), client, account, bearer_token(request) or ""
    )
    return json_response(joined, 201)


async def get_race(request: Request) -> Response:
    race_id = request.path_params["race_id"]
    return json_response(await _races(request).state(race_id, bearer_token(request)))


async def race_ready(request: Request) -> Response:
    body = await read_body(request, ReadyRequest)
    race_id = request.path_params["race_id"]
    races = _races(request)
    return json_response(await races.lobby.set_ready(race_id, bearer_token(request), body.ready))


async def race_start(request: Request) -> Response:
    race_id = request.path_params["race_id"]
    return json_response(await _races(request).lobby.start(race_id, bearer_token(request)))


async def race_resign(request: Request) -> Response:
    race_id = request.path_params["race_id"]
    return json_response(await _races(request).resign(race_id, bearer_token(request)))


async def race_rematch(request: Request) -> Response:
    race_id = request.path_params["race_id"]
    return json_response(await _races(request).lobby.rematch(race_id, bearer_token(request)))


RACE_ROUTES = [
    Route("/races", create_race, methods=["POST"]),
    Route("/races/join", join_race, methods=["POST"]),
    Route("/races/{race_id}", get_race, methods=["GET"]),
    Route("/races/{race_id}/ready", race_ready, methods=["POST"]),
    Route("/races/{race_id}/start", race_start, methods=["POST"]),
    Route("/races/{race_id}/resign", race_resign, methods=["POST"]),
    Route("/races/{race_id}/rematch", race_rematch, methods=["POST"]),
]
