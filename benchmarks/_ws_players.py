"""The players of ``ws_load.py``'s service phase: one game each, its WebSocket, a local
copy of the game and the script of actions it sends (``attacks.py`` plays them too)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field
from typing import Any

from benchmarks._client import Tally, random_move, recv_json, ws_connect
from benchmarks._processes import HOST, Listening

# Accepted actions (undos among them) of the game whose Redis bytes are measured.
MEMORY_ACTIONS = 200


@dataclass(frozen=True, slots=True)
class Step:
    """One action or undo to send: its request id, its frame, and the notation the service
    answers with (None when drawn live: the answer is then played on the local copy)."""

    request_id: str
    frame: str
    notation: str | None
    undo: bool


@dataclass
class Player:
    """One game, its WebSocket and a local copy of the game kept in step with it.

    With a script (``write_script``) the actions were drawn before the measured window,
    on a copy of their own: in the window the driver only sends them and checks each
    answer's notation, so that its CPU per action is close to the echo phases' driver
    and leaves the machine's cores to the servers. The local copy plays the accepted
    notations after the window (or when the script runs out, and live play goes on).
    """

    game_id: str
    token: str
    code: str
    local: Any  # engine.Klondike
    rng: random.Random
    accepted: int = 0
    changes: int = 0
    script: list[Step] = field(default_factory=list)
    sent: int = 0  # steps of the script sent
    played: list[str] = field(default_factory=list)  # accepted notations not yet on local

    def next_step(self, tally: Tally) -> Step | None:
        if self.script:
            if self.sent < len(self.script):
                self.sent += 1
                return self.script[self.sent - 1]
            tally.counts["scripts_run_out"] += 1
            self.script = []
            self.catch_up_local()
        message = random_move(self.local, self.game_id, self.rng)
        if message is None:
            return None
        return Step(message["id"], json_text(message), None, message["type"] == "undo")

    def catch_up_local(self) -> None:
        from service import engine

        for notation in self.played:
            self.local.play(engine.parse_action(notation))
        self.played = []


def json_text(message: dict[str, Any]) -> str:
    import orjson

    return orjson.dumps(message).decode()


def write_script(player: Player, length: int) -> None:
    """Draws ``length`` random legal actions and undos (fewer if the game ends) for
    ``player``, on a copy of its game."""
    from service import engine

    game = engine.new_game(player.code)
    script = []
    for _ in range(length):
        message = random_move(game, player.game_id, player.rng)
        if message is None:
            break
        undo = message["type"] == "undo"
        action = engine.Undo() if undo else engine.parse_action(message["action"])
        notation = str(game.play(action).action)
        script.append(Step(message["id"], json_text(message), notation, undo))
    player.script = script


async def create_player(http: Any, port: int, rng: random.Random, game: str = "DS") -> Player:
    from service import engine

    response = await http.post(
        f"http://{HOST}:{port}/games", json={"game": game, "draw": 1, "scoring": "normal"}
    )
    if response.status_code != 201:
        raise RuntimeError(f"create game answered {response.status_code}: {response.text}")
    body = response.json()
    local = engine.new_game(body["code"])
    if local.public_view() != body["state"]:
        raise RuntimeError("the local engine does not deal the game the service dealt")
    return Player(
        body["game_id"], body["player_token"], body["code"], local, random.Random(rng.random())
    )


async def open_session(player: Player, ws: Any, in_results: bool) -> None:
    import orjson

    hello = {"type": "hello", "protocol": 1, "changes_in_results": in_results}
    await ws.send(orjson.dumps(hello).decode())
    welcome = await recv_json(ws)
    if welcome.get("type") != "welcome":
        raise RuntimeError(f"hello answered {welcome}")
    await ws.send(
        orjson.dumps(
            {"type": "subscribe", "id": "s", "game_id": player.game_id, "token": player.token}
        ).decode()
    )
    subscribed = await recv_json(ws)
    if subscribed.get("type") != "subscribed" or subscribed.get("role") != "player":
        raise RuntimeError(f"subscribe answered {subscribed}")
    snapshot = await recv_json(ws)
    if snapshot.get("type") != "snapshot":
        raise RuntimeError(f"expected a snapshot, got {snapshot}")


async def play_once(player: Player, ws: Any, tally: Tally) -> bool:
    """Sends one action or undo and waits for its result; False when the game is over."""
    from service import engine

    step = player.next_step(tally)
    if step is None:
        return False
    rid = step.request_id
    sent = time.perf_counter()
    await ws.send(step.frame)
    while True:
        reply = await recv_json(ws)
        kind = reply.get("type")
        if kind == "change":
            count_change(player, reply, tally)
            continue
        if reply.get("id") != rid:
            tally.counts[f"unexpected_{kind}"] += 1
            continue
        break
    received = time.perf_counter()
    accepted = kind == "result" and reply.get("status") == "accepted"
    tally.record(sent, received, accepted)
    if accepted and "change" in reply:
        count_change(player, reply["change"], tally)
    if accepted:
        if step.notation is None:
            player.local.play(engine.parse_action(reply["notation"]))
        else:
            if reply["notation"] != step.notation:
                tally.counts["script_mismatches"] += 1
            player.played.append(reply["notation"])
        player.accepted += 1
        tally.counts["undos" if step.undo else "actions"] += 1
    elif kind == "result":
        # A rejected legal action means the local copy went wrong: worth a loud count.
        tally.counts["rejected"] += 1
    else:
        tally.counts[f"error_{reply.get('code')}"] += 1
    return True


async def drain_changes(player: Player, ws: Any, tally: Tally, timeout: float = 2.0) -> None:
    """Reads the change frames still on their way (one per accepted action)."""
    import orjson

    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(timeout):
            while player.changes < player.accepted:
                reply = orjson.loads(await ws.recv())
                if reply.get("type") == "change":
                    count_change(player, reply, tally)


def count_change(player: Player, change: dict[str, Any], tally: Tally) -> None:
    """Every change once and in order, as a frame or inside its result."""
    if change.get("version") != player.changes + 1:
        tally.counts["changes_out_of_order"] += 1
    player.changes += 1
    tally.counts["change_frames"] += 1


async def check_players(http: Any, port: int, players: list[Player], tally: Tally) -> None:
    """Each local copy must equal the service's state, version included."""

    async def check(player: Player) -> None:
        response = await http.get(f"http://{HOST}:{port}/games/{player.game_id}")
        body = response.json()
        if body["version"] != player.accepted or body["state"] != player.local.public_view():
            tally.counts["state_mismatches"] += 1

    await asyncio.gather(*(check(p) for p in players))


async def memory_phase(
    args: argparse.Namespace, server: Listening, http: Any, redis: Any, rng: random.Random
) -> dict[str, Any]:
    """Redis bytes of one DS game after ``MEMORY_ACTIONS`` accepted actions and undos."""
    player = await create_player(http, server.port, rng, "DS")
    tally = Tally(window_start=0.0, window_end=float("inf"))
    async with ws_connect(server.port, args.compression) as ws:
        await open_session(player, ws, args.changes_in_results)
        while player.accepted < MEMORY_ACTIONS:
            if not await play_once(player, ws, tally):
                raise RuntimeError("the memory game ended before 200 actions; try again")
        await drain_changes(player, ws, tally)
    check = Tally()
    await check_players(http, server.port, [player], check)
    per_key: dict[str, int] = {}
    async for key in redis.scan_iter(match=f"sol:{{{player.game_id}}}:*", count=100):
        size = await redis.memory_usage(key, samples=0)
        per_key[key.decode().rsplit(":", 1)[-1]] = int(size or 0)
    return {
        "actions": MEMORY_ACTIONS,
        "bytes": sum(per_key.values()),
        "per_key": per_key,
        "undos": tally.counts["undos"],
        "mismatch": check.counts["state_mismatches"],
    }
