"""Concurrency and versions: several connections and HTTP clients acting on one game at
once, and several service instances sharing one Redis. Whatever the interleaving,
versions have no gaps, every accepted request made exactly one version, and the action
log replays to exactly the stored state."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import jsonpatch
import pytest

from service import engine
from service.config import Settings
from service.errors import RuleRejected, ServiceError
from service.games import Games
from service.store import Delivery, open_store
from tests.service.helpers import (
    View,
    act,
    drain_to,
    games_on,
    greet,
    ping,
    post_action,
    public_state,
    replay,
    server_game,
    subscribe,
)
from tests.support import CheckedClient, auth, new_game, service_client


class Outcomes:
    """What the concurrent actors were told, collected across threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.accepted: list[int] = []
        self.refused: list[str] = []
        self.failures: list[BaseException] = []

    def add(self, accepted: int | None = None, refused: str | None = None) -> None:
        with self.lock:
            if accepted is not None:
                self.accepted.append(accepted)
            if refused is not None:
                self.refused.append(refused)


TAPS = ["tc1", "ttc2", "tc5", "ttc9", "tw", "ttw"]


def choose(rng: random.Random, legal: list[str]) -> str:
    roll = rng.random()
    if roll < 0.45:
        return "d"
    if roll < 0.7:
        return "u"
    return rng.choice(legal) if legal else "d"


def test_players_on_two_connections_and_http_at_once(client: CheckedClient) -> None:
    created = new_game(client, game="DS", draw=1)
    game_id, token = created["game_id"], created["player_token"]
    outcomes = Outcomes()
    rounds = 25

    def websocket_player(ws: Any, name: str, seed: int) -> None:
        rng = random.Random(seed)
        try:
            for step in range(rounds):
                answer, _ = act(ws, game_id, choose(rng, TAPS), f"{name}-{step}")
                if answer["type"] == "error":
                    outcomes.add(refused=answer["code"])
                elif answer["status"] == "rejected":
                    outcomes.add(refused="rejected")
                else:
                    assert answer["duplicate"] is False
                    outcomes.add(accepted=answer["version"])
        except BaseException as exc:  # reported in the main thread
            outcomes.failures.append(exc)

    def http_player(name: str, seed: int) -> None:
        rng = random.Random(seed)
        try:
            for step in range(rounds):
                listing = client.get(f"/games/{game_id}/legal-actions").json()["actions"]
                legal = [entry["notation"] for entry in listing]
                action = choose(rng, legal)
                response = post_action(client, game_id, token, action, request_id=f"{name}-{step}")
                if response.status_code == 200:
                    body = response.json()
                    assert body["duplicate"] is False
                    outcomes.add(accepted=body["version"])
                else:
                    assert response.status_code in (409, 422), response.text
                    outcomes.add(refused=response.json()["code"])
        except BaseException as exc:
            outcomes.failures.append(exc)

    with (
        client.checked_websocket() as first,
        client.checked_websocket() as second,
        client.checked_websocket() as watcher,
    ):
        for ws, who in ((first, token), (second, token), (watcher, None)):
            greet(ws)
            subscribe(ws, game_id, who)
        threads = [
            threading.Thread(target=websocket_player, args=(first, "ws1", 1)),
            threading.Thread(target=websocket_player, args=(second, "ws2", 2)),
            threading.Thread(target=http_player, args=("http1", 3)),
            threading.Thread(target=http_player, args=("http2", 4)),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
            assert not thread.is_alive()
        assert not outcomes.failures, outcomes.failures

        version, state = public_state(client, game_id)
        assert sorted(outcomes.accepted) == list(range(1, version + 1))
        assert len(outcomes.accepted) + len(outcomes.refused) == 4 * rounds
        assert set(outcomes.refused) <= {"rejected", "rule_violation", "invalid_action"}
        assert version > rounds  # most requests went through
        for ws in (first, second, watcher):
            view = View(game_id)
            for frame in ws.received:
                view.feed(frame)
            drain_to(ws, view, version)
            ping(ws)
            changes = [f["version"] for f in ws.received if f["type"] == "change"]
            assert changes == list(range(1, version + 1))
            assert view.state == state

    record = client.get(f"/games/{game_id}/record", headers=auth(token)).json()
    assert record["version"] == len(record["actions"]) == version
    replayed = engine.GameRecord.parse(record["record"]).replay()
    assert replayed.serialize() == server_game(client, game_id).serialize()
    assert replayed.public_view() == state


class Collector:
    """A local subscriber: records every delivery it is given."""

    def __init__(self) -> None:
        self.deliveries: list[Delivery] = []

    def deliver(self, delivery: Delivery) -> None:
        self.deliveries.append(delivery)


async def _wait_for(predicate: Any, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_two_instances_and_many_tasks_on_one_game(store_url: str) -> None:
    settings = Settings(store_url=store_url)
    first_store = open_store(settings)
    # Memory is one process's store: the second instance shares it. Redis: its own client.
    second_store = first_store if store_url.startswith("memory") else open_store(settings)
    await first_store.open()
    if second_store is not first_store:
        await second_store.open()
    try:
        first, second = games_on(first_store, settings), games_on(second_store, settings)
        created = await first.create("DS", 1, "normal", None)
        game_id, token = created["game_id"], created["player_token"]
        collector = Collector()
        await first_store.subscribe(game_id, collector)

        accepted: list[int] = []
        refused: list[str] = []

        async def actor(games: Games, seed: int) -> None:
            rng = random.Random(seed)
            for _ in range(20):
                action = engine.Draw() if rng.random() < 0.6 else engine.Undo()
                try:
                    applied = await games.act(game_id, token, action)
                except RuleRejected as exc:
                    refused.append(exc.rejection["rule_id"])
                except ServiceError as exc:
                    refused.append(exc.code.value)
                else:
                    assert not applied.duplicate
                    accepted.append(applied.version)

        await asyncio.gather(
            *(actor(games, seed) for seed, games in enumerate([first, second] * 3))
        )
        stored = await first_store.load(game_id)
        assert stored is not None
        actions = await first_store.actions(game_id)
        assert actions is not None
        assert sorted(accepted) == list(range(1, stored.version + 1))
        assert len(actions) == stored.version
        assert replay(stored.code, actions).serialize() == stored.state

        # Every version reaches the first instance's subscriber (its own commits at once,
        # the other's through Redis, so not necessarily in order: connections put them
        # back in order), each with the change its version made.
        def delivered() -> set[int]:
            return {d.version for d in collector.deliveries}

        await _wait_for(lambda: delivered() == set(range(1, stored.version + 1)))
        for delivery in collector.deliveries:
            assert delivery.payload is not None
            notation = actions[delivery.version - 1]
            assert f'"notation":"{notation}"'.encode() in delivery.payload
            assert f'"version":{delivery.version},'.encode() in delivery.payload
    finally:
        await first_store.close()
        if second_store is not first_store:
            await second_store.close()


async def test_a_stale_instance_retries_on_conflict(clean_redis: str) -> None:
    settings = Settings(store_url=clean_redis)
    stores = [open_store(settings), open_store(settings)]
    for store in stores:
        await store.open()
    try:
        first, second = (games_on(store, settings) for store in stores)
        created = await first.create("DS", 1, "normal", "DS1-D1N-AAAAAAB")
        game_id, token = created["game_id"], created["player_token"]
        mirror = engine.new_game("DS1-D1N-AAAAAAB")

        # The second instance moves the game on; the first still holds version 0.
        applied = await second.act(game_id, token, engine.Draw())
        assert applied.version == 1
        mirror.play(engine.Draw())
        at_one = mirror.public_view()

        applied = await first.act(game_id, token, engine.Draw(), request_id="r-2")
        assert applied.version == 2
        mirror.play(engine.Draw())
        assert applied.change is not None
        # The change was built on the fresh state, not on the stale copy.
        assert jsonpatch.apply_patch(at_one, applied.change["patch"]) == mirror.public_view()
        stored = await stores[0].load(game_id)
        assert stored is not None
        assert stored.state == mirror.serialize()
        assert await stores[1].actions(game_id) == ["d", "d"]

        # The same request through the other instance: a duplicate, not a third draw.
        again = await second.act(game_id, token, engine.Draw(), request_id="r-2")
        assert (again.duplicate, again.version) == (True, 2)

        # expected_version is checked against the store, not against a stale copy.
        await second.act(game_id, token, engine.Draw())
        applied = await first.act(game_id, token, engine.Draw(), expected_version=3)
        assert applied.version == 4
        with pytest.raises(ServiceError) as refused:
            await second.act(game_id, token, engine.Draw(), expected_version=3)
        assert refused.value.code.value == "stale_version"
        assert refused.value.extra["current_version"] == 4
        actions = await stores[0].actions(game_id)
        stored = await stores[1].load(game_id)
        assert stored is not None and actions is not None
        assert actions == ["d"] * 4
        assert replay(stored.code, actions).serialize() == stored.state
    finally:
        for store in stores:
            await store.close()


def test_changes_made_on_one_instance_reach_watchers_on_another(clean_redis: str) -> None:
    with service_client(clean_redis) as here, service_client(clean_redis) as there:
        created = new_game(here, game="TF")
        game_id, token = created["game_id"], created["player_token"]
        with here.checked_websocket() as watcher, there.checked_websocket() as player:
            greet(watcher)
            greet(player)
            _, watching = subscribe(watcher, game_id)
            _, playing = subscribe(player, game_id, token)
            for step, action in enumerate(["d", "d", "u", "d", "d"]):
                answer, _ = act(player, game_id, action, f"a{step}", view=playing)
                assert answer["version"] == step + 1
            drain_to(watcher, watching, 5)
            assert watching.state == playing.state == public_state(here, game_id)[1]
            # And HTTP on the first instance keeps acting on the same game.
            assert post_action(here, game_id, token, "d").status_code == 200
            drain_to(player, playing, 6)
            drain_to(watcher, watching, 6)
            assert watching.state == playing.state == public_state(there, game_id)[1]


def test_a_stale_instance_does_not_refuse_an_action_that_is_legal_now(clean_redis: str) -> None:
    with service_client(clean_redis) as here, service_client(clean_redis) as there:
        created = new_game(here, game="DS")
        game_id, token = created["game_id"], created["player_token"]
        assert post_action(there, game_id, token, "d").status_code == 200
        # Version 1 has a draw to undo; the first instance still caches version 0.
        response = post_action(here, game_id, token, "u")
        assert response.status_code == 200, response.text
        assert response.json()["version"] == 2


def test_a_stale_instance_plays_from_the_waste_it_has_not_seen(clean_redis: str) -> None:
    with service_client(clean_redis) as here, service_client(clean_redis) as there:
        created = new_game(here, game="TF")
        game_id, token = created["game_id"], created["player_token"]
        assert post_action(there, game_id, token, "d").status_code == 200
        answer = post_action(here, game_id, token, "ttw")
        # Whatever the drawn card allows, the answer must be about version 1's waste.
        body = answer.json()
        assert answer.status_code in (200, 409), body
        if answer.status_code == 409:
            assert body["current_version"] == 1


def test_two_instances_acting_at_once_keep_every_connection_in_order(clean_redis: str) -> None:
    """Each instance hands its own commits to its connections at once and hears the
    other's through Redis later: connections must still see every version once, in order."""
    with service_client(clean_redis) as here, service_client(clean_redis) as there:
        created = new_game(here, game="DS")
        game_id, token = created["game_id"], created["player_token"]
        outcomes = Outcomes()

        def http_player(client: CheckedClient, name: str) -> None:
            try:
                for step in range(40):
                    action = "u" if step % 4 == 3 else "d"
                    response = post_action(
                        client, game_id, token, action, request_id=f"{name}{step}"
                    )
                    if response.status_code == 200:
                        outcomes.add(accepted=response.json()["version"])
                    else:
                        outcomes.add(refused=response.json()["code"])
            except BaseException as exc:
                outcomes.failures.append(exc)

        with (
            here.checked_websocket() as watcher_here,
            there.checked_websocket() as watcher_there,
            here.checked_websocket() as player_here,
        ):
            for ws, who in ((watcher_here, None), (watcher_there, None), (player_here, token)):
                greet(ws)
                subscribe(ws, game_id, who)
            threads = [
                threading.Thread(target=http_player, args=(here, "h")),
                threading.Thread(target=http_player, args=(there, "t")),
            ]
            for thread in threads:
                thread.start()
            for step in range(20):
                act(player_here, game_id, "d", f"ws{step}")
            for thread in threads:
                thread.join(120)
            assert not outcomes.failures, outcomes.failures
            version, state = public_state(there, game_id)
            assert version >= 80
            for ws in (watcher_here, watcher_there, player_here):
                view = View(game_id)
                for frame in ws.received:
                    view.feed(frame)  # asserts each change is the next version
                drain_to(ws, view, version)
                ping(ws)
                assert [f["version"] for f in ws.received if f["type"] == "change"] == list(
                    range(1, version + 1)
                )
                assert view.state == state
        record = here.get(f"/games/{game_id}/record", headers=auth(token)).json()
        assert replay(record["code"], record["actions"]).public_view() == state


async def test_an_action_cancelled_before_its_commit_leaves_no_trace(store_url: str) -> None:
    """A connection that goes away while its action waits on the store cancels the
    action: the live copy, which has it played, must not serve the next action, or the
    next commit would store a state holding a move that the action log lacks."""
    settings = Settings(store_url=store_url)
    store = open_store(settings)
    await store.open()
    try:
        games = games_on(store, settings)
        created = await games.create("DS", 1, "normal", "DS1-D1N-AAAAAAB")
        game_id, token = created["game_id"], created["player_token"]
        commit = store.commit
        waiting = asyncio.Event()

        async def commit_never_sent(*args: Any, **kwargs: Any) -> Any:
            waiting.set()
            await asyncio.Event().wait()

        store.commit = commit_never_sent  # type: ignore[method-assign]
        cancelled = asyncio.create_task(games.act(game_id, token, engine.Draw()))
        await waiting.wait()
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
        store.commit = commit  # type: ignore[method-assign]

        applied = await games.act(game_id, token, engine.Draw())
        stored = await store.load(game_id)
        actions = await store.actions(game_id)
        assert applied.version == 1 and stored is not None and actions is not None
        assert [action.split("@")[0] for action in actions] == ["d"]
        one_draw = replay("DS1-D1N-AAAAAAB", ["d"])
        assert engine.deserialize(stored.state).serialize() == one_draw.serialize()
    finally:
        await store.close()
