"""What the terminal client shows, and the settings and state it is shown from: the
board, the race's standings, the clock and readable refusals. The commands are added by
:mod:`.terminal_games` and :mod:`.terminal_races`, the loop that reads them by
:class:`~solitaire_client.terminal.TerminalApp`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterable, Callable, Iterable
from dataclasses import dataclass
from typing import Literal, TextIO

from service.protocol.races import RaceJoined, RaceView

from .connection import Connection
from .errors import InvalidAction, ProtocolError, RuleRejected
from .race import RaceSession
from .render import Style, render_board, render_race
from .rest import Draw, GameKind, ScoringMode, ServiceClient
from .session import GameSession

InputLines = Iterable[str] | AsyncIterable[str]
Lang = Literal["en", "fi"]


@dataclass(frozen=True, slots=True)
class RaceSetup:
    """Create a race (``join_code`` None) or join one, under the display name ``name``."""

    name: str
    join_code: str | None = None
    max_players: int = 4
    time_limit_seconds: int | None = None


class TerminalScreen:
    """The state of a terminal client and what it writes; the constructor is
    :class:`~solitaire_client.terminal.TerminalApp`'s."""

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

    def _describe(self, exc: ProtocolError) -> str:
        if isinstance(exc, RuleRejected):
            return f"X {exc.rule_id}: {exc.message_in(self.lang)}"
        if isinstance(exc, InvalidAction):
            return f"? {exc.message}"
        return f"! {exc.code}: {exc.message}"
