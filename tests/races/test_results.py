"""The race document's pure functions: status, finishing, ranking and the public view,
checked without a store or a server."""

from __future__ import annotations

from typing import Any

from service.races.results import finish_if_done, public_view, race_result, rank_players, status
from service.store.race_document import RaceDocument, RacePlayer


def _player(player_id: str, state: str = "playing", **extra: Any) -> RacePlayer:
    fields: dict[str, Any] = {
        "player_id": player_id,
        "name": player_id.title(),
        "token_hash": f"hash-{player_id}",
        "game_id": f"game-{player_id}",
        "ready": True,
        "state": state,
        "connected": True,
        "won_at": None,
        "resigned_at": None,
        **extra,
    }
    return RacePlayer(**fields)


def _doc(players: list[RacePlayer], **extra: Any) -> RaceDocument:
    fields: dict[str, Any] = {
        "race_id": "r1",
        "join_code": "ABCDEFGH",
        "game": "DS",
        "draw": 1,
        "scoring": "standard",
        "max_players": 4,
        "time_limit_seconds": None,
        "host": players[0].player_id,
        "code": "DS.D1N.secret",
        "created_at": 0,
        "start_at": 1_000,
        "ends_at": None,
        "finished_at": None,
        "players": players,
        "rematch_race_id": None,
    }
    fields.update(extra)
    return RaceDocument(**fields)


def _entry(player_id: str, state: str, finish: int | None, f: int, s: int, m: int) -> Any:
    return {
        "player_id": player_id,
        "state": state,
        "finish_ms": finish,
        "foundations": f,
        "score": s,
        "moves": m,
    }


def _figures(foundations: int = 0) -> dict[str, Any]:
    return {"foundations": foundations, "score": 0, "score_display": "0", "moves": 0}


def test_status_follows_the_start_and_the_finish() -> None:
    lobby = _doc([_player("a")], start_at=None)
    assert status(lobby, 5_000) == "lobby"
    started = _doc([_player("a")], start_at=2_000)
    assert status(started, 1_999) == "countdown"
    assert status(started, 2_000) == "running"
    started.finished_at = 3_000
    assert status(started, 2_500) == "finished"


def test_a_race_finishes_when_everyone_settled_or_at_its_end() -> None:
    playing = _doc([_player("a", "won"), _player("b")], ends_at=9_000)
    finish_if_done(playing, 5_000)
    assert playing.finished_at is None

    settled = _doc([_player("a", "won"), _player("b", "resigned")], ends_at=9_000)
    finish_if_done(settled, 5_000)
    assert settled.finished_at == 5_000

    # Noticed late, the end is still the limit, not the moment it was noticed.
    late = _doc([_player("a"), _player("b")], ends_at=9_000)
    finish_if_done(late, 12_000)
    assert late.finished_at == 9_000

    lobby = _doc([_player("a", "won")], start_at=None)
    finish_if_done(lobby, 5_000)
    assert lobby.finished_at is None


def test_ranking_puts_winners_first_by_time_then_the_others_by_their_figures() -> None:
    entries = [
        _entry("slow_winner", "won", 90_000, 52, 0, 300),
        _entry("fewer_moves", "playing", None, 30, 10, 200),
        _entry("fast_winner", "won", 60_000, 52, 0, 400),
        _entry("lower_score", "resigned", None, 30, 5, 100),
        _entry("more_moves", "playing", None, 30, 10, 250),
        _entry("more_cards", "playing", None, 40, 0, 500),
    ]
    ranked = rank_players(entries)
    assert [e["player_id"] for e in ranked] == [
        "fast_winner",
        "slow_winner",
        "more_cards",
        "fewer_moves",
        "more_moves",
        "lower_score",
    ]
    assert [e["rank"] for e in ranked] == [1, 2, 3, 4, 5, 6]


def test_the_result_names_the_code_and_each_players_record() -> None:
    doc = _doc(
        [_player("a", "won", won_at=31_000), _player("b", "resigned")],
        finished_at=40_000,
    )
    result = race_result(
        doc,
        {"a": _figures(52), "b": _figures(7)},
        {"a": ["1-F", "W-2"], "b": []},
    )
    assert result["code"] == doc.code
    assert result["records"] == {"a": f"{doc.code} 1-F W-2", "b": doc.code}
    first, second = result["ranking"]
    assert (first["player_id"], first["finish_ms"], first["rank"]) == ("a", 30_000, 1)
    assert (second["player_id"], second["finish_ms"], second["rank"]) == ("b", None, 2)


def test_the_public_view_hides_secrets_until_the_result_is_out() -> None:
    doc = _doc([_player("a"), _player("b", connected=False)])
    doc.result = {"code": doc.code, "ranking": [], "records": {}}
    progress = {"a": _figures(3), "b": _figures()}

    running = public_view(doc, 2_000, progress)
    assert running["status"] == "running" and running["server_time"] == 2_000
    assert running["result"] is None
    text = repr(running)
    for secret in (doc.code, "hash-a", "game-a", "game-b"):
        assert secret not in text
    states = {p["player_id"]: p["state"] for p in running["players"]}
    assert states == {"a": "playing", "b": "disconnected"}
    assert running["players"][0]["foundations"] == 3

    doc.finished_at = 3_000
    assert public_view(doc, 4_000, progress)["result"] == doc.result
