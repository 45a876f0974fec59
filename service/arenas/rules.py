"""The rules of an arena, computed without I/O (docs/arena.md): the schedule, what a heat
is worth, the order of the standings and who a wave pairs.

Points: a win is worth 2, a draw 1, a loss 0. Two wins in a row put a player on fire:
while on fire each win is worth 4 and each draw 2, and the first heat that is not a win
puts the fire out. A player's performance is the mean, over their heats, of the
opponent's rating plus 400 for a win, minus 400 for a loss. The standings order points,
then performance, then who reached their points first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

WIN, DRAW, LOSS = "win", "draw", "loss"
_BASE = {WIN: 2, DRAW: 1, LOSS: 0}
_PERFORMANCE = {WIN: 400, DRAW: 0, LOSS: -400}
# Wins in a row after which wins and draws count double.
FIRE_AFTER = 2

_SCHEDULE_ITEM = re.compile(r"^(hourly|daily)\s+(\S+)\s+(\d{1,4})m$")


@dataclass(frozen=True, slots=True)
class Recurring:
    """One line of ``ARENA_SCHEDULE``: an arena in ``mode`` every hour or every day (at
    the hour, or at midnight UTC), lasting ``minutes``."""

    every: str  # "hourly" or "daily"
    mode: str
    minutes: int

    def starts(self, now_ms: int, ahead: int) -> list[int]:
        """Start times (ms) of the arena running at ``now_ms`` and the ``ahead`` next."""
        now = datetime.fromtimestamp(now_ms / 1000, UTC)
        if self.every == "hourly":
            first, step = now.replace(minute=0, second=0, microsecond=0), timedelta(hours=1)
        else:
            first = now.replace(hour=0, minute=0, second=0, microsecond=0)
            step = timedelta(days=1)
        return [int((first + step * i).timestamp() * 1000) for i in range(ahead + 1)]


def parse_schedule(text: str, modes: set[str]) -> list[Recurring]:
    """``hourly DS.D1N 30m; daily TF.D3N 120m``: items separated by ``;``, each
    ``hourly`` or ``daily``, a mode and a duration in minutes (1 to 1440, no longer than
    the period); ``off`` (or nothing) for none. Raises ``ValueError`` on anything else."""
    found: list[Recurring] = []
    if text.strip() == "off":
        return found
    for item in filter(None, (part.strip() for part in text.split(";"))):
        matched = _SCHEDULE_ITEM.match(item)
        if matched is None:
            raise ValueError(f"arena schedule item {item!r} is not 'hourly|daily MODE NNm'")
        every, mode, minutes = matched.group(1), matched.group(2), int(matched.group(3))
        if mode not in modes:
            raise ValueError(f"arena schedule item {item!r}: unknown mode {mode!r}")
        if not 1 <= minutes <= (60 if every == "hourly" else 1440):
            raise ValueError(f"arena schedule item {item!r}: the arena outlasts its period")
        found.append(Recurring(every, mode, minutes))
    return found


def heat_outcomes(
    ranking: list[dict[str, Any]], gone: dict[str, bool], unverified: set[str] | None = None
) -> dict[str, str]:
    """Each race player's outcome of a finished heat, from the race's ranking.

    A game that broke the plausibility floor of rated play (``unverified``: played at
    machine speed, docs/ratings.md) loses the heat whatever its board shows; two such
    games both lose. Otherwise:

    The first of these that tells the two apart decides: a player who won the game
    beats one who did not (of two winners, the faster); one still connected at the end
    beats one who watched the race over a WebSocket and was disconnected when it ended
    (lost by time); one who did not resign beats one who did; more cards on the
    foundations win. Nothing told apart is a draw. ``gone`` maps a race player id to
    whether they had watched the race and were disconnected at its end.
    """

    def key(entry: dict[str, Any]) -> tuple[int, int, int, int, int]:
        won = entry["state"] == "won"
        return (
            1 if won else 0,
            -entry["rank"] if won else 0,
            0 if gone.get(entry["player_id"], False) else 1,
            0 if entry["state"] == "resigned" else 1,
            entry["foundations"],
        )

    a, b = ranking[0], ranking[1]
    flagged = {p["player_id"] for p in (a, b)} & (unverified or set())
    if flagged:
        return {p["player_id"]: LOSS if p["player_id"] in flagged else WIN for p in (a, b)}
    if key(a) == key(b):
        return {a["player_id"]: DRAW, b["player_id"]: DRAW}
    best, other = (a, b) if key(a) > key(b) else (b, a)
    return {best["player_id"]: WIN, other["player_id"]: LOSS}


def score_heat(entry: dict[str, Any], outcome: str, opponent_rating: float, at_ms: int) -> int:
    """Adds a heat's outcome to an entry (changed in place); the points it earned."""
    fire = entry["streak"] >= FIRE_AFTER
    points = _BASE[outcome] * (2 if fire else 1)
    entry["points"] += points
    entry["heats"] += 1
    entry[{WIN: "wins", DRAW: "draws", LOSS: "losses"}[outcome]] += 1
    entry["streak"] = entry["streak"] + 1 if outcome == WIN else 0
    entry["performance_sum"] += opponent_rating + _PERFORMANCE[outcome]
    if points:
        entry["reached_ms"] = at_ms
    return points


def performance(entry: dict[str, Any]) -> int:
    return round(entry["performance_sum"] / entry["heats"]) if entry["heats"] else 0


def standing_score(entry: dict[str, Any], start_ms: int) -> float:
    """One number ordering the standings (higher first): points, then performance (0 to
    9,999), then who reached their points first (to the second, within 11 days)."""
    reached = max(0, min(999_999, (entry["reached_ms"] - start_ms) // 1000))
    perf = max(0, min(9_999, performance(entry)))
    return float(entry["points"] * 10**10 + perf * 10**6 + (999_999 - reached))


def pair_free(free: list[dict[str, Any]], rank: dict[str, int]) -> list[tuple[str, str]]:
    """The pairs of one wave among the free players: in standing order (then rating),
    each with the next one below who is not their last opponent. A rematch is made only
    when nobody else is free to take either player."""
    order = sorted(
        free,
        key=lambda e: (rank.get(e["player_id"], len(rank)), -e["rating"], e["player_id"]),
    )
    taken: set[str] = set()
    pairs: list[tuple[str, str]] = []
    for i, a in enumerate(order):
        if a["player_id"] in taken:
            continue
        # The first free player below who is not a's last opponent; the scan stops
        # there, so a wave costs about one look per player, not one per pair of them.
        partner = None
        below = []
        for j in range(i + 1, len(order)):
            b = order[j]
            if b["player_id"] in taken:
                continue
            if a["last_opponent"] != b["player_id"] and b["last_opponent"] != a["player_id"]:
                partner = b
                break
            below.append(b)
        if partner is None:
            if not below:
                break
            if len(below) == 1 and len(order) - len(taken) == 2:
                partner = below[0]  # the two left are each other's last opponent: they race again
            else:
                continue
        taken.update((a["player_id"], partner["player_id"]))
        pairs.append((a["player_id"], partner["player_id"]))
    return pairs
