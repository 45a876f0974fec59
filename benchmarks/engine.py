"""Engine benchmark: replay speed, legal-move listing speed and serialized size.

Usage: ``python benchmarks/engine.py [--quick] [--seed N]``

For each game (Double Solitaire, Solitaire Réfléchi) the benchmark first records random
games with undos (not timed), then times

* replaying them: a validated ``play()`` of every recorded action, undos included, from
  freshly dealt games -> actions per second;
* ``legal_actions()`` over positions taken from those games -> listings per second;
* what the service does per accepted action: ``play()``, ``public_view()``, the change
  message (``build_change``, with its JSON Patch) and ``serialize()`` -> CPU µs per action;

and finally measures the byte length of ``serialize()`` of a Double Solitaire game whose
undo history is full (200 records). Output: a table, then one JSON line per figure.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing the package
    sys.path.insert(0, str(ROOT))

from benchmarks._report import Figure, report
from service.engine import (
    Action,
    GameCode,
    GameKind,
    IllegalActionError,
    InvalidActionError,
    Klondike,
    Scoring,
    Tap,
    Undo,
    column,
    new_game,
)
from service.games.changes import build_change

TARGET_ACTIONS_PER_S = 100_000
TARGET_RECORD_BYTES = 4 * 1024


@dataclass
class Recorded:
    code: GameCode
    actions: list[Action]
    positions: list[Klondike]  # copies taken along the way, for the listing benchmark


def record_game(code: GameCode, rnd: random.Random, length: int, sample_every: int) -> Recorded:
    """Random play with undos and taps; keeps only the actions the engine accepted."""
    game = new_game(code)
    actions: list[Action] = []
    positions: list[Klondike] = []
    for step in range(length):
        roll = rnd.random()
        action: Action
        if roll < 0.12 and game.undo_available:
            action = Undo()
        elif roll < 0.20:
            source = column(rnd.randrange(game.column_count))
            action = Tap(source, double=rnd.random() < 0.5)
        else:
            legal = game.legal_actions()
            if not legal:
                break
            action = rnd.choice(legal)
        try:
            game.play(action)
        except (IllegalActionError, InvalidActionError):
            continue
        actions.append(action)
        if step % sample_every == 0:
            positions.append(game.copy())
    return Recorded(code, actions, positions)


def record_games(kind: GameKind, count: int, length: int, seed: int) -> list[Recorded]:
    rnd = random.Random(seed)
    games = []
    for n in range(count):
        draw = 1 if n % 2 == 0 else 3
        scoring = Scoring.VEGAS if kind is GameKind.DOUBLE and n % 4 >= 2 else Scoring.NORMAL
        code = GameCode(kind, draw, scoring, rnd.randrange(26**7))
        games.append(record_game(code, rnd, length, sample_every=7))
    return games


def time_replay(games: list[Recorded], repeats: int) -> tuple[float, int]:
    """Best actions per second over ``repeats`` replays of every recorded game."""
    total = sum(len(g.actions) for g in games)
    best = float("inf")
    for _ in range(repeats):
        fresh = [new_game(g.code) for g in games]  # dealing is not timed
        start = time.perf_counter()
        for game, recorded in zip(fresh, games, strict=True):
            play = game.play
            for action in recorded.actions:
                play(action)
        best = min(best, time.perf_counter() - start)
    return total / best, total


def time_listings(games: list[Recorded], repeats: int) -> tuple[float, int]:
    positions = [p for g in games for p in g.positions]
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for position in positions:
            position.legal_actions()
        best = min(best, time.perf_counter() - start)
    return len(positions) / best, len(positions)


def time_action_path(games: list[Recorded], repeats: int) -> tuple[float, int]:
    """Best CPU µs per action of the service's action path: play, view, change, state.

    As ``Games._act`` does it: the view before the action is the one kept from the
    previous action, the change is built from both views and the state is serialized
    for the store. CPU time, not wall time, so that other work on the machine counts less.
    """
    total = sum(len(g.actions) for g in games)
    best = float("inf")
    for _ in range(repeats):
        fresh = [new_game(g.code) for g in games]  # dealing is not timed
        start = time.process_time()
        for game, recorded in zip(fresh, games, strict=True):
            play, view, serialize = game.play, game.public_view, game.serialize
            before = view()
            for version, action in enumerate(recorded.actions, start=1):
                outcome = play(action)
                after = view()
                build_change("g", version, outcome, before, after)
                serialize()
                before = after
        best = min(best, time.process_time() - start)
    return best / total * 1e6, total


def full_history_bytes(seed: int) -> tuple[int, int]:
    """serialize() size of a Double Solitaire game with 200 undo records (the limit)."""
    rnd = random.Random(seed)
    game = new_game(GameCode(GameKind.DOUBLE, 1, Scoring.NORMAL, rnd.randrange(26**7)))
    while game.undo_available < game.undo_limit:
        legal = game.legal_actions()
        game.play(rnd.choice(legal))
    for _ in range(50):  # keep going: the history stays at its limit
        game.play(rnd.choice(game.legal_actions()))
    return len(game.serialize().encode("utf-8")), game.undo_available


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (a few seconds)")
    parser.add_argument("--seed", type=int, default=20261129)
    args = parser.parse_args(argv)
    count, length, repeats = (8, 150, 3) if args.quick else (200, 400, 5)

    figures: list[Figure] = []
    notes: list[str] = []
    listing_figures: list[Figure] = []
    path_figures: list[Figure] = []
    for kind in (GameKind.DOUBLE, GameKind.REFLECHI):
        games = record_games(kind, count, length, args.seed)
        rate, actions = time_replay(games, repeats)
        undos = sum(isinstance(a, Undo) for g in games for a in g.actions)
        figures.append(
            Figure(
                f"engine.{kind.value}.actions_per_s",
                round(rate),
                "1/s",
                f"validated play() replaying {actions} actions ({undos} undos) of {count} games",
                f">= {TARGET_ACTIONS_PER_S:,}",
            )
        )
        lrate, positions = time_listings(games, repeats)
        listing_figures.append(
            Figure(
                f"engine.{kind.value}.legal_listings_per_s",
                round(lrate),
                "1/s",
                f"legal_actions() over {positions} positions from those games",
            )
        )
        path_us, _ = time_action_path(games, repeats)
        path_figures.append(
            Figure(
                f"engine.{kind.value}.view_change_serialize_us",
                round(path_us, 2),
                "us",
                "CPU per action: play() + public_view() + build_change() + serialize()",
            )
        )
        if rate < TARGET_ACTIONS_PER_S:
            notes.append(f"{kind.value}: below the {TARGET_ACTIONS_PER_S:,} actions/s target")
    figures += listing_figures + path_figures
    size, records = full_history_bytes(args.seed)
    figures.append(
        Figure(
            "engine.DS.record_bytes_200_undo",
            size,
            "B",
            f"serialize() of a DS game with {records} undo records",
            f"<= {TARGET_RECORD_BYTES:,}",
        )
    )
    if size > TARGET_RECORD_BYTES:
        notes.append("DS: serialized state above the 4 KB target")
    mode = "quick" if args.quick else "full"
    title = f"Engine benchmark ({mode} run, seed {args.seed}, Python {sys.version.split()[0]})"
    report(title, figures)
    for note in notes:
        print(note, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
