"""Race someone (quick pairing) in the browser: two players paired into one race that
both play, a cancelled wait that pairs nobody, a seek that leaves with its page (over the
WebSocket, and one taken up by REST), the refusal of an anonymous visitor in both
languages, and the rating the race gives, on the statistics and profile pages and the
rating board."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.web.conftest import Api, PageErrors
from tests.web.pages import expect, open_menu, wait_synced, wait_version
from tests.web.players import as_player, new_player

if TYPE_CHECKING:
    from playwright.sync_api import Page


# The seeks each page's WebSocket was answered, by page: the page seeks over its socket.
SEEKS: dict[int, list[dict[str, Any]]] = {}


def player_page(new_context: Any, errors: PageErrors, player: dict[str, Any] | None) -> Page:
    context = new_context()
    if player is not None:
        as_player(context, player)
    page: Page = errors.watch(context.new_page())
    seeks = SEEKS.setdefault(id(page), [])

    def on_frame(payload: str | bytes) -> None:
        message = json.loads(payload)
        if isinstance(message, dict) and message.get("type") == "seek":
            seeks.append(message["seek"])

    page.on("websocket", lambda socket: socket.on("framereceived", on_frame))
    page.goto("/")
    open_menu(page, "race")
    return page


def pick_mode(page: Page, game: str, draw: int) -> None:
    page.get_by_test_id(f"seek-game-{game}").click()
    page.get_by_test_id(f"seek-draw-{draw}").click()


def race_someone(page: Page, api: Api, player: dict[str, Any]) -> dict[str, Any]:
    """Presses Race someone; returns the seek the page asked for, as the service has it.
    The page asks over its WebSocket (a `seek` answered there): no REST request is made."""
    asked: list[str] = []

    def seen(request: Any) -> None:
        if "/pairing/" in request.url:
            asked.append(request.url)

    seeks = SEEKS[id(page)]
    before = len(seeks)
    page.on("request", seen)
    page.get_by_test_id("seek-start").click()
    deadline = time.monotonic() + 20
    while len(seeks) == before and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    page.remove_listener("request", seen)
    assert len(seeks) > before, "no seek answered over the socket"
    assert asked == [], asked
    return seek_of(api, seeks[before]["seek_id"], player["player_token"])


def seek_of(api: Api, seek_id: str, token: str) -> dict[str, Any]:
    seek: dict[str, Any] = api.get(f"/pairing/seeks/{seek_id}", token)["seek"]
    return seek


def seek_status(api: Api, seek_id: str, token: str, status: str, timeout: float = 20.0) -> Any:
    """The seek as the server has it, once it has reached ``status``."""
    deadline = time.monotonic() + timeout
    while True:
        seek = seek_of(api, seek_id, token)
        if seek["status"] == status or time.monotonic() > deadline:
            assert seek["status"] == status, seek
            return seek
        time.sleep(0.05)


def race_status(api: Api, race_id: str, status: str, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        race = api.get(f"/races/{race_id}")["race"]
        if race["status"] == status or time.monotonic() > deadline:
            assert race["status"] == status, race
            return race
        time.sleep(0.05)


def test_two_players_race_someone_and_play_a_rated_race(
    new_context: Any, page_errors: PageErrors, api: Api, screenshots: Path
) -> None:
    ada, bo = new_player(api, "Ada"), new_player(api, "Bo")
    ada_page = player_page(new_context, page_errors, ada)
    bo_page = player_page(new_context, page_errors, bo)

    # Ada asks first: the page shows the wait, its mode, her rating and the time waited.
    pick_mode(ada_page, "TF", 1)
    ada_seek = race_someone(ada_page, api, ada)
    assert ada_seek["mode"] == "TF.D1N" and ada_seek["status"] == "waiting"
    wait = ada_page.get_by_test_id("seek")
    expect(wait).to_be_visible()
    expect(wait).to_have_attribute("data-seek-id", ada_seek["seek_id"])
    expect(ada_page.get_by_test_id("menu")).to_be_hidden()
    expect(ada_page.get_by_test_id("seek-mode")).to_have_text(
        "Solitaire Réfléchi · Draw 1 · Normal"
    )
    expect(ada_page.get_by_test_id("seek-rating")).to_contain_text("1500")
    expect(ada_page.get_by_test_id("seek-cancel")).to_be_visible()
    expect(ada_page.get_by_test_id("seek-elapsed")).to_have_text(
        re.compile(r"^0:(0[1-9]|[1-5]\d)$")
    )
    assert seek_of(api, ada_seek["seek_id"], ada["player_token"])["status"] == "waiting"
    ada_page.screenshot(path=str(screenshots / "race-someone.png"))

    # Bo asks in the same mode: a wave pairs them, and both pages go to the race.
    pick_mode(bo_page, "TF", 1)
    bo_seek = race_someone(bo_page, api, bo)
    paired_a = seek_status(api, ada_seek["seek_id"], ada["player_token"], "paired")["race"]
    paired_b = seek_status(api, bo_seek["seek_id"], bo["player_token"], "paired")["race"]
    assert paired_a["race_id"] == paired_b["race_id"]
    assert paired_a["opponent"]["name"] == "Bo" and paired_b["opponent"]["name"] == "Ada"
    race_id = paired_a["race_id"]
    seats = ((ada_page, paired_a, paired_b), (bo_page, paired_b, paired_a))
    for page, me, other in seats:
        expect(page.get_by_test_id("seek")).to_be_hidden()
        expect(page.get_by_test_id("menu")).to_be_hidden()
        wait_synced(page, me["game_id"])
        expect(page.get_by_test_id("race-resign")).to_be_visible()
        opponent = page.locator(f'[data-testid="opponent"][data-player-id="{other["player_id"]}"]')
        expect(opponent).to_contain_text(me["opponent"]["name"])
    race = race_status(api, race_id, "running")
    assert race["rated"] is True and len(race["players"]) == 2

    # Each plays a move on their own board, and sees the other's.
    for page, me, _ in seats:
        page.get_by_test_id("stock").click()
        wait_version(page, 1)
        version, state = api.state(me["game_id"], me["player_token"])
        assert version == 1 and state["moves"] == 1
    for page, _, other in seats:
        opponent = page.locator(f'[data-testid="opponent"][data-player-id="{other["player_id"]}"]')
        expect(opponent).to_have_attribute("data-moves", "1")

    # Both resign: the rated race ends and rates both.
    for page, _, _ in seats:
        page.get_by_test_id("race-resign").click()
        expect(page.get_by_test_id("race-resign")).to_be_hidden()
    result = race_status(api, race_id, "finished")["result"]
    assert result["ratings"] is not None and len(result["ratings"]) == 2
    changes = {change["player_id"]: change for change in result["ratings"]}
    for page, _, _ in seats:
        expect(page.get_by_test_id("race-result")).to_be_visible()
        expect(page.get_by_test_id("result-row")).to_have_count(2)
        # The result shows each player's new rating and what the race changed.
        expect(page.get_by_test_id("result-rating-head")).to_be_visible()
        for player_id, change in changes.items():
            delta = round(change["change"])
            cell = page.locator(f'[data-testid="result-row"][data-player-id="{player_id}"]')
            expect(cell.get_by_test_id("result-rating")).to_have_text(
                f"{round(change['rating'])} ({'+' if delta >= 0 else '−'}{abs(delta)})"
            )

    # Ada's statistics show her provisional rating in the mode, in both languages.
    rating = api.get("/players/me/stats", ada["player_token"])["ratings"]["TF.D1N"]
    assert rating["provisional"] is True and rating["games"] == 1
    shown = f"{round(rating['rating'])}? ± {round(rating['deviation'])}"
    ada_page.get_by_test_id("result-close").click()
    ada_page.get_by_test_id("nav-stats").click()
    row = ada_page.get_by_test_id("ratings-table").locator('[data-mode="TF.D1N"]')
    expect(row).to_have_attribute("data-provisional", "true")
    expect(row.get_by_test_id("rating-value")).to_have_text(f"{shown} (provisional)")
    expect(row).to_contain_text("Solitaire Réfléchi")
    ada_page.get_by_test_id("ratings").scroll_into_view_if_needed()
    ada_page.screenshot(path=str(screenshots / "ratings.png"))
    ada_page.get_by_test_id("lang-toggle").click()
    expect(ada_page.get_by_test_id("ratings")).to_contain_text("Vahvuusluvut")
    expect(
        ada_page.get_by_test_id("ratings-table")
        .locator('[data-mode="TF.D1N"]')
        .get_by_test_id("rating-value")
    ).to_have_text(f"{shown} (alustava)")
    ada_page.get_by_test_id("lang-toggle").click()

    # The profile shows it too.
    ada_page.get_by_test_id("nav-profile").click()
    profile_row = ada_page.get_by_test_id("ratings-table").locator('[data-mode="TF.D1N"]')
    expect(profile_row.get_by_test_id("rating-value")).to_have_text(f"{shown} (provisional)")

    # The rating board of the mode, beside the daily boards: a provisional rating is not
    # on it yet.
    ada_page.get_by_test_id("nav-daily").click()
    board = ada_page.get_by_test_id("rating-board")
    expect(board).to_have_attribute("data-loaded", "true")
    ada_page.get_by_test_id("rating-board-mode").select_option("TF.D1N")
    expect(board).to_have_attribute("data-mode", "TF.D1N")
    expect(board).to_have_attribute("data-loaded", "true")
    on_board = api.get("/leaderboards/rating.TF.D1N")
    assert all(row["player_id"] != ada["player_id"] for row in on_board["top"])
    if on_board["top"]:
        expect(board.get_by_test_id("rating-board-row")).to_have_count(len(on_board["top"]))
    else:
        expect(board.get_by_test_id("rating-board-empty")).to_be_visible()


def test_a_player_who_cancels_is_not_paired(
    new_context: Any, page_errors: PageErrors, api: Api
) -> None:
    ada, bo, cy = new_player(api, "Ada"), new_player(api, "Bo"), new_player(api, "Cy")
    ada_page = player_page(new_context, page_errors, ada)
    bo_page = player_page(new_context, page_errors, bo)

    pick_mode(ada_page, "DS", 3)
    ada_seek = race_someone(ada_page, api, ada)
    assert ada_seek["mode"] == "DS.D3N"
    expect(ada_page.get_by_test_id("seek")).to_be_visible()
    # Cancel is sent over the socket (cancel_seek); the wait goes away once the service
    # answers, the menu is back, and the service no longer holds the seek.
    ada_page.get_by_test_id("seek-cancel").click()
    expect(ada_page.get_by_test_id("seek")).to_be_hidden()
    expect(ada_page.get_by_test_id("menu")).to_be_visible()
    assert seek_of(api, ada_seek["seek_id"], ada["player_token"])["status"] == "cancelled"

    # Bo asks in the same mode: nobody pairs him with Ada; he waits until Cy asks.
    pick_mode(bo_page, "DS", 3)
    bo_seek = race_someone(bo_page, api, bo)
    expect(bo_page.get_by_test_id("seek")).to_be_visible()
    status, cy_seek = api.post("/pairing/seeks", {"mode": "DS.D3N"}, cy["player_token"])
    assert status == 201, cy_seek
    paired_b = seek_status(api, bo_seek["seek_id"], bo["player_token"], "paired")["race"]
    assert paired_b["opponent"]["name"] == "Cy"
    wait_synced(bo_page, paired_b["game_id"])
    expect(bo_page.get_by_test_id("seek")).to_be_hidden()
    # Ada's page stayed on the menu, in no race.
    expect(ada_page.get_by_test_id("menu")).to_be_visible()
    expect(ada_page.get_by_test_id("opponents")).to_be_hidden()
    assert seek_of(api, ada_seek["seek_id"], ada["player_token"])["status"] == "cancelled"


def test_a_seek_waiting_from_before_is_taken_up_and_leaves_with_the_page(
    new_context: Any, page_errors: PageErrors, api: Api
) -> None:
    page_errors.allow("409")  # the seek asked for again, answered already_seeking
    ada = new_player(api, "Ada")
    status, made = api.post("/pairing/seeks", {"mode": "TF.D3N"}, ada["player_token"])
    assert status == 201, made
    seek_id = made["seek"]["seek_id"]
    page = player_page(new_context, page_errors, ada)
    pick_mode(page, "TF", 3)
    page.get_by_test_id("seek-start").click()
    expect(page.get_by_test_id("seek")).to_have_attribute("data-seek-id", seek_id)
    expect(page.get_by_test_id("seek")).to_be_visible()
    # Leaving the page takes the seek away with it.
    page.goto("/healthz")
    seek_status(api, seek_id, ada["player_token"], "cancelled")


def test_a_seek_over_the_socket_is_dropped_by_the_service_when_the_page_goes(
    new_context: Any, page_errors: PageErrors, api: Api
) -> None:
    ada = new_player(api, "Ada")
    page = player_page(new_context, page_errors, ada)
    deletes: list[str] = []
    page.on("request", lambda r: deletes.append(r.url) if r.method == "DELETE" else None)
    pick_mode(page, "DS", 1)
    seek = race_someone(page, api, ada)
    assert seek["mode"] == "DS.D1N" and seek["status"] == "waiting"
    expect(page.get_by_test_id("seek")).to_have_attribute("data-seek-id", seek["seek_id"])
    # Leaving the page closes its socket: the service cancels the socket's seek, and the
    # page sent no request for it.
    page.goto("/healthz")
    seek_status(api, seek["seek_id"], ada["player_token"], "cancelled")
    assert deletes == [], deletes


def test_race_someone_needs_a_player_in_both_languages(page: Page, page_errors: PageErrors) -> None:
    open_menu(page, "race")
    page.get_by_test_id("seek-start").click()
    error = page.get_by_test_id("menu-error")
    expect(error).to_contain_text("Racing someone needs a player")
    expect(page.get_by_test_id("seek")).to_be_hidden()
    # The menu lies over the language button: the page is loaded again in Finnish.
    page.evaluate("localStorage.setItem('solitaire.lang', 'fi')")
    page.reload()
    open_menu(page, "race")
    expect(page.get_by_test_id("seek-start")).to_have_text("Kilpaile jonkun kanssa")
    page.get_by_test_id("seek-start").click()
    expect(error).to_contain_text("Kilpaileminen vaatii pelaajan")
