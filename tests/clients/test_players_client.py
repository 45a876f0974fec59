"""The SDK's player calls and the terminal's player commands against a real service:
players and devices, statistics, the daily challenge, boards and replays."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from solitaire_client import ServiceClient
from solitaire_client.cli import main
from solitaire_client.errors import ProtocolError

from .helpers import WINNING_CODE, WINNING_LINE


async def win(client: ServiceClient) -> str:
    """Wins the known deal as the client's player; returns the game id."""
    created = await client.create_game(code=WINNING_CODE)
    for notation in WINNING_LINE.split():
        await client.act(created.game_id, notation)
    return created.game_id


async def test_players_devices_and_statistics(service_url: str) -> None:
    async with ServiceClient(service_url) as laptop, ServiceClient(service_url) as phone:
        created = await laptop.create_player("Ada")
        assert laptop.player_token == created.player_token
        assert (await laptop.me()).name == "Ada"
        assert (await laptop.rename("Ada L")).name == "Ada L"

        code = await laptop.link_code()
        linked = await phone.link_device(code.link_code.lower())
        assert linked.player_id == created.player_id
        assert phone.player_token != laptop.player_token

        game_id = await win(phone)
        stats = await laptop.stats()
        figures = stats.modes["TF.D1N"]
        assert (figures.played, figures.won, figures.win_rate) == (1, 1, 1.0)
        assert figures.best_time_ms is not None and figures.fewest_moves is not None
        assert (await ServiceClient(service_url).stats(created.player_id)).name == "Ada L"

        replay = await laptop.replay(game_id)
        assert replay.code == WINNING_CODE and replay.result.won
        assert [a.notation for a in replay.actions] == WINNING_LINE.split()

        assert (await phone.revoke_other_devices()).revoked == 1
        with pytest.raises(ProtocolError) as refused:
            await laptop.me()
        assert refused.value.code == "unauthorized"


async def test_daily_challenge_board_and_leaderboard(service_url: str) -> None:
    async with ServiceClient(service_url) as client:
        me = await client.create_player("Bea")
        overview = await client.daily()
        assert {c.mode for c in overview.challenges} >= {"TF.D1N", "DS.D3N"}
        first = await client.play_daily(overview.date, "TF.D1N")
        again = await client.play_daily(overview.date, "TF.D1N")  # an answer lost, say
        assert first.ranked and first.code is None and again.game_id == first.game_id
        await client.act(first.game_id, "d")
        with pytest.raises(ProtocolError) as refused:
            await client.play_daily(overview.date, "TF.D1N")
        assert refused.value.code == "daily_attempt_used"
        await client.resign(first.game_id)

        mine = {c.mode: c.ranked_game_id for c in (await client.daily()).challenges}
        assert mine["TF.D1N"] == first.game_id
        board = await client.daily_board(overview.date, "TF.D1N")
        assert board.you is not None and board.you.player_id == me.player_id
        assert not board.public and board.you.game_id is None

        await win(client)
        streaks = await client.leaderboard("streak.TF.D1N")
        assert any(row.player_id == me.player_id for row in streaks.top)


async def test_a_whole_board_page_by_page(service_url: str) -> None:
    """``leaderboard_rows`` and ``daily_board_rows`` read every row once, in order, a few
    rows a request, as one big page has them."""
    pagers = [ServiceClient(service_url) for _ in range(4)]
    try:
        for index, client in enumerate(pagers):
            await client.create_player(f"Pager {index}")
            # A lost game of a mode of its own: every player on its streak board at 0.
            game = await client.create_game("DS", 3, "vegas")
            await client.act(game.game_id, "d")
            await client.resign(game.game_id)
            today = (await client.daily()).date
            attempt = await client.play_daily(today, "DS.D3N")
            for _ in range(index + 1):
                await client.act(attempt.game_id, "d")
            await client.resign(attempt.game_id)
        reader = pagers[0]
        rows = [row async for row in reader.leaderboard_rows("streak.DS.D3V", page=3)]
        whole = await reader.leaderboard("streak.DS.D3V", top=100)
        assert len(rows) >= 4 and rows == whole.top and whole.next_offset is None
        assert [row.rank for row in rows] == list(range(1, len(rows) + 1))
        second = await reader.leaderboard("streak.DS.D3V", top=2, offset=2)
        assert second.offset == 2 and second.top == rows[2:4]
        daily = [row async for row in reader.daily_board_rows(today, "DS.D3N", page=3)]
        assert daily == (await reader.daily_board(today, "DS.D3N", top=100)).top
        assert len(daily) >= 4
    finally:
        for client in pagers:
            await client.aclose()


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main([*args])
    return code, capsys.readouterr().out


def test_terminal_player_commands(
    service_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("SOLITAIRE_PLAYER_FILE", str(tmp_path / "token"))
    url = ["--url", service_url]
    assert run_cli(capsys, "player", "show", *url) == (
        2,
        "No player on this device: `solitaire player create NAME` first.\n",
    )
    code, out = run_cli(capsys, "player", "create", "Cleo", *url)
    assert code == 0 and out.startswith("Playing as Cleo (")
    token = (tmp_path / "token").read_text().strip()
    assert run_cli(capsys, "player", "rename", "Cleo B", *url) == (0, "Now playing as Cleo B\n")
    code, out = run_cli(capsys, "player", "link-code", *url)
    assert code == 0 and out.startswith("Link code ")

    async def win_as_cleo() -> str:
        async with ServiceClient(service_url, player_token=token) as client:
            return await win(client)

    game_id = asyncio.run(win_as_cleo())  # the command line runs its own event loop

    code, out = run_cli(capsys, "stats", *url)
    assert code == 0 and "Statistics of Cleo B" in out
    assert "TF.D1N" in out and "100%" in out

    code, out = run_cli(capsys, "daily", *url)
    assert code == 0 and out.startswith("Daily challenge ") and "TF.D1N" in out
    code, out = run_cli(capsys, "daily", "--board", "DS.D1N", *url)
    assert code == 0 and "(nobody yet)" in out

    code, out = run_cli(capsys, "leaderboard", "streak.TF.D1N", *url)
    assert code == 0 and "Cleo B" in out and "<- you" in out

    code, out = run_cli(capsys, "replay", "--ascii", "--no-color", *url, "--", game_id)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith(f"Replay of {game_id}, deal {WINNING_CODE}: won")
    assert lines[1].endswith(f"  {WINNING_LINE.split()[0]}")
    assert len([line for line in lines if line.strip()[:1].isdigit() and ". " in line]) >= len(
        WINNING_LINE.split()
    )

    code, out = run_cli(capsys, "replay", "no-such-game", *url)
    assert code == 1 and out.startswith("! not_found")
