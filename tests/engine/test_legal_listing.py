"""``legal_actions`` against a plain reference listing, over positions of every mode.

The reference tries every candidate move, from every source to every target and with
every count, keeps those the engine accepts in their applied form, and puts them in the
order ``legal_actions`` documents. The listing must be exactly that list: the same
actions in the same order (hints, the solver's tests and the HTTP answer rely on both).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from engine_support import MODES, easy_position, setup

from service.engine import (
    WASTE,
    Action,
    Draw,
    GameCode,
    GameKind,
    IllegalActionError,
    InvalidActionError,
    Klondike,
    Move,
    PileKind,
    Recycle,
    Scoring,
    column,
    foundation,
    from_position,
    new_game,
)
from service.engine.cards import KING, RANK_OF

GAMES_PER_MODE = 5
STEPS = 260
SAMPLE_EVERY = 8


def reference_listing(game: Klondike) -> list[Action]:
    """Every candidate in the documented order, kept when legal and already applied.

    The order: the draw or the recycle; the waste to the foundations, then to the
    columns; each column from the left, to the foundations, then from its deepest card
    up (the largest count first) to each column; each foundation place to each column.
    Targets go left to right. A candidate that the engine would play as another action
    (a draw that recycles, a drop on the foundation place the card does not go to) is
    not an applied form, and is left out.
    """
    if game.over:
        return []
    places = [foundation(p) for p in range(game.foundation_count)]
    columns = [column(j) for j in range(game.column_count)]
    candidates: list[Action] = [Draw(), Recycle()]
    for count in range(len(game.waste), 0, -1):
        candidates += [Move(WASTE, target, count) for target in places + columns]
    for i, col in enumerate(game.columns):
        source = column(i)
        counts = range(len(col), 0, -1)
        candidates += [Move(source, place, count) for count in counts for place in places]
        candidates += [Move(source, target, count) for count in counts for target in columns]
    for place, height in enumerate(game.foundations):
        source = foundation(place)
        for count in range(height, 0, -1):
            candidates += [Move(source, target, count) for target in places + columns]
    return [a for a in candidates if _applied(game, a) == a]


def _applied(game: Klondike, action: Action) -> Action | None:
    """What the engine would play for ``action`` (``is_legal`` without resolving twice)."""
    try:
        return game.resolve(action)
    except (IllegalActionError, InvalidActionError):
        return None


def _lean(game: Klondike, legal: list[Action], rnd: random.Random) -> Action:
    """A random legal action, leaning towards progress so that games reach empty columns
    and full foundations, with some cards taken back from the foundations."""
    moves = [a for a in legal if isinstance(a, Move)]
    home = [a for a in moves if a.target.kind is PileKind.FOUNDATION]
    emptying = [
        a
        for a in moves
        if a.source.kind is PileKind.COLUMN
        and a.source.index is not None
        and a.count == len(game.columns[a.source.index])
    ]
    back = [a for a in moves if a.source.kind is PileKind.FOUNDATION]
    roll = rnd.random()
    if home and roll < 0.45:
        return rnd.choice(home)
    if emptying and roll < 0.6:
        return rnd.choice(emptying)
    if back and roll < 0.65:
        return rnd.choice(back)
    return rnd.choice(legal)


def _played(game: Klondike, rnd: random.Random) -> Iterator[Klondike]:
    for step in range(STEPS):
        legal = game.legal_actions()
        if not legal:
            return
        game.play(_lean(game, legal, rnd))
        if step % SAMPLE_EVERY == 0:
            yield game.copy()


def _code(game: str, mode: str, deal: int) -> GameCode:
    scoring = Scoring.VEGAS if mode[1] == "V" else Scoring.NORMAL
    return GameCode(GameKind(game), int(mode[0]), scoring, deal)


def _handmade(game: str) -> list[Klondike]:
    """Cases random play meets rarely, if ever."""
    if game == "DS":
        return [
            # Face-up cards that fit on their own column's top (only a position text
            # makes them), an empty column, and Kings in every place that can feed one.
            setup("DS", cols=["|7H 9C 8S", "", "|KD QS", "5C|KH"], waste="KS", found="--K"),
            # Both places of a row fit: only the first is listed (DS-FND-3).
            setup("DS", cols=["AS", "AS", "2H"], found="--A"),
            # Every column empty, the stock empty: a recycle and Kings only.
            setup("DS", mode="3N", waste="KC", rest="waste"),
        ]
    return [
        # An ordered run blocked by the card under it, Kings onto two empty columns (from
        # the waste, a column and a foundation) and a foundation card that fits a column.
        setup("TF", cols=["3D KS QH JS", "", "8S", "", "9H 7D"], found="-7-K", waste="KD"),
        # Under Normal scoring an empty stock recycles; the waste's King goes anywhere empty.
        setup("TF", mode="3N", cols=["KH", ""], waste="KD", rest="waste"),
    ]


def positions(game: str) -> Iterator[Klondike]:
    rnd = random.Random(f"legal-listing-{game}")
    yield from _handmade(game)
    for mode in MODES[game]:
        for _ in range(GAMES_PER_MODE):
            yield from _played(new_game(_code(game, mode, rnd.randrange(26**7))), rnd)
        # Deals whose columns fall in rank order reach the late game: empty columns,
        # high foundations and cards that can come back from them.
        yield from _played(from_position(easy_position(game, mode, rnd.randrange(10**6))), rnd)


def _features(game: Klondike, listed: list[Action]) -> set[str]:
    found: set[str] = set()
    for action in listed:
        if isinstance(action, Draw | Recycle):
            found.add(type(action).__name__)
            continue
        assert isinstance(action, Move)
        source, target = action.source.kind.name, action.target.kind.name
        found.add(f"{source}>{target}")
        if action.count > 1:
            found.add("run")
        index = action.target.index
        if target == "COLUMN" and index is not None and not game.columns[index]:
            found.add(f"king {source}>empty")
    if any(not col for col in game.columns):
        found.add("empty column")
    if game.scoring is Scoring.VEGAS:
        found.add("vegas")
    return found


@pytest.mark.parametrize("game_name", ["DS", "TF"])
def test_legal_actions_equal_the_reference_listing(game_name: str) -> None:
    seen: Counter[str] = Counter()
    for game in positions(game_name):
        listed = game.legal_actions()
        reference = reference_listing(game)
        assert listed == reference, game.position_text()
        for action in listed:
            assert game.is_legal(action) and game.resolve(action) == action
            if isinstance(action, Move) and action.target.kind is PileKind.COLUMN:
                target = action.target.index
                assert target is not None
                if not game.columns[target]:
                    moving = _moving_card(game, action)
                    assert RANK_OF[moving] == KING
        seen.update(_features(game, listed))
        seen["positions"] += 1
    # The positions cover what the listing distinguishes, so that the comparison means
    # something for each kind of action.
    expected = {
        "Draw",
        "Recycle",
        "WASTE>FOUNDATION",
        "WASTE>COLUMN",
        "COLUMN>FOUNDATION",
        "COLUMN>COLUMN",
        "FOUNDATION>COLUMN",
        "run",
        "empty column",
        "king WASTE>empty",
        "king COLUMN>empty",
        "king FOUNDATION>empty",
    }
    if game_name == "DS":
        expected.add("vegas")
    assert expected <= set(seen), sorted(expected - set(seen))
    assert seen["positions"] > 300


def _moving_card(game: Klondike, move: Move) -> int:
    source = move.source
    if source.kind is PileKind.WASTE:
        return game.waste[-1]
    assert source.index is not None
    if source.kind is PileKind.COLUMN:
        return game.columns[source.index][-move.count]
    return game.foundation_suit(source.index) * 13 + game.foundations[source.index] - 1
