"""Double Solitaire rules (docs/rules.md, DS-*), one scenario per accepted or refused case.

Each test builds its position from position text, plays one or a few actions and checks
the rule id of a refusal, that a refusal changes nothing, and what an accepted action did.
"""

from __future__ import annotations

import pytest
from engine_support import accept, cols, fields, invalid, reject, setup

from service.engine import (
    WASTE,
    DoubleSolitaire,
    Draw,
    Move,
    Recycle,
    Scoring,
    Tap,
    Undo,
    column,
    format_score,
    foundation,
)
from service.engine.cards import parse_card

# --------------------------------------------------------------------------- tableau


def test_DS_TAB_1_accepts_red_seven_on_black_eight() -> None:
    game = setup(cols=["8S", "7H"])
    out = accept(game, "c2>c1")
    assert out.action == Move(column(1), column(0))
    assert cols(game)[:2] == ["|8S7H", "|"]
    assert out.score_delta == 0 and game.score == 0


def test_DS_TAB_1_accepts_black_card_on_red() -> None:
    game = setup(cols=["8D", "7C"])
    accept(game, "c2>c1")
    assert cols(game)[0] == "|8D7C"


def test_DS_TAB_1_rejects_same_colour() -> None:
    game = setup(cols=["8S", "7C"])
    reject(game, "c2>c1", "DS-TAB-1")
    game = setup(cols=["8H", "7D"])
    reject(game, "c2>c1", "DS-TAB-1")


def test_DS_TAB_1_rejects_wrong_rank() -> None:
    game = setup(cols=["8S", "6H", "8H", "9S"])
    reject(game, "c2>c1", "DS-TAB-1")
    reject(game, "c4>c3", "DS-TAB-1")  # one rank higher, not lower


def test_DS_TAB_1_target_is_the_last_card_of_the_column() -> None:
    game = setup(cols=["8S9H", "7H"])  # 8S lies under 9H: only 9H is a target
    reject(game, "c2>c1", "DS-TAB-1")


def test_DS_TAB_1_applies_to_the_waste_card() -> None:
    game = setup(cols=["8S", "8H"], waste="7H", rest=8)
    reject(game, "w>c2", "DS-TAB-1")
    accept(game, "w>c1")
    assert cols(game)[0] == "|8S7H"


def test_DS_TAB_2_moves_a_run_from_any_face_up_card() -> None:
    # In Double Solitaire the cards on the picked card need not be in sequence:
    # only the bottom card of the unit (9S) has to fit.
    game = setup(cols=["4C|9S8H5C2D", "TH"])
    out = accept(game, "c1:4>c2")
    assert out.cards == tuple(parse_card(t) for t in ("9S", "8H", "5C", "2D"))
    assert cols(game)[:2] == ["|4C", "|TH9S8H5C2D"]


def test_DS_TAB_2_moves_a_run_from_the_middle() -> None:
    game = setup(cols=["KD|QS8H5C", "9S"])
    accept(game, "c1:2>c2")
    assert cols(game)[:2] == ["KD|QS", "|9S8H5C"]


def test_DS_TAB_2_rejects_face_down_cards() -> None:
    game = setup(cols=["5C|9S", "TH"])
    reject(game, "c1:2>c2", "DS-TAB-2")


def test_DS_TAB_2_bottom_card_of_the_run_must_fit() -> None:
    game = setup(cols=["9S8H", "TH", "9C"])
    reject(game, "c1:2>c3", "DS-TAB-1")
    accept(game, "c1:2>c2")


def test_DS_TAB_3_a_card_fits_on_either_copy() -> None:
    game = setup(cols=["7H", "7H", "7D", "7D", "6S", "6C"])
    listed = {str(a) for a in game.legal_actions()}
    assert {f"c5>c{j}" for j in range(1, 5)} <= listed
    assert {f"c6>c{j}" for j in range(1, 5)} <= listed
    for target in range(4):
        trial = game.copy()
        accept(trial, Move(column(4), column(target)))
        assert cols(trial)[target].endswith("6S")


def test_DS_WASTE_1_only_the_top_card_plays() -> None:
    game = setup(cols=["8S", "TD"], waste="7H9C", rest=8)
    reject(game, "w:2>c1", "DS-WASTE-1")
    reject(game, "w>c1", "DS-TAB-1")  # 7H lies under 9C
    accept(game, "w>c2")
    accept(game, "w>c1")
    assert fields(game)[4] == "-"


def test_DS_WASTE_1_top_card_goes_to_a_foundation() -> None:
    game = setup(waste="AH", rest=8)
    out = accept(game, "w>f")
    assert out.target == foundation(2)
    assert game.foundations[2] == 1


# --------------------------------------------------------------------------- flips


def test_DS_FLIP_1_last_hidden_card_turns_up_with_5_points() -> None:
    game = setup(cols=["5C|9S", "TH"])
    out = accept(game, "c1>c2")
    assert out.flipped == parse_card("5C")
    assert cols(game)[0] == "|5C"
    assert out.score_delta == 5 and game.score == 5
    assert {"type": "flipped", "pile": "c1", "card": "5C"} in out.events()


def test_DS_FLIP_1_flip_adds_to_the_foundation_points() -> None:
    game = setup(cols=["5C|AS"])
    out = accept(game, "c1>f")
    assert out.flipped == parse_card("5C")
    assert out.score_delta == 15


def test_DS_FLIP_1_only_the_new_last_card_turns_up() -> None:
    game = setup(cols=["5C4D|9S", "TH"])
    accept(game, "c1>c2")
    assert cols(game)[0] == "5C|4D"
    assert game.down[0] == 1


def test_DS_FLIP_1_earns_nothing_under_vegas() -> None:
    game = setup(mode="1V", cols=["5C|9S", "TH"])
    out = accept(game, "c1>c2")
    assert out.flipped is not None and out.score_delta == 0 and game.score == -104


def test_DS_FLIP_1_no_flip_when_the_column_empties() -> None:
    game = setup(cols=["9S", "TH"])
    out = accept(game, "c1>c2")
    assert out.flipped is None and cols(game)[0] == "|"


# --------------------------------------------------------------------------- empty columns


def test_DS_EMPTY_1_accepts_a_king_with_its_cards() -> None:
    game = setup(cols=["", "5C|KSQH"])
    out = accept(game, "c2:2>c1")
    assert cols(game)[:2] == ["|KSQH", "|5C"]
    assert out.flipped == parse_card("5C")


def test_DS_EMPTY_1_accepts_a_king_from_the_waste() -> None:
    game = setup(cols=[""], waste="KD", rest=8)
    accept(game, "w>c1")
    assert cols(game)[0] == "|KD"


def test_DS_EMPTY_1_rejects_a_queen_even_to_uncover_a_hidden_card() -> None:
    game = setup(cols=["", "5C|QH"])
    reject(game, "c2>c1", "DS-EMPTY-1")


def test_DS_EMPTY_1_rejects_any_other_card_from_the_waste() -> None:
    game = setup(cols=[""], waste="QD", rest=8)
    reject(game, "w>c1", "DS-EMPTY-1")


# --------------------------------------------------------------------------- foundations


def test_DS_FND_1_foundation_starts_with_an_ace() -> None:
    game = setup(cols=["2S", "AS"])
    reject(game, "c1>f", "DS-FND-1")
    accept(game, "c2>f")
    accept(game, "c1>f")
    assert game.foundations[:2] == [2, 0]


def test_DS_FND_1_grows_one_rank_at_a_time() -> None:
    game = setup(cols=["3S"], found="A")
    reject(game, "c1>f", "DS-FND-1")
    reject(game, "tc1", "DS-APP-2")


def test_DS_FND_1_rejects_a_wrong_suit() -> None:
    game = setup(cols=["2H"], found="AA")  # both spade places hold an ace, no heart
    reject(game, "c1>f", "DS-FND-1")


def test_DS_FND_1_one_card_at_a_time() -> None:
    game = setup(cols=["2SAS"])
    reject(game, "c1:2>f", "DS-FND-1")


def test_DS_FND_2_each_suit_has_its_own_row_of_two() -> None:
    aces = ["AS", "AS", "AH", "AH", "AD", "AD", "AC", "AC"]
    game = setup(cols=aces)
    places = [accept(game, f"c{i + 1}>f").target for i in range(8)]
    assert places == [foundation(p) for p in range(8)]
    assert fields(game)[5] == "AAAAAAAA"


def test_DS_FND_2_second_card_of_a_rank_takes_the_second_place() -> None:
    game = setup(cols=["2S", "2S", "3S"], found="AA")
    assert accept(game, "c1>f").target == foundation(0)
    assert accept(game, "c2>f").target == foundation(1)
    assert accept(game, "c3>f").target == foundation(0)
    assert game.foundations[:2] == [3, 2]


def test_DS_FND_2_clubs_go_to_the_last_row() -> None:
    game = setup(cols=["AC", "AC", "2C"])
    assert [accept(game, f"c{i}>f").target for i in (1, 2, 3)] == [
        foundation(6),
        foundation(7),
        foundation(6),
    ]


def test_DS_FND_3_named_place_is_treated_as_the_area() -> None:
    game = setup(cols=["AS", "AH"])
    out = accept(game, "c1>f7")  # f7 is a clubs place: the ace of spades goes to f1
    assert out.action == Move(column(0), foundation(0))
    assert str(out.action) == "c1>f1"
    assert out.target == foundation(0) and game.foundations == [1, 0, 0, 0, 0, 0, 0, 0]
    out = accept(game, "c2>f4")  # the first fitting place of the hearts row is f3
    assert str(out.action) == "c2>f3"


def test_DS_FND_3_takes_the_first_fitting_place_of_the_row() -> None:
    game = setup(cols=["AS"], found="A")
    out = accept(game, "c1>f1")  # f1 already holds an ace; f2 is where it fits
    assert out.target == foundation(1)
    assert str(out.action) == "c1>f2"


def test_DS_FND_3_dropping_a_card_that_fits_nowhere_is_refused() -> None:
    game = setup(cols=["5H"])
    reject(game, "c1>f3", "DS-FND-1")


def test_DS_FND_3_resolve_reports_the_place() -> None:
    game = setup(waste="AD", rest=8)
    assert game.resolve(Move(WASTE, foundation(0))) == Move(WASTE, foundation(4))


def test_DS_FND_4_top_card_returns_to_a_column_for_no_points() -> None:
    game = setup(cols=["TH"], found="9", score=120)
    out = accept(game, "f1>c1")
    assert out.score_delta == 0 and game.score == 120
    assert cols(game)[0] == "|TH9S" and game.foundations[0] == 8


def test_DS_FND_4_returned_card_scores_again_when_placed_again() -> None:
    game = setup(cols=["TH"], found="9", score=120)
    accept(game, "f1>c1")
    assert accept(game, "c1>f").score_delta == 10
    assert game.score == 130


def test_DS_FND_4_king_returns_to_an_empty_column() -> None:
    game = setup(cols=[""], found="K", rest=8)
    accept(game, "f1>c1")
    assert cols(game)[0] == "|KS"


def test_DS_FND_4_return_obeys_the_tableau_rules() -> None:
    game = setup(cols=["TS", ""], found="9Q", rest=8)
    reject(game, "f1>c1", "DS-TAB-1")
    reject(game, "f2>c2", "DS-EMPTY-1")


@pytest.mark.parametrize("target", ["w", "f", "f2", "f3"])
def test_DS_FND_4_never_to_the_waste_or_a_foundation(target: str) -> None:
    game = setup(cols=["TH"], found="9")
    reject(game, f"f1>{target}", "DS-FND-4")


def test_DS_FND_4_only_the_top_card() -> None:
    game = setup(cols=["9H"], found="9")
    reject(game, "f1:2>c1", "DS-FND-4")


# --------------------------------------------------------------------------- stock


def test_DS_STOCK_1_tap_on_the_stock_turns_a_card() -> None:
    game = setup(stock_next="AS2S")
    out = accept(game, "d")
    assert out.cards == (parse_card("AS"),) and game.waste[-1] == parse_card("AS")
    assert {"type": "drew", "cards": ["AS"]} in out.events()


def test_DS_STOCK_1_nothing_to_draw() -> None:
    game = setup(rest=8)
    assert not game.stock and not game.waste
    reject(game, "d", "DS-STOCK-1")
    reject(game, "r", "DS-STOCK-1")
    assert Draw() not in game.legal_actions() and Recycle() not in game.legal_actions()


def test_DS_STOCK_1_nothing_goes_onto_the_waste() -> None:
    # Only the stock feeds the waste: naming the waste as a target is not a move at all.
    game = setup(cols=["KS"], waste="2H")
    invalid(game, "c1>w", "bad_target")
    invalid(game, "w>w", "bad_target")


def test_DS_STOCK_2_draw_1_turns_one_card_at_a_time() -> None:
    game = setup(stock_next="AS2S3S")
    for expected in ("AS", "2S", "3S"):
        out = accept(game, "d")
        assert out.drawn == 1 and out.cards == (parse_card(expected),)
    assert [c for c in game.waste[-3:]] == [parse_card(t) for t in ("AS", "2S", "3S")]


def test_DS_STOCK_3_draw_3_turns_three_and_the_last_is_playable() -> None:
    game = setup(mode="3N", stock_next="AS2S3S4S", cols=["4H"])
    out = accept(game, "d")
    assert out.drawn == 3
    assert game.waste[-1] == parse_card("3S")  # turned last, on top
    accept(game, "w>c1")  # 3S onto 4H
    assert game.waste[-1] == parse_card("2S")  # the card beneath becomes playable
    reject(game, "w:2>c1", "DS-WASTE-1")


def test_DS_STOCK_3_fewer_than_three_turns_all() -> None:
    game = setup(mode="3N", stock_next="AS2S", rest="waste")
    out = accept(game, "d")
    assert out.drawn == 2 and not game.stock
    assert game.waste[-2:] == [parse_card("AS"), parse_card("2S")]


def test_DS_STOCK_4_recycle_keeps_the_order() -> None:
    game = setup(stock_next="AS2S3S4S", rest=8)
    first = [accept(game, "d").cards for _ in range(4)]
    out = accept(game, "d")  # the stock is empty: the tap recycles
    assert out.action == Recycle() and out.recycled == 4
    assert game.waste == [] and len(game.stock) == 4
    again = [accept(game, "d").cards for _ in range(4)]
    assert again == first


def test_DS_STOCK_4_recycle_costs_100() -> None:
    game = setup(waste="AS2S", rest=8, score=250)
    out = accept(game, "r")
    assert out.score_delta == -100 and game.score == 150
    assert {"type": "recycled", "count": 2} in out.events()


def test_DS_STOCK_4_recycle_only_with_an_empty_stock() -> None:
    game = setup(stock_next="AS", waste="2S")
    reject(game, "r", "DS-STOCK-4")


def test_DS_STOCK_4_nothing_can_be_moved_onto_the_stock() -> None:
    game = setup(cols=["KS"])
    invalid(game, "c1>s", "bad_target")


def test_DS_STOCK_5_vegas_never_recycles() -> None:
    game = setup(mode="1V", waste="AS2S", rest=8)
    reject(game, "d", "DS-STOCK-5")
    reject(game, "r", "DS-STOCK-5")
    assert all(not isinstance(a, Draw | Recycle) for a in game.legal_actions())


def test_DS_STOCK_5_vegas_draws_through_the_stock_once() -> None:
    game = setup(mode="3V", stock_next="AS2S3S4S", rest="waste")
    assert accept(game, "d").drawn == 3
    assert accept(game, "d").drawn == 1
    reject(game, "d", "DS-STOCK-5")


# --------------------------------------------------------------------------- end of the game


def _near_won(mode: str = "1N") -> DoubleSolitaire:
    game = setup(mode=mode, cols=["KC"], found="KKKKKKKQ", score=1000)
    assert isinstance(game, DoubleSolitaire)
    return game


def test_DS_END_1_last_card_wins() -> None:
    game = _near_won()
    assert not game.won
    out = accept(game, "c1>f")
    assert out.won and game.won
    assert {"type": "won"} in out.events()
    assert game.cards_on_foundations() == 104
    assert game.public_view()["won"] is True
    assert game.undo_available == 0


def test_DS_END_1_103_cards_is_not_a_win() -> None:
    game = _near_won()
    assert game.cards_on_foundations() == 103 and not game.won
    assert not game.public_view()["won"]


def test_DS_END_1_a_won_position_reads_as_won() -> None:
    game = setup(found="KKKKKKKK")
    assert game.won and game.legal_actions() == []


@pytest.mark.parametrize("action", ["u", "d", "r", "f8>c1", "tc1", "c1>c2", "w>f"])
def test_DS_END_2_won_game_is_final(action: str) -> None:
    game = _near_won()
    accept(game, "c1>f")
    reject(game, action, "DS-END-2")
    assert game.legal_actions() == []


def test_DS_END_2_moves_and_undo_are_accepted_until_the_win() -> None:
    game = setup(cols=["KC", "QC"], found="KKKKKKKJ")
    accept(game, "c2>f")
    assert not game.won
    accept(game, "u")
    accept(game, "c2>f")
    accept(game, "c1>f")
    assert game.won


# --------------------------------------------------------------------------- no automation


def test_DS_APP_1_nothing_happens_after_a_move() -> None:
    game = setup(cols=["AS", "8S", "7H", "AH"], waste="AD", stock_next="AC")
    before = fields(game)
    accept(game, "c3>c2")
    after = fields(game)
    # Only the two columns, and the move counter, changed; the aces stay where they are.
    assert after[3:6] == before[3:6]
    assert cols(game)[0] == "|AS" and cols(game)[3] == "|AH"
    assert cols(game)[1:3] == ["|8S7H", "|"]
    assert after[7] == "1"


def test_DS_APP_1_a_drawn_ace_stays_on_the_waste() -> None:
    game = setup(stock_next="AS")
    accept(game, "d")
    assert game.waste[-1] == parse_card("AS") and game.foundations == [0] * 8


def test_DS_APP_1_the_last_card_is_never_played_for_the_player() -> None:
    game = setup(cols=["KC"], found="KKKKKKKQ")
    assert not game.won and game.foundations[7] == 12


# --------------------------------------------------------------------------- taps


def test_DS_APP_2_tap_sends_a_column_card_to_its_foundation() -> None:
    game = setup(cols=["8S", "AH"])
    out = accept(game, Tap(column(1)))
    assert out.action == Move(column(1), foundation(2))
    assert out.score_delta == 10


def test_DS_APP_2_tap_on_the_waste() -> None:
    game = setup(waste="AC", rest=8)
    out = accept(game, "tw")
    assert out.action == Move(WASTE, foundation(6))


def test_DS_APP_2_tap_is_refused_when_no_foundation_fits() -> None:
    game = setup(cols=["8S", "7H"])
    reject(game, "tc2", "DS-APP-2")  # a column would fit, but a single tap only tries foundations


def test_DS_APP_3_double_tap_tries_the_foundation_first() -> None:
    game = setup(cols=["2S", "AH", "3C"], found="A")
    out = accept(game, "ttc1")
    assert out.target == foundation(0)


def test_DS_APP_3_double_tap_picks_the_longest_fitting_column() -> None:
    # c1: 8S alone; c3: 8C over two hidden cards (3 cards); c4: 9H 8S face up (2 cards).
    game = setup(cols=["8S", "7H", "2D3D|8C", "9H8S"])
    out = accept(game, "ttc2")
    assert out.action == Move(column(1), column(2))


def test_DS_APP_3_double_tap_ties_go_to_the_leftmost() -> None:
    game = setup(cols=["7H", "4D|8C", "5C|8S", "KD|8C"])
    out = accept(game, "ttc1")
    assert out.action == Move(column(0), column(1))


def test_DS_APP_3_double_tap_sends_a_king_from_a_column_to_an_empty_one() -> None:
    game = setup(cols=["", "QD|KS"])
    out = accept(game, "ttc2")
    assert out.action == Move(column(1), column(0))


def test_DS_APP_3_double_tap_king_goes_to_the_leftmost_empty_column() -> None:
    game = setup(cols=["5H", "", "9C", ""], waste="KH")
    out = accept(game, "ttw")
    assert out.action == Move(WASTE, column(1))


def test_DS_APP_3_double_tap_prefers_a_fitting_column_to_an_empty_one() -> None:
    game = setup(cols=["", "8S"], waste="7D")
    assert accept(game, "ttw").action == Move(WASTE, column(1))


def test_DS_APP_3_double_tap_refused_when_there_is_no_place() -> None:
    game = setup(cols=["", "8S"], waste="7S")
    reject(game, "ttw", "DS-APP-3")
    game = setup(cols=["8S", "9S"], waste="QD")
    reject(game, "ttw", "DS-APP-3")


# --------------------------------------------------------------------------- undo


def test_DS_APP_4_undo_a_move_with_a_flip() -> None:
    game = setup(cols=["5C|9S", "TH"])
    before = fields(game)
    accept(game, "c1>c2")
    out = accept(game, "u")
    assert out.undone == Move(column(0), column(1))
    assert out.turned_down == column(0) and out.score_delta == -5
    assert {"type": "turned_down", "pile": "c1"} in out.events()
    after = fields(game)
    assert after[:7] == before[:7]
    assert after[7] == "1"  # the move counter does not go down


def test_DS_APP_4_undo_a_draw_and_a_recycle() -> None:
    game = setup(mode="3N", stock_next="AS2S3S4S", rest=8, score=40)
    start = fields(game)
    accept(game, "d")
    accept(game, "d")
    accept(game, "r")
    assert game.score == 0
    out = accept(game, "u")
    assert out.undone == Recycle() and out.score_delta == 40  # what it really cost
    assert {"type": "unrecycled", "count": 4} in out.events()
    assert game.score == 40
    out = accept(game, "u")
    assert out.undone == Draw() and out.drawn == 1
    assert {"type": "undrew", "count": 1} in out.events()
    accept(game, "u")
    assert fields(game)[:7] == start[:7] and game.moves == 3
    reject(game, "u", "DS-APP-4")


def test_DS_APP_4_undo_a_foundation_move_and_a_return() -> None:
    game = setup(cols=["TH", "9S"], found="8", score=100)
    start = fields(game)
    accept(game, "c2>f")
    accept(game, "f1>c1")
    accept(game, "u")
    assert game.foundations[0] == 9 and game.score == 110
    accept(game, "u")
    assert fields(game)[:7] == start[:7]


def test_DS_APP_4_nothing_to_undo() -> None:
    game = setup()
    reject(game, "u", "DS-APP-4")
    reject(game, Undo(), "DS-APP-4")


def test_DS_APP_4_keeps_the_last_200_actions() -> None:
    game = setup(stock_next="AS2S3S", rest=8, score=0)
    for _ in range(250):
        accept(game, "d")  # draws and free recycles (the score is 0)
    assert game.undo_available == 200 and game.moves == 250
    for _ in range(200):
        accept(game, "u")
    assert game.moves == 250
    reject(game, "u", "DS-APP-4")


def test_DS_APP_4_undo_of_a_floored_recycle_returns_what_it_cost() -> None:
    game = setup(waste="AS2S", rest=8, score=35)
    assert accept(game, "r").score_delta == -35 and game.score == 0
    assert accept(game, "u").score_delta == 35 and game.score == 35


# --------------------------------------------------------------------------- scoring


def test_DS_SCORE_N_card_to_a_foundation_from_a_column() -> None:
    game = setup(cols=["AS"])
    assert accept(game, "c1>f").score_delta == 10 and game.score == 10


def test_DS_SCORE_N_card_to_a_foundation_from_the_waste() -> None:
    game = setup(waste="AS", rest=8)
    assert accept(game, "w>f").score_delta == 10


def test_DS_SCORE_N_waste_to_a_column() -> None:
    game = setup(cols=["8S"], waste="7H", rest=8)
    assert accept(game, "w>c1").score_delta == 5


def test_DS_SCORE_N_flip() -> None:
    game = setup(cols=["4D|9S", "TH"])
    assert accept(game, "c1>c2").score_delta == 5


def test_DS_SCORE_N_recycle() -> None:
    game = setup(waste="AS", rest=8, score=100)
    assert accept(game, "r").score_delta == -100 and game.score == 0


def test_DS_SCORE_N_column_to_column_and_return_score_nothing() -> None:
    game = setup(cols=["8S", "7H", "TH"], found="9", score=7)
    assert accept(game, "c2>c1").score_delta == 0
    assert accept(game, "f1>c3").score_delta == 0
    assert game.score == 7


def test_DS_SCORE_N_floor_at_zero() -> None:
    game = setup(waste="AS", rest=8, score=0)
    out = accept(game, "r")
    assert out.score_delta == 0 and game.score == 0
    game = setup(waste="AS", rest=8, score=60)
    assert accept(game, "r").score_delta == -60 and game.score == 0


def test_DS_SCORE_V_starts_at_minus_104() -> None:
    game = setup(mode="1V")
    assert game.score == -104 and game.score_display == "-$104"


def test_DS_SCORE_V_five_dollars_per_foundation_card_only() -> None:
    game = setup(mode="1V", cols=["AS", "5C|9S", "TH"], waste="8H", rest=8)
    assert accept(game, "c1>f").score_delta == 5
    assert accept(game, "c2>c3").score_delta == 0  # flip: nothing under Vegas
    assert accept(game, "w>c3").score_delta == 0
    assert game.score == -99


def test_DS_SCORE_V_return_earns_nothing() -> None:
    game = setup(mode="1V", cols=["TH"], found="9")
    assert game.score == -104 + 45
    assert accept(game, "f1>c1").score_delta == 0
    assert accept(game, "c1>f").score_delta == 5


def test_DS_SCORE_V_has_no_floor() -> None:
    game = setup(mode="3V", score=-104)
    assert game.score == -104
    game = setup(mode="3V", cols=["AS"], score=-104)
    accept(game, "c1>f")
    assert game.score == -99 and game.score_display == "-$99"


@pytest.mark.parametrize(
    ("score", "shown"), [(416, "$416"), (0, "$0"), (-104, "-$104"), (-5, "-$5"), (15, "$15")]
)
def test_DS_SCORE_V_display(score: int, shown: str) -> None:
    assert format_score(score, Scoring.VEGAS) == shown


def test_DS_SCORE_N_display_is_a_plain_number() -> None:
    assert format_score(0, Scoring.NORMAL) == "0"
    assert format_score(1220, Scoring.NORMAL) == "1220"


def test_DS_SCORE_V_positive_from_the_21st_card() -> None:
    assert -104 + 5 * 20 < 0 < -104 + 5 * 21
    game = setup(mode="1V", cols=["6S"], found="5555")  # 20 cards placed
    assert game.score == -4
    accept(game, "c1>f")
    assert game.score == 1 and game.score_display == "$1"
