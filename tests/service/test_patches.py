"""JSON Patch correctness: every pushed patch, applied with an independent RFC 6902
implementation to the previous state, gives exactly the next public state, over long
random games of both games in every draw and scoring mode."""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

import jsonpatch
import pytest

from service import engine
from service.games.changes import public_patch
from tests.service.helpers import (
    act,
    greet,
    pick_action,
    public_state,
    subscribe,
)
from tests.support import CheckedClient, new_game

CARDS = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]


@pytest.mark.parametrize(
    ("game", "draw", "scoring", "seed"),
    [("DS", 1, "normal", 1), ("DS", 3, "vegas", 2), ("TF", 1, "normal", 3), ("TF", 3, "normal", 4)],
)
def test_pushed_patches_rebuild_every_state(
    client: CheckedClient, game: str, draw: int, scoring: str, seed: int
) -> None:
    # A fixed deal: on a random one the favoured foundation moves could win the game
    # before the 320th version, leaving nothing to play (about 1 deal in 150 for TF).
    code = engine.GameCode(engine.GameKind(game), draw, engine.Scoring(scoring), seed)
    created = new_game(client, code=str(code))
    assert created["code"] == str(code)
    game_id, token = created["game_id"], created["player_token"]
    mirror = engine.new_game(created["code"])
    rng = random.Random(seed)
    undos = 0
    with client.checked_websocket() as ws:
        greet(ws)
        _, view = subscribe(ws, game_id, token)
        step = 0
        while view.version < 320:
            notation = pick_action(mirror, rng, undo_rate=0.12)
            assert notation is not None
            before = copy.deepcopy(view.state)
            answer, _ = act(ws, game_id, notation, f"a{step}", view=view)
            step += 1
            if answer["type"] == "error" or answer["status"] != "accepted":
                assert view.state == before
                continue
            undos += notation == "u"
            outcome = mirror.play(engine.parse_action(answer["notation"]))
            change = view.changes[-1]
            assert change["version"] == answer["version"] == view.version
            assert change["events"] == outcome.events()
            assert change["score"] == {
                "delta": outcome.score_delta,
                "total": mirror.score,
                "display": mirror.score_display,
            }
            # The patched copy equals the engine's view, and an independent diff agrees.
            assert view.state == mirror.public_view()
            assert jsonpatch.make_patch(before, view.state).apply(before) == view.state
            assert {op["op"] for op in change["patch"]} <= {"add", "remove", "replace"}
            if view.version % 40 == 0:
                assert public_state(client, game_id) == (view.version, view.state)
        assert public_state(client, game_id) == (view.version, view.state)
    assert undos >= 10


def _views_of_random_game(code: str, steps: int, seed: int) -> list[dict[str, Any]]:
    game = engine.new_game(code)
    rng = random.Random(seed)
    views = [game.public_view()]
    for _ in range(steps):
        notation = pick_action(game, rng, undo_rate=0.15, tap_rate=0.0)
        if notation is None:
            break
        game.play(engine.parse_action(notation))
        views.append(game.public_view())
    return views


@pytest.mark.parametrize(
    "code", ["DS1-D1N-AAAAAAB", "DS1-D3V-QWERTYU", "TF1-D1N-AAAAAAB", "TF1-D3N-ZZZZZZZ"]
)
def test_public_patch_agrees_with_a_generic_json_diff(code: str) -> None:
    views = _views_of_random_game(code, 400, seed=len(code))
    for before, after in itertools.pairwise(views):
        ours = public_patch(before, after)
        generic = jsonpatch.make_patch(before, after)
        assert jsonpatch.apply_patch(before, ours) == generic.apply(before) == after
        changed = {key for key in after if before[key] != after[key]}
        touched = {op["path"].split("/")[1] for op in ours}
        assert touched == changed
        # Nothing is sent for what did not change: a scalar is replaced only if it moved.
        for op in ours:
            parts = op["path"].split("/")
            if len(parts) == 2:
                assert before[parts[1]] != after[parts[1]], op


def _mutated(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same table with piles cut, grown or replaced anywhere, not only at their tops."""
    new = copy.deepcopy(view)
    for column in new["columns"]:
        roll = rng.random()
        if roll < 0.25:
            del column["up"][rng.randrange(len(column["up"]) + 1) :]
        elif roll < 0.5:
            column["up"] += rng.sample(CARDS, rng.randrange(4))
        elif roll < 0.6:
            column["up"] = rng.sample(CARDS, rng.randrange(5))
        elif roll < 0.7 and column["up"]:
            column["up"][rng.randrange(len(column["up"]))] = rng.choice(CARDS)
        if rng.random() < 0.2:
            column["down"] = rng.randrange(8)
    if rng.random() < 0.5:
        cut = rng.randrange(len(new["waste"]) + 1)
        new["waste"] = new["waste"][:cut] + rng.sample(CARDS, rng.randrange(4))
    for index in range(len(new["foundations"])):
        if rng.random() < 0.2:
            new["foundations"][index] = rng.choice([None, *CARDS])
    for key in ("stock", "score", "moves", "undo_available"):
        if rng.random() < 0.3:
            new[key] = rng.randrange(200)
    if rng.random() < 0.3:
        new["score_display"] = str(new["score"])
    if rng.random() < 0.1:
        new["won"] = not new["won"]
    return new


def test_public_patch_on_arbitrary_pile_changes() -> None:
    rng = random.Random(2024)
    views = _views_of_random_game("DS1-D1N-BCDEFGH", 120, seed=8)
    views += _views_of_random_game("TF1-D3N-BCDEFGH", 120, seed=9)
    for _ in range(1500):
        before = rng.choice(views)
        after = _mutated(before, rng)
        patch = public_patch(before, after)
        assert jsonpatch.apply_patch(before, patch) == after, (before, after, patch)
        assert (patch == []) == (before == after)
