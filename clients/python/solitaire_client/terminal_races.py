"""The race side of the terminal client: creating or joining a race, narrating how it
goes, opening the race's game when it starts, and the race commands."""

from __future__ import annotations

import asyncio
import contextlib

from service.protocol.races import RaceView
from service.protocol.ws import RaceMessage

from .errors import ProtocolError
from .race import RaceCommand, RaceSession, RaceUpdate
from .render import format_elapsed
from .terminal_games import GameCommands
from .terminal_screen import RaceSetup

_RACE_COMMANDS: dict[str, RaceCommand] = {
    "ready": "ready",
    "unready": "unready",
    "start": "start",
    "resign": "resign",
}


class RaceCommands(GameCommands):
    """A race around the game: its lobby, countdown, standings and rematch."""

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
