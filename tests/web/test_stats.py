"""The statistics page after a finished game: the row of its mode and the chart."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.web.conftest import PHONE
from tests.web.pages import expect
from tests.web.players import as_player, new_player, won_game

if TYPE_CHECKING:
    from tests.web.conftest import Api, PageErrors


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_stats_and_chart_after_a_won_game(
    new_context: Any, page_errors: PageErrors, api: Api, viewport: str, screenshots: Path
) -> None:
    player = new_player(api, "Ada")
    won_game(api, player["player_token"])
    context = new_context(**({"viewport": PHONE, "has_touch": True} if viewport == "phone" else {}))
    as_player(context, player)
    page = page_errors.watch(context.new_page())
    page.goto("/")
    page.get_by_test_id("menu-stats").click()

    row = page.get_by_test_id("stats-table").locator('tr[data-mode="TF.D1N"]')
    expect(row.locator('[data-field="played"]')).to_have_text("1")
    expect(row.locator('[data-field="won"]')).to_have_text("1")
    expect(row).to_contain_text("100 %")
    chart = page.get_by_test_id("stats-chart")
    expect(chart).to_be_visible()
    expect(chart.locator('rect.bar-rate[data-mode="TF.D1N"]')).to_have_count(1)
    expect(chart).to_contain_text("100 %")
    if viewport == "desktop":
        page.screenshot(path=str(screenshots / "statistics.png"))

    page.get_by_test_id("lang-toggle").click()
    expect(page.get_by_test_id("page")).to_contain_text("Tilastot")


def test_an_anonymous_visitor_is_asked_for_a_name(page: Any) -> None:
    page.goto("/#/stats")
    expect(page.get_by_test_id("stats-empty")).to_contain_text("named players")
