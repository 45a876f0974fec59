"""Players' records: versioned JSON documents, single-use keys and ranked boards.

Games and races have stores of their own shape (``Store``); everything that belongs to
players (profiles, token look-ups, statistics, link codes, daily challenges and
leaderboards) is built on these few primitives, in memory or in Redis alike. Every
document is changed only by compare-and-set on its version, so instances never lose
each other's updates.

Each write is done once per call, whatever the store did: a call whose request reached
Redis twice (its first reply lost, the client library sent it again) answers what the
first one did (``redis_once``), so a caller never sees its own write as someone else's.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections import deque
from dataclasses import dataclass

from sortedcontainers import SortedList  # type: ignore[import-untyped]


@dataclass(frozen=True, slots=True)
class Doc:
    version: int
    text: str


@dataclass(frozen=True, slots=True)
class Ranked:
    """A member of a board: its 0-based rank (lowest score first, equal scores in the
    order they were reached) and its score."""

    member: str
    rank: int
    score: float


@dataclass(frozen=True, slots=True)
class BoardPage:
    """A page of a board's rows (``top``, from rank ``offset``), one member's row and the
    rows around it."""

    size: int
    top: list[Ranked]
    you: Ranked | None
    around: list[Ranked]


class Records(ABC):
    @abstractmethod
    async def load(self, key: str) -> Doc | None: ...

    @abstractmethod
    async def save(self, key: str, expected_version: int, text: str, ttl_seconds: int = 0) -> bool:
        """Writes ``text`` as version ``expected_version + 1`` if the document is still at
        ``expected_version`` (0: it must not exist yet); False otherwise."""

    @abstractmethod
    async def claim(self, key: str, value: str, ttl_seconds: int = 0) -> bool:
        """Sets ``key`` only if it is unset; True when this call set it."""

    @abstractmethod
    async def get(self, key: str) -> str | None: ...

    @abstractmethod
    async def get_many(self, keys: list[str]) -> list[str | None]:
        """Several values in one round trip, ``None`` where unset."""

    @abstractmethod
    async def take(self, key: str) -> str | None:
        """Reads and deletes ``key`` in one step: a value can be taken once."""

    @abstractmethod
    async def delete(self, key: str) -> None: ...

    @abstractmethod
    async def queue_push(self, queue: str, value: str, ttl_seconds: int = 0) -> int:
        """Appends ``value``; returns the queue's new length. A queue given
        ``ttl_seconds`` is deleted that long after its latest push."""

    @abstractmethod
    async def queue_pop(self, queue: str) -> str | None:
        """Takes the oldest value (each value is taken by one caller only)."""

    @abstractmethod
    async def queue_length(self, queue: str) -> int: ...

    @abstractmethod
    async def board_add(
        self, board: str, member: str, score: float, replace: bool = False, ttl_seconds: int = 0
    ) -> None:
        """Enters ``member`` with ``score``, keeping the lower of its old and new score
        (or the new one, with ``replace``); a board given ``ttl_seconds`` is deleted that
        long after its latest entry.

        Members of equal score rank in the order they reached it: a member whose score
        changes goes after every member already at its new score; one whose score stays
        the same keeps its place."""

    @abstractmethod
    async def board_remove(self, board: str, member: str) -> None:
        """Takes ``member`` off the board (nothing if it is not on it)."""

    @abstractmethod
    async def board_rank(self, board: str, member: str) -> Ranked | None: ...

    @abstractmethod
    async def board_range(self, board: str, start: int, count: int) -> list[Ranked]: ...

    @abstractmethod
    async def board_size(self, board: str) -> int: ...

    async def board_page(
        self, board: str, member: str | None, top: int, around: int, offset: int = 0
    ) -> BoardPage:
        """``top`` rows from rank ``offset`` (0: the first), and ``member``'s row with
        ``around`` either side."""
        rows = await self.board_range(board, offset, top)
        mine = None if member is None else await self.board_rank(board, member)
        near: list[Ranked] = []
        if mine is not None and around:
            start = max(0, mine.rank - around)
            near = await self.board_range(board, start, mine.rank - start + around + 1)
        return BoardPage(await self.board_size(board), rows, mine, near)


class MemoryRecords(Records):
    """One process only; boards are sorted lists, so rank and range cost O(log n). A
    board's rows sort by score, then by when the score was reached (a count per board)."""

    def __init__(self) -> None:
        self._docs: dict[str, tuple[Doc, float]] = {}
        self._values: dict[str, tuple[str, float]] = {}
        self._scores: dict[str, dict[str, tuple[float, int]]] = {}
        self._boards: dict[str, SortedList] = {}
        self._entered: dict[str, int] = {}
        self._queues: dict[str, deque[str]] = {}
        self._queue_expiry: dict[str, float] = {}

    @staticmethod
    def _expiry(ttl_seconds: int) -> float:
        return time.monotonic() + ttl_seconds if ttl_seconds > 0 else float("inf")

    async def load(self, key: str) -> Doc | None:
        found = self._docs.get(key)
        if found is None or found[1] <= time.monotonic():
            return None
        return found[0]

    async def save(self, key: str, expected_version: int, text: str, ttl_seconds: int = 0) -> bool:
        current = await self.load(key)
        if (current.version if current else 0) != expected_version:
            return False
        expires = self._expiry(ttl_seconds) if ttl_seconds or not current else self._docs[key][1]
        self._docs[key] = (Doc(expected_version + 1, text), expires)
        return True

    async def get(self, key: str) -> str | None:
        found = self._values.get(key)
        if found is None or found[1] <= time.monotonic():
            self._values.pop(key, None)
            return None
        return found[0]

    async def get_many(self, keys: list[str]) -> list[str | None]:
        return [await self.get(key) for key in keys]

    async def claim(self, key: str, value: str, ttl_seconds: int = 0) -> bool:
        if await self.get(key) is not None:
            return False
        self._values[key] = (value, self._expiry(ttl_seconds))
        return True

    async def take(self, key: str) -> str | None:
        value = await self.get(key)
        self._values.pop(key, None)
        return value

    async def delete(self, key: str) -> None:
        self._values.pop(key, None)
        self._docs.pop(key, None)

    def _queue(self, queue: str) -> deque[str] | None:
        if self._queue_expiry.get(queue, float("inf")) <= time.monotonic():
            self._queues.pop(queue, None)
            self._queue_expiry.pop(queue, None)
        return self._queues.get(queue)

    async def queue_push(self, queue: str, value: str, ttl_seconds: int = 0) -> int:
        values = self._queue(queue)
        if values is None:
            values = self._queues[queue] = deque()
        values.append(value)
        if ttl_seconds > 0:
            self._queue_expiry[queue] = self._expiry(ttl_seconds)
        return len(values)

    async def queue_pop(self, queue: str) -> str | None:
        values = self._queue(queue)
        return values.popleft() if values else None

    async def queue_length(self, queue: str) -> int:
        return len(self._queue(queue) or ())

    async def board_add(
        self, board: str, member: str, score: float, replace: bool = False, ttl_seconds: int = 0
    ) -> None:
        # One process's boards: a board's lifetime is the process's (expiry is for Redis).
        scores = self._scores.setdefault(board, {})
        ranked = self._boards.setdefault(board, SortedList())
        old = scores.get(member)
        if old is not None:
            if old[0] == score or (old[0] < score and not replace):
                return
            ranked.remove((*old, member))
        entered = self._entered[board] = self._entered.get(board, 0) + 1
        scores[member] = (score, entered)
        ranked.add((score, entered, member))

    async def board_remove(self, board: str, member: str) -> None:
        old = self._scores.get(board, {}).pop(member, None)
        if old is not None:
            self._boards[board].remove((*old, member))

    async def board_rank(self, board: str, member: str) -> Ranked | None:
        found = self._scores.get(board, {}).get(member)
        if found is None:
            return None
        return Ranked(member, self._boards[board].index((*found, member)), found[0])

    async def board_range(self, board: str, start: int, count: int) -> list[Ranked]:
        ranked = self._boards.get(board)
        if ranked is None or count <= 0:
            return []
        start = max(0, start)
        return [
            Ranked(member, start + offset, score)
            for offset, (score, _, member) in enumerate(ranked.islice(start, start + count))
        ]

    async def board_size(self, board: str) -> int:
        return len(self._scores.get(board, {}))
