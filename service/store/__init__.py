"""Where live games are kept: one async interface, backends chosen by URL.

``memory://`` keeps everything in this process (the default, for one instance);
``redis://`` keeps games in Redis, where several instances can share them. Both fan out
accepted changes to the local subscribers of a game through ``subscribe``. The
interface and the types the backends share are in ``base``; a backend is imported only
when its URL is chosen, so the memory store never loads the Redis client.
"""

from __future__ import annotations

from ..config import Settings
from .base import (
    CHECKPOINT_INTERVAL,
    REQUEST_MEMORY,
    CommitResult,
    CommitStatus,
    Delivery,
    History,
    Store,
    StoredGame,
    StoredRace,
    StoreUnavailable,
    Subscriber,
    hash_token,
    log_entry,
    race_topic,
    read_log_entry,
)

__all__ = [
    "CHECKPOINT_INTERVAL",
    "REQUEST_MEMORY",
    "CommitResult",
    "CommitStatus",
    "Delivery",
    "History",
    "Store",
    "StoreUnavailable",
    "StoredGame",
    "StoredRace",
    "Subscriber",
    "hash_token",
    "log_entry",
    "open_store",
    "race_topic",
    "read_log_entry",
]


def open_store(settings: Settings) -> Store:
    """The backend for ``settings.store_url``: ``memory://``, ``redis://`` or
    ``redis+cluster://host:port`` (any node of a Redis Cluster)."""
    url = settings.store_url
    if url.startswith("memory://"):
        from .memory import MemoryStore

        return MemoryStore(settings)
    if url.startswith(("redis://", "rediss://", "unix://", "redis+cluster://")):
        from .redis import RedisStore

        return RedisStore(settings)
    raise ValueError(f"unknown store URL scheme: {url!r} (use memory:// or redis://)")
