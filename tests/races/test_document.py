"""The race document reads and writes its JSON exactly as it stands in the store: field
for field, keys in their order, keys that appear only once they mean something kept
absent until then."""

from __future__ import annotations

from typing import Any

import orjson

from service.store.race_document import RaceDocument, RacePlayer


def _player_json(player_id: str, **changes: Any) -> dict[str, Any]:
    return {
        "account": "",
        "player_id": player_id,
        "name": player_id.title(),
        "token_hash": f"hash-{player_id}",
        "game_id": f"game-{player_id}",
        "ready": False,
        "state": "waiting",
        "connected": False,
        "won_at": None,
        "resigned_at": None,
        **changes,
    }


def _race_json(players: list[dict[str, Any]], **changes: Any) -> dict[str, Any]:
    return {
        "race_id": "r1",
        "join_code": "ABCDEFGH",
        "game": "TF",
        "draw": 1,
        "scoring": "normal",
        "max_players": 4,
        "time_limit_seconds": None,
        "host": players[0]["player_id"],
        "code": "TF1-D1N-AAAAAAB",
        "created_at": 1_000,
        "start_at": None,
        "ends_at": None,
        "finished_at": None,
        "players": players,
        "previous_race_id": None,
        "rematch_race_id": None,
        "winnable": False,
        **changes,
    }


def _text(data: dict[str, Any]) -> str:
    return orjson.dumps(data).decode()


def test_a_new_race_is_written_back_byte_for_byte() -> None:
    text = _text(_race_json([_player_json("a", account="acc")]))
    assert RaceDocument.parse(text).to_json() == text


def test_a_finished_race_keeps_its_late_keys_in_their_place() -> None:
    result = {"code": "TF1-D1N-AAAAAAB", "ranking": [], "records": {"a": "TF1-D1N-AAAAAAB"}}
    text = _text(
        _race_json(
            [
                _player_json("a", state="won", won_at=9_000, watches=1, connected=True),
                _player_json("b", state="resigned", resigned_at=8_000, watches=0),
            ],
            start_at=2_000,
            ends_at=62_000,
            finished_at=9_000,
            rematch_race_id="r2",
            winnable=True,
            announced=True,
            result=result,
        )
    )
    doc = RaceDocument.parse(text)
    assert doc.announced and doc.result == result and doc.players[0].watches == 1
    assert doc.to_json() == text


def test_changes_write_the_keys_that_now_mean_something() -> None:
    doc = RaceDocument.parse(_text(_race_json([_player_json("a")])))
    doc.players[0].watches = 0
    doc.announced = True
    written = orjson.loads(doc.to_json())
    assert list(written)[-1] == "announced"
    assert list(written["players"][0])[-1] == "watches"
    assert "result" not in written


def test_keys_older_documents_lack_read_as_what_they_stood_for() -> None:
    player = _player_json("a")
    del player["account"]
    race = _race_json([player])
    for key in ("rematch_race_id", "winnable"):
        del race[key]
    doc = RaceDocument.parse(_text(race))
    assert doc.players[0].account == ""
    assert doc.rematch_race_id is None and doc.winnable is False
    assert doc.player_of_game("game-a") == RacePlayer("a", "A", "hash-a", "game-a")
