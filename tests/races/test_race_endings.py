"""The end of a race, seen from the race layer: resignations read the race once, and
endings at the same moment settle into one result."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from service import engine
from service.app import assemble
from service.config import Settings
from service.games import Games
from service.games.hooks import RaceHooks, RaceRead
from service.races import Races
from service.store import Store, open_store
from service.support.metrics import Metrics
from tests.races.race_support import fixed_code, solvable_tf_deal


class Untold:
    """The race gate of a service's games, which can be made deaf to what actions
    change in a race (``telling``): as if the instance stopped between an action's
    commit and its telling."""

    def __init__(self, gate: RaceHooks) -> None:
        self.gate_of = gate
        self.deaf = False

    async def gate(self, race_id: str, game_id: str, earlier: RaceRead | None = None) -> RaceRead:
        return await self.gate_of.gate(race_id, game_id, earlier)

    async def after_action(
        self, race_id: str, game_id: str, game: engine.Klondike, gate_read: RaceRead | None
    ) -> None:
        if not self.deaf:
            await self.gate_of.after_action(race_id, game_id, game, gate_read)

    async def stage(self, race_id: str) -> str:
        return await self.gate_of.stage(race_id)


@pytest.fixture
async def races(store_url: str) -> AsyncIterator[Races]:
    settings = Settings(store_url=store_url, race_countdown_seconds=0)
    store = open_store(settings)
    await store.open()
    parts = assemble(store, settings, Metrics(), time.time)
    games = Games(store, settings, races=Untold(parts.games.races), players=parts.games.players)
    races = Races(games, parts.races.updates, settings, parts.analysis, parts.races.clock)
    try:
        yield races
    finally:
        await races.close()
        await store.close()


@contextlib.contextmanager
def untold(races: Races) -> Iterator[None]:
    """Actions played meanwhile are committed, but their race is not told of them."""
    gate = races.games.races
    assert isinstance(gate, Untold)
    gate.deaf = True
    try:
        yield
    finally:
        gate.deaf = False


async def running_race(races: Races, players: int = 2) -> tuple[str, list[str]]:
    """A race that has started, and its players' tokens."""
    host = await races.lobby.create(
        name="P0",
        game="TF",
        draw=1,
        scoring="normal",
        max_players=players,
        time_limit_seconds=None,
    )
    tokens = [host["player_token"]]
    for n in range(1, players):
        joined = await races.lobby.join(host["join_code"], f"P{n}")
        tokens.append(joined["player_token"])
    await races.lobby.start(host["race_id"], tokens[0])
    # The start's timer pushes the race once more as it begins: let it, so that it does
    # not read the race in the middle of what a test counts.
    for _ in range(200):
        _, doc = await races.updates.load(host["race_id"])
        if doc.announced:
            break
        await asyncio.sleep(0.01)
    return host["race_id"], tokens


def count_race_reads(store: Store) -> list[str]:
    reads: list[str] = []
    load_race = store.load_race

    async def counted(race_id: str) -> Any:
        reads.append(race_id)
        return await load_race(race_id)

    store.load_race = counted  # type: ignore[method-assign]
    return reads


async def test_a_resignation_reads_the_race_once(races: Races) -> None:
    race_id, tokens = await running_race(races)
    reads = count_race_reads(races.games.store)
    await races.resign_game(race_id, tokens[0])
    # Once to check the player may resign; the gate of the resign and the update after
    # its commit start from that read.
    assert reads == [race_id]
    race = await races.state(race_id)
    states = sorted(p["state"] for p in race["race"]["players"])
    assert states == ["disconnected", "resigned"] or states == ["playing", "resigned"]


async def test_the_last_resignation_ends_the_race_with_one_result(races: Races) -> None:
    race_id, tokens = await running_race(races)
    await races.resign_game(race_id, tokens[0])
    await races.resign_game(race_id, tokens[1])
    race = (await races.state(race_id))["race"]
    assert race["status"] == "finished"
    assert [p["state"] for p in race["players"]] == ["resigned", "resigned"]
    assert len(race["result"]["ranking"]) == 2
    assert all(record.endswith(" resign") for record in race["result"]["records"].values())


async def test_resignations_at_the_same_moment_settle_into_one_result(races: Races) -> None:
    race_id, tokens = await running_race(races, players=4)
    # Each update starts from its gate's read; all but one find the race changed and read
    # it again, so no resignation is lost and the result counts all four.
    await asyncio.gather(*(races.resign_game(race_id, token) for token in tokens))
    race = (await races.state(race_id))["race"]
    assert race["status"] == "finished"
    assert [p["state"] for p in race["players"]] == ["resigned"] * 4
    records = race["result"]["records"]
    assert len(records) == 4 and all(r.endswith(" resign") for r in records.values())


async def won_unseen(races: Races, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, int]:
    """A running race whose first player has won without the race being told: the
    instance stopped between the winning action's commit and its telling. Returns the
    race, the winner's game and the server time its log gives the winning action."""
    code, line = solvable_tf_deal()
    monkeypatch.setattr(engine.GameCode, "random_secret", fixed_code(code))
    race_id, tokens = await running_race(races)
    _, doc = await races.updates.load(race_id)
    game_id = doc.players[0].game_id
    games = races.games
    for notation in line[:-1]:
        await games.act(game_id, tokens[0], engine.parse_action(notation))
    with untold(races):
        await games.act(game_id, tokens[0], engine.parse_action(line[-1]))
    _, doc = await races.updates.load(race_id)
    assert doc.players[0].state == "playing"
    stored = await games.store.load(game_id)
    timed = await games.store.timed_actions(game_id)
    assert stored is not None and timed is not None and timed[-1][1] is not None
    return race_id, game_id, stored.created_ms + timed[-1][1]


async def test_reading_a_race_settles_a_win_it_was_never_told_of(
    races: Races, monkeypatch: pytest.MonkeyPatch
) -> None:
    race_id, _, won_at = await won_unseen(races, monkeypatch)
    race = (await races.state(race_id))["race"]
    winner = race["players"][0]
    assert winner["state"] == "won" and winner["foundations"] == 52
    _, doc = await races.updates.load(race_id)
    assert doc.players[0].won_at == won_at and doc.start_at is not None
    assert winner["finish_ms"] == won_at - doc.start_at
    assert race["status"] == "running"  # the other player plays on


async def test_watching_a_race_settles_a_win_it_was_never_told_of(
    races: Races, monkeypatch: pytest.MonkeyPatch
) -> None:
    race_id, _, won_at = await won_unseen(races, monkeypatch)
    message, version = await races.watch(race_id, None)
    assert message["race"]["players"][0]["state"] == "won"
    _, doc = await races.updates.load(race_id)
    assert doc.players[0].won_at == won_at and message["version"] == version


async def test_reading_a_race_settles_a_resignation_it_was_never_told_of(
    races: Races,
) -> None:
    race_id, tokens = await running_race(races)
    _, doc = await races.updates.load(race_id)
    games = races.games
    with untold(races):
        await games.act(doc.players[1].game_id, tokens[1], engine.Resign())
    timed = await games.store.timed_actions(doc.players[1].game_id)
    stored = await games.store.load(doc.players[1].game_id)
    assert stored is not None and timed is not None and timed[-1][1] is not None
    race = (await races.state(race_id))["race"]
    assert [p["state"] for p in race["players"]][1] == "resigned"
    _, doc = await races.updates.load(race_id)
    assert doc.players[1].resigned_at == stored.created_ms + timed[-1][1]
