"""Solitaire Réfléchi rules (docs/rules.md, TF-*), one scenario per accepted or refused case."""

from __future__ import annotations

import pytest
from engine_support import accept, cols, fields, invalid, position, reject, setup

from service.engine import (
    WASTE,
    Draw,
    GameCode,
    InvalidCodeError,
    InvalidPositionError,
    Move,
    Recycle,
    Tap,
    column,
    foundation,
    from_position,
    new_game,
)
from service.engine.cards import parse_card

# --------------------------------------------------------------------------- tableau


def test_TF_TAB_1_accepts_red_seven_on_black_eight() -> None:
    game = setup("TF", cols=["8C", "7D"])
    accept(game, "c2>c1")
    assert cols(game)[:2] == ["|8C7D", "|"]


def test_TF_TAB_1_rejects_same_colour() -> None:
    game = setup("TF", cols=["8C", "7S"])
    reject(game, "c2>c1", "TF-TAB-1")


def test_TF_TAB_1_rejects_wrong_rank() -> None:
    game = setup("TF", cols=["8C", "6D", "9D"])
    reject(game, "c2>c1", "TF-TAB-1")
    reject(game, "c3>c1", "TF-TAB-1")


def test_TF_TAB_1_target_is_the_last_card() -> None:
    game = setup("TF", cols=["8C9H", "7D"])
    reject(game, "c2>c1", "TF-TAB-1")


def test_TF_WASTE_1_only_the_top_card_plays() -> None:
    game = setup("TF", cols=["8C", "TS"], waste="7D9H", rest=6)
    reject(game, "w:2>c1", "TF-WASTE-1")
    reject(game, "w>c1", "TF-TAB-1")
    accept(game, "w>c2")
    accept(game, "w>c1")


def test_TF_WASTE_1_top_card_goes_to_its_foundation() -> None:
    game = setup("TF", waste="AD", rest=6)
    assert accept(game, "w>f").target == foundation(2)


def test_TF_FND_MOVE_1_one_card_per_move() -> None:
    game = setup("TF", cols=["2HAS"])  # an ordered group, but foundations take one card
    reject(game, "c1:2>f", "TF-FND-MOVE-1")
    accept(game, "c1>f")


# --------------------------------------------------------------------------- groups


def test_TF_GROUP_1_ordered_group_moves_from_the_middle() -> None:
    game = setup("TF", cols=["KS9H8S7H", "TC"])
    listed = {str(a) for a in game.legal_actions()}
    assert "c1:3>c2" in listed
    out = accept(game, "c1:3>c2")
    assert out.cards == tuple(parse_card(t) for t in ("9H", "8S", "7H"))
    assert cols(game)[:2] == ["|KS", "|TC9H8S7H"]
    assert out.flipped is None and out.score_delta == 0


def test_TF_GROUP_1_part_of_a_group_can_move() -> None:
    game = setup("TF", cols=["9H8S7H", "9D"])
    accept(game, "c1:2>c2")
    assert cols(game)[:2] == ["|9H", "|9D8S7H"]


def test_TF_GROUP_1_a_whole_suit_sequence_moves_to_an_empty_column() -> None:
    run = "KSQHJSTH9S8H7S6H5S4H3S2HAS"
    game = setup("TF", cols=["2C" + run, ""])
    accept(game, "c1:13>c2")
    assert cols(game)[:2] == ["|2C", "|" + run]


def test_TF_GROUP_2_unordered_group_is_refused() -> None:
    game = setup("TF", cols=["9H5C7D", "TC"])  # 9H would fit on TC, but 5C does not follow
    reject(game, "c1:3>c2", "TF-GROUP-2")
    reject(game, "c1:2>c2", "TF-GROUP-2")


def test_TF_GROUP_2_same_colour_run_is_not_a_group() -> None:
    game = setup("TF", cols=["9H8D", "TC"])
    reject(game, "c1:2>c2", "TF-GROUP-2")


def test_TF_GROUP_2_visible_cards_are_not_all_movable() -> None:
    game = new_game("TF1-D1N-AAAAAAB")  # every card shows, yet c7's cards do not all move
    assert cols(game)[6] == "|KSKDTDTCJCTH8C"
    reject(game, "c7:7>c1", "TF-GROUP-2")
    assert not any(
        isinstance(a, Move) and a.source == column(6) and a.count > 1 for a in game.legal_actions()
    )


# --------------------------------------------------------------------------- empty column


def test_TF_EMPTY_1_accepts_a_king_with_its_group() -> None:
    game = setup("TF", cols=["", "5CKDQS"])
    accept(game, "c2:2>c1")
    assert cols(game)[:2] == ["|KDQS", "|5C"]


def test_TF_EMPTY_1_rejects_other_cards() -> None:
    game = setup("TF", cols=["", "5CQD"], waste="JS")
    reject(game, "c2>c1", "TF-EMPTY-1")
    reject(game, "w>c1", "TF-EMPTY-1")


# --------------------------------------------------------------------------- foundations


def test_TF_FND_1_ace_first_then_rank_order() -> None:
    game = setup("TF", cols=["2D", "AD", "3D"])
    reject(game, "c1>f", "TF-FND-1")
    accept(game, "c2>f")
    reject(game, "c3>f", "TF-FND-1")
    accept(game, "c1>f")
    accept(game, "c3>f")
    assert fields(game)[5] == "--3-"


def test_TF_FND_2_each_suit_has_a_fixed_place() -> None:
    game = setup("TF", cols=["AS", "AH", "AD", "AC"])
    targets = [accept(game, f"c{i}>f").target for i in (1, 2, 3, 4)]
    assert targets == [foundation(0), foundation(1), foundation(2), foundation(3)]


def test_TF_FND_2_a_named_place_of_another_suit_still_finds_the_right_one() -> None:
    game = setup("TF", cols=["AS"])
    out = accept(game, "c1>f3")
    assert str(out.action) == "c1>f1" and game.foundations == [1, 0, 0, 0]


def test_TF_FND_2_wrong_suit_is_refused() -> None:
    game = setup("TF", cols=["2H"], found="A")  # spades started, hearts not
    reject(game, "c1>f1", "TF-FND-1")
    invalid(game, "c1>f5", "bad_index")


def test_TF_FND_3_top_card_returns_to_a_column_for_no_points() -> None:
    game = setup("TF", cols=["8C"], found="-7", score=70)
    out = accept(game, "f2>c1")
    assert out.score_delta == 0 and game.score == 70
    assert cols(game)[0] == "|8C7H" and game.foundations[1] == 6


@pytest.mark.parametrize("target", ["w", "f", "f1", "f2"])
def test_TF_FND_3_never_to_the_waste_or_a_foundation(target: str) -> None:
    game = setup("TF", cols=["8C"], found="-7")
    reject(game, f"f2>{target}", "TF-FND-3")


def test_TF_FND_3_only_the_top_card_and_by_the_tableau_rules() -> None:
    game = setup("TF", cols=["8H", ""], found="-7Q")
    reject(game, "f2:2>c1", "TF-FND-3")
    reject(game, "f2>c1", "TF-TAB-1")
    reject(game, "f3>c2", "TF-EMPTY-1")


# --------------------------------------------------------------------------- stock


def test_TF_STOCK_1_nothing_to_draw() -> None:
    game = setup("TF", rest=6)
    reject(game, "d", "TF-STOCK-1")
    reject(game, "r", "TF-STOCK-1")


def test_TF_STOCK_1_nothing_goes_onto_the_waste() -> None:
    game = setup("TF", cols=["KS"])
    invalid(game, "c1>w", "bad_target")


def test_TF_STOCK_2_draw_1() -> None:
    game = setup("TF", stock_next="2C3C")
    assert accept(game, "d").cards == (parse_card("2C"),)
    assert accept(game, "d").cards == (parse_card("3C"),)


def test_TF_STOCK_3_draw_3_and_fewer_than_three() -> None:
    game = setup("TF", mode="3N", stock_next="2C3C4C5C", rest="waste")
    out = accept(game, "d")
    assert out.cards == tuple(parse_card(t) for t in ("2C", "3C", "4C"))
    assert game.waste[-1] == parse_card("4C")
    out = accept(game, "d")
    assert out.drawn == 1 and not game.stock


def test_TF_STOCK_4_recycle_keeps_the_order_and_costs_100() -> None:
    game = setup("TF", mode="3N", stock_next="2C3C4C5C", rest=6, score=150)
    first = [accept(game, "d").cards for _ in range(2)]
    out = accept(game, "r")
    assert out.score_delta == -100 and game.score == 50
    assert [accept(game, "d").cards for _ in range(2)] == first


def test_TF_STOCK_4_recycle_only_with_an_empty_stock() -> None:
    game = setup("TF", stock_next="2C", waste="3C")
    reject(game, "r", "TF-STOCK-4")
    game = setup("TF", cols=["KS"])
    invalid(game, "c1>s", "bad_target")


def test_TF_STOCK_4_passes_are_unlimited() -> None:
    game = setup("TF", waste="2C", rest=6)
    for _ in range(10):
        assert accept(game, "d").action == Recycle()
        assert accept(game, "d").action == Draw()


# --------------------------------------------------------------------------- end


def test_TF_END_1_last_card_wins() -> None:
    game = setup("TF", waste="KC", found="KKKQ", score=500)
    out = accept(game, "tw")
    assert out.won and game.won and game.cards_on_foundations() == 52
    assert {"type": "won"} in out.events()


def test_TF_END_1_51_cards_is_not_a_win() -> None:
    game = setup("TF", cols=["KC"], found="KKKQ")
    assert not game.won and game.cards_on_foundations() == 51


@pytest.mark.parametrize("action", ["u", "d", "f4>c1", "tc1", "ttw"])
def test_TF_END_2_won_game_is_final(action: str) -> None:
    game = setup("TF", cols=["KC"], found="KKKQ")
    accept(game, "c1>f")
    reject(game, action, "TF-END-2")
    assert game.legal_actions() == [] and game.undo_available == 0


# --------------------------------------------------------------------------- application


def test_TF_APP_1_nothing_happens_by_itself() -> None:
    game = setup("TF", cols=["AS", "8C", "7D"], stock_next="AH")
    accept(game, "c3>c2")
    accept(game, "d")
    assert cols(game)[0] == "|AS" and game.waste[-1] == parse_card("AH")
    assert game.foundations == [0, 0, 0, 0]


def test_TF_APP_2_tap_sends_to_the_foundation() -> None:
    game = setup("TF", cols=["8C", "AH"])
    assert accept(game, Tap(column(1))).action == Move(column(1), foundation(1))


def test_TF_APP_2_tap_refused_without_a_foundation() -> None:
    game = setup("TF", cols=["8C", "7H"])
    reject(game, "tc2", "TF-APP-2")


def test_TF_APP_2_double_tap_longest_column_then_leftmost() -> None:
    game = setup("TF", cols=["7H", "8C", "2D3D8S"])
    assert accept(game, "ttc1").action == Move(column(0), column(2))
    game = setup("TF", cols=["7H", "2D8C", "3D8S"])
    assert accept(game, "ttc1").action == Move(column(0), column(1))


def test_TF_APP_2_double_tap_king_to_the_leftmost_empty_column() -> None:
    game = setup("TF", cols=["5H", "", "9C", ""], waste="KD")
    assert accept(game, "ttw").action == Move(WASTE, column(1))


def test_TF_APP_2_double_tap_refused_when_there_is_no_place() -> None:
    game = setup("TF", cols=["8C", "9C"], waste="7S")
    reject(game, "ttw", "TF-APP-2")


def test_TF_APP_4_keeps_the_last_100_actions() -> None:
    game = setup("TF", stock_next="2C", rest=6)
    for _ in range(130):
        accept(game, "d")
    assert game.undo_available == 100
    for _ in range(100):
        accept(game, "u")
    reject(game, "u", "TF-APP-4")
    assert game.moves == 130


def test_TF_APP_4_undo_a_group_move() -> None:
    game = setup("TF", cols=["KS9H8S7H", "TC"])
    start = fields(game)
    accept(game, "c1:3>c2")
    out = accept(game, "u")
    assert out.undone == Move(column(0), column(1), 3) and out.turned_down is None
    assert fields(game)[:7] == start[:7]


# --------------------------------------------------------------------------- scoring


def test_TF_SCORE_1_floor_at_zero_and_undo_returns_the_real_cost() -> None:
    game = setup("TF", waste="2C", rest=6, score=30)
    assert accept(game, "r").score_delta == -30 and game.score == 0
    assert accept(game, "d").score_delta == 0
    accept(game, "u")
    assert accept(game, "u").score_delta == 30 and game.score == 30


def test_TF_SCORE_2_normal_table() -> None:
    game = setup("TF", cols=["AS", "8D", "7C"], waste="7H", rest=6, found="-6", score=60)
    assert accept(game, "c1>f").score_delta == 10
    assert accept(game, "c3>c2").score_delta == 0
    assert accept(game, "f2>c2").score_delta == 0  # 6H back onto 7C
    assert accept(game, "c2>f").score_delta == 10  # and it scores again
    assert accept(game, "w>f").score_delta == 10
    assert game.score == 90


def test_TF_SCORE_2_waste_to_column_and_to_foundation() -> None:
    game = setup("TF", cols=["8C"], waste="AH7H", rest=6)
    assert accept(game, "w>c1").score_delta == 5
    assert accept(game, "w>f").score_delta == 10
    assert game.score == 15


def test_TF_SCORE_3_dealt_games_never_flip() -> None:
    game = new_game("TF1-D1N-QWERTYU")
    assert game.down == [0] * 7
    for _ in range(50):
        legal = game.legal_actions()
        if not legal:
            break
        assert game.play(legal[-1]).flipped is None


def test_TF_SCORE_3_vegas_is_invalid() -> None:
    with pytest.raises(InvalidCodeError):
        GameCode.parse("TF1-D1V-AAAAAAB")
    text = position("TF").replace("TF 1N", "TF 1V")
    with pytest.raises(InvalidPositionError):
        from_position(text)


def test_TF_positions_cannot_hide_cards() -> None:
    text = position("TF", cols=["9S|4H", "5C"])
    with pytest.raises(InvalidPositionError):
        from_position(text)
