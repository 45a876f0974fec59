"""The wire protocol's shared core: what every message is made of.

Ids and card text, the ``Model`` base and ``ClientModel``, the strict base of what a
client sends (``strict``), actions, the public state and hints, events, JSON
Patch operations, error codes, problem details and health, and ``Change``, which
WebSocket pushes and REST returns alike; with the bridge between wire actions and engine
actions. The bodies built from them are this package's modules: ``games`` (REST bodies
of games), ``races`` (races), ``players`` (players) and ``ws`` (WebSocket messages).
Together they are the single source of ``schemas/`` (``python -m service.schemas``) and
of the OpenAPI document. The service builds outbound messages as plain dicts for speed;
the test suite validates every one of them against the committed schemas.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, TypeAdapter, ValidationError

from .. import engine
from .errors import ErrorCode as ErrorCode
from .strict import WHOLE

PROTOCOL_VERSION = 1

CardText = Annotated[
    str, Field(pattern=r"^[A23456789TJQK][SHDC]$", description="Rank then suit, e.g. `TH`.")
]
PileName = Annotated[
    str,
    Field(
        # Notation is read in any letter case (docs/notation.md), so pile names are too.
        pattern=r"^([wWsSfF]|[cCfF][0-9]{1,2})$",
        description="`w` waste, `s` stock, `c1`.. columns, `f` foundation area, `f1`.. "
        "foundation places; any letter case.",
    ),
]
RequestId = Annotated[str, Field(min_length=1, max_length=64, description="Client request id.")]
GameId = Annotated[str, Field(min_length=1, max_length=64)]
Notation = Annotated[
    str, Field(min_length=1, max_length=16, description="Action in notation, e.g. `c3>f1`.")
]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class ClientModel(Model):
    """What a client sends: read strictly, with no conversion (``.strict``)."""

    model_config = ConfigDict(strict=True)


# --------------------------------------------------------------------------- actions


class MoveAction(ClientModel):
    """Move cards between piles; to the foundations, `to` may be just `f`."""

    type: Literal["move"]
    from_: PileName = Field(alias="from")
    to: PileName
    count: Annotated[int, Field(ge=1, le=52), WHOLE] = Field(
        1, description="Cards taken from the top of a column."
    )


class DrawAction(ClientModel):
    """Tap the stock: draws 1 or 3 cards, or recycles the waste when the stock is empty."""

    type: Literal["draw"]


class RecycleAction(ClientModel):
    """Turn the waste back into the stock (only when the stock is empty)."""

    type: Literal["recycle"]


class TapAction(ClientModel):
    """Tap (or double tap) the top card of a column or of the waste."""

    type: Literal["tap"]
    from_: PileName = Field(alias="from")
    double: StrictBool = False


class ResignAction(ClientModel):
    """End the game where it stands: final like a won game (no more actions or undo)."""

    type: Literal["resign"]


ActionObject = Annotated[
    MoveAction | DrawAction | RecycleAction | TapAction | ResignAction,
    Field(discriminator="type"),
]
ActionInput = Annotated[
    ActionObject | Notation,
    Field(description="An action object, or the same action in notation (`c3:2>c5`, `d`)."),
]

ACTION_INPUT: TypeAdapter[Any] = TypeAdapter(ActionInput)


# --------------------------------------------------------------------------- state


class ColumnView(Model):
    down: int = Field(ge=0, description="Number of face-down cards (their faces are secret).")
    up: list[CardText] = Field(description="Face-up cards, bottom to top.")


class PublicState(Model):
    """Everything a player may see. Face-down cards and the stock appear only as counts."""

    game: Literal["DS", "TF"]
    draw: Literal[1, 3]
    scoring: Literal["normal", "vegas"]
    columns: list[ColumnView]
    stock: int = Field(ge=0, description="Cards left in the stock.")
    waste: list[CardText] = Field(description="Waste pile, bottom to top; the last is playable.")
    foundations: list[CardText | None] = Field(
        description="Top card of each foundation place (DS: 8 places, two per suit in the "
        "order S S H H D D C C; TF: 4 places S H D C), or null when empty."
    )
    score: int
    score_display: str = Field(description="`1220`, or Vegas dollars: `$416`, `$0`, `-$104`.")
    moves: int = Field(ge=0)
    undo_available: int = Field(ge=0, description="How many actions can be undone now.")
    won: bool
    resigned: bool = Field(
        description="The player resigned: the game is over and final, like a won game."
    )


class HintView(Model):
    """One suggested action, worked out from what the player can see and has seen on the
    way, and nothing else."""

    action: Notation
    action_object: ActionObject | None = Field(description="Object form of `action`.")
    reason: str = Field(description="`safe_home`, `uncover`, `draw`... (docs/protocol.md).")
    message_en: str
    message_fi: str


class NoHintView(Model):
    """Why there is no hint to give."""

    reason: Literal["no_useful_move", "game_over"] = Field(
        description="`no_useful_move`: the game goes on, but no move the player can see is "
        "of use and the stock has no new card to show; `game_over`: won or resigned."
    )
    message_en: str
    message_fi: str


NO_HINT_DESCRIPTION = "Why `hint` is null: set exactly when it is (docs/protocol.md)."


# --------------------------------------------------------------------------- events


class MovedEvent(Model):
    type: Literal["moved"]
    from_: PileName = Field(alias="from")
    to: PileName
    cards: list[CardText]


class FlippedEvent(Model):
    type: Literal["flipped"]
    pile: PileName
    card: CardText


class TurnedDownEvent(Model):
    """An undo turned the top card of a column face down again."""

    type: Literal["turned_down"]
    pile: PileName


class DrewEvent(Model):
    type: Literal["drew"]
    cards: list[CardText]


class UndrewEvent(Model):
    type: Literal["undrew"]
    count: int


class RecycledEvent(Model):
    type: Literal["recycled"]
    count: int


class UnrecycledEvent(Model):
    type: Literal["unrecycled"]
    count: int


class WonEvent(Model):
    type: Literal["won"]


class ResignedEvent(Model):
    type: Literal["resigned"]


class UndoneEvent(Model):
    type: Literal["undone"]
    action: Notation


Event = Annotated[
    MovedEvent
    | FlippedEvent
    | TurnedDownEvent
    | DrewEvent
    | UndrewEvent
    | RecycledEvent
    | UnrecycledEvent
    | WonEvent
    | ResignedEvent
    | UndoneEvent,
    Field(discriminator="type"),
]


class AddOperation(Model):
    op: Literal["add"]
    path: str = Field(description="JSON Pointer; `/-` appends to a list.")
    value: Any


class RemoveOperation(Model):
    op: Literal["remove"]
    path: str


class ReplaceOperation(Model):
    op: Literal["replace"]
    path: str
    value: Any


PatchOperation = Annotated[
    AddOperation | RemoveOperation | ReplaceOperation,
    Field(
        discriminator="op",
        description="One RFC 6902 operation; the service emits only add, remove and replace.",
    ),
]


class ScoreChange(Model):
    delta: int
    total: int
    display: str


class Rejection(Model):
    rule_id: str = Field(description="Id of the rule that blocks the action (docs/rules.md).")
    message_en: str
    message_fi: str


# --------------------------------------------------------------------------- errors and health


class Problem(Model):
    """RFC 9457 problem details, the body of every HTTP error."""

    type: str
    title: str
    status: int
    code: ErrorCode
    detail: str
    rule_id: str | None = None
    message_en: str | None = None
    message_fi: str | None = None
    current_version: int | None = None
    reason: str | None = Field(
        None, description="For `invalid_action`: `unknown_pile`, `bad_index`, `empty_pile`..."
    )
    retry_after: int | None = Field(
        None, description="For `rate_limited`: seconds to wait (also the `Retry-After` header)."
    )
    seek_id: str | None = Field(
        None, description="For `already_seeking`: your seek already waiting (in any mode)."
    )


class Health(Model):
    status: Literal["ok", "unavailable"]
    store: str


# --------------------------------------------------------------------------- changes


class Change(Model):
    """One accepted action or undo, pushed to every subscriber of the game."""

    type: Literal["change"]
    game_id: GameId
    version: int = Field(description="Version after this change; exactly one more than before.")
    notation: Notation = Field(description="The action as applied (what a tap became).")
    action: ActionObject | None = Field(description="Object form of `notation`; null for undo.")
    events: list[Event]
    patch: list[PatchOperation] = Field(
        description="RFC 6902 patch from the previous public state to the new one."
    )
    score: ScoreChange


# --------------------------------------------------------------------------- engine bridge


def parse_action_input(value: Any) -> engine.Action:
    """An engine action from a validated ``ActionInput`` (object or notation)."""
    if isinstance(value, str):
        return engine.parse_action(value)
    if isinstance(value, MoveAction):
        return engine.Move(engine.parse_pile(value.from_), engine.parse_pile(value.to), value.count)
    if isinstance(value, TapAction):
        return engine.Tap(engine.parse_pile(value.from_), value.double)
    if isinstance(value, DrawAction):
        return engine.Draw()
    if isinstance(value, ResignAction):
        return engine.Resign()
    return engine.Recycle()


def action_object(action: engine.Action) -> dict[str, Any] | None:
    """The wire object of an engine action (``None`` for undo, which has its own message)."""
    if isinstance(action, engine.Move):
        return {
            "type": "move",
            "from": str(action.source),
            "to": str(action.target),
            "count": action.count,
        }
    if isinstance(action, engine.Draw):
        return {"type": "draw"}
    if isinstance(action, engine.Recycle):
        return {"type": "recycle"}
    if isinstance(action, engine.Tap):
        return {"type": "tap", "from": str(action.source), "double": action.double}
    if isinstance(action, engine.Resign):
        return {"type": "resign"}
    return None


def describe_validation_error(exc: ValidationError) -> str:
    """Where and what was wrong, without echoing the input back."""
    parts = []
    for error in exc.errors(include_url=False, include_input=False)[:3]:
        where = ".".join(str(p) for p in error["loc"]) or "message"
        parts.append(f"{where}: {error['msg']}")
    return "; ".join(parts)
