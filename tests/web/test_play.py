"""Playing alone in the browser. Every step checks what the page shows and what the server
says (the game's public state over REST)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.web.conftest import Api, PageErrors
from tests.web.pages import (
    MOVE,
    auto_play,
    column_cards,
    drag,
    drop_zone,
    expect,
    faces,
    is_post,
    open_menu,
    parse_move,
    pile,
    start_code,
    top_card,
    wait_synced,
    wait_until,
    wait_version,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page

DS_CODE = "DS1-D1N-AAAAAAC"  # opens with column and foundation moves
TF_CODE = "TF1-D1N-AAAAAAG"


def actions_sent(frames: list[dict[str, Any]]) -> list[Any]:
    return [f["action"] for f in frames if f.get("type") == "action"]


def test_drag_moves_cards_to_a_column_and_to_the_foundation_area(
    page: Page, api: Api, sent_frames: list[dict[str, Any]]
) -> None:
    created = start_code(page, DS_CODE)
    game_id = created["game_id"]
    assert faces(page, "c1") == column_cards(created["state"], "c1")

    # A legal move between columns, found through the API and made as a drag.
    notation = next(
        n for n in api.legal(game_id) if MOVE.match(n) and n.startswith("c") and ">c" in n
    )
    source, count, target = parse_move(notation)
    moving = column_cards(created["state"], source)[-count:]
    up = len(column_cards(created["state"], source))
    drag(page, pile(page, source).locator(".card.face").nth(up - count), drop_zone(page, target))
    wait_version(page, 1)
    assert actions_sent(sent_frames)[-1] == {
        "type": "move",
        "from": source,
        "to": target,
        "count": count,
    }
    version, state = api.state(game_id)
    assert version == 1
    assert column_cards(state, target)[-count:] == moving
    assert faces(page, target)[-count:] == moving
    assert faces(page, source) == column_cards(state, source)
    expect(page.get_by_test_id("moves")).to_have_text("1")

    # Dropped anywhere over the foundation area, a card finds its place (`to: "f"`).
    notation = next(n for n in api.legal(game_id) if n.startswith("c") and ">f" in n)
    source, _, place = parse_move(notation)
    card = column_cards(state, source)[-1]
    drag(page, top_card(page, source), page.get_by_test_id("foundations"))
    wait_version(page, 2)
    assert actions_sent(sent_frames)[-1]["to"] == "f"
    _, state = api.state(game_id)
    assert state["foundations"][int(place[1:]) - 1] == card
    expect(pile(page, place).locator(f'[data-card="{card}"]')).to_be_visible()
    expect(page.get_by_test_id("score")).to_have_text(state["score_display"])
    assert state["score_display"] != "0"


def test_dragging_a_card_carries_the_cards_on_it(
    page: Page, api: Api, sent_frames: list[dict[str, Any]]
) -> None:
    created = start_code(page, "TF1-D1N-AAAAABD")
    game_id = created["game_id"]
    notation = next(n for n in api.legal(game_id) if re.match(r"^c\d+:\d+>c\d+$", n))
    source, count, target = parse_move(notation)
    assert count > 1
    up = column_cards(created["state"], source)
    moving = up[-count:]
    drag(
        page, pile(page, source).locator(".card.face").nth(len(up) - count), drop_zone(page, target)
    )
    wait_version(page, 1)
    assert actions_sent(sent_frames)[-1] == {
        "type": "move",
        "from": source,
        "to": target,
        "count": count,
    }
    _, state = api.state(game_id)
    assert column_cards(state, target)[-count:] == moving
    assert column_cards(state, source) == up[:-count]
    assert faces(page, target)[-count:] == moving
    assert faces(page, source) == up[:-count]


def test_tap_and_double_tap(page: Page, api: Api, sent_frames: list[dict[str, Any]]) -> None:
    created = start_code(page, DS_CODE)
    game_id, token = created["game_id"], created["player_token"]
    legal = api.legal(game_id)

    # A double tap on a card that fits no foundation finds it a column (DS-APP-3).
    source = next(
        parse_move(n)[0]
        for n in legal
        if n.startswith("c")
        and ">c" in n
        and not any(m.startswith(n.split(">")[0] + ">f") for m in legal)
    )
    card = column_cards(created["state"], source)[-1]
    top_card(page, source).dblclick()
    wait_version(page, 1)
    assert actions_sent(sent_frames)[-1] == {"type": "tap", "from": source, "double": True}
    record = api.get(f"/games/{game_id}/record", token)
    _, _, target = parse_move(record["actions"][0])
    _, state = api.state(game_id)
    assert column_cards(state, target)[-1] == card
    assert faces(page, target)[-1] == card

    # A single tap sends a card to its foundation.
    notation = next(n for n in api.legal(game_id) if n.startswith("c") and ">f" in n)
    source, _, place = parse_move(notation)
    card = column_cards(state, source)[-1]
    top_card(page, source).click()
    wait_version(page, 2)
    assert actions_sent(sent_frames)[-1] == {"type": "tap", "from": source}
    _, state = api.state(game_id)
    assert state["foundations"][int(place[1:]) - 1] == card
    expect(pile(page, place).locator(f'[data-card="{card}"]')).to_be_visible()

    # With the double-click setting off, a double tap is two plain taps; a tap on a card
    # that fits no foundation is refused with its rule.
    page.get_by_test_id("double-click").uncheck()
    legal = api.legal(game_id)
    source = next(
        f"c{i}"
        for i, column in enumerate(state["columns"], start=1)
        if column["up"] and not any(n.startswith(f"c{i}>f") for n in legal)
    )
    top_card(page, source).dblclick()
    expect(page.get_by_test_id("rule-id")).to_have_text("DS-APP-2")
    plain = {"type": "tap", "from": source}
    wait_until(page, lambda: actions_sent(sent_frames)[-2:] == [plain, plain])
    assert api.state(game_id)[0] == 2


def test_an_illegal_drop_shows_the_rule_in_english_and_finnish(
    page: Page, api: Api, page_errors: PageErrors
) -> None:
    created = start_code(page, DS_CODE)
    game_id, token = created["game_id"], created["player_token"]
    legal = set(api.legal(game_id))
    source, target = next(
        (f"c{a}", f"c{b}")
        for a in range(1, 10)
        for b in range(1, 10)
        if a != b and f"c{a}>c{b}" not in legal
    )
    drag(page, top_card(page, source), drop_zone(page, target))
    message = page.get_by_test_id("message")
    expect(message).to_be_visible()

    # The server refuses the same move with the same rule (and changes nothing).
    status, problem = api.post(f"/games/{game_id}/actions", {"action": f"{source}>{target}"}, token)
    assert status == 409 and problem["code"] == "rule_violation"
    expect(page.get_by_test_id("rule-id")).to_have_text(problem["rule_id"])
    expect(page.get_by_test_id("rule-message")).to_have_text(problem["message_en"])
    version, state = api.state(game_id)
    assert version == 0 and state == created["state"]
    assert faces(page, source) == column_cards(state, source)

    page.get_by_test_id("lang-toggle").click()
    expect(page.get_by_test_id("rule-message")).to_have_text(problem["message_fi"])
    expect(page.get_by_test_id("rule-id")).to_have_text(problem["rule_id"])
    expect(page.get_by_test_id("lang-toggle")).to_have_text("In English")
    expect(page.get_by_test_id("undo")).to_have_text("Peru")
    assert page.evaluate("document.documentElement.lang") == "fi"
    page.get_by_test_id("lang-toggle").click()
    expect(page.get_by_test_id("rule-message")).to_have_text(problem["message_en"])


def test_undo_takes_the_last_action_back(page: Page, api: Api) -> None:
    created = start_code(page, DS_CODE)
    game_id = created["game_id"]
    undo = page.get_by_test_id("undo")
    expect(undo).to_be_disabled()
    page.get_by_test_id("stock").click()
    wait_version(page, 1)
    _, drawn = api.state(game_id)
    assert drawn["stock"] == 58 and len(drawn["waste"]) == 1
    assert faces(page, "w") == drawn["waste"]
    expect(page.get_by_test_id("stock-count")).to_have_text("58")

    expect(undo).to_be_enabled()
    undo.click()
    wait_version(page, 2)
    version, state = api.state(game_id)
    assert version == 2
    unchanged = ("columns", "stock", "waste", "foundations", "score")
    assert {k: state[k] for k in unchanged} == {k: created["state"][k] for k in unchanged}
    assert state["moves"] == 1  # undo never lowers the move counter
    expect(page.get_by_test_id("stock-count")).to_have_text("59")
    assert faces(page, "w") == []
    expect(undo).to_be_disabled()


def test_drawing_through_the_stock_then_recycling(page: Page, api: Api) -> None:
    created = start_code(page, "DS1-D3N-AAAAAAC")
    game_id, token = created["game_id"], created["player_token"]
    stock = page.get_by_test_id("stock")
    taps = -(-created["state"]["stock"] // 3)
    for version in range(1, taps + 1):
        stock.click()
        wait_version(page, version)
    _, state = api.state(game_id)
    assert state["stock"] == 0 and len(state["waste"]) == 59
    expect(page.get_by_test_id("stock-count")).to_have_text("0")
    assert faces(page, "w") == state["waste"][-3:]  # draw 3: the top three fanned
    expect(stock).to_contain_text("↻")

    stock.click()  # the empty stock: recycle (Normal scoring)
    wait_version(page, taps + 1)
    _, state = api.state(game_id)
    assert state["stock"] == 59 and state["waste"] == []
    assert api.get(f"/games/{game_id}/record", token)["actions"][-1] == "r"
    expect(page.get_by_test_id("stock-count")).to_have_text("59")
    assert faces(page, "w") == []


def test_new_game_options_and_vegas_score(page: Page, api: Api, page_errors: PageErrors) -> None:
    open_menu(page)
    page.get_by_test_id("opt-game-DS").click()
    page.get_by_test_id("opt-draw-3").click()
    page.get_by_test_id("opt-scoring-vegas").click()
    with page.expect_response(is_post("/games")) as response:
        page.get_by_test_id("deal").click()
    assert response.value.request.post_data_json == {"game": "DS", "draw": 3, "scoring": "vegas"}
    created = response.value.json()
    wait_synced(page, created["game_id"])
    _, state = api.state(created["game_id"])
    assert state["score_display"] == "-$104"
    expect(page.get_by_test_id("score")).to_have_text("-$104")
    expect(page.get_by_test_id("game-code")).to_have_text(created["code"])
    assert created["code"].startswith("DS1-D3V-")
    expect(page.get_by_test_id("column")).to_have_count(9)
    expect(page.get_by_test_id("foundation")).to_have_count(8)
    expect(page.locator('[data-testid="foundations"] .frow')).to_have_count(4)

    # Solitaire Réfléchi has no Vegas scoring.
    open_menu(page)
    page.get_by_test_id("opt-game-TF").click()
    vegas = page.get_by_test_id("opt-scoring-vegas").locator("input")
    expect(vegas).to_be_disabled()
    expect(page.get_by_test_id("opt-scoring-normal").locator("input")).to_be_checked()
    with page.expect_response(is_post("/games")) as response:
        page.get_by_test_id("deal").click()
    created = response.value.json()
    wait_synced(page, created["game_id"])
    _, state = api.state(created["game_id"])
    assert (state["game"], state["scoring"], state["draw"]) == ("TF", "normal", 3)
    expect(page.get_by_test_id("column")).to_have_count(7)
    expect(page.get_by_test_id("foundation")).to_have_count(4)
    # Réfléchi deals every tableau card face up.
    expect(page.get_by_test_id("tableau").get_by_test_id("card-back")).to_have_count(0)

    # A bad code is refused with the server's reason.
    page_errors.allow("status of 422")
    open_menu(page)
    page.get_by_test_id("code-input").fill("TF1-D1V-AAAAAAB")
    page.get_by_test_id("play-code").click()
    expect(page.get_by_test_id("menu-error")).to_contain_text("Normal scoring only")


def test_a_dropped_socket_reconnects_and_resumes_from_its_version(
    page: Page, api: Api, sent_frames: list[dict[str, Any]]
) -> None:
    created = start_code(page, DS_CODE)
    game_id, token = created["game_id"], created["player_token"]
    page.evaluate("window.solitaire.connection.drop()")
    # Meanwhile the game moves on elsewhere (the same player over HTTP).
    status, accepted = api.post(f"/games/{game_id}/actions", {"action": "d"}, token)
    assert status == 200 and accepted["version"] == 1
    wait_version(page, 1)
    expect(page.get_by_test_id("table")).to_have_attribute("data-synced", "true")
    subscribes = [f for f in sent_frames if f["type"] == "subscribe"]
    assert subscribes[0]["since"] == 0
    assert len(subscribes) >= 2 and subscribes[-1]["since"] in (0, 1)
    _, state = api.state(game_id)
    assert faces(page, "w") == state["waste"]
    expect(page.get_by_test_id("stock-count")).to_have_text(str(state["stock"]))
    expect(page.get_by_test_id("connection")).to_have_attribute("data-status", "open")

    # A reload picks the same game up again, and plays on: request ids are idempotency
    # keys, so the new page must not reuse the old page's ids.
    page.get_by_test_id("stock").click()
    wait_version(page, 2)
    page.reload()
    wait_synced(page, game_id)
    expect(page.get_by_test_id("menu")).to_be_hidden()
    expect(page.get_by_test_id("game-code")).to_have_text(created["code"])
    expect(page.get_by_test_id("moves")).to_have_text("2")
    page.get_by_test_id("stock").click()
    wait_version(page, 3)
    version, state = api.state(game_id)
    assert version == 3 and state["stock"] == 56
    assert faces(page, "w") == state["waste"][-1:]  # draw 1 shows the top card
    ids = [f["id"] for f in sent_frames if "id" in f]
    assert len(ids) == len(set(ids))


# --------------------------------------------------------------------------- screenshots


def assert_page_shows(page: Page, state: dict[str, Any]) -> None:
    """The board on the page is the server's public state."""
    for i, column in enumerate(state["columns"], start=1):
        assert faces(page, f"c{i}") == column["up"]
        expect(pile(page, f"c{i}").get_by_test_id("card-back")).to_have_count(column["down"])
    shown = 3 if state["draw"] == 3 else 1
    assert faces(page, "w") == state["waste"][-shown:] if state["waste"] else faces(page, "w") == []
    for i, card in enumerate(state["foundations"], start=1):
        assert faces(page, f"f{i}") == ([card] if card else [])
    expect(page.get_by_test_id("stock-count")).to_have_text(str(state["stock"]))
    expect(page.get_by_test_id("score")).to_have_text(state["score_display"])
    expect(page.get_by_test_id("moves")).to_have_text(str(state["moves"]))


def test_screenshots_of_both_games(page: Page, api: Api, screenshots: Path) -> None:
    for code, name, actions in (
        ("DS1-D3N-AAAAAAK", "double-solitaire.png", 40),
        (TF_CODE, "reflechi.png", 30),
    ):
        created = start_code(page, code)
        game_id, token = created["game_id"], created["player_token"]
        version = auto_play(api, game_id, token, actions)
        wait_version(page, version)
        _, state = api.state(game_id, token)
        assert_page_shows(page, state)
        page.mouse.move(0, 0)
        page.screenshot(path=str(screenshots / name))
