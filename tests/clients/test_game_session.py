"""``GameSession`` against the real service: live state by patches, resume, watchers."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from solitaire_client import (
    Connection,
    GameSession,
    InvalidAction,
    NotFound,
    RuleRejected,
    ServiceClient,
    ServiceUnavailable,
    StaleVersion,
    Unauthorized,
)
from solitaire_client.connection import AnyServerMessage

from service.protocol import Change
from service.protocol.ws import ResultMessage
from tests.support import free_port

from .helpers import WINNING_CODE, WINNING_LINE, illegal_column_move


def _with_taps_and_undos(line: str) -> list[str]:
    """The winning line, with some foundation moves as taps and some undo + replay."""
    played: list[str] = []
    for index, notation in enumerate(line.split()):
        match = re.fullmatch(r"(c\d)>f\d", notation)
        if match and index % 3 == 0:
            notation = "t" + match.group(1)
        played.append(notation)
        if index % 40 == 20:
            played.extend(["u", notation])
    return played


async def assert_matches_server(
    client: ServiceClient, session: GameSession, token: str | None = None
) -> None:
    server = await client.get_state(session.game_id, token=token)
    assert server.version == session.version
    assert server.state == session.state
    assert server.state.model_dump() == session.state_dict()


async def test_full_game_to_the_win_with_local_patches(service_url: str) -> None:
    async with ServiceClient(service_url) as client:
        created = await client.create_game(code=WINNING_CODE)
        plays = _with_taps_and_undos(WINNING_LINE)
        async with GameSession(service_url, created.game_id, token=created.player_token) as game:
            assert game.role == "player" and game.version == 0
            assert game.state == created.state
            for step, notation in enumerate(plays, start=1):
                if notation == "u":
                    result = await game.undo()
                    assert result.notation == "u"
                else:
                    result = await game.play(notation)
                assert result.status == "accepted" and not result.duplicate
                assert result.version == game.version == step
                if step % 10 == 0:
                    await assert_matches_server(client, game)
            await assert_matches_server(client, game)
            assert game.state.won and game.state.foundations == ["KS", "KH", "KD", "KC"]
            assert game.changes_applied == len(plays) and game.resyncs == 0
            with pytest.raises(RuleRejected) as over:
                await game.play("d")
            assert over.value.rule_id == "TF-END-2"
        record = await client.record(created.game_id)
        assert record.won and record.version == len(plays)


async def test_rejections_over_websocket(service_url: str) -> None:
    async with ServiceClient(service_url) as client:
        created = await client.create_game("DS")
        notation = await illegal_column_move(client, created.game_id)
        async with GameSession(service_url, created.game_id, token=created.player_token) as game:
            with pytest.raises(RuleRejected) as rejected:
                await game.play(notation)
            error = rejected.value
            assert re.fullmatch(r"DS-[A-Z]+-\d+", error.rule_id)
            assert error.message_en and error.message_fi and error.message_en != error.message_fi
            assert error.version == 0 and game.version == 0
            with pytest.raises(InvalidAction) as invalid:
                await game.play("c3>c99")
            assert invalid.value.reason == "bad_index"
            with pytest.raises(RuleRejected) as no_undo:
                await game.undo()
            assert no_undo.value.rule_id == "DS-APP-4"
            await game.play({"type": "draw"})
            with pytest.raises(StaleVersion) as stale:
                await game.play("d", expected_version=0)
            assert stale.value.current_version == 1
            assert game.version == 1
            await assert_matches_server(client, game)
            resigned = await game.resign()
            assert resigned.notation == "resign" and game.version == 2
            with pytest.raises(RuleRejected) as over:
                await game.play("d")
            assert over.value.rule_id == "DS-END-2"
            record = await client.record(created.game_id)
            assert record.resigned and record.actions == ["d", "resign"]
        secret = await client.create_game("TF", secret=True)
        assert secret.code is None
        answer = await client.resign(secret.game_id)
        assert answer.notation == "resign"
        assert (await client.record(secret.game_id)).code.startswith("TF1-D1N-")


async def _play_some(client: ServiceClient, game: GameSession, count: int) -> int:
    """Plays ``count`` legal actions chosen by the server's list; returns how many."""
    for step in range(count):
        legal = (await client.legal_actions(game.game_id)).actions
        await game.play(legal[(step * 7) % len(legal)].notation)
    return count


async def test_resume_after_the_connection_drops(service_url: str) -> None:
    async with ServiceClient(service_url) as client:
        created = await client.create_game("DS", 3)
        token = created.player_token
        async with GameSession(service_url, created.game_id, token=token) as game:
            accepted = await _play_some(client, game, 8)
            ws = game.connection.websocket
            assert ws is not None
            ws.transport.abort()  # the network goes away without a closing handshake
            accepted += await _play_some(client, game, 8)
            assert game.connection.reconnects == 1
            await assert_matches_server(client, game)

            # Drop it right after a change made elsewhere: if its push is lost with the
            # connection, it arrives through `since` when the session resumes.
            other = await client.act(game.game_id, "d")
            accepted += 1
            ws = game.connection.websocket
            assert ws is not None
            ws.transport.abort()
            await game.wait_for_version(other.version)
            accepted += await _play_some(client, game, 4)
            assert game.connection.reconnects == 2
            await assert_matches_server(client, game)
            assert game.version == accepted and game.resyncs == 0
        record = await client.record(created.game_id, token=token)
        assert record.version == len(record.actions) == accepted


async def test_in_flight_request_is_resent_with_the_same_id(service_url: str) -> None:
    """The answer is lost with the connection: the retry must not play the move twice."""
    async with ServiceClient(service_url) as client:
        created = await client.create_game("DS")
        async with GameSession(service_url, created.game_id, token=created.player_token) as game:
            await game.play("d")
            connection = game.connection
            dispatch = connection._dispatch
            lost: list[str] = []

            async def lose_first_result(message: AnyServerMessage) -> None:
                if isinstance(message, ResultMessage) and not lost:
                    lost.append(message.id)
                    ws = connection.websocket
                    assert ws is not None
                    ws.transport.abort()
                    return
                await dispatch(message)

            connection._dispatch = lose_first_result  # type: ignore[method-assign]
            result = await game.play("d")
            assert lost == [result.id]
            assert result.duplicate and result.version == 2
            assert connection.reconnects == 1 and connection.resent_requests == 1
            assert game.version == 2
            await game.play("d")
            await assert_matches_server(client, game)
        record = await client.record(created.game_id)
        assert record.actions == ["d", "d", "d"]


async def test_a_missing_change_is_detected_and_recovered(service_url: str) -> None:
    async with ServiceClient(service_url) as client:
        created = await client.create_game("DS")
        async with GameSession(service_url, created.game_id, token=created.player_token) as game:
            connection = game.connection
            dispatch = connection._dispatch
            dropped: list[int] = []

            async def drop_version_3(message: AnyServerMessage) -> None:
                if isinstance(message, Change) and message.version == 3 and not dropped:
                    dropped.append(message.version)
                    return
                await dispatch(message)

            connection._dispatch = drop_version_3  # type: ignore[method-assign]
            for _ in range(3):
                await client.act(game.game_id, "d")  # played elsewhere: pushes only
            await client.act(game.game_id, "d")
            await game.wait_for_version(4)
            assert dropped == [3] and game.resyncs == 1
            await assert_matches_server(client, game)
            await game.play("d")
            await assert_matches_server(client, game)


async def test_watcher_sees_the_same_states(service_url: str) -> None:
    async with ServiceClient(service_url) as client:
        created = await client.create_game("DS", 1, "vegas")
        seen: list[int] = []
        async with (
            GameSession(service_url, created.game_id, token=created.player_token) as player,
            GameSession(service_url, created.game_id) as watcher,
        ):
            assert watcher.role == "watcher" and player.role == "player"
            watcher.add_listener(lambda update: seen.append(update.version))
            for step in range(25):
                legal = (await client.legal_actions(created.game_id)).actions
                await player.play(legal[step % len(legal)].notation)
                if step == 12:
                    await player.undo()
                await watcher.wait_for_version(player.version)
                assert watcher.state == player.state
            assert seen == list(range(1, player.version + 1))
            assert watcher.state.score_display.startswith(("$", "-$"))
            with pytest.raises(Unauthorized):
                await watcher.play("d")
            await assert_matches_server(client, watcher)


async def test_sessions_share_one_connection(service_url: str) -> None:
    async with ServiceClient(service_url) as client, Connection(service_url) as connection:
        games = [await client.create_game(g) for g in ("DS", "TF")]
        sessions = [
            await GameSession(
                game_id=g.game_id, token=g.player_token, connection=connection
            ).start()
            for g in games
        ]
        await asyncio.gather(*(s.play("d") for s in sessions))
        for session in sessions:
            assert session.version == 1
            await assert_matches_server(client, session)
        assert await connection.ping() < 5
        for session in sessions:
            await session.close()
        assert connection.connected


async def test_rate_limits_are_respected_and_recovered(redis_url: str) -> None:
    from .conftest import running_service

    with running_service(redis_url, rate_per_second=20, rate_burst=5) as service:
        async with ServiceClient(service.url) as client:
            created = await client.create_game("DS")
            async with GameSession(
                service.url, created.game_id, token=created.player_token
            ) as game:
                # Throttled to the welcome's limits: no message is refused.
                for _ in range(10):
                    await game.play("d")
                assert game.version == 10 and game.connection.resent_requests == 0

            # Unthrottled, a burst is partly refused; what was dropped is sent again.
            async with Connection(service.url, throttle=False) as connection:
                answers: list[Any] = await asyncio.gather(*(connection.ping() for _ in range(12)))
                assert len(answers) == 12 and connection.resent_requests > 0


async def test_subscribe_refusals_and_unreachable_service(service_url: str) -> None:
    async with ServiceClient(service_url) as client:
        created = await client.create_game("TF")
        with pytest.raises(NotFound):
            async with GameSession(service_url, "no-such-game"):
                pass
        with pytest.raises(Unauthorized):
            async with GameSession(service_url, created.game_id, token="wrong"):
                pass
    with pytest.raises(ServiceUnavailable):
        async with GameSession(f"http://127.0.0.1:{free_port()}", "any"):
            pass


async def test_resume_across_a_service_restart(redis_url: str) -> None:
    """The service goes away and comes back on the same address: play carries on."""
    from .conftest import ServiceThread, service_settings

    first = ServiceThread(service_settings(redis_url))
    first.start()
    second: ServiceThread | None = None
    try:
        async with ServiceClient(first.url) as client:
            created = await client.create_game("DS")
            async with GameSession(first.url, created.game_id, token=created.player_token) as game:
                await game.play("d")
                await asyncio.to_thread(first.stop)
                pending = asyncio.create_task(game.play("d"))  # sent once it is back
                await asyncio.sleep(0.3)
                assert not pending.done() and not game.connection.connected
                second = ServiceThread(service_settings(redis_url), port=first.port)
                await asyncio.to_thread(second.start)
                result = await asyncio.wait_for(pending, 10)
                assert result.version == 2 and game.version == 2
                assert game.connection.reconnects == 1
                await game.play("d")
                await assert_matches_server(client, game)

            # A service that stays away: the session gives up with ServiceUnavailable.
            async with GameSession(first.url, created.game_id, token=created.player_token) as game:
                game.connection.give_up_after = 0.3
                await asyncio.to_thread(second.stop)
                with pytest.raises(ServiceUnavailable):
                    await game.play("d")
                with pytest.raises(ServiceUnavailable):
                    await game.play("d")
    finally:
        first.stop()
        if second is not None:
            second.stop()


async def test_hints_and_was_it_winnable(service_url: str) -> None:
    async with ServiceClient(service_url) as client:
        created = await client.create_game("TF", code="TF1-D1N-AAAAAAB")
        async with GameSession(service_url, created.game_id, token=created.player_token) as game:
            first = await game.hint()
            assert first.hints_used == 1 and first.hint is not None
            assert first.hint.message_en and first.hint.message_fi
            second = await client.hint(created.game_id)
            assert second.hints_used == 2 and second.hint == first.hint
            await game.resign()
        verdicts = await client.analysis(created.game_id)
        assert verdicts.deal.result in ("won", "unwinnable", "unknown")
        assert verdicts.position is not None
