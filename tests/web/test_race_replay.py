"""The race end screen links to the replay of one's own game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.web.pages import expect, is_post, open_menu, wait_synced

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.web.conftest import Api


def test_race_result_links_to_the_replay(page: Page, api: Api) -> None:
    open_menu(page, "race")
    page.get_by_test_id("race-name").fill("Alice")
    with page.expect_response(is_post("/races")) as response:
        page.get_by_test_id("race-create").click()
    alice: dict[str, Any] = response.value.json()
    status, bob = api.post("/races/join", {"join_code": alice["join_code"], "name": "Bob"})
    assert status == 201, bob
    status, body = api.post(f"/races/{bob['race_id']}/ready", {"ready": True}, bob["player_token"])
    assert status == 200, body
    page.get_by_test_id("race-ready").click()
    wait_synced(page, alice["game_id"])
    expect(page.get_by_test_id("race-resign")).to_be_visible()

    for seat in (alice, bob):
        status, body = api.post(f"/games/{seat['game_id']}/resign", {}, seat["player_token"])
        assert status == 200, body
    expect(page.get_by_test_id("race-result")).to_be_visible()
    # The deal code may follow the result in a later update: wait for it before reading it.
    expect(page.get_by_test_id("race-result-code")).not_to_be_empty()
    watch = page.get_by_test_id("race-watch-replay")
    expect(watch).to_have_attribute("href", f"#/replay/{alice['game_id']}")
    watch.click()
    expect(page.get_by_test_id("replay-position")).to_have_text("0 / 1")
    expect(page.get_by_test_id("replay-code")).to_have_text(
        page.get_by_test_id("race-result-code").inner_text()
    )
