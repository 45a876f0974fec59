"""Hints in a solo game: the suggested cards and their target are marked on the board, the
reason is shown in the page's language with the count of hints, and nothing is played;
where the service refuses hints, the button is disabled with the reason."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.web.conftest import PHONE, record_frames
from tests.web.pages import expect, is_post, start_code
from tests.web.players import as_player, new_player

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.web.conftest import Api, PageErrors

DS_CODE = "DS1-D1N-AAAAAAC"  # opens with column and foundation moves
SOLVER_MS = 30_000  # the first hint starts the service's hint process


def marked(page: Page, kind: str) -> list[str]:
    """The cards (by text) or piles (by name) the page marks as the hint's ``kind``."""
    names: list[str] = page.locator(f'[data-testid="table"] .hint-{kind}').evaluate_all(
        "nodes => nodes.map(n => n.dataset.card ?? n.dataset.pile)"
    )
    return names


def expected_marks(hint: dict[str, Any], state: dict[str, Any]) -> tuple[list[str], str]:
    action = hint["action_object"]
    if action["type"] in ("draw", "recycle"):
        return [], "s"
    source = action["from"]
    if source.startswith("c"):
        cards = state["columns"][int(source[1:]) - 1]["up"][-action.get("count", 1) :]
    elif source == "w":
        cards = state["waste"][-1:]
    else:
        cards = [state["foundations"][int(source[1:]) - 1]]
    return cards, "f" if action["to"].startswith("f") else action["to"]


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_a_hint_marks_the_move_and_says_why_without_playing_it(
    new_context: Any,
    page_errors: PageErrors,
    api: Api,
    viewport: str,
    screenshots: Path,
) -> None:
    options = {"viewport": PHONE, "has_touch": True} if viewport == "phone" else {}
    page = page_errors.watch(new_context(**options).new_page())
    sent: list[dict[str, Any]] = []
    record_frames(page, sent)
    page.goto("/")
    created = start_code(page, DS_CODE)
    game_id = created["game_id"]

    with page.expect_response(is_post(f"/games/{game_id}/hint"), timeout=SOLVER_MS) as answer:
        page.get_by_test_id("hint").click()
    hint = answer.value.json()["hint"]
    assert hint is not None
    panel = page.get_by_test_id("hint-panel")
    expect(panel).to_be_visible()
    expect(page.get_by_test_id("hint-text")).to_have_text(hint["message_en"])
    expect(page.get_by_test_id("hint-action")).to_have_text(hint["action"])
    expect(page.get_by_test_id("hint-count")).to_have_text("1")
    cards, target = expected_marks(hint, created["state"])
    assert marked(page, "source") == cards
    assert marked(page, "target") == [target]
    page.screenshot(path=str(screenshots / f"hint-{viewport}.png"))

    # Nothing was played: neither over the socket nor on the server.
    assert [frame for frame in sent if frame.get("type") == "subscribe"]
    assert not [frame for frame in sent if frame.get("type") == "action"]
    assert api.state(game_id)[0] == 0

    page.get_by_test_id("lang-toggle").click()
    expect(page.get_by_test_id("hint-text")).to_have_text(hint["message_fi"])
    page.get_by_test_id("lang-toggle").click()

    # Once the position changes the marks and the reason go; the next hint is the second.
    status, _ = api.post(f"/games/{game_id}/actions", {"action": hint["action"]},
                         created["player_token"])  # fmt: skip
    assert status == 200
    expect(panel).to_be_hidden()
    assert marked(page, "source") == [] and marked(page, "target") == []
    with page.expect_response(is_post(f"/games/{game_id}/hint"), timeout=SOLVER_MS):
        page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("hint-count")).to_have_text("2")
    expect(panel).to_be_visible()


def test_no_hints_in_a_ranked_daily_attempt(
    new_context: Any, page_errors: PageErrors, api: Api
) -> None:
    page_errors.allow("403")  # the refused hint
    context = new_context()
    as_player(context, new_player(api, "Hintless"))  # a ranked attempt is a player's first
    page = page_errors.watch(context.new_page())
    page.goto("/#/daily")
    challenge = page.locator('[data-testid=daily-challenge][data-mode="DS.D1N"]')
    challenge.get_by_test_id("daily-play").click()
    expect(page.get_by_test_id("page")).to_be_hidden()  # reloaded into the new game
    expect(page.get_by_test_id("table")).to_have_attribute("data-synced", "true")
    button = page.get_by_test_id("hint")
    with page.expect_response(lambda r: r.url.endswith("/hint")) as refused:
        button.click()
    assert refused.value.status == 403
    assert refused.value.json()["code"] == "hints_not_allowed"
    expect(button).to_be_disabled()
    expect(page.get_by_test_id("hint-action")).to_have_text("hints_not_allowed")
    expect(page.get_by_test_id("hint-text")).to_have_text(
        "No hints in a race or a ranked daily attempt."
    )
    page.get_by_test_id("lang-toggle").click()
    expect(page.get_by_test_id("hint-text")).to_contain_text("Vihjeitä ei saa")


def test_no_hint_button_in_a_race(page: Page) -> None:
    page.get_by_test_id("tab-race").click()
    page.get_by_test_id("race-name").fill("Ada")
    page.get_by_test_id("race-create").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    expect(page.get_by_test_id("hint")).to_be_hidden()
