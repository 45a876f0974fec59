"""The daily page: today's challenges with the countdown, a ranked first attempt then
practice, the boards with your row, and yesterday's boards linking to replays."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import uvicorn

from service.app import create_app
from service.config import Settings
from tests.players.conftest import NOON, FakeClock
from tests.support import fill_winnable_pools, free_port
from tests.web.conftest import DESKTOP, PHONE, Api, PageErrors
from tests.web.pages import expect, wait_synced
from tests.web.players import as_player, new_player, random_play

if TYPE_CHECKING:
    from playwright.sync_api import Browser

TODAY = "2026-12-01"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOON)


@pytest.fixture
def clocked_server(clock: FakeClock) -> Iterator[str]:
    """A service whose days turn when the test moves its clock."""
    settings = Settings(
        store_url="memory://",
        log_level="warning",
        winnable_pool_size=0,
        http_write_rate_per_second=1000,
        http_write_burst=1000,
        changes_rate_per_second=1000,
        changes_burst=1000,
        # Every player on public boards at once; the plausibility floor as deployed.
        board_min_account_hours=0,
        board_min_games=0,
    )
    app = create_app(settings, clock=clock)
    config = uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="daily-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the service did not start"
        time.sleep(0.02)
    fill_winnable_pools(app)
    yield f"http://127.0.0.1:{config.port}"
    server.should_exit = True
    thread.join(10)


def resigned_attempt(
    api: Api, player: dict[str, Any], mode: str, seed: int, clock: FakeClock
) -> str:
    status, game = api.post(f"/daily/{TODAY}/{mode}/games", {}, player["player_token"])
    assert status == 201 and game["ranked"], game

    def a_person_thinks() -> None:
        clock.now += 0.7

    random_play(api, game["game_id"], game["player_token"], 20, seed, a_person_thinks)
    status, body = api.post(f"/games/{game['game_id']}/resign", {}, game["player_token"])
    assert status == 200, body
    return str(game["game_id"])


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_daily_page_board_and_replays_after_the_day(
    browser: Browser,
    clocked_server: str,
    clock: FakeClock,
    page_errors: PageErrors,
    viewport: str,
    screenshots: Path,
) -> None:
    api = Api(clocked_server)
    ada, bob = new_player(api, "Ada"), new_player(api, "Bob")
    ada_game = resigned_attempt(api, ada, "TF.D1N", seed=1, clock=clock)
    resigned_attempt(api, bob, "TF.D1N", seed=2, clock=clock)
    size = PHONE if viewport == "phone" else DESKTOP
    context = browser.new_context(base_url=clocked_server, viewport=size)
    context.set_default_timeout(10_000)
    try:
        as_player(context, ada)
        page = page_errors.watch(context.new_page())
        page.goto("/#/daily")

        challenges = page.get_by_test_id("daily-challenge")
        expect(challenges).to_have_count(4)
        expect(page.get_by_test_id("daily-countdown")).to_have_text(re.compile(r"^\d+:\d\d:\d\d$"))
        played = page.locator('[data-testid=daily-challenge][data-mode="TF.D1N"]')
        # One attempt each: no practice of the deal until the day is over.
        expect(played.get_by_test_id("daily-play")).to_have_text(re.compile("^Attempt made"))
        expect(played.get_by_test_id("daily-play")).to_be_disabled()
        rows = played.get_by_test_id("board-row")
        expect(rows).to_have_count(2)
        expect(played.locator("tr.me")).to_contain_text("Ada")
        expect(played.get_by_test_id("board-replay")).to_have_count(0)  # the day is not over
        if viewport == "desktop":
            page.screenshot(path=str(screenshots / "daily.png"))

        fresh = page.locator('[data-testid=daily-challenge][data-mode="DS.D1N"]')
        expect(fresh.get_by_test_id("daily-play")).to_have_text("Play (ranked)")
        with page.expect_request(lambda r: r.url.endswith("/DS.D1N/games")):
            fresh.get_by_test_id("daily-play").click()
        expect(page.get_by_test_id("page")).to_be_hidden()  # reloaded into the new game
        saved = json.loads(page.evaluate("localStorage.getItem('solitaire.game')"))
        wait_synced(page, saved["game_id"])
        ranked = api.get("/daily", ada["player_token"])["challenges"]
        assert {c["mode"]: c.get("ranked_game_id") for c in ranked}["DS.D1N"] == saved["game_id"]

        clock.now += 12 * 3600  # midnight: yesterday's boards are public
        page.goto("/#/daily")
        past = page.locator('[data-testid=daily-past][data-mode="TF.D1N"]')
        expect(past.get_by_test_id("board-replay")).to_have_count(2)
        mine = past.locator("tr.me").get_by_test_id("board-replay")
        expect(mine).to_have_attribute("href", f"#/replay/{ada_game}")
        mine.click()
        final = api.state(ada_game)
        expect(page.get_by_test_id("replay-position")).to_have_text(f"0 / {final[0]}")
    finally:
        context.close()
