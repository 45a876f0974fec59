"""HTTP routes of games: create, read, play, and their records and replays."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .. import engine
from ..analysis import Analysis
from ..errors import ServiceError, invalid_action
from ..games import Games
from ..http import bearer_token, json_response, read_body
from ..players import Players
from ..players.careers import Careers
from ..protocol import ErrorCode, parse_action_input
from ..protocol.games import ActionRequest, CreateGameRequest, ResignRequest, UndoRequest


def games_of(request: Request) -> Games:
    games: Games = request.app.state.games
    return games


async def create_game(request: Request) -> Response:
    body = await read_body(request, CreateGameRequest)
    if body.code is not None:
        _check_code_agrees(body)
    if (body.secret or body.winnable) and body.code is not None:
        raise ServiceError(
            ErrorCode.BAD_CODE, 422, "a secret or winnable deal is chosen by the service"
        )
    token = bearer_token(request)
    players: Players = request.app.state.players
    player = await players.authenticate(token) if token else None
    player_id = player.player_id if player else ""
    if body.winnable:
        analysis: Analysis = request.app.state.analysis
        code = await analysis.take_winnable(engine.Mode.named(body.game, body.draw, body.scoring))
        created = await games_of(request).create_from(code, hidden=True, player_id=player_id)
        ttl = request.app.state.settings.game_ttl_seconds
        await analysis.mark_certified(created["game_id"], ttl)
    else:
        created = await games_of(request).create(
            body.game, body.draw, body.scoring, body.code, body.secret, player_id=player_id
        )
    if player is not None:
        careers: Careers = request.app.state.careers
        await careers.new_solo_game(player, created["game_id"])
    location = f"/games/{created['game_id']}"
    return json_response(created, 201, {"location": location, "etag": '"0"'})


def _check_code_agrees(body: CreateGameRequest) -> None:
    """A code fixes game, draw and scoring; a body that also names others is refused."""
    try:
        code = engine.GameCode.parse(body.code or "")
    except engine.InvalidCodeError as exc:
        raise ServiceError(ErrorCode.BAD_CODE, 422, str(exc)) from exc
    named = {"game", "draw", "scoring"} & body.model_fields_set
    given = {name: getattr(body, name) for name in named}
    implied = {"game": code.game.value, "draw": code.draw, "scoring": code.scoring.value}
    clashes = [f"{k}={v!r}" for k, v in given.items() if implied[k] != v]
    if clashes:
        raise ServiceError(
            ErrorCode.BAD_CODE, 422, f"the code {code} contradicts {', '.join(clashes)}"
        )


async def get_game(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    snapshot = await games_of(request).snapshot(game_id, bearer_token(request))
    etag = f'"{snapshot["version"]}"'
    if etag in {t.strip() for t in request.headers.get("if-none-match", "").split(",")}:
        return Response(status_code=304, headers={"etag": etag})
    return json_response(snapshot, headers={"etag": etag})


async def get_changes(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    try:
        since = int(request.query_params.get("since", "0"))
        if since < 0:
            raise ValueError
    except ValueError as exc:
        raise ServiceError(
            ErrorCode.BAD_MESSAGE, 422, "since must be a version number (0 or more)"
        ) from exc
    changes = await games_of(request).changes_since(game_id, since, bearer_token(request))
    headers = None
    if changes["more"]:
        headers = {"link": f'</games/{game_id}/changes?since={changes["next_since"]}>; rel="next"'}
    return json_response(changes, headers=headers)


async def post_action(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    body = await read_body(request, ActionRequest)
    try:
        action = parse_action_input(body.action)
    except engine.InvalidActionError as exc:
        raise invalid_action(exc) from exc
    return await _apply(request, game_id, action, body.expected_version, body.request_id)


async def post_undo(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    body = await read_body(request, UndoRequest)
    return await _apply(request, game_id, engine.Undo(), body.expected_version, body.request_id)


async def _apply(
    request: Request,
    game_id: str,
    action: engine.Action,
    expected_version: int | None,
    request_id: str | None,
) -> Response:
    applied = await games_of(request).act(
        game_id, bearer_token(request), action, expected_version, request_id
    )
    return json_response(
        {
            "game_id": game_id,
            "version": applied.version,
            "notation": applied.notation,
            "duplicate": applied.duplicate,
            "change": applied.change,
        }
    )


async def post_resign(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    body = await read_body(request, ResignRequest)
    return await _apply(request, game_id, engine.Resign(), None, body.request_id)


async def get_legal_actions(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    return json_response(await games_of(request).legal_actions(game_id, bearer_token(request)))


async def get_replay(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    return json_response(await games_of(request).replay(game_id))


async def get_record(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    return json_response(await games_of(request).record(game_id, bearer_token(request)))


GAME_ROUTES = [
    Route("/games", create_game, methods=["POST"]),
    Route("/games/{game_id}", get_game, methods=["GET"]),
    Route("/games/{game_id}/changes", get_changes, methods=["GET"]),
    Route("/games/{game_id}/actions", post_action, methods=["POST"]),
    Route("/games/{game_id}/undo", post_undo, methods=["POST"]),
    Route("/games/{game_id}/resign", post_resign, methods=["POST"]),
    Route("/games/{game_id}/legal-actions", get_legal_actions, methods=["GET"]),
    Route("/games/{game_id}/record", get_record, methods=["GET"]),
    Route("/games/{game_id}/replay", get_replay, methods=["GET"]),
]
