"""Boards an earlier build kept as one sorted set each (``sol:rec:board:<board>``, ties by
member) are moved into today's keys when the Redis store opens: every member in its old
place, once, whatever the number of instances starting."""

from __future__ import annotations

import asyncio
import logging

import pytest
import redis
import redis.asyncio as aioredis

from service.config import Settings
from service.store import open_store
from service.store.records import Ranked
from service.store.redis_board_moves import BATCH, MOVED, move_old_boards
from tests.support import auth, service_client

# Ties at -2: the old order is by member (ab, cy, ed), not the order they were added in.
OLD_STREAKS = {"cy": -2.0, "ed": -2.0, "ab": -2.0, "bo": -3.0, "dee": -1.0}
OLD_ORDER = [("bo", -3.0), ("ab", -2.0), ("cy", -2.0), ("ed", -2.0), ("dee", -1.0)]


def board_keys_of(db: redis.Redis) -> list[bytes]:
    keys: list[bytes] = db.keys("sol:rec:board*")  # type: ignore[assignment]
    return sorted(keys)


def new_layout(db: redis.Redis, board: str) -> tuple[object, ...]:
    tag = f"sol:rec:board:{{{board}}}"
    return (db.zrange(tag, 0, -1, withscores=True), db.hgetall(f"{tag}:m"), db.get(f"{tag}:n"))


def test_a_board_of_the_old_layout_reads_in_its_old_order_after_a_start(
    clean_redis: str, db: redis.Redis
) -> None:
    names = ["Ada", "Bob", "Cy", "Dee", "Ed"]
    with service_client(clean_redis) as client:
        made = [client.post("/players", json={"name": name}).json() for name in names]
    ids = [player["player_id"] for player in made]
    # Ties ordered by player id, as Redis did; Dee's -2 is entered last, Ada's first.
    streaks = {ids[0]: -3.0, ids[1]: -2.0, ids[2]: -2.0, ids[3]: -2.0, ids[4]: -1.0}
    db.zadd("sol:rec:board:streak:TF.D1N", streaks)
    db.delete(
        MOVED
    )  # written by the first start, which found nothing; an earlier build never wrote it
    tied = sorted(ids[1:4])
    with service_client(clean_redis) as client:
        you = auth(made[4]["player_token"])
        body = client.get("/leaderboards/streak.TF.D1N?top=10", headers=you).json()
    by_id = dict(zip(ids, names, strict=True))
    assert [(row["name"], row["value"]) for row in body["top"]] == [
        ("Ada", 3),
        *[(by_id[player], 2) for player in tied],
        ("Ed", 1),
    ]
    assert body["size"] == 5 and body["you"]["rank"] == 5
    assert not db.exists("sol:rec:board:streak:TF.D1N")


async def test_old_boards_move_once_and_merge_with_new_entries(
    clean_redis: str, db: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    db.zadd("sol:rec:board:streak:TF.D1N", OLD_STREAKS)
    db.zadd("sol:rec:board:best-time:DS.D1N", {"ab": 90_000.0, "cy": 60_000.0})
    store = open_store(Settings(store_url=clean_redis))
    # Written on the new layout after the upgrade, before the move: zed ties with the old
    # -2s, dee's new streak is better than its old one, ab's worse.
    for member, score in (("zed", -2.0), ("dee", -5.0), ("ab", -1.0)):
        await store.records.board_add("streak:TF.D1N", member, score)
    caplog.set_level(logging.INFO, logger="service.store.redis_board_moves")
    await store.open()
    try:
        rows = await store.records.board_range("streak:TF.D1N", 0, 10)
        # The old members keep their order and rank ahead of a new tie; each member has
        # the better of its two scores.
        assert [(row.member, row.score) for row in rows] == [
            ("dee", -5.0),
            *[(member, score) for member, score in OLD_ORDER if member != "dee"],
            ("zed", -2.0),
        ]
        assert await store.records.board_rank("streak:TF.D1N", "ab") == Ranked("ab", 2, -2.0)
        times = await store.records.board_range("best-time:DS.D1N", 0, 10)
        assert [(row.member, row.score) for row in times] == [("cy", 60_000.0), ("ab", 90_000.0)]
        moved = [r.getMessage() for r in caplog.records if "moved to the new key layout" in r.msg]
        assert sorted(moved) == [
            "board best-time:DS.D1N moved to the new key layout (2 members)",
            "board streak:TF.D1N moved to the new key layout (5 members)",
        ]
        assert not db.exists("sol:rec:board:streak:TF.D1N", "sol:rec:board:best-time:DS.D1N")
        # The move is done once: later starts do not scan the keyspace again.
        assert db.exists(MOVED)
        # A second run finds nothing to move and changes nothing.
        keys, before = board_keys_of(db), new_layout(db, "streak:TF.D1N")
        async with aioredis.Redis.from_url(clean_redis) as client:
            assert await move_old_boards(client) == 0
        assert board_keys_of(db) == keys and new_layout(db, "streak:TF.D1N") == before
        # Entering a member again on the moved board keeps its place, as on any board.
        await store.records.board_add("streak:TF.D1N", "cy", -2.0)
        assert await store.records.board_rank("streak:TF.D1N", "cy") == Ranked("cy", 3, -2.0)
    finally:
        await store.close()


async def test_instances_starting_at_once_move_each_board_once(
    clean_redis: str, db: redis.Redis
) -> None:
    """Two instances at once: each board is claimed and moved by one of them, and a board
    longer than a batch arrives whole and in order."""
    many = {f"p{index:05d}": float(index % 7) for index in range(BATCH * 2 + 17)}
    db.zadd("sol:rec:board:best-time:TF.D1N", many)
    db.zadd("sol:rec:board:streak:TF.D1N", OLD_STREAKS)
    clients = [aioredis.Redis.from_url(clean_redis) for _ in range(2)]
    try:
        moved = await asyncio.gather(*(move_old_boards(client) for client in clients))
    finally:
        for client in clients:
            await client.aclose()
    assert sum(moved) == 2
    store = open_store(Settings(store_url=clean_redis))
    try:
        rows = await store.records.board_range("best-time:TF.D1N", 0, len(many) + 1)
        expected = sorted(many.items(), key=lambda item: (item[1], item[0]))
        assert [(row.member, row.score) for row in rows] == expected
        streaks = await store.records.board_range("streak:TF.D1N", 0, 10)
        assert [(row.member, row.score) for row in streaks] == OLD_ORDER
        assert not db.keys("sol:rec:board-move:*")
        assert all(b"{" in key for key in board_keys_of(db))
    finally:
        await store.close()
