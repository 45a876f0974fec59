"""Quick pairing over REST and the WebSocket: a seek waits, a wave pairs it into a rated
two-player race already counting down, both players are told at once; bad requests get
a typed error and change nothing. Waves run when the test says (``wave``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from service.pairing.waves import Window, match
from service.store import StoreUnavailable
from service.store.seeks import Seek
from tests.players.conftest import new_player
from tests.races.race_support import Clock
from tests.service.helpers import greet, recv, recv_until
from tests.support import CheckedClient, auth, service_client


@pytest.fixture
def service(store_url: str) -> Iterator[CheckedClient]:
    # Waves only when a test runs one.
    with service_client(store_url, pairing_wave_seconds=3600) as client:
        yield client


def wave(service: CheckedClient) -> int:
    assert service.portal is not None
    pairing = service.app.state.pairing  # type: ignore[attr-defined]
    made: int = service.portal.call(pairing.wave)
    return made


def seek(service: CheckedClient, player: dict[str, Any], mode: str = "TF.D1N") -> Any:
    return service.post("/pairing/seeks", json={"mode": mode}, headers=auth(player["player_token"]))


def poll(service: CheckedClient, player: dict[str, Any], seek_id: str) -> dict[str, Any]:
    answer = service.get(f"/pairing/seeks/{seek_id}", headers=auth(player["player_token"]))
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()["seek"]
    return found


def test_two_seekers_are_paired_into_a_rated_race(service: CheckedClient) -> None:
    ada, bob = new_player(service, "Ada"), new_player(service, "Bob")
    first = seek(service, ada)
    assert first.status_code == 201, first.text
    ada_seek = first.json()["seek"]
    assert ada_seek["status"] == "waiting" and ada_seek["race"] is None
    assert ada_seek["rating"] == 1500 and ada_seek["mode"] == "TF.D1N"
    assert wave(service) == 0  # alone in the pool
    bob_seek = seek(service, bob).json()["seek"]
    assert wave(service) == 1
    ada_now, bob_now = (
        poll(service, ada, ada_seek["seek_id"]),
        poll(service, bob, bob_seek["seek_id"]),
    )
    assert ada_now["status"] == bob_now["status"] == "paired"
    assert ada_now["race"]["race_id"] == bob_now["race"]["race_id"]
    assert ada_now["race"]["opponent"]["name"] == "Bob"
    race_id = ada_now["race"]["race_id"]
    # Each seat's race token reads the race as its player, and is that player's alone.
    for mine in (ada_now, bob_now):
        race = service.get(f"/races/{race_id}", headers=auth(mine["race"]["player_token"]))
        assert race.status_code == 200, race.text
        body = race.json()
        assert body["you"]["player_id"] == mine["race"]["player_id"]
        assert body["race"]["rated"] is True and body["race"]["status"] in ("countdown", "running")
        assert body["race"]["max_players"] == 2
    assert ada_now["race"]["player_token"] != bob_now["race"]["player_token"]
    assert wave(service) == 0  # nobody paired twice
    # Paired, so free to seek again.
    assert seek(service, ada).status_code == 201


def test_a_race_whose_seek_was_cancelled_while_it_was_made_is_called_off(
    service: CheckedClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wave makes the race first and then takes both seeks out of the pool; when a
    seek was cancelled in between, the race is told to nobody, so it ends at once,
    unrated, instead of counting as a rated draw when its time runs out."""
    ada, bob = new_player(service, "Ada"), new_player(service, "Bob")
    seek(service, ada)
    seek(service, bob)
    pairing = service.app.state.pairing  # type: ignore[attr-defined]
    made: list[str] = []
    create_paired = pairing.lobby.create_paired

    async def noted(*args: Any, **kwargs: Any) -> Any:
        doc = await create_paired(*args, **kwargs)
        made.append(doc.race_id)
        return doc

    async def cancelled_meanwhile(*args: Any) -> bool:
        return False

    monkeypatch.setattr(pairing.lobby, "create_paired", noted)
    monkeypatch.setattr(pairing.seeks, "pair", cancelled_meanwhile)
    assert wave(service) == 0 and len(made) == 1
    race = service.get(f"/races/{made[0]}").json()["race"]
    assert race["status"] == "finished" and race["rated"] is False
    assert "ratings" not in race["result"]
    for player in (ada, bob):
        stats = service.get(f"/players/{player['player_id']}/stats").json()
        assert stats["ratings"] == {}


@pytest.fixture
def timed(store_url: str) -> Iterator[tuple[CheckedClient, Clock]]:
    clock = Clock()
    with service_client(store_url, clock=clock, pairing_wave_seconds=3600) as client:
        yield client, clock


def _made_with_pair(
    service: CheckedClient, monkeypatch: pytest.MonkeyPatch, applied: bool
) -> list[str]:
    """Races made by the waves from now on, whose pairing fails with the store: after
    taking the pair (``applied``: a lost reply) or before."""
    pairing = service.app.state.pairing  # type: ignore[attr-defined]
    made: list[str] = []
    create_paired, pair = pairing.lobby.create_paired, pairing.seeks.pair

    async def noted(*args: Any, **kwargs: Any) -> Any:
        doc = await create_paired(*args, **kwargs)
        made.append(doc.race_id)
        return doc

    async def failing(*args: Any) -> bool:
        if applied:
            await pair(*args)
        raise StoreUnavailable("the store went away")

    monkeypatch.setattr(pairing.lobby, "create_paired", noted)
    monkeypatch.setattr(pairing.seeks, "pair", failing)
    return made


def _ended(service: CheckedClient, clock: Clock, race_id: str) -> dict[str, Any]:
    """The race read once its time has run out (nobody played: a draw by time)."""
    ends_at = service.get(f"/races/{race_id}").json()["race"]["ends_at"]
    clock.jump_past(ends_at)
    race: dict[str, Any] = service.get(f"/races/{race_id}").json()["race"]
    assert race["status"] == "finished"
    return race


def test_a_race_whose_pairing_the_store_failed_to_take_rates_nobody(
    timed: tuple[CheckedClient, Clock], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store fails while a wave takes the pair: nobody was told of the race it made,
    the seeks still wait, and the next wave pairs them into a race of its own. The first
    race names its pairing and, as the seeks never took it, ends unrated."""
    service, clock = timed
    ada, bob = new_player(service, "Ada"), new_player(service, "Bob")
    ada_seek = seek(service, ada).json()["seek"]["seek_id"]
    seek(service, bob)
    with monkeypatch.context() as patched:
        made = _made_with_pair(service, patched, applied=False)
        with pytest.raises(StoreUnavailable):
            wave(service)
        assert len(made) == 1
    assert poll(service, ada, ada_seek)["status"] == "waiting"
    assert wave(service) == 1
    paired = poll(service, ada, ada_seek)["race"]["race_id"]
    assert paired != made[0]
    lost = _ended(service, clock, made[0])
    assert lost["rated"] is False and "ratings" not in lost["result"]
    for player in (ada, bob):
        stats = service.get(f"/players/{player['player_id']}/stats").json()
        assert stats["ratings"] == {}
    # The race they were told of counts.
    assert _ended(service, clock, paired)["rated"] is True
    for player in (ada, bob):
        stats = service.get(f"/players/{player['player_id']}/stats").json()
        assert stats["ratings"]["TF.D1N"]["games"] == 1


def test_a_race_whose_pairing_was_taken_but_its_reply_lost_is_rated(
    timed: tuple[CheckedClient, Clock], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store took the pair but its reply was lost: the seeks show the race to their
    players (a REST poll), so it is their race and is rated when it ends."""
    service, clock = timed
    ada, bob = new_player(service, "Ada"), new_player(service, "Bob")
    ada_seek = seek(service, ada).json()["seek"]["seek_id"]
    seek(service, bob)
    made = _made_with_pair(service, monkeypatch, applied=True)
    with pytest.raises(StoreUnavailable):
        wave(service)
    assert poll(service, ada, ada_seek)["race"]["race_id"] == made[0]
    race = _ended(service, clock, made[0])
    assert race["rated"] is True and len(race["result"]["ratings"]) == 2
    for player in (ada, bob):
        stats = service.get(f"/players/{player['player_id']}/stats").json()
        assert stats["ratings"]["TF.D1N"]["games"] == 1


def test_a_websocket_seeker_is_told_and_a_closed_socket_cancels(service: CheckedClient) -> None:
    ada, bob, cy = (new_player(service, name) for name in ("Ada", "Bob", "Cy"))
    with service.checked_websocket() as ws:
        greet(ws)
        ws.send_json({"type": "seek", "id": "s1", "mode": "DS.D1N", "token": ada["player_token"]})
        answer = recv(ws)
        assert answer["type"] == "seek" and answer["id"] == "s1", answer
        assert answer["seek"]["status"] == "waiting"
        bob_seek = seek(service, bob, "DS.D1N").json()["seek"]
        assert wave(service) == 1
        paired, _ = recv_until(ws, "paired")
        assert paired["seek_id"] == answer["seek"]["seek_id"]
        assert paired["race_id"] == poll(service, bob, bob_seek["seek_id"])["race"]["race_id"]
        ws.send_json(
            {
                "type": "watch_race",
                "id": "w",
                "race_id": paired["race_id"],
                "token": paired["player_token"],
            }
        )
        watched, _ = recv_until(ws, "race")
        assert watched["you"]["player_id"] == paired["player_id"]
    # A seek whose socket closes is cancelled: nobody is paired with it.
    with service.checked_websocket() as ws:
        greet(ws)
        ws.send_json({"type": "seek", "id": "s2", "mode": "DS.D1N", "token": ada["player_token"]})
        gone = recv(ws)["seek"]["seek_id"]
    assert poll(service, ada, gone)["status"] == "cancelled"
    seek(service, cy, "DS.D1N")
    assert wave(service) == 0


def test_bad_requests_get_typed_errors_and_change_nothing(service: CheckedClient) -> None:
    ada, bob = new_player(service, "Ada"), new_player(service, "Bob")
    anonymous = service.post("/pairing/seeks", json={"mode": "TF.D1N"})
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "unauthorized"
    unknown = seek(service, ada, "TF.D9X")
    assert unknown.status_code == 422 and unknown.json()["code"] == "bad_message"
    first = seek(service, ada).json()["seek"]
    twice = seek(service, ada)
    assert twice.status_code == 409 and twice.json()["code"] == "already_seeking"
    assert twice.json()["seek_id"] == first["seek_id"]
    path = f"/pairing/seeks/{first['seek_id']}"
    theirs = service.delete(path, headers=auth(bob["player_token"]))
    assert theirs.status_code == 403 and theirs.json()["code"] == "not_your_seek"
    missing = service.get("/pairing/seeks/TF.D1N-nothing", headers=auth(ada["player_token"]))
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert poll(service, ada, first["seek_id"])["status"] == "waiting"
    # Cancelled, twice (a reply lost): the same answer; a cancelled seek is never paired.
    for _ in range(2):
        cancelled = service.delete(path, headers=auth(ada["player_token"]))
        assert cancelled.status_code == 200 and cancelled.json()["seek"]["status"] == "cancelled"
    seek(service, bob)
    assert wave(service) == 0
    with service.checked_websocket() as ws:
        greet(ws)
        ws.send_json({"type": "cancel_seek", "id": "c", "seek_id": first["seek_id"]})
        refused = recv(ws)
        assert refused["type"] == "error" and refused["code"] == "not_your_seek"


def _seek(seek_id: str, player: str, rating: float, since: int, last: str = "") -> Seek:
    return Seek(seek_id, "TF.D1N", player, player, rating, since, "h", last_opponent=last)


def test_the_window_widens_with_waiting_time() -> None:
    window = Window(100, 50)
    ada, bob = _seek("a", "ada", 1500, 0), _seek("b", "bob", 1750, 0)
    assert match([ada, bob], 0, window) == []
    # After 3 s the longer waiter reaches 250 points.
    assert match([ada, bob], 3_000, window) == [(ada, bob)]


def test_no_self_pairing_and_no_rematch_while_others_wait() -> None:
    window = Window(100, 50)
    ada = _seek("a", "ada", 1500, 0, last="bob")
    ada_again = _seek("a2", "ada", 1500, 0)
    bob = _seek("b", "bob", 1500, 1)
    cy = _seek("c", "cy", 1560, 2)
    assert match([ada, ada_again], 0, window) == []
    assert match([ada, bob, cy], 0, window) == [(ada, cy)]
    # Nobody else waits: the two race again.
    assert match([ada, bob], 0, window) == [(ada, bob)]
