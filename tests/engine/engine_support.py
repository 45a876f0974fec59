"""Helpers for the engine tests: positions from a few cards, refusal checks, random play.

Positions are written in the engine's own position text (see docs/notation.md) and read
back with ``from_position``; ``position()`` only saves spelling out all 52 or 104 cards by
putting every card a test does not mention somewhere harmless.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest

from service.engine import (
    FOUNDATIONS,
    STOCK,
    WASTE,
    Action,
    DoubleSolitaire,
    Draw,
    IllegalActionError,
    InvalidActionError,
    Klondike,
    Move,
    Outcome,
    PileKind,
    Recycle,
    Scoring,
    SolitaireReflechi,
    Tap,
    Undo,
    column,
    foundation,
    from_position,
    parse_action,
)
from service.engine.cards import CARD_TEXT, RANK_CHARS, RANK_OF, cards_text, parse_cards

GAMES: dict[str, type[Klondike]] = {"DS": DoubleSolitaire, "TF": SolitaireReflechi}
MODES: dict[str, tuple[str, ...]] = {"DS": ("1N", "3N", "1V", "3V"), "TF": ("1N", "3N")}
COPIES = {"DS": 2, "TF": 1}


def _cards(text: str) -> list[int]:
    return parse_cards(text.replace(" ", ""))


def position(
    game: str = "DS",
    *,
    mode: str = "1N",
    cols: Iterable[str] = (),
    waste: str = "",
    found: str = "",
    stock_next: str = "",
    rest: str | int = "stock",
    score: int | None = None,
    moves: int = 0,
) -> str:
    """Position text with the given cards; every card not mentioned goes to ``rest``.

    ``cols`` are written like the position text (``"<down>|<up>"``, bottom first); a
    column without ``|`` is all face up. ``found`` gives the foundation heights as rank
    characters (``"A-3"``), padded with ``-``. ``stock_next`` lists the cards to be drawn
    next, in drawing order. ``rest`` says where the unmentioned cards go: ``"stock"``
    (under ``stock_next``), ``"waste"`` (under ``waste``) or a column index (face down at
    the bottom in Double Solitaire, the last of them face up if the column shows nothing
    else; face up at the bottom in Solitaire Réfléchi).
    """
    cls = GAMES[game]
    ncols, nfound = cls.column_count, cls.foundation_count
    col_list = list(cols)
    assert len(col_list) <= ncols
    col_list += [""] * (ncols - len(col_list))
    downs: list[list[int]] = []
    ups: list[list[int]] = []
    for text in col_list:
        down, bar, up = text.partition("|")
        if not bar:
            down, up = "", down
        downs.append(_cards(down))
        ups.append(_cards(up))
    assert len(found) <= nfound
    heights = [0 if ch == "-" else RANK_CHARS.index(ch) + 1 for ch in found.ljust(nfound, "-")]
    waste_cards = _cards(waste)
    next_cards = _cards(stock_next)
    used: Counter[int] = Counter()
    for cards in (*downs, *ups, waste_cards, next_cards):
        used.update(cards)
    for place, height in enumerate(heights):
        suit = cls.foundation_suit(place)
        used.update(suit * 13 + r for r in range(height))
    leftover: list[int] = []
    for card in range(52):
        extra = COPIES[game] - used[card]
        if extra < 0:
            raise ValueError(f"{CARD_TEXT[card]} is used {used[card]} times")
        leftover += [card] * extra
    stock = list(reversed(next_cards))
    if rest == "stock":
        stock = leftover + stock
    elif rest == "waste":
        waste_cards = leftover + waste_cards
    else:
        assert isinstance(rest, int)
        if game == "DS":
            downs[rest] = leftover + downs[rest]
            if not ups[rest] and downs[rest]:
                ups[rest] = [downs[rest].pop()]
        else:
            ups[rest] = leftover + downs[rest] + ups[rest]
            downs[rest] = []
    if score is None:
        score = -104 + 5 * sum(heights) if mode.endswith("V") else 0
    columns = "/".join(f"{cards_text(d)}|{cards_text(u)}" for d, u in zip(downs, ups, strict=True))
    founds = "".join(RANK_CHARS[h - 1] if h else "-" for h in heights)
    return " ".join(
        (
            game,
            mode,
            columns,
            cards_text(stock) or "-",
            cards_text(waste_cards) or "-",
            founds,
            str(score),
            str(moves),
        )
    )


def setup(game: str = "DS", **kwargs: Any) -> Klondike:
    """The game of ``position(game, **kwargs)``, read back with ``from_position``."""
    return from_position(position(game, **kwargs))


def as_action(action: Action | str) -> Action:
    return parse_action(action) if isinstance(action, str) else action


def reject(game: Klondike, action: Action | str, rule_id: str) -> IllegalActionError:
    """Asserts that ``action`` is refused under ``rule_id`` and changes nothing."""
    before = game.serialize()
    with pytest.raises(IllegalActionError) as info:
        game.play(as_action(action))
    exc = info.value
    assert exc.rule_id == rule_id, str(exc)
    assert exc.message_en.strip() and exc.message_fi.strip()
    assert exc.message_en != exc.message_fi
    assert game.serialize() == before
    assert not game.is_legal(as_action(action))
    return exc


def invalid(game: Klondike, action: Action | str, code: str) -> InvalidActionError:
    """Asserts that ``action`` is not understood (``code``) and changes nothing."""
    before = game.serialize()
    with pytest.raises(InvalidActionError) as info:
        game.play(as_action(action))
    assert info.value.code == code, str(info.value)
    assert not isinstance(info.value, IllegalActionError)
    assert game.serialize() == before
    return info.value


def accept(game: Klondike, action: Action | str) -> Outcome:
    """Plays ``action``, which must be accepted; checks ``is_legal`` agreed beforehand."""
    parsed = as_action(action)
    assert game.is_legal(parsed), f"{parsed} should be legal in {game.position_text()}"
    return game.play(parsed)


def fields(game: Klondike) -> list[str]:
    return game.position_text().split()


def cols(game: Klondike) -> list[str]:
    """The column field of the position text, split per column."""
    return fields(game)[2].split("/")


def without_moves(serialized: str) -> list[str]:
    """Serialized state without the move counter (undo never lowers it)."""
    parts = serialized.split()
    return parts[:7] + parts[8:]


# --------------------------------------------------------------------------- invariants


def card_counts(game: Klondike) -> Counter[int]:
    """Every card on the table: hidden ones, face-up column cards, waste, foundations."""
    counts: Counter[int] = Counter(game.hidden_cards())
    for col, down in zip(game.columns, game.down, strict=True):
        counts.update(col[down:])
    counts.update(game.waste)
    for place, height in enumerate(game.foundations):
        suit = game.foundation_suit(place)
        counts.update(suit * 13 + r for r in range(height))
    return counts


def assert_conserved(game: Klondike) -> None:
    copies = game.kind.deck_copies
    counts = card_counts(game)
    assert sorted(counts) == list(range(52))
    assert set(counts.values()) == {copies}
    hidden = len(game.hidden_cards())
    assert hidden == sum(game.down) + len(game.stock)


def expected_public_view(game: Klondike) -> dict[str, Any]:
    """The public view rebuilt from the private state, independently of ``public_view``."""
    columns = []
    for col, down in zip(game.columns, game.down, strict=True):
        columns.append({"down": down, "up": [CARD_TEXT[c] for c in col[down:]]})
    tops: list[str | None] = []
    for place, height in enumerate(game.foundations):
        tops.append(CARD_TEXT[game.foundation_suit(place) * 13 + height - 1] if height else None)
    score = game.score
    if game.scoring is Scoring.NORMAL:
        display = str(score)
    else:
        display = f"-${-score}" if score < 0 else f"${score}"
    return {
        "game": game.kind.value,
        "draw": game.draw,
        "scoring": game.scoring.value,
        "columns": columns,
        "stock": len(game.stock),
        "waste": [CARD_TEXT[c] for c in game.waste],
        "foundations": tops,
        "score": score,
        "score_display": display,
        "moves": game.moves,
        "undo_available": 0 if game.won or game.resigned else len(game.history),
        "won": game.won,
        "resigned": game.resigned,
    }


def assert_public_view_hides(game: Klondike) -> None:
    view = game.public_view()
    assert view == expected_public_view(game)
    assert isinstance(view["stock"], int)
    assert all(isinstance(c["down"], int) for c in view["columns"])
    text = json.dumps(view)
    visible: Counter[str] = Counter()
    for col, down in zip(game.columns, game.down, strict=True):
        visible.update(CARD_TEXT[c] for c in col[down:])
    visible.update(CARD_TEXT[c] for c in game.waste)
    visible.update(t for t in view["foundations"] if t)
    for card in range(52):
        name = CARD_TEXT[card]
        assert text.count(f'"{name}"') == visible[name], name


# --------------------------------------------------------------------------- random play


def random_pile(game: Klondike, rnd: random.Random) -> Any:
    roll = rnd.random()
    if roll < 0.55:
        return column(rnd.randrange(game.column_count + 1))
    if roll < 0.7:
        return WASTE
    if roll < 0.8:
        return FOUNDATIONS
    if roll < 0.95:
        return foundation(rnd.randrange(game.foundation_count + 1))
    return STOCK


def random_action(game: Klondike, rnd: random.Random) -> Action:
    """Mostly legal actions, with undos, taps and arbitrary (often refused) requests."""
    roll = rnd.random()
    if roll < 0.62:
        legal = game.legal_actions()
        if legal:
            return rnd.choice(legal)
    if roll < 0.74:
        return Undo()
    if roll < 0.84:
        source = column(rnd.randrange(game.column_count)) if rnd.random() < 0.8 else WASTE
        return Tap(source, double=rnd.random() < 0.5)
    if roll < 0.88:
        return Draw() if rnd.random() < 0.7 else Recycle()
    count = 1 if rnd.random() < 0.6 else rnd.randint(1, 6)
    return Move(random_pile(game, rnd), random_pile(game, rnd), count)


@dataclass
class Tally:
    """Counts behind the scoring identities, kept per accepted action so undo can rewind."""

    placed: int = 0  # cards put on a foundation (a returned card counts again when re-placed)
    flips: int = 0
    waste_to_column: int = 0
    recycle_cost: int = 0
    returns: int = 0

    def after(self, outcome: Outcome) -> Tally:
        t = Tally(self.placed, self.flips, self.waste_to_column, self.recycle_cost, self.returns)
        if isinstance(outcome.action, Recycle):
            t.recycle_cost -= outcome.score_delta
        if outcome.source is not None and outcome.target is not None:
            skind, tkind = outcome.source.kind, outcome.target.kind
            if tkind is PileKind.FOUNDATION:
                t.placed += 1
            elif skind is PileKind.FOUNDATION:
                t.returns += 1
            elif skind is PileKind.WASTE:
                t.waste_to_column += 1
        if outcome.flipped is not None:
            t.flips += 1
        return t

    def expected_score(self, scoring: Scoring) -> int:
        if scoring is Scoring.VEGAS:
            return -104 + 5 * self.placed
        return 10 * self.placed + 5 * self.flips + 5 * self.waste_to_column - self.recycle_cost


@dataclass
class Walk:
    """A record of random play: the accepted actions (normalized) in order."""

    played: list[Action] = field(default_factory=list)
    refused: int = 0
    undone: int = 0


def greedy_finish(
    game: Klondike, limit: int = 20_000, on_step: Callable[[int, Outcome], None] | None = None
) -> list[Outcome]:
    """Plays foundation moves first, then waste-to-column moves, then the stock, until won.

    It never moves cards between columns and is meant for constructed easy positions
    (columns sorted so that the lowest card lies on top), where it always wins.
    ``on_step(score_before, outcome)`` is called after every action.
    """
    outcomes: list[Outcome] = []
    for _ in range(limit):
        if game.won:
            return outcomes
        legal = game.legal_actions()
        to_foundation = [
            a for a in legal if isinstance(a, Move) and a.target.kind is PileKind.FOUNDATION
        ]
        waste_to_col = [
            a
            for a in legal
            if isinstance(a, Move)
            and a.source.kind is PileKind.WASTE
            and a.target.kind is PileKind.COLUMN
        ]
        stock = [a for a in legal if isinstance(a, Draw | Recycle)]
        choice = (to_foundation or waste_to_col or stock or [None])[0]
        if choice is None:
            raise AssertionError(f"stuck in {game.position_text()}")
        score = game.score
        outcomes.append(game.play(choice))
        if on_step is not None:
            on_step(score, outcomes[-1])
    raise AssertionError(f"not won after {limit} actions: {game.position_text()}")


def easy_position(game: str, mode: str, seed: int) -> str:
    """A deal-shaped position that ``greedy_finish`` wins.

    Columns have the deal's sizes and face-down counts, but each column is sorted so that
    ranks fall from bottom to top. In draw 1 Normal the stock stays shuffled (so the game
    needs recycles). Otherwise (a single Vegas pass, or draw 3, whose fixed groups of three
    could block forever) the stock comes out in rank order, grouped for draw 3 so that the
    card turned last is the lowest of its three.
    """
    rnd = random.Random(seed)
    cls = GAMES[game]
    deck = list(range(52)) * COPIES[game]
    rnd.shuffle(deck)
    columns = []
    taken = 0
    for size in range(1, cls.column_count + 1):
        cards = sorted(deck[taken : taken + size], key=lambda c: -RANK_OF[c])
        taken += size
        down = size - 1 if game == "DS" else 0
        columns.append(f"{cards_text(cards[:down])}|{cards_text(cards[down:])}")
    stock = deck[taken:]
    if mode != "1N":
        stock.sort(key=lambda c: RANK_OF[c])
        if mode.startswith("3"):
            stock = [c for i in range(0, len(stock), 3) for c in reversed(stock[i : i + 3])]
    return position(
        game, mode=mode, cols=columns, stock_next=cards_text(stock), rest="stock", moves=0
    )
