"""Verdicts on small positions whose answer is worked out by hand, and on real deals.

Every winning line the solver returns is replayed through the engine and must end won.
"""

from __future__ import annotations

import pytest
from solver_support import replay

from service.engine import from_position, new_game, parse_card
from service.solver import Budget, Result, solve
from service.solver.deadlock import stuck_card
from service.solver.position import position_of, rules_of
from service.solver.search import _Search

# The King of clubs is the only card off the foundations.
ONE_FROM_WON = "TF 1N |KC/|/|/|/|/|/| - - KKKQ 0 0"

# Only spades are left, the Ace lies under the two: no spade can go home, spades never
# build on spades, no column is empty so no King can leave its foundation (and nothing
# else can be taken back), and drawing only turns the three of spades over and back.
BLOCKED = "TF 1N |AS2S/|4S/|5S/|6S/|7S/|8S9S/|TSJSQSKS 3S - -KKK 0 0"

# 4C lies on 3C, which must go home first; 4C can only go onto a red 5, and both red
# fives are on the foundations: every win takes a card back from a foundation.
NEEDS_RETURN = "TF 1N |3C4C/|6C/|KHQHJHTH9H8H7H6H/|KCQCJCTC9C8C7C5C/|/|/| - - K5K2 0 0"

# The stock is empty and the waste top (2S) cannot move; no column is empty and every
# column top is a spade: the only legal action is the recycle that brings AS back.
NEEDS_RECYCLE = "TF 1N |3S/|4S/|5S/|6S/|7S/|9S8S/|KSQSJSTS - AS2S -KKK 0 0"


def solved_and_replayed(position: str) -> list[str]:
    game = from_position(position)
    verdict = solve(game, Budget(seconds=20))
    assert verdict.result is Result.WON, verdict
    assert replay(game, verdict.line).won
    return list(verdict.line)


def test_one_move_from_won() -> None:
    assert solved_and_replayed(ONE_FROM_WON) == ["c1>f4"]


def test_blocked_position_is_unwinnable() -> None:
    game = from_position(BLOCKED)
    # By hand: nothing but draws and recycles is legal here, and they change nothing.
    assert {str(a) for a in game.legal_actions()} == {"d"}
    verdict = solve(game, Budget(seconds=20))
    assert verdict.result is Result.UNWINNABLE


def test_win_needs_a_card_back_from_a_foundation() -> None:
    line = solved_and_replayed(NEEDS_RETURN)
    assert any(token.startswith("f") for token in line)


def test_win_needs_a_recycle() -> None:
    game = from_position(NEEDS_RECYCLE)
    assert [str(a) for a in game.legal_actions()] == ["r"]
    line = solved_and_replayed(NEEDS_RECYCLE)
    assert line[0] == "r"


def test_budget_exhaustion_gives_unknown() -> None:
    game = new_game("TF1-D3N-AAACGOX")
    verdict = solve(game, Budget(seconds=None, nodes=10))
    assert verdict.result is Result.UNKNOWN
    assert verdict.line == ()
    assert verdict.nodes == 10


def test_a_won_game_needs_no_line() -> None:
    game = from_position("TF 1N |/|/|/|/|/|/| - - KKKK 0 0")
    assert solve(game).result is Result.WON


def test_position_text_is_accepted() -> None:
    assert solve(ONE_FROM_WON).line == ("c1>f4",)


@pytest.mark.parametrize(
    "code",
    ["TF1-D1N-AAAAAAA", "TF1-D3N-AAAAAAA", "DS1-D1N-AAAAAAA", "DS1-D3N-AAAAAAB", "DS1-D1V-AAAAAAA"],
)
def test_deals_end_won_when_the_solver_says_so(code: str) -> None:
    game = new_game(code)
    verdict = solve(game, Budget(seconds=2))
    if verdict.result is Result.WON:
        assert replay(game, verdict.line).won
    else:
        assert verdict.line == ()


# 7S lies on AS, with both red eights beneath them: it cannot go home before AS, it has no
# parent to go to, and nothing can take it along. The position is lost without a search.
DEAD_SEVEN = "TF 1N |8H8DAS7S/|/|/|/|/|/| 2S3S4S5S6S8S9STSJSQSKS9HTHJHQHKH9DTDJDQDKD - -77K 0 0"


def test_a_card_that_can_never_leave_is_a_proof() -> None:
    game = from_position(DEAD_SEVEN)
    rules, position = rules_of(game), position_of(game)
    assert stuck_card(rules, position) in {parse_card(c) for c in ("8H", "8D", "AS", "7S")}
    verdict = solve(game, Budget(seconds=20))
    assert verdict.result is Result.UNWINNABLE
    assert verdict.nodes == 0


def test_dead_card_check_passes_every_won_deal() -> None:
    # A deal the solver wins cannot hold a dead card: the check never fires on them.
    for code in ("TF1-D1N-AAAAAAA", "TF1-D3N-AAAAAAA", "DS1-D1N-AAAAAAA"):
        game = new_game(code)
        assert solve(game, Budget(seconds=5)).result is Result.WON
        assert stuck_card(rules_of(game), position_of(game)) is None


@pytest.mark.parametrize("code", ["TF1-D1N-OBKTJTI", "TF1-D1N-PMEHIMH", "TF1-D1N-FBQYDNC"])
def test_deep_reflechi_wins_come_within_a_few_thousand_positions(code: str) -> None:
    # Deals that best-first used to leave open after 20,000 positions (it widened every
    # level of equally rated positions in turn); a count of positions, not of seconds,
    # so the machine's speed plays no part.
    game = new_game(code)
    verdict = solve(game, Budget(seconds=None, nodes=10_000))
    assert verdict.result is Result.WON, verdict
    assert replay(game, verdict.line).won


def test_the_complete_pass_still_takes_a_card_back_from_a_foundation() -> None:
    # The win here needs a card back from a foundation, and proofs of lost deals rest on
    # the complete pass alone.
    game = from_position(NEEDS_RETURN)
    rules, root = rules_of(game), position_of(game)
    line = _Search(rules, Budget(seconds=20)).run(root, quick=False)
    assert line is not None
    tokens = [token for move, place in line for token in move.tokens(place)]
    assert replay(game, tokens).won
    assert any(token.startswith("f") for token in tokens)
