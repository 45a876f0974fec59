"""The application: its parts wired together in the lifespan, its middleware and its
error answers."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from .analysis import Analysis
from .arenas import Arenas
from .arenas.waves import ArenaWaves
from .config import Settings
from .errors import ServiceError
from .games import Games
from .games.reads import game_store_refusal
from .guards.limits import RequestBodyLimit
from .guards.rates import AddressBuckets, RateLimits, page_buckets, retry_after
from .hints import Hints
from .http import MAX_BODY_BYTES, problem
from .pairing import Pairing
from .players import Players
from .players.attempts import DAILY_MODES, DailyAttempts
from .players.boards import Boards
from .players.careers import Careers
from .players.daily import Daily
from .players.ratings import Ratings
from .players.stats import Results
from .protocol import ErrorCode
from .races import Races
from .races.gate import RaceGate
from .races.updates import RaceUpdates
from .routes import ROUTES
from .store import Store, open_store
from .support.metrics import Metrics
from .ws.following import ArenaFollowers

log = logging.getLogger("service")


async def service_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ServiceError)
    request.app.state.games.metrics.errors.labels(exc.code.value).inc()
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
    """The answer to a request over its client address's limit (``guards.rates.RateLimits``)."""
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


# The web front end, a client of the published protocol like any other, served at "/":
# clients/web in a source tree, the package data service/web when installed from a wheel.
_SOURCE_WEB_CLIENT = Path(__file__).resolve().parent.parent / "clients" / "web"
WEB_CLIENT = _SOURCE_WEB_CLIENT if _SOURCE_WEB_CLIENT.is_dir() else Path(__file__).parent / "web"
# The JavaScript SDK, which the web front end imports, served unbuilt at /sdk/ for any
# browser page: clients/js/src in a source tree, the package data service/sdk in a wheel.
_SOURCE_SDK = Path(__file__).resolve().parent.parent / "clients" / "js" / "src"
SDK = _SOURCE_SDK if _SOURCE_SDK.is_dir() else Path(__file__).parent / "sdk"


def _middleware(settings: Settings, pages: AddressBuckets) -> list[Middleware]:
    """Outermost first: CORS, then the bounds on request bodies, then the rate limits."""
    middleware: list[Middleware] = []
    if settings.cors_origin_list:
        # Third-party web front ends call the API from their own origins. Tokens travel
        # in the Authorization header, never in cookies, so no credentials are allowed.
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=settings.cors_origin_list,
                allow_methods=["GET", "POST", "PATCH", "DELETE"],
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
    middleware.append(Middleware(RateLimits, settings=settings, refuse=rate_limited, changes=pages))
    return middleware


@dataclass(frozen=True, slots=True)
class Parts:
    """The service's parts, built once per application by ``assemble``."""

    analysis: Analysis
    games: Games
    races: Races
    players: Players
    boards: Boards
    results: Results
    careers: Careers
    daily: Daily
    hints: Hints
    ratings: Ratings
    pairing: Pairing
    arenas: Arenas
    arena_waves: ArenaWaves
    arena_followers: ArenaFollowers


def assemble(
    store: Store, settings: Settings, metrics: Metrics, clock: Callable[[], float]
) -> Parts:
    """Every part, each handed what it needs when it is made, lowest first. ``Games`` is
    handed the two layers it calls back (the race gate, the careers), which are built
    from the store and the records alone; the daily challenge is handed the careers'
    counting of the attempts still open at the end of a day."""

    def clock_ms() -> int:
        return int(clock() * 1000)

    analysis = Analysis(store.records, settings, metrics)
    players = Players(store.records, settings, clock)
    ratings = Ratings(store, settings, players)
    race_updates = RaceUpdates(store, game_store_refusal(metrics), clock_ms, ratings)
    boards = Boards(store.records)
    results = Results(store.records)
    attempts = DailyAttempts(store.records, boards, clock)
    careers = Careers(results, attempts, players, store, analysis, settings)
    games = Games(
        store,
        settings,
        races=RaceGate(race_updates, clock_ms, settings.game_ttl_seconds),
        players=careers,
        metrics=metrics,
        clock=clock,
    )
    races = Races(games, race_updates, settings, analysis, clock_ms)
    arenas = Arenas(store, races.lobby, players, ratings, settings, clock_ms)
    return Parts(
        analysis=analysis,
        games=games,
        races=races,
        players=players,
        boards=boards,
        results=results,
        careers=careers,
        daily=Daily(games, players, attempts, analysis, careers),
        hints=Hints(games, analysis, players),
        ratings=ratings,
        pairing=Pairing(store, races.lobby, players, ratings, settings, clock_ms),
        arenas=arenas,
        arena_waves=ArenaWaves(arenas, race_updates),
        arena_followers=ArenaFollowers(arenas),
    )


def create_app(
    settings: Settings | None = None, clock: Callable[[], float] = time.time
) -> Starlette:
    """The application; ``clock`` (seconds since the epoch) is the server's time: what
    day it is, when games were dealt and races start."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = open_store(settings)
        await store.open()
        app.state.settings = settings
        metrics = Metrics()
        metrics.active_games.set_function(lambda: store.subscribed_games)
        metrics.follow_feed(lambda: store.feed_health)
        parts = assemble(store, settings, metrics, clock)
        for name in Parts.__slots__:
            setattr(app.state, name, getattr(parts, name))
        parts.analysis.start_refilling(DAILY_MODES)
        parts.pairing.start()
        await parts.arena_waves.start()
        try:
            yield
        finally:
            await parts.arena_waves.close()
            await parts.arena_followers.close()
            await parts.pairing.close()
            await parts.analysis.close()
            await parts.games.close()
            await parts.races.close()
            await store.close()

    pages = page_buckets(settings)
    app = Starlette(
        routes=[*ROUTES, Mount("/sdk", StaticFiles(directory=SDK))] if SDK.is_dir() else ROUTES,
        middleware=_middleware(settings, pages),
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
