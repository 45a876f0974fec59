"""Refusals: ``ServiceError`` and the refusals that several layers raise.

A ``ServiceError`` carries a stable code, an HTTP status and extra fields; the HTTP layer
turns it into problem details and the WebSocket into an ``error`` or a rejected
``result``. The game, race and player layers all raise these, so they live below them.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

from . import engine
from .protocol import ErrorCode
from .store import StoreUnavailable
from .support.metrics import Metrics

T = TypeVar("T")  # what a store read returns


class ServiceError(Exception):
    """A refused request: a stable code, an HTTP status and extra fields for the body."""

    def __init__(self, code: ErrorCode, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.message = message
        self.extra = {k: v for k, v in extra.items() if v is not None}


class StoreRefusal:
    """The 503 ``store_unavailable`` that a layer answers when the store cannot be reached.

    Made once per layer: the games layer, which meets most outages, also logs each one
    and counts it (``solitaire_store_errors``); the others only refuse. ``from_store``
    applies it to one store call; a site that must also undo something of its own on a
    failure catches ``StoreUnavailable`` and raises ``refusal(exc)``.
    """

    __slots__ = ("log", "message", "metrics")

    def __init__(
        self, message: str, log: logging.Logger | None = None, metrics: Metrics | None = None
    ) -> None:
        self.message = message
        self.log = log
        self.metrics = metrics

    def __call__(self, exc: StoreUnavailable) -> ServiceError:
        if self.log is not None:
            self.log.warning("store unavailable: %s", exc)
        if self.metrics is not None:
            self.metrics.store_errors.inc()
        return ServiceError(ErrorCode.STORE_UNAVAILABLE, 503, self.message)


# The answer of the layers whose outages are neither logged nor counted (players, the
# analysis).
STORE_REFUSAL = StoreRefusal("the store is unavailable; retry")


async def from_store(call: Awaitable[T], refusal: StoreRefusal = STORE_REFUSAL) -> T:
    """Awaits one store call; an unreachable store becomes ``refusal`` (503)."""
    try:
        return await call
    except StoreUnavailable as exc:
        raise refusal(exc) from exc


def invalid_action(error: engine.InvalidActionError) -> ServiceError:
    """The one answer, over HTTP and the WebSocket, to an action that cannot be understood
    (bad notation, unknown pile, empty pile), with the engine's reason; an action the
    rules forbid is ``RuleRejected`` instead."""
    return ServiceError(ErrorCode.INVALID_ACTION, 422, error.message, reason=error.code)


def request_id_reused(version: int) -> ServiceError:
    # Answering "duplicate" here would silently drop a new action of a client whose
    # request counter restarted; it must learn that its ids collide.
    return ServiceError(
        ErrorCode.REQUEST_ID_REUSED,
        409,
        f"this request id already named another request (which made version {version}); "
        "request ids must be unique within a game",
    )


def race_not_started() -> ServiceError:
    return ServiceError(ErrorCode.RACE_NOT_STARTED, 409, "the race has not started yet")


def race_running() -> ServiceError:
    return ServiceError(
        ErrorCode.RACE_RUNNING, 403, "this race game stays private until the race is over"
    )


def daily_running() -> ServiceError:
    return ServiceError(
        ErrorCode.DAILY_RUNNING,
        403,
        "a daily challenge game stays private to its player until the day is over",
    )


def game_not_over() -> ServiceError:
    return ServiceError(
        ErrorCode.GAME_NOT_OVER,
        409,
        "this game was dealt from a secret seed: its code and record are shown once the game "
        "is over (won or resigned)",
    )


class RuleRejected(ServiceError):
    def __init__(self, error: engine.IllegalActionError, game_id: str, version: int) -> None:
        super().__init__(
            ErrorCode.RULE_VIOLATION,
            409,
            error.message_en,
            rule_id=error.rule_id,
            message_en=error.message_en,
            message_fi=error.message_fi,
            current_version=version,
        )
        self.rejection = {
            "rule_id": error.rule_id,
            "message_en": error.message_en,
            "message_fi": error.message_fi,
        }
        self.game_id = game_id
        self.version = version


def not_found(game_id: str) -> ServiceError:
    # The id is echoed back: it is the caller's own input, never a secret.
    return ServiceError(ErrorCode.NOT_FOUND, 404, f"no game with id {game_id!r}")
