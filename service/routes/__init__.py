"""Every HTTP and WebSocket route of the service, in the order they are matched."""

from __future__ import annotations

from starlette.routing import BaseRoute, WebSocketRoute

from ..ws import websocket_endpoint
from .arenas import ARENA_ROUTES
from .games import GAME_ROUTES
from .hints import HINT_ROUTES
from .pairing import PAIRING_ROUTES
from .players import PLAYER_ROUTES
from .races import RACE_ROUTES
from .service import INDEX_ROUTES, SERVICE_ROUTES

ROUTES: list[BaseRoute] = [
    *INDEX_ROUTES,
    *GAME_ROUTES,
    *RACE_ROUTES,
    *SERVICE_ROUTES,
    WebSocketRoute("/ws", websocket_endpoint),
    *PLAYER_ROUTES,
    *HINT_ROUTES,
    *PAIRING_ROUTES,
    *ARENA_ROUTES,
]
