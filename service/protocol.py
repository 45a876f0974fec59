"""The wire protocol: pydantic models for every REST body and WebSocket message.

These models are the single source of ``schemas/`` (``python -m service.schemas``) and of
the OpenAPI document. The service builds outbound messages as plain dicts for speed; the
test suite validates every one of them against the committed schemas.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from . import engine

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


# --------------------------------------------------------------------------- actions


class MoveAction(Model):
    """Move cards between piles; to the foundations, `to` may be just `f`."""

    type: Literal["move"]
    from_: PileName = Field(alias="from")
    to: PileName
    count: int = Field(1, ge=1, le=52, description="Cards taken from the top of a column.")


class DrawAction(Model):
    """Tap the stock: draws 1 or 3 cards, or recycles the waste when the stock is empty."""

    type: Literal["draw"]


class RecycleAction(Model):
    """Turn the waste back into the stock (only when the stock is empty)."""

    type: Literal["recycle"]


class TapAction(Model):
    """Tap (or double tap) the top card of a column or of the waste."""

    type: Literal["tap"]
    from_: PileName = Field(alias="from")
    double: bool = False


class ResignAction(Model):
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


# --------------------------------------------------------------------------- errors


class ErrorCode(StrEnum):
    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNSUPPORTED_PROTOCOL = "unsupported_protocol"
    HELLO_REQUIRED = "hello_required"
    FRAME_TOO_LARGE = "frame_too_large"
    RATE_LIMITED = "rate_limited"
    TOO_MANY_SUBSCRIPTIONS = "too_many_subscriptions"
    NOT_FOUND = "not_found"
    UNAUTHORIZED = "unauthorized"
    NOT_PLAYER = "not_player"
    NOT_SUBSCRIBED = "not_subscribed"
    BAD_CODE = "bad_code"
    INVALID_ACTION = "invalid_action"
    RULE_VIOLATION = "rule_violation"
    STALE_VERSION = "stale_version"
    GAME_TOO_LONG = "game_too_long"
    STORE_UNAVAILABLE = "store_unavailable"
    RACE_RUNNING = "race_running"
    RACE_FULL = "race_full"
    RACE_STARTED = "race_started"
    RACE_NOT_STARTED = "race_not_started"
    RACE_OVER = "race_over"
    RACE_NOT_FINISHED = "race_not_finished"
    NOT_HOST = "not_host"
    REQUEST_ID_REUSED = "request_id_reused"
    GAME_NOT_OVER = "game_not_over"
    BAD_NAME = "bad_name"
    DAILY_CLOSED = "daily_closed"
    DAILY_RUNNING = "daily_running"
    DAILY_ATTEMPT_USED = "daily_attempt_used"
    WINNABLE_POOL_EMPTY = "winnable_pool_empty"
    HINTS_NOT_ALLOWED = "hints_not_allowed"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    INTERNAL_ERROR = "internal_error"


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


# --------------------------------------------------------------------------- REST bodies


class CreateGameRequest(Model):
    """Give `game`, `draw` and `scoring` for a random deal, or a `code` to replay a deal."""

    game: Literal["DS", "TF"] = "DS"
    draw: Literal[1, 3] = 1
    scoring: Literal["normal", "vegas"] = "normal"
    code: str | None = Field(
        None, max_length=64, examples=["DS1-D1N-AAAAAAB", "TF1-D3N-AAGKBWSOEPIRAEYTGERIURNYFFZJ"]
    )
    secret: bool = Field(
        False,
        description="Deal from a secret 128-bit seed whose code is shown only once the game "
        "is over (won or resigned). Not with `code`.",
    )
    winnable: bool = Field(
        False,
        description="Deal one the solver has won (a secret deal, so also `secret`). Not "
        "with `code`.",
    )


class CreatedGame(Model):
    game_id: GameId
    player_token: str = Field(description="Secret: send as `Authorization: Bearer <token>`.")
    code: str | None = Field(
        description="The game code, shown only to the player; null for a secret deal, whose "
        "code the record reveals once the game is over."
    )
    version: int
    state: PublicState


class GameStateResponse(Model):
    game_id: GameId
    version: int
    state: PublicState


class ActionRequest(Model):
    action: ActionInput
    expected_version: int | None = Field(None, ge=0)
    request_id: RequestId | None = None


class UndoRequest(Model):
    expected_version: int | None = Field(None, ge=0)
    request_id: RequestId | None = None


class LegalAction(Model):
    notation: Notation
    action: ActionObject


class LegalActionsResponse(Model):
    game_id: GameId
    version: int
    actions: list[LegalAction]


class GameRecordResponse(Model):
    game_id: GameId
    code: str
    actions: list[Notation]
    record: str = Field(description="The code followed by every action, space separated.")
    version: int
    won: bool
    resigned: bool


class ReplayAction(Model):
    notation: Notation
    at_ms: int | None = Field(
        description="Server time of the action, in ms after the game was created."
    )


class ReplayResult(Model):
    won: bool
    resigned: bool
    moves: int
    foundations: int = Field(description="Cards on the foundations at the end.")
    score: int
    score_display: str
    duration_ms: int | None = Field(description="From the first action to the last.")


class ReplayResponse(Model):
    """An ended game, to be watched again: replay `actions` from the deal of `code`."""

    game_id: GameId
    code: str
    created_at: int | None = Field(description="Server time the game was created (ms).")
    race_id: str | None
    challenge_id: str | None
    actions: list[ReplayAction]
    result: ReplayResult


class HintView(Model):
    """One suggested action, worked out from what the player can see and nothing else."""

    action: Notation
    action_object: ActionObject | None = Field(description="Object form of `action`.")
    reason: str = Field(description="`safe_home`, `uncover`, `draw`... (docs/protocol.md).")
    message_en: str
    message_fi: str


class HintResponse(Model):
    game_id: GameId
    version: int
    hint: HintView | None = Field(description="Null when nothing is left to suggest.")
    hints_used: int = Field(description="Hints asked for in this game so far.")


class Verdict(Model):
    result: Literal["won", "unwinnable", "unknown"] = Field(
        description="`unwinnable` is a proof; `unknown`: the budget ran out first."
    )
    line: list[Notation] | None = Field(description="A winning line, for `won`.")
    seconds: float = Field(description="CPU seconds the solver spent.")


class AnalysisResponse(Model):
    """Was it winnable? For an ended game only: the line would reveal hidden cards."""

    game_id: GameId
    deal: Verdict = Field(description="From the deal's start.")
    position: Verdict | None = Field(
        description="From where the player stopped (null for a won game)."
    )


class ResignRequest(Model):
    request_id: RequestId | None = None


class Health(Model):
    status: Literal["ok", "unavailable"]
    store: str


# --------------------------------------------------------------------------- races

RaceId = Annotated[str, Field(min_length=1, max_length=64)]
PlayerName = Annotated[str, Field(min_length=1, max_length=32, pattern=r"\S")]


class CreateRaceRequest(Model):
    name: PlayerName = Field(description="Your display name.")
    game: Literal["DS", "TF"] = "DS"
    draw: Literal[1, 3] = 1
    scoring: Literal["normal", "vegas"] = "normal"
    max_players: int = Field(4, ge=2, le=8)
    time_limit_seconds: int | None = Field(None, ge=30, le=86400)
    winnable: bool = Field(False, description="Deal one the solver has won (a secret deal).")


class JoinRaceRequest(Model):
    join_code: str = Field(
        min_length=4,
        max_length=16,
        description="Shared by the host: 8 characters of `ABCDEFGHJKLMNPQRSTUVWXYZ23456789` "
        "(any case; spaces and dashes are ignored).",
    )
    name: PlayerName


class ReadyRequest(Model):
    ready: bool = True


class RacePlayer(Model):
    player_id: str
    name: str
    ready: bool
    state: Literal["waiting", "playing", "won", "resigned", "disconnected"]
    connected: bool = Field(description="Holds a race subscription over WebSocket.")
    finish_ms: int | None = Field(description="Server-measured time from start to win.")
    foundations: int = Field(description="Cards on the foundations.")
    score: int = Field(
        description="Before the start, the opening score: 0 (Normal) or -104 (Vegas)."
    )
    score_display: str = Field(
        description="`score` as the game shows it; before the start `0` (Normal) or "
        "`-$104` (Vegas), never empty."
    )
    moves: int


class RankingEntry(Model):
    rank: int
    player_id: str
    name: str
    state: Literal["waiting", "playing", "won", "resigned"]
    connected: bool
    finish_ms: int | None
    foundations: int
    score: int
    score_display: str
    moves: int


class RaceResult(Model):
    code: str = Field(description="The deal's game code, published once the race is over.")
    ranking: list[RankingEntry]
    records: dict[str, str] = Field(description="Player id -> game record (code and actions).")


class RaceView(Model):
    """The public race. During the race it carries progress only, never boards or code."""

    race_id: RaceId
    join_code: str
    game: Literal["DS", "TF"]
    draw: Literal[1, 3]
    scoring: Literal["normal", "vegas"]
    max_players: int
    time_limit_seconds: int | None
    status: Literal["lobby", "countdown", "running", "finished"]
    host: str = Field(description="Player id of the host.")
    server_time: int = Field(description="Server clock (ms since the epoch) when sent.")
    start_at: int | None = Field(description="Server time the games start (ms).")
    ends_at: int | None = Field(description="Server time of the time limit (ms).")
    finished_at: int | None
    players: list[RacePlayer]
    result: RaceResult | None
    rematch_race_id: str | None


class You(Model):
    """Private to one player: who you are and which game is yours."""

    player_id: str
    game_id: GameId


class RaceJoined(Model):
    race_id: RaceId
    join_code: str
    player_id: str
    player_token: str = Field(description="Secret: Bearer token for the race and your game.")
    game_id: GameId = Field(
        description="Your game. It exists from the moment you join, but reading or playing "
        "it is refused with `race_not_started` until the countdown is over."
    )
    race: RaceView


class RaceResponse(Model):
    race: RaceView
    you: You | None = None


# --------------------------------------------------------------------------- server -> client


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


class ActionAccepted(Model):
    """Answer to an HTTP action or undo."""

    game_id: GameId
    version: int
    notation: Notation
    duplicate: bool = Field(description="True when the request id had already been applied.")
    change: Change | None = Field(description="The change this request made (null if duplicate).")


class ChangesResponse(Model):
    game_id: GameId
    version: int
    recovered: bool = Field(
        description="True: `changes` holds every change after `since`. False: too old or "
        "unknown, and `state` is a full snapshot instead."
    )
    changes: list[Change]
    more: bool = Field(
        False,
        description="True: this page stops before `version` (pages hold at most "
        "`CHANGES_PAGE_SIZE` changes, 50 by default); ask again with `since` = `next_since`.",
    )
    next_since: int | None = Field(
        None, description="With `more`: the version of this page's last change."
    )
    state: PublicState | None = None


class WelcomeMessage(Model):
    type: Literal["welcome"]
    protocol: int
    max_frame_bytes: int
    max_subscriptions: int
    rate_per_second: float
    rate_burst: int
    changes_in_results: bool | None = Field(
        None, description="Present (true) when the `hello` asked for it."
    )


class SubscribedMessage(Model):
    type: Literal["subscribed"]
    id: RequestId
    game_id: GameId
    role: Literal["player", "watcher"]
    version: int
    recovered: bool = Field(
        description="True: the changes after `since` follow. False: a `snapshot` follows."
    )


class SnapshotMessage(Model):
    type: Literal["snapshot"]
    game_id: GameId
    version: int
    state: PublicState


class ResultMessage(Model):
    type: Literal["result"]
    id: RequestId
    game_id: GameId | None = None
    race_id: RaceId | None = None
    status: Literal["accepted", "rejected"]
    version: int | None = Field(
        None,
        description="Game requests: the new version if accepted, the unchanged one if "
        "rejected. Absent for race commands (the race itself arrives as a `race` message).",
    )
    notation: Notation | None = None
    duplicate: bool = False
    rejection: Rejection | None = None
    change: Change | None = Field(
        None,
        description="Only on a connection whose `hello` asked for `changes_in_results`: the "
        "`change` this accepted action made, which that connection then does not get as a "
        "frame of its own. Absent when the action was a duplicate, or when changes made "
        "elsewhere were still on their way to this connection (the `change` frame then "
        "follows them, in version order).",
    )


class UnsubscribedMessage(Model):
    type: Literal["unsubscribed"]
    id: RequestId
    game_id: GameId | None = None
    race_id: RaceId | None = None


class ErrorMessage(Model):
    type: Literal["error"]
    id: RequestId | None = None
    code: ErrorCode
    message: str
    game_id: GameId | None = None
    race_id: RaceId | None = None
    current_version: int | None = None
    reason: str | None = None


class RaceMessage(Model):
    """The race after a change (join, ready, countdown, start, win, resign, end, rematch)."""

    type: Literal["race"]
    id: RequestId | None = Field(None, description="Set on the answer to `watch_race`.")
    race_id: RaceId
    version: int
    race: RaceView
    you: You | None = Field(None, description="Only to a player, on `watch_race`.")


class RaceProgressMessage(Model):
    """A player's progress after each of their accepted actions (no cards)."""

    type: Literal["race_progress"]
    race_id: RaceId
    player_id: str
    state: Literal["playing", "won", "resigned"]
    foundations: int
    score: int
    score_display: str
    moves: int
    server_time: int


class HintAnswer(Model):
    """The answer to `hint`."""

    type: Literal["hint"]
    id: RequestId
    game_id: GameId
    version: int
    hint: HintView | None
    hints_used: int


class PongMessage(Model):
    type: Literal["pong"]
    id: RequestId | None = None


ServerMessage = Annotated[
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
    | RaceProgressMessage,
    Field(discriminator="type"),
]


# --------------------------------------------------------------------------- client -> server


class HelloMessage(Model):
    type: Literal["hello"]
    protocol: int = Field(description=f"Protocol version the client speaks ({PROTOCOL_VERSION}).")
    changes_in_results: bool = Field(
        False,
        description="True: the `result` of an accepted action carries its `change`, and this "
        "connection gets no separate `change` frame for it (one frame instead of two).",
    )


class SubscribeMessage(Model):
    """Watch a game, or play it when `token` is the player's token."""

    type: Literal["subscribe"]
    id: RequestId
    game_id: GameId
    token: str | None = Field(None, max_length=128)
    since: int | None = Field(
        None, ge=0, description="Last version the client has; resume from there."
    )


class UnsubscribeMessage(Model):
    type: Literal["unsubscribe"]
    id: RequestId
    game_id: GameId


class ActionMessage(Model):
    type: Literal["action"]
    id: RequestId
    game_id: GameId
    action: ActionInput
    expected_version: int | None = Field(None, ge=0)


class UndoMessage(Model):
    type: Literal["undo"]
    id: RequestId
    game_id: GameId
    expected_version: int | None = Field(None, ge=0)


class HintMessage(Model):
    """Ask for a hint in your game (needs a player subscription); counted in the game."""

    type: Literal["hint"]
    id: RequestId
    game_id: GameId


class ResignMessage(Model):
    """End your game where it stands; in a race, this is resigning from the race."""

    type: Literal["resign"]
    id: RequestId
    game_id: GameId


class WatchRaceMessage(Model):
    """Follow a race: as a player with your token (marks you connected), or as a spectator."""

    type: Literal["watch_race"]
    id: RequestId
    race_id: RaceId
    token: str | None = Field(None, max_length=128)


class UnwatchRaceMessage(Model):
    type: Literal["unwatch_race"]
    id: RequestId
    race_id: RaceId


class RaceCommandMessage(Model):
    """A player's race command; needs a `watch_race` with the player's token first."""

    type: Literal["race_command"]
    id: RequestId
    race_id: RaceId
    command: Literal["ready", "unready", "start", "resign", "rematch"]


class PingMessage(Model):
    type: Literal["ping"]
    id: RequestId | None = None


ClientMessage = Annotated[
    HelloMessage
    | SubscribeMessage
    | UnsubscribeMessage
    | ActionMessage
    | UndoMessage
    | ResignMessage
    | HintMessage
    | PingMessage
    | WatchRaceMessage
    | UnwatchRaceMessage
    | RaceCommandMessage,
    Field(discriminator="type"),
]

CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)
SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(ServerMessage)
ACTION_INPUT: TypeAdapter[Any] = TypeAdapter(ActionInput)


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
