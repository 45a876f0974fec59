"""An arena's record and its players' entries as the store keeps them (JSON), and how
players read them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson

from ..store import hash_token
from ..support.ids import derived_token
from . import rules


def arena_token(player_token: str, arena_id: str) -> str:
    """The player's race token in every heat of the arena: derived from their player
    token, so the entry keeps only its hash and only that player can compute it."""
    return derived_token(player_token, "arena", arena_id)


def dumps(value: dict[str, Any]) -> str:
    return orjson.dumps(value).decode()


def status(record: dict[str, Any], now_ms: int) -> str:
    if record.get("cancelled"):
        return "cancelled"
    if now_ms < record["start_at"]:
        return "upcoming"
    return "running" if now_ms < record["ends_at"] else "finished"


def arena_view(record: dict[str, Any], now_ms: int, players: int) -> dict[str, Any]:
    return {
        "arena_id": record["arena_id"],
        "name": record["name"],
        "mode": record["mode"],
        "start_at": record["start_at"],
        "ends_at": record["ends_at"],
        "minutes": record["minutes"],
        "status": status(record, now_ms),
        "final": bool(record.get("final")),
        "scheduled": not record["created_by"],
        "created_by": record["created_by"] or None,
        "players": players,
        "server_time": now_ms,
    }


def new_entry(
    player_id: str, name: str, rating: float, token_hash: str, now_ms: int
) -> dict[str, Any]:
    return {
        "player_id": player_id,
        "name": name,
        "rating": rating,
        "token_hash": token_hash,
        "present": True,
        "state": "free",
        "heat": None,
        "free_since": now_ms,
        "last_opponent": "",
        "points": 0,
        "heats": 0,
        "wins": 0,
        "draws": 0,
        "losses": 0,
        "streak": 0,
        "performance_sum": 0.0,
        "reached_ms": now_ms,
        "joined_ms": now_ms,
    }


def row(entry: dict[str, Any], rank: int) -> dict[str, Any]:
    """A line of the standings (``rank`` from 1)."""
    return {
        "rank": rank,
        "player_id": entry["player_id"],
        "name": entry["name"],
        "rating": round(entry["rating"]),
        "points": entry["points"],
        "heats": entry["heats"],
        "wins": entry["wins"],
        "draws": entry["draws"],
        "losses": entry["losses"],
        "streak": entry["streak"],
        "fire": entry["streak"] >= rules.FIRE_AFTER,
        "performance": rules.performance(entry),
        "playing": entry["state"] == "playing",
        "present": entry["present"],
    }


def you(entry: dict[str, Any], rank: int, player_token: str, arena_id: str) -> dict[str, Any]:
    """The player's own entry, with their current heat and its race token."""
    token = arena_token(player_token, arena_id)
    return own_line(entry, rank, token, hash_token(token))


def own_line(entry: dict[str, Any], rank: int, token: str, token_hash: str) -> dict[str, Any]:
    """``you`` for a caller who keeps the player's arena token and its hash: an
    instance telling a thousand players their heats derives each token once."""
    heat = entry["heat"]
    if heat is not None:
        heat = {**heat, "player_token": token if token_hash == entry["token_hash"] else None}
    return {**row(entry, rank), "heat": heat}


# Rank -> a line of a page of the standings.
Rows = dict[int, dict[str, Any]]


def changed_lines(before: Rows | None, rows: Rows, full: bool) -> list[dict[str, Any]]:
    """The lines of a page that differ from ``before`` (all of them when ``full``)."""
    if full or before is None:
        return list(rows.values())
    return [row for rank, row in rows.items() if before.get(rank) != row]


def standings_message(
    arena_id: str,
    page_number: int,
    page: dict[str, Any],
    full: bool,
    rows: list[dict[str, Any]],
    you: dict[str, Any] | None,
    request_id: str | None = None,
) -> bytes:
    """An ``arena_standings`` message: lines of page ``page_number`` (as read in
    ``page``), and the follower's own line when given."""
    message: dict[str, Any] = {
        "type": "arena_standings",
        "arena_id": arena_id,
        "page": page_number,
        "total": page["total"],
        "full": full,
        "final": page["final"],
        "rows": rows,
        "you": you,
    }
    if request_id is not None:
        message["id"] = request_id
    return orjson.dumps(message)


def stamp(start_ms: int) -> str:
    """A start time as ``YYYYMMDDHHMM`` (UTC), part of a scheduled arena's id."""
    return datetime.fromtimestamp(start_ms / 1000, UTC).strftime("%Y%m%d%H%M")
