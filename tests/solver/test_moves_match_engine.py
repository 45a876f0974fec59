"""The solver's own move generation against the engine, on random positions of every mode.

Each solver move is played through the engine as the actions it stands for (draws,
recycle, then the move); the engine must accept them and reach the position the solver
computed. Without draws, the solver's moves must be exactly the engine's legal moves.
"""

from __future__ import annotations

import random

from solver_support import random_position

from service.engine import Move
from service.solver.position import all_moves, apply, position_of, rules_of


def test_moves_match_the_engine_on_random_positions() -> None:
    rnd = random.Random(20261201)
    for _ in range(120):
        game = random_position(rnd, 150)
        if game.won:
            continue
        rules = rules_of(game)
        position = position_of(game)
        without_draws: set[str] = set()
        for move in all_moves(rules, position):
            after, place = apply(rules, position, move)
            tokens = move.tokens(place)
            played = game.copy()
            for token in tokens:
                played.play_text(token)
            assert position_of(played) == after, (game.position_text(), tokens)
            if len(tokens) == 1:
                without_draws.add(tokens[0])
        engine = {str(a) for a in game.legal_actions() if isinstance(a, Move)}
        assert without_draws == engine, game.position_text()
