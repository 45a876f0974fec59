"""The wire models of quick pairing: a seek, its REST bodies, and the race it was paired
into. The WebSocket's ``seek``, ``cancel_seek`` and ``paired`` messages are in ``ws``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from . import ClientModel, GameId, Model
from .races import RaceId

# Every mode a game offers (``engine.Mode.all()``), as modes are written.
PairingMode = Literal["DS.D1N", "DS.D3N", "DS.D1V", "DS.D3V", "TF.D1N", "TF.D3N"]
SeekId = Annotated[str, Field(min_length=1, max_length=64)]


class SeekRequest(ClientModel):
    mode: PairingMode = Field(description="The mode to race in, such as `DS.D1N`.")


class Opponent(Model):
    name: str
    rating: int = Field(description="The opponent's rating in the mode when they asked.")


class PairedRace(Model):
    """The race a seek was paired into, and your seat in it."""

    race_id: RaceId
    game_id: GameId = Field(description="Your game in the race.")
    player_id: str = Field(description="Your id in the race.")
    player_token: str | None = Field(
        description="Your race token (also your game's token). Computed from the player "
        "token that asked, so null when the seek is read with another of your player tokens."
    )
    opponent: Opponent


class SeekView(Model):
    """A seek as its player reads it."""

    seek_id: SeekId
    mode: PairingMode
    status: Literal["waiting", "paired", "cancelled"]
    rating: int = Field(description="Your rating in the mode when you asked.")
    since: int = Field(description="Server time (ms) you asked.")
    race: PairedRace | None = Field(description="Once `paired`: the race and your seat.")


class SeekResponse(Model):
    seek: SeekView


REST_REQUESTS = [SeekRequest]
REST_RESPONSES = [SeekResponse]
