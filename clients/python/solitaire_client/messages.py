"""What a :class:`~solitaire_client.connection.Connection` carries, and to whom: the
messages of the service it reads, and the subscriptions (game sessions, race watches) it
routes them to."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from pydantic import TypeAdapter

from service.protocol import Change
from service.protocol.ws import (
    ArenaStandingsMessage,
    ErrorMessage,
    HintAnswer,
    PairedMessage,
    PongMessage,
    RaceMessage,
    RaceProgressMessage,
    ResultMessage,
    SeekAnswer,
    ServerMessage,
    SnapshotMessage,
    SubscribedMessage,
    UnsubscribedMessage,
    WelcomeMessage,
)

from .errors import ProtocolError

AnyServerMessage = (
    WelcomeMessage
    | SubscribedMessage
    | SnapshotMessage
    | Change
    | ResultMessage
    | UnsubscribedMessage
    | ErrorMessage
    | PongMessage
    | HintAnswer
    | RaceMessage
    | RaceProgressMessage
    | SeekAnswer
    | PairedMessage
    | ArenaStandingsMessage
)
SERVER_MESSAGE: TypeAdapter[AnyServerMessage] = TypeAdapter(ServerMessage)

Send = Callable[[dict[str, Any]], Awaitable[None]]
"""Sends one JSON message on the current connection."""


class Subscription(Protocol):
    """Something that follows a game or race over a :class:`Connection`."""

    async def on_connected(self, send: Send) -> None:
        """A (new) connection is up: subscribe again, resuming where it left off."""

    async def on_message(self, message: AnyServerMessage) -> None:
        """Every message from the service, in order; ignore those for others."""

    async def on_rate_limited(self, send: Send) -> None:
        """The service ignored a message: re-send an unanswered subscribe."""

    def on_fatal(self, error: ProtocolError) -> None:
        """The connection is gone for good."""
