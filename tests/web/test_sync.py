"""How the page keeps its copy of the game: RFC 6902 patches, version gaps, resubscribing."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from tests.web.conftest import Api, PageErrors
from tests.web.pages import expect, faces, start_code, wait_version

if TYPE_CHECKING:
    from playwright.sync_api import Page, WebSocketRoute

APPLY_ALL = """async ([state, patches]) => {
  const { applyPatch } = await import("/sdk/patch.js");
  return patches.reduce((doc, patch) => applyPatch(doc, patch), state);
}"""


def test_the_patch_applier_follows_the_server_through_moves_and_undos(page: Page, api: Api) -> None:
    status, created = api.post("/games", {"code": "DS1-D3N-AAAAAAK"})
    assert status == 201
    game_id, token = created["game_id"], created["player_token"]
    patches = []
    for step in range(60):
        if step % 9 == 8:
            status, accepted = api.post(f"/games/{game_id}/undo", {}, token)
        else:
            legal = api.legal(game_id)
            moves = [n for n in legal if ">" in n]
            choice = moves[step % len(moves)] if moves and step % 3 else legal[0]
            status, accepted = api.post(f"/games/{game_id}/actions", {"action": choice}, token)
        assert status == 200, accepted
        patches.append(accepted["change"]["patch"])
    ops = {op["op"] for patch in patches for op in patch}
    assert ops == {"add", "remove", "replace"}
    followed = page.evaluate(APPLY_ALL, [created["state"], patches])
    assert followed == api.state(game_id)[1]


def test_the_patch_applier_edge_cases(page: Page) -> None:
    result = page.evaluate(
        """async () => {
          const { applyPatch, PatchError } = await import("/sdk/patch.js");
          const doc = { a: [1, 2], b: { "x/y": 1, "m~n": 2 }, c: null };
          const out = applyPatch(doc, [
            { op: "add", path: "/a/-", value: 3 },
            { op: "add", path: "/a/0", value: 0 },
            { op: "remove", path: "/a/1" },
            { op: "replace", path: "/b/x~1y", value: [9] },
            { op: "remove", path: "/b/m~0n" },
            { op: "replace", path: "/c", value: "C" },
            { op: "add", path: "/d", value: { e: 1 } },
          ]);
          const fails = [
            [{ op: "remove", path: "/missing" }],
            [{ op: "replace", path: "/a/2", value: 1 }],
            [{ op: "add", path: "/a/05", value: 1 }],
            [{ op: "add", path: "/nope/x", value: 1 }],
            [{ op: "replace", path: "a", value: 1 }],
          ].map((ops) => {
            try {
              applyPatch(doc, ops);
              return false;
            } catch (error) {
              return error instanceof PatchError;
            }
          });
          return { out, doc, fails };
        }"""
    )
    assert result["out"] == {"a": [0, 2, 3], "b": {"x/y": [9]}, "c": "C", "d": {"e": 1}}
    assert result["doc"] == {"a": [1, 2], "b": {"x/y": 1, "m~n": 2}, "c": None}  # untouched
    assert result["fails"] == [True] * 5


def test_a_lost_change_makes_the_page_resubscribe_from_its_version(
    new_context: Any, page_errors: PageErrors, api: Api
) -> None:
    """Drops one change on its way to the page (the page's own actions get theirs in
    their results): the next change reveals the gap."""
    sent: list[dict[str, Any]] = []
    lost: list[int] = []

    def route(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()

        def to_server(message: str | bytes) -> None:
            sent.append(json.loads(message))
            server.send(message)

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "change" and data["version"] == 2 and not lost:
                lost.append(data["version"])
                return
            carried = data.get("change") if data.get("type") == "result" else None
            if carried and carried["version"] == 2 and not lost:
                lost.append(carried["version"])
                del data["change"]
                message = json.dumps(data)
            socket.send(message)

        socket.on_message(to_server)
        server.on_message(to_page)

    page: Page = page_errors.watch(new_context().new_page())
    page.route_web_socket(re.compile(r"/ws$"), route)
    page.goto("/")
    created = start_code(page, "DS1-D1N-AAAAAAC")
    stock = page.get_by_test_id("stock")
    for version in (1, 2, 3):
        stock.click()
        if version != 2:
            wait_version(page, version)
    assert lost == [2]
    subscribes = [m for m in sent if m["type"] == "subscribe"]
    assert [m.get("since") for m in subscribes] == [0, 1]
    version, state = api.state(created["game_id"])
    assert version == 3
    assert faces(page, "w") == state["waste"][-1:]
    expect(page.get_by_test_id("stock-count")).to_have_text(str(state["stock"]))
    expect(page.get_by_test_id("moves")).to_have_text("3")


def watch_frames(page: Page) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The WebSocket messages the page sends and receives, parsed."""
    sent: list[dict[str, Any]] = []
    received: list[dict[str, Any]] = []

    def on_socket(socket: Any) -> None:
        socket.on("framesent", lambda payload: sent.append(json.loads(payload)))
        socket.on("framereceived", lambda payload: received.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return sent, received


def assert_board_is(page: Page, state: dict[str, Any]) -> None:
    assert faces(page, "w") == state["waste"][-1:]
    expect(page.get_by_test_id("stock-count")).to_have_text(str(state["stock"]))
    expect(page.get_by_test_id("moves")).to_have_text(str(state["moves"]))


def test_the_page_gets_its_own_changes_in_the_results(
    new_context: Any, page_errors: PageErrors, api: Api
) -> None:
    """One frame per action: the page asks for `changes_in_results`, and its own actions'
    changes come in their results only; a change made elsewhere still comes as a frame."""
    page: Page = page_errors.watch(new_context().new_page())
    sent, received = watch_frames(page)
    page.goto("/")
    created = start_code(page, "DS1-D1N-AAAAAAC")
    game_id, token = created["game_id"], created["player_token"]
    assert [m for m in sent if m["type"] == "hello"] == [
        {"type": "hello", "protocol": 1, "changes_in_results": True}
    ]
    assert [m.get("changes_in_results") for m in received if m["type"] == "welcome"] == [True]

    page.get_by_test_id("stock").click()
    wait_version(page, 1)
    page.get_by_test_id("undo").click()
    wait_version(page, 2)
    page.get_by_test_id("stock").click()
    wait_version(page, 3)
    version, state = api.state(game_id)
    assert version == 3
    assert_board_is(page, state)
    results = [m for m in received if m["type"] == "result" and m.get("game_id") == game_id]
    assert [(m["version"], m["change"]["version"]) for m in results] == [(1, 1), (2, 2), (3, 3)]
    assert [m for m in received if m["type"] == "change"] == []

    # The same player on another device: that change reaches the page as a frame.
    status, accepted = api.post(f"/games/{game_id}/actions", {"action": "d"}, token)
    assert status == 200 and accepted["version"] == 4
    wait_version(page, 4)
    assert_board_is(page, api.state(game_id)[1])
    assert [m["version"] for m in received if m["type"] == "change"] == [4]


def test_a_server_without_changes_in_results_sends_change_frames_the_page_follows(
    new_context: Any, page_errors: PageErrors, api: Api
) -> None:
    """A server that does not know the option leaves it out of the welcome (here, the
    option is taken out of the hello on its way): the changes come as frames as before."""
    received: list[dict[str, Any]] = []

    def route(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()

        def to_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "hello":
                data.pop("changes_in_results", None)
                message = json.dumps(data)
            server.send(message)

        def to_page(message: str | bytes) -> None:
            received.append(json.loads(message))
            socket.send(message)

        socket.on_message(to_server)
        server.on_message(to_page)

    page: Page = page_errors.watch(new_context().new_page())
    page.route_web_socket(re.compile(r"/ws$"), route)
    page.goto("/")
    created = start_code(page, "DS1-D1N-AAAAAAC")
    assert [m.get("changes_in_results") for m in received if m["type"] == "welcome"] == [None]
    page.get_by_test_id("stock").click()
    wait_version(page, 1)
    page.get_by_test_id("undo").click()
    wait_version(page, 2)
    page.get_by_test_id("stock").click()
    wait_version(page, 3)
    version, state = api.state(created["game_id"])
    assert version == 3
    assert_board_is(page, state)
    assert [m["version"] for m in received if m["type"] == "change"] == [1, 2, 3]
    assert not [m for m in received if m["type"] == "result" and "change" in m]
