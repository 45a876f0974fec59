"""Per-address quotas are checked and counted in one atomic step: of requests that arrive
together, exactly as many pass as the quota has room for (new players, wrong link codes,
wrong join codes), on memory and on real Redis; a request that turns out not to count (a
right code) gives its place back."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from service.app import create_app
from service.config import Settings
from tests.players.conftest import NOON, FakeClock, new_player, players_client
from tests.support import CheckedClient, auth

LIMIT = 10
REQUESTS = 20


def _together(client: CheckedClient, send: Callable[[int], Any]) -> list[int]:
    """The statuses of ``REQUESTS`` requests sent at once (one thread each: the service
    serves them concurrently on its event loop)."""
    with ThreadPoolExecutor(REQUESTS) as pool:
        return sorted(pool.map(lambda n: send(n).status_code, range(REQUESTS)))


def test_of_twenty_new_players_at_once_at_a_limit_of_ten_exactly_ten_are_made(
    store_url: str,
) -> None:
    with players_client(store_url, FakeClock(), players_per_hour=LIMIT) as client:
        statuses = _together(client, lambda n: client.post("/players", json={"name": f"p{n}"}))
    assert statuses == [201] * LIMIT + [429] * (REQUESTS - LIMIT)


def test_of_twenty_wrong_link_codes_at_once_at_a_limit_of_ten_exactly_ten_are_tried(
    store_url: str,
) -> None:
    with players_client(store_url, FakeClock(), code_failures_per_minute=LIMIT) as client:
        statuses = _together(
            client, lambda n: client.post("/players/link", json={"link_code": "ZZZZZZZZ"})
        )
    assert statuses == [404] * LIMIT + [429] * (REQUESTS - LIMIT)


def test_of_twenty_wrong_join_codes_at_once_at_a_limit_of_ten_exactly_ten_are_tried(
    store_url: str,
) -> None:
    with players_client(store_url, FakeClock(), code_failures_per_minute=LIMIT) as client:
        race = {"name": "Host", "game": "TF", "draw": 1, "scoring": "normal"}
        host = client.post("/races", json=race).json()
        wrong = "".join(reversed(host["join_code"]))
        statuses = _together(
            client, lambda n: client.post("/races/join", json={"join_code": wrong, "name": "E"})
        )
    assert statuses == [404] * LIMIT + [429] * (REQUESTS - LIMIT)


def test_the_quota_s_window_is_the_service_s_minute(store_url: str) -> None:
    """Requests sent together fall in one window however close the machine's clock is to
    a minute's end, and the next minute by the service's clock opens a new one."""
    clock = FakeClock(NOON + 59.5)  # half a second before a minute ends
    with players_client(store_url, clock, code_failures_per_minute=2) as client:
        body = {"join_code": "ZZZZZZZZ", "name": "Eve"}
        statuses = [client.post("/races/join", json=body).status_code for _ in range(3)]
        assert statuses == [404, 404, 429]
        refused = client.post("/races/join", json=body)
        assert refused.json()["retry_after"] == 1
        clock.now += 1
        assert client.post("/races/join", json=body).status_code == 404


def test_right_codes_give_their_place_in_the_quota_back(store_url: str) -> None:
    with players_client(store_url, FakeClock(), code_failures_per_minute=2) as client:
        token = new_player(client)["player_token"]
        for _ in range(3):
            code = client.post("/players/me/link-codes", headers=auth(token)).json()
            linked = client.post("/players/link", json={"link_code": code["link_code"]})
            assert linked.status_code == 201, linked.text
        race = {"name": "Host", "game": "TF", "draw": 1, "scoring": "normal", "max_players": 8}
        host = client.post("/races", json=race).json()
        for name in ("Al", "Bo", "Cy"):
            joined = client.post("/races/join", json={"join_code": host["join_code"], "name": name})
            assert joined.status_code == 201, joined.text
        # Every place is still there for wrong codes: two each, then refused.
        for path, body in (
            ("/players/link", {"link_code": "ZZZZZZZZ"}),
            ("/races/join", {"join_code": "ZZZZZZZZ", "name": "Eve"}),
        ):
            statuses = [client.post(path, json=body).status_code for _ in range(3)]
            assert statuses == [404, 404, 429], path


def test_a_name_refused_takes_no_place_in_the_quota(store_url: str) -> None:
    with players_client(store_url, FakeClock(), players_per_hour=1) as client:
        assert client.post("/players", json={"name": "  "}).status_code == 422
        assert client.post("/players", json={"name": "Ada"}).status_code == 201
        assert client.post("/players", json={"name": "Bob"}).status_code == 429


def test_link_codes_with_letters_no_code_has_are_wrong_codes(store_url: str) -> None:
    with players_client(store_url, FakeClock(), code_failures_per_minute=2) as client:
        for code in ("{ABC}DEF", "0O1IABCD"):
            assert client.post("/players/link", json={"link_code": code}).status_code == 404
        assert client.post("/players/link", json={"link_code": "ZZZZZZZZ"}).status_code == 429


def test_an_address_with_braces_is_counted_like_any_other(store_url: str) -> None:
    # An address can come from a forwarded header; braces in a Redis key would name a hash
    # slot, and the key of a count's marker must share the count's.
    settings = Settings(store_url=store_url, code_failures_per_minute=2)
    app = create_app(settings, clock=FakeClock())
    with CheckedClient(app, client=("a}b{c", 50000)) as client:
        body = {"link_code": "ZZZZZZZZ"}
        statuses = [client.post("/players/link", json=body).status_code for _ in range(3)]
    assert statuses == [404, 404, 429]
