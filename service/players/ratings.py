"""Ratings per player and mode, from rated races (docs/ratings.md).

A rated race's outcome is computed once, when the race finishes, inside the same
compare-and-set that saves its result (``outcome``), so retries and a second instance
finishing the same race compute nothing twice. Each player's rating document then takes
the outcome by compare-and-set together with the race's id (``apply``): a document that
lists the race already changes nothing, so applying again after a lost reply or a crash
is harmless, and readers of a finished race apply it again to catch up.

Ratings use openskill's Plackett-Luce model on the familiar scale of 1500 and a
deviation of 500; one model fits two players and eight alike.
"""

from __future__ import annotations

from typing import Any

import orjson
from openskill.models import PlackettLuce

from ..config import Settings
from ..errors import ServiceError, from_store
from ..protocol import ErrorCode
from ..store import Store
from ..store.records import Records
from ..store.versioned import compare_and_set
from . import Players
from .eligibility import board_refusal
from .pace import PaceRule, judge

INITIAL_RATING = 1500.0
INITIAL_DEVIATION = 500.0
# openskill's own defaults scaled by 60: beta half the deviation, tau a 300th of the rating.
MODEL = PlackettLuce(
    mu=INITIAL_RATING, sigma=INITIAL_DEVIATION, beta=INITIAL_DEVIATION / 2, tau=5.0
)
_SAVE_ATTEMPTS = 32
# Races already applied, kept in the rating document: only the races of the last few
# minutes are ever applied again.
_RATED_KEPT = 64


def ratings_key(player_id: str) -> str:
    return f"ratings:{player_id}"


def board_name(mode: str) -> str:
    return f"rating:{mode}"


def rating_order(ranking: list[dict[str, Any]], verified: dict[str, bool]) -> dict[str, int]:
    """Seat player id -> rank for the rating (1 first): the race's documented order,
    equal where that order cannot tell players apart, and a game played faster than a
    person plays (``pace``) after every other, as if it were lost."""

    def key(entry: dict[str, Any]) -> tuple[int, ...]:
        if not verified.get(entry["player_id"], True):
            return (2,)
        won = entry["state"] == "won"
        return (
            0 if won else 1,
            entry["finish_ms"] or 0 if won else 0,
            -entry["foundations"],
            -entry["score"],
            entry["moves"],
        )

    keys = {entry["player_id"]: key(entry) for entry in ranking}
    return {pid: 1 + sum(other < mine for other in keys.values()) for pid, mine in keys.items()}


def public_entry(stored: dict[str, Any], provisional_games: int) -> dict[str, Any]:
    return {
        "rating": round(stored["rating"]),
        "deviation": round(stored["deviation"]),
        "games": stored["games"],
        "provisional": stored["games"] < provisional_games,
    }


class Ratings:
    def __init__(self, store: Store, settings: Settings, players: Players) -> None:
        self.store = store
        self.records: Records = store.records
        self.settings = settings
        self.players = players
        self.provisional_games = settings.rating_provisional_games
        self.pace = PaceRule(
            settings.pace_burst_actions,
            settings.pace_burst_gap_ms,
            settings.pace_min_moves,
            settings.pace_median_ms,
        )

    async def _document(self, player_id: str) -> dict[str, Any]:
        stored = await from_store(self.records.load(ratings_key(player_id)))
        found: dict[str, Any] = orjson.loads(stored.text) if stored else {}
        return found

    async def standing(self, player_id: str, mode: str) -> dict[str, Any]:
        doc = await self._document(player_id)
        found = doc.get("modes", {}).get(mode)
        return found or {"rating": INITIAL_RATING, "deviation": INITIAL_DEVIATION, "games": 0}

    async def outcome(
        self,
        mode: str,
        seats: list[tuple[str, str, str]],
        ranking: list[dict[str, Any]],
    ) -> list[dict[str, Any]] | None:
        """The rating changes of a finished race, for its result: ``seats`` are (seat
        player id, player account, game id) of the players with an account. None when
        fewer than two players can be rated."""
        seats = list({account: seat for seat in seats for account in [seat[1]] if account}.values())
        if len(seats) < 2:
            return None
        verified = {}
        for seat_id, _, game_id in seats:
            timed = await from_store(self.store.timed_actions(game_id)) or []
            verified[seat_id] = judge(timed, self.pace).verified
        ranks = rating_order([e for e in ranking if e["player_id"] in verified], verified)
        before = [await self.standing(account, mode) for _, account, _ in seats]
        teams = [[MODEL.rating(mu=b["rating"], sigma=b["deviation"])] for b in before]
        after = MODEL.rate(teams, ranks=[ranks[seat_id] for seat_id, _, _ in seats])
        changes = []
        for (seat_id, _, _), old, [new] in zip(seats, before, after, strict=True):
            changes.append(
                {
                    "player_id": seat_id,
                    "rank": ranks[seat_id],
                    "verified": verified[seat_id],
                    "rating": new.mu,
                    "change": new.mu - old["rating"],
                    "deviation": new.sigma,
                    "deviation_before": old["deviation"],
                }
            )
        return changes

    async def apply(self, race_id: str, mode: str, account: str, change: dict[str, Any]) -> None:
        """Applies one player's change from a race's outcome, once however often called."""
        key = ratings_key(account)

        async def read() -> tuple[int, dict[str, Any]]:
            stored = await from_store(self.records.load(key))
            return (stored.version, orjson.loads(stored.text)) if stored else (0, {"modes": {}})

        def add(read: tuple[int, dict[str, Any]]) -> bool:
            doc = read[1]
            rated: list[str] = doc.setdefault("rated", [])
            if race_id in rated:
                return False
            modes = doc.setdefault("modes", {})
            entry = modes.setdefault(
                mode, {"rating": INITIAL_RATING, "deviation": INITIAL_DEVIATION, "games": 0}
            )
            # A race of the same player finished in between moved the rating: the change
            # is added to it, and the deviation shrinks by the same factor.
            entry["rating"] += change["change"]
            entry["deviation"] *= change["deviation"] / change["deviation_before"]
            entry["games"] += 1
            doc["rated"] = [*rated, race_id][-_RATED_KEPT:]
            return True

        async def write(read: tuple[int, dict[str, Any]]) -> bool:
            saved: bool = await from_store(
                self.records.save(key, read[0], orjson.dumps(read[1]).decode())
            )
            return saved

        (_, doc), applied = await compare_and_set(
            read,
            add,
            write,
            attempts=_SAVE_ATTEMPTS,
            kept_changing=lambda: ServiceError(
                ErrorCode.STALE_VERSION, 409, "the ratings kept changing"
            ),
        )
        entry = doc["modes"][mode]
        if applied and await self._on_boards(account, entry["games"]):
            await from_store(
                self.records.board_add(board_name(mode), account, -entry["rating"], replace=True)
            )

    async def _on_boards(self, account: str, rated_games: int) -> bool:
        """A rating reaches its public board once it is not provisional and its player
        may stand on public boards (``eligibility``): a throwaway account cannot farm a
        rating board either. A player who becomes eligible enters at their next race."""
        if rated_games < self.provisional_games:
            return False
        player = await self.players.load(account)
        played_at = self.players.now_ms()
        return board_refusal(self.settings, player.created_at, rated_games, played_at) is None

    async def of(self, player_id: str) -> dict[str, Any]:
        """Mode -> the player's public rating there."""
        doc = await self._document(player_id)
        return {
            mode: public_entry(entry, self.provisional_games)
            for mode, entry in sorted(doc.get("modes", {}).items())
        }
