"""What the browser tests do on the page: start games, drag cards, read the board."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

try:
    from playwright.sync_api import expect as expect  # the tests take it from here
except ImportError:  # the `browser` fixture then skips every test, saying why
    expect = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

    from tests.web.conftest import Api

MOVE = re.compile(r"^([cwf]\d*)(?::(\d+))?>([cf]\d*)$")


def is_post(path: str) -> Any:
    return lambda r: r.request.method == "POST" and r.url.split("?")[0].endswith(path)


def wait_until(page: Page, condition: Any, timeout_ms: int = 5000) -> None:
    """Polls a Python-side condition (events the page reported) while the page runs."""
    for _ in range(timeout_ms // 50):
        if condition():
            return
        page.wait_for_timeout(50)
    assert condition()


def open_menu(page: Page, tab: str = "play") -> None:
    if not page.get_by_test_id("menu").is_visible():
        page.get_by_test_id("new-game-button").click()
    page.get_by_test_id(f"tab-{tab}").click()


def wait_synced(page: Page, game_id: str) -> None:
    """Until the page follows ``game_id`` over the WebSocket."""
    table = page.get_by_test_id("table")
    expect(table).to_have_attribute("data-game-id", game_id)
    expect(table).to_have_attribute("data-synced", "true")


def start_code(page: Page, code: str) -> dict[str, Any]:
    """Starts the deal ``code`` from the menu; returns the server's CreatedGame."""
    open_menu(page)
    page.get_by_test_id("code-input").fill(code)
    with page.expect_response(is_post("/games")) as response:
        page.get_by_test_id("play-code").click()
    created: dict[str, Any] = response.value.json()
    expect(page.get_by_test_id("menu")).to_be_hidden()
    expect(page.get_by_test_id("game-code")).to_have_text(created["code"])
    wait_synced(page, created["game_id"])
    return created


def pile(page: Page, name: str) -> Locator:
    return page.locator(f'[data-testid="table"] [data-pile="{name}"]')


def top_card(page: Page, name: str) -> Locator:
    return pile(page, name).locator(".card.face[data-top]")


def faces(page: Page, name: str) -> list[str]:
    """The face-up cards the page shows on a pile, bottom to top."""
    cards: list[str] = (
        pile(page, name)
        .locator(".card.face")
        .evaluate_all("nodes => nodes.map(n => n.dataset.card)")
    )
    return cards


def wait_version(page: Page, version: int) -> None:
    expect(page.get_by_test_id("table")).to_have_attribute("data-version", str(version))


def drag(page: Page, source: Locator, target: Locator, steps: int = 12) -> None:
    """Drags with the mouse from the visible top strip of ``source`` to ``target``."""
    start = source.bounding_box()
    end = target.bounding_box()
    assert start is not None and end is not None
    x, y = start["x"] + start["width"] / 2, start["y"] + min(10.0, start["height"] / 2)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 8, y + 8, steps=2)
    page.mouse.move(
        end["x"] + end["width"] / 2, end["y"] + min(30.0, end["height"] / 2), steps=steps
    )
    page.mouse.up()


def drop_zone(page: Page, name: str) -> Locator:
    """Where to let go over a pile: its top card, or the pile itself when it is empty."""
    cards = pile(page, name).locator(".card")
    return cards.last if cards.count() else pile(page, name)


def parse_move(notation: str) -> tuple[str, int, str]:
    match = MOVE.match(notation)
    assert match is not None, notation
    source, count, target = match.groups()
    return source, int(count or 1), target


def column_cards(state: dict[str, Any], name: str) -> list[str]:
    cards: list[str] = state["columns"][int(name[1:]) - 1]["up"]
    return cards


def rank_move(notation: str, state: dict[str, Any], played: list[str]) -> int:
    """Lower is better: foundations, then moves that uncover a card, then the waste."""
    if ">f" in notation and not notation.startswith("f"):
        return 0
    if notation.startswith("c") and ">c" in notation:
        source = notation[1 : notation.index(">")]
        column = state["columns"][int(source.split(":")[0]) - 1]
        reverse = ">".join(reversed(notation.split(">")))
        if reverse in played[-2:] or notation in played:
            return 9
        count = int(source.split(":")[1]) if ":" in source else 1
        return 1 if column["down"] and count == len(column["up"]) else 3
    if notation.startswith("w>c"):
        return 2
    return 4 if notation in ("d", "r") else 9


def auto_play(api: Api, game_id: str, token: str, actions: int) -> int:
    """Plays ``actions`` sensible moves over HTTP; returns the game's version."""
    played: list[str] = []
    version = 0
    for _ in range(actions):
        legal = api.legal(game_id, token)
        _, state = api.state(game_id, token)
        choice = min(legal, key=lambda notation: rank_move(notation, state, played))
        status, accepted = api.post(f"/games/{game_id}/actions", {"action": choice}, token)
        assert status == 200, accepted
        played.append(choice)
        version = accepted["version"]
    return version
