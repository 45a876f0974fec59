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
  const { applyPatch } = await import("/patch.js");
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
          const { applyPatch, PatchError } = await import("/patch.js");
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
    """Drops one pushed change on its way to the page: the next change reveals the gap."""
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
