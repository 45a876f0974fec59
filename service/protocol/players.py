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
            "`true`: this must be the ranked attempt. With no player token (401 `unauthorized`)"
            " or once the player's ranked attempt exists (409 `daily_attempt_used`) nothing is"
            " created. Left out: the player's first game is the ranked attempt, later ones are"
            " unranked practice. A player's first game is always the ranked one, so there is"
            " no `false`."
        ),
    )


class PlayerView(Model):
    player_id: PlayerId
    name: str
    created_at: int = Field(description="Server time (ms since the epoch).")


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
    played: int
    won: int
    win_rate: float
    hinted: int = Field(description="Games in which hints were asked for (kept from bests).")
    current_streak: int
    best_streak: int
    best_time_ms: int | None = Field(description="Fastest win, server-measured.")
    fewest_moves: int | None = Field(description="Fewest moves for a win.")
    best_score: int | None
    bankroll: int | None = Field(
        None, description="Vegas only: the sum of every game's final dollars."
    )


class PlayerStats(Model):
    player_id: PlayerId
    name: str
    modes: dict[str, ModeStats] = Field(description="Per mode such as `DS.D1N`.")


class DailyChallenge(Model):
    challenge_id: str = Field(description="`<date>.<mode>`, e.g. `2026-12-01.TF.D1N`.")
    date: str
    mode: Mode
    players: int = Field(description="Ranked attempts on the board (from their first action).")
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
    ranked: bool = Field(description="True for the player's first attempt, the one ranked.")


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
            " `streak.<mode>`: minus the streak. Daily boards: won, `time_ms` x 100000 +"
            " `moves`; not won, 10^14 + cards not on the foundations x 100000 + `moves`."
            " Points (Normal or Vegas) rank on no board."
        )
    )
    value: int | None = Field(
        None,
        description=(
            "All-time boards, what they rank: `best-time.<mode>` the best time in ms (lower"
            " is better), `streak.<mode>` the longest streak of games won in a row (higher"
            " is better)."
        ),
    )
    won: bool | None = None
    time_ms: int | None = Field(
        None, description="Daily boards: a won attempt's time in ms, first action to win."
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
            "Daily boards: true while the attempt has not ended (it ranks as it stood at its"
            " first action). An attempt still open at the end of the day is then counted as"
            " it stood, not won."
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


class DailyBoard(Board):
    challenge_id: str
    date: str
    mode: Mode
    public: bool = Field(description="The day is over: code and games are public.")
    public_at: int
    code: str | None = Field(description="The deal's code, once the day is over.")


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
