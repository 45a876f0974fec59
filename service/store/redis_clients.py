"""The Redis store's clients: a pooled one for commands, batched, and one for the feed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .redis_batches import OneByOne, PackedInC, Pipelined

CLUSTER_SCHEME = "redis+cluster://"


@dataclass(frozen=True, slots=True)
class Clients:
    redis: aioredis.Redis | RedisCluster
    # The change feed's client: without retries, as a lost connection must reach its
    # reader, which then catches its subscribers up from the logs.
    feed: aioredis.Redis | RedisCluster
    run: Pipelined | OneByOne

    @property
    def cluster(self) -> bool:
        return isinstance(self.redis, RedisCluster)


def connect(url: str, max_connections: int, scripts: list[str]) -> Clients:
    """Clients for ``url`` (``redis+cluster://`` for a cluster); ``scripts`` are loaded
    again when Redis has lost them."""
    options: dict[str, Any] = {
        "socket_timeout": 5.0,
        "socket_connect_timeout": 2.0,
        # After a Redis restart every pooled connection fails once: try again on a
        # fresh one. Safe for commits too, as each carries a request id.
        "retry": Retry(ExponentialBackoff(cap=0.5, base=0.02), 3),
        "retry_on_error": [RedisConnectionError, RedisTimeoutError],
    }
    if url.startswith(CLUSTER_SCHEME):
        # Every key of a game shares one hash tag, so each script runs on one node;
        # PUBLISH reaches every node over the cluster bus, so one subscriber connection
        # to any node hears all of them.
        cluster = RedisCluster.from_url(
            "redis://" + url[len(CLUSTER_SCHEME) :], max_connections=max_connections, **options
        )
        return Clients(cluster, cluster, OneByOne(cluster, scripts))
    # A blocking pool: a burst beyond the pool waits for a free connection instead of
    # failing with "too many connections".
    if url.startswith("redis://"):  # (rediss:// and unix:// keep their classes)
        options["connection_class"] = PackedInC
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=max_connections,
        timeout=options["socket_timeout"],
        health_check_interval=15,
        **options,
    )
    client = aioredis.Redis(connection_pool=pool)
    feed = aioredis.Redis.from_url(
        url,
        # RESP2: redis-py hands RESP3 pub/sub pushes to a handler that formats each whole
        # message for a debug log line, enabled or not.
        protocol=2,
        socket_timeout=options["socket_timeout"],
        socket_connect_timeout=options["socket_connect_timeout"],
        # No health check of the client's own: it reads its PING's reply, which would
        # race the feed's reader (the feed checks the connection itself).
        health_check_interval=0,
    )
    return Clients(client, feed, Pipelined(client, scripts))
