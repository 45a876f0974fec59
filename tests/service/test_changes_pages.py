"""Changes come in pages: over HTTP (``more``, ``next_since``, a ``Link`` header) and on a
WebSocket resume, each page rebuilt from the nearest checkpoint rather than from the
deal, on both stores; old games without checkpoints and clients too far behind too.
"""

from __future__ import annotations

import random
from typing import Any

import jsonpatch
import pytest
import redis

from service import engine
from service.config import Settings
from service.store import CHECKPOINT_INTERVAL, StoredGame, hash_token, open_store
from tests.support import CheckedClient, auth, hello, new_game, service_client

PAGE = 40
ACTIONS = CHECKPOINT_INTERVAL + 60


def play(client: CheckedClient, count: int, seed: int = 3) -> tuple[dict[str, Any], list[Any]]:
    """A DS game with ``count`` accepted actions and undos; (creation answer, changes)."""
    created = new_game(client, code="DS1-D1N-AAAAAAB")
    game = engine.new_game(created["code"])
    rng = random.Random(seed)
    changes: list[Any] = [None]  # changes[v] made version v
    headers = auth(created["player_token"])
    while len(changes) <= count:
        legal = game.legal_actions()
        if game.undo_available and (not legal or rng.random() < 0.1):
            response = client.post(f"/games/{created['game_id']}/undo", headers=headers)
        else:
            action = str(rng.choice(legal))
            response = client.post(
                f"/games/{created['game_id']}/actions", json={"action": action}, headers=headers
            )
        assert response.status_code == 200, response.text
        change = response.json()["change"]
        game.play(engine.parse_action(change["notation"]))
        changes.append(change)
    return created, changes


def pages(client: CheckedClient, game_id: str, since: int) -> list[dict[str, Any]]:
    """Every page from ``since`` on, following ``next_since`` and the ``Link`` header."""
    found = []
    url = f"/games/{game_id}/changes?since={since}"
    while True:
        response = client.get(url)
        assert response.status_code == 200, response.text
        page = response.json()
        found.append(page)
        if not page["more"]:
            assert "link" not in response.headers
            return found
        assert page["next_since"] == page["changes"][-1]["version"]
        url = response.headers["link"].split(">")[0].lstrip("<")
        assert url == f"/games/{game_id}/changes?since={page['next_since']}"


@pytest.fixture
def paged(store_url: str) -> Any:
    with service_client(store_url, changes_page_size=PAGE) as client:
        yield client


def test_pages_hold_every_change_once_and_end_at_the_game(paged: CheckedClient) -> None:
    created, changes = play(paged, ACTIONS)
    game_id = created["game_id"]
    for since in (0, 7, CHECKPOINT_INTERVAL - 1, CHECKPOINT_INTERVAL, CHECKPOINT_INTERVAL + 3):
        found = pages(paged, game_id, since)
        assert all(len(page["changes"]) <= PAGE for page in found)
        assert all(page["recovered"] and page["version"] == ACTIONS for page in found)
        assert len(found) == -(-(ACTIONS - since) // PAGE)
        replayed = [change for page in found for change in page["changes"]]
        # The very changes the actions made, whichever checkpoint a page started from.
        assert replayed == changes[since + 1 :], since
    state = created["state"]
    for change in changes[1:]:
        state = jsonpatch.apply_patch(state, change["patch"])
    assert paged.get(f"/games/{game_id}").json()["state"] == state
    # Up to date: one empty page.
    last = paged.get(f"/games/{game_id}/changes?since={ACTIONS}").json()
    assert last["changes"] == [] and last["more"] is False and last["recovered"]


def test_a_game_without_checkpoints_is_replayed_from_the_deal(
    store_url: str, paged: CheckedClient
) -> None:
    created, changes = play(paged, ACTIONS)
    game_id = created["game_id"]
    store = paged.app.state.games.store  # type: ignore[attr-defined]
    if store_url.startswith("memory"):
        store._games[game_id].checkpoints.clear()
    else:
        with redis.Redis.from_url(store_url) as db:
            assert db.delete(f"sol:{{{game_id}}}:cp") == 1
    found = pages(paged, game_id, CHECKPOINT_INTERVAL + 10)
    replayed = [change for page in found for change in page["changes"]]
    assert replayed == changes[CHECKPOINT_INTERVAL + 11 :]


def test_too_far_behind_gets_a_snapshot(store_url: str) -> None:
    with service_client(store_url, changes_page_size=PAGE, catchup_limit=50) as client:
        created, _ = play(client, 60)
        game_id = created["game_id"]
        answer = client.get(f"/games/{game_id}/changes?since=5").json()
        assert answer["recovered"] is False and answer["more"] is False
        assert answer["changes"] == [] and answer["version"] == 60
        assert answer["state"] == client.get(f"/games/{game_id}").json()["state"]
        # Within the limit: pages again.
        answer = client.get(f"/games/{game_id}/changes?since=10").json()
        assert answer["recovered"] and answer["more"] and len(answer["changes"]) == PAGE


def test_a_websocket_resume_goes_through_every_page(paged: CheckedClient) -> None:
    created, changes = play(paged, ACTIONS)
    game_id = created["game_id"]
    since = 5
    with paged.checked_websocket() as ws:
        hello(ws)
        ws.send_json({"type": "subscribe", "id": "s", "game_id": game_id, "since": since})
        subscribed = ws.receive_json()
        assert subscribed["type"] == "subscribed" and subscribed["recovered"] is True
        assert subscribed["version"] == ACTIONS
        received = [ws.receive_json() for _ in range(ACTIONS - since)]
        assert received == changes[since + 1 :]
        # Then live changes follow on from the last page.
        ws.send_json({"type": "ping", "id": "p"})
        assert ws.receive_json() == {"type": "pong", "id": "p"}


async def test_history_replays_less_than_a_checkpoint_interval(store_url: str) -> None:
    """The store hands a page the checkpoint at or before ``since`` and the actions from
    there: never the log from the deal."""
    store = open_store(Settings(store_url=store_url))
    await store.open()
    try:
        game = engine.new_game("TF1-D1N-AAAAAAB")
        await store.create(
            StoredGame("long", 0, game.serialize(), hash_token("t"), "TF1-D1N-AAAAAAB")
        )
        states = {0: game.serialize()}
        for version in range(1, 2 * CHECKPOINT_INTERVAL + 30):
            action = game.legal_actions()[0] if version % 2 else engine.Undo()
            outcome = game.play(action)
            states[version] = game.serialize()
            result = await store.commit(
                "long", version - 1, states[version], str(outcome.action), None, False, b"{}"
            )
            assert result.version == version
        since = 2 * CHECKPOINT_INTERVAL + 5
        history = await store.history("long", since, since + PAGE)
        assert history is not None
        assert history.base_version == 2 * CHECKPOINT_INTERVAL
        assert history.base_state == states[2 * CHECKPOINT_INTERVAL]
        assert history.length == 2 * CHECKPOINT_INTERVAL + 29
        log = await store.actions("long")
        assert log is not None
        assert history.actions == log[2 * CHECKPOINT_INTERVAL : since + PAGE]
        early = await store.history("long", 3, 10)
        assert early is not None and early.base_version == 0 and early.base_state is None
        assert early.actions == log[:10]
        assert await store.history("missing", 0, 10) is None
    finally:
        await store.close()


def test_a_websocket_resume_over_the_page_limit_waits_instead_of_failing(
    store_url: str,
) -> None:
    """Resume pages count against the per-address limit of changes pages; past it the
    resume goes on more slowly, it is not refused."""
    # A slow refill, so that the HTTP requests below meet an empty bucket however slowly
    # a loaded machine serves them.
    limits: dict[str, Any] = {
        "changes_page_size": 20,
        "changes_rate_per_second": 0.5,
        "changes_burst": 2,
    }
    with service_client(store_url, **limits) as client:
        created, changes = play(client, 60)
        game_id = created["game_id"]
        with client.checked_websocket() as ws:
            hello(ws)
            ws.send_json({"type": "subscribe", "id": "s", "game_id": game_id, "since": 0})
            assert ws.receive_json()["recovered"] is True
            assert [ws.receive_json() for _ in range(60)] == changes[1:]
        # The same client address over HTTP shares that limit.
        statuses = [client.get(f"/games/{game_id}/changes?since=0").status_code for _ in range(4)]
        assert 429 in statuses, statuses
