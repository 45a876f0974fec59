"""Hints use only what the player sees and saw on the way, are legal, and come fast."""

from __future__ import annotations

import random
import time

from solver_support import hidden_twin, random_position

from service.engine import new_game, parse_action
from service.solver import REASONS, Line, hint, line_of


def test_twins_with_different_hidden_cards_get_the_same_hint() -> None:
    # Hidden cards are the face-down ones and the stock cards never shown on the way.
    rnd = random.Random(7)
    compared = differ = 0
    for _ in range(300):
        game = random_position(rnd, 120)
        if not game.hidden_cards():
            continue
        twin = hidden_twin(game, rnd)
        assert line_of(twin) == line_of(game), game.position_text()
        assert hint(twin) == hint(game), game.position_text()
        compared += 1
        differ += twin.hidden_cards() != game.hidden_cards()
    assert compared > 200 and differ > 0.8 * compared


def test_the_hint_is_the_same_from_the_public_view_and_the_line() -> None:
    rnd = random.Random(8)
    for _ in range(50):
        game = random_position(rnd, 80)
        assert hint(game.public_view(), line_of(game)) == hint(game)
    # A view alone is taken for a position with no way behind it, as a new deal is.
    dealt = new_game("DS1-D1N-AAAAAAC")
    assert line_of(dealt) == Line()
    assert hint(dealt.public_view()) == hint(dealt)


def test_hints_are_legal_and_explained() -> None:
    rnd = random.Random(9)
    for _ in range(300):
        game = random_position(rnd, 150)
        suggestion = hint(game)
        assert (suggestion.message_en, suggestion.message_fi) == REASONS[suggestion.reason]
        if suggestion.action is None:
            assert suggestion.reason == ("game_over" if game.won else "no_useful_move")
            continue
        assert game.is_legal(parse_action(suggestion.action)), (
            game.position_text(),
            suggestion,
        )


def test_hints_are_fast() -> None:
    # CPU time of this thread: a busy machine must not make the test fail.
    rnd = random.Random(10)
    games = [random_position(rnd, 100) for _ in range(200)]
    took = []
    for game in games:
        started = time.thread_time()
        hint(game)
        took.append(time.thread_time() - started)
    took.sort()
    assert took[int(len(took) * 0.99) - 1] < 0.05
