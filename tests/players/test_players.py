"""Players: creation, names, tokens kept only as hashes, devices, revocation, abuse."""

from __future__ import annotations

import time
from typing import Any, cast

import pytest
import redis

from tests.players.conftest import FakeClock, new_player, players_client
from tests.support import CheckedClient, auth


def test_a_player_is_a_name_and_a_token_shown_once(service: CheckedClient) -> None:
    created = new_player(service, "  Ada  ")
    assert created["name"] == "Ada"
    # 32 random bytes, base64url: 256 bits.
    assert len(created["player_token"]) >= 43
    me = service.get("/players/me", headers=auth(created["player_token"]))
    assert me.status_code == 200
    shown = {k: created[k] for k in ("player_id", "name", "created_at")}
    assert me.json() == {**shown, "ratings": {}}
    assert "player_token" not in me.text


@pytest.mark.parametrize(
    "name",
    [
        "",
        "   ",
        "x" * 25,
        "Ada\u0007",
        "A\u200bda",  # zero-width space
        "\u202eadA",  # right-to-left override
        "Ada\tLovelace",
        "Ada\nLovelace",
        "Ada  Lovelace",
        "\ue000Ada",  # private use
    ],
)
def test_names_out_of_rule_are_refused_and_change_nothing(
    service: CheckedClient, name: str
) -> None:
    response = service.post("/players", json={"name": name})
    assert response.status_code == 422, response.text
    assert response.json()["code"] in ("bad_name", "bad_message")
    player = new_player(service, "Ada")
    renamed = service.patch(
        "/players/me", json={"name": name}, headers=auth(player["player_token"])
    )
    assert renamed.status_code == 422
    me = service.get("/players/me", headers=auth(player["player_token"])).json()
    assert me["name"] == "Ada"


def test_names_in_rule(service: CheckedClient) -> None:
    for name in ("Åsa Öhman", "李小龍", "ゲーマー", "Jean-Luc O'Neil", "x" * 24, "🃏 joker"):
        assert new_player(service, name)["name"] == name
    # NFC: a decomposed "é" is stored composed.
    assert new_player(service, "Re\u0301my")["name"] == "R\u00e9my"


def test_rename(service: CheckedClient) -> None:
    player = new_player(service)
    token = player["player_token"]
    renamed = service.patch("/players/me", json={"name": "Grace"}, headers=auth(token))
    assert renamed.status_code == 200 and renamed.json()["name"] == "Grace"
    stats = service.get(f"/players/{player['player_id']}/stats").json()
    assert stats["name"] == "Grace"


def test_wrong_or_missing_tokens(service: CheckedClient) -> None:
    player = new_player(service)
    for headers in ({}, auth("nope"), {"authorization": "Basic abc"}):
        response = service.get("/players/me", headers=headers)
        assert response.status_code == 401 and response.json()["code"] == "unauthorized"
    # A game's token is not a player token, and a player token plays no game.
    game = service.post("/games", json={"game": "TF"}).json()
    assert service.get("/players/me", headers=auth(game["player_token"])).status_code == 401
    response = service.post(
        f"/games/{game['game_id']}/actions",
        json={"action": "d"},
        headers=auth(player["player_token"]),
    )
    assert response.status_code == 401
    assert service.get("/players/nobody/stats").status_code == 404


def _stored_text(client: CheckedClient, store_url: str) -> str:
    if store_url.startswith("redis"):
        connection = redis.Redis.from_url(store_url)
        parts = []
        for key in connection.scan_iter():
            parts.append(key.decode())
            # Without decode_responses every reply of the connection is bytes.
            kind = cast(bytes, connection.type(key)).decode()
            if kind == "string":
                parts.append(cast(bytes, connection.get(key)).decode())
            elif kind == "hash":
                values = cast("list[bytes]", connection.hvals(key))
                parts.extend(v.decode(errors="replace") for v in values)
        connection.close()
        return "\n".join(parts)
    records = client.app.state.games.store.records  # type: ignore[attr-defined]
    return repr(records.__dict__)


def test_tokens_are_stored_only_as_hashes(store_url: str, clock: FakeClock) -> None:
    with players_client(store_url, clock) as client:
        player = new_player(client)
        code = client.post("/players/me/link-codes", headers=auth(player["player_token"]))
        second = client.post("/players/link", json={"link_code": code.json()["link_code"]})
        stored = _stored_text(client, store_url)
        assert player["player_id"] in stored  # the scan does see the records
        for token in (player["player_token"], second.json()["player_token"]):
            assert token not in stored


def test_a_second_device_joins_with_a_single_use_link_code(service: CheckedClient) -> None:
    phone = new_player(service, "Ada")
    code = service.post("/players/me/link-codes", headers=auth(phone["player_token"]))
    assert code.status_code == 201
    link_code = code.json()["link_code"]
    assert len(link_code) == 8
    typed = f"{link_code[:4].lower()}-{link_code[4:]}"
    browser = service.post("/players/link", json={"link_code": typed})
    assert browser.status_code == 201, browser.text
    assert browser.json()["player_id"] == phone["player_id"]
    assert browser.json()["player_token"] != phone["player_token"]
    again = service.post("/players/link", json={"link_code": link_code})
    assert again.status_code == 404
    for token in (phone["player_token"], browser.json()["player_token"]):
        me = service.get("/players/me", headers=auth(token)).json()
        assert me["player_id"] == phone["player_id"]


def test_link_codes_expire(store_url: str, clock: FakeClock) -> None:
    with players_client(store_url, clock, link_code_seconds=1) as client:
        player = new_player(client)
        code = client.post("/players/me/link-codes", headers=auth(player["player_token"]))
        time.sleep(1.3)
        late = client.post("/players/link", json={"link_code": code.json()["link_code"]})
        assert late.status_code == 404


def test_wrong_link_codes_are_limited_per_address(store_url: str, clock: FakeClock) -> None:
    with players_client(store_url, clock, code_failures_per_minute=5) as client:
        player = new_player(client)
        good = client.post("/players/me/link-codes", headers=auth(player["player_token"]))
        for _ in range(5):
            wrong = client.post("/players/link", json={"link_code": "ZZZZZZZZ"})
            assert wrong.status_code == 404
        refused = client.post("/players/link", json={"link_code": good.json()["link_code"]})
        assert refused.status_code == 429 and refused.headers["retry-after"]
        # Refused, not used up.
        assert client.get("/players/me", headers=auth(player["player_token"])).status_code == 200


def test_revoking_other_tokens(service: CheckedClient) -> None:
    phone = new_player(service)
    code = service.post("/players/me/link-codes", headers=auth(phone["player_token"])).json()
    browser = service.post("/players/link", json={"link_code": code["link_code"]}).json()
    revoked = service.post("/players/me/revoke-others", headers=auth(browser["player_token"]))
    assert revoked.status_code == 200 and revoked.json() == {"revoked": 1}
    assert service.get("/players/me", headers=auth(phone["player_token"])).status_code == 401
    assert service.get("/players/me", headers=auth(browser["player_token"])).status_code == 200


def test_revoking_other_devices_voids_their_unused_link_codes(service: CheckedClient) -> None:
    phone = new_player(service)
    mine = auth(phone["player_token"])
    # A code asked for on a device that may be lost, and one to keep after the revoke.
    stolen = service.post("/players/me/link-codes", headers=mine).json()["link_code"]
    second = service.post("/players/me/link-codes", headers=mine).json()["link_code"]
    browser = service.post("/players/link", json={"link_code": second}).json()
    revoked = service.post("/players/me/revoke-others", headers=mine)
    assert revoked.status_code == 200 and revoked.json() == {"revoked": 1}
    # The code made before the revoke answers like a code that never was, adds no device,
    # and is used up.
    for _ in range(2):
        voided = service.post("/players/link", json={"link_code": stolen})
        assert voided.status_code == 404 and voided.json()["code"] == "not_found"
    assert service.get("/players/me", headers=auth(browser["player_token"])).status_code == 401
    again = service.post("/players/me/revoke-others", headers=mine)
    assert again.json() == {"revoked": 0}, "the voided code added no token"
    # Codes made after the revoke work.
    fresh = service.post("/players/me/link-codes", headers=mine).json()["link_code"]
    linked = service.post("/players/link", json={"link_code": fresh})
    assert linked.status_code == 201 and linked.json()["player_id"] == phone["player_id"]
    assert (
        service.get("/players/me", headers=auth(linked.json()["player_token"])).status_code == 200
    )


def test_a_flood_of_new_players_is_limited_per_address(store_url: str, clock: FakeClock) -> None:
    with players_client(store_url, clock, players_per_hour=3) as client:
        for index in range(3):
            new_player(client, f"p{index}")
        refused = client.post("/players", json={"name": "p4"})
        assert refused.status_code == 429
        assert int(refused.headers["retry-after"]) <= 3600
        body: dict[str, Any] = refused.json()
        assert body["code"] == "rate_limited"
