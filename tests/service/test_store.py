"""The store interface on both backends, used directly: create and load, every commit
status, request ids, the action log, fan-out to local subscribers, and expiry."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from service.config import Settings
from service.store import (
    REQUEST_MEMORY,
    CommitStatus,
    Delivery,
    Store,
    StoredGame,
    StoredRace,
    hash_token,
    open_store,
)


class Collector:
    def __init__(self) -> None:
        self.deliveries: list[Delivery] = []

    def deliver(self, delivery: Delivery) -> None:
        self.deliveries.append(delivery)


async def wait_for(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, "timed out waiting"
        await asyncio.sleep(0.01)


async def opened(store_url: str, **settings: Any) -> Store:
    store = open_store(Settings(store_url=store_url, **settings))
    await store.open()
    return store


def stored_game(game_id: str, code: str = "DS1-D1N-AAAAAAB") -> StoredGame:
    return StoredGame(game_id, 0, f"state-of-{game_id}", hash_token("secret"), code)


async def commit(
    store: Store,
    game_id: str,
    expected: int,
    notation: str = "d",
    request_id: str | None = None,
    over: bool = False,
    fingerprint: str | None = None,
) -> Any:
    payload = f'{{"version": {expected + 1}, "notation": "{notation}"}}'.encode()
    return await store.commit(
        game_id,
        expected,
        f"state-{expected + 1}",
        notation,
        request_id,
        over,
        payload,
        notation if fingerprint is None else fingerprint,
    )


async def test_create_and_load(store: Store) -> None:
    assert await store.load("missing") is None
    assert await store.actions("missing") is None
    game = StoredGame("g1", 0, "DS 1N state", hash_token("t"), "TF1-D3N-ABCDEFG")
    await store.create(game)
    loaded = await store.load("g1")
    assert loaded == game
    assert loaded is not game
    assert await store.actions("g1") == []
    await store.ping()
    assert store.kind in ("memory", "redis")


async def test_commit_statuses(store: Store) -> None:
    await store.create(stored_game("g"))
    result = await commit(store, "g", 0, "d", "r1")
    assert (result.status, result.version) == (CommitStatus.APPLIED, 1)
    loaded = await store.load("g")
    assert loaded is not None
    assert (loaded.version, loaded.state, loaded.over) == (1, "state-1", False)
    assert loaded.token_hash == hash_token("secret")

    # Someone else moved first: a conflict, with the version that is there.
    result = await commit(store, "g", 0, "c1>c2")
    assert (result.status, result.version) == (CommitStatus.CONFLICT, 1)
    # A request id seen before wins over the version check: the same request again is a
    # duplicate, another request under the same id is refused as reused.
    for expected in (1, 0, 7):
        result = await commit(store, "g", expected, "d", "r1")
        assert (result.status, result.version) == (CommitStatus.DUPLICATE, 1)
        result = await commit(store, "g", expected, "u", "r1")
        assert (result.status, result.version) == (CommitStatus.REUSED, 1)
    assert await store.seen_request("g", "r1") == (1, "d")
    assert await store.find_request("g", "r1") == 1
    assert await store.seen_request("g", "r9") is None
    result = await commit(store, "missing", 0)
    assert result.status is CommitStatus.MISSING
    assert await store.load("missing") is None

    loaded = await store.load("g")
    assert loaded is not None
    assert (loaded.version, loaded.state) == (1, "state-1")
    assert await store.actions("g") == ["d"]

    result = await commit(store, "g", 1, "c1>f", "r2")
    assert (result.status, result.version) == (CommitStatus.APPLIED, 2)
    assert await store.actions("g") == ["d", "c1>f"]


async def test_request_ids_match_whole_not_by_prefix(store: Store) -> None:
    """Ids may hold any character, tabs included: one id that begins another (or begins
    with what looks like a version) is a different id."""
    await store.create(stored_game("g"))
    ids = ["a\tb", "a\t1", "a", "a\t", "\t", "a\t1\tc"]
    for number, request_id in enumerate(ids, start=1):
        result = await commit(store, "g", number - 1, "d", request_id)
        assert (result.status, result.version) == (CommitStatus.APPLIED, number), request_id
    for number, request_id in enumerate(ids, start=1):
        result = await commit(store, "g", len(ids), "d", request_id)
        assert (result.status, result.version) == (CommitStatus.DUPLICATE, number), request_id
        assert await store.seen_request("g", request_id) == (number, "d")
    assert await store.seen_request("g", "a\tb\t1") is None


async def test_concurrent_commits_each_get_their_own_answer(store: Store) -> None:
    """Commits of many games at once (the Redis store sends them together): each caller
    gets its own status and version, and every game holds exactly its own actions."""
    games = [f"g{n}" for n in range(40)]
    for game_id in games:
        await store.create(stored_game(game_id))

    async def play(game_id: str) -> list[tuple[CommitStatus, int]]:
        answers = []
        for version in range(5):
            result = await commit(store, game_id, version, f"c{version}>f", f"{game_id}-{version}")
            answers.append((result.status, result.version))
        # A stale one and a repeated one, in the same rush.
        stale = await commit(store, game_id, 2, "d")
        again = await commit(store, game_id, 0, "c0>f", f"{game_id}-0")
        return [*answers, (stale.status, stale.version), (again.status, again.version)]

    results = await asyncio.gather(*(play(game_id) for game_id in games))
    for game_id, answers in zip(games, results, strict=True):
        assert answers == [
            *((CommitStatus.APPLIED, v) for v in range(1, 6)),
            (CommitStatus.CONFLICT, 5),
            (CommitStatus.DUPLICATE, 1),
        ], game_id
        assert await store.actions(game_id) == [f"c{v}>f" for v in range(5)]
        loaded = await store.load(game_id)
        assert loaded is not None and (loaded.version, loaded.state) == (5, "state-5")


async def test_a_full_game_refuses_more_actions(store_url: str) -> None:
    store = await opened(store_url, max_actions_per_game=3)
    try:
        await store.create(stored_game("full"))
        for version in range(3):
            result = await commit(store, "full", version, f"a{version}")
            assert result.status is CommitStatus.APPLIED
        result = await commit(store, "full", 3, "late", "late-id")
        assert (result.status, result.version) == (CommitStatus.FULL, 3)
        assert await store.actions("full") == ["a0", "a1", "a2"]
        assert await store.find_request("full", "late-id") is None
        loaded = await store.load("full")
        assert loaded is not None and loaded.version == 3
    finally:
        await store.close()


async def test_request_ids_are_remembered_for_the_last_accepted_actions(store: Store) -> None:
    await store.create(stored_game("ids"))
    total = REQUEST_MEMORY + 2
    for version in range(total):
        result = await commit(store, "ids", version, "d", f"id\t{version}")
        assert result.status is CommitStatus.APPLIED
    assert await store.find_request("ids", "id\t0") is None
    assert await store.find_request("ids", "id\t1") is None
    for version in range(2, total):
        assert await store.find_request("ids", f"id\t{version}") == version + 1
    assert await store.find_request("ids", "never") is None
    assert await store.find_request("missing", "id\t5") is None
    # Ids with pattern characters or separators are matched literally.
    result = await commit(store, "ids", total, "u", "%d+.*$")
    assert result.status is CommitStatus.APPLIED
    assert await store.find_request("ids", "%d+.*$") == total + 1
    assert await store.find_request("ids", "1") is None
    result = await commit(store, "ids", total + 1, "u", "%d+.*$")
    assert (result.status, result.version) == (CommitStatus.DUPLICATE, total + 1)


async def test_the_action_log_keeps_the_order(store: Store) -> None:
    await store.create(stored_game("log"))
    notations = ["d", "c3>c5", "c3:4>c5", "w>f2", "u", "r", "f2>c4", "d"]
    for version, notation in enumerate(notations):
        assert (await commit(store, "log", version, notation)).status is CommitStatus.APPLIED
    assert await store.actions("log") == notations
    await store.create(stored_game("other"))
    assert await store.actions("other") == []


async def test_changes_are_delivered_to_local_subscribers(store: Store) -> None:
    for game_id in ("sub", "elsewhere"):
        await store.create(stored_game(game_id))
    first, second, bystander = Collector(), Collector(), Collector()
    await store.subscribe("sub", first)
    await store.subscribe("sub", second)
    await store.subscribe("elsewhere", bystander)
    await store.subscribe("sub", first)  # twice: still one subscriber
    payloads = []
    for version in range(3):
        result = await commit(store, "sub", version, f"n{version}")
        assert result.status is CommitStatus.APPLIED
        payloads.append(f'{{"version": {version + 1}, "notation": "n{version}"}}'.encode())
    expected = [("sub", version + 1, payload) for version, payload in enumerate(payloads)]
    await wait_for(lambda: len(first.deliveries) >= 3 <= len(second.deliveries))
    await asyncio.sleep(0.2)  # let any echo arrive
    for collector in (first, second):
        # Once each: the Redis store's pub/sub copy of its own commit is not handed out.
        assert [(d.game_id, d.version, d.payload) for d in collector.deliveries] == expected
    # A refused commit publishes nothing.
    counts = len(first.deliveries), len(second.deliveries)
    assert (await commit(store, "sub", 0)).status is CommitStatus.CONFLICT

    await store.unsubscribe("sub", first)
    await store.unsubscribe("sub", first)  # harmless
    assert (await commit(store, "sub", 3, "n3")).status is CommitStatus.APPLIED
    await wait_for(lambda: len(second.deliveries) >= 4)
    await asyncio.sleep(0.2)
    assert len(first.deliveries) == counts[0]
    assert [d.version for d in second.deliveries[counts[1] :]] == [4]
    assert bystander.deliveries == []
    assert store.subscribed_games == 2
    await store.unsubscribe("sub", second)
    await store.unsubscribe("elsewhere", bystander)
    assert store.subscribed_games == 0


async def test_idle_games_expire_and_won_games_are_kept(store_url: str) -> None:
    # Each check is made at a moment the test measured, on the safe side of a lifetime's
    # end, so that a slow machine moves the moments, not the outcome. Two seconds leave
    # the action that renews a game time to come before that game's end.
    ttl = 2
    store = await opened(store_url, game_ttl_seconds=ttl, won_game_ttl_seconds=0)
    loop = asyncio.get_running_loop()
    try:
        for game_id in ("idle", "won", "busy"):
            await store.create(stored_game(game_id))
        created = loop.time()  # every lifetime started by now: "idle" ends by created + ttl
        assert (
            await commit(store, "won", 0, "c1>f", "w1", over=True)
        ).status is CommitStatus.APPLIED
        # An accepted action starts the idle time again (the Redis store renews a
        # lifetime once a tenth of it has run down).
        await asyncio.sleep(ttl / 10 + 0.1)
        renewing = loop.time()  # "busy" lives at least until renewing + ttl
        assert (await commit(store, "busy", 0)).status is CommitStatus.APPLIED
        renewed = loop.time()  # and no longer than renewed + ttl
        await asyncio.sleep(created + ttl + 0.05 - loop.time())
        assert await store.load("idle") is None
        assert await store.actions("idle") is None
        assert (await commit(store, "idle", 0)).status is CommitStatus.MISSING
        assert await store.find_request("idle", "x") is None
        busy = await store.load("busy")
        if loop.time() < renewing + ttl:  # read before its renewed lifetime could end
            assert busy is not None and busy.version == 1
        won = await store.load("won")
        assert won is not None and won.over is True
        assert await store.actions("won") == ["c1>f"]
        assert await store.find_request("won", "w1") == 1
        await asyncio.sleep(renewed + ttl + 0.05 - loop.time())
        assert await store.load("busy") is None
        assert await store.load("won") is not None
    finally:
        await store.close()


async def test_won_games_can_have_their_own_lifetime(store_url: str) -> None:
    store = await opened(store_url, game_ttl_seconds=3600, won_game_ttl_seconds=1)
    try:
        await store.create(stored_game("short"))
        assert (await commit(store, "short", 0, "c1>f", over=True)).status is CommitStatus.APPLIED
        await asyncio.sleep(1.5)
        assert await store.load("short") is None
        assert await store.actions("short") is None
    finally:
        await store.close()


async def test_load_many_reads_games_and_logs_in_order(store: Store) -> None:
    for game_id in ("a", "b"):
        await store.create(stored_game(game_id))
    await commit(store, "a", 0, "d")
    await commit(store, "a", 1, "c3>f")
    await commit(store, "b", 0, "u")
    found = await store.load_many(["b", "missing", "a"], with_actions=True)
    assert [(g.game_id, g.version) if g else None for g, _ in found] == [
        ("b", 1),
        None,
        ("a", 2),
    ]
    assert [actions for _, actions in found] == [["u"], None, ["d", "c3>f"]]
    plain = await store.load_many(["a"])
    assert plain[0][0] is not None and plain[0][0].state == "state-2"
    assert plain[0][1] is None


async def test_race_versions_are_read_in_one_call_and_missing_races_left_out(
    store: Store,
) -> None:
    assert await store.race_versions([]) == {}
    for race_id, code in (("r1", "CODE2345"), ("r2", "CODE3456")):
        assert await store.create_race(StoredRace(race_id, 0, "{}"), code)
    saved = await store.save_race("r2", 0, '{"v": 1}', b"{}")
    assert saved.status is CommitStatus.APPLIED
    assert await store.race_versions(["r2", "gone", "r1"]) == {"r2": 1, "r1": 0}
