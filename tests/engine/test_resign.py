"""Resigning: the player ends a game where it stands, and it is then as final as a won one
(DS-END-2, TF-END-2): no action and no undo is accepted, and the state says so."""

from __future__ import annotations

import pytest
from engine_support import reject

from service.engine import (
    GameRecord,
    Resign,
    deserialize,
    new_game,
    parse_action,
)

CODES = ["DS1-D1N-AAAAAAB", "DS1-D3V-AAAAAAB", "TF1-D1N-AAAAAAB", "TF1-D3N-QWERTYU"]


@pytest.mark.parametrize("code", CODES)
def test_resign_ends_the_game_and_nothing_is_accepted_after(code: str) -> None:
    game = new_game(code)
    game.play_text("d")
    before = game.public_view()
    outcome = game.play(Resign())
    assert outcome.events() == [{"type": "resigned"}]
    assert outcome.score_delta == 0
    assert game.resigned and game.over and not game.won
    view = game.public_view()
    assert view["resigned"] is True
    assert view["undo_available"] == 0
    assert {k: v for k, v in view.items() if k not in ("resigned", "undo_available")} == {
        k: v for k, v in before.items() if k not in ("resigned", "undo_available")
    }
    final = "DS-END-2" if code.startswith("DS") else "TF-END-2"
    serialized = game.serialize()
    for text in ("d", "u", "resign"):
        reject(game, text, final)
        assert game.serialize() == serialized
    assert game.legal_actions() == []


@pytest.mark.parametrize("code", CODES)
def test_a_resigned_game_survives_serialization(code: str) -> None:
    game = new_game(code)
    game.play_text("d")
    game.play(Resign())
    copy = deserialize(game.serialize())
    assert copy.resigned
    assert copy == game
    assert copy.public_view() == game.public_view()
    assert game.serialize().endswith(" resigned")
    assert len(game.serialize().split()) == 11
    assert game.copy().resigned


def test_a_game_that_did_not_resign_serializes_as_before() -> None:
    game = new_game("DS1-D1N-AAAAAAB")
    assert len(game.serialize().split()) == 10
    assert not deserialize(game.serialize()).resigned


def test_resign_has_a_notation_and_replays_from_a_record() -> None:
    assert parse_action("resign") == Resign()
    assert parse_action(" RESIGN ") == Resign()
    assert str(Resign()) == "resign"
    record = GameRecord.parse("TF1-D1N-AAAAAAB d resign")
    assert record.replay().resigned
    assert str(record) == "TF1-D1N-AAAAAAB d resign"


def test_resign_is_legal_until_the_game_is_over_but_not_listed() -> None:
    game = new_game("TF1-D1N-AAAAAAB")
    assert game.is_legal(Resign())
    assert Resign() not in game.legal_actions()
    game.play(Resign())
    assert not game.is_legal(Resign())
