"""The ends of a single game: resigning shows the deal's code from the record, and both
that end screen and the "You won" banner link to the replay of the game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.web.pages import expect, is_post, start_code
from tests.web.players import WINNING_CODE, WINNING_LINE, as_player, new_player, play

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.web.conftest import Api, PageErrors

CODE = "TF1-D1N-AAAAAAB"


def test_resign_then_watch_the_replay(page: Page, api: Api) -> None:
    created = start_code(page, CODE)
    game_id = created["game_id"]
    page.on("dialog", lambda dialog: dialog.accept())
    with page.expect_response(is_post(f"/games/{game_id}/resign")) as resigned:
        page.get_by_test_id("resign").click()
    assert resigned.value.status == 200
    expect(page.get_by_test_id("solo-end-code")).to_have_text(CODE)
    assert api.state(game_id)[1]["resigned"]
    expect(page.get_by_test_id("resign")).to_be_hidden()

    page.get_by_test_id("solo-end-replay").click()
    expect(page.get_by_test_id("solo-end")).to_be_hidden()
    expect(page.get_by_test_id("replay-position")).to_have_text("0 / 1")
    page.get_by_test_id("replay-end").click()
    expect(page.get_by_test_id("replay-notation")).to_have_text("resign")


def test_no_resign_button_before_a_game(page: Page) -> None:
    expect(page.get_by_test_id("menu")).to_be_visible()
    expect(page.get_by_test_id("resign")).to_be_hidden()


def test_the_won_banner_links_to_the_replay(page: Page, api: Api) -> None:
    created = start_code(page, WINNING_CODE)
    play(api, created["game_id"], created["player_token"], WINNING_LINE.split())
    # The page follows some two hundred changes first: allow it more than the default.
    expect(page.get_by_test_id("won")).to_be_visible(timeout=30_000)
    expect(page.get_by_test_id("resign")).to_be_hidden()
    page.get_by_test_id("won-replay").click()
    last = len(WINNING_LINE.split())
    expect(page.get_by_test_id("replay-position")).to_have_text(f"0 / {last}")


def test_resigning_a_daily_game_keeps_its_deal_private(
    new_context: Any, api: Api, page_errors: PageErrors
) -> None:
    page_errors.allow("403")  # the record of a running daily challenge, asked for once
    context = new_context()
    as_player(context, new_player(api, "Eve"))  # today's deal is played only ranked
    page = page_errors.watch(context.new_page())
    page.goto("/#/daily")
    challenge = page.locator('[data-testid=daily-challenge][data-mode="TF.D3N"]')
    challenge.get_by_test_id("daily-play").click()
    expect(page.get_by_test_id("page")).to_be_hidden()  # reloaded into the new game
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("resign").click()
    expect(page.get_by_test_id("solo-end")).to_contain_text("once the day is over")
    expect(page.get_by_test_id("solo-end-code")).to_have_count(0)
    expect(page.get_by_test_id("solo-end-replay")).to_have_count(0)
