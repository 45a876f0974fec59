"""Hidden information: random games over WebSocket, every frame and body checked against
the server's private state. Face-down and stock cards never reach a client, every card a
change names is face up after it, and the code and token go only where they must."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from service import engine
from service.engine.cards import CARD_TEXT
from tests.service.helpers import (
    View,
    act,
    drain_to,
    greet,
    pick_action,
    server_game,
    server_version,
    subscribe,
)
from tests.support import CheckedClient, auth, new_game

CARD_RE = re.compile(r"^[A23456789TJQK][SHDC]$")
STATE_KEYS = {
    "game", "draw", "scoring", "columns", "stock", "waste", "foundations",
    "score", "score_display", "moves", "undo_available", "won", "resigned",
}  # fmt: skip


def expected_public(game: engine.Klondike) -> dict[str, Any]:
    """The public view, built here from the server's private state field by field."""
    return {
        "game": game.kind.value,
        "draw": game.draw,
        "scoring": game.scoring.value,
        "columns": [
            {"down": down, "up": [CARD_TEXT[c] for c in col[down:]]}
            for col, down in zip(game.columns, game.down, strict=True)
        ],
        "stock": len(game.stock),
        "waste": [CARD_TEXT[c] for c in game.waste],
        "foundations": [
            CARD_TEXT[game.foundation_suit(place) * 13 + height - 1] if height else None
            for place, height in enumerate(game.foundations)
        ],
        "score": game.score,
        "score_display": game.score_display,
        "moves": game.moves,
        "undo_available": game.undo_available,
        "won": game.won,
        "resigned": game.resigned,
    }


def assert_public_shape(state: dict[str, Any]) -> None:
    assert set(state) == STATE_KEYS
    assert isinstance(state["stock"], int)
    for column in state["columns"]:
        assert set(column) == {"down", "up"}
        assert isinstance(column["down"], int)


def visible_cards(state: dict[str, Any]) -> list[str]:
    cards = [card for column in state["columns"] for card in column["up"]]
    cards += state["waste"]
    cards += [top for top in state["foundations"] if top is not None]
    return cards


def cards_named(change: dict[str, Any]) -> list[str]:
    named: list[str] = []
    for event in change["events"]:
        named += event.get("cards", [])
        if "card" in event:
            named.append(event["card"])

    def collect(value: Any) -> None:
        if isinstance(value, str) and CARD_RE.match(value):
            named.append(value)
        elif isinstance(value, list):
            for item in value:
                collect(item)

    for op in change["patch"]:
        collect(op.get("value"))
    return named


def check_frame_against_server(
    frame: dict[str, Any], view: View, game: engine.Klondike, version: int
) -> None:
    if frame["type"] == "snapshot":
        assert_public_shape(frame["state"])
    if frame["type"] == "change":
        assert frame["version"] <= version
        if frame["version"] == version:
            visible = visible_cards(view.state)
            for card in cards_named(frame):
                assert card in visible, (card, frame)
    if game.kind is engine.GameKind.REFLECHI:
        # One deck: a card's text names exactly one card, so no hidden card may appear.
        text = json.dumps(frame)
        for hidden in game.hidden_cards():
            assert f'"{CARD_TEXT[hidden]}"' not in text, (CARD_TEXT[hidden], frame)


@pytest.mark.parametrize(
    ("game_kind", "draw", "scoring", "seed"),
    [
        ("DS", 1, "normal", 1),
        ("DS", 3, "vegas", 2),
        ("TF", 1, "normal", 3),
        ("TF", 3, "normal", 4),
    ],
)
def test_frames_reveal_nothing_hidden(
    client: CheckedClient, game_kind: str, draw: int, scoring: str, seed: int
) -> None:
    created = new_game(client, game=game_kind, draw=draw, scoring=scoring)
    game_id, token, code = created["game_id"], created["player_token"], created["code"]
    rng = random.Random(seed)
    bodies: list[str] = []
    with client.checked_websocket() as player, client.checked_websocket() as watcher:
        greet(player)
        greet(watcher)
        _, player_view = subscribe(player, game_id, token)
        _, watcher_view = subscribe(watcher, game_id)
        for ws, view in ((player, player_view), (watcher, watcher_view)):
            server = server_game(client, game_id)
            assert view.state == expected_public(server)
            check_frame_against_server(ws.received[-1], view, server, 0)
        mirror = engine.new_game(code)
        for step in range(110):
            notation = pick_action(mirror, rng, undo_rate=0.15)
            if notation is None:
                break
            mark = len(player.received), len(watcher.received)
            answer, _ = act(player, game_id, notation, f"a{step}", view=player_view)
            if answer["type"] == "result" and answer["status"] == "accepted":
                mirror.play(engine.parse_action(answer["notation"]))
            drain_to(watcher, watcher_view, player_view.version)
            version = server_version(client, game_id)
            server = server_game(client, game_id)
            assert player_view.version == watcher_view.version == version
            expected = expected_public(server)
            assert player_view.state == watcher_view.state == expected
            assert server.public_view() == expected
            for ws, view, start in (
                (player, player_view, mark[0]),
                (watcher, watcher_view, mark[1]),
            ):
                for frame in ws.received[start:]:
                    check_frame_against_server(frame, view, server, version)
            if step % 10 == 0:
                for path in ("", "/changes", "/legal-actions"):
                    response = client.get(f"/games/{game_id}{path}")
                    assert response.status_code == 200
                    bodies.append(response.text)
                bodies.append(client.get(f"/games/{game_id}/changes?since=999").text)
        # A late watcher resuming from the start sees the same, and nothing more.
        with client.checked_websocket() as late:
            greet(late)
            subscribe(late, game_id, since=0)
            late_frames = list(late.received)
        # Only the player's record may carry the code; no-one's answer ever has the token.
        record = client.get(f"/games/{game_id}/record", headers=auth(token))
        assert record.json()["code"] == code
        refused = client.get(f"/games/{game_id}/record")
        assert refused.status_code == 401
        bodies.append(refused.text)

    frames = [*player.received, *watcher.received, *late_frames]
    letters = code.rsplit("-", 1)[1]
    for text in [json.dumps(f) for f in frames] + bodies:
        assert code not in text
        assert letters not in text
        assert token not in text
    assert token not in record.text
