"""Many clients on three instances play the same game at once, and the log stays true.

Eight clients (four WebSockets, four HTTP clients, spread over the instances) act on one
game as fast as the answers come, with conflicting actions: some pin
``expected_version``, some do not, some send a request id again. Afterwards the action
log must replay to the stored state, the versions must run 1..N without a gap, every
accepted (non-duplicate) answer must be exactly one logged action, and every repeat must
be answered ``duplicate: true`` with the version of the original.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.scale.harness import (
    Game,
    Instance,
    Peer,
    auth,
    create_game,
    get_game,
    get_record,
    http_client,
    instances,
    post_action,
    private_redis,
    replay_record,
    rid,
)

CLIENTS = 8
TURNS = 25


@pytest.fixture(scope="module")
def trio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Instance]]:
    workdir = tmp_path_factory.mktemp("contention")
    with (
        private_redis(workdir, "--appendonly", "no") as redis,
        instances(redis.url, workdir, 3) as started,
    ):
        yield started


@dataclass
class Answer:
    client: int
    request_id: str
    repeat: bool
    status: str  # accepted, rejected, or the error code
    version: int | None = None
    duplicate: bool = False
    notation: str | None = None


def _from_ws(frame: dict[str, Any]) -> tuple[str, int | None, bool, str | None]:
    if frame["type"] == "result":
        return (
            frame["status"],
            frame.get("version"),
            frame.get("duplicate", False),
            frame.get("notation"),
        )
    return frame["code"], None, False, None


def _from_http(response: Any) -> tuple[str, int | None, bool, str | None]:
    body = response.json()
    if response.status_code == 200:
        return "accepted", body["version"], body["duplicate"], body["notation"]
    assert response.status_code in (409, 422, 503), response.text
    status = "rejected" if body["code"] == "rule_violation" else body["code"]
    return status, None, False, None


async def test_conflicting_clients_leave_a_consistent_log(trio: list[Instance]) -> None:
    rng = random.Random(7)
    answers: list[Answer] = []
    async with http_client() as http:
        game = await create_game(http, trio[0])
        sockets = [await Peer.open(trio[i % 3], f"ws-{i}") for i in range(CLIENTS // 2)]
        try:
            for peer in sockets:
                assert (await peer.subscribe(game.game_id, game.token))["role"] == "player"

            async def send(
                client: int, action: str, pinned: int | None, request_id: str, where: int
            ) -> tuple[str, int | None, bool, str | None]:
                if client < len(sockets) and where == client % 3:
                    frame = await sockets[client].act(game.game_id, action, pinned, request_id)
                    return _from_ws(frame)
                response = await post_action(http, trio[where], game, action, pinned, request_id)
                return _from_http(response)

            async def client(index: int) -> None:
                local_rng = random.Random(rng.random())
                home = index % 3
                for _ in range(TURNS):
                    response = await http.get(
                        f"{trio[home].url}/games/{game.game_id}/legal-actions"
                    )
                    assert response.status_code == 200, response.text
                    legal = response.json()
                    choices = [a["notation"] for a in legal["actions"]]
                    if not choices or local_rng.random() < 0.15:
                        action = "undo"
                    else:
                        action = local_rng.choice(choices)
                    pinned = legal["version"] if local_rng.random() < 0.5 else None
                    request_id = rid()
                    status, version, duplicate, notation = await send(
                        index, action, pinned, request_id, home
                    )
                    answers.append(
                        Answer(index, request_id, False, status, version, duplicate, notation)
                    )
                    if local_rng.random() < 0.3:
                        # The same request again, maybe elsewhere, as a client would retry
                        # after a lost answer.
                        where = local_rng.randrange(3)
                        status, version, duplicate, notation = await send(
                            index, action, pinned, request_id, where
                        )
                        answers.append(
                            Answer(index, request_id, True, status, version, duplicate, notation)
                        )

            await asyncio.gather(*(client(i) for i in range(CLIENTS)))

            await _check_log(http, trio, game, answers, sockets)
        finally:
            for peer in sockets:
                await peer.close()


async def _check_log(
    http: Any, trio: list[Instance], game: Game, answers: list[Answer], sockets: list[Peer]
) -> None:
    record = await get_record(http, trio[1], game)
    final = record["version"]
    assert final == len(record["actions"])
    replayed = replay_record(record)
    for instance in trio:
        version, state = await get_game(http, instance, game.game_id)
        assert version == final
        assert state == replayed.public_view()

    replayed_changes: list[dict[str, Any]] = []
    since: int | None = 0
    while since is not None:  # page after page
        response = await http.get(
            f"{trio[2].url}/games/{game.game_id}/changes", params={"since": since}
        )
        page = response.json()
        assert page["recovered"] is True
        replayed_changes += page["changes"]
        since = page["next_since"] if page["more"] else None
    assert [c["version"] for c in replayed_changes] == list(range(1, final + 1))
    assert [c["notation"] for c in replayed_changes] == record["actions"]

    fresh = [a for a in answers if a.status == "accepted" and not a.duplicate]
    assert sorted(a.version for a in fresh if a.version is not None) == list(range(1, final + 1)), (
        "each accepted action is exactly one version of the log"
    )
    assert len(fresh) == final
    for answer in fresh:
        assert answer.version is not None
        assert record["actions"][answer.version - 1] == answer.notation
    produced = {a.request_id: a for a in fresh}
    duplicates = [a for a in answers if a.status == "accepted" and a.duplicate]
    for answer in duplicates:
        original = produced.get(answer.request_id)
        assert original is not None, f"duplicate of a request never accepted: {answer}"
        assert answer.version == original.version
        assert answer.notation == original.notation
    # Every repeat of an accepted request was recognised (the service remembers the last
    # 32 request ids of a game; a repeat follows its original closely here).
    for answer in answers:
        if answer.repeat and answer.request_id in produced:
            first = next(a for a in answers if a.request_id == answer.request_id)
            if first.status == "accepted":
                assert answer.status == "accepted" and answer.duplicate, answer
    statuses = {a.status for a in answers}
    assert statuses <= {"accepted", "rejected", "stale_version", "invalid_action"}, statuses
    assert duplicates, "the run repeated no accepted request"
    assert final >= CLIENTS, f"only {final} actions were applied"

    for peer in sockets:
        view = await peer.wait_version(game.game_id, final)
        assert view.versions == list(range(1, final + 1)), peer.label
        assert view.state == replayed.public_view(), peer.label
        assert not peer.schema_errors, peer.schema_errors[:3]


async def test_an_instance_with_a_stale_copy_does_not_refuse_a_legal_action(
    trio: list[Instance],
) -> None:
    """An instance judges an action on its cached copy of the game only if that copy is
    current: another instance's commits may have made an action legal (here: an undo)."""
    a, b, _ = trio
    async with http_client() as http:
        game = await create_game(http, a)  # instance A now caches the game at version 0
        response = await post_action(http, b, game, "d")  # version 1, on instance B
        assert response.status_code == 200, response.text
        # At version 1 an undo is legal; A's cached copy (version 0) has nothing to undo.
        response = await http.post(
            f"{a.url}/games/{game.game_id}/undo", json={}, headers=auth(game.token)
        )
        assert response.status_code == 200, response.text
        assert response.json()["version"] == 2
