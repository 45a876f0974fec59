"""``WORKERS=2``: two service processes behind one port, on one Redis.

Connections to the one port land on either process. The test finds, from /proc, which
process serves each of its connections, and checks that a player on one process and a
watcher on the other see each other's changes, and that a memory store refuses to start
with several processes.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.scale.harness import (
    ROOT,
    Instance,
    Peer,
    create_game,
    get_game,
    http_client,
    pick_action,
    private_redis,
    running,
)

pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads /proc")


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Instance]:
    workdir = tmp_path_factory.mktemp("workers")
    with (
        private_redis(workdir, "--appendonly", "no") as redis,
        running(Instance("w", redis.url, workdir, workers=2)) as instance,
    ):
        yield instance


def worker_pids(instance: Instance) -> list[int]:
    children = Path(f"/proc/{instance.pid}/task/{instance.pid}/children").read_text()
    return [int(pid) for pid in children.split()]


def serving_pid(instance: Instance, client_port: int) -> int | None:
    """The worker that holds the server side of the connection from ``client_port``."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local_port = int(fields[1].split(":")[1], 16)
        remote_port = int(fields[2].split(":")[1], 16)
        if local_port == instance.port and remote_port == client_port:
            inodes.add(f"socket:[{fields[9]}]")
    for pid in worker_pids(instance):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if os.readlink(fd) in inodes:
                    return pid
            except OSError:
                continue
    return None


async def peers_on_two_processes(instance: Instance) -> tuple[Peer, Peer]:
    """Opens connections until two are served by different processes."""
    opened: list[Peer] = []
    by_pid: dict[int, Peer] = {}
    try:
        for n in range(40):
            peer = await Peer.open(instance, f"peer-{n}")
            opened.append(peer)
            pid = serving_pid(instance, peer.ws.local_address[1])
            assert pid is not None, "no worker holds the connection"
            by_pid.setdefault(pid, peer)
            if len(by_pid) == 2:
                first, second = by_pid.values()
                return first, second
        pytest.fail("every connection landed on the same process")
    finally:
        for peer in opened:
            if peer not in by_pid.values():
                await peer.close()


def listening_socket(instance: Instance) -> str:
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == instance.port and fields[3] == "0A":
            return f"socket:[{fields[9]}]"
    raise AssertionError("nothing listens on the port")


def test_two_processes_share_one_port(two_workers: Instance) -> None:
    pids = worker_pids(two_workers)
    assert len(pids) == 2
    listener = listening_socket(two_workers)
    for pid in pids:
        # Both hold the one listening socket: either may accept the next connection.
        held = set()
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                held.add(os.readlink(fd))
            except OSError:
                continue
        assert listener in held, pid


async def test_player_and_watcher_on_different_processes(two_workers: Instance) -> None:
    player, watcher = await peers_on_two_processes(two_workers)
    try:
        async with http_client() as http:
            game = await create_game(http, two_workers)
            assert (await player.subscribe(game.game_id, game.token))["role"] == "player"
            assert (await watcher.subscribe(game.game_id))["role"] == "watcher"
            rng = random.Random(1)
            for version in range(1, 6):
                action = pick_action(game.local, rng)
                assert action is not None
                answer = await player.act(game.game_id, action)
                assert answer["status"] == "accepted", answer
                assert answer["version"] == version
                game.local.play_text(answer["notation"])
            for peer in (player, watcher):
                view = await peer.wait_version(game.game_id, 5)
                assert view.versions == [1, 2, 3, 4, 5], peer.label
                assert view.state == game.local.public_view()
            stored_version, state = await get_game(http, two_workers, game.game_id)
            assert (stored_version, state) == (5, game.local.public_view())
    finally:
        await player.close()
        await watcher.close()


def test_a_memory_store_refuses_several_processes(tmp_path: Path) -> None:
    instance = Instance("m", "memory://", tmp_path, workers=2)
    done = subprocess.run(
        [sys.executable, "-m", "service"],
        env=instance.env,
        cwd=str(ROOT),
        capture_output=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert b"WORKERS above 1 needs a shared store" in done.stderr


def test_a_stop_ends_every_process(tmp_path: Path) -> None:
    with private_redis(tmp_path, "--appendonly", "no") as redis:
        instance = Instance("s", redis.url, tmp_path, workers=2)
        with running(instance):
            pids = worker_pids(instance)
            assert len(pids) == 2
        assert instance.process is not None and instance.process.returncode == 0
        for pid in pids:
            # Reaped by the service process: nothing of them is left.
            assert not Path(f"/proc/{pid}").exists(), pid
