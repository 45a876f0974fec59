"""Who may stand on a public board: the cost of a throwaway account.

A player reaches the public boards (the daily challenge's, best times, longest streaks)
once their account is ``board_min_account_hours`` old and has ``board_min_games``
counted games. Until then their results count in their own statistics and are shown to
them with the reason they are not on a board. An account made to try a deal, or to
scout one, is a day old before it can rank.
"""

from __future__ import annotations

from typing import Any

from ..config import Settings

_HOUR_MS = 3_600_000


def games_counted(stats_doc: dict[str, Any]) -> int:
    """Every game counted in a statistics document, all modes together."""
    return sum(int(figures["played"]) for figures in stats_doc.get("modes", {}).values())


def board_refusal(settings: Settings, created_at: int, played: int, now_ms: int) -> str | None:
    """Why a player whose account was made at ``created_at`` (ms) and has ``played``
    counted games is not on public boards yet; None when they are."""
    ready_at = created_at + int(settings.board_min_account_hours * _HOUR_MS)
    missing = settings.board_min_games - played
    reasons = []
    if now_ms < ready_at:
        reasons.append(f"the account is younger than {settings.board_min_account_hours:g} hours")
    if missing > 0:
        reasons.append(f"{missing} more counted game{'s' if missing > 1 else ''} needed")
    return "; ".join(reasons) or None
