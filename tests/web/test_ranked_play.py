"""Ranked play in the browser: a daily attempt's clock runs from its deal, and a person
playing briskly through the front end is never taken for a machine."""

from __future__ import annotations

import json
import random
import re
from typing import TYPE_CHECKING, Any

from tests.web.pages import (
    MOVE,
    drag,
    drop_zone,
    expect,
    parse_move,
    pile,
    wait_synced,
    wait_until,
)
from tests.web.players import as_player, new_player

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.web.conftest import Api, PageErrors

# A person clicking and dragging as fast as they can: a few actions a second.
BRISK_MS = (180, 320)
ACTIONS = 30


def _drag_move(page: Page, notation: str, state: dict[str, Any]) -> None:
    source, count, target = parse_move(notation)
    if source == "w":
        card = pile(page, "w").locator(".card.face[data-top]")
    else:
        up = len(state["columns"][int(source[1:]) - 1]["up"])
        card = pile(page, source).locator(".card.face").nth(up - count)
    drag(page, card, drop_zone(page, target), steps=6)


def test_the_clock_runs_from_the_deal_and_brisk_play_stays_verified(
    new_context: Any, api: Api, page_errors: PageErrors
) -> None:
    page_errors.allow("403")  # the end screen asks once for the record, private all day
    player = new_player(api, "Brisk")
    context = new_context()
    as_player(context, player)
    page = page_errors.watch(context.new_page())
    page.goto("/#/daily")
    challenge = page.locator('[data-testid=daily-challenge][data-mode="TF.D3N"]')
    challenge.get_by_test_id("daily-play").click()
    expect(page.get_by_test_id("page")).to_be_hidden()  # reloaded into the attempt
    saved = json.loads(page.evaluate("localStorage.getItem('solitaire.game')"))
    game_id, token = saved["game_id"], saved["token"]
    today = api.get("/daily", player["player_token"])
    attempt = {c["mode"]: c["ranked_game_id"] for c in today["challenges"]}["TF.D3N"]
    assert game_id == attempt
    wait_synced(page, game_id)

    # Before any action the clock already runs: it started when the cards were shown.
    expect(page.get_by_test_id("time")).to_have_text(re.compile(r"^0:0[2-9]$"), timeout=6000)
    assert api.state(game_id, token)[0] == 0

    rng = random.Random(11)
    for version in range(1, ACTIONS + 1):
        _, state = api.state(game_id, token)
        moves = [n for n in api.legal(game_id, token) if MOVE.match(n) and not n.startswith("f")]
        if moves and rng.random() < 0.5:
            _drag_move(page, rng.choice(moves), state)
        else:
            pile(page, "s").click()
        expect(page.get_by_test_id("table")).to_have_attribute("data-version", str(version))
        page.wait_for_timeout(rng.randint(*BRISK_MS))
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("resign").click()
    expect(page.get_by_test_id("solo-end")).to_be_visible()

    # The page shows the end as the resignation is pushed; the attempt is counted as
    # its answer goes back (a moment later).
    def attempt_ended() -> dict[str, Any]:
        board = api.get(f"/daily/{today['date']}/TF.D3N", player["player_token"])
        mine: dict[str, Any] = board["mine"]
        return mine

    wait_until(page, lambda: not attempt_ended()["open"])
    mine = attempt_ended()
    assert mine["game_id"] == game_id
    assert mine["verified"] is True and mine["reason"] is None, mine
    assert mine["on_board"] is True
    stats = api.get("/players/me/stats", player["player_token"])
    assert stats["modes"]["TF.D3N"]["unverified"] == 0 and stats["unverified_games"] == []
