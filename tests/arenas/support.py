"""What the arena tests share: a service whose waves run when the test says, its clock,
and short calls for joining, reading and finishing heats."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.races.race_support import Clock
from tests.support import CheckedClient, auth, service_client


@contextmanager
def arena_service(store_url: str, clock: Clock, **overrides: Any) -> Iterator[CheckedClient]:
    # Waves only when a test runs one.
    with service_client(
        store_url,
        clock=clock,
        arena_wave_seconds=3600,
        pairing_wave_seconds=3600,
        players_per_hour=1000,
        **overrides,
    ) as client:
        yield client


def wave(service: CheckedClient) -> int:
    assert service.portal is not None
    waves = service.app.state.arena_waves  # type: ignore[attr-defined]
    made: int = service.portal.call(waves.wave)
    return made


def make_arena(service: CheckedClient, host: dict[str, Any], minutes: int = 30) -> str:
    body = {"mode": "TF.D1N", "name": "Friday arena", "minutes": minutes}
    made = service.post("/arenas", json=body, headers=auth(host["player_token"]))
    assert made.status_code == 201, made.text
    arena_id: str = made.json()["arena"]["arena_id"]
    return arena_id


def join(service: CheckedClient, arena_id: str, player: dict[str, Any]) -> dict[str, Any]:
    answer = service.post(f"/arenas/{arena_id}/players", headers=auth(player["player_token"]))
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def mine(service: CheckedClient, arena_id: str, player: dict[str, Any]) -> dict[str, Any]:
    answer = service.get(f"/arenas/{arena_id}", headers=auth(player["player_token"]))
    assert answer.status_code == 200, answer.text
    you: dict[str, Any] = answer.json()["you"]
    return you


def standings(service: CheckedClient, arena_id: str, page: int = 1) -> dict[str, Any]:
    answer = service.get(f"/arenas/{arena_id}/standings?page={page}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def points(service: CheckedClient, arena_id: str) -> dict[str, int]:
    return {row["name"]: row["points"] for row in standings(service, arena_id)["rows"]}


def race_of(service: CheckedClient, heat: dict[str, Any]) -> dict[str, Any]:
    answer = service.get(f"/races/{heat['race_id']}", headers=auth(heat["player_token"]))
    assert answer.status_code == 200, answer.text
    race: dict[str, Any] = answer.json()["race"]
    return race


def resign(service: CheckedClient, heat: dict[str, Any]) -> None:
    answer = service.post(f"/races/{heat['race_id']}/resign", headers=auth(heat["player_token"]))
    assert answer.status_code == 200, answer.text
