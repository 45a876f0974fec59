"""The cached views and text forms (views.py) equal a build from scratch after every action.

``public_view()``, ``position_text()`` and ``serialize()`` reuse the parts of piles that
did not change; these tests play long random games of every mode (undos, taps, recycles,
returns from foundations, resignations) and compare them, after every action, with the
engine's forms as they were written before the cache (kept below as references), with a
copy of the game (which starts without a cache) and with the game read back from its own
serialized text. The diff must give the same patch as before on the shared views.
"""

from __future__ import annotations

import base64
import copy
import random
from typing import Any

import jsonpatch
import pytest
from engine_support import MODES, expected_public_view, random_action

from service.engine import (
    Draw,
    GameCode,
    GameKind,
    IllegalActionError,
    InvalidActionError,
    Klondike,
    Move,
    PileKind,
    Recycle,
    Resign,
    Scoring,
    deserialize,
    new_game,
)
from service.engine.cards import RANK_CHARS, cards_text
from service.games.changes import public_patch


def reference_position_text(game: Klondike) -> str:
    """``Table.position_text`` as written before the cache."""
    cols = "/".join(
        f"{cards_text(col[:n])}|{cards_text(col[n:])}"
        for col, n in zip(game.columns, game.down, strict=True)
    )
    founds = "".join(RANK_CHARS[h - 1] if h else "-" for h in game.foundations)
    return " ".join(
        (
            game.kind.value,
            f"{game.draw}{game.scoring.letter}",
            cols,
            cards_text(game.stock) or "-",
            cards_text(game.waste) or "-",
            founds,
            str(game.score),
            str(game.moves),
        )
    )


def reference_serialize(game: Klondike) -> str:
    """``Table.serialize`` as written before the cache."""
    raw = bytes(b for record in game.history for b in record.to_bytes(3, "big"))
    history = base64.b64encode(raw).decode("ascii") if raw else "-"
    ending = " resigned" if game.resigned else ""
    code = str(game.code) if game.code else "-"
    return f"{reference_position_text(game)} {code} {history}{ending}"


def _reference_list_patch(path: str, old: list[Any], new: list[Any]) -> list[dict[str, Any]]:
    """The contract of docs/protocol.md: one card added at the top or taken from it is one
    add or remove; any other change of a pile replaces it whole."""
    if old == new:
        return []
    if len(new) == len(old) + 1 and new[:-1] == old:
        return [{"op": "add", "path": f"{path}/-", "value": new[-1]}]
    if len(new) == len(old) - 1 and old[:-1] == new:
        return [{"op": "remove", "path": f"{path}/{len(new)}"}]
    return [{"op": "replace", "path": path, "value": list(new)}]


def reference_patch(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    """``public_patch`` as written before views shared their unchanged parts."""
    ops: list[dict[str, Any]] = []
    for i, (before, after) in enumerate(zip(old["columns"], new["columns"], strict=True)):
        if before == after:
            continue
        if before["down"] != after["down"]:
            ops.append({"op": "replace", "path": f"/columns/{i}/down", "value": after["down"]})
        ops += _reference_list_patch(f"/columns/{i}/up", before["up"], after["up"])
    ops += _reference_list_patch("/waste", old["waste"], new["waste"])
    for i, (before, after) in enumerate(zip(old["foundations"], new["foundations"], strict=True)):
        if before != after:
            ops.append({"op": "replace", "path": f"/foundations/{i}", "value": after})
    for key in ("stock", "score", "score_display", "moves", "undo_available", "won", "resigned"):
        if old[key] != new[key]:
            ops.append({"op": "replace", "path": f"/{key}", "value": new[key]})
    return ops


def assert_fresh(game: Klondike) -> None:
    """Every cached form equals the reference and a build without a cache."""
    view = game.public_view()
    text = game.serialize()
    position = game.position_text()
    assert view == expected_public_view(game)
    assert position == reference_position_text(game)
    assert text == reference_serialize(game)
    clone = game.copy()  # a copy starts with an empty cache
    assert clone.public_view() == view and clone.serialize() == text
    back = deserialize(text)
    assert back.serialize() == text and back.position_text() == position
    assert back.public_view() == view
    # Asked again with nothing changed: the same values.
    assert game.public_view() == view and game.serialize() == text


def _pick(game: Klondike, rnd: random.Random) -> Any:
    """``random_action``, with more turns of the stock and returns from foundations."""
    roll = rnd.random()
    if roll < 0.15:
        return Draw() if game.stock else Recycle()
    if roll < 0.25:
        returns = [
            a
            for a in game.legal_actions()
            if isinstance(a, Move) and a.source.kind is PileKind.FOUNDATION
        ]
        if returns:
            return rnd.choice(returns)
    return random_action(game, rnd)


def _play_checked(
    code: GameCode, rnd: random.Random, length: int, resign_at: int | None
) -> dict[str, int]:
    game = new_game(code)
    seen = dict.fromkeys(("undo", "recycle", "return", "flip", "draw", "resign"), 0)
    assert_fresh(game)
    before = game.public_view()
    for step in range(length):
        action = Resign() if step == resign_at else _pick(game, rnd)
        kept = copy.deepcopy(before)
        try:
            outcome = game.play(action)
        except (IllegalActionError, InvalidActionError):
            assert game.public_view() == before == kept
            continue
        after = game.public_view()
        assert before == kept, "an earlier view changed under its holder"
        assert_fresh(game)
        ops = public_patch(before, after)
        assert ops == reference_patch(kept, expected_public_view(game))
        assert jsonpatch.apply_patch(kept, ops) == after
        undone = outcome.undone
        seen["undo"] += undone is not None
        seen["recycle"] += isinstance(outcome.action, Recycle)
        seen["return"] += outcome.source is not None and outcome.source.kind is PileKind.FOUNDATION
        seen["flip"] += outcome.flipped is not None or outcome.turned_down is not None
        seen["draw"] += outcome.drawn > 0
        seen["resign"] += outcome.resigned
        before = after
        if game.over:
            break
    return seen


@pytest.mark.parametrize(
    ("kind", "mode"),
    [(kind, mode) for kind, modes in MODES.items() for mode in modes],
)
def test_cached_forms_equal_a_fresh_build_after_every_action(kind: str, mode: str) -> None:
    rnd = random.Random(f"{kind}{mode}")
    scoring = Scoring.VEGAS if mode[1] == "V" else Scoring.NORMAL
    totals = dict.fromkeys(("undo", "recycle", "return", "flip", "draw", "resign"), 0)
    for n in range(6):
        code = GameCode(GameKind(kind), int(mode[0]), scoring, rnd.randrange(26**7))
        resign_at = rnd.randrange(100, 400) if n % 2 else None  # every other game resigns
        for key, count in _play_checked(code, rnd, 400, resign_at).items():
            totals[key] += count
    # The games went through every kind of change the cache must see.
    assert totals["undo"] >= 50 and totals["return"] >= 5 and totals["draw"] >= 50
    assert totals["resign"] >= 1
    if kind == "DS":  # Solitaire Réfléchi deals no face-down card to turn
        assert totals["flip"] >= 20
    if scoring is Scoring.NORMAL:
        assert totals["recycle"] >= 5


def test_piles_edited_by_hand_are_seen() -> None:
    """No notice of a change is needed: a pile edited in place is rebuilt all the same."""
    rnd = random.Random(7)
    for code in ("DS1-D1N-AAAAAAB", "TF1-D3N-BCDEFGH"):
        game = new_game(code)
        for _ in range(60):
            game.play(rnd.choice(game.legal_actions()))
        game.public_view(), game.serialize()
        # Same length, same top card: only the contents tell the piles apart.
        stock, col = game.stock, game.columns[-1]
        stock[0], stock[1] = stock[1], stock[0]
        col[0], col[-1] = col[-1], col[0]
        assert_fresh(game)
        game.down[-1] = 0
        game.waste.append(stock.pop())
        game.foundations[0] = 0
        assert game.public_view() == expected_public_view(game)
        assert game.position_text() == reference_position_text(game)


def test_views_share_the_parts_of_unchanged_piles() -> None:
    rnd = random.Random(3)
    game = new_game("DS1-D1N-AAAAAAB")
    before = game.public_view()
    for _ in range(200):
        outcome = game.play(rnd.choice(game.legal_actions()))
        after = game.public_view()
        touched = {p.index for p in (outcome.source, outcome.target) if p and p.kind.value == "c"}
        if not touched:
            assert after["columns"] is before["columns"]
        for i, (old, new) in enumerate(zip(before["columns"], after["columns"], strict=True)):
            assert (old is new) is (i not in touched)
        if outcome.drawn:
            assert after["waste"] is not before["waste"]
            assert after["foundations"] is before["foundations"]
        before = after
