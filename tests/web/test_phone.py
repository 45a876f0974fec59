"""A phone-sized screen (390x844, touch): the whole table fits, taps and touch drags play."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.web.conftest import PHONE, Api, PageErrors
from tests.web.pages import (
    column_cards,
    drop_zone,
    expect,
    faces,
    parse_move,
    pile,
    start_code,
    wait_version,
)

if TYPE_CHECKING:
    from playwright.sync_api import CDPSession, FloatRect, Locator, Page


def touch_drag(cdp: CDPSession, source: Locator, target: Locator, steps: int = 10) -> None:
    """A one-finger drag, sent as real touch input (the page sees touch pointer events)."""
    start, end = source.bounding_box(), target.bounding_box()
    assert start is not None and end is not None
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + min(8.0, start["height"] / 2)
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + min(20.0, end["height"] / 2)
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
    )
    for i in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def inside(box: FloatRect | None, width: float, height: float) -> bool:
    assert box is not None
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width + 0.5
        and box["y"] + box["height"] <= height + 0.5
    )


def test_phone_screen_fits_and_plays_by_touch(
    new_context: Any, page_errors: PageErrors, api: Api, screenshots: Path
) -> None:
    context = new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page: Page = page_errors.watch(context.new_page())
    page.goto("/")
    expect(page.get_by_test_id("menu")).to_be_visible()
    assert inside(page.get_by_test_id("deal").bounding_box(), PHONE["width"], PHONE["height"])

    created = start_code(page, "DS1-D1N-AAAAAAC")
    game_id = created["game_id"]
    width, height = PHONE["width"], PHONE["height"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    columns = page.get_by_test_id("column")
    expect(columns).to_have_count(9)
    for i in range(9):
        box = columns.nth(i).locator(".card").last.bounding_box()
        assert inside(box, width, height), f"column {i + 1} is off screen: {box}"
        assert box is not None and box["width"] >= 34, "cards too small to read on a phone"
    for testid in ("stock", "waste", "foundations", "score", "moves", "time", "undo", "game-code"):
        assert inside(page.get_by_test_id(testid).bounding_box(), width, height), testid
    for place in page.get_by_test_id("foundation").all():
        assert inside(place.bounding_box(), width, height)

    # A tap on the stock draws.
    page.get_by_test_id("stock").tap()
    wait_version(page, 1)
    _, state = api.state(game_id)
    assert state["stock"] == 58 and faces(page, "w") == state["waste"]

    # A touch drag moves a card between columns.
    notation = next(n for n in api.legal(game_id) if n.startswith("c") and ">c" in n)
    source, _, target = parse_move(notation)
    card = column_cards(state, source)[-1]
    cdp = context.new_cdp_session(page)
    touch_drag(cdp, pile(page, source).locator(".card.face").last, drop_zone(page, target))
    wait_version(page, 2)
    _, state = api.state(game_id)
    assert column_cards(state, target)[-1] == card
    assert faces(page, target)[-1] == card
    expect(page.get_by_test_id("moves")).to_have_text("2")
    page.screenshot(path=str(screenshots / "phone.png"))
