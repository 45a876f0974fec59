"""Helpers for the service tests: timed WebSocket reads, a client-side view of a game
kept up to date from pushed patches, random play, and a small solver that finds a
winning line for a Solitaire Réfléchi deal."""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import anyio
import jsonpatch

from service import engine
from service.app import assemble
from service.config import Settings
from service.engine import Move, PileKind
from service.games import Games
from service.protocol import action_object
from service.store import Store
from service.support.metrics import Metrics
from tests.support import CheckedClient, CheckedWebSocket, auth, check_server_message

RECEIVE_TIMEOUT = 10.0


def games_on(store: Store, settings: Settings) -> Games:
    """The games of a service on ``store``, with every part they call back."""
    return assemble(store, settings, Metrics(), time.time).games


# --------------------------------------------------------------------------- WebSocket reads


def _take(ws: CheckedWebSocket, message: Any) -> dict[str, Any]:
    session = ws.session
    session._raise_on_close(message)
    frame: dict[str, Any] = json.loads(message["text"])
    check_server_message(frame)
    ws.received.append(frame)
    return frame


def recv(ws: CheckedWebSocket, timeout: float = RECEIVE_TIMEOUT) -> dict[str, Any]:
    """The next frame, schema-checked; fails instead of hanging when none comes."""
    session = ws.session

    async def receive() -> Any:
        with anyio.fail_after(timeout):
            return await session._send_rx.receive()

    return _take(ws, session.portal.call(receive))


def try_recv(ws: CheckedWebSocket, timeout: float = 0.2) -> dict[str, Any] | None:
    """The next frame if one arrives within ``timeout`` seconds, else None."""
    session = ws.session

    async def receive() -> Any:
        with anyio.move_on_after(timeout):
            return await session._send_rx.receive()
        return None

    message = session.portal.call(receive)
    return None if message is None else _take(ws, message)


def recv_until(
    ws: CheckedWebSocket, kind: str, timeout: float = RECEIVE_TIMEOUT
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Reads up to the first frame of type ``kind``; returns it and the frames before it."""
    skipped: list[dict[str, Any]] = []
    while True:
        frame = recv(ws, timeout)
        if frame["type"] == kind:
            return frame, skipped
        skipped.append(frame)


def greet(ws: CheckedWebSocket) -> dict[str, Any]:
    ws.send_json({"type": "hello", "protocol": 1})
    welcome = recv(ws)
    assert welcome["type"] == "welcome", welcome
    return welcome


def ping(ws: CheckedWebSocket, rid: str = "ping") -> None:
    """Asserts that the connection still answers: the next frame is our pong."""
    ws.send_json({"type": "ping", "id": rid})
    frame = recv(ws)
    assert frame == {"type": "pong", "id": rid}, frame


# --------------------------------------------------------------------------- game views


@dataclass
class View:
    """A client's copy of one game, built only from what the server pushes."""

    game_id: str
    version: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    changes: list[dict[str, Any]] = field(default_factory=list)

    def feed(self, frame: dict[str, Any]) -> None:
        if frame.get("game_id") != self.game_id:
            return
        if frame["type"] == "snapshot":
            self.version = frame["version"]
            self.state = frame["state"]
        elif frame["type"] == "change":
            assert frame["version"] == self.version + 1, (frame["version"], self.version)
            self.state = jsonpatch.apply_patch(self.state, frame["patch"])
            self.version = frame["version"]
            self.changes.append(frame)


def subscribe(
    ws: CheckedWebSocket,
    game_id: str,
    token: str | None = None,
    since: int | None = None,
    rid: str = "sub",
) -> tuple[dict[str, Any], View]:
    """Subscribes and reads the answer: ``subscribed`` then a snapshot or the missed changes."""
    message: dict[str, Any] = {"type": "subscribe", "id": rid, "game_id": game_id}
    if token is not None:
        message["token"] = token
    if since is not None:
        message["since"] = since
    ws.send_json(message)
    subscribed = recv(ws)
    assert subscribed["type"] == "subscribed", subscribed
    view = View(game_id)
    if subscribed["recovered"]:
        assert since is not None
        view.version = since
        for _ in range(subscribed["version"] - since):
            frame = recv(ws)
            assert frame["type"] == "change", frame
            view.changes.append(frame)
            view.version = frame["version"]
    else:
        snapshot = recv(ws)
        assert snapshot["type"] == "snapshot", snapshot
        assert snapshot["version"] == subscribed["version"]
        view.feed(snapshot)
    return subscribed, view


def act(
    ws: CheckedWebSocket,
    game_id: str,
    action: Any,
    rid: str,
    expected_version: int | None = None,
    view: View | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Sends an action (``"u"`` sends an undo message) and reads up to its answer.

    Returns the ``result`` or ``error`` frame for ``rid`` and every other frame read on
    the way; for an accepted action, reading goes on until the change it made arrived.
    Every frame read is fed to ``view`` when one is given.
    """
    if action == "u":
        message: dict[str, Any] = {"type": "undo", "id": rid, "game_id": game_id}
    else:
        message = {"type": "action", "id": rid, "game_id": game_id, "action": action}
    if expected_version is not None:
        message["expected_version"] = expected_version
    ws.send_json(message)
    others: list[dict[str, Any]] = []
    answer: dict[str, Any] | None = None
    seen_versions: set[int] = set()
    while True:
        frame = recv(ws)
        if view is not None:
            view.feed(frame)
        if frame["type"] in ("result", "error") and frame.get("id") == rid:
            answer = frame
        else:
            others.append(frame)
            if frame["type"] == "change" and frame["game_id"] == game_id:
                seen_versions.add(frame["version"])
        if answer is None:
            continue
        if answer["type"] != "result" or answer["status"] != "accepted" or answer["duplicate"]:
            return answer, others
        if answer["version"] in seen_versions:
            return answer, others


def drain_to(ws: CheckedWebSocket, view: View, version: int) -> list[dict[str, Any]]:
    """Reads until ``view`` reached ``version``; returns the frames read."""
    frames = []
    while view.version < version:
        frame = recv(ws)
        view.feed(frame)
        frames.append(frame)
    return frames


# --------------------------------------------------------------------------- server side


def _store_load(client: CheckedClient, game_id: str) -> Any:
    portal = client.portal
    assert portal is not None, "use the client inside its with block"
    stored = portal.call(client.app.state.games.store.load, game_id)  # type: ignore[attr-defined]
    assert stored is not None, game_id
    return stored


def server_game(client: CheckedClient, game_id: str) -> engine.Klondike:
    """The server's own copy of a game, hidden cards included, straight from the store."""
    stored = _store_load(client, game_id)
    return engine.deserialize(stored.state)


def server_version(client: CheckedClient, game_id: str) -> int:
    version: int = _store_load(client, game_id).version
    return version


def public_state(client: CheckedClient, game_id: str) -> tuple[int, dict[str, Any]]:
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 200, response.text
    body = response.json()
    return body["version"], body["state"]


def post_action(
    client: CheckedClient, game_id: str, token: str | None, action: Any, **extra: Any
) -> Any:
    headers = auth(token) if token is not None else {}
    if action == "u":
        return client.post(f"/games/{game_id}/undo", json=extra, headers=headers)
    return client.post(
        f"/games/{game_id}/actions", json={"action": action, **extra}, headers=headers
    )


def replay(code: str, actions: list[str]) -> engine.Klondike:
    return engine.GameRecord(
        engine.GameCode.parse(code), engine.parse_actions(" ".join(actions))
    ).replay()


# --------------------------------------------------------------------------- random play


def pick_action(
    game: engine.Klondike, rng: random.Random, undo_rate: float = 0.1, tap_rate: float = 0.08
) -> str | None:
    """A random action for ``game`` in notation: mostly legal, sometimes a tap or an undo.

    Foundation moves and moves that turn a card are favoured so that games get somewhere.
    Taps may well be refused; None when nothing at all can be done.
    """
    if game.history and rng.random() < undo_rate:
        return "u"
    if rng.random() < tap_rate:
        sources = [f"c{i + 1}" for i, col in enumerate(game.columns) if col]
        if game.waste:
            sources.append("w")
        if sources:
            return rng.choice(["t", "tt"]) + rng.choice(sources)
    legal = game.legal_actions()
    if not legal:
        return "u" if game.history and not game.won else None
    weights = []
    for action in legal:
        weight = 1.0
        if isinstance(action, Move):
            if action.target.kind is PileKind.FOUNDATION:
                weight = 6.0
            elif action.source.kind is PileKind.FOUNDATION:
                weight = 0.3
            elif action.source.kind is PileKind.COLUMN:
                index = action.source.index
                assert index is not None
                start = len(game.columns[index]) - action.count
                weight = 4.0 if start == game.down[index] and start > 0 else 1.5
            else:
                weight = 2.0
        weights.append(weight)
    return str(rng.choices(legal, weights)[0])


def as_object(notation: str) -> dict[str, Any] | None:
    """The object form of an action in notation (None for undo)."""
    return action_object(engine.parse_action(notation))


# --------------------------------------------------------------------------- winning lines


def _position_key(game: engine.Klondike) -> str:
    fields = game.position_text().split()
    return " ".join(fields[2:6])


def _ordered(game: engine.Klondike, actions: list[engine.Action]) -> list[engine.Action]:
    scored = []
    for action in actions:
        score = 0
        if isinstance(action, Move):
            if action.target.kind is PileKind.FOUNDATION:
                score = 100
            elif action.source.kind is PileKind.FOUNDATION:
                continue
            elif action.source.kind is PileKind.COLUMN:
                index = action.source.index
                assert index is not None
                start = len(game.columns[index]) - action.count
                if start == 0 and not game.columns[action.target.index or 0]:
                    continue
                score = 50 if start == game.down[index] and start > 0 else 40 if start == 0 else 10
            else:
                score = 30
        scored.append((score, action))
    scored.sort(key=lambda pair: -pair[0])
    return [action for _, action in scored]


def solve(code: engine.GameCode, budget: int) -> list[str] | None:
    """A winning line for ``code`` found by depth-first search, or None within ``budget``."""
    start = engine.new_game(code)
    seen = {_position_key(start)}
    stack: list[tuple[engine.Klondike, list[str]]] = [(start, [])]
    nodes = 0
    while stack and nodes < budget:
        game, path = stack.pop()
        nodes += 1
        if game.won:
            return path
        children = []
        for action in _ordered(game, game.legal_actions()):
            child = game.copy()
            outcome = child.play(action)
            key = _position_key(child)
            if key in seen:
                continue
            seen.add(key)
            children.append((child, [*path, str(outcome.action)]))
        stack.extend(reversed(children))
    return None


def winnable_reflechi(first_deal: int = 0, budget: int = 2000) -> tuple[str, list[str]]:
    """The first Solitaire Réfléchi deal from ``first_deal`` on with a quickly found win."""
    for deal in range(first_deal, first_deal + 50):
        code = engine.GameCode(engine.GameKind.REFLECHI, 1, engine.Scoring.NORMAL, deal)
        line = solve(code, budget)
        if line is not None:
            return str(code), line
    raise AssertionError("no winnable deal found")
