"""The wire models of players, statistics, the daily challenge and leaderboards (REST).

Part of the protocol like its core, ``service.protocol``: the source of their schemas in
``schemas/rest``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, Field

from . import ClientModel, Model
from .games import CreatedGame
from .strict import only_json_booleans

PlayerId = Annotated[str, Field(min_length=1, max_length=64)]
DisplayName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        description="1 to 24 characters once trimmed; no control or invisible characters, "
        "no space other than the plain one, never two in a row.",
    ),
]
Mode = Annotated[
    str,
    Field(
        pattern=r"^(DS\.D[13][NV]|TF\.D[13]N)$",
        description="Game, draw and scoring: `DS.D1N`, `DS.D3V`, `TF.D3N`...",
    ),
]


class CreatePlayerRequest(ClientModel):
    name: DisplayName


class RenameRequest(ClientModel):
    name: DisplayName


class DailyPlayRequest(ClientModel):
    """The body of `POST /daily/{date}/{mode}/games` (it may be empty)."""

    ranked: Annotated[Literal[True] | None, BeforeValidator(only_json_booleans)] = Field(
        None,
        description=(
            "`true` or left out, alike: until its day is over a challenge is played only as"
            " each player's one ranked attempt. With no player token (401 `unauthorized`) or"
            " once the player's ranked attempt exists (409 `daily_attempt_used`) nothing is"
            " created; the same request sent again by the device that made the attempt,"
            " before its first action, answers that attempt again."
        ),
    )


class ModeRating(Model):
    """A player's rating in one mode, from rated races (docs/ratings.md)."""

    rating: int = Field(description="Starts at 1500; higher is stronger.")
    deviation: int = Field(description="How unsure the rating still is; starts at 500.")
    games: int = Field(description="Rated races played in the mode.")
    provisional: bool = Field(
        description="Fewer rated races than the server asks for a firm rating "
        "(`RATING_PROVISIONAL_GAMES`): kept off the `rating.<mode>` board."
    )


class PlayerView(Model):
    player_id: PlayerId
    name: str
    created_at: int = Field(description="Server time (ms since the epoch).")
    ratings: dict[str, ModeRating] | None = Field(
        None, description="`GET /players/me` only: your rating per mode such as `DS.D1N`."
    )


class PlayerCreated(PlayerView):
    player_token: str = Field(
        description="The player token: a secret, shown once, sent as "
        "`Authorization: Bearer <token>`. It names the player and plays no game."
    )


class LinkCode(Model):
    link_code: str = Field(description="8 characters; works once, until `expires_at`.")
    expires_at: int = Field(description="Server time (ms) the code stops working.")


class LinkRequest(ClientModel):
    link_code: str = Field(min_length=4, max_length=16)


class Revoked(Model):
    revoked: int = Field(description="How many other tokens of the player stopped working.")


class ModeStats(Model):
    played: int = Field(
        description=(
            "Games counted: won, resigned, a daily attempt still open at its day's end, or a"
            " game left for another (a game counts from its deal, played or not)."
        )
    )
    won: int
    win_rate: float
    hinted: int = Field(description="Games in which hints were asked for (kept from bests).")
    unverified: int | None = Field(
        None,
        description=(
            "Your own statistics only: games played at a pace no person holds"
            " (`unverified_games` says which and why); counted here, kept from bests and"
            " public boards."
        ),
    )
    current_streak: int
    best_streak: int
    verified_streak: int = Field(
        description="Verified wins in a row: the streak the public `streak.<mode>` board counts."
    )
    best_verified_streak: int
    best_time_ms: int | None = Field(
        description="Fastest verified win without hints, server-measured from the deal."
    )
    fewest_moves: int | None = Field(description="Fewest moves for a verified win without hints.")
    best_score: int | None
    bankroll: int | None = Field(
        None, description="Vegas only: the sum of every game's final dollars."
    )


class UnverifiedGame(Model):
    game_id: str
    mode: Mode
    reason: Literal["burst", "pace", "unknown"] = Field(
        description=(
            "The rule of the plausibility floor it broke: `burst` (8 actions in a row each"
            " under 100 ms after the one before, undos aside), `pace` (a median under 150 ms"
            " before card moves over 20 moves); `unknown`: its log could not be read."
        )
    )
    detail: str | None = Field(description="What was measured, in English.")


class BoardStanding(Model):
    eligible: bool = Field(description="Your results can stand on public boards.")
    reason: str | None = Field(
        description="Why not yet (account age, counted games), in English; null when eligible."
    )


class PlayerStats(Model):
    player_id: PlayerId
    name: str
    modes: dict[str, ModeStats] = Field(description="Per mode such as `DS.D1N`.")
    unverified_games: list[UnverifiedGame] | None = Field(
        None, description="Your own statistics only: your latest unverified games, newest first."
    )
    boards: BoardStanding | None = Field(
        None, description="Your own statistics only: whether you stand on public boards."
    )
    ratings: dict[str, ModeRating] = Field(
        description="Rating per mode in which the player finished a rated race."
    )


class DailyChallenge(Model):
    challenge_id: str = Field(description="`<date>.<mode>`, e.g. `2026-12-01.TF.D1N`.")
    date: str
    mode: Mode
    players: int = Field(description="Ranked attempts on the board (from their deal).")
    ranked_game_id: str | None = Field(
        None, description="With a player token: your ranked attempt's game, if any."
    )


class DailyOverview(Model):
    date: str = Field(description="Today, UTC (`YYYY-MM-DD`).")
    server_time: int
    next_at: int = Field(description="Server time (ms) of the next day's challenges.")
    seconds_to_next: int
    challenges: list[DailyChallenge]


class DailyGameCreated(CreatedGame):
    challenge_id: str
    ranked: Literal[True] = Field(
        description="Always true: until its day is over a challenge is played only ranked."
    )


class BoardRow(Model):
    rank: int = Field(
        description=(
            "1 is first; no two rows share a rank. Equal `score`s rank in the order they"
            " were reached: the first to reach one ranks first."
        )
    )
    player_id: PlayerId
    name: str
    score: float = Field(
        description=(
            "The board's sort key, lowest first. `best-time.<mode>`: the time in ms."
            " `streak.<mode>`: minus the streak. `rating.<mode>`: minus the rating."
            " Daily boards: won, `time_ms` x 100000 +"
            " `moves`; not won, 10^14 + cards not on the foundations x 100000 + `moves`."
            " Points (Normal or Vegas) rank on no board."
        )
    )
    value: int | None = Field(
        None,
        description=(
            "All-time boards, what they rank: `best-time.<mode>` the best time in ms (lower"
            " is better), `streak.<mode>` the longest streak of games won in a row (higher"
            " is better), `rating.<mode>` the rating, rounded (higher is better)."
        ),
    )
    won: bool | None = None
    time_ms: int | None = Field(
        None, description="Daily boards: a won attempt's time in ms, from its deal to the win."
    )
    moves: int | None = None
    foundations: int | None = Field(
        None, description="Daily boards: cards on the foundations when the attempt ended."
    )
    game_id: str | None = Field(
        None, description="Daily boards, once the day is over: the game, for its replay."
    )
    open: bool | None = Field(
        None,
        description=(
            "Daily boards: true while the attempt has not ended (it ranks as it was dealt)."
            " An attempt still open at the end of the day is then counted as it stood, not"
            " won: one never played counts as played and not won."
        ),
    )


class Board(Model):
    board: str
    size: int = Field(description="Players on the board.")
    offset: int = Field(
        description="The `offset` asked for: `top` starts at rank `offset + 1` (0: the first)."
    )
    next_offset: int | None = Field(
        description=(
            "The `offset` of the next page (`offset` plus the rows in `top`); null when `top`"
            " holds the board's last row or no row."
        )
    )
    top: list[BoardRow] = Field(
        description="`top` rows (asked for) from rank `offset + 1`, lowest `score` first."
    )
    you: BoardRow | None = Field(
        description=(
            "With a player token: your own row, the same as in `top` or `around`; null when"
            " you are not on the board."
        )
    )
    around: list[BoardRow] = Field(
        description="Your row and `around` (asked for) rows either side of it."
    )


class OwnAttempt(Model):
    """Your ranked attempt, as only you see it: whether it stands on the board, or why not."""

    game_id: str
    won: bool
    time_ms: int | None
    moves: int
    foundations: int
    open: bool = Field(description="It has not ended yet.")
    verified: bool | None = Field(
        description="Played at a person's pace (null while open); see `PlayerStats`."
    )
    reason: Literal["burst", "pace", "unknown"] | None = Field(
        description="The rule of the plausibility floor an unverified attempt broke."
    )
    detail: str | None = Field(description="What was measured, in English.")
    on_board: bool
    off_board: Literal["unverified", "not_eligible"] | None = Field(
        description="Why it is not on the board: unverified, or you are not eligible yet."
    )
    off_board_detail: str | None = Field(description="The reason in English.")


class DailyBoard(Board):
    challenge_id: str
    date: str
    mode: Mode
    public: bool = Field(description="The day is over: code and games are public.")
    public_at: int
    code: str | None = Field(
        description=(
            "The deal's code once the day is over; null before, and for a day nobody played."
        )
    )
    mine: OwnAttempt | None = Field(
        description="With a player token: your ranked attempt at this challenge, if any."
    )


REST_REQUESTS: list[type[BaseModel]] = [
    CreatePlayerRequest,
    RenameRequest,
    LinkRequest,
    DailyPlayRequest,
]
REST_RESPONSES: list[type[BaseModel]] = [
    PlayerCreated,
    PlayerView,
    LinkCode,
    Revoked,
    PlayerStats,
    DailyOverview,
    DailyGameCreated,
    Board,
    DailyBoard,
]
