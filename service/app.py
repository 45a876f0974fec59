"""HTTP routes and the application factory."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, TypeVar

import orjson
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel, ValidationError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from . import engine
from .config import Settings
from .games import Games, ServiceError
from .metrics import Metrics
from .openapi import openapi_document
from .protocol import (
    ActionRequest,
    CreateGameRequest,
    CreateRaceRequest,
    ErrorCode,
    JoinRaceRequest,
    ReadyRequest,
    UndoRequest,
    describe_validation_error,
    parse_action_input,
)
from .races import Races
from .store import StoreUnavailable, open_store
from .ws import websocket_endpoint

log = logging.getLogger("service")
M = TypeVar("M", bound=BaseModel)

MAX_BODY_BYTES = 16 * 1024
PROBLEM_TYPE = "https://solitaire.invalid/problems/"


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(orjson.dumps(data), status, headers, media_type="application/json")


def problem(
    code: ErrorCode, status: int, detail: str, extra: dict[str, Any] | None = None
) -> Response:
    body = {
        "type": PROBLEM_TYPE + code.value,
        "title": code.value.replace("_", " "),
        "status": status,
        "code": code.value,
        "detail": detail,
        **(extra or {}),
    }
    return Response(orjson.dumps(body), status, media_type="application/problem+json")


async def read_body(request: Request, model: type[M]) -> M:
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        raise ServiceError(
            ErrorCode.FRAME_TOO_LARGE, 413, f"request bodies are limited to {MAX_BODY_BYTES} bytes"
        )
    try:
        data = orjson.loads(raw or b"{}")
    except orjson.JSONDecodeError as exc:
        raise ServiceError(ErrorCode.BAD_JSON, 400, f"body is not valid JSON: {exc}") from exc
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ServiceError(ErrorCode.BAD_MESSAGE, 422, describe_validation_error(exc)) from exc


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def races_of(request: Request) -> Races:
    races: Races = request.app.state.races
    return races


def games_of(request: Request) -> Games:
    games: Games = request.app.state.games
    return games


# --------------------------------------------------------------------------- routes


async def create_game(request: Request) -> Response:
    body = await read_body(request, CreateGameRequest)
    if body.code is not None:
        _check_code_agrees(body)
    created = await games_of(request).create(body.game, body.draw, body.scoring, body.code)
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
    return json_response(changes)


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


async def get_legal_actions(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    return json_response(await games_of(request).legal_actions(game_id, bearer_token(request)))


async def get_record(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    return json_response(await games_of(request).record(game_id, bearer_token(request)))


async def create_race(request: Request) -> Response:
    body = await read_body(request, CreateRaceRequest)
    joined = await races_of(request).create(
        name=body.name.strip(),
        game=body.game,
        draw=body.draw,
        scoring=body.scoring,
        max_players=body.max_players,
        time_limit_seconds=body.time_limit_seconds,
    )
    return json_response(joined, 201, {"location": f"/races/{joined['race_id']}"})


async def join_race(request: Request) -> Response:
    body = await read_body(request, JoinRaceRequest)
    return json_response(await races_of(request).join(body.join_code, body.name.strip()), 201)


async def get_race(request: Request) -> Response:
    race_id = request.path_params["race_id"]
    return json_response(await races_of(request).state(race_id, bearer_token(request)))


async def race_ready(request: Request) -> Response:
    body = await read_body(request, ReadyRequest)
    race_id = request.path_params["race_id"]
    races = races_of(request)
    return json_response(await races.set_ready(race_id, bearer_token(request), body.ready))


async def race_start(request: Request) -> Response:
    race_id = request.path_params["race_id"]
    return json_response(await races_of(request).start(race_id, bearer_token(request)))


async def race_resign(request: Request) -> Response:
    race_id = request.path_params["race_id"]
    return json_response(await races_of(request).resign(race_id, bearer_token(request)))


async def race_rematch(request: Request) -> Response:
    race_id = request.path_params["race_id"]
    return json_response(await races_of(request).rematch(race_id, bearer_token(request)))


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
    return problem(exc.code, exc.status, exc.message, exc.extra)


_HTTP_CODES = {404: ErrorCode.NOT_FOUND, 405: ErrorCode.METHOD_NOT_ALLOWED}


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = _HTTP_CODES.get(exc.status_code, ErrorCode.BAD_MESSAGE)
    return problem(code, exc.status_code, str(exc.detail))


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
    Route("/games/{game_id}/legal-actions", get_legal_actions, methods=["GET"]),
    Route("/games/{game_id}/record", get_record, methods=["GET"]),
    Route("/races", create_race, methods=["POST"]),
    Route("/races/join", join_race, methods=["POST"]),
    Route("/races/{race_id}", get_race, methods=["GET"]),
    Route("/races/{race_id}/ready", race_ready, methods=["POST"]),
    Route("/races/{race_id}/start", race_start, methods=["POST"]),
    Route("/races/{race_id}/resign", race_resign, methods=["POST"]),
    Route("/races/{race_id}/rematch", race_rematch, methods=["POST"]),
    Route("/healthz", health),
    Route("/readyz", ready),
    Route("/openapi.json", openapi),
    Route("/metrics", metrics),
    WebSocketRoute("/ws", websocket_endpoint),
]

# The web front end, a client of the published protocol like any other, served at "/":
# clients/web in a source tree, the package data service/web when installed from a wheel.
_SOURCE_WEB_CLIENT = Path(__file__).resolve().parent.parent / "clients" / "web"
WEB_CLIENT = _SOURCE_WEB_CLIENT if _SOURCE_WEB_CLIENT.is_dir() else Path(__file__).parent / "web"


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = open_store(settings)
        await store.open()
        app.state.settings = settings
        metrics = Metrics()
        metrics.active_games.set_function(lambda: store.subscribed_games)
        app.state.games = games = Games(store, settings, metrics)
        app.state.races = races = Races(games, settings)
        try:
            yield
        finally:
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
                allow_methods=["GET", "POST"],
                allow_headers=["Authorization", "Content-Type", "If-None-Match"],
                expose_headers=["ETag", "Location"],
                max_age=600,
            )
        )
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
    return app
