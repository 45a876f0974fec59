"""Won games: the last move, and whole games played to the end with the scoring identities.

Whole games start from deal-shaped positions (the deal's column sizes and face-down cards,
a full stock, empty foundations, score 0 or -104) whose columns are sorted so that a
simple player wins: foundations first, then waste to column, then the stock.
"""

from __future__ import annotations

import pytest
from engine_support import (
    MODES,
    Tally,
    accept,
    assert_conserved,
    assert_public_view_hides,
    cols,
    easy_position,
    greedy_finish,
    position,
    reject,
    setup,
)

from service.engine import (
    WASTE,
    Move,
    Outcome,
    Recycle,
    Scoring,
    Tap,
    column,
    deserialize,
    foundation,
    from_position,
)
from service.engine.cards import RANK_CHARS, cards_text

# --------------------------------------------------------------------------- the last move


@pytest.mark.parametrize(
    ("kwargs", "action"),
    [
        ({"cols": ["KC"]}, "c1>f"),
        ({"cols": ["KC"]}, "tc1"),
        ({"cols": ["KC"]}, "ttc1"),
        ({"waste": "KC"}, "w>f8"),
        ({"waste": "KC"}, "tw"),
    ],
)
def test_DS_END_1_the_104th_card_wins(kwargs: dict[str, object], action: str) -> None:
    game = setup("DS", found="KKKKKKKQ", score=1215, **kwargs)
    assert game.cards_on_foundations() == 103 and not game.won
    out = accept(game, action)
    assert out.won and game.won and out.target == foundation(7)
    assert out.events()[-1] == {"type": "won"}
    assert game.score == 1225
    assert game.public_view()["won"] is True and game.undo_available == 0
    reject(game, "u", "DS-END-2")
    assert game.legal_actions() == []
    # The won state survives the text forms.
    assert deserialize(game.serialize()).won
    assert from_position(game.position_text()).won


def test_DS_END_1_either_place_of_the_row_can_finish() -> None:
    game = setup("DS", cols=["KS"], found="QKKKKKKK")
    assert accept(game, "c1>f").target == foundation(0) and game.won


def test_TF_END_1_the_52nd_card_wins() -> None:
    game = setup("TF", cols=["KH"], found="KQKK", score=510)
    out = accept(game, "ttc1")
    assert out.won and game.won and out.target == foundation(1)
    assert game.score == 520
    reject(game, "u", "TF-END-2")


def _sorted_waste(game: str) -> str:
    """Every card on the waste, so that the top card is always the next foundation card."""
    copies = 2 if game == "DS" else 1
    order = [rank + suit for suit in "SHDC" for rank in RANK_CHARS for _ in range(copies)]
    return "".join(reversed(order))


@pytest.mark.parametrize("draw", ["1", "3"])
def test_DS_SCORE_V_every_card_placed_by_a_move_ends_at_416(draw: str) -> None:
    game = from_position(position("DS", mode=draw + "V", waste=_sorted_waste("DS")))
    assert game.score == -104 and game.score_display == "-$104"
    outs, scores = [], []
    for _ in range(104):
        outs.append(accept(game, "tw"))
        scores.append(game.score)
    assert game.won and outs[-1].won and not any(o.won for o in outs[:-1])
    assert game.score == 416 and game.score_display == "$416"
    assert [o.target for o in outs[:2]] == [foundation(0), foundation(1)]
    assert [o.score_delta for o in outs] == [5] * 104
    # Still negative with 20 cards on the foundations, positive with the 21st.
    assert (scores[19], scores[20]) == (-4, 1)


def test_DS_SCORE_N_every_card_from_the_waste_scores_10() -> None:
    game = from_position(position("DS", waste=_sorted_waste("DS")))
    for _ in range(104):
        accept(game, "w>f")
    assert game.won and game.score == 1040  # no flips and no waste-to-column moves here


def test_TF_SCORE_2_every_card_from_the_waste_scores_10() -> None:
    game = from_position(position("TF", waste=_sorted_waste("TF")))
    for _ in range(52):
        accept(game, "tw")
    assert game.won and game.score == 520


# --------------------------------------------------------------------------- whole games

SEEDS = range(4)


def _play_to_the_end(text: str) -> tuple[Tally, int]:
    game = from_position(text)
    tallies = [Tally()]

    def check(score_before: int, out: Outcome) -> None:
        if isinstance(out.action, Recycle):
            # The floor at 0: a recycle costs what the score holds, at most 100.
            assert out.score_delta == -min(100, score_before)
        tallies.append(tallies[-1].after(out))
        assert game.score == tallies[-1].expected_score(game.scoring)
        if game.scoring is Scoring.NORMAL:
            assert game.score >= 0
        else:
            assert game.score == -104 + 5 * game.cards_on_foundations()

    greedy_finish(game, on_step=check)
    assert game.won and game.legal_actions() == []
    assert_conserved(game)
    assert_public_view_hides(game)
    return tallies[-1], game.score


@pytest.mark.parametrize("mode", MODES["DS"])
@pytest.mark.parametrize("seed", SEEDS)
def test_DS_whole_game_scores(mode: str, seed: int) -> None:
    text = easy_position("DS", mode, seed)
    start = from_position(text)
    assert sum(start.down) == 36 and len(start.stock) == 59
    assert start.score == (-104 if mode.endswith("V") else 0)
    tally, score = _play_to_the_end(text)
    assert tally.placed == 104 and tally.flips == 36 and tally.returns == 0
    if mode.endswith("V"):
        assert score == 416 and tally.recycle_cost == 0
    else:
        # DS-SCORE-N: 104 x 10 + 36 x 5, plus 5 per waste card to a column, less recycles.
        assert score == 1220 + 5 * tally.waste_to_column - tally.recycle_cost


@pytest.mark.parametrize("mode", MODES["TF"])
@pytest.mark.parametrize("seed", SEEDS)
def test_TF_whole_game_scores(mode: str, seed: int) -> None:
    text = easy_position("TF", mode, seed)
    tally, score = _play_to_the_end(text)
    assert tally.placed == 52 and tally.flips == 0
    # TF-SCORE-2: 520 for the foundation cards, +5 per waste card to a column, less recycles.
    assert score == 520 + 5 * tally.waste_to_column - tally.recycle_cost


def test_a_whole_game_uses_recycles_and_waste_moves() -> None:
    """The easy positions really exercise the identity's terms, not just the 1220."""
    totals = Tally()
    for seed in SEEDS:
        tally, _ = _play_to_the_end(easy_position("DS", "1N", seed))
        totals.waste_to_column += tally.waste_to_column
        totals.recycle_cost += tally.recycle_cost
    assert totals.waste_to_column > 0 and totals.recycle_cost > 0


def test_undo_of_the_winning_move_is_refused_but_the_one_before_works() -> None:
    game = setup("DS", cols=["QC", "KC"], found="KKKKKKKJ", score=500)
    accept(game, "c1>f")
    accept(game, "u")
    assert cols(game)[:2] == ["|QC", "|KC"]
    accept(game, "c1>f")
    accept(game, Tap(column(1), double=True))
    assert game.won
    reject(game, "u", "DS-END-2")
    reject(game, Move(WASTE, foundation(0)), "DS-END-2")


def test_easy_positions_are_deal_shaped() -> None:
    for mode in MODES["DS"]:
        game = from_position(easy_position("DS", mode, 0))
        assert [len(c) for c in game.columns] == list(range(1, 10))
        assert game.down == list(range(9))
        assert game.foundations == [0] * 8 and game.waste == []
    game = from_position(easy_position("TF", "1N", 0))
    assert [len(c) for c in game.columns] == list(range(1, 8)) and game.down == [0] * 7
    assert len(cards_text(game.stock)) == 2 * 24
