"""The ``solitaire`` console script: ``play``, ``watch``, ``race create|join``, and for
players ``player``, ``stats``, ``daily``, ``leaderboard`` and ``replay``."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import threading
from collections.abc import AsyncIterator, Sequence
from typing import TextIO

from . import player_cli
from .render import Style
from .rest import DEFAULT_URL, ServiceClient
from .terminal import RaceSetup, TerminalApp


def _stdin_lines(stream: TextIO) -> AsyncIterator[str]:
    """Lines of ``stream`` read by a daemon thread, so quitting never waits on input."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def reader() -> None:
        try:
            for line in stream:
                loop.call_soon_threadsafe(queue.put_nowait, line)
        finally:
            loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=reader, name="stdin", daemon=True).start()

    async def lines() -> AsyncIterator[str]:
        while (line := await queue.get()) is not None:
            yield line

    return lines()


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", default=os.environ.get("SOLITAIRE_URL", DEFAULT_URL))
    parser.add_argument("--lang", choices=("en", "fi"), default="en", help="rejection messages")
    parser.add_argument(
        "--color",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="ANSI colours (default: on for a terminal, off if NO_COLOR is set)",
    )
    parser.add_argument("--ascii", action="store_true", help="suit letters instead of symbols")


def _deal_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=("DS", "TF"), default="DS")
    parser.add_argument("--draw", type=int, choices=(1, 3), default=1)
    parser.add_argument("--scoring", choices=("normal", "vegas"), default="normal")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="solitaire", description="Play Double Solitaire and Solitaire Réfléchi."
    )
    commands = parser.add_subparsers(dest="command", required=True)

    play = commands.add_parser("play", help="play a game")
    _deal_options(play)
    play.add_argument("--code", help="replay the deal of a game code, e.g. DS1-D1N-AAAAAAB")
    play.add_argument("--game-id", help="resume this game (with --token)")
    play.add_argument("--token", default=os.environ.get("SOLITAIRE_TOKEN"))
    play.add_argument("--daily", metavar="MODE", help="today's daily challenge, e.g. TF.D1N")
    _common(play)

    watch = commands.add_parser("watch", help="watch a game live")
    watch.add_argument("game_id")
    _common(watch)

    race = commands.add_parser("race", help="race others on the same deal")
    race_commands = race.add_subparsers(dest="race_command", required=True)
    create = race_commands.add_parser("create", help="create a race and host it")
    create.add_argument("--name", required=True, help="your display name")
    _deal_options(create)
    create.add_argument("--players", type=int, default=4, help="at most this many (2-8)")
    create.add_argument("--time-limit", type=int, default=None, help="seconds (30-86400)")
    _common(create)
    join = race_commands.add_parser("join", help="join a race by its join code")
    join.add_argument("join_code")
    join.add_argument("--name", required=True, help="your display name")
    _common(join)
    player_cli.add_commands(commands, _common)
    return parser


def _use_color(choice: bool | None, out: TextIO) -> bool:
    if choice is not None:
        return choice
    return out.isatty() and not os.environ.get("NO_COLOR")


async def _run(args: argparse.Namespace) -> int:
    out = sys.stdout
    async with ServiceClient(args.url, player_token=player_cli.load_token()) as client:
        if args.command in player_cli.COMMANDS:
            args.style = Style(color=_use_color(args.color, out), symbols=not args.ascii)
            return await player_cli.run(args, client, out)
        if args.command == "play" and args.daily:
            overview = await client.daily()
            created = await client.play_daily(overview.date, args.daily)
            print(f"Daily challenge {created.challenge_id} (ranked attempt)", file=out)
            args.game_id, args.token = created.game_id, created.player_token
        if args.command == "play" and args.game_id and not args.token:
            print("--game-id needs --token (or SOLITAIRE_TOKEN)", file=sys.stderr)
            return 2
        race: RaceSetup | None = None
        if args.command == "race":
            if args.race_command == "create":
                race = RaceSetup(
                    args.name, max_players=args.players, time_limit_seconds=args.time_limit
                )
            else:
                race = RaceSetup(args.name, join_code=args.join_code)
        app = TerminalApp(
            client,
            _stdin_lines(sys.stdin),
            out,
            game=getattr(args, "game", "DS"),
            draw=getattr(args, "draw", 1),
            scoring=getattr(args, "scoring", "normal"),
            code=getattr(args, "code", None),
            game_id=getattr(args, "game_id", None),
            token=getattr(args, "token", None),
            watch=args.command == "watch",
            race=race,
            lang=args.lang,
            color=_use_color(args.color, out),
            symbols=not args.ascii,
            prompt="> " if sys.stdin.isatty() else "",
        )
        return await app.run()


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return asyncio.run(_run(args))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
