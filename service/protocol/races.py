"""The wire models of races: the public race, its ranking, and its REST bodies.

Part of the protocol like its core, ``service.protocol``: the source of their schemas in
``schemas/rest``, and of the race in the WebSocket's ``race`` message.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool

from . import ClientModel, GameId, Model
from .strict import WHOLE, DrawCount

RaceId = Annotated[str, Field(min_length=1, max_length=64)]
PlayerName = Annotated[str, Field(min_length=1, max_length=32, pattern=r"\S")]


class CreateRaceRequest(ClientModel):
    name: PlayerName = Field(description="Your display name.")
    game: Literal["DS", "TF"] = "DS"
    draw: DrawCount = 1
    scoring: Literal["normal", "vegas"] = "normal"
    max_players: Annotated[int, Field(ge=2, le=8), WHOLE] = 4
    time_limit_seconds: Annotated[int, Field(ge=30, le=86400), WHOLE] | None = None
    winnable: StrictBool = Field(False, description="Deal one the solver has won (a secret deal).")
    rated: StrictBool = Field(
        False,
        description="Finishing updates the ratings of every player who joined with a player "
        "token (docs/ratings.md). Needs the host's player token.",
    )


class JoinRaceRequest(ClientModel):
    join_code: str = Field(
        min_length=4,
        max_length=16,
        description="Shared by the host: 8 characters of `ABCDEFGHJKLMNPQRSTUVWXYZ23456789` "
        "(any case; spaces and dashes are ignored).",
    )
    name: PlayerName


class ReadyRequest(ClientModel):
    ready: StrictBool = True


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


class RatingChange(Model):
    """What a rated race did to one player's rating in its mode (docs/ratings.md)."""

    player_id: str = Field(description="The player's id in the race.")
    rank: int = Field(description="Place for the rating: equal for players the race order ties.")
    verified: bool = Field(
        description="False: the game was played faster than a person plays, and counted as "
        "the last place."
    )
    rating: float = Field(description="The rating after the race.")
    change: float = Field(description="What the race added to the rating (negative: lost).")
    deviation: float = Field(description="The rating's deviation after the race.")
    deviation_before: float


class RaceResult(Model):
    code: str = Field(description="The deal's game code, published once the race is over.")
    ranking: list[RankingEntry]
    records: dict[str, str] = Field(description="Player id -> game record (code and actions).")
    ratings: list[RatingChange] | None = Field(
        None,
        description="A rated race's rating changes, one per player who brought a player "
        "token; null when fewer than two did.",
    )


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
    rated: bool = Field(description="Finishing updates the players' ratings.")


class You(Model):
    """Private to one player: who you are and which game is yours."""

    player_id: str
    game_id: GameId


class RaceJoined(Model):
    race_id: RaceId
    join_code: str
    player_id: str
    player_token: str = Field(
        description="The race token: a secret, sent as `Authorization: Bearer <token>` for "
        "the race and, as its game token, for your game."
    )
    game_id: GameId = Field(
        description="Your game. It exists from the moment you join, but reading or playing "
        "it is refused with `race_not_started` until the countdown is over."
    )
    race: RaceView


class RaceResponse(Model):
    race: RaceView
    you: You | None = None
