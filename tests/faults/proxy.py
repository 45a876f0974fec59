"""A TCP proxy between the service and a real Redis that loses replies on purpose.

The proxy reads RESP both ways, so it knows which reply answers which command (replies
come back in the order of the commands on a connection: pipelines, ``MULTI`` ...
``EXEC`` and scripts alike) and which commands write. When its ``FaultPlan`` says so, it
lets Redis apply a write, drops that write's reply and cuts the client's connection (and
its own to Redis): the client sees a lost connection at once, as it would after a network
fault, rather than after its 5 s read timeout, and sends the command again on a new one,
as redis-py's retries and the store's batcher do. What was on its way behind that command
may have run or not.

A write is a command of ``WRITES`` or a script that calls one of them (the proxy learns
each script's body from the ``SCRIPT LOAD`` or ``EVAL`` that carries it; a script it has
not seen counts as a write), or an ``EXEC`` of a transaction holding one; a write counts
once Redis has answered it with anything but an error. Writes are numbered from 1 across
every connection, in the order their replies reach the proxy. A connection that
subscribes (pub/sub) is passed through untouched from then on.

The proxy runs its own event loop in a thread of its own, so the service (which runs on
the test client's loop) and the test can both use it.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import re
import threading
from collections import deque
from dataclasses import dataclass, field

WRITES = frozenset(
    b"""SET SETNX SETEX PSETEX GETSET GETDEL GETEX MSET MSETNX APPEND INCR INCRBY DECR DECRBY
    INCRBYFLOAT DEL UNLINK EXPIRE PEXPIRE EXPIREAT PEXPIREAT PERSIST RENAME RENAMENX COPY
    HSET HMSET HSETNX HDEL HINCRBY HINCRBYFLOAT RPUSH LPUSH RPUSHX LPUSHX LPOP RPOP LSET
    LTRIM LREM LINSERT LMOVE RPOPLPUSH SADD SREM SPOP SMOVE ZADD ZREM ZINCRBY ZPOPMIN ZPOPMAX
    ZREMRANGEBYRANK ZREMRANGEBYSCORE FLUSHDB FLUSHALL""".split()
)
_SUBSCRIBING = frozenset((b"SUBSCRIBE", b"PSUBSCRIBE", b"SSUBSCRIBE"))
_CALLS = re.compile(rb"redis\.p?call\(\s*['\"](\w+)['\"]")


def script_writes(body: bytes) -> bool:
    """Whether a Lua script calls a command that writes."""
    return any(name.upper() in WRITES for name in _CALLS.findall(body))


def frame_end(buffer: bytes | bytearray, start: int) -> int | None:
    """Where the RESP frame that begins at ``start`` ends (None: not all there yet)."""
    position, frames = start, 1
    while frames:
        if position >= len(buffer):
            return None
        line_end = buffer.find(b"\r\n", position)
        if line_end < 0:
            return None
        kind = buffer[position : position + 1]
        frames -= 1
        if kind in (b"$", b"=", b"!"):  # bulk string, verbatim string, bulk error
            length = int(buffer[position + 1 : line_end])
            position = line_end + 2 + (length + 2 if length >= 0 else 0)
            if position > len(buffer):
                return None
        elif kind in (b"*", b"~", b">"):  # array, set, push
            frames += max(0, int(buffer[position + 1 : line_end]))
            position = line_end + 2
        elif kind in (b"%", b"|"):  # map, attribute: pairs
            frames += 2 * max(0, int(buffer[position + 1 : line_end]))
            position = line_end + 2
        else:  # a simple value on one line (or an inline command)
            position = line_end + 2
    return position


def command_words(frame: bytes | bytearray) -> list[bytes]:
    """The words of a command (a RESP array of bulk strings, or an inline command)."""
    if frame[:1] != b"*":
        return bytes(frame).split()
    words: list[bytes] = []
    position = frame.find(b"\r\n") + 2
    while position < len(frame):
        line_end = frame.find(b"\r\n", position)
        length = int(frame[position + 1 : line_end])
        words.append(bytes(frame[line_end + 2 : line_end + 2 + length]))
        position = line_end + 2 + length + 2
    return words


@dataclass(frozen=True, slots=True)
class Write:
    """A write as Redis applied it: its number, its command and its first key."""

    index: int
    command: str
    key: str


@dataclass
class FaultPlan:
    """Which writes lose their reply: those numbered in ``at``, and each other one with
    probability ``rate`` (drawn from ``seed``), but never two in a row, so that the write
    sent again after a loss is answered (several losses in a row would run out the
    client's retries, a 503 rather than a lost reply). ``first_sends``: every write loses
    its reply the first time its very command (the same bytes) is applied, and only then,
    so that each is sent again once, however many run at once."""

    at: frozenset[int] = frozenset()
    rate: float = 0.0
    seed: int = 0
    first_sends: bool = False
    writes: list[Write] = field(default_factory=list)
    lost: list[Write] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._draw = random.Random(self.seed)
        self._sent: set[bytes] = set()

    def applied(self, command: str, key: str, digest: bytes = b"") -> bool:
        """Counts a write Redis applied (``digest``: of its command's bytes); True when
        its reply is to be lost."""
        write = Write(len(self.writes) + 1, command, key)
        self.writes.append(write)
        if self.first_sends:
            lose = digest not in self._sent
            self._sent.add(digest)
        else:
            after_loss = bool(self.lost) and self.lost[-1].index == write.index - 1
            drawn = self.rate > 0 and self._draw.random() < self.rate
            lose = (write.index in self.at or drawn) and not after_loss
        if lose:
            self.lost.append(write)
        return lose


@dataclass(slots=True)
class _Pending:
    """A command waiting for its reply."""

    command: str
    key: str
    writes: bool
    digest: bytes = b""


@dataclass(slots=True)
class _Connection:
    pending: deque[_Pending] = field(default_factory=deque)
    transaction: list[_Pending] | None = None
    passthrough: bool = False


class FaultProxy:
    def __init__(self, upstream_host: str, upstream_port: int) -> None:
        self.upstream = (upstream_host, upstream_port)
        self.plan = FaultPlan()
        self.port = 0
        # Script SHA-1 -> whether it writes, from the bodies seen on their way.
        self._scripts: dict[bytes, bool] = {}
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(10)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._connections):
            task.cancel()
        await asyncio.gather(*self._connections, return_exceptions=True)

    async def _serve(self, client: asyncio.StreamReader, to_client: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            upstream, to_upstream = await asyncio.open_connection(*self.upstream)
        except OSError:
            to_client.transport.abort()
            self._connections.discard(task)
            return
        link = _Connection()
        directions = [
            asyncio.create_task(self._commands(client, to_upstream, link)),
            asyncio.create_task(self._replies(upstream, to_client, link)),
        ]
        try:
            await asyncio.wait(directions, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            pass  # the proxy stops: the connection closes with it
        finally:
            for direction in directions:
                direction.cancel()
            await asyncio.gather(*directions, return_exceptions=True)
            to_client.transport.abort()
            to_upstream.transport.abort()
            self._connections.discard(task)

    async def _commands(
        self, client: asyncio.StreamReader, to_upstream: asyncio.StreamWriter, link: _Connection
    ) -> None:
        buffer = bytearray()
        while data := await client.read(65536):
            if not link.passthrough:
                buffer += data
                start = 0
                while (end := frame_end(buffer, start)) is not None:
                    frame = bytes(buffer[start:end])
                    self._expect(link, command_words(frame), hashlib.sha1(frame).digest())
                    start = end
                del buffer[:start]
            # Sent on only once its replies are expected: none can come back before.
            to_upstream.write(data)
            await to_upstream.drain()

    def _expect(self, link: _Connection, words: list[bytes], digest: bytes) -> None:
        if not words:
            return
        name = words[0].upper()
        key = words[1].decode(errors="replace") if len(words) > 1 else ""
        if name in _SUBSCRIBING:
            link.passthrough = True
            return
        writes = name in WRITES
        if name == b"SCRIPT" and len(words) > 2 and words[1].upper() == b"LOAD":
            self._scripts[hashlib.sha1(words[2]).hexdigest().encode()] = script_writes(words[2])
        elif name in (b"EVAL", b"EVALSHA") and len(words) > 3:
            script = words[1]
            if name == b"EVAL":
                self._scripts[hashlib.sha1(script).hexdigest().encode()] = script_writes(script)
                script = hashlib.sha1(script).hexdigest().encode()
            writes = self._scripts.get(script.lower(), True)
            key = words[3].decode(errors="replace") if int(words[2]) > 0 else ""
        command = name.decode()
        if name == b"MULTI":
            link.transaction = []
        elif name == b"EXEC" and link.transaction is not None:
            queued, link.transaction = link.transaction, None
            inner = [p for p in queued if p.writes]
            writes = bool(inner)
            command = "EXEC " + " ".join(p.command for p in queued)
            key = inner[0].key if inner else ""
            digest = hashlib.sha1(b"".join(p.digest for p in queued)).digest()
        elif name == b"DISCARD":
            link.transaction = None
        elif link.transaction is not None:
            link.transaction.append(_Pending(command, key, writes, digest))
            writes = False  # answered QUEUED: it runs at EXEC
        link.pending.append(_Pending(command, key, writes, digest))

    async def _replies(
        self, upstream: asyncio.StreamReader, to_client: asyncio.StreamWriter, link: _Connection
    ) -> None:
        buffer = bytearray()
        while data := await upstream.read(65536):
            if link.passthrough and not link.pending:
                to_client.write(bytes(buffer) + data)
                buffer.clear()
                await to_client.drain()
                continue
            buffer += data
            start = 0
            while link.pending and (end := frame_end(buffer, start)) is not None:
                pending = link.pending.popleft()
                reply = buffer[start:end]
                applied = pending.writes and not _refused(reply)
                if applied and self.plan.applied(pending.command, pending.key, pending.digest):
                    # Applied, and its reply lost: what came before it goes through.
                    to_client.write(bytes(buffer[:start]))
                    await to_client.drain()
                    return
                start = end
            if link.passthrough and not link.pending:
                start = len(buffer)  # subscribed: from here on nothing is paired
            if start:
                to_client.write(bytes(buffer[:start]))
                del buffer[:start]
                await to_client.drain()


def _refused(reply: bytes | bytearray) -> bool:
    """An error reply, or a transaction that did not run (``EXEC`` answered nil)."""
    return reply[:1] in (b"-", b"!") or reply[:3] == b"*-1" or reply[:2] == b"_\r"
