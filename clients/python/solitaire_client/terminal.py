"""The terminal client: a line-oriented game (and race) front end on the SDK.

:class:`TerminalApp` reads commands from any iterable (or async iterable) of lines and
writes to any text stream, so it runs the same on a real terminal and in tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from typing import Literal, TextIO

from service.protocol_races import RaceJoined, RaceView
from service.protocol_ws import RaceMessage

from .connection import Connection
from .errors import InvalidAction, ProtocolError, RuleRejected
from .race import RaceCommand, RaceSession, RaceUpdate
from .render import Style, format_elapsed, render_board, render_race
from .rest import Draw, GameKind, ScoringMode, ServiceClient
from .session import GameSession, Update

InputLines = Iterable[str] | AsyncIterable[str]
Lang = Literal["en", "fi"]

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


_RACE_COMMANDS: dict[str, RaceCommand] = {
    "ready": "ready",
    "unready": "unready",
    "start": "start",
    "resign": "resign",
}


@dataclass(frozen=True, slots=True)
class RaceSetup:
    """Create a race (``join_code`` None) or join one, under the display name ``name``."""

    name: str
    join_code: str | None = None
    max_players: int = 4
    time_limit_seconds: int | None = None


class TerminalApp:
    """A game in a terminal. ``run()`` consumes ``input_lines`` until ``q`` or their end;
    a watcher whose input ends (``solitaire watch ... < /dev/null``) keeps following the
    game until it is won, or until it is interrupted.

    Start a new game (``game``/``draw``/``scoring``, or ``code``), resume one
    (``game_id`` and ``token``), watch one (``game_id`` with ``watch=True``), or take part
    in a race (``race=RaceSetup(...)``).
    """

    def __init__(
        self,
        client: ServiceClient,
        input_lines: InputLines,
        out: TextIO,
        *,
        game: GameKind = "DS",
        draw: Draw = 1,
        scoring: ScoringMode = "normal",
        code: str | None = None,
        game_id: str | None = None,
        token: str | None = None,
        watch: bool = False,
        race: RaceSetup | None = None,
        lang: Lang = "en",
        color: bool = True,
        symbols: bool = True,
        prompt: str = "",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.input_lines = input_lines
        self.out = out
        self.game: GameKind = game
        self.draw: Draw = draw
        self.scoring: ScoringMode = scoring
        self.code = code
        self.game_id = game_id
        self.token = token
        self.watch = watch
        self.race_setup = race
        self.lang: Lang = lang
        self.style = Style(color=color, symbols=symbols)
        self.prompt = prompt
        self.clock = clock
        self.connection: Connection | None = None
        self.session: GameSession | None = None
        self.race: RaceSession | None = None
        self.race_joined: RaceJoined | None = None
        self.started_at: float | None = None
        self.game_ready = asyncio.Event()
        self.watched_game_won = asyncio.Event()
        """Set once a game is on screen (for races: once the race has started)."""
        self._server_offset_ms = 0.0
        self._race_seen: RaceView | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ output

    def write(self, text: str) -> None:
        self.out.write(text if text.endswith("\n") else text + "\n")
        self.out.flush()

    def render(self) -> None:
        if self.session is None:
            if self.race is not None and self.race.race is not None:
                self.write(self._race_text(self.race.race))
            return
        text = render_board(
            self.session.state,
            style=self.style,
            version=self.session.version,
            elapsed=self.elapsed(),
            code=self.code,
        )
        if self.race is not None and self.race.race is not None:
            text += "\n" + self._race_text(self.race.race)
        self.write(text)

    def _race_text(self, race: RaceView) -> str:
        you = self.race.you.player_id if self.race and self.race.you else None
        return render_race(race, style=self.style, you=you)

    def elapsed(self) -> float | None:
        race = self.race.race if self.race is not None else None
        if race is not None and race.start_at is not None:
            you = self.race.you.player_id if self.race and self.race.you else None
            mine = next((p for p in race.players if p.player_id == you), None)
            if mine is not None and mine.finish_ms is not None:
                return mine.finish_ms / 1000
            end = race.finished_at
            now = end if end is not None else self.clock() * 1000 + self._server_offset_ms
            return max(0.0, (now - race.start_at) / 1000)
        if self.started_at is None:
            return None
        return self.clock() - self.started_at

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

    # ------------------------------------------------------------------ games

    async def _new_game(self, code: str | None) -> None:
        created = await self.client.create_game(self.game, self.draw, self.scoring, code)
        self.code = created.code
        self.token = created.player_token
        await self._open_game(created.game_id, created.player_token)
        self.write(f"New game {created.code}")
        self.render()

    async def _open_game(self, game_id: str, token: str | None) -> None:
        if self.session is not None:
            await self.session.close()
            self.session = None
        assert self.connection is not None
        session = GameSession(game_id=game_id, token=token, connection=self.connection)
        await session.start()
        self.session = session
        self.game_id = game_id
        self.started_at = self.clock()
        if token is None:
            session.add_listener(self._on_watched_update)
            if session.state.won:
                self.watched_game_won.set()
        self.game_ready.set()

    def _on_watched_update(self, update: Update) -> None:
        if update.type == "change":
            self.write(f"-- {update.notation} (version {update.version})")
        self.render()
        if self.session is not None and self.session.state.won:
            self.write("The game is won.")
            self.watched_game_won.set()

    async def _play(self, notation: str) -> None:
        if self.session is None:
            self.write("No game yet: the race has not started.")
            return
        try:
            result = await self.session.play(notation)
        except ProtocolError as exc:
            self.write(self._describe(exc))
            return
        if result.notation and result.notation != notation:
            self.write(f"{notation} -> {result.notation}")
        self.render()

    async def _undo(self) -> None:
        if self.session is None:
            self.write("Nothing to undo.")
            return
        try:
            await self.session.undo()
        except ProtocolError as exc:
            self.write(self._describe(exc))
            return
        self.render()

    async def _hint(self) -> None:
        if self.session is None:
            self.write("No game yet.")
            return
        try:
            answer = await self.client.hint(self.session.game_id, token=self.token)
        except ProtocolError as exc:
            self.write(self._describe(exc))
            return
        if answer.hint is None:
            self.write("No hint: nothing is left to suggest.")
            return
        message = answer.hint.message_fi if self.lang == "fi" else answer.hint.message_en
        self.write(f"Hint: {answer.hint.action}  ({message})  [{answer.hints_used} used]")

    async def _resign(self) -> None:
        if self.session is None:
            self.write("No game yet.")
            return
        try:
            await self.session.resign()
        except ProtocolError as exc:
            self.write(self._describe(exc))
            return
        self.render()
        self.write("Resigned. Type analysis to learn whether it was winnable.")

    async def _analysis(self) -> None:
        if self.session is None:
            self.write("No game yet.")
            return
        try:
            verdicts = await self.client.analysis(self.session.game_id)
        except ProtocolError as exc:
            self.write(self._describe(exc))
            return
        self.write(f"The deal: {verdicts.deal.result}")
        if verdicts.position is not None:
            self.write(f"Where you stopped: {verdicts.position.result}")
            if verdicts.position.line:
                self.write("A winning line from there: " + " ".join(verdicts.position.line))

    async def _legal(self) -> None:
        if self.session is None:
            self.write("No game yet.")
            return
        try:
            legal = await self.client.legal_actions(self.session.game_id, token=self.token)
        except ProtocolError as exc:
            self.write(self._describe(exc))
            return
        moves = [a.notation for a in legal.actions]
        self.write("Legal: " + (" ".join(moves) if moves else "none"))

    def _show_code(self) -> None:
        if self.race is not None:
            race = self.race.race
            if race is not None and race.result is not None:
                self.write(f"Code {race.result.code}")
            else:
                self.write("The deal's code is secret until the race is over.")
        elif self.code:
            self.write(f"Code {self.code}")
        else:
            self.write("This game's code is shown only to its player.")

    async def _command_new(self, code: str | None) -> None:
        if self.race is not None:
            self.write("A race game cannot be replaced; use rematch after the race.")
            return
        if self.watch:
            self.write("Watching: new games are not available.")
            return
        try:
            await self._new_game(code.upper() if code else None)
        except ProtocolError as exc:
            self.write(self._describe(exc))

    def _describe(self, exc: ProtocolError) -> str:
        if isinstance(exc, RuleRejected):
            return f"X {exc.rule_id}: {exc.message_in(self.lang)}"
        if isinstance(exc, InvalidAction):
            return f"? {exc.message}"
        return f"! {exc.code}: {exc.message}"

    # ------------------------------------------------------------------ races

    async def _begin_race(self, setup: RaceSetup) -> None:
        if setup.join_code is None:
            joined = await self.client.create_race(
                setup.name,
                game=self.game,
                draw=self.draw,
                scoring=self.scoring,
                max_players=setup.max_players,
                time_limit_seconds=setup.time_limit_seconds,
            )
            self.write(f"Race created. Join code: {joined.join_code}")
        else:
            joined = await self.client.join_race(setup.join_code, setup.name)
            self.write(f"Joined race {joined.join_code}")
        self.race_joined = joined
        self.token = joined.player_token
        await self._watch_race(joined.race_id, joined.player_token)
        self.write("Type ready when you are (help lists the race commands).")

    async def _watch_race(self, race_id: str, token: str) -> None:
        if self.race is not None:
            await self.race.close()
        assert self.connection is not None
        race = RaceSession(race_id=race_id, token=token, connection=self.connection)
        race.add_listener(self._on_race_update)
        self.race = race
        self._race_seen = None
        await race.start()
        if race.race is not None:
            self.write(self._race_text(race.race))

    def _on_race_update(self, update: RaceUpdate) -> None:
        if not isinstance(update, RaceMessage):
            return
        self._server_offset_ms = update.race.server_time - self.clock() * 1000
        before, after = self._race_seen, update.race
        self._race_seen = after
        if before is None:
            self._maybe_start_game(after)
            return
        known = {p.player_id: p for p in before.players}
        for player in after.players:
            old = known.get(player.player_id)
            if old is None:
                self.write(f"{player.name} joined")
                continue
            if player.ready != old.ready and after.status == "lobby":
                self.write(f"{player.name} is {'ready' if player.ready else 'not ready'}")
            if player.state != old.state and player.state in ("won", "resigned"):
                finish = (
                    f" in {format_elapsed(player.finish_ms / 1000)}" if player.finish_ms else ""
                )
                self.write(f"{player.name} {player.state}{finish}")
        if after.status != before.status:
            if after.status == "countdown" and after.start_at is not None:
                seconds = max(0.0, (after.start_at - after.server_time) / 1000)
                shown = f"{seconds:.1f}" if seconds < 10 else f"{seconds:.0f}"
                self.write(f"The race starts in {shown} s")
            elif after.status == "running":
                self.write("Go!")
            elif after.status == "finished":
                self.write("The race is over.")
                self.write(self._race_text(after))
        if after.rematch_race_id and not before.rematch_race_id:
            self.write("A rematch is ready: type rematch to join it.")
        self._maybe_start_game(after)

    def _maybe_start_game(self, race: RaceView) -> None:
        if self.session is not None or race.start_at is None or race.status == "lobby":
            return
        if self.race is None or self.race.you is None:
            return
        game_id = self.race.you.game_id
        if any(task.get_name() == f"open:{game_id}" for task in self._tasks):
            return

        async def open_game() -> None:
            try:
                await self._open_game(game_id, self.token)
            except ProtocolError as exc:
                self.write(self._describe(exc))
                return
            self.started_at = self.clock()
            self.render()

        task = asyncio.create_task(open_game(), name=f"open:{game_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _race_command(self, command: str) -> None:
        race = self.race
        if race is None:
            self.write("Not in a race (start one with: solitaire race create --name NAME).")
            return
        if command == "race":
            if race.race is not None:
                self.write(self._race_text(race.race))
            return
        try:
            if command == "rematch":
                response = await self.client.rematch_race(race.race_id, token=self.token)
                await self._switch_to_rematch(response.race.race_id)
                return
            await race.command(_RACE_COMMANDS[command])
        except ProtocolError as exc:
            self.write(self._describe(exc))

    async def _switch_to_rematch(self, race_id: str) -> None:
        assert self.token is not None
        if self.session is not None:
            await self.session.close()
            self.session = None
        self.game_ready.clear()
        await self._watch_race(race_id, self.token)
        self.write("Rematch: type ready when you are.")

    async def wait_until_idle(self) -> None:
        """Waits for background work (such as opening a race game) to finish."""
        while self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.gather(*list(self._tasks), return_exceptions=True)
