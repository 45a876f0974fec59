"""Every write of the store, sent twice, is done once: each primitive answers a call whose
command reached Redis twice (its first reply lost after Redis applied it, then sent again
by the client library) as it answers a call that reached it once.

The same calls run on the memory store, on Redis, and on Redis behind the fault proxy
losing the first reply of every write (``FaultPlan(first_sends=True)``: each write is
applied, its reply lost, the connection cut, and the write sent again is answered), and
must give the same answers everywhere.
"""

from __future__ import annotations

import asyncio

import pytest
import redis
from redis.crc import key_slot

from service.config import Settings
from service.store import CommitStatus, Store, StoredGame, StoredRace, hash_token, open_store
from service.store.redis_once import marker
from tests.support import RedisServer


async def test_a_document_is_saved_once_per_call(store: Store) -> None:
    records = store.records
    assert await records.save("doc", 0, "one")
    assert not await records.save("doc", 0, "two")  # another call at the same version
    assert await records.save("doc", 1, "two", ttl_seconds=60)
    found = await records.load("doc")
    assert found is not None and (found.version, found.text) == (2, "two")


async def test_a_claim_is_this_calls_and_no_other_calls(store: Store) -> None:
    records = store.records
    assert await records.claim("name", "Ada", ttl_seconds=60)
    assert not await records.claim("name", "Ada")  # the same value, another call
    assert not await records.claim("name", "Bob")
    assert await records.get("name") == "Ada"


async def test_a_value_is_taken_once(store: Store) -> None:
    records = store.records
    await records.claim("link:CODE2345", "player")
    assert await records.take("link:CODE2345") == "player"
    assert await records.take("link:CODE2345") is None
    await records.delete("link:CODE2345")
    assert await records.get("link:CODE2345") is None


async def test_a_queue_gets_each_push_once_and_gives_each_value_once(store: Store) -> None:
    records = store.records
    assert await records.queue_push("pool", "a") == 1
    assert await records.queue_push("pool", "b", ttl_seconds=60) == 2
    assert await records.queue_length("pool") == 2
    assert await records.queue_pop("pool") == "a"
    assert await records.queue_pop("pool") == "b"
    assert await records.queue_pop("pool") is None
    assert await records.queue_length("pool") == 0


async def test_a_board_entry_is_made_once(store: Store) -> None:
    records = store.records
    await records.board_add("board", "ada", 5.0)
    await records.board_add("board", "bob", 5.0)
    await records.board_add("board", "ada", 7.0)  # worse: kept at 5
    await records.board_add("board", "bob", 4.0)
    page = await records.board_page("board", "ada", 10, 0)
    assert [(r.member, r.score) for r in page.top] == [("bob", 4.0), ("ada", 5.0)]
    await records.board_remove("board", "bob")
    assert await records.board_size("board") == 1


async def test_a_counter_counts_once_per_call(store: Store) -> None:
    assert await store.tally("hints:g", 60) == 1
    assert await store.tally("hints:g", 60, add=2) == 3
    assert await store.tally("hints:g", 60, add=0) == 3


async def test_admissions_stop_at_the_limit_and_refunds_give_places_back(store: Store) -> None:
    assert [await store.admit("quota", 2, 60) for _ in range(3)] == [True, True, False]
    await store.refund("quota")
    assert await store.tally("quota", 60, add=0) == 1
    assert await store.admit("quota", 2, 60)
    for _ in range(4):
        await store.refund("quota")
    assert await store.tally("quota", 60, add=0) == 0  # never below nothing


async def test_of_twenty_concurrent_admissions_at_a_limit_of_ten_exactly_ten_pass(
    store: Store,
) -> None:
    admitted = await asyncio.gather(*(store.admit("burst", 10, 60) for _ in range(20)))
    assert admitted.count(True) == 10
    assert await store.tally("burst", 60, add=0) == 10


async def test_a_race_is_created_and_saved_once_per_call(store: Store) -> None:
    race = StoredRace("race1", 0, '{"v": 0}')
    assert await store.create_race(race, "JOINCODE")
    assert not await store.create_race(StoredRace("race2", 0, "{}"), "JOINCODE")
    assert await store.race_of_join_code("JOINCODE") == "race1"
    saved = await store.save_race("race1", 0, '{"v": 1}', b"{}")
    assert (saved.status, saved.version) == (CommitStatus.APPLIED, 1)
    again = await store.save_race("race1", 0, '{"v": 1}', b"{}")
    assert (again.status, again.version) == (CommitStatus.CONFLICT, 1)
    await store.renew_race("race1")
    over = await store.save_race("race1", 1, '{"v": 2}', b"{}", over=True)
    assert (over.status, over.version) == (CommitStatus.APPLIED, 2)
    loaded = await store.load_race("race1")
    assert loaded is not None and (loaded.version, loaded.doc) == (2, '{"v": 2}')
    missing = await store.save_race("nothing", 0, "{}", b"{}")
    assert missing.status is CommitStatus.MISSING


async def test_a_commit_is_applied_once_and_answered_as_applied(store: Store) -> None:
    await store.create(StoredGame("game1", 0, "state-0", hash_token("t"), "TF1-D1N-AAAAAAA"))
    for version, request_id in enumerate(("r-1", "r-2", "r-3")):
        result = await store.commit(
            "game1", version, f"state-{version + 1}", "d", request_id, False, b"{}", "d"
        )
        assert (result.status, result.version) == (CommitStatus.APPLIED, version + 1)
    # The client itself sends a request again: a duplicate, as before.
    again = await store.commit("game1", 3, "state-4", "d", "r-3", False, b"{}", "d")
    assert (again.status, again.version) == (CommitStatus.DUPLICATE, 3)
    assert await store.actions("game1") == ["d", "d", "d"]
    assert await store.seen_request("game1", "r-2") == (2, "d")


def test_markers_share_the_hash_slot_of_their_key() -> None:
    keys = [
        "sol:rec:val:link:ABCD2345",
        "sol:rec:queue:winnable:TF.D1N",
        "sol:tally:quota:new players:2001:db8::1:493000",
        "sol:rec:board:{daily:2026-12-01.TF.D1N}",
        "sol:{race:abc}:doc",
        "brace{only",
    ]
    for key in keys:
        assert key_slot(marker(key, "n1").encode()) == key_slot(key.encode()), key
    with pytest.raises(ValueError):
        marker("no}tag", "n1")


async def test_lifetimes_in_redis(fault_redis: RedisServer) -> None:
    """A queue given a lifetime keeps it; a race is renewed while it is played, and not
    once it is over (kept for good here)."""
    db = redis.Redis.from_url(fault_redis.url)
    db.flushall()
    store = open_store(Settings(store_url=fault_redis.url, game_ttl_seconds=600))
    await store.open()
    try:
        await store.records.queue_push("day", "a", ttl_seconds=3600)
        assert 3500 < db.ttl("sol:rec:queue:day") <= 3600
        await store.create_race(StoredRace("r", 0, "{}"), "CODE2345")
        doc = "sol:{race:r}:doc"
        db.expire(doc, 5)
        await store.renew_race("r")
        assert db.ttl(doc) > 500
        await store.save_race("r", 0, "{}", b"{}", over=True)
        assert db.ttl(doc) == -1
        await store.renew_race("r")
        assert db.ttl(doc) == -1
        await store.renew_race("gone")
        assert not db.exists("sol:{race:gone}:doc")
    finally:
        await store.close()
        db.close()
