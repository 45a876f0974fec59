"""Every rule id the engine raises, for both games, and the codes of unreadable actions.

The ``R_*`` class attributes of the two games name the rule behind each kind of refusal.
The table below holds, per game and per rule id, a position, an action the rule refuses
and, where it makes sense, an action the same position accepts. A meta-test checks that
the table covers exactly the ids the engine can raise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from engine_support import GAMES, accept, invalid, reject, setup

from service.engine import (
    DoubleSolitaire,
    IllegalActionError,
    InvalidActionError,
    InvalidPositionError,
    Klondike,
    Move,
    Scoring,
    SolitaireError,
    SolitaireReflechi,
    column,
    parse_action,
)
from service.engine.rules import REJECTION_MESSAGES, RULE_IDS


@dataclass(frozen=True)
class Case:
    game: str
    rule: str
    refused: str
    accepted: str | None
    setup: dict[str, Any] = field(default_factory=dict)
    prelude: tuple[str, ...] = ()


_DS_WON = {"cols": ["KC"], "found": "KKKKKKKQ"}
_TF_WON = {"cols": ["KC"], "found": "KKKQ"}

CASES = [
    # ---------------------------------------------------------------- Double Solitaire
    Case("DS", "DS-TAB-1", "c2>c1", "c2>c3", {"cols": ["8S", "7C", "8H"]}),
    # R_FACE_DOWN and R_GROUP: both DS-TAB-2 (any face-up card moves with what lies on it).
    Case("DS", "DS-TAB-2", "c1:3>c2", "c1:2>c2", {"cols": ["5C|9S4D", "TH"]}),
    Case("DS", "DS-WASTE-1", "w:2>c1", "w>c2", {"cols": ["8S", "TD"], "waste": "7H9C"}),
    Case("DS", "DS-EMPTY-1", "c2>c1", "c3>c1", {"cols": ["", "5C|QH", "KD"]}),
    # R_FOUNDATION and R_FOUNDATION_ONE: both DS-FND-1.
    Case("DS", "DS-FND-1", "c1>f", "c2>f", {"cols": ["2S", "AS"]}),
    Case("DS", "DS-FND-1", "c1:2>f", "c1>f", {"cols": ["2SAS"]}),
    Case("DS", "DS-FND-4", "f1>w", "f1>c1", {"cols": ["TH"], "found": "9"}),
    Case("DS", "DS-FND-4", "f1>f2", "f1>c1", {"cols": ["TH"], "found": "9"}),
    Case("DS", "DS-STOCK-1", "d", None, {"rest": 8}),
    Case("DS", "DS-STOCK-4", "r", "d", {"stock_next": "AS", "waste": "2S"}),
    Case("DS", "DS-STOCK-5", "d", "w>f", {"mode": "1V", "waste": "AS", "rest": 8}),
    Case("DS", "DS-END-2", "u", None, _DS_WON, ("c1>f",)),
    Case("DS", "DS-APP-2", "tc2", "ttc2", {"cols": ["8S", "7H"]}),
    Case("DS", "DS-APP-3", "ttw", "ttc3", {"cols": ["", "8S", "7D"], "waste": "7S"}),
    Case("DS", "DS-APP-4", "u", "d", {}),
    # ---------------------------------------------------------------- Solitaire Réfléchi
    Case("TF", "TF-TAB-1", "c2>c1", "c2>c3", {"cols": ["8S", "7C", "8H"]}),
    # R_FACE_DOWN and R_GROUP: both TF-GROUP-2 (no card of a dealt game is face down).
    Case("TF", "TF-GROUP-2", "c1:3>c2", "c1>c2", {"cols": ["9H5C6D", "7C"]}),
    Case("TF", "TF-WASTE-1", "w:2>c1", "w>c2", {"cols": ["8S", "TD"], "waste": "7H9C"}),
    Case("TF", "TF-EMPTY-1", "c2>c1", "c3>c1", {"cols": ["", "5C", "KD"]}),
    Case("TF", "TF-FND-1", "c1>f", "c2>f", {"cols": ["2S", "AS"]}),
    Case("TF", "TF-FND-MOVE-1", "c1:2>f", "c1>f", {"cols": ["2HAS"]}),
    Case("TF", "TF-FND-3", "f1>w", "f1>c1", {"cols": ["TH"], "found": "9"}),
    Case("TF", "TF-STOCK-1", "d", None, {"rest": 6}),
    # R_RECYCLE_STOCK (and R_SINGLE_PASS, the same id, which only Vegas could raise).
    Case("TF", "TF-STOCK-4", "r", "d", {"stock_next": "AS", "waste": "2S"}),
    Case("TF", "TF-END-2", "d", None, _TF_WON, ("c1>f",)),
    # R_TAP and R_DOUBLE_TAP: both TF-APP-2.
    Case("TF", "TF-APP-2", "tc2", "ttc2", {"cols": ["8S", "7H"]}),
    Case("TF", "TF-APP-2", "ttw", "ttc3", {"cols": ["", "8S", "7D"], "waste": "7S"}),
    Case("TF", "TF-APP-4", "u", "d", {}),
]


def _rule_attributes(cls: type[Klondike]) -> dict[str, str]:
    return {name: getattr(cls, name) for name in dir(cls) if name.startswith("R_")}


def test_the_table_covers_every_rule_id_the_engine_raises() -> None:
    for game, cls in GAMES.items():
        raised = set(_rule_attributes(cls).values())
        covered = {case.rule for case in CASES if case.game == game}
        assert covered == raised, game


def test_every_rule_attribute_names_a_documented_rule_with_both_messages() -> None:
    assert set(REJECTION_MESSAGES) == set(RULE_IDS)
    for cls in (DoubleSolitaire, SolitaireReflechi):
        attributes = _rule_attributes(cls)
        assert len(attributes) == 15
        prefix = cls.kind.value + "-"
        for name, rule in attributes.items():
            assert rule.startswith(prefix), name
            english, finnish = REJECTION_MESSAGES[rule]
            assert english.strip() and finnish.strip() and english != finnish


def test_TF_single_pass_rule_is_unreachable_because_vegas_is() -> None:
    assert SolitaireReflechi.R_SINGLE_PASS == SolitaireReflechi.R_RECYCLE_STOCK
    with pytest.raises(InvalidPositionError):
        SolitaireReflechi(
            draw=1,
            scoring=Scoring.VEGAS,
            columns=[[]] * 7,
            down=[0] * 7,
            stock=list(range(52)),
        )


@pytest.mark.parametrize("case", CASES, ids=[f"{c.game}-{c.rule}-{c.refused}" for c in CASES])
def test_refusal_names_the_rule_and_changes_nothing(case: Case) -> None:
    game = setup(case.game, **case.setup)
    for text in case.prelude:
        accept(game, text)
    exc = reject(game, case.refused, case.rule)
    assert not isinstance(exc, InvalidActionError)
    assert case.rule in str(exc)
    assert (exc.message_en, exc.message_fi) == REJECTION_MESSAGES[case.rule]
    if case.accepted is not None:
        accept(game, case.accepted)


# --------------------------------------------------------------------------- invalid actions


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("x1>c2", "unknown_pile"),
        ("c1>q", "unknown_pile"),
        ("c0>c1", "bad_index"),
        ("c1>f0", "bad_index"),
        ("c1:0>c2", "bad_count"),
        ("hello", "bad_notation"),
        ("", "bad_notation"),
        ("c1>>c2", "bad_notation"),
        ("c100>c1", "bad_notation"),
        ("c1:1000>c2", "bad_notation"),
        ("tx", "unknown_pile"),
        ("dd", "bad_notation"),
    ],
)
def test_unreadable_notation(text: str, code: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        parse_action(text)
    assert info.value.code == code
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("game_name", "text", "code"),
    [
        ("DS", "c10>c1", "bad_index"),
        ("DS", "c1>c10", "bad_index"),
        ("DS", "c1>f9", "bad_index"),
        ("DS", "f9>c1", "bad_index"),
        ("DS", "tc10", "bad_index"),
        ("TF", "c8>c1", "bad_index"),
        ("TF", "c1>c8", "bad_index"),
        ("TF", "c1>f5", "bad_index"),
        ("TF", "ttc8", "bad_index"),
        ("DS", "c2>c1", "empty_pile"),
        ("DS", "c2:2>c1", "empty_pile"),
        ("DS", "w>c1", "empty_pile"),
        ("DS", "tw", "empty_pile"),
        ("DS", "ttc2", "empty_pile"),
        ("DS", "f1>c1", "empty_pile"),
        ("TF", "c2>c1", "empty_pile"),
        ("TF", "w>f", "empty_pile"),
        ("DS", "c1>c1", "same_pile"),
        ("TF", "c1:2>c1", "same_pile"),
        ("DS", "c1:3>c3", "bad_count"),
        ("DS", "c1:64>c3", "bad_count"),
        ("TF", "c1:9>c3", "bad_count"),
        ("DS", "s>c1", "bad_source"),
        ("DS", "f>c1", "bad_source"),
        ("DS", "tf1", "bad_source"),
        ("DS", "ts", "bad_source"),
        ("TF", "ttf", "bad_source"),
    ],
)
def test_invalid_action_codes(game_name: str, text: str, code: str) -> None:
    game = setup(game_name, cols=["9S8H"])
    invalid(game, text, code)


def test_invalid_action_is_not_an_illegal_action() -> None:
    assert not issubclass(InvalidActionError, IllegalActionError)
    assert not issubclass(IllegalActionError, InvalidActionError)
    assert issubclass(InvalidActionError, SolitaireError)
    assert issubclass(IllegalActionError, SolitaireError)
    assert issubclass(InvalidActionError, ValueError)
    assert not issubclass(IllegalActionError, ValueError)


def test_something_that_is_not_an_action() -> None:
    game = setup("DS")
    before = game.serialize()
    for call in (game.play, game.resolve):
        with pytest.raises(InvalidActionError) as info:
            call("c1>c2")  # type: ignore[arg-type]
        assert info.value.code == "bad_action"
    assert game.serialize() == before


def test_is_legal_never_raises() -> None:
    game = setup("DS", cols=["8S", "7H"])
    assert game.is_legal(Move(column(1), column(0)))
    assert not game.is_legal(Move(column(0), column(1)))
    assert not game.is_legal(Move(column(20), column(1)))
    assert not game.is_legal(parse_action("w>c1"))
