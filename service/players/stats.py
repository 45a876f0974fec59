"""A player's statistics: what each counted game adds, per mode, to one document.

Statistics are one document per player, changed by compare-and-set together with the
ids of the games counted last, so games of one player ending at once on several
instances all count, and counting again after a crash counts nothing twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from .. import engine
from ..errors import ServiceError, from_store
from ..protocol import ErrorCode
from ..store.records import Records
from ..store.versioned import compare_and_set
from .pace import VERIFIED, Verification

_SAVE_ATTEMPTS = 32
# Games already counted, kept in the statistics document. A game is only ever counted
# again by the repair of a player's latest game, so a short memory is enough.
_COUNTED_KEPT = 64
# The player's latest unverified games, with the rule each broke, shown to them.
_UNVERIFIED_KEPT = 20
# Ranks pack into one float: won games by time, then moves; others after every winner,
# by cards left off the foundations, then moves. Exact below 2^53.
_MOVES_SPAN = 100_000
_UNFINISHED = 10**14


def stats_key(player_id: str) -> str:
    return f"stats:{player_id}"


@dataclass(frozen=True, slots=True)
class Ending:
    """A finished game as it counts: ``won`` false for a resignation or an abandon.

    ``time_ms`` is a win's time from the deal to the winning action, as the server
    logged them; ``verification`` says whether it was played at a person's pace.
    """

    game_id: str
    mode: str  # as ``engine.Mode`` writes it: statistics and boards are kept per mode
    won: bool
    time_ms: int | None
    moves: int
    score: int
    foundations: int
    total_cards: int
    hinted: bool
    vegas: bool
    verification: Verification = VERIFIED

    @classmethod
    def of(
        cls,
        game_id: str,
        game: engine.Klondike,
        time_ms: int | None,
        hinted: bool = False,
        verification: Verification = VERIFIED,
    ) -> Ending:
        return cls(
            game_id=game_id,
            mode=str(engine.Mode.of(game)),
            won=game.won,
            time_ms=time_ms,
            moves=game.moves,
            score=game.score,
            foundations=game.cards_on_foundations(),
            total_cards=13 * game.foundation_count,
            hinted=hinted,
            vegas=game.scoring is engine.Scoring.VEGAS,
            verification=verification,
        )

    @property
    def verified(self) -> bool:
        return self.verification.verified

    def rank_score(self) -> float:
        """Lower ranks first: won, by time, then fewer moves; then cards on foundations."""
        moves = min(self.moves, _MOVES_SPAN - 1)
        if self.won and self.time_ms is not None:
            return float(self.time_ms * _MOVES_SPAN + moves)
        left = self.total_cards - self.foundations
        return float(_UNFINISHED + left * _MOVES_SPAN + moves)


def _empty_mode(vegas: bool) -> dict[str, Any]:
    figures: dict[str, Any] = {
        "played": 0,
        "won": 0,
        "hinted": 0,
        "unverified": 0,
        "current_streak": 0,
        "best_streak": 0,
        "verified_streak": 0,
        "best_verified_streak": 0,
        "best_time_ms": None,
        "fewest_moves": None,
        "best_score": None,
    }
    if vegas:
        figures["bankroll"] = 0
    return figures


def _count(figures: dict[str, Any], ending: Ending) -> None:
    # Documents written before a figure existed lack it: it starts from nothing.
    for name, start in _empty_mode(ending.vegas).items():
        figures.setdefault(name, start)
    figures["played"] += 1
    if ending.vegas:
        # Vegas players keep one running bankroll: each game adds its final dollars.
        figures["bankroll"] += ending.score
    best_score = figures["best_score"]
    figures["best_score"] = ending.score if best_score is None else max(best_score, ending.score)
    if ending.hinted:
        figures["hinted"] += 1
    if not ending.verified:
        figures["unverified"] += 1
    # The streak public boards show counts verified wins only: an unverified win ends it.
    verified_win = ending.won and ending.verified
    figures["verified_streak"] = figures["verified_streak"] + 1 if verified_win else 0
    figures["best_verified_streak"] = max(
        figures["best_verified_streak"], figures["verified_streak"]
    )
    if not ending.won:
        figures["current_streak"] = 0
        return
    figures["won"] += 1
    figures["current_streak"] += 1
    figures["best_streak"] = max(figures["best_streak"], figures["current_streak"])
    if ending.hinted or not ending.verified:
        return  # counted, but kept apart from the best times and moves
    if ending.time_ms is not None:
        best = figures["best_time_ms"]
        figures["best_time_ms"] = ending.time_ms if best is None else min(best, ending.time_ms)
    fewest = figures["fewest_moves"]
    figures["fewest_moves"] = ending.moves if fewest is None else min(fewest, ending.moves)


def _remember_unverified(doc: dict[str, Any], ending: Ending) -> None:
    if ending.verified:
        return
    entry = {"game_id": ending.game_id, "mode": ending.mode, **ending.verification.as_json()}
    del entry["verified"]
    doc["unverified_games"] = [*doc.get("unverified_games", []), entry][-_UNVERIFIED_KEPT:]


def public_stats(doc: dict[str, Any], own: bool = False) -> dict[str, Any]:
    """The statistics as anyone may read them; ``own`` adds what only their player sees:
    the unverified games, and how many per mode."""
    modes = {}
    for mode, stored in sorted(doc.get("modes", {}).items()):
        figures = _empty_mode("bankroll" in stored) | stored
        if not own:
            del figures["unverified"]
        played = figures["played"]
        modes[mode] = {**figures, "win_rate": figures["won"] / played if played else 0.0}
    stats: dict[str, Any] = {"modes": modes}
    if own:
        stats["unverified_games"] = list(reversed(doc.get("unverified_games", [])))
    return stats


class Results:
    """Counting games in their players' statistics."""

    def __init__(self, records: Records) -> None:
        self.records = records

    async def count(self, player_id: str, ending: Ending) -> tuple[bool, dict[str, Any]]:
        """Counts ``ending`` in the player's statistics once; returns whether this call
        counted it (False if it was counted before) and the document as saved.

        The game's id is written into the same document in the same compare-and-set, so
        counting can be tried again after a crash at any point without counting twice.
        """
        key = stats_key(player_id)

        async def read() -> tuple[int, dict[str, Any]]:
            stored = await from_store(self.records.load(key))
            if stored is None:
                return 0, {"modes": {}}
            return stored.version, orjson.loads(stored.text)

        def add(read: tuple[int, dict[str, Any]]) -> bool:
            doc = read[1]
            counted: list[str] = doc.setdefault("counted", [])
            if ending.game_id in counted:
                return False
            figures = doc["modes"].setdefault(ending.mode, _empty_mode(ending.vegas))
            _count(figures, ending)
            _remember_unverified(doc, ending)
            doc["counted"] = [*counted, ending.game_id][-_COUNTED_KEPT:]
            return True

        async def write(read: tuple[int, dict[str, Any]]) -> bool:
            version, doc = read
            saved: bool = await from_store(
                self.records.save(key, version, orjson.dumps(doc).decode())
            )
            return saved

        (_, doc), counted = await compare_and_set(
            read,
            add,
            write,
            attempts=_SAVE_ATTEMPTS,
            kept_changing=lambda: ServiceError(
                ErrorCode.STALE_VERSION, 409, "the statistics kept changing"
            ),
        )
        return counted, doc

    async def document(self, player_id: str) -> dict[str, Any]:
        stored = await from_store(self.records.load(stats_key(player_id)))
        return orjson.loads(stored.text) if stored else {}

    async def stats(self, player_id: str, own: bool = False) -> dict[str, Any]:
        return public_stats(await self.document(player_id), own)
