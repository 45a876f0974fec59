"""Secret deals dealt ahead: a race that a wave makes (an arena's heat, a quick pairing)
takes its deal with the opening position already dealt and written out, so that the
wave's time goes to making races and telling players.

An arena's first wave pairs at once everybody who joined before its start, 500 heats
for 1,000 players, and dealing them was a fifth of that wave's time. The arena waves
deal an upcoming arena's heats in the seconds before its start (``prepare``), a few at
a time between the instance's other work. The deals stay in the instance that dealt
them, each is taken once, and an instance that stops takes its unused deals with it:
they were never anywhere else.
"""

from __future__ import annotations

import asyncio

from .. import engine

# Deals kept ready per mode, at most.
MAX_READY = 2048
# Deals made between two yields to the event loop.
_AT_ONCE = 16


def deal(mode: engine.Mode) -> tuple[engine.GameCode, str]:
    """A new secret deal of ``mode`` and its opening position, serialized."""
    code = mode.random_secret()
    return code, engine.new_game(code).serialize()


class Openings:
    """The instance's deals made ahead, by mode."""

    def __init__(self) -> None:
        self._ready: dict[engine.Mode, list[tuple[engine.GameCode, str]]] = {}

    def ready(self, mode: engine.Mode) -> int:
        return len(self._ready.get(mode, ()))

    def take(self, mode: engine.Mode) -> tuple[engine.GameCode, str]:
        """A deal made ahead if one is ready, else one made now."""
        ready = self._ready.get(mode)
        return ready.pop() if ready else deal(mode)

    async def prepare(self, mode: engine.Mode, count: int) -> None:
        """Deals until ``count`` deals of ``mode`` are ready (at most ``MAX_READY``),
        yielding to the event loop every few."""
        ready = self._ready.setdefault(mode, [])
        target = min(count, MAX_READY)
        while len(ready) < target:
            for _ in range(min(_AT_ONCE, target - len(ready))):
                ready.append(deal(mode))
            await asyncio.sleep(0)
