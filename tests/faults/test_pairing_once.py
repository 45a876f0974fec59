"""Quick pairing's pool and the ratings, with every reply lost once: each write of the
seeks and each rating update, sent twice because its first reply was lost after Redis
applied it, is answered as if sent once and done once.

The same calls run on the memory store, on Redis, and on Redis behind the fault proxy
losing the first reply of every write (as ``test_store_once`` does for the rest).
"""

from __future__ import annotations

import asyncio

import orjson

from service.config import Settings
from service.players import Players
from service.players.ratings import INITIAL_RATING, Ratings
from service.store import Store
from service.store.seeks import Seek


def _seek(seek_id: str, player: str) -> Seek:
    return Seek(seek_id, "TF.D1N", player, player.title(), 1500.0, 1_000, f"hash-{player}")


async def test_seeks_are_added_paired_and_cancelled_once(store: Store) -> None:
    seeks = store.seeks
    ada, bob, cy = _seek("TF.D1N-a", "ada"), _seek("TF.D1N-b", "bob"), _seek("TF.D1N-c", "cy")
    for seek in (ada, bob, cy):
        assert await seeks.add(seek, 60) is None
    # The same player again, in any mode, while the first waits: refused, named.
    assert await seeks.add(_seek("TF.D1N-a2", "ada"), 60) == "TF.D1N-a"
    elsewhere = Seek("DS.D3N-a2", "DS.D3N", "ada", "Ada", 1500.0, 1_000, "hash-ada")
    assert await seeks.add(elsewhere, 60) == "TF.D1N-a"
    assert await seeks.waiting("DS.D3N") == []
    waiting = {s.seek_id for s in await seeks.waiting("TF.D1N")}
    assert waiting == {"TF.D1N-a", "TF.D1N-b", "TF.D1N-c"}
    seat = orjson.dumps({"race_id": "r1"}).decode()
    assert await seeks.pair(ada, bob, seat, seat)
    assert not await seeks.pair(ada, cy, seat, seat)  # ada is taken: nothing changes
    assert [s.seek_id for s in await seeks.waiting("TF.D1N")] == ["TF.D1N-c"]
    assert await seeks.cancel("TF.D1N-c", "cy") == "cancelled"
    assert await seeks.cancel("TF.D1N-c", "cy") == "cancelled"
    assert await seeks.cancel("TF.D1N-a", "ada") == "paired"
    assert await seeks.cancel("TF.D1N-b", "ada") == "not_yours"
    assert await seeks.waiting("TF.D1N") == []
    paired = await seeks.get("TF.D1N-a")
    assert paired is not None and paired.status == "paired" and paired.paired == {"race_id": "r1"}
    # The next seek of a player remembers the last opponent.
    assert await seeks.add(_seek("TF.D1N-a3", "ada"), 60) is None
    again = await seeks.get("TF.D1N-a3")
    assert again is not None and again.last_opponent == "bob"
    assert await seeks.lock("TF.D1N", "one", 5_000)
    assert not await seeks.lock("TF.D1N", "two", 5_000)
    await seeks.unlock("TF.D1N", "one")
    assert await seeks.lock("TF.D1N", "two", 5_000)


async def test_a_paired_seek_is_kept_as_long_as_its_race_asks(store: Store) -> None:
    """A paired race reads its pairing back when it ends: the seeks last as asked."""
    seeks = store.seeks
    ada, bob = _seek("TF.D1N-ka", "kada"), _seek("TF.D1N-kb", "kbob")
    cy, di = _seek("TF.D1N-kc", "kcy"), _seek("TF.D1N-kd", "kdi")
    for seek in (ada, bob, cy, di):
        assert await seeks.add(seek, 60) is None
    seat = orjson.dumps({"race_id": "r1"}).decode()
    assert await seeks.pair(ada, bob, seat, seat, kept=1)
    assert await seeks.pair(cy, di, seat, seat, kept=60)
    await asyncio.sleep(1.2)
    assert await seeks.get("TF.D1N-ka") is None and await seeks.get("TF.D1N-kb") is None
    kept = await seeks.get("TF.D1N-kc")
    assert kept is not None and kept.paired == {"race_id": "r1"}


async def test_a_race_moves_a_rating_once(store: Store) -> None:
    settings = Settings(rating_provisional_games=1, board_min_account_hours=0, board_min_games=0)
    players = Players(store.records, settings)
    ada = (await players.create("Ada"))["player_id"]
    ratings = Ratings(store, settings, players)
    change = {"change": 100.0, "deviation": 450.0, "deviation_before": 500.0}
    for _ in range(3):  # the race's outcome applied again: after a crash, by a reader
        await ratings.apply("race-1", "TF.D1N", ada, change)
    standing = await ratings.standing(ada, "TF.D1N")
    assert standing == {"rating": INITIAL_RATING + 100.0, "deviation": 450.0, "games": 1}
    await ratings.apply("race-2", "TF.D1N", ada, change)
    assert (await ratings.of(ada))["TF.D1N"]["games"] == 2
    board = await store.records.board_range("rating:TF.D1N", 0, 10)
    assert [(row.member, row.score) for row in board] == [(ada, -(INITIAL_RATING + 200.0))]
