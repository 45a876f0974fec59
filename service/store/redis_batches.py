"""Store commands sent to Redis in batches: pipelines on one server, one by one on a
cluster."""

from __future__ import annotations

import asyncio
import collections
from typing import Any, cast

import hiredis
import redis.asyncio as aioredis
from redis._parsers.base import AsyncBaseParser
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import DataError, NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ..support.tasks import cancel_and_wait

Call = tuple[tuple[tuple[Any, ...], ...], "asyncio.Future[list[Any]]"]

# Calls per write when many arrive in one turn of the event loop. A turn that reads the
# frames of every game at once makes as many commits; when they went out together at its
# end, and the next batch only once the last one's replies were in, Redis sat idle while
# the turn lasted and the service while Redis ran them, and every game waited for both
# (docs/benchmarks.md: the p99 over echo + store's, median of five runs, 1.52 that way
# and 1.24 with writes of 16, for 2-4 % more CPU per action; writes of one call each
# cost a quarter more).
WRITE_EVERY = 16


class _Written:
    """Calls written to the connection as one pipeline, their replies not read yet.

    ``then`` is the batch that a NOSCRIPT retry answers for: its replies fill the slots
    ``slots`` of that batch's replies.
    """

    __slots__ = ("calls", "commands", "replies", "slots", "then")

    def __init__(self, calls: list[Call], commands: list[tuple[Any, ...]]) -> None:
        self.calls = calls
        self.commands = commands
        self.then: _Written | None = None
        self.slots: list[int] = []
        self.replies: list[Any] = []


class Pipelined:
    """Runs the commands of many callers on one connection, pipelined.

    Through redis-py a lone command costs this process about 80-100 us of CPU, in a
    pipeline about 20, and a burst of lone commands makes the pool open a connection for
    each (tens of us more, and a handshake with Redis): under load, when many games commit
    or many races end at once, batching them is the largest saving there is. Calls made in
    one turn of the event loop are written together at its end, or every ``WRITE_EVERY``
    calls when a turn makes many, without waiting for the replies of what was written
    before; one task reads the replies, in order. The commands of one call are sent in
    order, without other callers' commands between them, but not as a transaction.

    A lost connection (or a batch without its replies in time) is made anew and what was
    written and not answered is written again, in order, with the pool's retries and
    backoff, as redis-py retries its own commands. A batch sent again may have run already;
    every commit carries a request id.
    """

    def __init__(
        self, redis: aioredis.Redis, scripts: list[str], write_every: int = WRITE_EVERY
    ) -> None:
        self._redis = redis
        self._scripts = scripts
        self._write_every = write_every
        self._queue: list[Call] = []
        self._written: collections.deque[_Written] = collections.deque()
        # Reads the replies, and (re)connects and writes while the connection is not fit.
        self._sender: asyncio.Task[None] | None = None
        # One connection serves every batch: taking it from the pool and giving it back
        # for every batch was about 3 % of an action's CPU.
        self._connection: AbstractConnection | None = None
        # Whether calls may be written to the connection as they come: not before it is
        # connected, nor from a loss until what was on it is written again.
        self._writable = False
        self._write_scheduled = False

    async def __call__(self, *commands: tuple[Any, ...]) -> list[Any]:
        """The replies of ``commands``; the first error among them is raised."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[list[Any]] = loop.create_future()
        self._queue.append((commands, future))
        if self._writable:
            if len(self._queue) >= self._write_every:
                self._write_queue()
            elif not self._write_scheduled:
                self._write_scheduled = True
                loop.call_soon(self._write_queue)
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send(), name="redis-pipelined")
        return await future

    async def close(self) -> None:
        """Sends what is queued or on its way (for up to 5 s), then gives up on the rest."""
        sender = self._sender
        if sender is not None and not sender.done():
            try:
                await asyncio.wait_for(asyncio.shield(sender), timeout=5.0)
            except TimeoutError:
                await cancel_and_wait(sender)
        self._writable = False
        connection, self._connection = self._connection, None
        if connection is not None:
            await self._redis.connection_pool.release(connection)

    def _write_queue(self) -> None:
        self._write_scheduled = False
        if not self._queue or not self._writable:
            return
        calls, self._queue = self._queue, []
        self._write(_Written(calls, [c for commands, _ in calls for c in commands]))

    def _write(self, batch: _Written) -> None:
        """Writes ``batch`` behind what is on its way, or, while the connection is not fit,
        leaves it to be written once it is."""
        connection = self._connection
        assert connection is not None
        try:
            packed = connection.pack_commands(batch.commands)
        except Exception as exc:  # a value Redis cannot take: refused before sending
            self._fail(batch, exc)
            return
        self._written.append(batch)
        writer: asyncio.StreamWriter | None = connection._writer
        if writer is None or not self._writable:
            self._writable = False
            return
        writer.writelines(packed)

    async def _send(self) -> None:
        while self._queue or self._written:
            try:
                if self._connection is None:
                    pool = self._redis.connection_pool
                    self._connection = await pool.get_connection()  # type: ignore[no-untyped-call]
                replies = await self._connection.retry.call_with_retry(
                    self._next_replies, _already_closed
                )
                if replies is None:  # what was queued could not be sent (refused values)
                    continue
            except Exception as exc:
                # The first batch on its way fails (or, when nothing could be written,
                # what is queued); the others go on the next try, with retries of their own.
                if self._written:
                    self._fail(self._written.popleft(), exc)
                else:
                    calls, self._queue = self._queue, []
                    self._fail(_Written(calls, []), exc)
                continue
            except BaseException:  # cancelled: the store is closing
                self._writable = False
                if self._connection is not None:
                    # Replies may be left unread: the next batch must not read them.
                    await self._connection.disconnect(nowait=True)
                for batch in self._written:
                    self._fail(batch, None)
                self._fail(_Written(self._queue, []), None)
                self._written.clear()
                self._queue = []
                raise
            await self._answer(self._written.popleft(), replies)

    async def _next_replies(self) -> list[Any] | None:
        """The replies of the first batch on its way (None when there is none); first,
        when the connection is not fit, it is made so and everything on its way is
        written to it again, in order.

        redis-py's ``Pipeline`` would do the reading with far more machinery per batch (a
        timeout per reply read, its stack and reset, WATCH bookkeeping), and a batch is
        most often one EVALSHA: that path was about 10 % of the service's CPU per action.
        """
        connection = self._connection
        assert connection is not None
        if not self._writable:
            try:
                async with asyncio.timeout(connection.socket_timeout):
                    if not connection.is_connected:
                        await connection.connect_check_health(check_health=False)
            except BaseException as error:
                await connection.disconnect(nowait=True)
                raise _redis_error(error) from None
            again = list(self._written)
            self._written.clear()
            self._writable = True
            for batch in again:
                self._write(batch)
        self._write_queue()
        if not self._written:
            return None
        batch = self._written[0]
        parser = cast(AsyncBaseParser, connection._parser)
        replies: list[Any] = []
        try:
            # One deadline for the batch instead of one per reply (each costs a timer).
            async with asyncio.timeout(connection.socket_timeout):
                writer = cast(asyncio.StreamWriter, connection._writer)
                await writer.drain()
                # Straight from the parser, which gives error replies as values: the
                # connection's own read wraps each reply in about as much work again
                # (its error text, timeout and health bookkeeping, raising errors).
                for _ in range(len(batch.commands)):
                    replies.append(await parser.read_response())
        except BaseException as error:
            # Replies may be left unread, and what was written may not have arrived: the
            # connection is made anew and all that was on its way written again.
            self._writable = False
            await connection.disconnect(nowait=True)
            raise _redis_error(error) from None
        if connection.health_check_interval:
            # As each read through the connection would: traffic proves it alive.
            interval = connection.health_check_interval
            connection.next_health_check = asyncio.get_running_loop().time() + interval
        callbacks = self._redis.response_callbacks
        for i, reply in enumerate(replies):
            # The shapes redis-py's client gives (e.g. HGETALL as a dict on RESP2 too).
            callback = callbacks.get(batch.commands[i][0])
            if callback is not None and not isinstance(reply, Exception):
                replies[i] = callback(reply)
        return replies

    async def _answer(self, batch: _Written, replies: list[Any]) -> None:
        missing = [i for i, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
        # Sent again once: a script that is still missing after the scripts were loaded
        # is not one of them, and its callers get the error instead of a loop.
        if missing and batch.then is None:
            # Redis lost its script cache (a restart): a NOSCRIPT call did not run. The
            # scripts are loaded on another connection, and the calls go again on this
            # one, behind what is on its way; their replies complete this batch's.
            for script in self._scripts:
                await self._redis.script_load(script)
            again = _Written([], [batch.commands[i] for i in missing])
            again.then, again.slots, batch.replies = batch, missing, replies
            self._write(again)  # or, if lost while the scripts loaded, once it is back
            return
        while batch.then is not None:
            whole = batch.then
            for slot, reply in zip(batch.slots, replies, strict=True):
                whole.replies[slot] = reply
            batch, replies = whole, whole.replies
        start = 0
        for commands, future in batch.calls:
            part = replies[start : start + len(commands)]
            start += len(commands)
            if future.done():  # its caller gave up; a commit stands all the same
                continue
            error = next((reply for reply in part if isinstance(reply, Exception)), None)
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(part)

    @staticmethod
    def _fail(batch: _Written, error: Exception | None) -> None:
        """Fails the calls of ``batch`` (that a NOSCRIPT retry answers for) with ``error``,
        or cancels them."""
        while batch.then is not None:
            batch = batch.then
        for _, future in batch.calls:
            if future.done():
                continue
            if error is None:
                future.cancel()
            else:
                future.set_exception(error)


def _redis_error(error: BaseException) -> BaseException:
    """redis-py's error for what broke a connection's read or write, for its retries."""
    if isinstance(error, TimeoutError):  # the deadline, not redis-py's error
        return RedisTimeoutError("Timeout reading a batch of replies from Redis")
    if isinstance(error, OSError):  # retried like redis-py's own reads
        return RedisConnectionError(f"Error reading replies from Redis: {error}")
    return error


async def _already_closed(error: Exception) -> None:
    """The retry's clean-up: ``_next_replies`` disconnected before raising."""


class OneByOne:
    """The same interface on Redis Cluster, where a pipeline splits by node anyway: the
    commands go one by one, each to its node."""

    def __init__(self, redis: RedisCluster, scripts: list[str]) -> None:
        self._redis = redis
        self._scripts = scripts

    async def __call__(self, *commands: tuple[Any, ...]) -> list[Any]:
        replies = []
        for command in commands:
            try:
                replies.append(await self._redis.execute_command(*command))
            except NoScriptError:
                for script in self._scripts:
                    await self._redis.script_load(script)
                replies.append(await self._redis.execute_command(*command))
        return replies

    async def close(self) -> None:
        return None


class PackedInC(aioredis.Connection):
    """A TCP connection that writes commands with hiredis's packer, in C.

    redis-py's asyncio connection packs in Python, and packing each commit's arguments
    (the ~2 KB state and change among them) was about 7 % of the service's CPU per
    action. The bytes are the same: both write RESP arrays of bulk strings.
    """

    def pack_command(self, *args: Any) -> list[bytes]:
        name = args[0]
        if isinstance(name, str) and " " in name:  # "SCRIPT LOAD" is two words of RESP
            args = (*name.split(), *args[1:])
        try:
            return [hiredis.pack_command(args)]
        except TypeError:
            pass
        # hiredis takes str, bytes, int and float; redis-py also takes buffers.
        plain: tuple[Any, ...] = tuple(
            bytes(a) if isinstance(a, (bytearray, memoryview)) else a for a in args
        )
        try:
            return [hiredis.pack_command(plain)]
        except TypeError:
            # Named by type only: the values may be a game's state, hidden cards and all,
            # and this error reaches the log.
            kinds = sorted({type(a).__name__ for a in plain[1:]})
            raise DataError(
                f"cannot send {args[0]} with {', '.join(kinds)} values to Redis"
            ) from None
