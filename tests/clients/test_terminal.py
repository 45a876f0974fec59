"""The terminal client driven through its input and output streams."""

from __future__ import annotations

import asyncio
import io
import re
import sys

import pytest
from solitaire_client import ServiceClient
from solitaire_client.cli import build_parser, main
from solitaire_client.render import Style, render_board
from solitaire_client.terminal import RaceSetup, TerminalApp

from service.engine.rules import rejection_message
from tests.races.race_support import solvable_tf_deal

from .helpers import Lines, wait_for_text

# The opening of this deal: column 1 shows 6D, column 5 shows AD, column 7 shows AS.
CODE = "DS1-D1N-AAAAAAB"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def last_status(output: str) -> tuple[str, int, int]:
    """Score display, moves and version of the last board drawn."""
    found = re.findall(r"Score (\S+) +Moves (\d+) .*?Version (\d+)", ANSI.sub("", output))
    assert found, output
    score, moves, version = found[-1]
    return score, int(moves), int(version)


async def test_play_reject_undo_and_show_the_board(service_url: str) -> None:
    out = io.StringIO()
    lines = ["legal", "hint", "c1>c2", "t c5", "tt c7", "d", "u", "code", "help", "bogus"]
    lines += ["q", "d"]
    async with ServiceClient(service_url) as client:
        app = TerminalApp(client, lines, out, code=CODE, color=False, prompt="> ")
        assert await app.run() == 0
        output = out.getvalue()
        assert app.session is not None
        server = await client.get_state(app.session.game_id, token=app.token)

    assert f"New game {CODE}" in output
    assert "Double Solitaire · draw 1 · normal" in output
    header = "   c1   c2   c3   c4   c5   c6   c7   c8   c9"
    assert header in output
    assert "   6♦   ##   ##" in output  # face-up top of c1, then face-down backs
    assert "Stock ## 59" in output and "Foundations f1 --" in output
    assert "Legal: d c5>f5 c7>f1" in output
    assert re.search(r"Hint: \S+ +\(.+\) +\[1 used\]", output)
    message_en, _ = rejection_message("DS-TAB-1")
    assert f"X DS-TAB-1: {message_en}" in output
    assert "tc5 -> c5>f5" in output and "ttc7 -> c7>f1" in output
    assert "f1 A♠" in output and "f5 A♦" in output
    assert "Code DS1-D1N-AAAAAAB" in output
    assert "c3:2>c5" in output  # the help text
    assert "? not an action: 'bogus'" in output

    # The last board shows the state after the undo, as the service has it.
    assert last_status(output) == (server.state.score_display, server.state.moves, 4)
    assert server.version == 4 and server.state.stock == 59 and not server.state.waste
    assert "\x1b[" not in output


async def test_finnish_messages_and_colours(service_url: str) -> None:
    out = io.StringIO()
    async with ServiceClient(service_url) as client:
        app = TerminalApp(client, ["c1>c2", "u"], out, code=CODE, lang="fi", color=True)
        assert await app.run() == 0
    output = out.getvalue()
    _, message_fi = rejection_message("DS-TAB-1")
    assert f"X DS-TAB-1: {message_fi}" in output
    assert f"X DS-APP-4: {rejection_message('DS-APP-4')[1]}" in output
    assert "\x1b[31m 6♦\x1b[0m" in output  # diamonds in red
    assert "\x1b[1m J♠\x1b[0m" in output  # spades not in red
    assert "\x1b[2m ##\x1b[0m" in output


async def test_new_game_from_a_code(service_url: str) -> None:
    out = io.StringIO()
    lines = ["d", "new TF1-D3N-AAAAAAC", "code", "new XX1", "d", "d"]
    async with ServiceClient(service_url) as client:
        app = TerminalApp(client, lines, out, color=False, symbols=False)
        assert await app.run() == 0
    output = out.getvalue()
    assert "New game DS1-D1N-" in output and "New game TF1-D3N-AAAAAAC" in output
    assert "Solitaire Réfléchi · draw 3 · normal · TF1-D3N-AAAAAAC" in output
    assert "Code TF1-D3N-AAAAAAC" in output
    assert "! bad_code: not a game code" in output
    assert last_status(output) == ("0", 2, 2)
    assert re.search(r"Waste( [2-9TJQKA][SHDC]){3} \(\+3\)", output)  # draw 3: 3 shown


async def test_watch_a_game(service_url: str) -> None:
    out = io.StringIO()
    lines = Lines()
    async with ServiceClient(service_url) as client:
        created = await client.create_game(code=CODE)
        app = TerminalApp(client, lines, out, game_id=created.game_id, watch=True, color=False)
        task = asyncio.create_task(app.run())
        await app.game_ready.wait()
        await client.act(created.game_id, "c5>f")
        await wait_for_text(out, "-- c5>f5 (version 1)")
        lines.send("d")
        await wait_for_text(out, "! not_player")
        # The end of the input (stdin closed) does not end watching: changes still come.
        lines.end()
        await asyncio.sleep(0.2)
        assert not task.done()
        await client.act(created.game_id, "d")
        await wait_for_text(out, "-- d (version 2)")
        task.cancel()  # as Ctrl-C does
        with pytest.raises(asyncio.CancelledError):
            await task
    assert last_status(out.getvalue()) == ("15", 2, 2)


async def test_watching_ends_when_the_game_is_won(service_url: str) -> None:
    code, solution = solvable_tf_deal()
    out = io.StringIO()
    async with ServiceClient(service_url) as client:
        created = await client.create_game(code=str(code))
        app = TerminalApp(client, Lines(), out, game_id=created.game_id, watch=True, color=False)
        task = asyncio.create_task(app.run())
        await app.game_ready.wait()
        for notation in solution:
            await client.act(created.game_id, notation)
        async with asyncio.timeout(10):
            assert await task == 0
    assert "The game is won." in out.getvalue()


async def test_race_between_two_terminals(service_url: str) -> None:
    host_out, guest_out = io.StringIO(), io.StringIO()
    host_lines, guest_lines = Lines(), Lines()
    async with ServiceClient(service_url) as host_client, ServiceClient(service_url) as guest:
        host = TerminalApp(
            host_client, host_lines, host_out, game="TF", race=RaceSetup("Ann"), color=False
        )
        host_task = asyncio.create_task(host.run())
        await wait_for_text(host_out, "Type ready")
        assert host.race_joined is not None
        join_code = host.race_joined.join_code
        assert f"Join code: {join_code}" in host_out.getvalue()

        player = TerminalApp(
            guest, guest_lines, guest_out, race=RaceSetup("Bob", join_code=join_code), color=False
        )
        guest_task = asyncio.create_task(player.run())
        await wait_for_text(host_out, "Bob joined")
        host_lines.send("code", "d")
        await wait_for_text(host_out, "secret until the race is over")
        await wait_for_text(host_out, "No game yet")
        host_lines.send("ready")
        await wait_for_text(guest_out, "Ann is ready")
        guest_lines.send("ready")
        await asyncio.wait_for(host.game_ready.wait(), 10)
        await asyncio.wait_for(player.game_ready.wait(), 10)
        await wait_for_text(host_out, "Go!")
        host_lines.send("d")
        await wait_for_text(host_out, "Version 1")
        assert host.race is not None and player.race is not None
        async with asyncio.timeout(10):
            while not (host.race.progress and player.race.progress):
                await asyncio.sleep(0.01)
        host_lines.send("race")
        await wait_for_text(host_out, "moves 1")
        guest_lines.send("resign")
        await wait_for_text(host_out, "Bob resigned")
        host_lines.send("resign")
        await wait_for_text(host_out, "The race is over.")
        await wait_for_text(guest_out, "The race is over.")
        host_lines.send("code")
        await wait_for_text(host_out, "Code TF1-D1N-")
        host_lines.end()
        guest_lines.end()
        assert await host_task == 0 and await guest_task == 0

    output = host_out.getvalue()
    assert "Solitaire Réfléchi · draw 1 · normal" in output
    # Both resigned with nothing on the foundations: fewer moves ranks first.
    assert re.search(r"  1\. Bob +resigned +foundations 0", output)
    assert re.search(r"\* 2\. Ann +resigned +foundations 0", output)
    assert re.search(r"\* Ann +playing +foundations 0 +score 0 +moves 1", output)


def test_render_board_marks_a_won_game() -> None:
    from service.protocol import PublicState

    state = PublicState.model_validate(
        {
            "game": "TF",
            "draw": 1,
            "scoring": "normal",
            "columns": [{"down": 0, "up": []} for _ in range(7)],
            "stock": 0,
            "waste": [],
            "foundations": ["KS", "KH", "KD", "KC"],
            "score": 520,
            "score_display": "520",
            "moves": 150,
            "undo_available": 0,
            "won": True,
            "resigned": False,
        }
    )
    text = render_board(state, style=Style(color=False), version=151, elapsed=3725)
    assert "Foundations f1 K♠  f2 K♥  f3 K♦  f4 K♣" in text
    assert "Score 520   Moves 150   Time 1:02:05   Version 151" in text
    assert "Stock [] 0" in text and "*** Won! ***" in text


def test_command_line(
    service_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = build_parser().parse_args(
        ["play", "--game", "TF", "--draw", "3", "--code", CODE, "--lang", "fi", "--no-color"]
    )
    assert (args.game, args.draw, args.code, args.lang, args.color) == ("TF", 3, CODE, "fi", False)
    race = build_parser().parse_args(["race", "join", "ABC234", "--name", "Bob"])
    assert (race.race_command, race.join_code, race.name) == ("join", "ABC234", "Bob")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--draw", "2"])

    monkeypatch.setattr(sys, "stdin", io.StringIO("c1>c2\nd\nq\n"))
    assert main(["play", "--url", service_url, "--code", CODE, "--ascii"]) == 0
    output = capsys.readouterr().out
    assert f"New game {CODE}" in output and "X DS-TAB-1:" in output
    assert "6D" in output and "\x1b[" not in output
    assert last_status(output)[1:] == (1, 1)
