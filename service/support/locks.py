"""A lock per key (a game), kept only while somebody holds or awaits it."""

from __future__ import annotations

import asyncio
from types import TracebackType


class KeyedLocks:
    """``async with locks(key):`` runs one holder of ``key`` at a time; keys nobody uses
    hold no lock, so there is no table to clean up."""

    def __init__(self) -> None:
        self._entries: dict[str, _Entry] = {}

    def __call__(self, key: str) -> _Entry:
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = _Entry(self._entries, key)
        return entry

    def __len__(self) -> int:
        return len(self._entries)


class _Entry:
    __slots__ = ("_entries", "_key", "_lock", "_users")

    def __init__(self, entries: dict[str, _Entry], key: str) -> None:
        self._entries = entries
        self._key = key
        self._lock = asyncio.Lock()
        self._users = 0  # holding or waiting

    async def __aenter__(self) -> None:
        self._users += 1
        try:
            await self._lock.acquire()
        except BaseException:
            self._leave()
            raise

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._lock.release()
        self._leave()

    def _leave(self) -> None:
        self._users -= 1
        if self._users == 0:
            del self._entries[self._key]
