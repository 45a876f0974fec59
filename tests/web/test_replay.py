"""The replay viewer: every state rebuilt in the browser from the deal of the code and
the actions of the game's log (of any length), stepped, played, jumped to, and opened from
a shared link."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.web.conftest import PHONE
from tests.web.pages import expect
from tests.web.players import play, random_play, resigned_game, won_game

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.web.conftest import Api, PageErrors

REBUILT_STATES = """async (gameId) => {
  const { client } = await import("/client.js");
  const { replayStates } = await import("/replay.js");
  return await replayStates(await client.games.replay(gameId));
}"""

# The states the service's changes give, patch after patch from the deal: what the viewer
# did before it dealt and played the log itself.
STATES_FROM_CHANGES = """async ([gameId, first]) => {
  const { applyPatch } = await import("/sdk/patch.js");
  const states = [first];
  let since = 0;
  for (;;) {
    const page = await (await fetch(`/games/${gameId}/changes?since=${since}`)).json();
    for (const change of page.changes) states.push(applyPatch(states.at(-1), change.patch));
    if (!page.more) return states;
    since = page.next_since;
  }
}"""


@pytest.mark.parametrize(
    "request_body",
    [
        {"game": "DS", "draw": 1, "scoring": "normal", "secret": True},
        {"game": "DS", "draw": 3, "scoring": "vegas", "secret": True},
        {"game": "TF", "draw": 3, "scoring": "normal", "secret": True},
        {"code": "DS1-D3N-QWERTYU"},
        {"code": "TF1-D1N-AAAAAAB"},
    ],
)
def test_the_last_rebuilt_state_is_the_servers(
    page: Page, api: Api, request_body: dict[str, Any]
) -> None:
    game_id = resigned_game(api, request_body, actions=60, seed=len(str(request_body)))
    states = page.evaluate(REBUILT_STATES, game_id)
    version, final = api.state(game_id)
    assert len(states) == version + 1
    assert states[-1] == final
    assert states[-1]["resigned"]
    # Every step, undos included, is the state the player saw.
    assert states == page.evaluate(STATES_FROM_CHANGES, [game_id, states[0]])


def test_a_won_game_replays_to_the_win(page: Page, api: Api) -> None:
    game_id = won_game(api)
    states = page.evaluate(REBUILT_STATES, game_id)
    assert states[-1] == api.state(game_id)[1]
    assert states[-1]["won"] and not states[-2]["won"]


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_step_play_and_jump_from_a_shared_link(
    new_context: Any, page_errors: PageErrors, api: Api, viewport: str, screenshots: Path
) -> None:
    game_id = won_game(api)
    last = api.state(game_id)[0]
    options = {"viewport": PHONE, "has_touch": True} if viewport == "phone" else {}
    page = page_errors.watch(new_context(**options).new_page())
    page.goto(f"/#/replay/{game_id}")  # the shared link opens the viewer directly

    position = page.get_by_test_id("replay-position")
    expect(position).to_have_text(f"0 / {last}")
    expect(page.get_by_test_id("replay-notation")).to_have_text("The deal")
    page.get_by_test_id("replay-forward").click()
    page.get_by_test_id("replay-forward").click()
    expect(position).to_have_text(f"2 / {last}")
    expect(page.get_by_test_id("replay-notation")).to_have_text("c3>f4")
    page.get_by_test_id("replay-back").click()
    expect(position).to_have_text(f"1 / {last}")
    expect(page.get_by_test_id("replay-table").locator('[data-card="AH"]')).to_have_count(1)

    page.get_by_test_id("replay-slider").fill(str(last - 1))
    expect(position).to_have_text(f"{last - 1} / {last}")
    page.screenshot(path=str(screenshots / f"replay-{viewport}.png"))
    page.get_by_test_id("replay-end").click()
    expect(position).to_have_text(f"{last} / {last}")

    page.get_by_test_id("replay-speed").select_option("8")
    page.get_by_test_id("replay-play").click()  # from the end, playing starts again
    expect(page.get_by_test_id("replay-play")).to_have_attribute("aria-label", "Pause")
    page.wait_for_function(
        "document.querySelector('[data-testid=replay-position]').dataset.index >= 3"
    )
    page.get_by_test_id("replay-play").click()
    expect(page.get_by_test_id("replay-play")).to_have_attribute("aria-label", "Play")

    link = page.get_by_test_id("replay-link")
    expect(link).to_have_value(f"{page.url.split('#')[0]}#/replay/{game_id}")
    page.get_by_test_id("page-close").click()
    expect(page.get_by_test_id("page")).to_be_hidden()


def test_a_game_longer_than_the_changes_can_recover_replays_to_its_end(
    page: Page, api: Api
) -> None:
    # Over the catch-up limit (1000 actions) the service answers a resume from the deal
    # with a snapshot instead of changes; the log is all the viewer needs.
    status, created = api.post("/games", {"code": "TF1-D1N-AAAAAAB"})
    assert status == 201, created
    game_id, token = created["game_id"], created["player_token"]
    random_play(api, game_id, token, 40, seed=7)
    while api.state(game_id, token)[0] < 1040:
        play(api, game_id, token, ["r" if api.state(game_id, token)[1]["stock"] == 0 else "d"])
    status, body = api.post(f"/games/{game_id}/resign", {}, token)
    assert status == 200, body
    version, final = api.state(game_id)
    assert version > 1040
    assert api.get(f"/games/{game_id}/changes?since=0")["recovered"] is False

    states = page.evaluate(REBUILT_STATES, game_id)
    assert len(states) == version + 1
    assert states[-1] == final

    page.goto(f"/#/replay/{game_id}")
    position = page.get_by_test_id("replay-position")
    expect(position).to_have_text(f"0 / {version}")
    page.get_by_test_id("replay-end").click()
    expect(position).to_have_text(f"{version} / {version}")
    expect(page.get_by_test_id("replay-notation")).to_have_text("resign")
    expect(page.get_by_test_id("replay-table").get_by_test_id("stock-count")).to_have_text(
        str(final["stock"])
    )
