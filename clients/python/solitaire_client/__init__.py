"""Python SDK and terminal client for the Double Solitaire / Solitaire Réfléchi service.

* :class:`ServiceClient` — the REST API (games, races, health) as typed async calls.
* :class:`GameSession` — play or watch a game over WebSocket with a live local state.
* :class:`RaceSession` — follow a race and send race commands.
* :class:`Connection` — the resilient WebSocket connection sessions can share.
* :class:`SeekSession` — race someone now (quick pairing) over a connection.

Messages are parsed into the service's own pydantic models (``service.protocol*``).
"""

from __future__ import annotations

from .connection import Connection
from .errors import (
    AlreadySeeking,
    InvalidAction,
    NotFound,
    ProtocolError,
    RuleRejected,
    ServiceUnavailable,
    SessionClosed,
    StaleVersion,
    Unauthorized,
)
from .race import RaceSession
from .rest import DEFAULT_URL, ServiceClient, new_request_id, websocket_url
from .seeking import SeekCancelled, SeekLost, SeekSession
from .session import GameSession
from .types import Action, ActionLike

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_URL",
    "Action",
    "ActionLike",
    "AlreadySeeking",
    "Connection",
    "GameSession",
    "InvalidAction",
    "NotFound",
    "ProtocolError",
    "RaceSession",
    "RuleRejected",
    "SeekCancelled",
    "SeekLost",
    "SeekSession",
    "ServiceClient",
    "ServiceUnavailable",
    "SessionClosed",
    "StaleVersion",
    "Unauthorized",
    "new_request_id",
    "websocket_url",
]
