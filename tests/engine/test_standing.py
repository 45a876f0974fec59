"""``standing`` reads a serialized game's figures without dealing it again."""

from __future__ import annotations

import random

import pytest

from service import engine
from service.engine.errors import InvalidPositionError


@pytest.mark.parametrize("code", ["DS1-D1N-AAAAAAB", "DS1-D3V-AAAAQZB", "TF1-D3N-AAAABCD"])
def test_standing_agrees_with_the_game_after_every_action(code: str) -> None:
    game = engine.new_game(code)
    rng = random.Random(code)
    for _ in range(300):
        read = engine.standing(game.serialize())
        assert read == game.standing() and not read.resigned
        assert read.foundations == game.cards_on_foundations()
        assert (read.score, read.moves) == (game.score, game.moves)
        assert read.score_display == game.score_display
        legal = game.legal_actions()
        if not legal:
            break
        game.play(rng.choice(legal))
    game.play(engine.Resign())
    read = engine.standing(game.serialize())
    assert read == game.standing() and read.resigned
    assert (read.foundations, read.score, read.moves) == (
        game.cards_on_foundations(),
        game.score,
        game.moves,
    )


@pytest.mark.parametrize("text", ["", "DS 1X", "DS 1N a b c d e f g h", "DS 1N c s w -Q x 0 AB -"])
def test_standing_refuses_what_is_not_a_serialized_state(text: str) -> None:
    with pytest.raises(InvalidPositionError):
        engine.standing(text)
