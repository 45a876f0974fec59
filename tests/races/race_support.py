"""Helpers for the race tests: players and spectators on WebSockets, timed reads, a small
Solitaire Réfléchi solver, and checks that nothing secret reaches a client during a race.

Every frame is read from a ``checked_websocket`` and validated against the committed
``server-message.json`` schema, exactly as ``CheckedWebSocket.receive_json`` does; the
reads here only add a timeout, so a missing message fails the test instead of hanging it.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import anyio

from service import engine
from service.engine import Move, PileKind
from tests.support import CheckedClient, CheckedWebSocket, auth, check_server_message, hello

TIMEOUT = 10.0
CARD_RE = re.compile(r"^[A23456789TJQK][SHDC]$")

Frame = dict[str, Any]


# --------------------------------------------------------------------------- REST


def create_race(client: CheckedClient, name: str, **body: Any) -> dict[str, Any]:
    response = client.post("/races", json={"name": name, **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    assert response.headers["location"] == f"/races/{created['race_id']}"
    return created


def join_race(client: CheckedClient, join_code: str, name: str) -> dict[str, Any]:
    response = client.post("/races/join", json={"join_code": join_code, "name": name})
    assert response.status_code == 201, response.text
    joined: dict[str, Any] = response.json()
    return joined


def race_post(
    client: CheckedClient, race_id: str, command: str, token: str | None, **body: Any
) -> Any:
    headers = auth(token) if token is not None else {}
    return client.post(f"/races/{race_id}/{command}", json=body or None, headers=headers)


def problem_code(response: Any) -> str:
    assert response.headers["content-type"].startswith("application/problem+json"), response.text
    code: str = response.json()["code"]
    return code


# --------------------------------------------------------------------------- WebSockets


class Peer:
    """One WebSocket connection (a player or a spectator) with timed, schema-checked reads."""

    def __init__(self, client: CheckedClient, label: str) -> None:
        self.label = label
        self._stack = contextlib.ExitStack()
        self.ws: CheckedWebSocket = self._stack.enter_context(client.checked_websocket())
        self.closed = False
        self._ids = 0
        hello(self.ws)

    @property
    def frames(self) -> list[Frame]:
        return self.ws.received

    def hang_up(self) -> None:
        """Closes the socket from the client side; the server then ends the connection on
        its own (``close`` would also cancel the server's side, as the test client does)."""
        self.ws.close(1000)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._stack.close()

    def next_id(self, prefix: str = "r") -> str:
        self._ids += 1
        return f"{prefix}{self._ids}"

    def send(self, message: Frame) -> None:
        self.ws.send_json(message)

    def recv(self, timeout: float = TIMEOUT) -> Frame:
        session = self.ws.session

        async def receive() -> Any:
            with anyio.fail_after(timeout):
                return await session._send_rx.receive()

        try:
            message = session.portal.call(receive)
        except TimeoutError as exc:
            raise AssertionError(f"{self.label}: no frame within {timeout}s") from exc
        session._raise_on_close(message)
        frame: Frame = json.loads(message["text"])
        check_server_message(frame)
        self.ws.received.append(frame)
        return frame

    def mark(self) -> int:
        """A position in ``frames``, for ``until(since=...)``."""
        return len(self.frames)

    def until(
        self,
        predicate: Callable[[Frame], bool],
        timeout: float = TIMEOUT,
        since: int | None = None,
    ) -> Frame:
        """The first frame that satisfies ``predicate``: among those already received from
        position ``since`` on (when given), else read next (within ``timeout`` in all)."""
        if since is not None:
            for frame in self.frames[since:]:
                if predicate(frame):
                    return frame
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.label}: the expected frame did not come")
            frame = self.recv(left)
            if predicate(frame):
                return frame

    def reply(self, request_id: str, timeout: float = TIMEOUT) -> Frame:
        """The answer (``result``, ``error``, ``race``...) carrying ``request_id``."""
        return self.until(lambda f: f.get("id") == request_id, timeout, since=0)

    def drain(self) -> list[Frame]:
        """Everything already sent to this connection (up to the answer of a ping)."""
        start = len(self.frames)
        rid = self.next_id("ping")
        self.send({"type": "ping", "id": rid})
        self.until(lambda f: f["type"] == "pong" and f.get("id") == rid)
        return self.frames[start:-1]

    # -- race requests

    def watch(self, race_id: str, token: str | None = None) -> Frame:
        rid = self.next_id("w")
        message: Frame = {"type": "watch_race", "id": rid, "race_id": race_id}
        if token is not None:
            message["token"] = token
        self.send(message)
        frame = self.reply(rid)
        assert frame["type"] == "race", frame
        return frame

    def command(self, race_id: str, command: str) -> Frame:
        rid = self.next_id("c")
        self.send({"type": "race_command", "id": rid, "race_id": race_id, "command": command})
        return self.reply(rid)

    def subscribe(self, game_id: str, token: str | None = None) -> tuple[Frame, Frame | None]:
        """Subscribes to a game; the ``subscribed`` answer (or error) and the snapshot."""
        rid = self.next_id("s")
        message: Frame = {"type": "subscribe", "id": rid, "game_id": game_id}
        if token is not None:
            message["token"] = token
        self.send(message)
        answer = self.reply(rid)
        if answer["type"] != "subscribed":
            return answer, None
        snapshot = self.until(lambda f: f["type"] == "snapshot" and f["game_id"] == game_id)
        return answer, snapshot

    def act(self, game_id: str, action: str) -> Frame:
        rid = self.next_id("a")
        self.send({"type": "action", "id": rid, "game_id": game_id, "action": action})
        return self.reply(rid)


def race_frames(peer: Peer, race_id: str) -> list[Frame]:
    return [f for f in peer.frames if f["type"] == "race" and f["race_id"] == race_id]


def is_race(race_id: str, predicate: Callable[[Frame], bool]) -> Callable[[Frame], bool]:
    """A frame predicate: a ``race`` message of ``race_id`` whose view satisfies ``predicate``."""
    return lambda f: f["type"] == "race" and f["race_id"] == race_id and predicate(f["race"])


def player_in(view: Frame, player_id: str) -> Frame:
    found: Frame = next(p for p in view["players"] if p["player_id"] == player_id)
    return found


@contextlib.contextmanager
def peers(client: CheckedClient, *labels: str) -> Iterator[list[Peer]]:
    opened = [Peer(client, label) for label in labels]
    try:
        yield opened
    finally:
        for peer in opened:
            peer.close()


# --------------------------------------------------------------------------- the clock


class Clock:
    """A service's time (``service_client(clock=...)``) that a test moves forward on
    demand, or holds still; it reads in seconds, like ``time.time``, and is moved in the
    milliseconds races speak."""

    def __init__(self) -> None:
        self.offset_ms = 0
        self.held_at: int | None = None

    @staticmethod
    def _real() -> int:
        return int(time.time() * 1000)

    def ms(self) -> int:
        """The time in milliseconds, as races give it."""
        if self.held_at is not None:
            return self.held_at
        return self._real() + self.offset_ms

    def __call__(self) -> float:
        return self.ms() / 1000

    def jump_past(self, at_ms: int, margin_ms: int = 1000) -> None:
        self.offset_ms = max(self.offset_ms, at_ms - self._real() + margin_ms)

    def hold(self) -> None:
        """Stops the races' time where it is: until ``release``, a countdown started now
        never runs out, however long the test's steps take."""
        self.held_at = self.ms()

    def release(self) -> None:
        """Lets the races' time run on from where it was held."""
        if self.held_at is not None:
            self.offset_ms = self.held_at - self._real()
            self.held_at = None


# --------------------------------------------------------------------------- fair play


def card_texts(value: Any) -> set[str]:
    """Every JSON string in ``value`` that is a card (``TH``, ``AS``...)."""
    found: set[str] = set()
    if isinstance(value, str):
        if CARD_RE.match(value):
            found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            found |= card_texts(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_texts(item)
    return found


def own_game_frame(frame: Frame, game_id: str | None) -> bool:
    """Frames about the connection's own game (the only ones that may show cards)."""
    return game_id is not None and frame.get("game_id") == game_id


def until_finished(frames: list[Frame], race_id: str) -> list[Frame]:
    """The frames received before the race was announced finished."""
    out = []
    for frame in frames:
        if (
            frame["type"] == "race"
            and frame["race_id"] == race_id
            and frame["race"]["status"] == "finished"
        ):
            break
        out.append(frame)
    return out


def assert_fair(
    frames: list[Frame],
    *,
    race_id: str,
    code: str,
    own_game: str | None,
    other_games: list[str],
) -> None:
    """Nothing of the deal or of another player's board reached this connection.

    During the race: no frame holds the code, and only frames about the connection's own
    game hold cards. Never (not even after the end): another player's game id, except in
    the refusal of a request that named it.
    """
    deal_letters = code.rsplit("-", 1)[1]
    for frame in frames:
        if frame["type"] == "error" and frame.get("game_id") in other_games:
            # The refusal of a request that named the game: the client's own words back.
            assert not card_texts(frame), frame
            continue
        text = json.dumps(frame)
        for game_id in other_games:
            assert game_id not in text, f"an opponent's game id reached a client: {frame}"
    for frame in until_finished(frames, race_id):
        text = json.dumps(frame)
        assert code not in text and deal_letters not in text, f"the code leaked: {frame}"
        if not own_game_frame(frame, own_game):
            assert not card_texts(frame), f"cards outside the player's own game: {frame}"


# --------------------------------------------------------------------------- a TF solver


def _state_key(game: engine.Klondike) -> str:
    # Piles only: score, moves and history do not matter for solvability.
    return " ".join(game.position_text().split(" ")[2:6])


def _ordered_actions(game: engine.Klondike) -> list[engine.Action]:
    ranked: list[tuple[int, engine.Action]] = []
    for action in game.legal_actions():
        if isinstance(action, Move):
            if action.source.kind is PileKind.FOUNDATION:
                continue  # never take a card back
            if action.target.kind is PileKind.FOUNDATION:
                ranked.append((0, action))
                continue
            if action.source.kind is PileKind.COLUMN:
                assert action.source.index is not None and action.target.index is not None
                size = len(game.columns[action.source.index])
                if size == action.count and not game.columns[action.target.index]:
                    continue  # a whole column to an empty one changes nothing
                ranked.append((1 if size > action.count else 3, action))
                continue
            ranked.append((2, action))
        else:
            ranked.append((4, action))
    ranked.sort(key=lambda item: item[0])
    return [action for _, action in ranked]


def solve(code: engine.GameCode, max_nodes: int) -> list[str] | None:
    """A winning line (notations) found by depth-first search, or None within the budget."""
    seen: set[str] = set()
    path: list[str] = []
    nodes = 0

    def search(game: engine.Klondike) -> bool:
        nonlocal nodes
        if game.won:
            return True
        key = _state_key(game)
        if nodes >= max_nodes or key in seen:
            return False
        seen.add(key)
        nodes += 1
        for action in _ordered_actions(game):
            child = game.copy()
            outcome = child.play(action)
            path.append(str(outcome.action))
            if search(child):
                return True
            path.pop()
        return False

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * max_nodes + 100))
    try:
        return list(path) if search(engine.new_game(code)) else None
    finally:
        sys.setrecursionlimit(limit)


@functools.cache
def solvable_tf_deal(max_nodes: int = 600, tries: int = 200) -> tuple[engine.GameCode, list[str]]:
    """The first TF draw-1 deal (by number) that ``solve`` wins within ``max_nodes`` nodes."""
    for deal in range(tries):
        code = engine.GameCode(engine.GameKind.REFLECHI, 1, engine.Scoring.NORMAL, deal)
        line = solve(code, max_nodes)
        if line is not None:
            # The line must really win when replayed from the deal.
            game = engine.new_game(code)
            for notation in line:
                game.play(engine.parse_action(notation))
            assert game.won
            return code, line
    raise AssertionError(f"no TF deal among the first {tries} solved within {max_nodes} nodes")


def fixed_code(code: engine.GameCode) -> Any:
    """A stand-in for ``GameCode.random_secret`` that always deals ``code``."""
    return staticmethod(lambda *args, **kwargs: code)
