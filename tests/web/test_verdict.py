""" "Was it winnable?" on the end screen of a solo game: the solver's verdict on the deal,
and on the stopping position of a resigned game, as the service gives them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.web.conftest import PHONE
from tests.web.pages import expect, start_code
from tests.web.players import WINNING_CODE, WINNING_LINE, play

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.web.conftest import Api, PageErrors

SOLVER_MS = 60_000  # two verdicts of up to ANALYSIS_SECONDS each, in a fresh process

DEAL_TEXT = {
    "won": "The deal was winnable",
    "unwinnable": "The deal could not be won",
    "unknown": "could not decide in its time whether the deal was winnable",
}
POSITION_TEXT = {
    "won": "the game could still be won",
    "unwinnable": "the game could no longer be won",
    "unknown": "whether the game could still be won",
}


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_a_resigned_game_says_whether_deal_and_position_were_winnable(
    new_context: Any, page_errors: PageErrors, api: Api, viewport: str, screenshots: Path
) -> None:
    options = {"viewport": PHONE, "has_touch": True} if viewport == "phone" else {}
    page = page_errors.watch(new_context(**options).new_page())
    page.goto("/")
    created = start_code(page, "TF1-D1N-AAAAAAB")
    game_id = created["game_id"]
    play(api, game_id, created["player_token"], ["d", "d"])
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("resign").click()

    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_be_visible()
    expect(verdict).to_have_attribute("data-state", "done", timeout=SOLVER_MS)
    answer = api.get(f"/games/{game_id}/analysis")  # kept since the page's request
    deal = page.get_by_test_id("verdict-deal")
    expect(deal).to_have_attribute("data-result", answer["deal"]["result"])
    expect(deal).to_contain_text(DEAL_TEXT[answer["deal"]["result"]])
    position = page.get_by_test_id("verdict-position")
    expect(position).to_have_attribute("data-result", answer["position"]["result"])
    expect(position).to_contain_text(POSITION_TEXT[answer["position"]["result"]])
    if answer["deal"]["result"] == "won":  # the length of the solver's winning line
        expect(deal).to_contain_text(f"in {len(answer['deal']['line'])} actions")
    page.screenshot(path=str(screenshots / f"verdict-{viewport}.png"))


def test_a_won_game_has_the_verdict_of_its_deal_only(page: Page, api: Api) -> None:
    created = start_code(page, WINNING_CODE)
    play(api, created["game_id"], created["player_token"], WINNING_LINE.split())
    expect(page.get_by_test_id("won")).to_be_visible(timeout=30_000)
    page.get_by_test_id("won-verdict").click()
    expect(page.get_by_test_id("solo-end")).to_contain_text("You won!")
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_have_attribute("data-state", "done", timeout=SOLVER_MS)
    answer = api.get(f"/games/{created['game_id']}/analysis")
    assert answer["position"] is None
    expect(page.get_by_test_id("verdict-deal")).to_have_attribute(
        "data-result", answer["deal"]["result"]
    )
    expect(page.get_by_test_id("verdict-position")).to_have_count(0)
    page.get_by_test_id("solo-end-close").click()
    expect(page.get_by_test_id("solo-end")).to_be_hidden()
