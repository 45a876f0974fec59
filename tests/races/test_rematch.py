"""Rematch: after the end, the same players race again on a new deal, in a new lobby."""

from __future__ import annotations

from typing import Any

from tests.races.race_support import (
    Peer,
    create_race,
    is_race,
    join_race,
    peers,
    player_in,
    problem_code,
    race_post,
)
from tests.support import CheckedClient, auth, service_client


def _race_to_the_end(
    client: CheckedClient, race_id: str, players: list[tuple[Peer, dict[str, Any]]]
) -> dict[str, Any]:
    """Everyone ready, one action each, everyone resigns; the finished race view."""
    marks = [peer.mark() for peer, _ in players]
    for peer, _ in players:
        assert peer.command(race_id, "ready")["status"] == "accepted"
    for (peer, _), mark in zip(players, marks, strict=True):
        peer.until(is_race(race_id, lambda r: r["status"] == "running"), since=mark)
    for peer, who in players:
        response = client.post(
            f"/games/{who['game_id']}/actions",
            json={"action": "d"},
            headers=auth(who["player_token"]),
        )
        assert response.status_code == 200, response.text
        assert peer.command(race_id, "resign")["status"] == "accepted"
    peer = players[0][0]
    finished: dict[str, Any] = peer.until(
        is_race(race_id, lambda r: r["status"] == "finished"), since=0
    )["race"]
    return finished


def test_rematch_same_players_new_deal_new_lobby(store_url: str) -> None:
    with service_client(store_url, race_countdown_seconds=0.2) as client:
        ann = create_race(client, "Ann", game="DS", draw=3, scoring="vegas", max_players=3)
        bob = join_race(client, ann["join_code"], "Bob")
        race_id = ann["race_id"]
        with peers(client, "ann", "bob", "spectator") as (pa, pb, spec):
            spec.watch(race_id)
            pa.watch(race_id, ann["player_token"])
            pb.watch(race_id, bob["player_token"])

            # Not before the end.
            response = race_post(client, race_id, "rematch", ann["player_token"])
            assert response.status_code == 409 and problem_code(response) == "race_not_finished"
            refused = pb.command(race_id, "rematch")
            assert refused["type"] == "error" and refused["code"] == "race_not_finished"

            first = _race_to_the_end(client, race_id, [(pa, ann), (pb, bob)])
            old_code = first["result"]["code"]
            assert first["rematch_race_id"] is None

            # Only the race's players may ask for it.
            response = race_post(client, race_id, "rematch", None)
            assert response.status_code == 401 and problem_code(response) == "unauthorized"
            response = race_post(client, race_id, "rematch", "not-a-token")
            assert response.status_code == 401

            marks = {p.label: p.mark() for p in (pa, pb, spec)}
            response = race_post(client, race_id, "rematch", bob["player_token"])
            assert response.status_code == 200, response.text
            rematch = response.json()
            new = rematch["race"]
            new_id = new["race_id"]
            assert new_id != race_id and new["join_code"] != first["join_code"]
            assert new["status"] == "lobby" and new["start_at"] is None and new["result"] is None
            assert (new["game"], new["draw"], new["scoring"], new["max_players"]) == (
                "DS",
                3,
                "vegas",
                3,
            )
            assert new["host"] == ann["player_id"]
            assert [(p["player_id"], p["name"]) for p in new["players"]] == [
                (ann["player_id"], "Ann"),
                (bob["player_id"], "Bob"),
            ]
            assert all(p["state"] == "waiting" and not p["ready"] for p in new["players"])
            assert rematch["you"]["player_id"] == bob["player_id"]
            bob_new_game = rematch["you"]["game_id"]
            assert bob_new_game != bob["game_id"]

            # Everyone watching the old race hears of the new one.
            for peer in (pa, pb, spec):
                peer.until(
                    is_race(race_id, lambda r: r["rematch_race_id"] == new_id),
                    since=marks[peer.label],
                )
            # Asking again, by REST or over the socket, by anyone: the same new race.
            again = race_post(client, race_id, "rematch", ann["player_token"])
            assert again.status_code == 200 and again.json()["race"]["race_id"] == new_id
            ann_new_game = again.json()["you"]["game_id"]
            assert ann_new_game not in (ann["game_id"], bob_new_game)
            assert pa.command(race_id, "rematch")["status"] == "accepted"
            assert pb.command(race_id, "rematch")["status"] == "accepted"
            view = client.get(f"/races/{race_id}").json()["race"]
            assert view["rematch_race_id"] == new_id and view["result"] == first["result"]

            # The old tokens are the players' tokens of the new race.
            mine = pa.watch(new_id, ann["player_token"])
            assert mine["you"] == {"player_id": ann["player_id"], "game_id": ann_new_game}
            pb.watch(new_id, bob["player_token"])
            spec.watch(new_id)
            response = client.get(f"/races/{new_id}", headers=auth(bob["player_token"]))
            assert response.json()["you"] == {
                "player_id": bob["player_id"],
                "game_id": bob_new_game,
            }
            # A newcomer may join the rematch's lobby by its own code.
            cy = join_race(client, new["join_code"], "Cy")
            assert cy["race_id"] == new_id
            spec.until(is_race(new_id, lambda r: len(r["players"]) == 3))
            assert pb.command(new_id, "ready")["status"] == "accepted"
            assert pb.command(new_id, "unready")["status"] == "accepted"
            spec.until(is_race(new_id, lambda r: not player_in(r, bob["player_id"])["ready"]))

            with peers(client, "cy") as (pc,):
                pc.watch(new_id, cy["player_token"])
                second = _race_to_the_end(
                    client,
                    new_id,
                    [
                        (pa, {**ann, "game_id": ann_new_game}),
                        (pb, {**bob, "game_id": bob_new_game}),
                        (pc, cy),
                    ],
                )
            # A new deal (two random deals agree with probability 26**-7).
            assert second["result"]["code"] != old_code
            assert second["result"]["code"].startswith("DS1-D3V-")
            assert set(second["result"]["records"]) == {
                ann["player_id"],
                bob["player_id"],
                cy["player_id"],
            }
            # The old games are untouched by the rematch.
            record = client.get(f"/games/{ann['game_id']}/record").json()
            assert record["code"] == old_code and record["actions"] == ["d", "resign"]
