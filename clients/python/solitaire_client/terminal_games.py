"""The game commands of the terminal client: new games, moves, undo, hints, the legal
actions, resigning and the verdict on an ended game."""

from __future__ import annotations

from .errors import ProtocolError
from .session import GameSession, Update
from .terminal_screen import TerminalScreen


class GameCommands(TerminalScreen):
    """The game on screen, and the commands played on it."""

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
            why = answer.no_hint
            reason = "nothing is left to suggest."
            if why is not None:
                reason = why.message_fi if self.lang == "fi" else why.message_en
            self.write(f"No hint: {reason}  [{answer.hints_used} used]")
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
