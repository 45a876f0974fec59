"""Helpers for the solver tests: replaying lines, random positions, hidden-card twins."""

from __future__ import annotations

import random
from collections.abc import Iterable

from service.engine import Card, GameCode, GameKind, Klondike, Scoring, new_game

MODES: tuple[tuple[GameKind, int, Scoring], ...] = (
    (GameKind.DOUBLE, 1, Scoring.NORMAL),
    (GameKind.DOUBLE, 3, Scoring.NORMAL),
    (GameKind.DOUBLE, 1, Scoring.VEGAS),
    (GameKind.DOUBLE, 3, Scoring.VEGAS),
    (GameKind.REFLECHI, 1, Scoring.NORMAL),
    (GameKind.REFLECHI, 3, Scoring.NORMAL),
)


def replay(game: Klondike, line: Iterable[str]) -> Klondike:
    """Plays ``line`` on a copy of ``game`` through the engine (raises if a move is refused)."""
    copy = game.copy()
    for token in line:
        copy.play_text(token)
    return copy


def random_position(
    rnd: random.Random, steps: int, modes: tuple[tuple[GameKind, int, Scoring], ...] = MODES
) -> Klondike:
    """A position reached by up to ``steps`` random legal actions from a random deal of
    one of ``modes``."""
    kind, draw, scoring = rnd.choice(modes)
    game = new_game(GameCode(kind, draw, scoring, rnd.randrange(26**7)))
    for _ in range(rnd.randrange(steps + 1)):
        actions = game.legal_actions()
        if not actions or game.won:
            break
        game.play(rnd.choice(actions))
    return game


def shown_on_the_way(game: Klondike) -> set[Card]:
    """The cards the waste showed at some position of the game's line (undo history)."""
    earlier = game.copy()
    shown = set(earlier.waste)
    while earlier.undo_available:
        earlier.undo()
        shown.update(earlier.waste)
    return shown


def hidden_twin(game: Klondike, rnd: random.Random) -> Klondike:
    """The same public position with the hidden cards (face-down and stock) dealt anew,
    except the stock cards that the waste showed on the way, which the player has seen:
    every earlier position of the line looks the same too."""
    shown = shown_on_the_way(game)
    keep = [card in shown for card in game.stock]
    hidden = [
        card for col, down in zip(game.columns, game.down, strict=True) for card in col[:down]
    ]
    hidden += [card for card, kept in zip(game.stock, keep, strict=True) if not kept]
    rnd.shuffle(hidden)
    twin = game.copy()
    taken = 0
    for col, down in zip(twin.columns, twin.down, strict=True):
        col[:down] = hidden[taken : taken + down]
        taken += down
    for i, kept in enumerate(keep):
        if not kept:
            twin.stock[i] = hidden[taken]
            taken += 1
    assert twin.public_view() == game.public_view()
    return twin
