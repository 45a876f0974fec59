"""Limits of one connection, on real processes: rate, frame size, subscriptions, and a
consumer too slow to keep up.

The slow consumer is a watcher whose socket has a tiny receive buffer and whose client
never reads (``websockets`` with ``max_queue=1``: it stops reading the socket as soon as
one frame waits). The service's writes to it back up through the kernel buffers and the
transport, its pump blocks, its queue of ``SEND_QUEUE_SIZE=4`` deliveries overflows, and
it must be cut off (close code 4008) while the player and another watcher of the same
game keep receiving every change promptly.
"""

from __future__ import annotations

import asyncio
import random
import socket
import time
from asyncio.trsock import TransportSocket
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx2
import orjson
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.scale.harness import (
    Instance,
    Peer,
    create_game,
    http_client,
    launched,
    metrics,
    pick_action,
    private_redis,
    rid,
)

SLOW_QUEUE = 4
# Bounds of the slow-consumer run: ~3x the actions whose data it needs. The time is only
# there to end a run whose service never cuts anyone off: a loaded machine plays the
# actions several times slower, and must still get to play them.
SLOW_MAX_ACTIONS = 15_000
SLOW_MAX_SECONDS = 180.0
AFTER_CUT_ACTIONS = 50
PROMPT_SECONDS = 2.0
# Six bursts of the strict instance: over its rate even if the service reads them over
# seconds, yet far from the hundred dropped frames that close a connection.
FLOOD = 30
DROPPED = "solitaire_ws_frames_dropped_total"


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Instance, Instance, Path]]:
    """``strict``: 5 messages/s in bursts of 5, 2 subscriptions; ``roomy``: a send queue of
    4 deliveries and generous rates."""
    workdir = tmp_path_factory.mktemp("limits")
    with private_redis(workdir, "--appendonly", "no") as redis:
        strict = Instance(
            "strict", redis.url, workdir, rate_per_second=5, rate_burst=5, max_subscriptions=2
        )
        roomy = Instance("roomy", redis.url, workdir, send_queue_size=SLOW_QUEUE)
        with launched(strict, roomy):
            yield strict, roomy, workdir


# --------------------------------------------------------------------------- rate


async def _read_by_the_service(
    http: httpx2.AsyncClient, instance: Instance, peer: Peer, ids: set[str], dropped: float
) -> None:
    """Returns once the service has read every ping of ``ids``: each answered with a pong
    or counted as dropped."""
    deadline = time.monotonic() + 30
    while True:
        pongs = sum(1 for f in peer.frames if f["type"] == "pong" and f.get("id") in ids)
        now = (await metrics(http, instance)).get(DROPPED, 0.0)
        if pongs + now - dropped >= len(ids):
            return
        assert time.monotonic() < deadline, f"{pongs} pongs, {now - dropped} dropped"
        await asyncio.sleep(0.02)


async def test_a_flood_is_rate_limited_and_the_connection_stays_usable(
    pair: tuple[Instance, Instance, Path],
) -> None:
    strict, _, _ = pair
    async with http_client() as http, await Peer.open(strict, "flooder") as peer:
        await asyncio.sleep(1.2)  # a full bucket again (the hello took one token)
        dropped = (await metrics(http, strict)).get(DROPPED, 0.0)
        ids = [rid() for _ in range(FLOOD)]
        started = time.monotonic()
        for request_id in ids:
            await peer.send({"type": "ping", "id": request_id})
        await _read_by_the_service(http, strict, peer, set(ids), dropped)
        # How long the service can have taken to read them: on a loaded machine, longer.
        reading = time.monotonic() - started
        await asyncio.sleep(1.5)  # usable again once the bucket refilled
        await peer.ping()
        answers = peer.frames[1:-1]
        pongs = [f for f in answers if f["type"] == "pong"]
        limited = [f for f in answers if f["type"] == "error" and f["code"] == "rate_limited"]
        assert len(pongs) + len(limited) == len(answers), answers
        # The burst of 5, and the tokens that trickled in (5 a second) while the service
        # read the flood: none unless it took a fifth of a second.
        assert 5 <= len(pongs) <= 5 + 5 * reading, (answers, reading)
        # The rest were dropped unread, and answered only the first time after a served
        # frame, or a second after the last answer.
        dropped_now = (await metrics(http, strict))[DROPPED]
        assert dropped_now - dropped == FLOOD - len(pongs) >= 1
        assert 1 <= len(limited) <= len(pongs) - 4 + int(reading), (answers, reading)
        assert {f["id"] for f in limited} <= set(ids)
        assert not peer.closed
        assert not peer.schema_errors


async def test_a_much_larger_flood_closes_the_connection(
    pair: tuple[Instance, Instance, Path],
) -> None:
    strict, _, _ = pair
    async with await Peer.open(strict, "big-flooder") as peer:
        try:
            for _ in range(200):
                await peer.send({"type": "ping"})
        except ConnectionClosed:
            pass
        await peer.wait(lambda: peer.closed, 10, "the close")
        assert peer.close_code == 1008
        limited = [f for f in peer.frames if f.get("code") == "rate_limited"]
        pongs = [f for f in peer.frames if f["type"] == "pong"]
        # Cut after more than FLOOD_DROPPED_FRAMES (100) dropped frames within 10 s, having
        # answered few of them.
        assert 1 <= len(limited) <= len(pongs) + 1, len(limited)
    # Only that connection: a new one is served.
    async with await Peer.open(strict, "next") as peer:
        await peer.ping()


# --------------------------------------------------------------------------- frames


async def test_frame_size_limits(pair: tuple[Instance, Instance, Path]) -> None:
    _, roomy, _ = pair
    async with await Peer.open(roomy, "big-frames") as peer:
        frame = orjson.dumps({"type": "ping", "id": "big", "pad": "x" * 20_000}).decode()
        mark = peer.mark()
        await peer.send_raw(frame)
        error = await peer.until(lambda f: f["type"] == "error", since=mark)
        assert error["code"] == "frame_too_large"
        await peer.ping()  # still usable
        # Far over the limit (uvicorn's own cap, 8x the frame limit or 1 MiB): closed.
        with pytest.raises(ConnectionClosed):
            await peer.send_raw("x" * (2 << 20))
            await peer.wait(lambda: peer.closed, 10, "the close")
            await peer.ping()
        assert peer.closed and peer.close_code == 1009


async def test_the_subscription_cap(pair: tuple[Instance, Instance, Path]) -> None:
    strict, _, _ = pair
    async with http_client() as http:
        games = [await create_game(http, strict) for _ in range(3)]
    async with await Peer.open(strict, "subscriber") as peer:
        for game in games[:2]:
            await asyncio.sleep(0.25)  # 5 messages a second here
            assert (await peer.subscribe(game.game_id))["type"] == "subscribed"
        await asyncio.sleep(0.25)
        answer = await peer.subscribe(games[2].game_id)
        assert answer["type"] == "error" and answer["code"] == "too_many_subscriptions", answer
        await asyncio.sleep(0.25)
        answer = await peer.subscribe(games[0].game_id)  # again: not a new one
        assert answer["type"] == "subscribed", answer
        await asyncio.sleep(0.25)
        answer = await peer.request(
            {"type": "unsubscribe", "id": rid(), "game_id": games[0].game_id}
        )
        assert answer["type"] == "unsubscribed"
        await asyncio.sleep(0.25)
        assert (await peer.subscribe(games[2].game_id))["type"] == "subscribed"


# --------------------------------------------------------------------------- slow consumer


@dataclass
class SlowRun:
    """What one slow-consumer run saw (the run happens once, several tests read it)."""

    cut_after: int | None = None  # actions played until the service cut the slow watcher
    cut_seconds: float = 0.0
    final_version: int = 0
    round_trips: list[float] = field(default_factory=list)
    watcher_lags: list[float] = field(default_factory=list)
    player_versions_ok: bool = False
    watcher_versions_ok: bool = False
    connections_before: float = 0.0
    connections_after_cut: float = 0.0
    slow_frames: int = 0
    slow_close_code: int | None = None
    slow_read_timed_out: bool = False
    log_errors: list[str] = field(default_factory=list)
    # Phase 2: a client cut off while the service is answering its own requests.
    second_cut: bool = False
    second_close_code: int | None = None
    # How the second client's reading ended, for the failure message.
    second_read: str = ""
    log_errors_after_second: list[str] = field(default_factory=list)
    # A third watcher, cut off with the first, never reads again: the TCP state of its
    # socket some time after the cut (the service must drop it, not hold it open).
    silent_tcp_state: int | None = None


async def _slow_consumer(instance: Instance) -> SlowRun:
    run = SlowRun()
    rng = random.Random(21)
    async with http_client() as http:
        game = await create_game(http, instance)
        player = await Peer.open(instance, "player", check=False)
        watcher = await Peer.open(instance, "watcher", check=False)
        slow = await _tiny_reader(instance)
        silent = await _tiny_reader(instance)
        try:
            await player.subscribe(game.game_id, game.token)
            await watcher.subscribe(game.game_id)
            for client in (slow, silent):
                await client.send(orjson.dumps({"type": "hello", "protocol": 1}).decode())
                subscribe = {"type": "subscribe", "id": "slow", "game_id": game.game_id}
                await client.send(orjson.dumps(subscribe).decode())
            await asyncio.sleep(0.2)
            before = await metrics(http, instance)
            run.connections_before = before["solitaire_ws_connections"]
            cuts_before = before.get("solitaire_slow_disconnects_total", 0.0)
            started = first_started = time.monotonic()
            version = 0
            remaining = SLOW_MAX_ACTIONS
            while remaining > 0 and time.monotonic() - started < SLOW_MAX_SECONDS:
                remaining -= 1
                action = pick_action(game.local, rng)
                assert action is not None, "the game ran out of actions"
                sent = time.monotonic()
                result = await player.act(game.game_id, action, version)
                run.round_trips.append(time.monotonic() - sent)
                assert result["type"] == "result" and result["status"] == "accepted", result
                version = result["version"]
                game.local.play_text(result["notation"])
                if version % 25 == 0:
                    waited = time.monotonic()
                    await watcher.wait_version(game.game_id, version, PROMPT_SECONDS * 5)
                    run.watcher_lags.append(time.monotonic() - waited)
                    if run.cut_after is None:
                        now = await metrics(http, instance)
                        if now.get("solitaire_slow_disconnects_total", 0.0) > cuts_before:
                            run.cut_after = version
                            run.cut_seconds = time.monotonic() - started
                            remaining = AFTER_CUT_ACTIONS
            run.final_version = version
            for peer, attr in ((player, "player_versions_ok"), (watcher, "watcher_versions_ok")):
                view = await peer.wait_version(game.game_id, version)
                ok = view.versions == list(range(1, version + 1))
                setattr(run, attr, ok and view.state == game.local.public_view())
            # The service sends the close frame within 2 s, then lets the connections go.
            after = await _connections_down_to(http, instance, run.connections_before - 2)
            run.connections_after_cut = after["solitaire_ws_connections"]
            # Now the slow client reads what reached it: a close should end it.
            try:
                async with asyncio.timeout(5):
                    async for _ in slow:
                        run.slow_frames += 1
            except TimeoutError:
                run.slow_read_timed_out = True
            except ConnectionClosed:
                pass
            run.slow_close_code = slow.close_code
            run.log_errors = instance.errors()

            # Phase 2: a watcher keeps asking for long catch-ups (900 changes each, always
            # within the service's limit of 1000 when asked) and does not read the answers;
            # the player's changes then overflow its queue while the service is still
            # answering its requests.
            second = await _tiny_reader(instance)
            try:
                await second.send(orjson.dumps({"type": "hello", "protocol": 1}).decode())
                cuts = (await metrics(http, instance)).get("solitaire_slow_disconnects_total", 0)
                started = time.monotonic()
                for turn in range(2000):
                    if time.monotonic() - started > SLOW_MAX_SECONDS:
                        break
                    if turn % 10 == 0:
                        subscribe = {"type": "subscribe", "id": f"c{turn}", "game_id": game.game_id}
                        since = max(0, version - 900)
                        await second.send(orjson.dumps({**subscribe, "since": since}).decode())
                    action = pick_action(game.local, rng)
                    assert action is not None
                    result = await player.act(game.game_id, action, version)
                    assert result["status"] == "accepted", result
                    version = result["version"]
                    game.local.play_text(result["notation"])
                    if turn % 10 == 9:
                        now = await metrics(http, instance)
                        if now.get("solitaire_slow_disconnects_total", 0) > cuts:
                            run.second_cut = True
                            break
                    await asyncio.sleep(0.005)
                # Read until the close, from now (the close frame is already queued behind
                # the backlog): 4008 if the client reads its backlog in time, 1006 if the
                # service dropped it first (10 s after the cut), still open (None) if the cut
                # counted above was somebody else's.
                frames = size = 0
                reading = time.monotonic()
                outcome = "closed"
                try:
                    async with asyncio.timeout(15):
                        async for frame in second:
                            frames += 1
                            size += len(frame)
                except TimeoutError:
                    outcome = "still open"
                except ConnectionClosed:
                    pass
                run.second_close_code = second.close_code
                gauge = (await metrics(http, instance)).get("solitaire_ws_connections")
                run.second_read = (
                    f"{outcome} after {time.monotonic() - reading:.1f} s of reading, {frames} "
                    f"frames, {size} bytes; {turn + 1} actions; connections {gauge}; player "
                    f"closed: {player.closed}, watcher closed: {watcher.closed}"
                )
                await asyncio.sleep(0.5)
            finally:
                second.transport.abort()
            # The service gives a client 10 s to take its close frame, then drops it.
            deadline = first_started + run.cut_seconds + 15.0
            while (state := _tcp_state(silent)) == TCP_ESTABLISHED and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            run.silent_tcp_state = state
        finally:
            silent.transport.abort()
            slow.transport.abort()
            await player.close()
            await watcher.close()
    run.log_errors_after_second = instance.errors()
    return run


async def _connections_down_to(
    http: httpx2.AsyncClient, instance: Instance, count: float, within: float = 20.0
) -> dict[str, float]:
    """The metrics once the instance counts ``count`` connections at most, or after
    ``within`` seconds (a machine under load takes longer to let them go)."""
    deadline = time.monotonic() + within
    now = await metrics(http, instance)
    while now["solitaire_ws_connections"] > count and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        now = await metrics(http, instance)
    return now


TCP_ESTABLISHED = 1


def _tcp_state(client: ClientConnection) -> int:
    """The kernel's TCP state of the client's socket (``tcpi_state`` of TCP_INFO)."""
    sock: TransportSocket = client.transport.get_extra_info("socket")
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0]


async def _tiny_reader(instance: Instance) -> ClientConnection:
    """A client with a 4 KiB receive buffer that stops reading as soon as a frame waits."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(5)
    sock.connect(("127.0.0.1", instance.port))
    sock.setblocking(False)
    return await connect(
        instance.ws_url,
        sock=sock,
        proxy=None,
        compression=None,
        max_queue=1,
        ping_interval=None,
        close_timeout=1,
    )


@pytest.fixture(scope="module")
def slow_run(pair: tuple[Instance, Instance, Path]) -> SlowRun:
    _, roomy, _ = pair
    return asyncio.run(_slow_consumer(roomy))


@pytest.mark.slow
def test_a_slow_watcher_is_cut_off_while_the_others_keep_up(slow_run: SlowRun) -> None:
    run = slow_run
    assert run.cut_after is not None, (
        f"the slow watcher was not cut off within {len(run.round_trips)} actions "
        f"({SLOW_MAX_SECONDS} s): the service's writes never backed up"
    )
    assert run.player_versions_ok and run.watcher_versions_ok
    assert run.final_version == run.cut_after + AFTER_CUT_ACTIONS
    # Promptly: no round trip or watcher delay anywhere near a stall.
    assert max(run.round_trips) < PROMPT_SECONDS, max(run.round_trips)
    assert max(run.watcher_lags) < PROMPT_SECONDS, max(run.watcher_lags)
    ordered = sorted(run.round_trips)
    assert ordered[len(ordered) // 2] < 0.1


@pytest.mark.slow
def test_the_cut_off_watcher_is_really_disconnected(slow_run: SlowRun) -> None:
    run = slow_run
    assert run.cut_after is not None
    # The slow watcher and the silent one.
    assert run.connections_after_cut == run.connections_before - 2, (
        "the service still holds the cut-off connection"
    )
    assert not run.slow_read_timed_out, (
        f"the slow client read {run.slow_frames} frames, then nothing and no close"
    )
    assert run.slow_close_code == 4008


@pytest.mark.slow
def test_a_cut_off_client_that_never_reads_is_dropped(slow_run: SlowRun) -> None:
    assert slow_run.silent_tcp_state is not None
    assert slow_run.silent_tcp_state != TCP_ESTABLISHED, "the service still holds the socket"


@pytest.mark.slow
def test_a_slow_watcher_cut_off_mid_answer_leaves_no_error(slow_run: SlowRun) -> None:
    """Cut off while the service is still answering its own requests: the receive loop's
    next send meets a closed socket, which must end the connection quietly (no unhandled
    exception, no traceback in the log)."""
    assert slow_run.second_cut, "the second slow watcher was not cut off"
    assert slow_run.second_close_code == 4008, slow_run.second_read
    assert not slow_run.log_errors, slow_run.log_errors[:3]
    assert not slow_run.log_errors_after_second, slow_run.log_errors_after_second[:3]
