"""A whole race between two browsers: create, join by code, ready, countdown, a move each,
both resign, the result in both, then a rematch."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.web.conftest import Api, PageErrors
from tests.web.pages import (
    auto_play,
    expect,
    faces,
    is_post,
    open_menu,
    wait_synced,
    wait_version,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page


def race_state(api: Api, race_id: str, status: str, timeout: float = 5.0) -> dict[str, Any]:
    """The race as the server has it, once it has reached ``status``."""
    deadline = time.monotonic() + timeout
    while True:
        race: dict[str, Any] = api.get(f"/races/{race_id}")["race"]
        if race["status"] == status or time.monotonic() > deadline:
            assert race["status"] == status, race
            return race
        time.sleep(0.05)


def open_page(new_context: Any, errors: PageErrors) -> Page:
    page: Page = errors.watch(new_context().new_page())
    page.goto("/")
    open_menu(page, "race")
    return page


def test_a_race_between_two_browsers(
    new_context: Any, page_errors: PageErrors, api: Api, screenshots: Path
) -> None:
    alice = open_page(new_context, page_errors)
    bob = open_page(new_context, page_errors)

    # Alice creates the race; the lobby shows its join code.
    alice.get_by_test_id("race-name").fill("Alice")
    alice.get_by_test_id("race-max").select_option("2")
    with alice.expect_response(is_post("/races")) as response:
        alice.get_by_test_id("race-create").click()
    joined_a = response.value.json()
    race_id = joined_a["race_id"]
    expect(alice.get_by_test_id("lobby")).to_be_visible()
    expect(alice.get_by_test_id("race-join-code")).to_have_text(joined_a["join_code"])
    expect(alice.get_by_test_id("race-start")).to_be_visible()  # the host may start early

    # Bob joins with the code.
    bob.get_by_test_id("race-name").fill("Bob")
    bob.get_by_test_id("race-join-code-input").fill(joined_a["join_code"].lower())
    with bob.expect_response(is_post("/races/join")) as response:
        bob.get_by_test_id("race-join").click()
    joined_b = response.value.json()
    assert joined_b["race_id"] == race_id
    for page in (alice, bob):
        expect(page.get_by_test_id("race-player")).to_have_count(2)
        expect(page.get_by_test_id("race-players")).to_contain_text("Alice")
        expect(page.get_by_test_id("race-players")).to_contain_text("Bob")
    expect(bob.get_by_test_id("race-start")).to_be_hidden()  # Bob is not the host
    race = race_state(api, race_id, "lobby")
    assert [p["name"] for p in race["players"]] == ["Alice", "Bob"]
    assert all(p["connected"] for p in race["players"])

    # Both ready: the countdown runs, then each plays their own game.
    alice.get_by_test_id("race-ready").click()
    expect(bob.locator(f'[data-player-id="{joined_a["player_id"]}"]')).to_have_attribute(
        "data-ready", ""
    )
    assert race_state(api, race_id, "lobby")["players"][0]["ready"]
    bob.get_by_test_id("race-ready").click()
    expect(alice.get_by_test_id("race-countdown")).to_be_visible()
    race = race_state(api, race_id, "running")
    assert race["start_at"] is not None and race["start_at"] <= race["server_time"]
    seats = ((alice, joined_a, joined_b), (bob, joined_b, joined_a))
    for page, me, _ in seats:
        expect(page.get_by_test_id("lobby")).to_be_hidden()
        wait_synced(page, me["game_id"])
        expect(page.get_by_test_id("race-countdown")).to_be_hidden()
        expect(page.get_by_test_id("race-resign")).to_be_visible()
    for page, me, _ in seats:
        page.get_by_test_id("stock").click()
        wait_version(page, 1)
        version, state = api.state(me["game_id"], me["player_token"])
        assert version == 1 and state["moves"] == 1
        assert faces(page, "w") == state["waste"]
    for page, _, other in seats:
        opponent = page.locator(f'[data-testid="opponent"][data-player-id="{other["player_id"]}"]')
        expect(opponent).to_have_attribute("data-moves", "1")
        expect(opponent).to_have_attribute("data-state", "playing")
    # More moves (the players' own, over HTTP): each page shows its own board and the
    # other's progress as the server counts it.
    for (page, me, _), actions in zip(seats, (24, 12), strict=True):
        version = auto_play(api, me["game_id"], me["player_token"], actions)
        wait_version(page, version)
        _, state = api.state(me["game_id"], me["player_token"])
        expect(page.get_by_test_id("score")).to_have_text(state["score_display"])
        expect(page.get_by_test_id("moves")).to_have_text(str(state["moves"]))
    # A reload keeps Bob's seat: the page finds the race and his game again.
    bob.reload()
    wait_synced(bob, joined_b["game_id"])
    _, state = api.state(joined_b["game_id"], joined_b["player_token"])
    expect(bob.get_by_test_id("moves")).to_have_text(str(state["moves"]))
    expect(bob.get_by_test_id("race-resign")).to_be_visible()
    expect(bob.get_by_test_id("lobby")).to_be_hidden()
    progress = {p["player_id"]: p for p in race_state(api, race_id, "running")["players"]}
    assert progress[joined_a["player_id"]]["moves"] == 25
    for page, _, other in seats:
        figures = progress[other["player_id"]]
        opponent = page.locator(f'[data-testid="opponent"][data-player-id="{other["player_id"]}"]')
        expect(opponent).to_have_attribute("data-moves", str(figures["moves"]))
        expect(opponent).to_have_attribute("data-foundations", str(figures["foundations"]))
        expect(opponent.get_by_test_id("opponent-score")).to_have_text(
            figures["score_display"] or "0"
        )
    # During the race nobody else may see a player's board.
    status, problem = api.call("GET", f"/games/{joined_a['game_id']}")
    assert status == 403 and problem["code"] == "race_running"

    # Both resign: the result table appears in both browsers.
    alice.get_by_test_id("race-resign").click()
    expect(alice.get_by_test_id("race-resign")).to_be_hidden()
    expect(alice.get_by_test_id("message")).to_be_visible()
    expect(
        bob.locator(f'[data-testid="opponent"][data-player-id="{joined_a["player_id"]}"]')
    ).to_have_attribute("data-state", "resigned")
    bob.get_by_test_id("race-resign").click()
    race = race_state(api, race_id, "finished")
    result = race["result"]
    ranking = [entry["player_id"] for entry in result["ranking"]]
    assert sorted(ranking) == sorted([joined_a["player_id"], joined_b["player_id"]])
    for page in (alice, bob):
        table = page.get_by_test_id("race-result")
        expect(table).to_be_visible()
        rows = page.get_by_test_id("result-row")
        expect(rows).to_have_count(2)
        for place, player_id in enumerate(ranking):
            expect(rows.nth(place)).to_have_attribute("data-player-id", player_id)
        expect(rows.first).to_have_attribute("data-rank", "1")
        expect(page.get_by_test_id("race-result-code")).to_have_text(result["code"])
        expect(page.get_by_test_id("game-code")).to_have_text(result["code"])
        expect(table).to_contain_text("Alice")
        expect(table).to_contain_text("Bob")
    alice.screenshot(path=str(screenshots / "race-result.png"))

    # A rematch: Alice asks for it and lands in a new lobby; Bob follows.
    alice.get_by_test_id("race-rematch").click()
    expect(alice.get_by_test_id("lobby")).to_be_visible()
    rematch_id = race_state(api, race_id, "finished")["rematch_race_id"]
    assert rematch_id
    rematch = race_state(api, rematch_id, "lobby")
    expect(alice.get_by_test_id("race-join-code")).to_have_text(rematch["join_code"])
    expect(bob.get_by_test_id("race-rematch")).to_have_text("Join the rematch")
    bob.get_by_test_id("race-rematch").click()
    expect(bob.get_by_test_id("race-join-code")).to_have_text(rematch["join_code"])
    for page in (alice, bob):
        expect(page.get_by_test_id("race-player")).to_have_count(2)
    assert all(p["connected"] for p in race_state(api, rematch_id, "lobby")["players"])
