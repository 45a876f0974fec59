"""Typed errors of the engine: a broken request versus a request the rules refuse."""

from __future__ import annotations

from .rules import rejection_message


class SolitaireError(Exception):
    """Base class of every error the engine raises on bad input."""


class InvalidActionError(SolitaireError, ValueError):
    """The action cannot be understood: unknown pile, bad index, bad notation.

    ``code`` is a stable machine-readable token (``unknown_pile``, ``bad_index`` ...).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class IllegalActionError(SolitaireError):
    """A well-formed action that a rule forbids; carries the rule id and both messages."""

    def __init__(self, rule_id: str, detail: str = "") -> None:
        message_en, message_fi = rejection_message(rule_id)
        super().__init__(f"{rule_id}: {message_en}" + (f" ({detail})" if detail else ""))
        self.rule_id = rule_id
        self.message_en = message_en
        self.message_fi = message_fi
        self.detail = detail


class InvalidCodeError(SolitaireError, ValueError):
    """A game code that does not follow CODE-1."""


class InvalidModeError(SolitaireError, ValueError):
    """Text that names no mode (``DS.D1N``, ``TF.D3N``...)."""


class InvalidPositionError(SolitaireError, ValueError):
    """Position or serialized-state text that cannot be read back into a game."""
