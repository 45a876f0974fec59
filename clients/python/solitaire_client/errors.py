"""Typed errors for every refusal the service can answer with, over HTTP or WebSocket.

Every error is a :class:`ProtocolError` carrying the service's stable ``code``
(``service.protocol.ErrorCode`` values) and its human-readable ``message``; the
subclasses add the fields that matter for their case.
"""

from __future__ import annotations

from typing import Any

from service.protocol import ErrorCode, Problem, Rejection
from service.protocol.ws import ErrorMessage


class ProtocolError(Exception):
    """The service refused a request or spoke in a way the client cannot follow."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class RuleRejected(ProtocolError):
    """A well-formed action that a rule of the game forbids."""

    def __init__(self, rule_id: str, message_en: str, message_fi: str, version: int | None) -> None:
        super().__init__(ErrorCode.RULE_VIOLATION.value, f"{rule_id}: {message_en}")
        self.rule_id = rule_id
        self.message_en = message_en
        self.message_fi = message_fi
        self.version = version

    def message_in(self, lang: str) -> str:
        """The rejection message in ``en`` or ``fi``."""
        return self.message_fi if lang == "fi" else self.message_en

    @classmethod
    def from_rejection(cls, rejection: Rejection, version: int | None) -> RuleRejected:
        return cls(rejection.rule_id, rejection.message_en, rejection.message_fi, version)


class InvalidAction(ProtocolError):
    """An action the service cannot understand (bad notation, unknown pile, bad index)."""

    def __init__(self, reason: str | None, message: str = "") -> None:
        super().__init__(ErrorCode.INVALID_ACTION.value, message or (reason or "invalid action"))
        self.reason = reason


class StaleVersion(ProtocolError):
    """``expected_version`` did not match; ``current_version`` is where the game is."""

    def __init__(self, current_version: int | None, message: str = "") -> None:
        super().__init__(
            ErrorCode.STALE_VERSION.value,
            message or f"the game is at version {current_version}",
        )
        self.current_version = current_version


class Unauthorized(ProtocolError):
    """A game, race or player token is missing or wrong (or the subscription is a
    watcher's)."""


class NotFound(ProtocolError):
    """No such game (it may have expired)."""


class AlreadySeeking(ProtocolError):
    """A seek (quick pairing) while a seek of the player waits, in any mode: ``seek_id``
    names it when the service said which (over REST)."""

    def __init__(self, message: str, seek_id: str | None = None) -> None:
        super().__init__(ErrorCode.ALREADY_SEEKING.value, message)
        self.seek_id = seek_id


class ServiceUnavailable(ProtocolError):
    """The service or its store cannot be reached; retrying later may work."""


class SessionClosed(ProtocolError):
    """The WebSocket session was closed (by the caller, or after a fatal error)."""

    def __init__(self, message: str = "the session is closed") -> None:
        super().__init__("session_closed", message)


_UNAUTHORIZED = {ErrorCode.UNAUTHORIZED.value, ErrorCode.NOT_PLAYER.value}


def error_from(
    code: str,
    message: str,
    *,
    current_version: int | None = None,
    reason: str | None = None,
    rule_id: str | None = None,
    message_en: str | None = None,
    message_fi: str | None = None,
    seek_id: str | None = None,
) -> ProtocolError:
    """The typed error for one service error ``code``."""
    if code == ErrorCode.RULE_VIOLATION.value and rule_id is not None:
        return RuleRejected(rule_id, message_en or message, message_fi or message, current_version)
    if code == ErrorCode.INVALID_ACTION.value:
        return InvalidAction(reason, message)
    if code == ErrorCode.STALE_VERSION.value:
        return StaleVersion(current_version, message)
    if code in _UNAUTHORIZED:
        return Unauthorized(code, message)
    if code == ErrorCode.NOT_FOUND.value:
        return NotFound(code, message)
    if code == ErrorCode.STORE_UNAVAILABLE.value:
        return ServiceUnavailable(code, message)
    if code == ErrorCode.ALREADY_SEEKING.value:
        return AlreadySeeking(message, seek_id)
    return ProtocolError(code, message)


def error_from_problem(problem: Problem) -> ProtocolError:
    return error_from(
        problem.code.value,
        problem.detail,
        current_version=problem.current_version,
        reason=problem.reason,
        rule_id=problem.rule_id,
        message_en=problem.message_en,
        message_fi=problem.message_fi,
        seek_id=problem.seek_id,
    )


def error_from_message(message: ErrorMessage) -> ProtocolError:
    return error_from(
        message.code.value,
        message.message,
        current_version=message.current_version,
        reason=message.reason,
        message_en=message.message_en,
        message_fi=message.message_fi,
        seek_id=message.seek_id,
    )


def error_from_status(status: int, body: Any) -> ProtocolError:
    """An error for an HTTP answer whose body is not a problem document."""
    text = body if isinstance(body, str) else repr(body)
    if status == 404:
        return NotFound(ErrorCode.NOT_FOUND.value, text or "not found")
    if status == 401:
        return Unauthorized(ErrorCode.UNAUTHORIZED.value, text or "unauthorized")
    if status >= 500:
        return ServiceUnavailable(ErrorCode.STORE_UNAVAILABLE.value, text or f"HTTP {status}")
    return ProtocolError(f"http_{status}", text or f"HTTP {status}")
