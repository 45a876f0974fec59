"""Terminal commands for players: ``player``, ``stats``, ``daily``, ``leaderboard`` and
``replay``. The player token is kept in a file so that later commands are yours."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from service.protocol.players import Board, BoardRow

from .errors import ProtocolError
from .render import Style, format_elapsed, render_board
from .rest import ServiceClient

COMMANDS = ("player", "stats", "daily", "leaderboard", "replay")


def token_file() -> Path:
    """Where the player token lives: ``$SOLITAIRE_PLAYER_FILE`` or the user's config."""
    configured = os.environ.get("SOLITAIRE_PLAYER_FILE")
    if configured:
        return Path(configured)
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "solitaire" / "player-token"


def load_token() -> str | None:
    try:
        return token_file().read_text().strip() or None
    except OSError:
        return None


def save_token(token: str) -> None:
    path = token_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(token + "\n")
    path.chmod(0o600)  # the token is the player's only credential


def add_commands(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    add_common: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Adds the player commands to the ``solitaire`` parser (``add_common``: --url etc.)."""
    player = commands.add_parser("player", help="your player: create, show, rename, link")
    actions = player.add_subparsers(dest="player_command", required=True)
    actions.add_parser("show", help="who this device plays as")
    create = actions.add_parser("create", help="a new player with this name")
    create.add_argument("name")
    rename = actions.add_parser("rename", help="a new display name")
    rename.add_argument("name")
    actions.add_parser("link-code", help="a one-time code for another device")
    link = actions.add_parser("link", help="join the player of a link code")
    link.add_argument("link_code")
    actions.add_parser("revoke-others", help="sign every other device out")
    for sub in actions.choices.values():
        add_common(sub)

    stats = commands.add_parser("stats", help="your statistics per mode")
    stats.add_argument("--player-id", help="another player's public statistics")

    daily = commands.add_parser("daily", help="today's challenges and their boards")
    daily.add_argument("--date", help="a board of this day (YYYY-MM-DD, default today)")
    daily.add_argument("--board", metavar="MODE", help="the board of one mode, e.g. TF.D1N")

    board = commands.add_parser("leaderboard", help="an all-time board")
    board.add_argument("board", help="e.g. streak.TF.D1N or best-time.DS.D3N")

    replay = commands.add_parser("replay", help="print an ended game's replay")
    replay.add_argument("game_id")
    for parser in (stats, daily, board, replay):
        add_common(parser)


def _row(row: BoardRow, you: str | None) -> str:
    if row.value is not None and row.won is None:
        figure = str(row.value)
    elif row.won and row.time_ms is not None:
        figure = format_elapsed(row.time_ms / 1000)
    else:
        figure = f"not won, {row.foundations or 0} cards"
    mark = " <- you" if row.player_id == you else ""
    moves = f"  {row.moves} moves" if row.moves is not None else ""
    replay = f"  replay {row.game_id}" if row.game_id else ""
    return f"{row.rank:>4}. {row.name:<24} {figure}{moves}{replay}{mark}\n"


def _board(board: Board, out: TextIO) -> None:
    you = board.you.player_id if board.you else None
    if not board.top and not board.around:
        out.write("  (nobody yet)\n")
    shown = {row.rank for row in board.top}
    for row in board.top:
        out.write(_row(row, you))
    extra = [row for row in board.around or ([board.you] if board.you else []) if row]
    extra = [row for row in extra if row.rank not in shown]
    if extra:
        out.write("   ...\n")
        for row in extra:
            out.write(_row(row, you))


async def _player(args: argparse.Namespace, client: ServiceClient, out: TextIO) -> int:
    command = args.player_command
    if command in ("create", "link"):
        made = (
            await client.create_player(args.name)
            if command == "create"
            else await client.link_device(args.link_code)
        )
        save_token(made.player_token)
        out.write(f"Playing as {made.name} ({made.player_id}); token kept in {token_file()}\n")
        return 0
    if client.player_token is None:
        out.write("No player on this device: `solitaire player create NAME` first.\n")
        return 2
    if command == "show":
        view = await client.me()
        out.write(f"Playing as {view.name} ({view.player_id})\n")
    elif command == "rename":
        view = await client.rename(args.name)
        out.write(f"Now playing as {view.name}\n")
    elif command == "link-code":
        code = await client.link_code()
        out.write(f"Link code {code.link_code}: enter it on the other device (works once)\n")
    else:
        revoked = await client.revoke_other_devices()
        out.write(f"Signed out {revoked.revoked} other device(s)\n")
    return 0


async def _stats(args: argparse.Namespace, client: ServiceClient, out: TextIO) -> int:
    stats = await client.stats(args.player_id)
    out.write(f"Statistics of {stats.name}\n")
    if not stats.modes:
        out.write("  no finished games yet\n")
    out.write(f"  {'mode':<8}{'played':>7}{'won':>5}{'rate':>6}{'streak':>7}{'best':>6}")
    out.write(f"{'time':>9}{'moves':>7}{'score':>7}{'bankroll':>10}\n")
    for mode, s in sorted(stats.modes.items()):
        best_time = format_elapsed(s.best_time_ms / 1000) if s.best_time_ms is not None else "-"
        out.write(
            f"  {mode:<8}{s.played:>7}{s.won:>5}{round(s.win_rate * 100):>5}%"
            f"{s.current_streak:>7}{s.best_streak:>6}{best_time:>9}"
            f"{s.fewest_moves if s.fewest_moves is not None else '-':>7}"
            f"{s.best_score if s.best_score is not None else '-':>7}"
            f"{'$' + str(s.bankroll) if s.bankroll is not None else '-':>10}\n"
        )
    return 0


async def _daily(args: argparse.Namespace, client: ServiceClient, out: TextIO) -> int:
    overview = await client.daily()
    date = args.date or overview.date
    if args.board:
        board = await client.daily_board(date, args.board)
        state = "public, replays below" if board.public else "until the day is over"
        out.write(f"Board {board.challenge_id} ({state})\n")
        if board.code:
            out.write(f"Deal {board.code}\n")
        _board(board, out)
        return 0
    wait = format_elapsed(overview.seconds_to_next)
    out.write(f"Daily challenge {overview.date}, next in {wait}\n")
    for challenge in overview.challenges:
        mine = f", your ranked game {challenge.ranked_game_id}" if challenge.ranked_game_id else ""
        out.write(f"  {challenge.mode:<8} {challenge.players} finished{mine}\n")
    out.write("Play one with `solitaire play --daily MODE`, see its board with --board MODE.\n")
    return 0


async def _replay(args: argparse.Namespace, client: ServiceClient, out: TextIO) -> int:
    game = await client.replay(args.game_id)
    result = game.result
    outcome = "won" if result.won else "resigned" if result.resigned else "not finished"
    out.write(f"Replay of {game.game_id}, deal {game.code}: {outcome}, ")
    out.write(f"{result.moves} moves, score {result.score_display}")
    if result.duration_ms is not None:
        out.write(f", {format_elapsed(result.duration_ms / 1000)}")
    out.write("\n")
    for number, action in enumerate(game.actions, start=1):
        at = format_elapsed(action.at_ms / 1000) if action.at_ms is not None else "--"
        out.write(f"{number:>5}. {at:>8}  {action.notation}\n")
    final = await client.get_state(game.game_id)
    out.write(render_board(final.state, style=args.style, version=final.version, code=game.code))
    return 0


async def run(args: argparse.Namespace, client: ServiceClient, out: TextIO) -> int:
    """Runs one of :data:`COMMANDS` (the client already carries the saved token)."""
    try:
        return await _run(args, client, out)
    except ProtocolError as exc:
        out.write(f"! {exc}\n")
        return 1


async def _run(args: argparse.Namespace, client: ServiceClient, out: TextIO) -> int:
    if not hasattr(args, "style"):
        args.style = Style(color=False, symbols=not getattr(args, "ascii", False))
    if args.command == "player":
        return await _player(args, client, out)
    if args.command == "stats":
        return await _stats(args, client, out)
    if args.command == "daily":
        return await _daily(args, client, out)
    if args.command == "leaderboard":
        board = await client.leaderboard(args.board)
        out.write(f"Leaderboard {board.board}\n")
        _board(board, out)
        return 0
    return await _replay(args, client, out)
