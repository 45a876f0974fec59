"""The service on a Redis Cluster of three masters on loopback (``redis+cluster://``):
games, boards, writes done once, quick pairing and arenas.

The set-up starts three cluster-enabled redis-server processes and joins them with
``redis-cli --cluster create``. Two instances use the cluster (each seeded with a
different node). Games must land on different nodes (each game's keys together, by their
hash tag), and changes must fan out: actions on one instance reach a watcher on the
other, whichever node holds the game.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest
import redis
from redis.asyncio.cluster import RedisCluster

from service.config import Settings
from service.store import StoredRace, open_store
from service.store.records import Ranked
from service.store.redis_board_moves import MOVED, move_old_boards
from service.store.redis_records import RedisRecords
from tests.scale.harness import (
    Game,
    Instance,
    Peer,
    auth,
    create_game,
    get_game,
    http_client,
    launched,
    pick_action,
    post_action,
    rid,
)

NODES = 3


def _cluster_ports(count: int) -> list[int]:
    """Free ports whose cluster-bus ports (port + 10000) are free too."""
    rng = random.Random()
    ports: list[int] = []
    for _ in range(500):
        port = rng.randrange(20000, 40000)
        if port in ports:
            continue
        try:
            with socket.socket() as a, socket.socket() as b:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + 10000))
        except OSError:
            continue
        ports.append(port)
        if len(ports) == count:
            return ports
    raise RuntimeError("no free ports for a cluster")


def _wait(predicate: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if predicate():  # type: ignore[operator]
                return
        except redis.RedisError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.1)


@pytest.fixture(scope="module")
def cluster_ports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[int]]:
    server = shutil.which("redis-server")
    cli = shutil.which("redis-cli")
    if server is None or cli is None:
        pytest.fail("redis-server and redis-cli are needed (apt-get install redis-server)")
    workdir: Path = tmp_path_factory.mktemp("cluster")
    ports = _cluster_ports(NODES)
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for port in ports:
            node_dir = workdir / str(port)
            node_dir.mkdir()
            processes.append(
                subprocess.Popen(
                    [
                        server,
                        "--port",
                        str(port),
                        "--bind",
                        "127.0.0.1",
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        f"nodes-{port}.conf",
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--dir",
                        str(node_dir),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        for port in ports:
            _wait(lambda p=port: redis.Redis(port=p).ping(), 10, f"node {port}")
        subprocess.run(
            [
                cli,
                "--cluster",
                "create",
                *(f"127.0.0.1:{p}" for p in ports),
                "--cluster-replicas",
                "0",
                "--cluster-yes",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=60,
        )
        for port in ports:
            _wait(
                lambda p=port: redis.Redis(port=p).cluster("info")["cluster_state"] == "ok",
                30,
                f"cluster state ok on {port}",
            )
        yield ports
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


@pytest.fixture(scope="module")
def pair(
    cluster_ports: list[int], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Instance]]:
    workdir = tmp_path_factory.mktemp("cluster-instances")
    first = Instance("c1", f"redis+cluster://127.0.0.1:{cluster_ports[0]}", workdir)
    second = Instance("c2", f"redis+cluster://127.0.0.1:{cluster_ports[1]}", workdir)
    with launched(first, second) as started:
        yield started


def _node_of(ports: list[int], game_id: str) -> int:
    """The port of the node that holds the game's keys (all of them, or it fails)."""
    holders = set()
    for port in ports:
        client = redis.Redis(port=port)
        try:
            # Without decode_responses the client's replies are bytes.
            keys = cast("list[bytes]", client.keys(f"sol:{{{game_id}}}:*"))
        finally:
            client.close()
        if keys:
            holders.add(port)
            names = {k.decode().rsplit(":", 1)[1] for k in keys}
            assert "g" in names
    assert len(holders) == 1, f"the keys of {game_id} are on {holders}"
    return holders.pop()


def test_an_instance_starts_on_a_redis_cluster(
    cluster_ports: list[int], tmp_path_factory: pytest.TempPathFactory
) -> None:
    workdir = tmp_path_factory.mktemp("cluster-start")
    instance = Instance("start", f"redis+cluster://127.0.0.1:{cluster_ports[2]}", workdir)
    with launched(instance):
        assert instance.alive()


async def test_games_spread_over_the_nodes_and_changes_fan_out(
    cluster_ports: list[int], pair: list[Instance]
) -> None:
    one, two = pair
    rng = random.Random(4)
    async with http_client() as http:
        games = [await create_game(http, pair[i % 2]) for i in range(12)]
        by_node: dict[int, list[Game]] = {}
        for game in games:
            by_node.setdefault(_node_of(cluster_ports, game.game_id), []).append(game)
        assert len(by_node) >= 2, f"all twelve games on one node: {list(by_node)}"
        # One game from each node that holds some, watched on the other instance.
        chosen = [node_games[0] for node_games in by_node.values()][:3]
        watcher = await Peer.open(two, "watcher@c2")
        player = await Peer.open(two, "player@c2")
        try:
            for game in chosen:
                assert (await watcher.subscribe(game.game_id))["type"] == "subscribed"
                assert (await player.subscribe(game.game_id, game.token))["role"] == "player"

            async def play(game: Game) -> int:
                for turn in range(20):
                    action = pick_action(game.local, rng)
                    assert action is not None
                    if turn % 2:
                        result = await player.act(game.game_id, action, turn)
                        assert result["status"] == "accepted", result
                        notation = result["notation"]
                    else:
                        response = await post_action(http, one, game, action, turn)
                        assert response.status_code == 200, response.text
                        notation = response.json()["notation"]
                    game.local.play_text(notation)
                return 20

            finals = await asyncio.gather(*(play(game) for game in chosen))
            for game, final in zip(chosen, finals, strict=True):
                for peer in (watcher, player):
                    view = await peer.wait_version(game.game_id, final)
                    assert view.versions == list(range(1, final + 1)), peer.label
                    assert view.state == game.local.public_view()
                for instance in pair:
                    assert await get_game(http, instance, game.game_id) == (
                        final,
                        game.local.public_view(),
                    )
                # The action log is on the game's node, with its other keys.
                node = _node_of(cluster_ports, game.game_id)
                client = redis.Redis(port=node)
                try:
                    assert client.exists(f"sol:{{{game.game_id}}}:log") == 1
                finally:
                    client.close()
            assert not watcher.schema_errors and not player.schema_errors
        finally:
            await watcher.close()
            await player.close()


async def test_boards_run_on_the_cluster(cluster_ports: list[int]) -> None:
    """A board's scripts touch its three keys, which share the board's hash tag: each
    board's keys on one node, and ranks, pages and ties as on one server."""
    client = RedisCluster(host="127.0.0.1", port=cluster_ports[0])
    records = RedisRecords(client)
    boards = [f"streak:{mode}" for mode in ("DS.D1N", "DS.D3N", "DS.D1V", "TF.D1N", "TF.D3N")]
    try:
        for board in boards:
            for member, score in (("b", -2.0), ("a", -2.0), ("c", -1.0), ("d", -3.0)):
                await records.board_add(board, member, score)
            page = await records.board_page(board, "a", 2, 1, offset=1)
            assert [row.member for row in page.top] == ["b", "a"]  # b reached 2 first
            assert page.you == Ranked("a", 2, -2.0) and page.size == 4
            assert [row.member for row in page.around] == ["b", "a", "c"]
    finally:
        await client.aclose()
    for board in boards:
        holders = set()
        for port in cluster_ports:
            node = redis.Redis(port=port)
            try:
                if node.keys(f"sol:rec:board:{{{board}}}*"):
                    holders.add(port)
            finally:
                node.close()
        assert len(holders) == 1, f"the keys of {board} are on {holders}"


async def test_old_boards_move_on_the_cluster(cluster_ports: list[int]) -> None:
    """Boards of the earlier layout, one sorted set each wherever its name hashes to, are
    moved without a command touching two slots, ties in their old order (by member)."""
    client = RedisCluster(host="127.0.0.1", port=cluster_ports[0])
    records = RedisRecords(client)
    boards = [f"best-time:{mode}" for mode in ("DS.D1N", "DS.D3N", "TF.D1N", "TF.D3N")]
    try:
        await client.delete(MOVED)  # written by the instances of the tests before
        for board in boards:
            await client.zadd(f"sol:rec:board:{board}", {"c": 5.0, "a": 5.0, "b": 4.0})
        await records.board_add(boards[0], "z", 5.0)
        assert await move_old_boards(client) == len(boards)
        assert await move_old_boards(client) == 0
        for board in boards:
            rows = await records.board_range(board, 0, 10)
            tail = [("z", 5.0)] if board == boards[0] else []
            assert [(row.member, row.score) for row in rows] == [
                ("b", 4.0),
                ("a", 5.0),
                ("c", 5.0),
                *tail,
            ]
            assert not await client.exists(f"sol:rec:board:{board}")
    finally:
        await client.aclose()


async def test_writes_done_once_run_on_the_cluster(cluster_ports: list[int]) -> None:
    """Each write that remembers its nonce touches its key and a marker in the key's hash
    slot (``redis_once``): on a cluster each runs on one node, for keys on every node."""
    url = f"redis+cluster://127.0.0.1:{cluster_ports[0]}"
    store = open_store(Settings(store_url=url))
    await store.open()
    try:
        records = store.records
        for index in range(12):  # names that hash to every node
            key = f"cluster-once:{index}"
            assert await records.claim(key, "v", ttl_seconds=60)
            assert not await records.claim(key, "v")
            assert await records.take(key) == "v"
            assert await records.queue_push(key, "a", ttl_seconds=60) == 1
            assert await records.queue_pop(key) == "a"
            assert await records.save(key, 0, "doc")
            assert await store.tally(key, 60) == 1
            assert await store.admit(key, 2, 60)
            await store.refund(key)
            race = StoredRace(f"cluster-race-{index}", 0, "{}")
            assert await store.create_race(race, f"CLUSTER{index:02d}")
            assert (await store.save_race(race.race_id, 0, "{}", b"{}")).version == 1
            await store.renew_race(race.race_id)
    finally:
        await store.close()


async def test_quick_pairing_and_an_arena_run_on_the_cluster(pair: list[Instance]) -> None:
    """Quick pairing's pool (one hash tag for every mode) and an arena's keys (one hash
    tag per arena) on the cluster, from two instances: two seekers paired into one race,
    a second seek refused while one waits; an arena's players paired into heats by the
    waves, its standings followed over the WebSocket of the other instance, and the heats
    counted once."""
    one, two = pair
    async with http_client() as http:

        async def player(instance: Instance, name: str) -> str:
            made = await http.post(f"{instance.url}/players", json={"name": name})
            assert made.status_code == 201, made.text
            token: str = made.json()["player_token"]
            return token

        ada, bob = await player(one, "Ada"), await player(two, "Bob")
        seeks = []
        for instance, token in ((one, ada), (two, bob)):
            sent = await http.post(
                f"{instance.url}/pairing/seeks", json={"mode": "TF.D1N"}, headers=auth(token)
            )
            assert sent.status_code == 201, sent.text
            seeks.append((instance, token, sent.json()["seek"]["seek_id"]))
        again = await http.post(
            f"{one.url}/pairing/seeks", json={"mode": "DS.D1N"}, headers=auth(ada)
        )
        assert again.status_code == 409 and again.json()["code"] == "already_seeking"
        races = set()
        for instance, token, seek_id in seeks:
            for _ in range(100):
                read = await http.get(
                    f"{instance.url}/pairing/seeks/{seek_id}", headers=auth(token)
                )
                seek = read.json()["seek"]
                if seek["status"] == "paired":
                    races.add(seek["race"]["race_id"])
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError(f"seek {seek_id} never paired")
        assert len(races) == 1

        cy, dee = await player(one, "Cy"), await player(two, "Dee")
        body = {"mode": "TF.D1N", "name": "Cluster arena", "minutes": 5}
        made = await http.post(f"{one.url}/arenas", json=body, headers=auth(cy))
        assert made.status_code == 201, made.text
        arena_id = made.json()["arena"]["arena_id"]
        follower = await Peer.open(two, "follower@c2")
        try:
            follow = {"type": "follow_arena", "id": rid(), "arena_id": arena_id, "token": dee}
            first = await follower.request(follow)
            assert first["type"] == "arena_standings" and first["full"], first
            for instance, token in ((one, cy), (two, dee)):
                joined = await http.post(
                    f"{instance.url}/arenas/{arena_id}/players", headers=auth(token)
                )
                assert joined.status_code == 200, joined.text
            told = await follower.until(
                lambda f: f["type"] == "arena_standings" and bool((f.get("you") or {}).get("heat")),
                timeout=30,
            )
            heat = told["you"]["heat"]
            race_url = f"{two.url}/races/{heat['race_id']}"
            for _ in range(100):
                race = (await http.get(race_url, headers=auth(heat["player_token"]))).json()
                if race["race"]["status"] == "running":
                    break
                await asyncio.sleep(0.1)
            resigned = await http.post(f"{race_url}/resign", headers=auth(heat["player_token"]))
            assert resigned.status_code == 200, resigned.text
            cy_view = (await http.get(f"{one.url}/arenas/{arena_id}", headers=auth(cy))).json()
            cy_heat = cy_view["you"]["heat"]
            assert cy_heat["race_id"] == heat["race_id"]
            resigned = await http.post(
                f"{one.url}/races/{cy_heat['race_id']}/resign",
                headers=auth(cy_heat["player_token"]),
            )
            assert resigned.status_code == 200, resigned.text
            counted = await follower.until(
                lambda f: (
                    f["type"] == "arena_standings" and any(r["heats"] == 1 for r in f["rows"])
                ),
                timeout=30,
            )
            assert {r["name"] for r in counted["rows"] if r["heats"] == 1} == {"Cy", "Dee"}
            heats = (await http.get(f"{one.url}/arenas/{arena_id}/heats")).json()["heats"]
            assert [h["race_id"] for h in heats if h["outcomes"]] == [heat["race_id"]]
            assert not follower.schema_errors, follower.schema_errors
        finally:
            await follower.close()
