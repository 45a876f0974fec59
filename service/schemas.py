"""Writes the protocol's JSON Schemas (draft 2020-12) into ``schemas/``.

Run ``python -m service.schemas`` after changing a ``service/protocol*.py`` module; a test fails
when the committed files differ from what this generates.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter

from . import protocol
from .openapi import openapi_document
from .protocol import arenas as protocol_arenas
from .protocol import games as protocol_games
from .protocol import pairing as protocol_pairing
from .protocol import players as protocol_players
from .protocol import races as protocol_races
from .protocol import ws as protocol_ws

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
BASE_ID = "https://solitaire.invalid/schemas/"

# Inbound documents are validated as the server reads them, outbound ones as it writes.
_DOCUMENTS: dict[str, tuple[Any, str]] = {
    "client-message.json": (protocol_ws.ClientMessage, "validation"),
    "server-message.json": (protocol_ws.ServerMessage, "serialization"),
    "public-state.json": (protocol.PublicState, "serialization"),
    "action.json": (protocol.ActionInput, "validation"),
}
_REST_REQUESTS: list[type[BaseModel]] = [
    protocol_games.CreateGameRequest,
    protocol_games.ActionRequest,
    protocol_games.UndoRequest,
    protocol_games.ResignRequest,
    protocol_races.CreateRaceRequest,
    protocol_races.JoinRaceRequest,
    protocol_races.ReadyRequest,
    *protocol_players.REST_REQUESTS,
    *protocol_pairing.REST_REQUESTS,
    *protocol_arenas.REST_REQUESTS,
]
_REST_RESPONSES: list[type[BaseModel]] = [
    protocol_games.CreatedGame,
    protocol_games.GameStateResponse,
    protocol_games.ChangesResponse,
    protocol_games.ActionAccepted,
    protocol_games.LegalActionsResponse,
    protocol_games.GameRecordResponse,
    protocol_games.ReplayResponse,
    protocol_games.HintResponse,
    protocol_games.AnalysisResponse,
    protocol.Health,
    protocol.Problem,
    protocol_races.RaceJoined,
    protocol_races.RaceResponse,
    *protocol_players.REST_RESPONSES,
    *protocol_pairing.REST_RESPONSES,
    *protocol_arenas.REST_RESPONSES,
]


def _kebab(name: str) -> str:
    return "".join("-" + c.lower() if c.isupper() else c for c in name).lstrip("-")


def _document(name: str, target: Any, mode: str, title: str | None = None) -> dict[str, Any]:
    schema = TypeAdapter(target).json_schema(mode=mode)  # type: ignore[arg-type]
    head = {"$schema": SCHEMA_DIALECT, "$id": BASE_ID + name}
    if title and "title" not in schema:
        head["title"] = title
    return {**head, **schema}


def generate() -> dict[str, dict[str, Any]]:
    """File name (relative to ``schemas/``) -> schema document."""
    documents: dict[str, dict[str, Any]] = {}
    for name, (target, mode) in _DOCUMENTS.items():
        title = name.removesuffix(".json").replace("-", " ").capitalize()
        documents[name] = _document(name, target, mode, title)
    for model in _REST_REQUESTS:
        name = f"rest/{_kebab(model.__name__)}.json"
        documents[name] = _document(name, model, "validation")
    for model in _REST_RESPONSES:
        name = f"rest/{_kebab(model.__name__)}.json"
        documents[name] = _document(name, model, "serialization")
    documents["openapi.json"] = openapi_document()
    return documents


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "schemas"
    for name, document in generate().items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(document), encoding="utf-8")
        print(f"wrote {path.relative_to(root.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
