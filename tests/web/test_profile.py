"""The profile page: a name creates the player, its token goes with every new game; a
rename; a link code shown on one device and entered on another."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from tests.web.conftest import PHONE
from tests.web.pages import expect, is_post, open_menu

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.web.conftest import Api, PageErrors


def saved_player(page: Page) -> dict[str, Any]:
    raw = page.evaluate("localStorage.getItem('solitaire.player')")
    return dict(json.loads(raw))


def test_naming_a_player_then_playing_as_that_player(page: Page, api: Api) -> None:
    page.get_by_test_id("menu-profile").click()  # the menu is open on a first visit
    expect(page.get_by_test_id("profile-status")).to_contain_text("anonymously")
    page.get_by_test_id("profile-name").fill("Ada")
    with page.expect_response(is_post("/players")) as created:
        page.get_by_test_id("profile-save").click()
    assert created.value.status == 201
    expect(page.get_by_test_id("profile-status")).to_have_text("Playing as Ada")
    player = saved_player(page)
    assert api.get("/players/me", player["token"])["name"] == "Ada"

    page.get_by_test_id("profile-name").fill("Grace Hopper")
    page.get_by_test_id("profile-save").click()
    expect(page.get_by_test_id("profile-status")).to_have_text("Playing as Grace Hopper")
    assert api.get("/players/me", player["token"])["name"] == "Grace Hopper"

    page.get_by_test_id("page-close").click()
    open_menu(page)
    with page.expect_response(is_post("/games")) as response:
        page.get_by_test_id("deal").click()
    assert response.value.request.headers["authorization"] == f"Bearer {player['token']}"


def test_a_bad_name_is_explained(page: Page, page_errors: PageErrors) -> None:
    page_errors.allow("422")
    page.goto("/#/profile")
    page.get_by_test_id("profile-name").fill("two  spaces")
    page.get_by_test_id("profile-save").click()
    expect(page.get_by_test_id("profile-error")).to_contain_text("cannot be used")


def test_linking_a_phone_to_the_player(
    page: Page, new_context: Any, page_errors: PageErrors, api: Api
) -> None:
    page.goto("/#/profile")
    page.get_by_test_id("profile-name").fill("Ada")
    page.get_by_test_id("profile-save").click()
    expect(page.get_by_test_id("profile-status")).to_have_text("Playing as Ada")
    page.get_by_test_id("link-code-new").click()
    code = page.get_by_test_id("link-code").inner_text()
    assert len(code) == 8

    phone = page_errors.watch(new_context(viewport=PHONE, has_touch=True).new_page())
    phone.goto("/#/profile")
    expect(phone.get_by_test_id("profile-status")).to_contain_text("anonymously")
    phone.get_by_test_id("link-input").fill(code.lower())
    phone.get_by_test_id("link-submit").click()
    expect(phone.get_by_test_id("profile-status")).to_have_text("Playing as Ada")
    on_phone = saved_player(phone)
    assert on_phone["player_id"] == saved_player(page)["player_id"]
    assert on_phone["token"] != saved_player(page)["token"]
    assert api.get("/players/me", on_phone["token"])["name"] == "Ada"
