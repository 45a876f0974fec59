"""A closing connection leaves every game it followed and gives up its place, even when
the store fails to let it leave one of them."""

from __future__ import annotations

import logging
import time

import pytest

from service.store import Store
from tests.service.helpers import greet, subscribe
from tests.support import CheckedClient, new_game


def open_connections(client: CheckedClient) -> float:
    for line in client.get("/metrics").text.splitlines():
        if line.startswith("solitaire_ws_connections "):
            return float(line.split()[1])
    raise AssertionError("no solitaire_ws_connections gauge")


def test_a_game_that_cannot_be_left_does_not_keep_the_others_or_the_connection(
    memory_client: CheckedClient,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = memory_client
    store = client.app.state.games.store  # type: ignore[attr-defined]
    stuck, free = new_game(client, game="DS"), new_game(client, game="TF")
    leave = Store.unsubscribe

    async def unsubscribe(self: Store, game_id: str, subscriber: object) -> None:
        if game_id == stuck["game_id"]:
            raise RuntimeError("the store failed in a way of its own")
        await leave(self, game_id, subscriber)  # type: ignore[arg-type]

    monkeypatch.setattr(type(store), "unsubscribe", unsubscribe)
    before = open_connections(client)
    with caplog.at_level(logging.WARNING, logger="service.ws"):
        with client.checked_websocket() as ws:
            greet(ws)
            subscribe(ws, stuck["game_id"])
            subscribe(ws, free["game_id"])
            assert open_connections(client) == before + 1
        # (The test client cancels the connection as it closes: the clean-up goes on.)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and (
            open_connections(client) != before or free["game_id"] in store._local
        ):
            time.sleep(0.02)
    assert open_connections(client) == before
    assert free["game_id"] not in store._local
    [line] = [r.getMessage() for r in caplog.records if "could not leave" in r.getMessage()]
    assert line == "could not leave a game or race: RuntimeError"
