"""Every board read page by page (``offset``, ``top``, ``next_offset``), each row once and
in order; equal values in the order they were reached; typed refusals of bad paging; on
both stores."""

from __future__ import annotations

from typing import Any

import pytest

from service.players.boards import Boards
from tests.players.conftest import new_player
from tests.support import CheckedClient

TODAY = "2026-12-01"
# Ties on purpose: the order between equal values is part of what is tested.
SCORES = [5.0, 3.0, 3.0, 9.0, 3.0, 1.0, 7.0, 3.0, 5.0, 2.0, 3.0]


def _enter(service: CheckedClient, board: str, member: str, score: float, **kw: Any) -> None:
    boards: Boards = service.app.state.boards  # type: ignore[attr-defined]
    assert service.portal is not None
    service.portal.call(lambda: boards.add(board, member, score, **kw))


def _players(service: CheckedClient, count: int) -> list[str]:
    """``count`` player ids, in descending order: entered in that order, players tied on a
    value stand in the order they reached it, never in the order of their ids."""
    ids = [new_player(service, f"P{i}")["player_id"] for i in range(count)]
    return sorted(ids, reverse=True)


def _read_all(service: CheckedClient, path: str, page: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    offset: int | None = 0
    pages = 0
    while offset is not None:
        response = service.get(f"{path}?offset={offset}&top={page}")
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["offset"] == offset and body["size"] == len(SCORES)
        assert 0 < len(body["top"]) <= page
        rows.extend(body["top"])
        offset = body["next_offset"]
        pages += 1
    assert pages == -(-len(SCORES) // page)
    return rows


@pytest.mark.parametrize(
    ("path", "key", "sign"),
    [
        ("/leaderboards/best-time.TF.D1N", "best-time:TF.D1N", 1.0),
        ("/leaderboards/streak.DS.D3V", "streak:DS.D3V", -1.0),
        (f"/daily/{TODAY}/TF.D1N", f"daily:{TODAY}.TF.D1N", 1.0),
    ],
)
def test_a_board_read_page_by_page(
    service: CheckedClient, path: str, key: str, sign: float
) -> None:
    players = _players(service, len(SCORES))
    for player, score in zip(players, SCORES, strict=True):
        _enter(service, key, player, sign * score)
    # Lower scores first (the longest streak is the lowest); equal ones in the order
    # they were entered.
    order = sorted(range(len(SCORES)), key=lambda i: (sign * SCORES[i], i))
    expected = [players[i] for i in order]
    for page in (1, 4, len(SCORES), 100):
        rows = _read_all(service, path, page)
        assert [row["player_id"] for row in rows] == expected, page
        assert [row["rank"] for row in rows] == list(range(1, len(SCORES) + 1))
    whole = service.get(f"{path}?top=100").json()
    assert whole["top"] == rows and whole["next_offset"] is None
    assert service.get(f"{path}?offset={len(SCORES)}").json()["top"] == []


def test_equal_values_rank_in_the_order_they_were_reached(service: CheckedClient) -> None:
    ada, bob, cy, dan = _players(service, 4)
    board, path = "streak:TF.D1N", "/leaderboards/streak.TF.D1N"

    def order() -> list[str]:
        return [row["player_id"] for row in service.get(path).json()["top"]]

    for player in (ada, bob, cy):
        _enter(service, board, player, -3.0)
    assert order() == [ada, bob, cy]
    _enter(service, board, ada, -3.0)  # reached again: keeps its place
    _enter(service, board, ada, -1.0)  # worse: kept out
    _enter(service, board, bob, -3.0, replace=True)  # replaced by the same: kept
    assert order() == [ada, bob, cy]
    _enter(service, board, dan, -4.0)
    _enter(service, board, cy, -4.0)  # reached 4 after Dan
    assert order() == [dan, cy, ada, bob]
    _enter(service, board, dan, -2.0, replace=True)  # a worse value replaced: goes behind
    assert order() == [cy, ada, bob, dan]


def test_no_rows_asked_no_rows_given(service: CheckedClient) -> None:
    players = _players(service, 3)
    for player in players:
        _enter(service, "best-time:TF.D1N", player, 1000.0)
    body = service.get("/leaderboards/best-time.TF.D1N?top=0").json()
    assert body["top"] == [] and body["size"] == 3 and body["next_offset"] is None


@pytest.mark.parametrize("path", ["/leaderboards/streak.TF.D1N", f"/daily/{TODAY}/TF.D1N"])
@pytest.mark.parametrize(
    "query",
    [
        "offset=-1",
        "offset=abc",
        "offset=1.5",
        "offset=",
        "offset=%201",
        "offset=1_0",
        "offset=%D9%A3",
        "offset=1000000001",
        "offset=" + "9" * 30,
        "top=101",
        "top=-1",
        "around=26",
        "around=%2B1",
    ],
)
def test_bad_paging_is_refused(service: CheckedClient, path: str, query: str) -> None:
    response = service.get(f"{path}?{query}")
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "bad_message"
    assert query.split("=")[0] in response.json()["detail"]
