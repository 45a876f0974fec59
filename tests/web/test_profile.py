"""The profile page: a name creates the player, its token goes with every new game; a
rename; a link code shown on one device and entered on another; the other devices signed
out."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest

from tests.web.conftest import PHONE
from tests.web.pages import expect, is_post, open_menu
from tests.web.players import as_player, new_player

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
    # The code arrives with the answer to the click: wait for it, never read it early.
    expect(page.get_by_test_id("link-code")).to_have_text(re.compile(r"^[A-Z0-9]{8}$"))
    code = page.get_by_test_id("link-code").inner_text()

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


def linked_device(api: Api, player: dict[str, Any]) -> str:
    """The token of a second device linked to ``player``."""
    status, code = api.post("/players/me/link-codes", {}, player["player_token"])
    assert status == 201, code
    status, linked = api.post("/players/link", {"link_code": code["link_code"]})
    assert status in (200, 201), linked
    return str(linked["player_token"])


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_signing_out_the_other_devices(
    new_context: Any, page_errors: PageErrors, api: Api, viewport: str
) -> None:
    player = new_player(api, "Ada")
    phone_token = linked_device(api, player)
    options = {"viewport": PHONE, "has_touch": True} if viewport == "phone" else {}
    context = new_context(**options)
    as_player(context, player)
    page = page_errors.watch(context.new_page())
    page.goto("/#/profile")
    expect(page.get_by_test_id("profile-status")).to_have_text("Playing as Ada")

    # Dismissed, the confirmation sends nothing.
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_test_id("revoke-others").click()
    expect(page.get_by_test_id("revoke-result")).to_be_hidden()
    assert api.get("/players/me", phone_token)["name"] == "Ada"

    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_response(is_post("/players/me/revoke-others")) as response:
        page.get_by_test_id("revoke-others").click()
    assert response.value.json() == {"revoked": 1}
    expect(page.get_by_test_id("revoke-result")).to_have_text("Other devices signed out: 1.")
    assert api.call("GET", "/players/me", token=phone_token)[0] == 401
    assert api.get("/players/me", player["player_token"])["name"] == "Ada"


def test_no_devices_to_sign_out_before_a_name(page: Page) -> None:
    page.goto("/#/profile")
    expect(page.get_by_test_id("profile-status")).to_contain_text("anonymously")
    expect(page.get_by_test_id("revoke-others")).to_be_disabled()
