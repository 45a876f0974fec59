"""The wire models of arena tournaments (docs/arena.md): an arena, its standings and
heats, and their REST bodies. The WebSocket's ``follow_arena``, ``unfollow_arena`` and
``arena_standings`` messages are in ``ws``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from . import ClientModel, GameId, Model
from .pairing import Opponent, PairingMode
from .races import RaceId
from .strict import JsonInt

ArenaId = Annotated[str, Field(min_length=1, max_length=64)]
ArenaStatus = Literal["upcoming", "running", "finished", "cancelled"]
Outcome = Literal["win", "draw", "loss", "none"]


class CreateArenaRequest(ClientModel):
    mode: PairingMode = Field(description="The mode every heat is played in, such as `DS.D1N`.")
    name: str = Field(min_length=1, max_length=60, description="The arena's name.")
    minutes: JsonInt = Field(ge=5, le=180, description="How long the arena runs.")
    starts_in: JsonInt = Field(
        0, ge=0, le=10080, description="Minutes from now it starts (up to 7 days); 0: now."
    )


class ArenaView(Model):
    arena_id: ArenaId
    name: str
    mode: PairingMode
    start_at: int = Field(description="Server time (ms) the arena starts.")
    ends_at: int = Field(description="Server time (ms) it stops pairing.")
    minutes: int
    status: ArenaStatus
    final: bool = Field(description="True once it ended and every heat is counted.")
    scheduled: bool = Field(description="Made by the service's schedule, not by a player.")
    created_by: str | None = Field(
        description="The player id of the player who made it (who alone may cancel it); "
        "null for a scheduled arena."
    )
    players: int = Field(description="Players who joined (0 in the list of arenas).")
    server_time: int


class ArenaRow(Model):
    """A line of the standings."""

    rank: int = Field(ge=1)
    player_id: str
    name: str
    rating: int = Field(description="The player's rating in the mode when they joined.")
    points: int
    heats: int
    wins: int
    draws: int
    losses: int
    streak: int = Field(description="Wins in a row.")
    fire: bool = Field(description="On fire (two wins in a row): wins count 4, draws 2.")
    performance: int = Field(description="Mean of opponent rating ±400 (win/loss) per heat.")
    playing: bool = Field(description="In a heat now.")
    present: bool = Field(description="Joined and not left: paired as soon as free.")


class ArenaSeat(Model):
    """Your heat under way: its race and your seat. Watch the race with `player_token`."""

    race_id: RaceId
    game_id: GameId = Field(description="Your game in the heat's race.")
    player_id: str = Field(description="Your id in the race.")
    player_token: str | None = Field(
        description="Your race token in every heat of this arena, computed from the player "
        "token that joined: null when read with another of your player tokens."
    )
    opponent: Opponent


class ArenaYou(ArenaRow):
    """Your own line, with your heat under way."""

    heat: ArenaSeat | None


class ArenaResponse(Model):
    arena: ArenaView
    you: ArenaYou | None = Field(description="Your line, when your player token joined it.")


class ArenaList(Model):
    server_time: int
    upcoming: list[ArenaView] = Field(description="Soonest first.")
    running: list[ArenaView]
    finished: list[ArenaView] = Field(description="Those of the last two days, latest first.")


class ArenaStandings(Model):
    arena_id: ArenaId
    page: int = Field(ge=1)
    total: int = Field(description="Players in the standings.")
    final: bool
    rows: list[ArenaRow] = Field(description="Up to 20 lines, best first.")


class HeatPlayer(Model):
    player_id: str
    name: str
    rating: int = Field(description="Their rating in the mode when they joined.")
    outcome: Outcome | None = Field(
        None, description="Once counted: `none` when the race expired unplayed."
    )
    points: int | None = Field(None, description="Points the heat earned, once counted.")


class ArenaHeat(Model):
    race_id: RaceId = Field(description="Read and replay it with the race's routes.")
    started_at: int = Field(description="Server time (ms) the wave that made it began pairing.")
    ended_at: int | None = Field(description="Server time (ms) it was counted.")
    outcomes: dict[str, Outcome] | None = Field(description="Player id -> outcome, once counted.")
    players: list[HeatPlayer]


class ArenaHeats(Model):
    arena_id: ArenaId
    heats: list[ArenaHeat] = Field(description="Earliest first.")


REST_REQUESTS: list[type[BaseModel]] = [CreateArenaRequest]
REST_RESPONSES: list[type[BaseModel]] = [ArenaResponse, ArenaList, ArenaStandings, ArenaHeats]
