"""``ServiceClient`` against the real service: every call, and every typed refusal."""

from __future__ import annotations

import pytest
from solitaire_client import (
    InvalidAction,
    NotFound,
    ProtocolError,
    RuleRejected,
    ServiceClient,
    ServiceUnavailable,
    StaleVersion,
    Unauthorized,
    new_request_id,
)

from service.protocol import MoveAction
from tests.support import free_port

from .helpers import illegal_column_move


async def test_health_create_and_read(service_url: str) -> None:
    async with ServiceClient(service_url) as client:
        health = await client.health()
        assert health.status == "ok" and health.store == "redis"
        assert (await client.ready()).status == "ok"
        created = await client.create_game("TF", 3, "normal")
        assert created.code is not None
        assert created.code.startswith("TF1-D3N-") and created.version == 0
        assert created.state.game == "TF" and created.state.draw == 3
        assert client.token_for(created.game_id) == created.player_token

        first = await client.get_state(created.game_id)
        again = await client.get_state(created.game_id)
        assert again is first and client.etag_hits == 1  # answered 304 from the cache
        assert first.state == created.state

        played = await client.act(created.game_id, "d")
        assert played.version == 1 and played.change is not None and not played.duplicate
        fresh = await client.get_state(created.game_id)
        assert fresh.version == 1 and client.etag_hits == 1

        legal = await client.legal_actions(created.game_id)
        assert legal.version == 1 and any(a.notation == "d" for a in legal.actions)
        changes = await client.changes_since(created.game_id, 0)
        assert changes.recovered and [c.version for c in changes.changes] == [1]
        record = await client.record(created.game_id)
        assert record.actions == ["d"] and record.record == f"{created.code} d"


async def test_same_code_same_deal_and_action_objects(service_url: str) -> None:
    async with ServiceClient(service_url) as client:
        one = await client.create_game(code="DS1-D1N-AAAAAAB")
        two = await client.create_game(code="ds1-d1n-aaaaaab")
        assert one.game_id != two.game_id and one.state == two.state
        legal = await client.legal_actions(one.game_id)
        move = next(a.action for a in legal.actions if isinstance(a.action, MoveAction))
        accepted = await client.act(one.game_id, move)
        assert accepted.notation == f"{move.from_}>{move.to}"
        as_dict = {"type": "draw"}
        assert (await client.act(two.game_id, as_dict)).notation == "d"


async def test_request_ids_make_retries_safe(service_url: str) -> None:
    async with ServiceClient(service_url) as client:
        created = await client.create_game()
        request_id = new_request_id()
        first = await client.act(created.game_id, "d", request_id=request_id)
        retry = await client.act(created.game_id, "d", request_id=request_id)
        assert not first.duplicate and retry.duplicate
        assert retry.version == first.version == 1 and retry.change is None
        undo_id = new_request_id()
        undone = await client.undo(created.game_id, request_id=undo_id)
        again = await client.undo(created.game_id, request_id=undo_id)
        assert undone.version == again.version == 2 and again.duplicate
        assert (await client.get_state(created.game_id)).version == 2


async def test_typed_errors(service_url: str) -> None:
    async with ServiceClient(service_url) as client:
        created = await client.create_game("DS")
        game_id = created.game_id

        notation = await illegal_column_move(client, game_id)
        with pytest.raises(RuleRejected) as rejected:
            await client.act(game_id, notation)
        assert rejected.value.rule_id.startswith("DS-")
        assert rejected.value.message_en and rejected.value.message_fi
        assert rejected.value.message_en != rejected.value.message_fi
        assert rejected.value.version == 0 and rejected.value.code == "rule_violation"

        with pytest.raises(RuleRejected) as no_undo:
            await client.undo(game_id)
        assert no_undo.value.rule_id == "DS-APP-4"

        with pytest.raises(InvalidAction) as invalid:
            await client.act(game_id, "c12>c1")
        assert invalid.value.reason == "bad_index"
        with pytest.raises(InvalidAction) as bad:
            await client.act(game_id, "jump")
        assert bad.value.reason == "bad_notation"

        await client.act(game_id, "d")
        with pytest.raises(StaleVersion) as stale:
            await client.act(game_id, "d", expected_version=0)
        assert stale.value.current_version == 1

        with pytest.raises(Unauthorized):
            await client.act(game_id, "d", token="not-the-token")
        with pytest.raises(NotFound):
            await client.get_state("no-such-game")
        with pytest.raises(ProtocolError) as bad_code:
            await client.create_game(code="XX1-D1N-AAAAAAB")
        assert bad_code.value.code == "bad_code"


async def test_unreachable_service_is_service_unavailable() -> None:
    async with ServiceClient(f"http://127.0.0.1:{free_port()}", timeout=2) as client:
        with pytest.raises(ServiceUnavailable):
            await client.health()
