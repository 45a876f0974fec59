"""Telling a game's race and its player's records of each committed action: to the end
though the caller is cancelled, in the order of the actions, and again when the latest
action is sent again after its telling failed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from service import engine
from service.config import Settings
from service.errors import RuleRejected, ServiceError
from service.games import Games
from service.games.hooks import PlayerHooks
from service.protocol import ErrorCode
from service.store import open_store
from tests.service.helpers import games_on as service_games_on
from tests.service.helpers import replay

CODE = "TF1-D1N-AAAAAAB"


@asynccontextmanager
async def games_on(store_url: str, records: PlayerHooks) -> AsyncIterator[Games]:
    """Games whose players' records are ``records``."""
    settings = Settings(store_url=store_url)
    store = open_store(settings)
    await store.open()
    races = service_games_on(store, settings).races
    try:
        yield Games(store, settings, races=races, players=records)
    finally:
        await store.close()


class Records:
    """What a player's records are asked besides the first and last actions: nothing in
    these games, which belong to no daily challenge."""

    async def check_open(self, game_id: str, player_id: str, challenge: str) -> None:
        raise AssertionError("no daily challenge here")

    def challenge_public(self, challenge: str) -> bool:
        raise AssertionError("no daily challenge here")


def resigned(*before: str) -> str:
    """The game after the actions ``before``, then the resignation."""
    return replay(CODE, [*before, "resign"]).serialize()


class HeldRecords(Records):
    """A player's records that hear of a game's end only once released."""

    def __init__(self) -> None:
        self.waiting = asyncio.Event()
        self.release = asyncio.Event()
        self.heard: list[str] = []  # the game as each ending left it

    async def game_over(
        self, game_id: str, player_id: str, challenge: str, game: engine.Klondike
    ) -> None:
        self.waiting.set()
        await self.release.wait()
        self.heard.append(game.serialize())


async def cancelled_while_telling(games: Games, records: HeldRecords) -> tuple[str, str]:
    """A player's game whose resignation is committed, and its caller cancelled while
    the records are being told of it."""
    created = await games.create("TF", 1, "normal", CODE, player_id="p1")
    game_id, token = created["game_id"], created["player_token"]
    cancelled = asyncio.create_task(games.act(game_id, token, engine.Resign()))
    await records.waiting.wait()
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    return game_id, token


async def test_a_committed_action_is_told_of_though_its_caller_is_cancelled(
    store_url: str,
) -> None:
    """A connection that goes away after its action is committed cancels the action's
    caller, not what the player's records and race must hear of the action; the game's
    next action waits for it, so they hear of the actions in order."""
    records = HeldRecords()
    async with games_on(store_url, records) as games:
        game_id, token = await cancelled_while_telling(games, records)
        stored = await games.store.load(game_id)
        assert stored is not None and stored.version == 1

        # The next action (refused: the game is over) is judged once the records heard.
        following = asyncio.create_task(games.act(game_id, token, engine.Draw()))
        for _ in range(50):
            await asyncio.sleep(0)
        assert not following.done() and records.heard == []
        records.release.set()
        with pytest.raises(RuleRejected):
            await following
        assert records.heard == [resigned()]


async def test_closing_lets_the_telling_of_a_cancelled_caller_end(store_url: str) -> None:
    records = HeldRecords()
    async with games_on(store_url, records) as games:
        await cancelled_while_telling(games, records)
        asyncio.get_running_loop().call_soon(records.release.set)
        await games.close()
        assert records.heard == [resigned()]


class RecordsUnreachableOnce(Records):
    """A player's records that cannot be reached the first time they are told of a game."""

    def __init__(self) -> None:
        self.tries = 0
        self.heard: list[str] = []

    async def game_over(
        self, game_id: str, player_id: str, challenge: str, game: engine.Klondike
    ) -> None:
        self.tries += 1
        if self.tries == 1:
            raise ServiceError(ErrorCode.STORE_UNAVAILABLE, 503, "the records are unreachable")
        self.heard.append(game.serialize())


async def test_the_latest_action_sent_again_is_told_of_again(store_url: str) -> None:
    """An action committed whose telling failed is answered with an error; the client
    sends it again with the same request id, and the duplicate's answer tells again,
    so the records (or the race) hear of it. Only the latest action is told again."""
    records = RecordsUnreachableOnce()
    async with games_on(store_url, records) as games:
        created = await games.create("TF", 1, "normal", CODE, player_id="p1")
        game_id, token = created["game_id"], created["player_token"]
        assert (await games.act(game_id, token, engine.Draw(), request_id="draw")).version == 1
        with pytest.raises(ServiceError) as refused:
            await games.act(game_id, token, engine.Resign(), request_id="resign")
        assert refused.value.code is ErrorCode.STORE_UNAVAILABLE and records.heard == []

        again = await games.act(game_id, token, engine.Resign(), request_id="resign")
        assert again.duplicate and again.version == 2
        assert records.heard == [resigned("d")]

        late = await games.act(game_id, token, engine.Draw(), request_id="draw")
        assert late.duplicate and late.version == 1
        assert records.heard == [resigned("d")] and records.tries == 2
