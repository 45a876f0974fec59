"""The solver in the service: winnable deals from the certified pools, hints from the
public view (counted, refused in ranked play), and "was it winnable?" after the end."""

from __future__ import annotations

import functools
import time
from typing import Any

from service import engine
from service.analysis import certify
from service.solver import can_certify
from tests.players.conftest import FakeClock, new_player, players_client
from tests.service.helpers import greet, recv_until, subscribe, winnable_reflechi
from tests.support import CheckedClient, auth

# A Double Solitaire deal with Vegas scoring that the search wins in a few thousand positions.
_VEGAS_WON = "DS1-D1V-XCOFMSN"


@functools.cache
def _winnable() -> tuple[str, list[str]]:
    return winnable_reflechi()


def _drain(client: CheckedClient, mode: str) -> None:
    records = client.app.state.games.store.records  # type: ignore[attr-defined]

    async def drain() -> None:
        while await records.queue_pop(f"winnable:{mode}") is not None:
            pass

    client.portal.call(drain)  # type: ignore[union-attr]


def _push(client: CheckedClient, mode: str, code: str) -> None:
    """Makes ``code`` the only deal in the pool of ``mode``."""
    records = client.app.state.games.store.records  # type: ignore[attr-defined]

    async def push() -> None:
        while await records.queue_pop(f"winnable:{mode}") is not None:
            pass
        await records.queue_push(f"winnable:{mode}", code)

    client.portal.call(push)  # type: ignore[union-attr]


def _hint(client: CheckedClient, game: dict[str, Any]) -> Any:
    return client.post(f"/games/{game['game_id']}/hint", headers=auth(game["player_token"]))


def test_a_winnable_game_comes_from_the_pool(service: CheckedClient) -> None:
    code, _ = _winnable()
    _push(service, "TF.D1N", code)
    created = service.post("/games", json={"game": "TF", "draw": 1, "winnable": True})
    assert created.status_code == 201, created.text
    assert created.json()["code"] is None
    assert created.json()["state"] == engine.new_game(code).public_view()
    # The pool is empty now: a short wait, then a typed refusal; never an uncertified deal.
    started = time.monotonic()
    empty = service.post("/games", json={"game": "TF", "draw": 1, "winnable": True})
    assert empty.status_code == 503 and empty.json()["code"] == "winnable_pool_empty"
    assert empty.headers["retry-after"] == "5"
    assert time.monotonic() - started < 10
    bad = service.post("/games", json={"code": code, "winnable": True})
    assert bad.status_code == 422


def test_a_mode_without_certified_deals_is_refused_at_once(service: CheckedClient) -> None:
    """No pool that can never fill: a typed refusal at once, not a retry for ever."""
    for body in (
        {"game": "DS", "draw": 3, "scoring": "vegas", "winnable": True},
        {"name": "Ann", "game": "DS", "draw": 3, "scoring": "vegas", "winnable": True},
    ):
        started = time.monotonic()
        refused = service.post("/races" if "name" in body else "/games", json=body)
        assert refused.status_code == 422, refused.text
        assert refused.json()["code"] == "winnable_not_offered"
        assert "retry-after" not in refused.headers
        assert time.monotonic() - started < 1.0
    # A mode no game offers is a bad code, winnable or not.
    started = time.monotonic()
    vegas = service.post("/games", json={"game": "TF", "scoring": "vegas", "winnable": True})
    assert vegas.status_code == 422 and vegas.json()["code"] == "bad_code", vegas.text
    assert time.monotonic() - started < 1.0


def test_a_vegas_pool_serves_certified_deals(service: CheckedClient) -> None:
    _push(service, "DS.D1V", _VEGAS_WON)
    body = {"game": "DS", "draw": 1, "scoring": "vegas", "winnable": True}
    created = service.post("/games", json=body)
    assert created.status_code == 201, created.text
    assert created.json()["state"] == engine.new_game(_VEGAS_WON).public_view()


def test_single_pass_deals_are_certified() -> None:
    assert certify(_VEGAS_WON, 5.0)
    assert not can_certify(engine.Mode.parse("DS.D3V"))
    assert all(can_certify(mode) for mode in engine.Mode.all() if str(mode) != "DS.D3V")


def test_the_pool_is_refilled_with_deals_the_solver_won(store_url: str, clock: FakeClock) -> None:
    with players_client(
        store_url,
        clock,
        winnable_pool_size=1,
        certify_seconds=2.0,
        winnable_refill_poll_seconds=0.2,
    ) as client:
        _drain(client, "TF.D3N")  # of the deals the fixture put there without certifying
        deadline = time.monotonic() + 60
        while True:
            created = client.post("/games", json={"game": "TF", "draw": 3, "winnable": True})
            if created.status_code == 201 or time.monotonic() > deadline:
                break
        assert created.status_code == 201, created.text
        game = created.json()
        client.post(f"/games/{game['game_id']}/resign", headers=auth(game["player_token"]))
        analysis = client.get(f"/games/{game['game_id']}/analysis")
        assert analysis.status_code == 200, analysis.text
        record = client.get(f"/games/{game['game_id']}/record").json()
        code = engine.GameCode.parse(record["code"])
        assert code.secret
        deal = analysis.json()["deal"]
        # Certified means won by the solver (its line replayed through the engine); given
        # a budget again it may run out, but it never proves such a deal unwinnable.
        assert deal["result"] in ("won", "unknown")
        if deal["result"] == "won":
            game_copy = engine.new_game(code)
            for notation in deal["line"]:
                game_copy.play(engine.parse_action(notation))
            assert game_copy.won


def test_hints_over_http_and_websocket(service: CheckedClient) -> None:
    code, _ = _winnable()
    game = service.post("/games", json={"code": code}).json()
    first = _hint(service, game)
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["hints_used"] == 1 and body["version"] == 0
    suggestion = body["hint"]
    assert body["no_hint"] is None
    assert suggestion["message_en"] and suggestion["message_fi"] and suggestion["reason"]
    # The suggestion is legal: playing it is accepted.
    played = service.post(
        f"/games/{game['game_id']}/actions",
        json={"action": suggestion["action"]},
        headers=auth(game["player_token"]),
    )
    assert played.status_code == 200, played.text
    with service.checked_websocket() as ws:
        greet(ws)
        subscribe(ws, game["game_id"], game["player_token"])
        ws.send_json({"type": "hint", "id": "h-1", "game_id": game["game_id"]})
        answer, _ = recv_until(ws, "hint")
        assert answer["id"] == "h-1" and answer["hints_used"] == 2 and answer["version"] == 1
    # Watchers and strangers get none.
    assert service.post(f"/games/{game['game_id']}/hint").status_code == 401
    record = service.post(f"/games/{game['game_id']}/resign", headers=auth(game["player_token"]))
    assert record.status_code == 200
    after = _hint(service, game).json()
    assert after["hint"] is None and after["hints_used"] == 2
    assert after["no_hint"]["reason"] == "game_over"


def test_no_hints_in_ranked_play(service: CheckedClient) -> None:
    token = new_player(service)["player_token"]
    ranked = service.post("/daily/2026-12-01/TF.D1N/games", headers=auth(token)).json()
    refused = _hint(service, ranked)
    assert refused.status_code == 403 and refused.json()["code"] == "hints_not_allowed"
    host = service.post("/races", json={"name": "Ada", "game": "TF"}).json()
    race_hint = _hint(service, host)
    assert race_hint.status_code == 403 and race_hint.json()["code"] == "hints_not_allowed"


def test_hinted_wins_count_but_not_for_best_times(service: CheckedClient, clock: FakeClock) -> None:
    code, line = _winnable()
    token = new_player(service)["player_token"]
    _push(service, "TF.D1N", code)
    game = service.post("/games", json={"game": "TF", "winnable": True}, headers=auth(token)).json()
    _hint(service, game)
    for action in line:
        clock.now += 1
        service.post(
            f"/games/{game['game_id']}/actions",
            json={"action": action},
            headers=auth(game["player_token"]),
        )
    figures = service.get("/players/me/stats", headers=auth(token)).json()["modes"]["TF.D1N"]
    assert figures["won"] == 1 and figures["hinted"] == 1
    assert figures["best_time_ms"] is None and figures["fewest_moves"] is None
    assert service.get("/leaderboards/best-time.TF.D1N").json()["size"] == 0


def test_a_certified_win_enters_the_best_time_board(
    service: CheckedClient, clock: FakeClock
) -> None:
    code, line = _winnable()
    token = new_player(service, "Quick")["player_token"]
    _push(service, "TF.D1N", code)
    game = service.post("/games", json={"game": "TF", "winnable": True}, headers=auth(token)).json()
    for action in line:
        clock.now += 0.5
        service.post(
            f"/games/{game['game_id']}/actions",
            json={"action": action},
            headers=auth(game["player_token"]),
        )
    board = service.get("/leaderboards/best-time.TF.D1N").json()
    # Timed from the deal: the first action came half a second after it too.
    assert [(r["name"], r["value"]) for r in board["top"]] == [("Quick", len(line) * 500)]


def test_was_it_winnable_waits_for_the_end(service: CheckedClient) -> None:
    code, _ = _winnable()
    game = service.post("/games", json={"code": code}).json()
    early = service.get(f"/games/{game['game_id']}/analysis")
    assert early.status_code == 409 and early.json()["code"] == "game_not_over"
    service.post(
        f"/games/{game['game_id']}/actions",
        json={"action": "d"},
        headers=auth(game["player_token"]),
    )
    service.post(f"/games/{game['game_id']}/resign", headers=auth(game["player_token"]))
    answer = service.get(f"/games/{game['game_id']}/analysis")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["deal"]["result"] == "won"
    start = engine.new_game(code)
    for notation in body["deal"]["line"]:
        start.play(engine.parse_action(notation))
    assert start.won
    assert body["position"]["result"] in ("won", "unknown")
    if body["position"]["result"] == "won":
        stopped = engine.new_game(code)
        stopped.play(engine.parse_action("d"))
        for notation in body["position"]["line"]:
            stopped.play(engine.parse_action(notation))
        assert stopped.won
    # Worked out once, then kept.
    assert service.get(f"/games/{game['game_id']}/analysis").json() == body


def test_helpers_are_pure() -> None:
    # The functions sent to worker processes run here as well, without a service.
    from service.analysis import analyse, certify, hint_for

    code, _ = _winnable()
    assert certify(code, 5.0)
    verdicts = analyse(f"{code} d", 5.0)
    assert verdicts["deal"]["result"] == "won"
    assert hint_for(engine.new_game(code).serialize())["action"] is not None
