"""The solver's pruning against a plain search that prunes nothing.

``unwinnable`` is a proof: the complete pass may leave out a move only where some winning
line never needs it. Here its verdicts are checked against a search over every legal move
(the same move generator, which tests/solver/test_moves_match_engine.py holds to the
engine), with no forced moves, no dead-card tests and no merging of positions beyond
column order, on positions no deal was tuned on: random ones, endgames included, where
cards often have to come back from the foundations.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from solver_support import random_position, replay

from service.engine import GameKind, Scoring, from_position
from service.engine.cards import card_text
from service.solver import Budget, Result, solve
from service.solver import position as solver_position
from service.solver.ordering import Surroundings
from service.solver.position import Position, Rules, SolverMove, position_of, rules_of
from service.solver.search import _OutOfBudget, _Search

# 9D covers 7D, the next diamond, and can only go onto a black ten; both tens are home
# under their Jacks and Queens, and the Kings are in the stock. A win takes a black Queen
# back onto a red King while no card could be built on it yet, so that its Jack and ten
# can come back after it: a search that takes a card back only to build on it at once
# calls this position lost.
CHAIN_OF_RETURNS = "TF 3N |8D7D9D/|QD/|/|JDTD/|/|/| KDKCKSKH - QQ6Q 0 0"


def test_a_win_that_takes_cards_back_to_reach_the_ones_beneath() -> None:
    game = from_position(CHAIN_OF_RETURNS)
    rules, root = rules_of(game), position_of(game)
    line = _Search(rules, Budget(seconds=None, nodes=200_000)).run(root, quick=False)
    assert line is not None
    tokens = [token for move, place in line for token in move.tokens(place)]
    assert replay(game, tokens).won
    verdict = solve(game, Budget(seconds=None, nodes=200_000))
    assert verdict.result is Result.WON
    assert replay(game, verdict.line).won


def plain_search(rules: Rules, root: Position, node_limit: int) -> list[str] | None:
    """A winning line found by trying every legal move (the solver's order first), or None.

    None when every position reachable is seen, or ``node_limit`` of them: the caller
    only uses a line, which the engine then replays, so this search need not be complete.
    """

    def key(position: Position) -> tuple[object, ...]:
        columns = sorted(zip(position.columns, position.down, strict=True))
        return (tuple(columns), position.foundations, position.talon, position.pos)

    seen = {key(root)}
    # Each entry holds the line that reached it; children are pushed in reverse order so
    # that the move the solver would try first is taken next.
    stack: list[tuple[Position, tuple[str, ...]]] = [(root, ())]
    while stack:
        position, line = stack.pop()
        for move in reversed(_ordered_moves(rules, position)):
            child, place = solver_position.apply(rules, position, move)
            child_key = key(child)
            if child_key in seen:
                continue
            child_line = line + tuple(move.tokens(place))
            if solver_position.is_won(child):
                return list(child_line)
            if len(seen) >= node_limit:
                return None
            seen.add(child_key)
            stack.append((child, child_line))
    return None


def _ordered_moves(rules: Rules, position: Position) -> list[SolverMove]:
    moves = solver_position.all_moves(rules, position)
    return sorted(moves, key=Surroundings(rules, position).priority)


def random_position_text(rnd: random.Random, kind: str, scoring: str) -> str:
    """Cards left off the foundations scattered at random: columns, stock and waste."""
    per_suit = 2 if kind == "DS" else 1
    heights = [rnd.randint(0, 12) for _ in range(4 * per_suit)]
    cards = [
        (place // per_suit) * 13 + rank
        for place, height in enumerate(heights)
        for rank in range(height, 13)
    ]
    rnd.shuffle(cards)
    talon_size = rnd.randint(0, min(10, len(cards)))
    talon, rest = cards[:talon_size], cards[talon_size:]
    on_waste = rnd.randint(0, talon_size)
    columns: list[list[int]] = [[] for _ in range(9 if kind == "DS" else 7)]
    for card in rest:
        rnd.choice(columns).append(card)
    entries = []
    for column in columns:
        down = rnd.randint(0, max(len(column) - 1, 0)) if kind == "DS" else 0
        hidden = "".join(card_text(card) for card in column[:down])
        entries.append(hidden + "|" + "".join(card_text(card) for card in column[down:]))
    stock = "".join(card_text(card) for card in talon[on_waste:]) or "-"
    waste = "".join(card_text(card) for card in talon[:on_waste]) or "-"
    foundations = "".join("-A23456789TJQK"[height] for height in heights)
    draw = rnd.choice((1, 3))
    return f"{kind} {draw}{scoring} {'/'.join(entries)} {stock} {waste} {foundations} 0 0"


SINGLE_PASS_DRAW_3 = ((GameKind.DOUBLE, 3, Scoring.VEGAS),)

# Random Réfléchi positions, and positions of Double Solitaire's single pass (random ones
# with two decks are nearly always won; random play from a deal often loses them).
SAMPLES: dict[str, Callable[[random.Random], str]] = {
    "TF": lambda rnd: random_position_text(rnd, "TF", "N"),
    "DS.D3V": lambda rnd: random_position(rnd, 60, SINGLE_PASS_DRAW_3).position_text(),
}


@pytest.mark.parametrize(
    ("sample", "seed", "count", "nodes"),
    [("TF", 11, 100, 20_000), ("TF", 13, 100, 20_000), ("DS.D3V", 5, 40, 3_000)],
)
def test_no_unwinnable_verdict_is_contradicted(
    sample: str, seed: int, count: int, nodes: int
) -> None:
    rnd = random.Random(seed)
    checked = 0
    contradicted: list[str] = []
    for _ in range(count):
        text = SAMPLES[sample](rnd)
        game = from_position(text)
        rules, root = rules_of(game), position_of(game)
        try:
            line = _Search(rules, Budget(seconds=None, nodes=nodes)).run(root, quick=False)
        except _OutOfBudget:
            continue
        verdict = solve(game, Budget(seconds=None, nodes=nodes))
        if line is None or verdict.result is Result.UNWINNABLE:
            checked += 1
            win = plain_search(rules, root, 2 * nodes)
            if win is not None:
                assert replay(game, win).won  # a win the engine confirms
                contradicted.append(text)
    assert contradicted == []
    assert checked >= 10  # enough lost verdicts to check
