"""The shared core and the seams between it and the two games.

The rules themselves are tested per rule id in ``test_ds_rules.py`` and
``test_tf_rules.py``; here: the undo records as history.py defines them, the points
table of scoring.py, the checks each game adds when a position is built, how a game code
finds its game, and the names that stay importable from their earlier home.
"""

from __future__ import annotations

import random

import pytest
from engine_support import GAMES, position, random_action

from service import engine
from service.engine import (
    DoubleSolitaire,
    GameCode,
    GameKind,
    IllegalActionError,
    InvalidActionError,
    InvalidPositionError,
    PileKind,
    Scoring,
    SolitaireReflechi,
    deserialize,
    from_position,
    new_game,
)
from service.engine.history import PILE_CODE, REC_DRAW, REC_MOVE, REC_RECYCLE, record_is_valid
from service.engine.scoring import RECYCLE_COST, move_points

# --------------------------------------------------------------------------- undo records


def _move(source: int, sindex: int, target: int, tindex: int, count: int, flip: int = 0) -> int:
    return (
        REC_MOVE | source << 3 | sindex << 5 | target << 9 | tindex << 11 | count << 15 | flip << 21
    )


COLUMN, WASTE, FOUNDATION = (
    PILE_CODE[k] for k in (PileKind.COLUMN, PileKind.WASTE, PileKind.FOUNDATION)
)


@pytest.mark.parametrize("code", ["DS1-D1N-QWERTYU", "DS1-D3V-ZZZZZZZ", "TF1-D1N-QWERTYU"])
def test_every_record_the_engine_writes_is_valid_and_reads_back(code: str) -> None:
    game = new_game(code)
    rnd = random.Random(code)
    for _ in range(600):
        try:
            game.play(random_action(game, rnd))
        except (IllegalActionError, InvalidActionError):
            continue
        if game.over:
            break
        records = game.history
        assert records, "an accepted action leaves a record"
        assert record_is_valid(records[-1], game.column_count, game.foundation_count)
    assert deserialize(game.serialize()) == game


@pytest.mark.parametrize(
    "record",
    [
        _move(COLUMN, 0, COLUMN, 8, 1, flip=1),
        _move(WASTE, 0, FOUNDATION, 7, 1),
        _move(FOUNDATION, 7, COLUMN, 0, 1),
        _move(COLUMN, 3, COLUMN, 4, 63),
        REC_DRAW | 1 << 3,
        REC_DRAW | 3 << 3,
        REC_RECYCLE,
        REC_RECYCLE | RECYCLE_COST << 3,
    ],
)
def test_record_shapes_a_double_solitaire_game_can_hold(record: int) -> None:
    assert record_is_valid(record, DoubleSolitaire.column_count, DoubleSolitaire.foundation_count)


@pytest.mark.parametrize(
    ("record", "why"),
    [
        (_move(COLUMN, 9, COLUMN, 0, 1), "no column 10"),
        (_move(COLUMN, 0, COLUMN, 9, 1), "no column 10 to move to"),
        (_move(COLUMN, 0, FOUNDATION, 8, 1), "no foundation 9"),
        (_move(WASTE, 1, COLUMN, 0, 1), "one waste only"),
        (_move(FOUNDATION, 0, FOUNDATION, 1, 1), "never foundation to foundation"),
        (_move(COLUMN, 0, WASTE, 0, 1), "never onto the waste"),
        (_move(3, 0, COLUMN, 0, 1), "no pile kind 3"),
        (_move(COLUMN, 0, COLUMN, 1, 0), "no card moved"),
        (_move(COLUMN, 0, COLUMN, 1, 1) | 1 << 22, "a bit beyond the layout"),
        (REC_DRAW, "a draw of no card"),
        (REC_DRAW | 4 << 3, "a draw of four cards"),
        (REC_RECYCLE | (RECYCLE_COST + 1) << 3, "a recycle dearer than it ever is"),
        (3, "kind 3"),
        (7, "kind 7"),
    ],
)
def test_record_shapes_that_cannot_come_from_play_are_refused(record: int, why: str) -> None:
    assert not record_is_valid(
        record, DoubleSolitaire.column_count, DoubleSolitaire.foundation_count
    ), why


def test_records_are_checked_against_the_sizes_of_their_game() -> None:
    ninth_column = _move(COLUMN, 8, COLUMN, 0, 1)
    fifth_place = _move(COLUMN, 0, FOUNDATION, 4, 1)
    for record in (ninth_column, fifth_place):
        assert record_is_valid(
            record, DoubleSolitaire.column_count, DoubleSolitaire.foundation_count
        )
        assert not record_is_valid(
            record, SolitaireReflechi.column_count, SolitaireReflechi.foundation_count
        )


# --------------------------------------------------------------------------- points


@pytest.mark.parametrize(
    ("source", "target", "flipped", "normal", "vegas"),
    [
        (PileKind.COLUMN, PileKind.COLUMN, False, 0, 0),
        (PileKind.COLUMN, PileKind.COLUMN, True, 5, 0),
        (PileKind.WASTE, PileKind.COLUMN, False, 5, 0),
        (PileKind.WASTE, PileKind.FOUNDATION, False, 10, 5),
        (PileKind.COLUMN, PileKind.FOUNDATION, False, 10, 5),
        (PileKind.COLUMN, PileKind.FOUNDATION, True, 15, 5),
        (PileKind.FOUNDATION, PileKind.COLUMN, False, 0, 0),
    ],
)
def test_points_of_a_move(
    source: PileKind, target: PileKind, flipped: bool, normal: int, vegas: int
) -> None:
    # DS-SCORE-N and TF-SCORE-1 share the Normal table; DS-SCORE-V pays foundations only.
    assert move_points(Scoring.NORMAL, source, target, flipped) == normal
    assert move_points(Scoring.VEGAS, source, target, flipped) == vegas


# --------------------------------------------------------------------------- building positions


def _reflechi(draw: int = 1, scoring: Scoring = Scoring.NORMAL, **changes: list[int]) -> None:
    """Builds an opening-like Réfléchi table, with ``changes`` to some of its piles."""
    table = from_position(position("TF", cols=["KS QH"]))
    piles = {
        "columns": [list(col) for col in table.columns],
        "down": list(table.down),
        "stock": list(table.stock),
        "foundations": list(table.foundations),
    }
    piles.update(changes)
    SolitaireReflechi(draw=draw, scoring=scoring, **piles)  # type: ignore[arg-type]


def test_reflechi_refuses_vegas_but_names_a_bad_draw_first() -> None:
    with pytest.raises(InvalidPositionError, match="draw must be 1 or 3, not 2"):
        _reflechi(draw=2, scoring=Scoring.VEGAS)
    with pytest.raises(InvalidPositionError, match="Normal scoring only"):
        _reflechi(scoring=Scoring.VEGAS)
    _reflechi(draw=3)


def test_only_reflechi_refuses_face_down_cards() -> None:
    assert from_position(position("DS", cols=["KS|QH"])).down[0] == 1
    with pytest.raises(InvalidPositionError, match="every column card is face up"):
        from_position(position("TF", cols=["KS|QH"]))


def test_a_foundation_overflow_is_named_before_face_down_cards() -> None:
    with pytest.raises(InvalidPositionError, match="a foundation holds 0 to 13 cards"):
        _reflechi(down=[1] + [0] * 6, foundations=[14, 0, 0, 0])


# --------------------------------------------------------------------------- finding the game


@pytest.mark.parametrize("code", ["DS1-D1V-AAAAAAB", "TF1-D3N-AAAAAAB"])
def test_a_code_deals_its_own_game(code: str) -> None:
    parsed = GameCode.parse(code)
    game = new_game(code)
    assert type(game) is GAMES[parsed.game.value] and game.kind is parsed.game
    assert type(from_position(game.position_text())) is type(game)
    other = DoubleSolitaire if parsed.game is GameKind.REFLECHI else SolitaireReflechi
    with pytest.raises(InvalidPositionError, match="is not a"):
        other.deal(parsed)


def test_each_game_deals_its_columns_its_own_way() -> None:
    assert new_game("DS1-D1N-AAAAAAB").down == list(range(9))
    assert new_game("TF1-D1N-AAAAAAB").down == [0] * 7


def test_names_stay_importable_from_the_games_module() -> None:
    from service.engine import game as games_module

    for name in (
        "VEGAS_START",
        "DoubleSolitaire",
        "Klondike",
        "Outcome",
        "SolitaireReflechi",
        "deserialize",
        "format_score",
        "from_position",
        "new_game",
    ):
        assert getattr(games_module, name) is getattr(engine, name), name
