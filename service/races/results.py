"""What a race document says, computed without I/O: its status, its public view, and
once it is over its result and ranking.

Progress figures (cards on foundations, score, moves) come from the players' games,
which the caller reads; everything here is a function of the document, the figures and
the time ``at`` (milliseconds of server time).
"""

from __future__ import annotations

from typing import Any

from ..store.race_document import RaceDocument, RacePlayer


def status(doc: RaceDocument, at: int) -> str:
    if doc.finished_at is not None:
        return "finished"
    if doc.start_at is None:
        return "lobby"
    return "countdown" if at < doc.start_at else "running"


def finish_if_done(doc: RaceDocument, at: int) -> None:
    """Marks a race finished once every player won or resigned, or its time is up."""
    if doc.finished_at is not None or doc.start_at is None:
        return
    if doc.ends_at is not None and at >= doc.ends_at:
        doc.finished_at = doc.ends_at  # noticed late or not, it ended at its limit
    elif all(p.ended for p in doc.players):
        doc.finished_at = at


def finish_ms(doc: RaceDocument, player: RacePlayer) -> int | None:
    if player.won_at is None or doc.start_at is None:
        return None
    return int(player.won_at - doc.start_at)


def rank_players(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Winners by time to win; then cards on foundations, score, fewer moves."""

    def key(entry: dict[str, Any]) -> tuple[int, int, int, int, int]:
        won = entry["state"] == "won"
        return (
            0 if won else 1,
            entry["finish_ms"] if won else 0,
            -entry["foundations"],
            -entry["score"],
            entry["moves"],
        )

    ranked = sorted(entries, key=key)
    for rank, entry in enumerate(ranked, start=1):
        entry["rank"] = rank
    return ranked


def race_result(
    doc: RaceDocument,
    progress: dict[str, dict[str, Any]],
    actions: dict[str, list[str]],
) -> dict[str, Any]:
    """The ranking, the deal's code and each player's game record."""
    entries = []
    records: dict[str, str] = {}
    for player in doc.players:
        figures = progress[player.player_id]
        entries.append(
            {
                "player_id": player.player_id,
                "name": player.name,
                "state": player.state,
                "connected": player.connected,
                "finish_ms": finish_ms(doc, player),
                "foundations": figures["foundations"],
                "score": figures["score"],
                "score_display": figures["score_display"],
                "moves": figures["moves"],
            }
        )
        records[player.player_id] = " ".join([doc.code, *actions[player.player_id]])
    return {"code": doc.code, "ranking": rank_players(entries), "records": records}


def public_view(doc: RaceDocument, at: int, progress: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The public race: never the code (until the end), tokens or game ids."""
    race_status = status(doc, at)
    players = []
    for player in doc.players:
        state = player.state
        if state == "playing" and not player.connected:
            state = "disconnected"
        players.append(
            {
                "player_id": player.player_id,
                "name": player.name,
                "ready": player.ready,
                "state": state,
                "connected": player.connected,
                "finish_ms": finish_ms(doc, player),
                **progress[player.player_id],
            }
        )
    return {
        "race_id": doc.race_id,
        "join_code": doc.join_code,
        "game": doc.game,
        "draw": doc.draw,
        "scoring": doc.scoring,
        "max_players": doc.max_players,
        "time_limit_seconds": doc.time_limit_seconds,
        "status": race_status,
        "host": doc.host,
        "server_time": at,
        "start_at": doc.start_at,
        "ends_at": doc.ends_at,
        "finished_at": doc.finished_at,
        "players": players,
        "result": doc.result if race_status == "finished" else None,
        "rematch_race_id": doc.rematch_race_id,
        "rated": doc.rated,
    }
