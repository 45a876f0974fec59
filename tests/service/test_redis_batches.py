"""Batches of store commands on one pooled connection: every caller gets its own replies,
in the shapes redis-py gives, through errors, lost connections and cancellations."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis
import redis.asyncio as aioredis
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import DataError, NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from service.config import Settings
from service.store import (
    CommitStatus,
    StoredGame,
    StoredRace,
    hash_token,
)
from service.store.redis import RedisStore
from service.store.redis_batches import WRITE_EVERY, PackedInC, Pipelined, _Written


@pytest.fixture
async def store(clean_redis: str) -> AsyncIterator[RedisStore]:
    opened = RedisStore(Settings(store_url=clean_redis))
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()


def batcher(store: RedisStore) -> Pipelined:
    run = store._run
    assert isinstance(run, Pipelined)
    return run


def record_batches(monkeypatch: pytest.MonkeyPatch, run: Pipelined) -> list[int]:
    """The number of commands of every batch ``run`` writes from now on."""
    sizes: list[int] = []
    write = run._write

    def counted(batch: _Written) -> None:
        sizes.append(len(batch.commands))
        write(batch)

    monkeypatch.setattr(run, "_write", counted)
    return sizes


def kill_normal_clients(db: redis.Redis) -> int:
    """Kills the connections of this database but ``db``'s own (CLIENT KILL TYPE normal,
    kept to this database, which a shared test server gives each test process)."""
    own_id = db.client_id()
    database = db.connection_pool.connection_kwargs.get("db", 0)
    killed = 0
    for client in db.client_list(_type="normal"):
        if int(client["db"]) == int(database) and int(client["id"]) != own_id:
            killed += int(db.client_kill_filter(_id=client["id"]))
    return killed


# How long a test's BLPOP holds the replies of its batch back unless the test releases it
# (under the store's socket timeout, 5 s): the test decides when they come, not the time.
HELD = 3


async def on_their_way(run: Pipelined, batches: int) -> None:
    """Until ``batches`` batches are written and their replies not yet read."""
    async with asyncio.timeout(10):
        while len(run._written) < batches:
            await asyncio.sleep(0.005)


async def create_game(store: RedisStore, game_id: str) -> None:
    await store.create(StoredGame(game_id, 0, "s", hash_token("t"), "DS1-D1N-AAAAAAB"))


async def commit_command(store: RedisStore, game_id: str, request_id: str) -> tuple[Any, ...]:
    """The command ``RedisStore.commit`` sends for the first action of a game."""
    sent: list[tuple[Any, ...]] = []

    async def record(*commands: tuple[Any, ...]) -> list[Any]:
        sent.extend(commands)
        return [[b"conflict", 0]]

    real = store._run
    store._run = record  # type: ignore[assignment]
    try:
        await store.commit(game_id, 0, "s1", "d", request_id, False, b"{}")
    finally:
        store._run = real
    return sent[0]


async def test_callers_batched_together_get_their_own_replies_in_order(
    store: RedisStore, db: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(40):
        db.set(f"k{n}", f"v{n}")
        if n % 4:
            db.rpush(f"l{n}", *[f"{n}.{i}" for i in range(n % 4)])
    run = batcher(store)
    sizes = record_batches(monkeypatch, run)

    async def caller(n: int) -> None:
        commands = [("GET", f"k{n}"), ("LRANGE", f"l{n}", 0, -1), ("GET", f"k{n}")][: 1 + n % 3]
        replies = await run(*commands)
        expected = [f"v{n}".encode(), [f"{n}.{i}".encode() for i in range(n % 4)], b"v%d" % n]
        assert replies == expected[: len(commands)]

    await asyncio.gather(*(caller(n) for n in range(40)))
    # Every call was made before the sender ran: one batch of all their commands.
    assert sizes == [sum(1 + n % 3 for n in range(40))]


async def test_a_turn_of_many_calls_is_written_every_write_every_calls_without_waiting(
    store: RedisStore, db: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the connection is up, a turn's calls go out every WRITE_EVERY of them, and
    each write goes without waiting for the replies of those before it."""
    db.mset({f"k{n}": f"v{n}" for n in range(40)})
    run = batcher(store)
    assert await run(("PING",)) == [True]
    sizes = record_batches(monkeypatch, run)
    calls = [asyncio.ensure_future(run(("GET", f"k{n}"))) for n in range(2 * WRITE_EVERY + 8)]
    await asyncio.sleep(0)  # every call made, in one turn
    # Two writes made in that turn already, neither answered; the rest at its end.
    assert sizes == [WRITE_EVERY, WRITE_EVERY]
    assert len(run._written) == 2
    replies = await asyncio.gather(*calls)
    assert sizes == [WRITE_EVERY, WRITE_EVERY, 8]
    assert replies == [[f"v{n}".encode()] for n in range(2 * WRITE_EVERY + 8)]


async def test_batches_on_their_way_when_the_connection_is_lost_are_all_sent_again(
    store: RedisStore, db: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three batches written, none answered, and the connection killed: each is written
    again, in order, on the connection made anew, and every caller gets its own replies."""
    for game_id in ("g1", "g2"):
        await create_game(store, game_id)
    db.set("a", "1")
    run = batcher(store)
    await run(("PING",))
    monkeypatch.setattr(run, "_write_every", 1)
    sizes = record_batches(monkeypatch, run)
    slow = asyncio.ensure_future(run(("BLPOP", "empty", HELD)))
    first = asyncio.ensure_future(run(await commit_command(store, "g1", "r1")))
    second = asyncio.ensure_future(run(("GET", "a"), await commit_command(store, "g2", "r1")))
    await on_their_way(run, 3)
    assert sizes == [1, 1, 2] and len(run._written) == 3
    assert kill_normal_clients(db) >= 1
    db.rpush("empty", "x")  # for the BLPOP written again
    assert await slow == [(b"empty", b"x")]
    # A commit written twice may have run on the first try: its request id tells.
    assert (await first)[0] in ([b"applied", 1], [b"duplicate", 1])
    got = await second
    assert got[0] == b"1" and got[1] in ([b"applied", 1], [b"duplicate", 1])
    # Written again as they were (then the two commits once more if they met NOSCRIPT:
    # the scripts load at a store's first commit).
    assert sizes[3:6] == [1, 1, 2]
    for game_id in ("g1", "g2"):
        assert await store.actions(game_id) == ["d"]


async def test_a_value_redis_cannot_take_fails_its_batch_before_sending(
    store: RedisStore, db: redis.Redis
) -> None:
    db.set("a", "1")
    run = batcher(store)
    assert await run(("PING",)) == [True]
    # Written at the end of the turn, as one batch: the bad value fails all of it.
    refused: list[Any] | BaseException
    other: list[Any] | BaseException
    refused, other = await asyncio.gather(
        run(("SET", "b", object())), run(("SET", "c", "3")), return_exceptions=True
    )
    assert isinstance(refused, DataError) and isinstance(other, DataError)
    assert db.exists("b", "c") == 0
    assert await run(("GET", "a")) == [b"1"]


async def test_an_error_reply_goes_to_its_caller_only(
    store: RedisStore, db: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    db.set("a", "1")
    run = batcher(store)
    sizes = record_batches(monkeypatch, run)
    # Declared: mypy infers no type for them when gather's result is unpacked at once.
    first: list[Any] | BaseException
    failing: list[Any] | BaseException
    last: list[Any] | BaseException
    first, failing, last = await asyncio.gather(
        run(("GET", "a")),
        run(("SET", "b", "2"), ("HGET", "a", "f"), ("SET", "c", "3")),
        run(("GET", "a"), ("INCR", "a")),
        return_exceptions=True,
    )
    assert sizes == [6]
    assert first == [b"1"]
    assert isinstance(failing, ResponseError) and "WRONGTYPE" in str(failing)
    assert last == [b"1", 2]
    # Not a transaction: the failing caller's other commands ran.
    assert db.mget("b", "c") == [b"2", b"3"]


@pytest.mark.parametrize("protocol", [2, 3])
async def test_the_store_commands_reply_in_redis_pys_shapes(
    clean_redis: str, db: redis.Redis, protocol: int
) -> None:
    """HGETALL, LRANGE, EVALSHA and PUBLISH (every command the store batches) give what
    redis-py's own client gives: on RESP2 that takes its response callbacks."""
    store = RedisStore(Settings(store_url=f"{clean_redis}?protocol={protocol}"))
    await store.open()
    try:
        client = store._redis
        await create_game(store, "ours")
        await create_game(store, "theirs")
        db.rpush("log", "a", "b\tc")
        run = batcher(store)
        ours = await run(
            ("HGETALL", "sol:{ours}:g"),
            ("HGETALL", "nothing"),
            ("LRANGE", "log", 0, -1),
            ("LRANGE", "nothing", 0, -1),
            await commit_command(store, "ours", "r1"),
            ("PUBLISH", "channel", b"0\n{}"),
        )
        theirs = [
            await client.execute_command("HGETALL", "sol:{theirs}:g"),
            await client.execute_command("HGETALL", "nothing"),
            await client.execute_command("LRANGE", "log", 0, -1),
            await client.execute_command("LRANGE", "nothing", 0, -1),
            await client.execute_command(*(await commit_command(store, "theirs", "r1"))),
            await client.execute_command("PUBLISH", "channel", b"0\n{}"),
        ]
        assert ours == theirs
        assert ours[0] == {
            b"s": b"s",
            b"v": b"0",
            b"t": hash_token("t").encode(),
            b"c": b"DS1-D1N-AAAAAAB",
            b"w": b"0",
            b"r": b"",
        }
        assert ours[1:] == [{}, [b"a", b"b\tc"], [], [b"applied", 1], 0]
        loaded = await store.load("ours")
        assert loaded is not None and (loaded.version, loaded.state) == (1, "s1")
        assert await store.load_many(["ours", "none"], with_actions=True) == [
            (loaded, ["d"]),
            (None, None),
        ]
        assert await store.create_race(StoredRace("race", 0, "{}"), "JOIN")
        assert await store.load_race("race") == StoredRace("race", 0, "{}")
        saved = await store.save_race("race", 0, '{"a": 1}', b"{}")
        assert (saved.status, saved.version) == (CommitStatus.APPLIED, 1)
    finally:
        await store.close()


async def test_noscript_after_a_script_flush_recovers_in_a_mixed_batch(
    store: RedisStore, db: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    for game_id in ("g1", "g2"):
        await create_game(store, game_id)
    db.set("x", "y")
    run = batcher(store)
    sizes = record_batches(monkeypatch, run)
    db.script_flush()
    loaded, first, value, second = await asyncio.gather(
        store.load("g1"),
        store.commit("g1", 0, "s1", "d", "r1", False, b"{}"),
        run(("GET", "x")),
        store.commit("g2", 0, "s1", "d", "r1", False, b"{}"),
    )
    # One batch, then the two commits that met NOSCRIPT again once the scripts were loaded.
    assert sizes == [4, 2]
    assert loaded is not None and loaded.version == 0
    assert (first.status, first.version) == (CommitStatus.APPLIED, 1)
    assert value == [b"y"]
    assert (second.status, second.version) == (CommitStatus.APPLIED, 1)
    for game_id in ("g1", "g2"):
        assert await store.actions(game_id) == ["d"]


async def test_a_script_the_store_does_not_know_fails_its_caller_once_reloaded(
    store: RedisStore, db: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """NOSCRIPT loads the store's scripts and sends the call again, once: a script that is
    not among them fails its caller, not the batch, and is not sent forever."""
    db.set("x", "y")
    run = batcher(store)
    sizes = record_batches(monkeypatch, run)
    unknown = ("EVALSHA", "0" * 40, 0)
    results = await asyncio.wait_for(
        asyncio.gather(run(unknown), run(("GET", "x")), return_exceptions=True), 10
    )
    assert isinstance(results[0], NoScriptError)
    assert results[1] == [b"y"]
    assert sizes == [2, 1]


async def test_a_connection_killed_between_batches_is_replaced(
    store: RedisStore, db: redis.Redis
) -> None:
    await create_game(store, "g")
    run = batcher(store)
    assert await run(("PING",)) == [True]
    assert kill_normal_clients(db) >= 1
    result = await store.commit("g", 0, "s1", "d", "r1", False, b"{}")
    assert (result.status, result.version) == (CommitStatus.APPLIED, 1)
    assert await run(("LRANGE", "sol:{g}:log", 0, -1)) == [[b"d"]]


async def test_a_batch_on_a_connection_lost_under_it_is_sent_again(
    store: RedisStore, db: redis.Redis
) -> None:
    """The batches' connection dies between two batches: the next batch fails on it, and
    goes again on the connection made anew, without its callers seeing anything."""
    await create_game(store, "g")
    run = batcher(store)
    await run(("PING",))
    assert kill_normal_clients(db) >= 1
    replies = await run(await commit_command(store, "g", "r1"), ("EXISTS", "sol:{g}:g"))
    assert replies == [[b"applied", 1], 1]
    assert await store.actions("g") == ["d"]


async def test_a_batch_whose_read_fails_with_a_socket_error_is_sent_again(
    store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reset (an OSError from the socket, not one of redis-py's errors) is retried like
    a lost connection, on the connection made anew."""
    await create_game(store, "g")
    run = batcher(store)
    await run(("PING",))
    held = run._connection
    assert held is not None
    parser = held._parser
    resets: list[int] = []
    real_read = parser.read_from_socket  # type: ignore[attr-defined]

    async def reset_once() -> bool:
        if not resets:
            resets.append(1)
            raise ConnectionResetError("reset by peer")
        return bool(await real_read())

    monkeypatch.setattr(parser, "read_from_socket", reset_once)
    replies = await run(await commit_command(store, "g", "r1"), ("EXISTS", "sol:{g}:g"))
    assert resets == [1]
    # The first try may have been applied before the reset: its request id tells.
    assert replies in ([[b"applied", 1], 1], [[b"duplicate", 1], 1])
    assert await store.actions("g") == ["d"]


async def test_batches_share_one_connection_given_back_on_close(store: RedisStore) -> None:
    run = batcher(store)
    pool = run._redis.connection_pool
    for _ in range(3):
        await asyncio.gather(*(run(("PING",)) for _ in range(5)))
    held = run._connection
    assert held is not None and held in pool._in_use_connections
    await run.close()
    assert held not in pool._in_use_connections
    assert run._connection is None


async def test_a_caller_cancelled_mid_batch_leaves_the_others_their_replies(
    store: RedisStore, db: redis.Redis
) -> None:
    db.mset({"a": "1", "b": "2"})
    run = batcher(store)
    waiting = asyncio.create_task(run(("BLPOP", "empty", HELD)))
    other = asyncio.create_task(run(("GET", "a")))
    await on_their_way(run, 1)
    waiting.cancel()
    db.rpush("empty", "x")  # the batch's replies come now
    assert await other == [b"1"]
    assert await run(("GET", "b")) == [b"2"]
    assert waiting.cancelled()


async def test_a_batch_cancelled_mid_read_leaves_no_unread_replies_in_the_pool(
    store: RedisStore, db: redis.Redis
) -> None:
    """The sender gives up on a batch while Redis still owes it replies (as when the store
    closes): the next batch must not read them as its own."""
    db.mset({"a": "1", "b": "2"})
    run = batcher(store)
    waiting = asyncio.create_task(run(("BLPOP", "empty", HELD), ("GET", "a")))
    await on_their_way(run, 1)
    sender = run._sender  # it reads the replies
    assert sender is not None and not sender.done()
    sender.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    # Redis still owes the BLPOP's reply: a connection left as it was would give it here.
    assert await run(("GET", "b"), ("GET", "a")) == [b"2", b"1"]


async def test_a_batch_without_replies_in_time_fails_and_leaves_a_clean_pool(
    clean_redis: str, db: redis.Redis
) -> None:
    """One deadline, the socket timeout, bounds the whole batch; after the retries it
    fails with redis-py's timeout error, and the connection it leaves is fit for use."""
    db.set("a", "1")
    pool = BlockingConnectionPool.from_url(
        clean_redis,
        connection_class=PackedInC,
        socket_timeout=0.2,
        retry=Retry(ExponentialBackoff(cap=0.05, base=0.01), 1),
        retry_on_error=[RedisConnectionError, RedisTimeoutError],
    )
    client = aioredis.Redis(connection_pool=pool)
    run = Pipelined(client, [])
    try:
        with pytest.raises(RedisTimeoutError):
            await run(("BLPOP", "empty", 2), ("GET", "a"))
        assert await run(("GET", "a")) == [b"1"]
    finally:
        await run.close()
        await client.aclose()
        await pool.aclose()
