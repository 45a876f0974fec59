"""Measures how one instance (default limits, memory store) takes the attacks of
docs/security.md; the figures there come from it. Not a test: it reports, it asserts
nothing.

    python -m tests.scale.probe_limits disconnects    # 384 clients gone mid-body, a bad frame
    python -m tests.scale.probe_limits bodies         # 200 MiB bodies, 1 MiB headers
    python -m tests.scale.probe_limits silent 19940   # silent sockets from 127.0.0.2
    python -m tests.scale.probe_limits silent 19940 150   # the same, header timeout 150 s
"""

from __future__ import annotations

import asyncio
import json
import resource
import socket
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

from service.config import Settings
from tests.scale.harness import Instance, Peer, create_game, http_client, metrics, running

MIB = 1 << 20
GONE_CLIENTS = 384


def _send(port: int, head: bytes, parts: Iterable[bytes] = ()) -> bytes:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    answer = b""
    try:
        try:
            sock.sendall(head)
            for part in parts:
                sock.sendall(part)
        except OSError:
            pass
        sock.settimeout(10)
        while chunk := sock.recv(65536):
            answer += chunk
    except OSError:
        pass
    finally:
        sock.close()
    return answer


def _status_line(answer: bytes) -> str:
    return answer.partition(b"\r\n")[0].decode() or "(no answer)"


def _post(extra: str) -> bytes:
    head = "POST /games HTTP/1.1\r\nhost: probe\r\ncontent-type: application/json\r\n"
    return f"{head}{extra}\r\n".encode()


def _peak_growth(instance: Instance, what: str, head: bytes, parts: Iterable[bytes]) -> None:
    instance.reset_peak_memory()
    baseline = instance.memory_kib("VmRSS")
    answer = _send(instance.port, head, parts)
    growth = instance.memory_kib("VmHWM") - baseline
    print(f"{what}: {_status_line(answer)}; RSS {baseline} KiB, peak growth {growth} KiB")


def _megabytes(count: int, framing: bytes = b"", end: bytes = b"") -> Iterator[bytes]:
    block = framing + b"x" * MIB + (b"\r\n" if framing else b"")
    for _ in range(count):
        yield block
    if end:
        yield end


def bodies(instance: Instance) -> None:
    started = time.monotonic()
    answer = _send(instance.port, _post(f"content-length: {200 * MIB}\r\n"))
    elapsed = (time.monotonic() - started) * 1000
    print(f"200 MiB announced, no body sent: {_status_line(answer)} in {elapsed:.1f} ms")
    head = _post(f"content-length: {200 * MIB}\r\n")
    _peak_growth(instance, "200 MiB body (Content-Length)", head, _megabytes(200))
    head = _post("transfer-encoding: chunked\r\n")
    chunks = _megabytes(200, b"100000\r\n", b"0\r\n\r\n")
    _peak_growth(instance, "200 MiB body (chunked)", head, chunks)

    def big_headers() -> Iterator[bytes]:
        for i in range(100):
            yield f"x-big-{i}: ".encode() + b"a" * MIB + b"\r\n"
        yield b"\r\n"

    head = b"GET /healthz HTTP/1.1\r\nhost: probe\r\n"
    _peak_growth(instance, "100 headers of 1 MiB", head, big_headers())
    lines = "".join(f"x-small-{i}: 1\r\n" for i in range(150)).encode() + b"\r\n"
    print(f"150 small headers: {_status_line(_send(instance.port, head + lines))}")


async def _gone_mid_body(port: int) -> None:
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(_post("content-length: 4000\r\n") + b'{"game": "DS", "pad": "' + b"x" * 77)
    await writer.drain()
    await asyncio.sleep(0.02)
    writer.close()
    await writer.wait_closed()


async def disconnects(instance: Instance) -> None:
    for _ in range(GONE_CLIENTS):
        await _gone_mid_body(instance.port)
    async with await Peer.open(instance, "bad-frame") as peer:
        await peer.ws.send(b'{"type": "ping", "id": "\xff"}', text=True)
        await peer.wait(lambda: peer.closed, 10, "the close")
        print(f"non-UTF-8 text frame: close {peer.close_code} {peer.ws.close_reason!r}")
    await asyncio.sleep(0.5)
    async with http_client() as http:
        samples = await metrics(http, instance)
    print(
        f"{GONE_CLIENTS} clients gone mid-body: counter",
        samples["solitaire_client_disconnects_total"],
    )
    lines: Counter[str] = Counter()
    tracebacks = 0
    for line in instance.log().splitlines():
        entry = json.loads(line)
        tracebacks += "exc_info" in entry
        if entry["logger"].startswith("service"):
            lines[f"{entry['level']} {entry['logger']}: {entry['message'][:48]}"] += 1
    for text, count in lines.items():
        print(f"  {count} x {text}")
    print(f"  tracebacks: {tracebacks}; error lines: {len(instance.errors())}")


# Linux: the port is chosen at connect(), by the whole 4-tuple. A bind() to port 0 instead
# searches for a port free for any peer, which slows to a crawl past ten thousand sockets.
IP_BIND_ADDRESS_NO_PORT = getattr(socket, "IP_BIND_ADDRESS_NO_PORT", 24)


async def _connect_from(
    source: str, port: int
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    sock = socket.socket()
    sock.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
    sock.bind((source, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return await asyncio.open_connection(sock=sock)


async def _outcome(silent: tuple[asyncio.StreamReader, asyncio.StreamWriter], wait: float) -> str:
    reader, writer = silent
    try:
        answer = await asyncio.wait_for(reader.read(), wait)
    except TimeoutError:
        return f"still open after {wait:g} s"
    except ConnectionResetError:
        return "reset"
    finally:
        writer.transport.abort()
    return _status_line(answer) if answer else "closed without an answer"


async def silent(instance: Instance, count: int, header_timeout: float) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    async with http_client() as http:
        game = await create_game(http, instance)
        async with await Peer.open(instance, "player") as player:
            await player.subscribe(game.game_id, game.token)
            started = time.monotonic()
            opened: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
            for start in range(0, count, 500):
                batch = await asyncio.gather(
                    *(
                        _connect_from("127.0.0.2", instance.port)
                        for _ in range(min(500, count - start))
                    ),
                    return_exceptions=True,
                )
                opened += [pair for pair in batch if not isinstance(pair, BaseException)]
            print(f"{len(opened)} silent sockets opened in {time.monotonic() - started:.1f} s")
            samples = await metrics(http, instance)
            print("  connections held (gauge):", samples["solitaire_connections"])
            print(f"  instance RSS: {instance.memory_kib()} KiB")
            started = time.monotonic()
            status = (await http.get(f"{instance.url}/healthz")).status_code
            print(f"  /healthz: {status} in {(time.monotonic() - started) * 1000:.1f} ms")
            started = time.monotonic()
            await player.ping()
            print(f"  live game ping: {(time.monotonic() - started) * 1000:.1f} ms")
            waits = [_outcome(pair, header_timeout + 30) for pair in opened]
            outcomes = Counter(await asyncio.gather(*waits))
            print(f"  every silent socket ended {time.monotonic() - started:.1f} s later:")
            for outcome, number in outcomes.most_common():
                print(f"    {number} x {outcome}")
            samples = await metrics(http, instance)
    for name in (
        'solitaire_connections_refused_total{cap="per_address"}',
        'solitaire_connection_timeouts_total{stage="header"}',
    ):
        print(f"  {name} {samples.get(name, 0)}")
    print(f"  error lines in the log: {len(instance.errors())}")


def main() -> None:
    what = sys.argv[1]
    # The test harness relaxes the time limits: the probe puts the defaults back.
    defaults = {
        name: Settings.model_fields[name].default
        for name in ("header_timeout_seconds", "body_timeout_seconds", "hello_timeout_seconds")
    }
    if what == "silent" and len(sys.argv) > 3:
        defaults["header_timeout_seconds"] = float(sys.argv[3])
    with (
        tempfile.TemporaryDirectory() as workdir,
        running(Instance("probe", "memory://", Path(workdir), **defaults)) as instance,
    ):
        print(f"instance RSS at start: {instance.memory_kib()} KiB")
        if what == "disconnects":
            asyncio.run(disconnects(instance))
        elif what == "bodies":
            bodies(instance)
        elif what == "silent":
            header_timeout = defaults["header_timeout_seconds"]
            asyncio.run(silent(instance, int(sys.argv[2]), header_timeout))
        else:
            raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
