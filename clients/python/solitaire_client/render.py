"""Text rendering of a public state: columns, stock, waste, foundations and status."""

from __future__ import annotations

from dataclasses import dataclass

from service.protocol import PublicState
from service.protocol.races import RacePlayer, RaceView

RESET = "\x1b[0m"
RED = "\x1b[31m"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
GREEN = "\x1b[32m"
YELLOW = "\x1b[33m"

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
GAME_NAMES = {"DS": "Double Solitaire", "TF": "Solitaire Réfléchi"}
CELL = 5
BACK = "##"


@dataclass(frozen=True, slots=True)
class Style:
    """How to draw: ANSI colours on or off, suit symbols or letters."""

    color: bool = True
    symbols: bool = True

    def paint(self, text: str, *codes: str) -> str:
        if not self.color or not codes:
            return text
        return "".join(codes) + text + RESET

    def card(self, text: str, pad: bool = True) -> str:
        """``TH`` as ``10♥`` (red when colour is on); padded to 3 visible characters."""
        rank, suit = text[0], text[1]
        label = ("10" if rank == "T" else rank) + (SUIT_SYMBOLS[suit] if self.symbols else suit)
        if pad:
            label = label.rjust(3)
        return self.paint(label, RED if suit in RED_SUITS else BOLD)

    def back(self) -> str:
        return self.paint(BACK.rjust(3), DIM)

    def empty(self, text: str = " --") -> str:
        return self.paint(text, DIM)


def format_elapsed(seconds: float) -> str:
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def render_board(
    state: PublicState,
    *,
    style: Style,
    version: int,
    elapsed: float | None = None,
    code: str | None = None,
) -> str:
    """The whole board as text (lines end with ``\\n``)."""
    lines: list[str] = []
    title = f"{GAME_NAMES.get(state.game, state.game)} · draw {state.draw} · {state.scoring}"
    if code:
        title += f" · {code}"
    lines.append(style.paint(title, BOLD))

    waste = state.waste
    shown = waste[-3:] if state.draw == 3 else waste[-1:]
    hidden = len(waste) - len(shown)
    waste_text = " ".join(style.card(c, pad=False) for c in shown) if shown else style.empty("--")
    if hidden:
        waste_text += style.paint(f" (+{hidden})", DIM)
    stock_text = (style.paint(BACK, DIM) if state.stock else style.empty("[]")) + f" {state.stock}"
    lines.append(f"Stock {stock_text}   Waste {waste_text}")

    places = []
    for index, top in enumerate(state.foundations, start=1):
        places.append(f"f{index} " + (style.card(top, pad=False) if top else style.empty("--")))
    lines.append("Foundations " + "  ".join(places))

    status = (
        f"Score {state.score_display}   Moves {state.moves}   "
        + (f"Time {format_elapsed(elapsed)}   " if elapsed is not None else "")
        + f"Version {version}   Undo {state.undo_available}"
    )
    lines.append(status)
    lines.append("")

    header = "".join(f"c{i}".rjust(CELL) for i in range(1, len(state.columns) + 1))
    lines.append(style.paint(header, DIM))
    height = max((col.down + len(col.up) for col in state.columns), default=0)
    for row in range(max(height, 1)):
        cells = []
        for col in state.columns:
            if row < col.down:
                cell = style.back()
            elif row < col.down + len(col.up):
                cell = style.card(col.up[row - col.down])
            elif row == 0:
                cell = style.empty(" ..")
            else:
                cell = "   "
            cells.append(" " * (CELL - 3) + cell)
        lines.append("".join(cells).rstrip())
    if state.won:
        lines.append("")
        lines.append(style.paint("*** Won! ***", GREEN, BOLD))
    return "\n".join(lines) + "\n"


def _player_line(player: RacePlayer, you: str | None, style: Style) -> str:
    marker = "*" if player.player_id == you else " "
    finish = f" in {format_elapsed(player.finish_ms / 1000)}" if player.finish_ms else ""
    ready = " ready" if player.ready and player.state == "waiting" else ""
    return (
        f"{marker} {player.name:<16} {player.state}{finish}{ready}  "
        f"foundations {player.foundations}  score {player.score_display or player.score}  "
        f"moves {player.moves}"
    )


def render_race(race: RaceView, *, style: Style, you: str | None = None) -> str:
    """The race: status, join code and every player's progress (or the final ranking)."""
    lines = [
        style.paint(
            f"Race {race.join_code} · {GAME_NAMES.get(race.game, race.game)} · "
            f"draw {race.draw} · {race.scoring} · {race.status}",
            BOLD,
        )
    ]
    if race.result is not None:
        lines.append(f"Deal {race.result.code}")
        for entry in race.result.ranking:
            marker = "*" if entry.player_id == you else " "
            finish = f" in {format_elapsed(entry.finish_ms / 1000)}" if entry.finish_ms else ""
            lines.append(
                f"{marker} {entry.rank}. {entry.name:<16} {entry.state}{finish}  "
                f"foundations {entry.foundations}  score {entry.score_display or entry.score}"
            )
    else:
        lines.extend(_player_line(p, you, style) for p in race.players)
    return "\n".join(lines) + "\n"
