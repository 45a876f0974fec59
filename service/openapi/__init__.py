"""The OpenAPI 3.1 document, built from the protocol models; its paths are assembled
from one module per part of the service."""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from ..protocol import PROTOCOL_VERSION, Health, Problem
from ..protocol.games import (
    ActionAccepted,
    ActionRequest,
    ChangesResponse,
    CreatedGame,
    CreateGameRequest,
    GameRecordResponse,
    GameStateResponse,
    LegalActionsResponse,
    ReplayResponse,
    ResignRequest,
    UndoRequest,
)
from ..protocol.races import (
    CreateRaceRequest,
    JoinRaceRequest,
    RaceJoined,
    RaceResponse,
    ReadyRequest,
)
from .arenas import ARENA_MODELS, arena_paths
from .common import ERROR_STATUS
from .games import game_paths
from .pairing import PAIRING_MODELS, pairing_paths
from .players import PLAYER_MODELS, player_paths
from .races import race_paths
from .service import service_paths

_MODELS: list[type[BaseModel]] = [
    ActionAccepted,
    ActionRequest,
    ChangesResponse,
    CreatedGame,
    CreateGameRequest,
    GameRecordResponse,
    GameStateResponse,
    Health,
    LegalActionsResponse,
    Problem,
    UndoRequest,
    ResignRequest,
    ReplayResponse,
    CreateRaceRequest,
    JoinRaceRequest,
    ReadyRequest,
    RaceJoined,
    RaceResponse,
]


__all__ = ["ERROR_STATUS", "openapi_document"]

# The three kinds of token (docs/protocol.md, "Tokens"); each operation's summary and
# answers say which it takes.
BEARER = (
    "One of three kinds of token, not interchangeable, each given in a field named "
    "`player_token`: the game token (from `POST /games` and `POST /daily/{date}/{mode}/games`) "
    "makes you the player of one game; the race token (from `POST /races` and "
    "`POST /races/join`) makes you a player of one race, and is the game token of your "
    "game in it; the player token (from `POST /players` and `POST /players/link`) names "
    "you as a player across games and devices, and plays no game."
)


@functools.cache
def openapi_document() -> dict[str, Any]:
    models: list[type[BaseModel]] = [*_MODELS, *PLAYER_MODELS, *PAIRING_MODELS, *ARENA_MODELS]
    _, defs = models_json_schema(
        [(m, "serialization") for m in models] + [(m, "validation") for m in models],
        ref_template="#/components/schemas/{model}",
    )
    schemas = defs.get("$defs", {})
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Solitaire service",
            "version": f"{PROTOCOL_VERSION}.0",
            "description": "Double Solitaire and Solitaire Réfléchi over REST and WebSocket "
            "(`/ws`, see docs/protocol.md and schemas/).",
        },
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "description": BEARER}
            },
        },
        "paths": {
            **game_paths(),
            **race_paths(),
            **service_paths(),
            **player_paths(),
            **pairing_paths(),
            **arena_paths(),
        },
    }
