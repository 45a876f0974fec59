"""The application: its parts wired together in the lifespan, its middleware and its
error answers."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from .analysis import Analysis
from .config import Settings
from .errors import ServiceError
from .games import Games
from .guards.limits import RequestBodyLimit
from .guards.rates import AddressBuckets, RateLimits, page_buckets, retry_after
from .hints import Hints
from .http import MAX_BODY_BYTES, problem
from .players import Players
from .players.boards import Boards
from .players.careers import Careers, Results
from .players.daily import DAILY_MODES, Daily
from .protocol import ErrorCode
from .races import Races
from .routes import ROUTES
from .store import open_store
from .support.metrics import Metrics

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
    middleware.append(Middleware(RateLimits, settings=settings, refuse=rate_limited, changes=pages))
    return middleware


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
        app.state.analysis = analysis = Analysis(store.records, settings)
        app.state.games = games = Games(store, settings, metrics, clock)
        app.state.races = races = Races(games, settings, analysis)
        app.state.players = players = Players(store.records, settings)
        app.state.boards = boards = Boards(store.records)
        app.state.results = results = Results(store.records, clock)
        app.state.daily = daily = Daily(games, players, boards, store.records, clock, analysis)
        app.state.careers = careers = Careers(
            results, daily, boards, games, analysis, settings.game_ttl_seconds
        )
        app.state.hints = Hints(games, analysis, daily)
        # The only links made after construction, since each closes a cycle: games call
        # back into the races and the careers built on them (games/hooks.py), and the
        # careers count the attempts a daily challenge still has open when its day ends.
        games.races = races
        games.players = careers
        daily.close_attempts = careers.close_attempts
        analysis.start_refilling(DAILY_MODES)
        try:
            yield
        finally:
            await analysis.close()
            await games.close()
            await races.close()
            await store.close()

    pages = page_buckets(settings)
    app = Starlette(
        routes=ROUTES,
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
