"""The terminal client: a line-oriented game (and race) front end on the SDK.

:class:`TerminalApp` reads commands from any iterable (or async iterable) of lines and
writes to any text stream, so it runs the same on a real terminal and in tests. Here is
its reading loop; its state and output are in :mod:`.terminal_screen`, its game commands
in :mod:`.terminal_games` and its race commands in :mod:`.terminal_races`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterable, AsyncIterator

from .connection import Connection
from .errors import ProtocolError
from .terminal_races import RaceCommands
from .terminal_screen import InputLines, Lang, RaceSetup

__all__ = ["HELP", "RACE_HELP", "InputLines", "Lang", "RaceSetup", "TerminalApp"]

HELP = """\
Moves (notation):
  c3>c5      move the top card of column 3 onto column 5
  c3:2>c5    move the top 2 cards of column 3 onto column 5
  w>f        waste to the foundations      w>c2   waste to column 2
  c2>f3      onto foundation place 3       f2>c4  foundation back to column 4
  d          draw from the stock (turns the waste over when the stock is empty)
  t c3, tc3  tap: send the top card to its foundation
  tt c3      double tap: foundation first, else a column
  u          undo
Commands:
  hint       suggest an action (counted)   legal  list the legal actions
  code       show this game's code         resign end this game here
  analysis   was it winnable? (once the game is over)
  new CODE   start a new game from a code (new alone: a random deal)
  board      draw the board again          q      quit
"""

RACE_HELP = """\
Race commands:
  ready / unready   mark yourself (not) ready; the race starts when all are ready
  start             (host) start the countdown now
  resign            give up this race        rematch   ask for a rematch
  race              show the players
"""


class TerminalApp(RaceCommands):
    """A game in a terminal. ``run()`` consumes ``input_lines`` until ``q`` or their end;
    a watcher whose input ends (``solitaire watch ... < /dev/null``) keeps following the
    game until it is won, or until it is interrupted.

    Start a new game (``game``/``draw``/``scoring``, or ``code``), resume one
    (``game_id`` and ``token``), watch one (``game_id`` with ``watch=True``), or take part
    in a race (``race=RaceSetup(...)``).
    """

    # ------------------------------------------------------------------ running

    async def run(self) -> int:
        """Plays until ``q`` or the end of the input; returns an exit status."""
        self.connection = Connection(self.client.base_url)
        try:
            await self.connection.open()
            if self.race_setup is not None:
                await self._begin_race(self.race_setup)
            elif self.game_id is not None:
                await self._open_game(self.game_id, None if self.watch else self.token)
                self.render()
            else:
                await self._new_game(self.code)
            if self.watch:
                await self._watch_until_won()
                return 0
            async for line in self._lines():
                if not await self.handle(line):
                    break
            return 0
        except ProtocolError as exc:
            self.write(self._describe(exc))
            return 1
        finally:
            await self.close()

    async def _watch_until_won(self) -> None:
        """Follows the game until it is won or ``q`` is typed; the end of the input alone
        does not stop watching (a watcher's stdin may well be closed)."""

        async def read_commands() -> None:
            async for line in self._lines():
                if not await self.handle(line):
                    return
            await self.watched_game_won.wait()

        reader = asyncio.create_task(read_commands())
        won = asyncio.create_task(self.watched_game_won.wait())
        try:
            await asyncio.wait({reader, won}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            reader.cancel()
            won.cancel()
        if reader.done() and not reader.cancelled() and reader.exception() is not None:
            raise reader.exception()  # type: ignore[misc]

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self.session is not None:
            await self.session.close()
        if self.race is not None:
            await self.race.close()
        if self.connection is not None:
            await self.connection.close()

    async def _lines(self) -> AsyncIterator[str]:
        if isinstance(self.input_lines, AsyncIterable):
            iterator = aiter(self.input_lines)
            while True:
                self._prompt()
                try:
                    line = await anext(iterator)
                except StopAsyncIteration:
                    return
                yield line
        else:
            for line in self.input_lines:
                self._prompt()
                yield line
                await asyncio.sleep(0)

    def _prompt(self) -> None:
        if self.prompt:
            self.out.write(self.prompt)
            self.out.flush()

    async def handle(self, line: str) -> bool:
        """Runs one command; False means quit."""
        text = line.strip()
        if not text:
            return True
        word, _, rest = text.partition(" ")
        command = word.lower()
        if command in ("q", "quit", "exit"):
            return False
        if command in ("help", "?", "h"):
            self.write(HELP + (RACE_HELP if self.race is not None else ""))
        elif command in ("b", "board"):
            self.render()
        elif command == "code":
            self._show_code()
        elif command == "hint":
            await self._hint()
        elif command == "legal":
            await self._legal()
        elif command == "analysis":
            await self._analysis()
        elif command == "resign" and self.race is None:
            await self._resign()
        elif command == "new":
            await self._command_new(rest.strip() or None)
        elif command in ("ready", "unready", "start", "resign", "rematch", "race"):
            await self._race_command(command)
        elif command in ("u", "undo"):
            await self._undo()
        else:
            await self._play("".join(text.split()).lower())
        return True
