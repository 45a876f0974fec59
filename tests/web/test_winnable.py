"""The "Winnable deal" option of the new-game menu: a deal from the service's pool of
certified deals, and a clear message (with the wait the service asks for) when the pool
of that kind is empty."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.support import fill_winnable_pools
from tests.web.conftest import PHONE
from tests.web.pages import expect, is_post, open_menu, wait_synced

if TYPE_CHECKING:
    from playwright.sync_api import Page, Response

    from tests.web.conftest import Api, PageErrors


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_a_winnable_deal_from_the_menu(
    new_context: Any, page_errors: PageErrors, api: Api, service_app: Any, viewport: str
) -> None:
    # One more deal in each daily mode's pool, so the daily tests keep theirs.
    fill_winnable_pools(service_app, per_mode=1)
    options = {"viewport": PHONE, "has_touch": True} if viewport == "phone" else {}
    page = page_errors.watch(new_context(**options).new_page())
    page.goto("/")
    open_menu(page)
    page.get_by_test_id("opt-game-TF").click()
    page.get_by_test_id("opt-winnable").click()
    expect(page.get_by_test_id("opt-winnable-input")).to_be_checked()
    with page.expect_response(is_post("/games")) as response:
        page.get_by_test_id("deal").click()
    assert response.value.status == 201
    assert response.value.request.post_data_json == {
        "game": "TF",
        "draw": 1,
        "scoring": "normal",
        "winnable": True,
    }
    created = response.value.json()
    assert created["code"] is None  # a certified deal stays secret until the end
    expect(page.get_by_test_id("menu")).to_be_hidden()
    wait_synced(page, created["game_id"])
    expect(page.get_by_test_id("game-code")).to_have_text("—")
    assert api.state(created["game_id"])[1]["game"] == "TF"


def test_an_empty_pool_is_explained(page: Page, page_errors: PageErrors) -> None:
    page_errors.allow("503")
    # No pool of Vegas deals is filled in these tests, and none is ever made (pool size 0).
    refused = _ask_for_winnable_vegas(page, draw=1)
    assert refused.status == 503
    problem = refused.json()
    assert problem["code"] == "winnable_pool_empty"
    assert refused.headers["retry-after"] == str(problem["retry_after"])
    error = page.get_by_test_id("menu-error")
    expect(error).to_contain_text("No certified winnable deal of this kind is ready yet")
    expect(error).to_contain_text(f"try again in {problem['retry_after']} s")
    expect(page.get_by_test_id("menu")).to_be_visible()

    page.get_by_test_id("opt-winnable").click()  # a random deal of the same kind still deals
    with page.expect_response(is_post("/games")) as response:
        page.get_by_test_id("deal").click()
    assert response.value.status == 201
    posted = response.value.request.post_data_json
    assert posted is not None and "winnable" not in posted


def test_a_kind_without_winnable_deals_is_explained(page: Page, page_errors: PageErrors) -> None:
    page_errors.allow("422")
    refused = _ask_for_winnable_vegas(page, draw=3)
    assert refused.status == 422
    assert refused.json()["code"] == "winnable_not_offered"
    error = page.get_by_test_id("menu-error")
    expect(error).to_contain_text("Winnable deals are not offered")
    expect(page.get_by_test_id("menu")).to_be_visible()


def _ask_for_winnable_vegas(page: Page, draw: int) -> Response:
    open_menu(page)
    page.get_by_test_id(f"opt-draw-{draw}").click()
    page.get_by_test_id("opt-scoring-vegas").click()
    page.get_by_test_id("opt-winnable").click()
    with page.expect_response(is_post("/games"), timeout=20_000) as response:
        page.get_by_test_id("deal").click()
    return response.value
