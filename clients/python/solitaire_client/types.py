"""Shared type aliases and small helpers for actions."""

from __future__ import annotations

from typing import Any, TypeAlias

from pydantic import TypeAdapter, ValidationError

from service.protocol import (
    ActionObject,
    DrawAction,
    MoveAction,
    RecycleAction,
    ResignAction,
    TapAction,
)

from .errors import InvalidAction

Action: TypeAlias = MoveAction | DrawAction | RecycleAction | TapAction | ResignAction
"""An action object of the protocol (``service.protocol.ActionObject``)."""

ActionLike: TypeAlias = str | Action | dict[str, Any]
"""Notation (``c3:2>c5``, ``d``, ``tc3``), an action model, or its JSON object form."""

_ACTION_OBJECT: TypeAdapter[Action] = TypeAdapter(ActionObject)


def action_payload(action: ActionLike) -> str | Action:
    """Notation is passed through; a JSON object is validated into its action model."""
    if isinstance(action, str | MoveAction | DrawAction | RecycleAction | TapAction | ResignAction):
        return action
    try:
        return _ACTION_OBJECT.validate_python(action)
    except ValidationError as exc:
        raise InvalidAction("bad_action", f"not an action object: {exc}") from exc
