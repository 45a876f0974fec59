"""Random play of both games in every mode, checking the engine's invariants at each step.

Play mixes legal actions with undos, taps and arbitrary requests (many of them refused).
After every step the tests check card conservation, hidden information, round-trips of
the text forms, the scoring identities and, after an undo, that the earlier state is back.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

import pytest
from engine_support import (
    MODES,
    Tally,
    assert_conserved,
    assert_public_view_hides,
    random_action,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine import (
    DEAL_COUNT,
    Action,
    Draw,
    GameCode,
    GameKind,
    GameRecord,
    IllegalActionError,
    InvalidActionError,
    Klondike,
    Move,
    Recycle,
    Scoring,
    Tap,
    Undo,
    deserialize,
    from_position,
    new_game,
)

EXAMPLES = 40
MAX_STEPS = 300


@st.composite
def game_codes(draw: st.DrawFn, game: str) -> str:
    deal = draw(st.integers(0, DEAL_COUNT - 1))
    mode = draw(st.sampled_from(MODES[game]))
    code = GameCode(
        GameKind(game),
        int(mode[0]),
        Scoring.VEGAS if mode[1] == "V" else Scoring.NORMAL,
        deal,
    )
    return str(code)


@dataclass
class Snapshot:
    serialized: str
    public: dict[str, object]


@dataclass
class Run:
    game: Klondike
    played: list[Action] = field(default_factory=list)
    accepted: int = 0
    refused: int = 0
    undos: int = 0


def _public_without_counters(view: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in view.items() if k not in ("moves", "undo_available")}


def _history_field(serialized: str) -> str:
    history = serialized.split()[-1]
    return "" if history == "-" else history


def play_and_check(code: str, rnd: random.Random, steps: int, *, deep: bool) -> Run:
    """Random play from ``code``; every step is checked, ``deep`` adds the costly checks."""
    game = new_game(code)
    run = Run(game)
    limit = game.undo_limit
    snapshots: deque[Snapshot] = deque(maxlen=limit)
    tallies: deque[Tally] = deque([Tally()], maxlen=limit + 1)
    normal = game.scoring is Scoring.NORMAL
    for _ in range(steps):
        action = random_action(game, rnd)
        before = game.serialize()
        moves_before = game.moves
        listed = game.legal_actions()
        score_before = game.score
        public_before = game.public_view()
        try:
            outcome = game.play(action)
        except (IllegalActionError, InvalidActionError):
            run.refused += 1
            assert game.serialize() == before, f"refused {action} changed the state"
            continue
        run.played.append(outcome.action)
        if isinstance(action, Undo):
            run.undos += 1
            assert game.moves == moves_before  # undo never touches the counter
            snap = snapshots.pop()
            tallies.pop()
            now = game.serialize()
            assert now.split()[:7] == snap.serialized.split()[:7]
            assert now.split()[8] == snap.serialized.split()[8]
            # Same records as before the undone action, except the oldest ones that fell
            # off the limited history since then (4 base64 characters per record).
            history = _history_field(now)
            assert _history_field(snap.serialized).endswith(history)
            assert len(history) == 4 * len(snapshots)
            assert _public_without_counters(game.public_view()) == _public_without_counters(
                snap.public
            )
        else:
            run.accepted += 1
            assert game.moves == moves_before + 1
            # Whatever was asked (a tap, an area drop, a draw on an empty stock), what was
            # played is one of the listed actions.
            assert outcome.action in listed, f"{action} -> {outcome.action} not in legal_actions"
            if isinstance(action, Move | Tap):
                assert isinstance(outcome.action, Move)
            if isinstance(outcome.action, Recycle):
                assert normal  # DS-STOCK-5: never under Vegas
                assert outcome.score_delta == -min(100, score_before)  # the floor at 0
            if isinstance(action, Draw | Recycle):
                assert isinstance(outcome.action, Draw | Recycle)
            snapshots.append(Snapshot(before, public_before))
            tallies.append(tallies[-1].after(outcome))
        tally = tallies[-1]
        assert game.score == tally.expected_score(game.scoring), (code, run.played)
        if tally.returns == 0:
            if normal:
                assert game.score == (
                    10 * game.cards_on_foundations()
                    + 5 * tally.flips
                    + 5 * tally.waste_to_column
                    - tally.recycle_cost
                )
            else:
                assert game.score == -104 + 5 * game.cards_on_foundations()
        if normal:
            assert game.score >= 0
        assert game.undo_available == (0 if game.won else len(snapshots))
        assert_conserved(game)
        if deep:
            text = game.serialize()
            assert deserialize(text).serialize() == text
            position = game.position_text()
            assert from_position(position).position_text() == position
            assert_public_view_hides(game)
    return run


SEEDS = st.integers(0, 2**32 - 1)


@pytest.mark.parametrize("game_name", ["DS", "TF"])
@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data(), seed=SEEDS, steps=st.integers(1, MAX_STEPS))
def test_random_play_keeps_every_invariant(
    game_name: str, data: st.DataObject, seed: int, steps: int
) -> None:
    code = data.draw(game_codes(game_name), label="code")
    run = play_and_check(code, random.Random(seed), steps, deep=True)
    # Replay determinism: the record of what was played rebuilds the same state.
    record = GameRecord(GameCode.parse(code), run.played)
    replayed = GameRecord.parse(str(record)).replay()
    assert replayed.serialize() == run.game.serialize()


@pytest.mark.parametrize("game_name", ["DS", "TF"])
@settings(max_examples=EXAMPLES // 2, deadline=None)
@given(data=st.data(), seed=SEEDS)
def test_every_listed_action_is_accepted(game_name: str, data: st.DataObject, seed: int) -> None:
    code = data.draw(game_codes(game_name), label="code")
    rnd = random.Random(seed)
    game = new_game(code)
    for _ in range(120):
        listed = game.legal_actions()
        assert len(set(map(str, listed))) == len(listed)  # no duplicates
        for action in listed:
            trial = game.copy()
            outcome = trial.play(action)
            assert outcome.action == action
            assert game.is_legal(action) and game.resolve(action) == action
        if not listed:
            break
        undo = game.undo_available and rnd.random() < 0.1
        game.play(Undo() if undo else rnd.choice(listed))


@pytest.mark.parametrize("game_name", ["DS", "TF"])
@settings(max_examples=EXAMPLES // 2, deadline=None)
@given(data=st.data(), seed=SEEDS, n=st.integers(1, 99))
def test_undo_all_the_way_back(game_name: str, data: st.DataObject, seed: int, n: int) -> None:
    """Playing n < limit actions and undoing n times gives the opening position again."""
    code = data.draw(game_codes(game_name), label="code")
    rnd = random.Random(seed)
    game = new_game(code)
    opening = game.serialize()
    played = 0
    for _ in range(n):
        listed = game.legal_actions()
        if not listed:
            break
        game.play(rnd.choice(listed))
        played += 1
    for _ in range(played):
        game.play(Undo())
    assert game.serialize().split()[:7] == opening.split()[:7]
    assert game.serialize().split()[8:] == opening.split()[8:]
    assert game.moves == played
    with pytest.raises(IllegalActionError):
        game.play(Undo())
