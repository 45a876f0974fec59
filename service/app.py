"""HTTP routes of games, health and metrics, and the application factory."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TypeVar

from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from . import engine
from .analysis import Analysis, mode_of_request
from .boards import Boards
from .config import Settings
from .daily import DAILY_MODES, Daily
from .errors import ServiceError
from .games import Games
from .hint_routes import HINT_ROUTES
from .hints import Hints
from .http import MAX_BODY_BYTES, bearer_token, json_response, problem, read_body
from .limits import RequestBodyLimit
from .metrics import Metrics
from .openapi import openapi_document
from .player_routes import PLAYER_ROUTES
from .players import Players
from .protocol import ErrorCode, parse_action_input
from .protocol_games import ActionRequest, CreateGameRequest, ResignRequest, UndoRequest
from .race_routes import RACE_ROUTES
from .races import Races
from .rates import RateLimits, page_buckets, retry_after
from .results import Careers, Results
from .store import StoreUnavailable, open_store
from .ws import websocket_endpoint

log = logging.getLogger("service")
M = TypeVar("M", bound=BaseModel)


def games_of(request: Request) -> Games:
    games: Games = request.app.state.games
    return games


# --------------------------------------------------------------------------- routes


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
        code = await analysis.take_winnable(mode_of_request(body.game, body.draw, body.scoring))
        created = await games_of(request).create_from(code, hidden=True, player_id=player_id)
        ttl = request.app.state.settings.game_ttl_seconds
        await analysis.mark_certified(created["game_id"], ttl)
    else:
        created = await games_of(request).create(
            body.game, body.draw, body.scoring, body.code, body.secret, player_id=player_id
        )
    if player is not None:
        careers: Careers = request.app.state.careers
        await careers.new_solo_game(player, players, created["game_id"])
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
    version, state = await games_of(request).snapshot(game_id, bearer_token(request))
    etag = f'"{version}"'
    if etag in {t.strip() for t in request.headers.get("if-none-match", "").split(",")}:
        return Response(status_code=304, headers={"etag": etag})
    return json_response(
        {"game_id": game_id, "version": version, "state": state}, headers={"etag": etag}
    )


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
        raise ServiceError(ErrorCode.INVALID_ACTION, 422, exc.message, reason=exc.code) from exc
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


async def health(request: Request) -> Response:
    return json_response({"status": "ok", "store": games_of(request).store.kind})


async def ready(request: Request) -> Response:
    store = games_of(request).store
    try:
        await store.ping()
    except StoreUnavailable:
        return json_response({"status": "unavailable", "store": store.kind}, 503)
    return json_response({"status": "ok", "store": store.kind})


async def metrics(request: Request) -> Response:
    return Response(games_of(request).metrics.render(), media_type=CONTENT_TYPE_LATEST)


async def openapi(request: Request) -> Response:
    return json_response(openapi_document())


async def index(request: Request) -> Response:
    return json_response(
        {
            "service": "solitaire",
            "openapi": "/openapi.json",
            "websocket": "/ws",
            "games": "/games",
        }
    )


# --------------------------------------------------------------------------- errors


async def service_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ServiceError)
    games_of(request).metrics.errors.labels(exc.code.value).inc()
    response = problem(exc.code, exc.status, exc.message, exc.extra)
    if "retry_after" in exc.extra:
        response.headers["retry-after"] = str(exc.extra["retry_after"])
    return response


_HTTP_CODES = {404: ErrorCode.NOT_FOUND, 405: ErrorCode.METHOD_NOT_ALLOWED}


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = _HTTP_CODES.get(exc.status_code, ErrorCode.BAD_MESSAGE)
    return problem(code, exc.status_code, str(exc.detail))


def rate_limited(scope: Scope, kind: str, wait: float) -> Response:
    """The answer to a request over its client address's limit (``limits.RateLimits``)."""
    settings: Settings = scope["app"].state.settings
    if kind == "write":
        rate, burst = settings.http_write_rate_per_second, settings.http_write_burst
        what = "writes (POST)"
    else:
        rate, burst = settings.changes_rate_per_second, settings.changes_burst
        what = "changes pages"
    metrics: Metrics = scope["app"].state.games.metrics
    metrics.http_rate_limited.labels(kind).inc()
    metrics.errors.labels(ErrorCode.RATE_LIMITED.value).inc()
    response = problem(
        ErrorCode.RATE_LIMITED,
        429,
        f"at most {rate:g} {what} per second per client address (bursts of {burst}); retry later",
    )
    response.headers["retry-after"] = retry_after(wait)
    return response


async def internal_error(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return problem(ErrorCode.INTERNAL_ERROR, 500, "internal error")


ROUTES = [
    Route("/api", index),
    Route("/games", create_game, methods=["POST"]),
    Route("/games/{game_id}", get_game, methods=["GET"]),
    Route("/games/{game_id}/changes", get_changes, methods=["GET"]),
    Route("/games/{game_id}/actions", post_action, methods=["POST"]),
    Route("/games/{game_id}/undo", post_undo, methods=["POST"]),
    Route("/games/{game_id}/resign", post_resign, methods=["POST"]),
    Route("/games/{game_id}/legal-actions", get_legal_actions, methods=["GET"]),
    Route("/games/{game_id}/record", get_record, methods=["GET"]),
    Route("/games/{game_id}/replay", get_replay, methods=["GET"]),
    *RACE_ROUTES,
    Route("/healthz", health),
    Route("/readyz", ready),
    Route("/openapi.json", openapi),
    Route("/metrics", metrics),
    WebSocketRoute("/ws", websocket_endpoint),
    *PLAYER_ROUTES,
    *HINT_ROUTES,
]

# The web front end, a client of the published protocol like any other, served at "/":
# clients/web in a source tree, the package data service/web when installed from a wheel.
_SOURCE_WEB_CLIENT = Path(__file__).resolve().parent.parent / "clients" / "web"
WEB_CLIENT = _SOURCE_WEB_CLIENT if _SOURCE_WEB_CLIENT.is_dir() else Path(__file__).parent / "web"


def create_app(
    settings: Settings | None = None, clock: Callable[[], float] = time.time
) -> Starlette:
    """The application; ``clock`` (seconds since the epoch) decides what day it is."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = open_store(settings)
        await store.open()
        app.state.settings = settings
        metrics = Metrics()
        metrics.active_games.set_function(lambda: store.subscribed_games)
        metrics.follow_feed(lambda: store.feed_health)
        app.state.games = games = Games(store, settings, metrics, clock)
        app.state.races = races = Races(games, settings)
        app.state.players = players = Players(store.records, settings)
        app.state.boards = boards = Boards(store.records)
        app.state.results = results = Results(store.records, clock)
        app.state.analysis = analysis = Analysis(store.records, settings)
        app.state.daily = daily = Daily(
            games, players, boards, store.records, clock, analysis.take_winnable
        )
        app.state.careers = Careers(
            results, daily, boards, games, analysis, settings.game_ttl_seconds
        )
        app.state.hints = Hints(games, analysis, daily)
        races.lobby.deals = analysis
        analysis.start_refilling(DAILY_MODES)
        try:
            yield
        finally:
            await analysis.close()
            await races.close()
            await store.close()

    middleware = []
    if settings.cors_origin_list:
        # Third-party web front ends call the API from their own origins. Tokens travel
        # in the Authorization header, never in cookies, so no credentials are allowed.
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=settings.cors_origin_list,
                allow_methods=["GET", "POST", "PATCH"],
                allow_headers=["Authorization", "Content-Type", "If-None-Match"],
                expose_headers=["ETag", "Link", "Location", "Retry-After"],
                max_age=600,
            )
        )
    # Inside CORS, so that a browser can read their refusals.
    middleware.append(
        Middleware(
            RequestBodyLimit,
            max_bytes=MAX_BODY_BYTES,
            timeout=settings.body_timeout_seconds,
            refusal=problem,
        )
    )
    pages = page_buckets(settings)
    middleware.append(Middleware(RateLimits, settings=settings, refuse=rate_limited, changes=pages))
    app = Starlette(
        routes=ROUTES,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={
            ServiceError: service_error,
            HTTPException: http_error,
            Exception: internal_error,
        },
    )
    if WEB_CLIENT.is_dir():
        # The router's fallback rather than a route: a route matching "/" would answer
        # 404 where an API path exists for another method, instead of 405.
        app.router.default = StaticFiles(directory=WEB_CLIENT, html=True)
    app.state.page_buckets = pages
    return app
