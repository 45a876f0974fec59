"""Modes (``DS.D1N``...): the text every store key, URL and JSON field uses, read and
written back unchanged, and the list of modes the games offer."""

from __future__ import annotations

import pytest

from service.engine import (
    GameCode,
    GameKind,
    InvalidCodeError,
    InvalidModeError,
    Mode,
    Scoring,
    SolitaireError,
    new_game,
)


def test_the_modes_are_those_the_games_offer_in_a_fixed_order() -> None:
    assert [str(mode) for mode in Mode.all()] == [
        "DS.D1N",
        "DS.D3N",
        "DS.D1V",
        "DS.D3V",
        "TF.D1N",
        "TF.D3N",
    ]


@pytest.mark.parametrize("mode", Mode.all(), ids=str)
def test_a_mode_reads_back_from_its_text(mode: Mode) -> None:
    assert Mode.parse(str(mode)) == mode


def test_a_mode_names_its_game_draw_and_scoring() -> None:
    assert Mode.parse("DS.D3V") == Mode(GameKind.DOUBLE, 3, Scoring.VEGAS)
    assert Mode.named("TF", 1, "normal") == Mode(GameKind.REFLECHI, 1, Scoring.NORMAL)
    assert str(Mode.named("DS", 3, "vegas")) == "DS.D3V"


@pytest.mark.parametrize(
    "text",
    ["", "DS", "DS.D1", "DS.D2N", "DS.D1X", "XX.D1N", "ds.d1n", "DS-D1N", " DS.D1N", "DS.D1N\n"],
)
def test_text_that_is_no_mode_is_refused(text: str) -> None:
    with pytest.raises(InvalidModeError):
        Mode.parse(text)
    assert Mode.find(text, Mode.all()) is None


def test_a_mode_error_is_a_value_error_of_the_engine() -> None:
    assert issubclass(InvalidModeError, ValueError)
    assert issubclass(InvalidModeError, SolitaireError)


def test_a_mode_no_game_offers_is_written_but_never_listed() -> None:
    vegas_reflechi = Mode.parse("TF.D1V")
    assert str(vegas_reflechi) == "TF.D1V"
    assert vegas_reflechi not in Mode.all()
    assert Mode.find("TF.D1V", Mode.all()) is None
    with pytest.raises(InvalidCodeError):
        vegas_reflechi.random_secret()


def test_find_keeps_to_the_modes_it_is_given() -> None:
    normal = [mode for mode in Mode.all() if mode.scoring is Scoring.NORMAL]
    assert Mode.find("DS.D3N", normal) == Mode.parse("DS.D3N")
    assert Mode.find("DS.D3V", normal) is None


def test_a_game_and_its_codes_have_the_mode_they_were_dealt_in() -> None:
    for mode in Mode.all():
        code = mode.code(12345)
        assert code == GameCode(mode.game, mode.draw, mode.scoring, 12345)
        assert Mode.of(new_game(code)) == mode
        secret = mode.random_secret()
        assert secret.secret
        assert Mode.of(new_game(secret)) == mode
