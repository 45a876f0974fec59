"""Fair play: until a race is over nobody learns the deal or sees another player's board.

Double Solitaire deals keep cards face down, so here a leak would show cards a player has
not turned yet. Each player may read and play only their own game; nobody (the player
included) may read a record or the code before the end; afterwards everything is public.
"""

from __future__ import annotations

import json
import random
from typing import Any

from tests.races.race_support import (
    Peer,
    assert_fair,
    card_texts,
    create_race,
    is_race,
    join_race,
    peers,
    problem_code,
    race_post,
)
from tests.support import CheckedClient, auth, service_client


def _play_some(
    peer: Peer, client: CheckedClient, who: dict[str, Any], count: int, seed: int
) -> int:
    """Plays ``count`` legal actions (picked from the game's own legal list)."""
    rng = random.Random(seed)
    played = 0
    for _ in range(count):
        response = client.get(
            f"/games/{who['game_id']}/legal-actions", headers=auth(who["player_token"])
        )
        assert response.status_code == 200, response.text
        actions = response.json()["actions"]
        if not actions:
            break
        notation = rng.choice(actions)["notation"]
        answer = peer.act(who["game_id"], notation)
        assert answer["type"] == "result" and answer["status"] == "accepted", answer
        played += 1
    return played


def _expect(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, (response.status_code, response.text)
    assert problem_code(response) == code


def test_nothing_of_the_deal_or_the_other_boards_leaks(store_url: str) -> None:
    rest_bodies: list[Any] = []
    with service_client(store_url, race_countdown_seconds=0.2) as client:
        ann = create_race(client, "Ann", game="DS", draw=1)
        bob = join_race(client, ann["join_code"], "Bob")
        rest_bodies += [ann, bob]
        race_id = ann["race_id"]
        a_game, b_game = ann["game_id"], bob["game_id"]
        a_tok, b_tok = ann["player_token"], bob["player_token"]

        # In the lobby nobody sees a race game, its own player included.
        for game_id, token in ((a_game, a_tok), (b_game, a_tok), (a_game, None)):
            headers = auth(token) if token else {}
            _expect(client.get(f"/games/{game_id}", headers=headers), 409, "race_not_started")
            response = client.get(f"/games/{game_id}/record", headers=headers)
            assert response.status_code == 403, response.text

        with peers(client, "ann", "bob", "spectator") as (pa, pb, spec):
            spec.watch(race_id)
            pa.watch(race_id, a_tok)
            pb.watch(race_id, b_tok)
            marks = [pa.mark(), pb.mark(), spec.mark()]
            pa.command(race_id, "ready")
            pb.command(race_id, "ready")
            for peer, mark in zip((pa, pb, spec), marks, strict=True):
                peer.until(is_race(race_id, lambda r: r["status"] == "running"), since=mark)
            for peer, who in ((pa, ann), (pb, bob)):
                answer, _ = peer.subscribe(who["game_id"], who["player_token"])
                assert answer["type"] == "subscribed" and answer["role"] == "player"
            _play_some(pa, client, ann, 20, seed=1)
            _play_some(pb, client, bob, 20, seed=2)

            # Another player's game: neither playable nor readable, with or without a token.
            for path, body in (("actions", {"action": "d"}), ("undo", {})):
                response = client.post(f"/games/{b_game}/{path}", json=body, headers=auth(a_tok))
                _expect(response, 401, "unauthorized")
            for path in ("", "/legal-actions", "/changes?since=0"):
                _expect(client.get(f"/games/{b_game}{path}"), 403, "race_running")
                _expect(
                    client.get(f"/games/{b_game}{path}", headers=auth(a_tok)), 401, "unauthorized"
                )
            # Records (they start with the code) stay closed, even to their own player.
            for game_id, token in ((a_game, a_tok), (b_game, b_tok), (b_game, a_tok)):
                _expect(
                    client.get(f"/games/{game_id}/record", headers=auth(token)), 403, "race_running"
                )
            _expect(client.get(f"/games/{a_game}/record"), 403, "race_running")
            # One's own game is readable with one's own token only.
            own = client.get(f"/games/{a_game}", headers=auth(a_tok))
            assert own.status_code == 200
            rest_bodies.append(own.json())
            _expect(client.get(f"/games/{a_game}"), 403, "race_running")

            # Over WebSocket: no subscription to another's game, as watcher or with one's token.
            answer, _ = pa.subscribe(b_game, a_tok)
            assert answer["type"] == "error" and answer["code"] == "unauthorized", answer
            answer, _ = pa.subscribe(b_game)
            assert answer["type"] == "error" and answer["code"] == "race_running", answer
            answer, _ = spec.subscribe(a_game)
            assert answer["type"] == "error" and answer["code"] == "race_running", answer
            # Bob keeps playing: nothing of it may reach Ann's connection, which tried.
            _play_some(pb, client, bob, 5, seed=3)

            for response in (
                client.get(f"/races/{race_id}"),
                client.get(f"/races/{race_id}", headers=auth(a_tok)),
            ):
                assert response.status_code == 200
                rest_bodies.append(response.json())
            for peer in (pa, pb, spec):
                peer.drain()

            # The end: both resign; the code and every board become public.
            assert pa.command(race_id, "resign")["status"] == "accepted"
            assert pb.command(race_id, "resign")["status"] == "accepted"
            final = spec.until(is_race(race_id, lambda r: r["status"] == "finished"))["race"]
            code = final["result"]["code"]
            assert code.startswith("DS1-D1N-")
            for peer in (pa, pb):
                peer.until(is_race(race_id, lambda r: r["status"] == "finished"), since=0)

            assert_fair(
                pa.frames, race_id=race_id, code=code, own_game=a_game, other_games=[b_game]
            )
            assert_fair(
                pb.frames, race_id=race_id, code=code, own_game=b_game, other_games=[a_game]
            )
            assert_fair(
                spec.frames, race_id=race_id, code=code, own_game=None, other_games=[a_game, b_game]
            )
            # Ann's own game frames were only ever about her own game.
            for frame in pa.frames:
                if card_texts(frame):
                    assert frame.get("game_id") == a_game, frame
            for body in rest_bodies:
                assert code not in json.dumps(body), body

        # After the end: readable by anyone, records included.
        for game_id in (a_game, b_game):
            for path in ("", "/legal-actions", "/changes?since=0"):
                assert client.get(f"/games/{game_id}{path}").status_code == 200
            record = client.get(f"/games/{game_id}/record")
            assert record.status_code == 200 and record.json()["code"] == code
        # Still not playable by anyone else, and not at all any more.
        response = client.post(
            f"/games/{b_game}/actions", json={"action": "d"}, headers=auth(a_tok)
        )
        _expect(response, 401, "unauthorized")
        response = client.post(
            f"/games/{b_game}/actions", json={"action": "d"}, headers=auth(b_tok)
        )
        _expect(response, 409, "race_over")
        # The race's result is the same through REST.
        assert race_post(client, race_id, "resign", a_tok).status_code == 409
