"""The WebSocket messages: every frame the server sends, and every one a client may.

Part of the protocol like its core, ``service.protocol``: the source of
``schemas/server-message.json`` and ``schemas/client-message.json``; ``CLIENT_MESSAGE``
validates what a client sends.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StrictBool, TypeAdapter

from . import (
    NO_HINT_DESCRIPTION,
    PROTOCOL_VERSION,
    ActionInput,
    Change,
    ClientModel,
    ErrorCode,
    GameId,
    HintView,
    Model,
    NoHintView,
    Notation,
    PublicState,
    Rejection,
    RequestId,
)
from .arenas import ArenaId, ArenaRow, ArenaYou
from .pairing import Opponent, PairingMode, SeekId, SeekView
from .races import RaceId, RaceView, You
from .strict import JsonInt, VersionNumber

# --------------------------------------------------------------------------- server -> client


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
    arena_id: ArenaId | None = None


class ErrorMessage(Model):
    type: Literal["error"]
    id: RequestId | None = None
    code: ErrorCode
    message: str
    message_en: str | None = Field(
        None, description="A message for people, in English, where the error has one."
    )
    message_fi: str | None = Field(None, description="The same message in Finnish.")
    game_id: GameId | None = None
    race_id: RaceId | None = None
    current_version: int | None = None
    reason: str | None = None
    retry_after: int | None = Field(None, description="For `rate_limited`: seconds to wait.")
    seek_id: str | None = Field(
        None, description="For `already_seeking`: your seek already waiting (in any mode)."
    )


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
    no_hint: NoHintView | None = Field(None, description=NO_HINT_DESCRIPTION)


class PongMessage(Model):
    type: Literal["pong"]
    id: RequestId | None = None


class SeekAnswer(Model):
    """The answer to `seek` and to `cancel_seek`: the seek as it stands."""

    type: Literal["seek"]
    id: RequestId
    seek: SeekView


class PairedMessage(Model):
    """A seek of this connection was paired: the race and your seat, sent once. Watch the
    race with `player_token` (`watch_race`); its countdown is already running."""

    type: Literal["paired"]
    seek_id: SeekId
    race_id: RaceId
    game_id: GameId
    player_id: str
    player_token: str = Field(description="Your race token, also your game's token.")
    opponent: Opponent


class ArenaStandingsMessage(Model):
    """A page of an arena's standings: in full after `follow_arena`, then only the lines
    that changed (by rank) each time a heat is counted or a player joins or leaves, and
    once more with `final` when every heat is counted. `you` is your own line when you
    followed with your player token; it shows your heat as soon as you are paired."""

    type: Literal["arena_standings"]
    id: RequestId | None = Field(None, description="The `follow_arena` this answers.")
    arena_id: ArenaId
    page: int = Field(ge=1)
    total: int = Field(description="Players in the standings.")
    full: bool = Field(description="True: `rows` is the whole page; false: changed lines.")
    final: bool = Field(description="True: the arena is over and every heat counted.")
    rows: list[ArenaRow]
    you: ArenaYou | None = None


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
    | RaceProgressMessage
    | SeekAnswer
    | PairedMessage
    | ArenaStandingsMessage,
    Field(discriminator="type"),
]


# --------------------------------------------------------------------------- client -> server


class HelloMessage(ClientModel):
    type: Literal["hello"]
    protocol: JsonInt = Field(
        description=f"Protocol version the client speaks ({PROTOCOL_VERSION})."
    )
    changes_in_results: StrictBool = Field(
        False,
        description="True: the `result` of an accepted action carries its `change`, and this "
        "connection gets no separate `change` frame for it (one frame instead of two).",
    )


class SubscribeMessage(ClientModel):
    """Watch a game, or play it when `token` is its game token (for a race game, the race
    token)."""

    type: Literal["subscribe"]
    id: RequestId
    game_id: GameId
    token: str | None = Field(None, max_length=128)
    since: VersionNumber | None = Field(
        None, description="Last version the client has; resume from there."
    )


class UnsubscribeMessage(ClientModel):
    type: Literal["unsubscribe"]
    id: RequestId
    game_id: GameId


class ActionMessage(ClientModel):
    type: Literal["action"]
    id: RequestId
    game_id: GameId
    action: ActionInput
    expected_version: VersionNumber | None = None


class UndoMessage(ClientModel):
    type: Literal["undo"]
    id: RequestId
    game_id: GameId
    expected_version: VersionNumber | None = None


class HintMessage(ClientModel):
    """Ask for a hint in your game (needs a player subscription); counted in the game."""

    type: Literal["hint"]
    id: RequestId
    game_id: GameId


class ResignMessage(ClientModel):
    """End your game where it stands; in a race, this is resigning from the race."""

    type: Literal["resign"]
    id: RequestId
    game_id: GameId


class WatchRaceMessage(ClientModel):
    """Follow a race: as a player with your race token (marks you connected), or as a
    spectator without one."""

    type: Literal["watch_race"]
    id: RequestId
    race_id: RaceId
    token: str | None = Field(None, max_length=128)


class UnwatchRaceMessage(ClientModel):
    type: Literal["unwatch_race"]
    id: RequestId
    race_id: RaceId


class RaceCommandMessage(ClientModel):
    """A player's race command; needs a `watch_race` with the player's race token first."""

    type: Literal["race_command"]
    id: RequestId
    race_id: RaceId
    command: Literal["ready", "unready", "start", "resign", "rematch"]


class PingMessage(ClientModel):
    type: Literal["ping"]
    id: RequestId | None = None


class SeekMessage(ClientModel):
    """Ask to race now in `mode` (quick pairing), with your player token. The seek lives
    while this connection does: closing it cancels the seek."""

    type: Literal["seek"]
    id: RequestId
    mode: PairingMode
    token: str = Field(min_length=1, max_length=128, description="Your player token.")


class CancelSeekMessage(ClientModel):
    """Cancel a seek of this connection."""

    type: Literal["cancel_seek"]
    id: RequestId
    seek_id: SeekId


class FollowArenaMessage(ClientModel):
    """Follow a page of an arena's standings (`arena_standings`); with your player token,
    your own line too. Following again changes the page."""

    type: Literal["follow_arena"]
    id: RequestId
    arena_id: ArenaId
    page: JsonInt = Field(1, ge=1, le=500, description="Page of 20 lines, from 1.")
    token: str | None = Field(None, min_length=1, max_length=128, description="Your player token.")


class UnfollowArenaMessage(ClientModel):
    type: Literal["unfollow_arena"]
    id: RequestId
    arena_id: ArenaId


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
    | RaceCommandMessage
    | SeekMessage
    | CancelSeekMessage
    | FollowArenaMessage
    | UnfollowArenaMessage,
    Field(discriminator="type"),
]

CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)
SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(ServerMessage)
