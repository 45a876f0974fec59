"""One race served by two instances of the service sharing one Redis.

Each ``service_client`` is an instance of its own: its own event loop, Redis connections
and pub/sub reader. Ann and a spectator use the first, Bob and another spectator the
second; the race is created on one, joined on the other, started on the first (which
creates every player's game) and played from both.
"""

from __future__ import annotations

from typing import Any

import pytest

from service import engine
from tests.races.race_support import (
    Frame,
    create_race,
    fixed_code,
    is_race,
    join_race,
    peers,
    player_in,
    race_post,
    solvable_tf_deal,
)
from tests.support import auth, service_client


def _progress(frames: list[Frame], race_id: str, player_id: str) -> list[int]:
    return [
        f["moves"]
        for f in frames
        if f["type"] == "race_progress" and f["race_id"] == race_id and f["player_id"] == player_id
    ]


def test_a_race_across_two_instances(clean_redis: str, monkeypatch: pytest.MonkeyPatch) -> None:
    code, line = solvable_tf_deal()
    monkeypatch.setattr(engine.GameCode, "random_secret", fixed_code(code))
    settings: dict[str, Any] = {"race_countdown_seconds": 0.3}
    with (
        service_client(clean_redis, **settings) as one,
        service_client(clean_redis, **settings) as two,
    ):
        assert one.app is not two.app
        ann = create_race(one, "Ann", game="TF", time_limit_seconds=600)
        race_id = ann["race_id"]
        bob = join_race(two, ann["join_code"].lower(), "Bob")
        assert bob["race_id"] == race_id
        for client in (one, two):
            view = client.get(f"/races/{race_id}").json()["race"]
            assert [p["name"] for p in view["players"]] == ["Ann", "Bob"]

        with peers(one, "ann", "spec-one") as (pa, s1), peers(two, "bob", "spec-two") as (pb, s2):
            s1.watch(race_id)
            s2.watch(race_id)
            pa.watch(race_id, ann["player_token"])
            pb.watch(race_id, bob["player_token"])
            # Connected on the other instance: seen on this one.
            both_in = is_race(race_id, lambda r: all(p["connected"] for p in r["players"]))
            s1.until(both_in)
            s2.until(both_in)

            marks = {p.label: p.mark() for p in (pa, pb, s1, s2)}
            assert pb.command(race_id, "ready")["status"] == "accepted"  # on two
            s1.until(is_race(race_id, lambda r: player_in(r, bob["player_id"])["ready"]))
            assert pa.command(race_id, "ready")["status"] == "accepted"  # on one: starts it
            for peer in (pa, pb, s1, s2):
                countdown = peer.until(
                    is_race(race_id, lambda r: r["status"] == "countdown"), since=marks[peer.label]
                )["race"]
                assert countdown["start_at"] > countdown["server_time"]
            # Only the first instance has the start timer; the second hears it through Redis.
            for peer in (pa, pb, s1, s2):
                peer.until(
                    is_race(race_id, lambda r: r["status"] == "running"), since=marks[peer.label]
                )

            # Bob's game was created by the first instance; he plays it on the second.
            answer, snapshot = pb.subscribe(bob["game_id"], bob["player_token"])
            assert answer["type"] == "subscribed" and answer["role"] == "player", answer
            assert snapshot is not None
            assert snapshot["state"] == engine.new_game(code).public_view()
            bob_line = line[:12]
            for notation in bob_line:
                assert pb.act(bob["game_id"], notation)["status"] == "accepted"

            # Ann plays half on the first instance (WebSocket), half on the second (REST).
            answer, _ = pa.subscribe(ann["game_id"], ann["player_token"])
            assert answer["type"] == "subscribed"
            half = len(line) // 2
            for notation in line[:half]:
                assert pa.act(ann["game_id"], notation)["status"] == "accepted"
            for notation in line[half:]:
                response = two.post(
                    f"/games/{ann['game_id']}/actions",
                    json={"action": notation},
                    headers=auth(ann["player_token"]),
                )
                assert response.status_code == 200, response.text
            won = is_race(race_id, lambda r: player_in(r, ann["player_id"])["state"] == "won")
            s1.until(won)
            s2.until(won)
            # Ann's REST actions on the second instance reached her socket on the first.
            last = pa.until(
                lambda f: (
                    f["type"] == "change"
                    and f["game_id"] == ann["game_id"]
                    and f["version"] == len(line)
                )
            )
            assert any(e["type"] == "won" for e in last["events"])

            response = race_post(one, race_id, "resign", bob["player_token"])  # Bob, on one
            assert response.status_code == 200, response.text
            finals = [
                peer.until(is_race(race_id, lambda r: r["status"] == "finished"), since=0)["race"]
                for peer in (pa, pb, s1, s2)
            ]
            assert all(f["result"] == finals[0]["result"] for f in finals)
            result = finals[0]["result"]
            assert result["code"] == str(code)
            assert [e["player_id"] for e in result["ranking"]] == [
                ann["player_id"],
                bob["player_id"],
            ]
            assert result["records"][bob["player_id"]] == " ".join([str(code), *bob_line, "resign"])
            assert result["records"][ann["player_id"]] == " ".join([str(code), *line])

            # Progress crossed instances: every accepted action, in order, on both sides.
            for peer in (pa, pb, s1, s2):
                assert _progress(peer.frames, race_id, ann["player_id"]) == list(
                    range(1, len(line) + 1)
                ), peer.label
                assert _progress(peer.frames, race_id, bob["player_id"]) == list(
                    range(1, len(bob_line) + 1)
                ), peer.label

        for client in (one, two):
            view = client.get(f"/races/{race_id}").json()["race"]
            assert view["status"] == "finished" and view["result"] == result
            record = client.get(f"/games/{bob['game_id']}/record").json()["record"]
            assert record == result["records"][bob["player_id"]]
