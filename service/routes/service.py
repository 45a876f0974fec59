"""HTTP routes of the service itself: the API index, health, readiness, metrics and the
OpenAPI document."""

from __future__ import annotations

from prometheus_client import CONTENT_TYPE_LATEST
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..http import json_response
from ..openapi import openapi_document
from ..store import StoreUnavailable
from .games import games_of


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


INDEX_ROUTES = [Route("/api", index)]
SERVICE_ROUTES = [
    Route("/healthz", health),
    Route("/readyz", ready),
    Route("/openapi.json", openapi),
    Route("/metrics", metrics),
]
