"""Store commands sent to Redis in batches: pipelines on one server, one by one on a
cluster."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import hiredis
import redis.asyncio as aioredis
from redis._parsers.base import AsyncBaseParser
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import DataError, NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ..tasks import cancel_and_wait


class Pipelined:
    """Runs the commands of many callers, those made meanwhile batched into pipelines.

    Through redis-py a lone command costs this process about 80-100 us of CPU, in a
    pipeline about 20, and a burst of lone commands makes the pool open a connection for
    each (tens of us more, and a handshake with Redis): under load, when many games commit
    or many races end at once, batching them is the largest saving there is. A lone call
    goes out at once, so nothing waits for a batch to fill; calls made while a batch is on
    its way go out together as the next one. The commands of one call are sent in order,
    without other callers' commands between them, but not as a transaction.
    """

    def __init__(self, redis: aioredis.Redis, scripts: list[str]) -> None:
        self._redis = redis
        self._scripts = scripts
        self._queue: list[tuple[tuple[tuple[Any, ...], ...], asyncio.Future[list[Any]]]] = []
        self._sender: asyncio.Task[None] | None = None
        # Batches go out one at a time, so one connection serves them all: taking it from
        # the pool and giving it back for every batch was about 3 % of an action's CPU.
        self._connection: AbstractConnection | None = None

    async def __call__(self, *commands: tuple[Any, ...]) -> list[Any]:
        """The replies of ``commands``; the first error among them is raised."""
        future: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        self._queue.append((commands, future))
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
        connection, self._connection = self._connection, None
        if connection is not None:
            await self._redis.connection_pool.release(connection)

    async def _send(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            try:
                replies = await self._execute([c for commands, _ in batch for c in commands])
            except Exception as exc:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            except BaseException:  # cancelled: the store is closing
                for _, future in batch + self._queue:
                    future.cancel()
                self._queue = []
                raise
            start = 0
            for commands, future in batch:
                part = replies[start : start + len(commands)]
                start += len(commands)
                if future.done():  # its caller gave up; a commit stands all the same
                    continue
                error = next((reply for reply in part if isinstance(reply, Exception)), None)
                if error is not None:
                    future.set_exception(error)
                else:
                    future.set_result(part)

    async def _execute(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        replies = await self._exchange(commands)
        missing = [i for i, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
        if missing:
            # Redis lost its script cache (a restart): a NOSCRIPT call did not run.
            for script in self._scripts:
                await self._redis.script_load(script)
            again = await self._execute([commands[i] for i in missing])
            for i, reply in zip(missing, again, strict=True):
                replies[i] = reply
        return replies

    async def _exchange(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        """The replies of ``commands``, an error reply standing as its command's reply.

        redis-py's ``Pipeline`` does the same with far more machinery per batch (a
        timeout per reply read, its stack and reset, WATCH bookkeeping), and a batch is
        most often one EVALSHA: this path was about 10 % of the service's CPU per action.
        """
        connection = self._connection
        if connection is None:
            pool = self._redis.connection_pool
            connection = await pool.get_connection()  # type: ignore[no-untyped-call]
            self._connection = connection
        packed = connection.pack_commands(commands)
        # Retried on the same connection, which reconnects: the pool's retries
        # (connection and timeout errors) and backoff, as redis-py's own commands do.
        # A batch sent again may have run already; every commit carries a request id.
        replies: list[Any] = await connection.retry.call_with_retry(
            lambda: self._round_trip(connection, packed, len(commands)), _already_closed
        )
        callbacks = self._redis.response_callbacks
        for i, reply in enumerate(replies):
            # The shapes redis-py's client gives (e.g. HGETALL as a dict on RESP2 too).
            callback = callbacks.get(commands[i][0])
            if callback is not None and not isinstance(reply, Exception):
                replies[i] = callback(reply)
        return replies

    @staticmethod
    async def _round_trip(
        connection: AbstractConnection, packed: list[bytes], count: int
    ) -> list[Any]:
        replies: list[Any] = []
        try:
            # One deadline for the batch, its write included, instead of one per reply
            # (each costs a timer).
            async with asyncio.timeout(connection.socket_timeout):
                if not connection.is_connected:  # after a failed try: a fresh connection
                    await connection.connect_check_health(check_health=False)
                # Written as the connection's own send does, without its second deadline:
                # on Python 3.11 that is an ``asyncio.wait_for``, a task of its own for
                # every batch, which can also lose a cancellation arriving as it ends.
                writer = cast(asyncio.StreamWriter, connection._writer)
                writer.writelines(packed)
                await writer.drain()
                # Straight from the parser, which gives error replies as values: the
                # connection's own read wraps each reply in about as much work again
                # (its error text, timeout and health bookkeeping, raising errors).
                parser = cast(AsyncBaseParser, connection._parser)
                for _ in range(count):
                    replies.append(await parser.read_response())
        except BaseException as error:
            # Replies may be left unread: the connection must not go back to the pool
            # as it is, or the next batch would read this one's replies as its own.
            await connection.disconnect(nowait=True)
            if isinstance(error, TimeoutError):  # the deadline, not redis-py's error
                raise RedisTimeoutError("Timeout reading a batch of replies from Redis") from None
            if isinstance(error, OSError):  # retried like redis-py's own reads
                raise RedisConnectionError(f"Error reading replies from Redis: {error}") from None
            raise
        if connection.health_check_interval:
            # As each read through the connection would: traffic proves it alive.
            interval = connection.health_check_interval
            connection.next_health_check = asyncio.get_running_loop().time() + interval
        return replies


async def _already_closed(error: Exception) -> None:
    """The retry's clean-up: ``_round_trip`` disconnected before raising."""


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
        except TypeError as exc:
            raise DataError(f"cannot send {args[1:]!r} to Redis: {exc}") from None
