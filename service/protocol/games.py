"""The REST bodies of games: creating, reading, playing, replaying and analysing one.

Part of the protocol like its core, ``service.protocol``: the source of their schemas in
``schemas/rest``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictBool

from . import (
    NO_HINT_DESCRIPTION,
    ActionInput,
    ActionObject,
    Change,
    ClientModel,
    GameId,
    HintView,
    Model,
    NoHintView,
    Notation,
    PublicState,
    RequestId,
)
from .strict import DrawCount, VersionNumber


class CreateGameRequest(ClientModel):
    """Give `game`, `draw` and `scoring` for a random deal, or a `code` to replay a deal."""

    game: Literal["DS", "TF"] = "DS"
    draw: DrawCount = 1
    scoring: Literal["normal", "vegas"] = "normal"
    code: str | None = Field(
        None, max_length=64, examples=["DS1-D1N-AAAAAAB", "TF1-D3N-AAGKBWSOEPIRAEYTGERIURNYFFZJ"]
    )
    secret: StrictBool = Field(
        False,
        description="Deal from a secret 128-bit seed whose code is shown only once the game "
        "is over (won or resigned). Not with `code`.",
    )
    winnable: StrictBool = Field(
        False,
        description="Deal one the solver has won (a secret deal, so also `secret`). Not "
        "with `code`.",
    )


class CreatedGame(Model):
    game_id: GameId
    player_token: str = Field(
        description="The game token: the secret of this game's player, sent as "
        "`Authorization: Bearer <token>` or as the `token` of `subscribe`."
    )
    code: str | None = Field(
        description="The game code, shown only to the player; null for a secret deal, whose "
        "code the record reveals once the game is over."
    )
    version: int
    state: PublicState
    clock_started_at: int = Field(
        description=(
            "Server time (ms since the epoch) the game was dealt: its clock runs from here,"
            " not from a first action. A player's time on a board is the server's, from this"
            " moment to the winning action."
        )
    )
    server_time: int = Field(
        description="Server time (ms) of this answer, to show the clock in step with the server."
    )


class GameStateResponse(Model):
    game_id: GameId
    version: int
    state: PublicState
    clock_started_at: int | None = Field(
        description="Server time (ms) the game was dealt; null for a game made before it was kept."
    )
    server_time: int = Field(description="Server time (ms) of this answer.")


class ActionRequest(ClientModel):
    action: ActionInput
    expected_version: VersionNumber | None = None
    request_id: RequestId | None = None


class UndoRequest(ClientModel):
    expected_version: VersionNumber | None = None
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


class HintResponse(Model):
    game_id: GameId
    version: int
    hint: HintView | None = Field(description="Null when there is nothing to suggest.")
    hints_used: int = Field(description="Hints asked for in this game so far.")
    no_hint: NoHintView | None = Field(None, description=NO_HINT_DESCRIPTION)


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


class ResignRequest(ClientModel):
    request_id: RequestId | None = None


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
