"""The end of a race, seen from the race layer: resignations read the race once, and
endings at the same moment settle into one result."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from service.analysis import Analysis
from service.config import Settings
from service.games import Games
from service.races import Races
from service.store import Store, open_store


@pytest.fixture
async def races(store_url: str) -> AsyncIterator[Races]:
    store = open_store(Settings(store_url=store_url))
    await store.open()
    games = Games(store, Settings(store_url=store_url, race_countdown_seconds=0))
    races = Races(games, games.settings, Analysis(store.records, games.settings))
    games.races = races
    try:
        yield races
    finally:
        await races.close()
        await store.close()


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
