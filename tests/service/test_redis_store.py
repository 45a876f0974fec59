"""Redis specifics: the key layout of a game, expiry as Redis sees it, and the memory one
Double Solitaire game takes."""

from __future__ import annotations

import asyncio
import random

import redis
from redis.crc import key_slot

from service import engine
from service.config import Settings
from service.store import CommitStatus, StoredGame, StoredRace, hash_token, open_store
from service.store.arenas import Swap
from service.store.redis_board_moves import MOVED
from tests.service.helpers import pick_action, post_action, winnable_reflechi
from tests.support import auth, new_game, service_client


def keys_of(db: redis.Redis, game_id: str) -> list[bytes]:
    keys: list[bytes] = db.keys(f"sol:{{{game_id}}}:*")  # type: ignore[assignment]
    return sorted(keys)


def play(client: object, created: dict[str, str], steps: int, seed: int) -> None:
    mirror = engine.new_game(created["code"])
    rng = random.Random(seed)
    done = 0
    while done < steps:
        notation = pick_action(mirror, rng, tap_rate=0.0)
        assert notation is not None
        response = post_action(
            client,  # type: ignore[arg-type]
            created["game_id"],
            created["player_token"],
            notation,
            request_id=f"r-{done}",
        )
        assert response.status_code == 200, response.text
        mirror.play(engine.parse_action(response.json()["notation"]))
        done += 1


def test_every_key_of_a_game_shares_one_hash_tag(clean_redis: str, db: redis.Redis) -> None:
    with service_client(clean_redis) as client:
        created = new_game(client)
        other = new_game(client)
        play(client, created, 5, seed=1)
        game_id = created["game_id"]
        keys = keys_of(db, game_id)
        assert [k.decode() for k in keys] == [
            f"sol:{{{game_id}}}:{suffix}" for suffix in ("g", "log", "rid")
        ]
        assert len({key_slot(k) for k in keys}) == 1
        # Nothing else was written for it, and the other game has only its own key.
        all_keys: list[bytes] = db.keys("*")  # type: ignore[assignment]
        # (Besides the store's own mark that boards of an earlier layout are moved.)
        everything = {key.decode() for key in all_keys} - {MOVED}
        assert everything == {k.decode() for k in keys} | {f"sol:{{{other['game_id']}}}:g"}
        # No secret in the clear: the token is stored only as its hash.
        stored: dict[bytes, bytes] = db.hgetall(keys[0])  # type: ignore[assignment]
        assert created["player_token"].encode() not in b"".join(stored.values())
        assert stored[b"t"] == hash_token(created["player_token"]).encode()
        for key in keys:
            assert 0 < db.ttl(key) <= Settings().game_ttl_seconds


def test_memory_of_a_double_solitaire_game_after_200_actions(
    clean_redis: str, db: redis.Redis
) -> None:
    with service_client(clean_redis) as client:
        created = new_game(client, game="DS", draw=1)
        play(client, created, 200, seed=2)
        keys = keys_of(db, created["game_id"])
        usage = {key.decode(): db.memory_usage(key) or 0 for key in keys}
        total = sum(usage.values())
        print(f"\nRedis memory of one DS game after 200 actions: {total} bytes {usage}")
        assert len(keys) == 3
        record = client.get(
            f"/games/{created['game_id']}/record", headers=auth(created["player_token"])
        )
        assert len(record.json()["actions"]) == 200
        assert total < 16 * 1024


async def test_expiry_as_redis_sees_it(clean_redis: str, db: redis.Redis) -> None:
    settings = Settings(store_url=clean_redis, game_ttl_seconds=50, won_game_ttl_seconds=0)
    store = open_store(settings)
    await store.open()
    try:
        for game_id in ("playing", "won"):
            await store.create(StoredGame(game_id, 0, "s", hash_token("t"), "DS1-D1N-AAAAAAB"))
        assert 0 < db.ttl("sol:{playing}:g") <= 50
        for game_id in ("playing", "won"):
            result = await store.commit(game_id, 0, "s1", "d", "r", False, b"{}")
            assert result.status is CommitStatus.APPLIED
        result = await store.commit("won", 1, "s2", "c1>f", "r2", True, b"{}")
        assert result.status is CommitStatus.APPLIED
        for suffix in ("g", "log", "rid"):
            assert 0 < db.ttl(f"sol:{{playing}}:{suffix}") <= 50
            assert db.ttl(f"sol:{{won}}:{suffix}") == -1
    finally:
        await store.close()


def test_a_game_won_through_the_api_is_kept_for_good(clean_redis: str, db: redis.Redis) -> None:
    code, line = winnable_reflechi()
    with service_client(clean_redis, won_game_ttl_seconds=0) as client:
        created = new_game(client, code=code)
        for notation in line:
            response = post_action(client, created["game_id"], created["player_token"], notation)
            assert response.status_code == 200, response.text
        assert response.json()["change"]["events"][-1] == {"type": "won"}
        keys = keys_of(db, created["game_id"])
        # State, log, and the request ids the service gives actions sent without one.
        assert len(keys) == 3
        assert [db.ttl(key) for key in keys] == [-1, -1, -1]
        assert db.hget(keys[0], "w") == b"1"


async def test_commits_survive_a_flushed_script_cache(clean_redis: str, db: redis.Redis) -> None:
    """After a Redis restart the commit script is no longer cached there: the commits that
    met NOSCRIPT (several at once among them) are run again, each exactly once."""
    store = open_store(Settings(store_url=clean_redis))
    await store.open()
    try:
        games = [f"g{n}" for n in range(6)]
        for game_id in games:
            await store.create(StoredGame(game_id, 0, "s", hash_token("t"), "DS1-D1N-AAAAAAB"))
        first = await store.commit(games[0], 0, "s1", "d", "r1", False, b"{}")
        assert first.status is CommitStatus.APPLIED
        db.script_flush()
        results = await asyncio.gather(
            *(store.commit(game_id, 0, "s1", "d", "r1", False, b"{}") for game_id in games)
        )
        assert [(r.status, r.version) for r in results] == [
            (CommitStatus.DUPLICATE, 1),
            *[(CommitStatus.APPLIED, 1)] * 5,
        ]
        for game_id in games:
            assert await store.actions(game_id) == ["d"]
    finally:
        await store.close()


async def test_creations_survive_a_flushed_script_cache(clean_redis: str, db: redis.Redis) -> None:
    """A game's creation, a race's (its join code, then its document), an arena's swap and
    a take from a queue run as scripts through the shared pipelines: after a Redis
    restart they are loaded again and each runs once."""
    store = open_store(Settings(store_url=clean_redis))
    await store.open()
    try:
        db.script_flush()
        made = await asyncio.gather(
            *(
                store.create(StoredGame(f"g{n}", 0, "s", hash_token("t"), "DS1-D1N-AAAAAAB"))
                for n in range(3)
            )
        )
        assert made == [None, None, None]
        assert [(await store.load(f"g{n}")) is not None for n in range(3)] == [True] * 3
        assert 0 < db.ttl("sol:{g0}:g") <= store.settings.game_ttl_seconds
        db.script_flush()
        race = StoredRace("r1", 0, '{"race": 1}')
        assert await store.create_race(race, "JOINCODE")
        assert not await store.create_race(StoredRace("r2", 0, "{}"), "JOINCODE")
        found = await store.load_race("r1")
        assert found is not None and found.doc == '{"race": 1}'
        db.script_flush()
        swap = Swap(entries=[("p1", None, '{"p": 1}')], scores={"p1": 2.0})
        assert await store.arenas.swap("a1", swap, 60)
        assert await store.arenas.entries("a1") == {"p1": '{"p": 1}'}
        assert await store.arenas.standings("a1", 0, -1) == ["p1"]
        assert await store.records.queue_push("deals", "DS1-D1N-AAAAAAB", 60) == 1
        db.script_flush()
        assert await store.records.queue_pop("deals") == "DS1-D1N-AAAAAAB"
        assert await store.records.queue_pop("deals") is None
    finally:
        await store.close()


async def test_closing_the_store_finishes_the_commits_on_their_way(clean_redis: str) -> None:
    """An instance that shuts down while commits wait to be sent still sends them: every
    caller gets its answer and every answered commit is in Redis."""
    settings = Settings(store_url=clean_redis)
    store = open_store(settings)
    await store.open()
    games = [f"g{n}" for n in range(30)]
    for game_id in games:
        await store.create(StoredGame(game_id, 0, "s", hash_token("t"), "DS1-D1N-AAAAAAB"))
    commits = [
        asyncio.create_task(store.commit(game_id, 0, "s1", "d", "r1", False, b"{}"))
        for game_id in games
    ]
    await asyncio.sleep(0)  # the first batch is on its way, the rest queued behind it
    await store.close()
    assert all(commit.done() for commit in commits), "close returned before the commits"
    results = await asyncio.gather(*commits)
    assert {r.status for r in results} == {CommitStatus.APPLIED}
    reopened = open_store(settings)
    await reopened.open()
    try:
        for game_id in games:
            assert await reopened.actions(game_id) == ["d"]
    finally:
        await reopened.close()


async def test_a_burst_of_store_calls_shares_few_connections(
    clean_redis: str, db: redis.Redis
) -> None:
    """Reads, commits and publications made at once go out together in pipelines: a burst
    of them does not make the pool open a connection per call."""
    store = open_store(Settings(store_url=clean_redis))
    await store.open()
    try:
        games = [f"g{n}" for n in range(100)]
        for game_id in games:
            await store.create(StoredGame(game_id, 0, "s", hash_token("t"), "c"))
        before = len(db.client_list())

        async def burst(game_id: str) -> None:
            loaded = await store.load(game_id)
            assert loaded is not None and loaded.version == 0
            result = await store.commit(game_id, 0, "s1", "d", game_id, False, b"{}", "d")
            assert result.status is CommitStatus.APPLIED
            await store.publish(game_id, b"{}")
            assert await store.load_race(game_id) is None

        await asyncio.gather(*(burst(game_id) for game_id in games))
        # The pool may have had one connection; the burst adds at most a couple more.
        assert len(db.client_list()) - before <= 3
    finally:
        await store.close()


async def test_lifetimes_are_renewed_once_a_tenth_has_run_down(
    clean_redis: str, db: redis.Redis
) -> None:
    """Every key of a playing game expires together, ``game_ttl_seconds`` after its last
    action give or take a tenth (a minute at most): renewing them all on every action was
    a fifth of the commit's cost. A key made in between gets its lifetime at once."""
    store = open_store(Settings(store_url=clean_redis, game_ttl_seconds=10))
    await store.open()
    try:
        await store.create(StoredGame("g", 0, "s", hash_token("t"), "DS1-D1N-AAAAAAB"))
        keys = [f"sol:{{g}}:{suffix}" for suffix in ("g", "log", "rid")]
        # The time is run down in Redis itself rather than waited for: a loaded machine
        # would move it on further between two steps than the steps can tell apart.
        db.pexpire(keys[0], 9_500)  # down by less than a tenth
        assert (await store.commit("g", 0, "s1", "d", "r1", False, b"{}")).version == 1
        # Not renewed yet; the log and the request ids, made now, have their lifetime.
        assert db.pttl(keys[0]) <= 9_500
        assert [db.ttl(key) > 0 for key in keys] == [True, True, True]
        for key in keys:
            db.pexpire(key, 8_500)  # down by more than a tenth
        assert (await store.commit("g", 1, "s2", "d", "r2", False, b"{}")).version == 2
        assert [db.pttl(key) > 8_500 for key in keys] == [True, True, True]
        # Ending the game sets the lifetime of won games (here: for good) at once.
        assert (await store.commit("g", 2, "s3", "c1>f", "r3", True, b"{}")).version == 3
        assert [db.ttl(key) for key in keys] == [-1, -1, -1]
    finally:
        await store.close()


async def test_request_ids_kept_as_a_list_by_an_earlier_release_still_count(
    clean_redis: str, db: redis.Redis
) -> None:
    """A game whose request ids are still the list an earlier release kept: they are read
    from it, and its next commit moves them into the hash with the game's lifetime."""
    store = open_store(Settings(store_url=clean_redis, game_ttl_seconds=100))
    await store.open()
    try:
        await store.create(StoredGame("old", 0, "s", hash_token("t"), "DS1-D1N-AAAAAAB"))
        for version in range(1, 4):
            db.rpush("sol:{old}:log", f"a{version}")
        db.hset("sol:{old}:g", mapping={"v": 3, "s": "s3"})
        # Newest first, as LPUSH left them: "<request id>\t<version>\t<fingerprint>".
        db.rpush("sol:{old}:rid", "tab\tid\t3\ta3", "r2\t2\ta2", "r1\t1\ta1")
        db.expire("sol:{old}:rid", 100)
        assert await store.seen_request("old", "tab\tid") == (3, "a3")
        assert await store.seen_request("old", "r1") == (1, "a1")
        assert await store.seen_request("old", "r9") is None
        # A retry of an old request is a duplicate; the list is a hash from then on.
        retried = await store.commit("old", 3, "s4", "a2", "r2", False, b"{}", "a2")
        assert (retried.status, retried.version) == (CommitStatus.DUPLICATE, 2)
        assert db.type("sol:{old}:rid") == b"hash"
        assert 0 < db.ttl("sol:{old}:rid") <= 100
        reused = await store.commit("old", 3, "s4", "x", "tab\tid", False, b"{}", "x")
        assert (reused.status, reused.version) == (CommitStatus.REUSED, 3)
        applied = await store.commit("old", 3, "s4", "d", "r4", False, b"{}", "d")
        assert (applied.status, applied.version) == (CommitStatus.APPLIED, 4)
        for request_id, seen in [("r1", (1, "a1")), ("tab\tid", (3, "a3")), ("r4", (4, "d"))]:
            assert await store.seen_request("old", request_id) == seen
        assert await store.actions("old") == ["a1", "a2", "a3", "d"]
    finally:
        await store.close()
