"""Hints followed alone never go round in circles: through a talon with nothing new to
show, or with a move and its reverse. They end in ``no_useful_move`` (or a won game),
while a draw is still suggested as long as drawing can show something."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from service.engine import Klondike, from_position, new_game
from service.solver import hint

# A Solitaire Réfléchi table (all cards face up) with the Aces and 2s home, where nothing
# on the table or in the talon can be played: the 3s lie under Kings, the Queens and the
# red 8s under other cards, and no talon card fits a column or a foundation. The only move
# is an idle one, 9S from TH (c6) over to TD (c7), which makes room for nothing.
COLUMNS = ("3SKS", "3HKH", "3DKD", "3CKC", "QSQH8H4S", "QD8D9CTH9S", "QC4H4DTD")
TALON = ("4C", *(f"{rank}{suit}" for rank in "567" for suit in "SHDC"), "8S", "8C", "9H", "9D",
         "TS", "TC", "JS", "JH", "JD", "JC")  # fmt: skip


def position(draw: int, columns: Sequence[str] = COLUMNS, talon: Sequence[str] = TALON,
             on_waste: int = 0) -> Klondike:  # fmt: skip
    """The table above; ``talon`` in drawing order, its first ``on_waste`` cards drawn."""
    stock = "".join(reversed(talon[on_waste:])) or "-"
    waste = "".join(talon[:on_waste]) or "-"
    cols = "/".join("|" + col for col in columns)
    return from_position(f"TF {draw}N {cols} {stock} {waste} 2222 0 0")


def follow(game: Klondike, limit: int) -> list[str]:
    """Plays the hints until one has no action; their actions, then its reason."""
    taken: list[str] = []
    for _ in range(limit):
        suggestion = hint(game)
        if suggestion.action is None:
            return [*taken, suggestion.reason]
        taken.append(suggestion.action)
        game.play_text(suggestion.action)
    raise AssertionError(f"no end after {limit} hints: {' '.join(taken[-40:])}")


@pytest.mark.parametrize("draw", [1, 3])
def test_once_the_whole_talon_was_seen_no_useful_move_instead_of_a_recycle(draw: int) -> None:
    draws = -(-len(TALON) // draw)
    assert follow(position(draw), 100) == ["d"] * draws + ["no_useful_move"]


def test_a_pass_begun_midway_recycles_to_show_the_cards_not_seen_in_it() -> None:
    # Five cards were drawn before the table last changed: a pass starts at the sixth.
    game = position(1, on_waste=5)
    assert follow(game, 100) == ["d"] * 18 + ["r"] + ["d"] * 4 + ["no_useful_move"]


def test_a_table_changed_after_the_pass_is_worth_a_new_pass() -> None:
    game = position(3)
    assert follow(game, 100)[-1] == "no_useful_move"
    game.play_text("c6>c7")  # the idle move, which the hints never suggested
    again = follow(game, 100)
    # The recycle and seven draws of three: the last 2 cards were on top as the pass began.
    assert again == ["r"] + ["d"] * 7 + ["no_useful_move"]


def test_a_useful_card_passed_by_keeps_the_draw_until_it_is_played() -> None:
    # The 8H is now in the talon, and it fits on the 9S.
    columns = (*COLUMNS[:4], "QSQH4S", *COLUMNS[5:])
    talon = (*TALON[:10], "8H", *TALON[10:])
    game = position(1, columns, talon)
    for _ in range(11):
        assert hint(game).action == "d"
        game.play_text("d")
    assert hint(game).action == "w>c6"
    for _ in range(len(talon) + 4):  # the player draws on, round the talon and past the 8H
        game.play_text("r" if not game.stock else "d")
    assert game.public_view()["waste"][-1] != "8H" and len(game.waste) == 14
    assert hint(game).action == "d"  # the 8H lies ahead: drawing is not in vain
    ended = follow(game, 100)
    assert "w>c6" in ended and ended[-1] == "no_useful_move"


def test_no_move_back_and_forth() -> None:
    # 4S on 5H (c1) and 5D on top of c2, with both red foundations at 4: moving the 4S
    # either way frees a red 5 for its foundation; it is moved once, then the 5 goes home.
    columns = ("AS9C5H4S", "2S8C5D", "AC3S7H", "2C6S3C9S", "KDQCJH", "KHQSJDTCTS", "KCQDJC")
    home = {"H": 4, "D": 4}
    on_table = {col[i : i + 2] for col in columns for i in range(0, len(col), 2)}
    talon = [
        f"{rank}{suit}"
        for suit in "SHDC"
        for rank in "A23456789TJQK"[home.get(suit, 0) :]
        if f"{rank}{suit}" not in on_table
    ]
    cols = "/".join("|" + col for col in columns)
    game = from_position(f"TF 1N {cols} {''.join(talon)} - -44- 0 0")
    first = hint(game)
    assert (first.action, first.reason) == ("c1>c2", "free_home")
    game.play_text("c1>c2")
    second = hint(game)
    assert second.action != "c2>c1", second
    assert (second.action, second.reason) == ("c1>f", "home")


# Deals on which the hints used to go round: a talon drawn through again and again
# (TF1-D1N-AAAAAAA, TF1-D3N-AAAAAAA, DS1-D3N-AAAAAAE), a run moved to and fro between
# two columns as a card "freed to go home" (DS1-D1N-AAAAAAA), and idle runs shuffled
# between twin Double Solitaire columns once the Vegas stock was used up.
@pytest.mark.parametrize(
    "code",
    [
        "TF1-D1N-AAAAAAA",
        "TF1-D3N-AAAAAAA",
        "DS1-D3N-AAAAAAE",
        "DS1-D1N-AAAAAAA",
        "DS1-D1V-AAAAAAD",
        "DS1-D3V-AAAAAAA",
    ],
)
def test_hints_followed_alone_never_come_back_to_a_position(code: str) -> None:
    game = new_game(code)
    seen: set[str] = set()
    for _ in range(1000):
        view = game.public_view()
        where = repr((view["columns"], view["stock"], view["waste"], view["foundations"]))
        assert where not in seen, f"hints came back to a position after {game.moves} actions"
        seen.add(where)
        suggestion = hint(game)
        if suggestion.action is None:
            assert suggestion.reason == ("game_over" if game.won else "no_useful_move")
            return
        game.play_text(suggestion.action)
    raise AssertionError("no end after 1000 hints")
