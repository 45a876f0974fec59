"""Dead cards in the single pass of Double Solitaire with Vegas scoring (DS-STOCK-5).

Without recycling the waste is a stack for good: a card in it comes off only after
every card above it. Positions here are small enough to decide by hand.
"""

from __future__ import annotations

import random

import pytest
from solver_support import replay

from service.engine import GameCode, GameKind, Scoring, from_position, new_game, parse_card
from service.solver import Budget, Result, solve
from service.solver.deadlock import stuck_card, stuck_in_waste
from service.solver.position import Position, Rules, position_of, rules_of


def cards(text: str) -> bytes:
    return bytes(parse_card(text[i : i + 2]) for i in range(0, len(text), 2))


# The waste, bottom to top: both red Kings of each suit, both jacks of clubs, then a
# queen of clubs. That queen can go home only after a jack of clubs, and onto a column
# only onto a red King: all of them lie beneath it, and nothing can take it away first.
# The stock is spent and Vegas allows no recycle, so the game is lost.
LOST_IN_THE_WASTE = "DS 1V |KC/|KC/|QC/|/|/|/|/|/| - KHKHKDKDJCJCQC KKQQQQTT 366 120"

# The same cards with Normal scoring: a recycle brings the red Kings back up.
RECYCLED = LOST_IN_THE_WASTE.replace("DS 1V", "DS 1N").replace(" 366 ", " 900 ")

# A rule that called a waste card dead because no parent is on the table would be wrong:
# here every red King is on a foundation, and one of them can come back to an empty
# column (DS-FND-4) to take the queen of clubs off the jacks.
PARENT_ON_A_FOUNDATION = "DS 1V |KC/|QC/|/|/|/|/|/|/| - JCKCJCQC KKKKKKTT 386 120"


def test_a_card_stuck_in_the_waste_is_a_proof() -> None:
    game = from_position(LOST_IN_THE_WASTE)
    assert stuck_card(rules_of(game), position_of(game)) is not None
    verdict = solve(game, Budget(seconds=20))
    assert verdict.result is Result.UNWINNABLE
    assert verdict.nodes == 0


def test_with_recycling_the_same_cards_are_won() -> None:
    game = from_position(RECYCLED)
    assert stuck_card(rules_of(game), position_of(game)) is None
    verdict = solve(game, Budget(seconds=20))
    assert verdict.result is Result.WON
    assert replay(game, verdict.line).won


def test_a_parent_on_a_foundation_keeps_a_waste_card_alive() -> None:
    game = from_position(PARENT_ON_A_FOUNDATION)
    assert stuck_card(rules_of(game), position_of(game)) is None
    verdict = solve(game, Budget(seconds=20))
    assert verdict.result is Result.WON
    line = replay(game, verdict.line)
    assert line.won
    assert any(token.startswith("f") and ">c" in token for token in verdict.line)


# The check on bare solver positions: cards left out count as free (home or anywhere).
_VEGAS_1 = Rules(GameKind.DOUBLE, 1, True)
_VEGAS_3 = Rules(GameKind.DOUBLE, 3, True)
_COLUMNS = (b"",) * 9
_DOWN = (0,) * 9
_HOMES = (13, 13, 3, 3, 3, 3, 0, 0)  # red suits up to the three, no club home yet
_CIRCLE = cards("4H4H4D4DACAC3C")  # the three of clubs on every card it needs


def test_the_waste_is_a_stack() -> None:
    waste = Position(_COLUMNS, _DOWN, _HOMES, _CIRCLE, len(_CIRCLE))
    assert stuck_card(_VEGAS_1, waste) in set(_CIRCLE)


def test_the_stock_is_not_a_stack_with_draw_one() -> None:
    # Each card comes up on its own: the Aces go home as they come, then the three.
    stock = Position(_COLUMNS, _DOWN, _HOMES, _CIRCLE, 0)
    assert stuck_card(_VEGAS_1, stock) is None


def test_draw_three_turns_the_stock_over_in_groups() -> None:
    # Groups 4H4H4D / 4D AC AC / 3C: the three of clubs comes up alone and the Aces lie
    # on top of their group, so nothing is stuck; in the waste the same order is lost.
    assert stuck_card(_VEGAS_3, Position(_COLUMNS, _DOWN, _HOMES, _CIRCLE, 0)) is None
    waste = Position(_COLUMNS, _DOWN, _HOMES, _CIRCLE, len(_CIRCLE))
    assert stuck_card(_VEGAS_3, waste) in set(_CIRCLE)
    # With the four red fours on the waste, the last group is AC AC 3C: the three lies
    # on both Aces, which come up only after it. It is still not stuck: the fours on
    # the waste can go home and come back to a column, where the three can go.
    assert stuck_card(_VEGAS_3, Position(_COLUMNS, _DOWN, _HOMES, _CIRCLE, 4)) is None


def test_recycling_frees_the_talon() -> None:
    normal = Rules(GameKind.DOUBLE, 1, False)
    assert stuck_card(normal, Position(_COLUMNS, _DOWN, _HOMES, _CIRCLE, len(_CIRCLE))) is None


def test_the_quick_waste_test() -> None:
    waste = Position(_COLUMNS, _DOWN, _HOMES, _CIRCLE, len(_CIRCLE))
    assert stuck_in_waste(_VEGAS_1, waste) == parse_card("3C")
    # Not drawn yet, or with recycling: nothing is buried for good.
    assert stuck_in_waste(_VEGAS_1, Position(_COLUMNS, _DOWN, _HOMES, _CIRCLE, 0)) is None
    normal = Rules(GameKind.DOUBLE, 1, False)
    assert stuck_in_waste(normal, waste) is None
    # One red four above the three instead of beneath it: it can leave first.
    moved = cards("4H4D4DACAC3C4H")
    assert stuck_in_waste(_VEGAS_1, Position(_COLUMNS, _DOWN, _HOMES, moved, len(moved))) is None
    # One Ace of clubs already home: the three needs only the two of clubs (left out,
    # so free) to go home.
    homes = (*_HOMES[:6], 1, 0)
    assert stuck_in_waste(_VEGAS_1, Position(_COLUMNS, _DOWN, homes, _CIRCLE, len(_CIRCLE))) is None


def test_a_parent_on_a_foundation_is_not_buried() -> None:
    game = from_position(PARENT_ON_A_FOUNDATION)
    assert stuck_in_waste(rules_of(game), position_of(game)) is None


def test_the_quick_waste_test_never_goes_beyond_the_whole_one() -> None:
    # The quick test assumes more (every card off the waste is free), so whatever it
    # calls stuck the whole test must call stuck too, on positions of real deals.
    rnd = random.Random(5)
    fired = 0
    for _ in range(150):
        game = new_game(
            GameCode(GameKind.DOUBLE, rnd.choice((1, 3)), Scoring.VEGAS, rnd.randrange(26**7))
        )
        for _ in range(rnd.randrange(200)):
            actions = [a for a in game.legal_actions() if str(a) != "u"]
            if not actions or game.won:
                break
            game.play(rnd.choice(actions))
        rules, position = rules_of(game), position_of(game)
        if stuck_in_waste(rules, position) is not None:
            fired += 1
            assert stuck_card(rules, position) is not None, game.position_text()
    assert fired > 10


# Deals of the benchmark's sample that the Vegas passes win (none was won before them).
SINGLE_PASS_WINS = ("DS1-D1V-XCOFMSN", "DS1-D1V-PYAILLX", "DS1-D1V-BZOGPPT")


@pytest.mark.parametrize("code", SINGLE_PASS_WINS)
def test_single_pass_deals_are_won(code: str) -> None:
    game = new_game(GameCode.parse(code))
    verdict = solve(game, Budget(seconds=None, nodes=100_000))
    assert verdict.result is Result.WON
    assert replay(new_game(GameCode.parse(code)), verdict.line).won
