"""Changing a versioned document by compare-and-set, tried again after a concurrent update.

The documents that several instances change at once (a player, their statistics, a race)
are read with their version, changed in memory and written back only if the version has
not moved in the meantime; otherwise they are read again and changed again.
``compare_and_set`` is that loop, for any document in any store: the caller says how to
read, change and write it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

R = TypeVar("R")  # a read of the document: its version and content, in the caller's form


async def compare_and_set(
    read: Callable[[], Awaitable[R]],
    change: Callable[[R], bool],
    write: Callable[[R], Awaitable[bool]],
    *,
    attempts: int,
    kept_changing: Callable[[], Exception],
    earlier: R | None = None,
) -> tuple[R, bool]:
    """Applies ``change`` to a fresh ``read`` (changed in place; False when there is
    nothing to write) and ``write``s it, which answers False when the version it was read
    at is no longer the latest; up to ``attempts`` times, then raises ``kept_changing()``.

    Returns the last read, as changed, and whether it was written. ``earlier`` is a read
    the caller made just before: the first attempt changes it instead of reading, since
    the write proves it current or starts over. When it has nothing to write it proves
    nothing, so the document is read again.
    """
    for _ in range(attempts):
        fresh = earlier is None
        current = await read() if earlier is None else earlier
        earlier = None
        if not change(current):
            if fresh:
                return current, False
            continue
        if await write(current):
            return current, True
    raise kept_changing()
