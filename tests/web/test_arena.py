"""Arenas in the browser: a player starts a short arena from the race tab, leaves it and
comes back; a second player opens it from the list and joins; both are paired into a
heat, play it out, and both pages show the standings change live, each player's own
line marked; the arena's words in Finnish; a refused join, the server's typed error in
both languages; a reload that comes back to the arena's page and into its heat; the
maker cancelling an upcoming arena, and the refusal once it started; and an arena that
ends, its final standings on the page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.races.race_support import Clock
from tests.web.conftest import Api, PageErrors
from tests.web.pages import expect, open_menu
from tests.web.players import as_player, new_player
from tests.web.test_pairing import pick_mode, race_status

if TYPE_CHECKING:
    from playwright.sync_api import Page


def arena_page(
    new_context: Any, errors: PageErrors, player: dict[str, Any], **options: Any
) -> Page:
    context = new_context(**options)
    as_player(context, player)
    page: Page = errors.watch(context.new_page())
    page.goto("/")
    open_menu(page, "race")
    return page


def upcoming_arena(
    api: Api, maker: dict[str, Any], name: str, starts_in: int = 60
) -> dict[str, Any]:
    """A 5-minute arena of ``maker``'s own starting in ``starts_in`` minutes."""
    body = {"mode": "DS.D1N", "name": name, "minutes": 5, "starts_in": starts_in}
    status, made = api.post("/arenas", body, maker["player_token"])
    assert status == 201, made
    assert made["arena"]["created_by"] == maker["player_id"]
    record: dict[str, Any] = made["arena"]
    return record


def rows(page: Page) -> Any:
    return page.get_by_test_id("arena").get_by_test_id("arena-row")


def open_from_list(page: Page, arena_id: str) -> None:
    item = page.locator(f'[data-testid="arena-item"][data-arena-id="{arena_id}"]')
    item.get_by_test_id("arena-open").click()
    expect(page.get_by_test_id("arena")).to_have_attribute("data-arena-id", arena_id)


def test_two_players_join_an_arena_play_a_heat_and_see_the_standings_live(
    new_context: Any, page_errors: PageErrors, api: Api, screenshots: Path
) -> None:
    ada, bo = new_player(api, "Ada"), new_player(api, "Bo")
    ada_page = arena_page(new_context, page_errors, ada)
    bo_page = arena_page(new_context, page_errors, bo)

    # Ada starts a short arena in the mode of the Race someone form: she is in it.
    pick_mode(ada_page, "TF", 1)
    ada_page.get_by_test_id("arena-create").click()
    arena = ada_page.get_by_test_id("arena")
    expect(arena).to_be_visible()
    expect(arena).to_have_attribute("data-status", "running")
    arena_id = arena.get_attribute("data-arena-id")
    assert arena_id
    assert api.get(f"/arenas/{arena_id}")["arena"]["mode"] == "TF.D1N"
    expect(rows(ada_page)).to_have_count(1)
    mine = ada_page.locator('[data-testid="arena-row"][data-you="true"]')
    expect(mine).to_have_attribute("data-player-id", ada["player_id"])
    expect(ada_page.get_by_test_id("arena-leave")).to_be_visible()

    # She leaves (no more heats, her line stays) and comes back.
    ada_page.get_by_test_id("arena-leave").click()
    expect(ada_page.get_by_test_id("arena-join")).to_be_visible()
    expect(ada_page.get_by_test_id("arena-leave")).to_be_hidden()
    expect(ada_page.get_by_test_id("arena-you")).to_have_text(
        "You left: join again to play more heats."
    )
    expect(rows(ada_page)).to_have_count(1)
    ada_page.get_by_test_id("arena-join").click()
    expect(ada_page.get_by_test_id("arena-leave")).to_be_visible()
    expect(ada_page.get_by_test_id("arena-you")).to_contain_text("You: place 1, 0 points")

    # Bo sees the running arena in the race tab's list, in both languages, and opens it.
    open_menu(bo_page, "race")
    item = bo_page.locator(f'[data-testid="arena-item"][data-arena-id="{arena_id}"]')
    expect(item).to_contain_text("Running")
    expect(bo_page.get_by_test_id("arena-create")).to_be_hidden()
    # The menu covers the page's language switch: its click is sent to it directly.
    bo_page.get_by_test_id("lang-toggle").dispatch_event("click")
    expect(bo_page.get_by_test_id("arenas")).to_contain_text("Areena")
    expect(item).to_contain_text("Käynnissä")
    bo_page.get_by_test_id("lang-toggle").dispatch_event("click")
    expect(item).to_contain_text("Running")
    item.get_by_test_id("arena-open").click()
    expect(bo_page.get_by_test_id("arena")).to_be_visible()
    expect(bo_page.get_by_test_id("arena-you")).to_have_text("You have not joined this arena.")
    expect(rows(bo_page)).to_have_count(1)

    # Bo joins: Ada's page shows his line come in, and a wave pairs them into a heat that
    # both pages go into.
    bo_page.get_by_test_id("arena-join").click()
    for page in (ada_page, bo_page):
        expect(rows(page)).to_have_count(2)
        expect(page.get_by_test_id("race-resign")).to_be_visible(timeout=20_000)
        expect(page.get_by_test_id("arena")).to_be_hidden()
    heats = api.get(f"/arenas/{arena_id}/heats")["heats"]
    assert len(heats) >= 1
    race_id = heats[0]["race_id"]
    race_status(api, race_id, "running")
    you = api.get(f"/arenas/{arena_id}", ada["player_token"])["you"]
    assert you["heat"]["race_id"] == race_id

    # Ada leaves during the heat (from another of her devices): the heat goes on.
    status, left = api.call("DELETE", f"/arenas/{arena_id}/players/me", token=ada["player_token"])
    assert status == 200 and left["you"]["present"] is False, left

    # Both resign: the heat is counted, both pages come back to the arena and show the
    # standings changed; nobody is paired again, Ada having left.
    for page in (ada_page, bo_page):
        page.get_by_test_id("race-resign").click()
    race_status(api, race_id, "finished")
    for page, player in ((ada_page, ada), (bo_page, bo)):
        expect(page.get_by_test_id("arena")).to_be_visible(timeout=20_000)
        expect(page.locator('[data-testid="arena-row"][data-heats="1"]')).to_have_count(2)
        mine = page.locator('[data-testid="arena-row"][data-you="true"]')
        expect(mine).to_have_attribute("data-player-id", player["player_id"])
    standings = api.get(f"/arenas/{arena_id}/standings")
    assert [row["heats"] for row in standings["rows"]] == [1, 1]
    expect(ada_page.get_by_test_id("arena-join")).to_be_visible()
    expect(bo_page.get_by_test_id("arena-you")).to_contain_text("Waiting for your next heat")
    bo_page.get_by_test_id("arena").locator(".sheet").screenshot(
        path=str(screenshots / "arena.png")
    )

    # Ada comes back: the next wave pairs them into a second heat.
    ada_page.get_by_test_id("arena-join").click()
    for page in (ada_page, bo_page):
        expect(page.get_by_test_id("race-resign")).to_be_visible(timeout=20_000)
    assert len(api.get(f"/arenas/{arena_id}/heats")["heats"]) == 2


def test_joining_an_arena_that_is_over_shows_the_refusal_in_both_languages(
    new_context: Any, page_errors: PageErrors, api: Api
) -> None:
    page_errors.allow("409")  # the refused joins
    maker, cy = new_player(api, "Maker"), new_player(api, "Cy")
    arena_id = upcoming_arena(api, maker, "Later")["arena_id"]
    page = arena_page(new_context, page_errors, cy)
    item = page.locator(f'[data-testid="arena-item"][data-arena-id="{arena_id}"]')
    expect(item).to_contain_text("Upcoming")
    item.get_by_test_id("arena-open").click()
    expect(page.get_by_test_id("arena")).to_have_attribute("data-status", "upcoming")
    expect(page.get_by_test_id("arena-name")).to_have_text("Later")

    # Its maker cancels it meanwhile: joining is refused with the server's typed error.
    status, cancelled = api.call("DELETE", f"/arenas/{arena_id}", token=maker["player_token"])
    assert status == 200 and cancelled["arena"]["status"] == "cancelled", cancelled
    page.get_by_test_id("arena-join").click()
    error = page.get_by_test_id("arena-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("This arena is over.")
    page.get_by_test_id("lang-toggle").dispatch_event("click")
    page.get_by_test_id("arena-join").click()
    expect(error).to_contain_text("Tämä areena on päättynyt.")
    expect(page.get_by_test_id("arena-join")).to_have_text("Liity")
    page.get_by_test_id("lang-toggle").dispatch_event("click")


def test_a_reload_comes_back_to_the_arena_and_into_its_heat(
    new_context: Any, page_errors: PageErrors, clocked: tuple[str, Clock]
) -> None:
    # A service of its own: the arena this test leaves running would keep the shared
    # service's race tab from offering a short arena of one's own.
    address, _ = clocked
    api = Api(address)
    ada, bo = new_player(api, "Ada"), new_player(api, "Bo")
    status, made = api.post(
        "/arenas", {"mode": "DS.D1N", "name": "Reload", "minutes": 5}, ada["player_token"]
    )
    assert status == 201, made
    arena_id = made["arena"]["arena_id"]
    page = arena_page(new_context, page_errors, ada, base_url=address)
    open_from_list(page, arena_id)
    page.get_by_test_id("arena-join").click()
    arena = page.get_by_test_id("arena")
    expect(page.get_by_test_id("arena-leave")).to_be_visible()
    # The arena's page has an address of its own, as the other pages do.
    expect(page).to_have_url(re.compile(f"#/arena/{re.escape(arena_id)}$"))

    # A reload comes back to the same arena's page, her line marked.
    page.reload()
    expect(arena).to_be_visible()
    expect(arena).to_have_attribute("data-arena-id", arena_id)
    expect(page.get_by_test_id("menu")).to_be_hidden()
    mine = page.locator('[data-testid="arena-row"][data-you="true"]')
    expect(mine).to_have_attribute("data-player-id", ada["player_id"])
    expect(page.get_by_test_id("arena-you")).to_contain_text("You: place 1, 0 points")

    # The standings still come live: Bo joins (from elsewhere), his line comes in, and a
    # wave pairs them into a heat that the page goes into.
    status, joined = api.post(f"/arenas/{arena_id}/players", token=bo["player_token"])
    assert status == 200, joined
    expect(rows(page)).to_have_count(2)
    expect(page.get_by_test_id("race-resign")).to_be_visible(timeout=20_000)
    expect(arena).to_be_hidden()
    race_id = api.get(f"/arenas/{arena_id}/heats")["heats"][0]["race_id"]

    # A reload in the heat comes back into the heat's race, the arena's page behind it.
    page.reload()
    expect(page.get_by_test_id("race-resign")).to_be_visible(timeout=20_000)
    expect(arena).to_be_hidden()
    expect(page).to_have_url(re.compile(f"#/arena/{re.escape(arena_id)}$"))
    assert page.evaluate("window.solitaire.race?.id") == race_id

    # Bo leaves (no next heat) and both resign: the heat is counted and the page comes
    # back to the arena, the standings changed.
    heat = api.get(f"/arenas/{arena_id}", bo["player_token"])["you"]["heat"]
    status, left = api.call("DELETE", f"/arenas/{arena_id}/players/me", token=bo["player_token"])
    assert status == 200, left
    status, body = api.post(f"/races/{race_id}/resign", token=heat["player_token"])
    assert status == 200, body
    page.get_by_test_id("race-resign").click()
    expect(arena).to_be_visible(timeout=20_000)
    expect(page.locator('[data-testid="arena-row"][data-heats="1"]')).to_have_count(2)
    expect(mine).to_have_attribute("data-player-id", ada["player_id"])
    expect(page.get_by_test_id("arena-you")).to_contain_text("Waiting for your next heat")

    # Back leaves the arena's page: a reload then shows the menu, not the arena.
    page.get_by_test_id("arena-back").click()
    expect(arena).to_be_hidden()
    page.reload()
    expect(page.get_by_test_id("menu")).to_be_visible()
    expect(arena).to_be_hidden()


def test_the_maker_cancels_an_upcoming_arena_and_others_see_no_cancel(
    new_context: Any, page_errors: PageErrors, api: Api
) -> None:
    maker, cy = new_player(api, "Maker"), new_player(api, "Cy")
    arena_id = upcoming_arena(api, maker, "Sunday")["arena_id"]
    cy_page = arena_page(new_context, page_errors, cy)
    open_from_list(cy_page, arena_id)
    expect(cy_page.get_by_test_id("arena-join")).to_be_visible()
    expect(cy_page.get_by_test_id("arena-cancel")).to_be_hidden()

    maker_page = arena_page(new_context, page_errors, maker)
    open_from_list(maker_page, arena_id)
    cancel = maker_page.get_by_test_id("arena-cancel")
    expect(cancel).to_have_text("Cancel arena")
    maker_page.get_by_test_id("lang-toggle").dispatch_event("click")
    expect(cancel).to_have_text("Peru areena")
    maker_page.get_by_test_id("lang-toggle").dispatch_event("click")
    cancel.click()
    arena = maker_page.get_by_test_id("arena")
    expect(arena).to_have_attribute("data-status", "cancelled")
    expect(maker_page.get_by_test_id("arena-status")).to_contain_text("Cancelled")
    expect(cancel).to_be_hidden()
    expect(maker_page.get_by_test_id("arena-join")).to_be_hidden()
    expect(maker_page.get_by_test_id("arena-error")).to_be_hidden()
    assert api.get(f"/arenas/{arena_id}")["arena"]["status"] == "cancelled"


def test_an_arena_that_started_is_not_cancelled_and_its_end_shows_final_standings(
    new_context: Any, page_errors: PageErrors, clocked: tuple[str, Clock]
) -> None:
    page_errors.allow("409")  # the refused cancel
    address, clock = clocked
    api = Api(address)
    maker = new_player(api, "Maker")
    record = upcoming_arena(api, maker, "Soon", starts_in=1)
    arena_id = record["arena_id"]
    page = arena_page(new_context, page_errors, maker, base_url=address)
    open_from_list(page, arena_id)
    arena = page.get_by_test_id("arena")
    expect(arena).to_have_attribute("data-status", "upcoming")
    cancel = page.get_by_test_id("arena-cancel")
    expect(cancel).to_be_visible()

    # It starts while the page shows it upcoming: cancelling is refused, in the page's
    # words and the service's, and the page shows it running.
    clock.jump_past(record["start_at"])
    page.get_by_test_id("lang-toggle").dispatch_event("click")
    cancel.click()
    error = page.get_by_test_id("arena-error")
    expect(error).to_contain_text("Tämä areena on jo alkanut: sitä ei voi enää perua.")
    expect(error).to_contain_text("(This arena has already started.)")
    page.get_by_test_id("lang-toggle").dispatch_event("click")
    expect(arena).to_have_attribute("data-status", "running")
    expect(cancel).to_be_hidden()

    # The maker joins, alone; the arena ends: the page shows the final standings, her
    # line marked, no more joining or leaving.
    page.get_by_test_id("arena-join").click()
    expect(page.get_by_test_id("arena-leave")).to_be_visible()
    expect(rows(page)).to_have_count(1)
    expect(arena).not_to_have_attribute("data-status", "final")
    clock.jump_past(record["ends_at"])
    expect(arena).to_have_attribute("data-status", "final", timeout=20_000)
    expect(page.get_by_test_id("arena-status")).to_contain_text("Final standings")
    mine = page.locator('[data-testid="arena-row"][data-you="true"]')
    expect(mine).to_have_attribute("data-player-id", maker["player_id"])
    expect(page.get_by_test_id("arena-you")).to_have_text("You: place 1, 0 points")
    expect(page.get_by_test_id("arena-join")).to_be_hidden()
    expect(page.get_by_test_id("arena-leave")).to_be_hidden()
    assert api.get(f"/arenas/{arena_id}/standings")["final"] is True
