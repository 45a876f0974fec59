"""Action notation, position text, serialized state and game records (docs/notation.md)."""

from __future__ import annotations

import base64

import pytest
from engine_support import position, setup
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine import (
    FOUNDATIONS,
    STOCK,
    WASTE,
    Action,
    Draw,
    GameCode,
    GameRecord,
    InvalidActionError,
    InvalidCodeError,
    InvalidPositionError,
    Move,
    Pile,
    Recycle,
    Tap,
    Undo,
    column,
    deserialize,
    foundation,
    from_position,
    new_game,
    parse_action,
    parse_actions,
    parse_pile,
)
from service.engine.cards import parse_card

# --------------------------------------------------------------------------- actions

piles = st.one_of(
    st.just(WASTE),
    st.just(STOCK),
    st.just(FOUNDATIONS),
    st.integers(0, 98).map(column),
    st.integers(0, 98).map(foundation),
)
actions: st.SearchStrategy[Action] = st.one_of(
    st.just(Draw()),
    st.just(Recycle()),
    st.just(Undo()),
    st.builds(Move, piles, piles, st.integers(1, 999)),
    st.builds(Tap, piles, st.booleans()),
)


@settings(max_examples=200, deadline=None)
@given(actions)
def test_every_action_text_parses_back(action: Action) -> None:
    text = str(action)
    assert " " not in text
    assert parse_action(text) == action
    assert parse_action(text.upper()) == action
    assert parse_action(f"  {text}\n") == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("d", Draw()),
        ("r", Recycle()),
        ("u", Undo()),
        ("c3>c5", Move(column(2), column(4))),
        ("c3:4>c5", Move(column(2), column(4), 4)),
        ("w>f", Move(WASTE, FOUNDATIONS)),
        ("c2>f3", Move(column(1), foundation(2))),
        ("f2>c4", Move(foundation(1), column(3))),
        ("tc3", Tap(column(2))),
        ("tw", Tap(WASTE)),
        ("ttc3", Tap(column(2), double=True)),
        ("ttw", Tap(WASTE, double=True)),
        ("c10>c1", Move(column(9), column(0))),
    ],
)
def test_notation_examples(text: str, action: Action) -> None:
    assert parse_action(text) == action
    assert str(action) == text


def test_count_of_one_is_not_written() -> None:
    assert str(Move(column(0), column(1), 1)) == "c1>c2"
    assert parse_action("c1:1>c2") == Move(column(0), column(1))


def test_a_text_parsed_again_gives_the_same_action_and_a_bad_one_is_refused_again() -> None:
    # Parsing is cached (actions are values); refusals must not be.
    for _ in range(2):
        assert parse_action("c3:2>c5") == Move(column(2), column(4), 2)
        assert parse_action("C3:2>C5") == Move(column(2), column(4), 2)
        with pytest.raises(InvalidActionError) as info:
            parse_action("c0>c1")
        assert info.value.code == "bad_index"


def test_piles() -> None:
    assert parse_pile("w") == WASTE and parse_pile("S") == STOCK
    assert parse_pile("f") == FOUNDATIONS and parse_pile("f8") == foundation(7)
    assert parse_pile("c9") == Pile(column(8).kind, 8)
    assert str(FOUNDATIONS) == "f" and str(foundation(0)) == "f1" and str(column(8)) == "c9"
    with pytest.raises(InvalidActionError):
        parse_pile("c0")
    with pytest.raises(InvalidActionError):
        parse_pile("q")


def test_parse_actions_splits_on_whitespace() -> None:
    assert parse_actions(" d  c1>f\n u\t") == [Draw(), Move(column(0), FOUNDATIONS), Undo()]
    assert parse_actions("") == []
    with pytest.raises(InvalidActionError):
        parse_actions("d c1>>c2")


# --------------------------------------------------------------------------- position text

DS_EXAMPLE_RECORD = "DS1-D1N-AAAAAAB c7>f1 c1>c7 c5>f5 d w>c9 u d"
DS_EXAMPLE_POSITION = (
    "DS 1N |/7D|JS/8SKC|7H/6C8S6S|9S/5STDKH|JD/QCTC4H3S4S|JS/9CJCKS5C3C|7C6D/"
    "8C9S8H9HQH3H6S|7H/ACAHAC6H6DKD3DKS|JC 7C4DASJHTSJHKHTH8H3HQS8C3DQHKD2HTCAH5D5H6H7D"
    "TSKCQS4D9H2DQDQC4H4SQD9D4CTDAD2C6C3S7S5D9C5S2S9D2CJD2D8D4C7S8D2S3C2H5H TH5C A---A--- "
    "30 6"
)
DS_EXAMPLE_SERIALIZED = DS_EXAMPLE_POSITION + " DS1-D1N-AAAAAAB IITIALIIIKSIAAAJAAAJ"


def test_documented_example_game() -> None:
    record = GameRecord.parse(DS_EXAMPLE_RECORD)
    game = record.replay()
    assert game.position_text() == DS_EXAMPLE_POSITION
    assert game.serialize() == DS_EXAMPLE_SERIALIZED
    assert game.score == 30 and game.moves == 6 and game.undo_available == 5


def test_documented_example_actions_as_typed() -> None:
    game = new_game("ds1-d1n-aaaaaab")
    typed = ["c7>f", "c1>c7", "tc5", "d", "ttw", "u", "d"]
    played = [str(game.play_text(t).action) for t in typed]
    assert played == DS_EXAMPLE_RECORD.split()[1:]
    assert game.serialize() == DS_EXAMPLE_SERIALIZED


def test_history_records_are_three_bytes_each() -> None:
    history = DS_EXAMPLE_SERIALIZED.split()[-1]
    raw = base64.b64decode(history)
    records = [int.from_bytes(raw[i : i + 3], "big") for i in range(0, len(raw), 3)]
    # c7>f1 with a flip, c1>c7, c5>f5 with a flip, d (1 card), d (1 card); w>c9 was undone.
    first = 0 | 1 << 3 | 6 << 5 | 2 << 9 | 0 << 11 | 1 << 15 | 1 << 21
    assert records[0] == first == 0x2084C8
    assert records[1] == 0 | 1 << 3 | 0 << 5 | 1 << 9 | 6 << 11 | 1 << 15
    assert records[2] == 0 | 1 << 3 | 4 << 5 | 2 << 9 | 4 << 11 | 1 << 15 | 1 << 21
    assert records[3:] == [1 | 1 << 3, 1 | 1 << 3]


def test_recycle_record_holds_its_real_cost() -> None:
    game = setup("DS", waste="AS", rest=8, score=42)
    game.play(Recycle())
    raw = base64.b64decode(game.serialize().split()[-1])
    assert int.from_bytes(raw, "big") == 2 | 42 << 3


def test_position_fields() -> None:
    game = setup("TF", mode="3N", cols=["KS", "9D"], waste="AH", found="2", score=25)
    parts = game.position_text().split()
    assert len(parts) == 8
    assert parts[0] == "TF" and parts[1] == "3N"
    assert parts[2].split("/")[:2] == ["|KS", "|9D"]
    assert parts[4] == "AH" and parts[5] == "2---"
    assert parts[6:] == ["25", "0"]


def test_empty_stock_and_waste_are_dashes() -> None:
    game = setup("DS", rest=8)
    parts = game.position_text().split()
    assert parts[3] == "-" and parts[4] == "-"


def test_stock_is_written_bottom_to_top() -> None:
    game = setup("DS", stock_next="AS2H")
    stock = game.position_text().split()[3]
    assert stock.endswith("2HAS")  # AS is drawn next
    assert game.play(Draw()).cards == (parse_card("AS"),)


@pytest.mark.parametrize(
    "text",
    [
        "DS 1N",
        position("DS") + " extra",
        position("DS").replace("DS 1N", "XX 1N"),
        position("DS").replace("DS 1N", "DS 1X"),
        position("DS").replace("DS 1N", "DS 2N"),
        position("DS").replace("DS 1N", "DS 1NN"),
        position("TF").replace("TF 1N", "TF 3V"),
        position("DS", cols=["KS"]).replace("|KS", "KS|"),  # ends in a face-down card
        position("DS", cols=["KS"]).replace("|KS", "|KSKS"),  # a third King of spades
        position("DS", cols=["KS"]).replace("|KS", "|"),  # a card missing
        position("DS", cols=["KS"]).replace("|KS", "|KX"),
        position("DS", cols=["KS"]).replace("|KS", "|K"),
        position("DS").replace("--------", "-------"),  # seven foundations
        position("DS", cols=["9S"], found="8").replace("8-------", "X-------"),
        position("DS").replace(" 0 0", " x 0"),
        position("DS").replace("|/|/|/|/|/|/|/|/|", "|/|/|/|/|/|/|/|"),  # eight columns
        position("TF").replace("|/|/|/|/|/|/|", "|/|/|/|/|/|/|/|"),  # eight columns
    ],
)
def test_bad_position_text(text: str) -> None:
    with pytest.raises(InvalidPositionError):
        from_position(text)


def test_negative_normal_score_is_refused() -> None:
    text = position("DS", waste="AS", rest=8, score=-50)
    with pytest.raises(InvalidPositionError):
        from_position(text)
    vegas = from_position(position("DS", mode="1V", waste="AS", rest=8, score=-50))
    assert vegas.score == -50


def test_from_position_starts_without_history_or_code() -> None:
    game = new_game("DS1-D3V-AAAAAAB")
    game.play(Draw())
    copy = from_position(game.position_text())
    assert copy.position_text() == game.position_text()
    assert copy.code is None and copy.undo_available == 0
    assert copy.serialize().endswith(" - -")


# --------------------------------------------------------------------------- serialized state


def test_serialize_round_trip_with_history() -> None:
    game = GameRecord.parse(DS_EXAMPLE_RECORD).replay()
    text = game.serialize()
    back = deserialize(text)
    assert back.serialize() == text and back == game
    assert str(back.code) == "DS1-D1N-AAAAAAB"
    back.play(Undo())
    game.play(Undo())
    assert back == game


@pytest.mark.parametrize(
    ("history", "error"),
    [
        ("!!!!", InvalidPositionError),
        ("AAA", InvalidPositionError),  # not whole base64
        ("AAAAAA==", InvalidPositionError),  # 4 bytes: not whole 3-byte records
    ],
)
def test_bad_history(history: str, error: type[Exception]) -> None:
    text = setup("DS").serialize()[: -len(" -")] + " " + history
    with pytest.raises(error):
        deserialize(text)


def test_history_longer_than_the_undo_limit_is_refused() -> None:
    record = base64.b64encode(bytes([0, 0, 9]) * 101).decode()
    text = setup("TF", stock_next="AS").serialize()[: -len(" -")] + " " + record
    with pytest.raises(InvalidPositionError):
        deserialize(text)


@pytest.mark.parametrize("record", [3, 7, 3 << 3 | 1 << 15])
def test_undefined_history_record_is_refused(record: int) -> None:
    history = base64.b64encode(record.to_bytes(3, "big")).decode()
    text = setup("DS", cols=["8S", "7H"]).serialize()[: -len(" -")] + " " + history
    with pytest.raises(InvalidPositionError):
        deserialize(text)


def test_deserialize_checks_the_field_count_and_the_code() -> None:
    text = setup("DS").serialize()
    with pytest.raises(InvalidPositionError):
        deserialize(text + " x")
    with pytest.raises(InvalidCodeError):
        deserialize(text.replace(" - -", " DS9-D1N-AAAAAAB -"))


# --------------------------------------------------------------------------- game records


def test_game_record_round_trip() -> None:
    record = GameRecord.parse(DS_EXAMPLE_RECORD)
    assert str(record) == DS_EXAMPLE_RECORD
    assert GameRecord.parse(str(record)) == record
    assert record.code == GameCode.parse("DS1-D1N-AAAAAAB")
    assert GameRecord.parse("tf1-d3n-qwertyu").actions == []
    assert str(GameRecord.parse("tf1-d3n-qwertyu")) == "TF1-D3N-QWERTYU"


@settings(max_examples=60, deadline=None)
@given(st.lists(actions, max_size=20), st.sampled_from(["DS1-D1N-AAAAAAB", "TF1-D3N-ZZZZZZZ"]))
def test_game_record_text_round_trips(action_list: list[Action], code: str) -> None:
    record = GameRecord(GameCode.parse(code), action_list)
    assert GameRecord.parse(str(record)) == record


def test_replay_raises_on_a_refused_action() -> None:
    with pytest.raises(InvalidActionError):
        GameRecord.parse("DS1-D1N-AAAAAAB c1>c1").replay()
    with pytest.raises(Exception) as info:
        GameRecord.parse("DS1-D1N-AAAAAAB u").replay()
    assert getattr(info.value, "rule_id", None) == "DS-APP-4"


TF_EXAMPLE_RECORD = "TF1-D3N-QWERTYU c3>f2 c5>c4 d u"
TF_EXAMPLE_SERIALIZED = (
    "TF 3N |2C/|JD4C/|KD6D/|QS5C5H7D6S/|3HKH8HAC/|TC7CAS8S3S6H/|QD5DQC4DJC2D9C "
    "KC4STS3D7STH5S8D4HKS9DJH6C8C3CJS9H9SADTD2H2S7HQH - -A-- 10 3 TF1-D3N-QWERTYU AIxIAJqI"
)


def test_documented_tf_example_and_its_public_view() -> None:
    game = GameRecord.parse(TF_EXAMPLE_RECORD).replay()
    assert game.serialize() == TF_EXAMPLE_SERIALIZED
    view = game.public_view()
    assert view["columns"][3] == {"down": 0, "up": ["QS", "5C", "5H", "7D", "6S"]}
    assert view["stock"] == 24 and view["waste"] == []
    assert view["foundations"] == [None, "AH", None, None]
    assert (view["score"], view["moves"], view["undo_available"]) == (10, 3, 2)
    typed = new_game("tf1-d3n-qwertyu")
    assert [str(typed.play_text(t).action) for t in ("tc3", "c5>c4", "d", "u")] == (
        TF_EXAMPLE_RECORD.split()[1:]
    )


def test_documented_history_records_decode() -> None:
    raw = base64.b64decode("IITIALIIIKSIAAAJAAAJ")
    assert raw.hex().upper() == "2084C800B20820A488000009000009"
    assert base64.b64decode("AIxIAJqI").hex().upper() == "008C48009A88"


def test_vegas_opening_position_text() -> None:
    text = new_game("DS1-D3V-AAAAAAB").position_text()
    assert text.startswith("DS 3V |6D/7D|JS/") and text.endswith(" -------- -104 0")
