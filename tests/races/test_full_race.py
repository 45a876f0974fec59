"""A whole race of three players over WebSockets, on both store backends.

Ann (the host) wins by replaying a line found by a small solver: the race's deal is fixed
by standing in for ``GameCode.random``. Bob puts a card or two on the foundations and
resigns. Cy draws once, closes his socket and is still playing when the time limit runs
out (the races' clock is moved past it rather than waited for). A spectator watches it all.
"""

from __future__ import annotations

from typing import Any

import pytest

from service import engine
from tests.races.race_support import (
    Clock,
    Frame,
    assert_fair,
    create_race,
    fixed_code,
    is_race,
    join_race,
    peers,
    player_in,
    problem_code,
    race_post,
    solvable_tf_deal,
)
from tests.support import auth, service_client

COUNTDOWN = 1.0
# The test reaches the time limit by moving the race clock, never by waiting, so the
# limit is long enough that a slow machine never reaches it for real mid-test.
TIME_LIMIT = 600


def _progress_of(frames: list[Frame], race_id: str, player_id: str) -> list[Frame]:
    return [
        f
        for f in frames
        if f["type"] == "race_progress" and f["race_id"] == race_id and f["player_id"] == player_id
    ]


def _expected_progress(code: engine.GameCode, line: list[str]) -> list[tuple[int, int, int]]:
    game = engine.new_game(code)
    figures = []
    for notation in line:
        game.play(engine.parse_action(notation))
        figures.append((game.cards_on_foundations(), game.score, game.moves))
    return figures


def _first_foundation_prefix(code: engine.GameCode, line: list[str]) -> list[str]:
    """The start of ``line`` up to (and with) its first move to a foundation."""
    game = engine.new_game(code)
    for index, notation in enumerate(line):
        game.play(engine.parse_action(notation))
        if game.cards_on_foundations():
            return line[: index + 1]
    raise AssertionError("the line never reaches a foundation")


def test_three_players_race_to_the_end(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    code, line = solvable_tf_deal()
    monkeypatch.setattr(engine.GameCode, "random_secret", fixed_code(code))
    clock = Clock()
    bob_line = _first_foundation_prefix(code, line)
    cy_line = ["d"]

    with service_client(store_url, clock=clock, race_countdown_seconds=COUNTDOWN) as client:
        ann = create_race(
            client, "Ann", game="TF", draw=1, max_players=3, time_limit_seconds=TIME_LIMIT
        )
        race_id = ann["race_id"]
        lobby = ann["race"]
        assert lobby["status"] == "lobby" and lobby["host"] == ann["player_id"]
        assert lobby["result"] is None and lobby["start_at"] is None
        assert [p["name"] for p in lobby["players"]] == ["Ann"]

        with peers(client, "ann", "bob", "cy", "spectator") as (pa, pb, pc, spec):
            watched = spec.watch(race_id)
            assert "you" not in watched or watched["you"] is None
            mine = pa.watch(race_id, ann["player_token"])
            assert mine["you"] == {"player_id": ann["player_id"], "game_id": ann["game_id"]}

            # Join by code in any case and with stray spaces.
            join_code = ann["join_code"]
            bob = join_race(client, join_code.lower(), "Bob")
            cy = join_race(client, f"  {join_code[:3].lower()}{join_code[3:]} ", "Cy")
            assert bob["race_id"] == cy["race_id"] == race_id
            assert bob["join_code"] == join_code
            assert len({ann["game_id"], bob["game_id"], cy["game_id"]}) == 3
            assert len({ann["player_id"], bob["player_id"], cy["player_id"]}) == 3
            pb.watch(race_id, bob["player_token"])
            pc.watch(race_id, cy["player_token"])
            ids = {"Ann": ann["player_id"], "Bob": bob["player_id"], "Cy": cy["player_id"]}
            everyone_in = spec.until(
                is_race(
                    race_id,
                    lambda r: len(r["players"]) == 3 and all(p["connected"] for p in r["players"]),
                )
            )["race"]
            assert [p["name"] for p in everyone_in["players"]] == ["Ann", "Bob", "Cy"]
            assert all(p["state"] == "waiting" and not p["ready"] for p in everyone_in["players"])
            assert everyone_in["status"] == "lobby"

            # Ready (over WebSocket and REST), one unready, then the last ready starts it.
            assert pa.command(race_id, "ready")["status"] == "accepted"
            response = race_post(client, race_id, "ready", bob["player_token"])
            assert response.status_code == 200, response.text
            assert response.json()["you"]["player_id"] == bob["player_id"]
            ann_and_bob_ready = is_race(
                race_id,
                lambda r: all(player_in(r, ids[n])["ready"] for n in ("Ann", "Bob")),
            )
            both = spec.until(ann_and_bob_ready)["race"]
            assert not player_in(both, ids["Cy"])["ready"] and both["status"] == "lobby"
            assert pb.command(race_id, "unready")["status"] == "accepted"
            spec.until(is_race(race_id, lambda r: not player_in(r, ids["Bob"])["ready"]))
            assert pb.command(race_id, "ready")["status"] == "accepted"
            spec.until(is_race(race_id, lambda r: player_in(r, ids["Bob"])["ready"]))
            marks = {peer.label: peer.mark() for peer in (pa, pb, pc, spec)}
            # The countdown waits for the checks made during it, however slow the machine.
            clock.hold()
            assert pc.command(race_id, "ready")["status"] == "accepted"

            countdowns = [
                peer.until(
                    is_race(race_id, lambda r: r["status"] == "countdown"),
                    since=marks[peer.label],
                )["race"]
                for peer in (pa, pb, pc, spec)
            ]
            marks = {peer.label: peer.mark() for peer in (pa, pb, pc, spec)}
            start_at = countdowns[0]["start_at"]
            for view in countdowns:
                assert view["start_at"] == start_at
                assert view["server_time"] < start_at
                assert view["ends_at"] == start_at + TIME_LIMIT * 1000
                assert all(p["state"] == "playing" for p in view["players"])
                assert view["result"] is None

            # Too early: the games exist but are closed (seeing the deal during the
            # countdown would be a head start) and refuse actions, by socket and by REST.
            early = pa.subscribe(ann["game_id"], ann["player_token"])[0]
            early_action = pa.act(ann["game_id"], line[0])
            early_rest = client.post(
                f"/games/{ann['game_id']}/actions",
                json={"action": line[0]},
                headers=auth(ann["player_token"]),
            )
            early_read = client.get(f"/games/{ann['game_id']}", headers=auth(ann["player_token"]))
            assert clock.ms() < start_at
            assert early["type"] == "error" and early["code"] == "race_not_started", early
            assert early_action["type"] == "error", early_action
            assert early_action["code"] in ("race_not_started", "not_subscribed"), early_action
            assert early_rest.status_code == 409 and problem_code(early_rest) == "race_not_started"
            assert early_read.status_code == 409 and problem_code(early_read) == "race_not_started"
            clock.release()

            for peer in (pa, pb, pc, spec):
                running = peer.until(
                    is_race(race_id, lambda r: r["status"] == "running"), since=marks[peer.label]
                )
                assert running["race"]["server_time"] >= start_at

            # The same deal for everyone: identical opening snapshots, of ``code``.
            snapshots = []
            for peer, who in ((pa, ann), (pb, bob), (pc, cy)):
                answer, snapshot = peer.subscribe(who["game_id"], who["player_token"])
                assert answer["type"] == "subscribed" and answer["role"] == "player", answer
                assert snapshot is not None and snapshot["version"] == 0
                snapshots.append(snapshot["state"])
            assert snapshots[0] == snapshots[1] == snapshots[2]
            assert snapshots[0] == engine.new_game(code).public_view()

            # Cy draws once, then leaves: marked disconnected, still in the race.
            for notation in cy_line:
                assert pc.act(cy["game_id"], notation)["status"] == "accepted"
            pc.hang_up()
            cy_gone = is_race(race_id, lambda r: not player_in(r, ids["Cy"])["connected"])
            gone = spec.until(cy_gone)["race"]
            assert player_in(gone, ids["Cy"])["state"] == "disconnected"
            assert player_in(gone, ids["Cy"])["moves"] == len(cy_line)
            assert gone["status"] == "running"

            # Bob reaches a foundation; Ann wins.
            for notation in bob_line:
                assert pb.act(bob["game_id"], notation)["status"] == "accepted"
            for notation in line:
                result = pa.act(ann["game_id"], notation)
                assert result["status"] == "accepted", result
            won = spec.until(
                is_race(race_id, lambda r: player_in(r, ids["Ann"])["state"] == "won")
            )["race"]
            assert won["status"] == "running"  # Bob and Cy have not finished yet
            assert player_in(won, ids["Ann"])["finish_ms"] > 0
            assert player_in(won, ids["Ann"])["foundations"] == 52

            # Still private while the others play, even to the winner.
            response = client.get(
                f"/games/{ann['game_id']}/record", headers=auth(ann["player_token"])
            )
            assert response.status_code == 403 and problem_code(response) == "race_running"
            response = client.get(f"/games/{bob['game_id']}")
            assert response.status_code == 403 and problem_code(response) == "race_running"

            resign = pb.command(race_id, "resign")
            assert resign["status"] == "accepted", resign
            spec.until(is_race(race_id, lambda r: player_in(r, ids["Bob"])["state"] == "resigned"))
            after_resign = client.post(
                f"/games/{bob['game_id']}/actions",
                json={"action": "d"},
                headers=auth(bob["player_token"]),
            )
            assert after_resign.status_code == 409 and problem_code(after_resign) == "race_over"
            assert client.get(f"/races/{race_id}").json()["race"]["status"] == "running"

            # Time runs out with Cy still playing; his next action ends the race.
            clock.jump_past(start_at + TIME_LIMIT * 1000)
            late = client.post(
                f"/games/{cy['game_id']}/actions",
                json={"action": "d"},
                headers=auth(cy["player_token"]),
            )
            assert late.status_code == 409 and problem_code(late) == "race_over"
            finals = [
                peer.until(is_race(race_id, lambda r: r["status"] == "finished"))["race"]
                for peer in (pa, pb, spec)
            ]
            for final in finals[1:]:
                assert final["result"] == finals[0]["result"]
            final = finals[0]
            assert final["finished_at"] == start_at + TIME_LIMIT * 1000

            # Progress: one message per accepted action of each player, seen by everyone.
            for peer in (pa, pb, spec):
                for who, played in ((ann, line), (bob, [*bob_line, "resign"]), (cy, cy_line)):
                    progress = _progress_of(peer.frames, race_id, who["player_id"])
                    figures = [(f["foundations"], f["score"], f["moves"]) for f in progress]
                    assert figures == _expected_progress(code, played), (peer.label, who["name"])
            ann_progress = _progress_of(spec.frames, race_id, ann["player_id"])
            assert [f["state"] for f in ann_progress] == ["playing"] * (len(line) - 1) + ["won"]

            frames_of = {"ann": pa.frames, "bob": pb.frames, "cy": pc.frames}
            games = {"ann": ann["game_id"], "bob": bob["game_id"], "cy": cy["game_id"]}
            for label, frames in frames_of.items():
                assert_fair(
                    frames,
                    race_id=race_id,
                    code=str(code),
                    own_game=games[label],
                    other_games=[g for k, g in games.items() if k != label],
                )
            assert_fair(
                spec.frames,
                race_id=race_id,
                code=str(code),
                own_game=None,
                other_games=list(games.values()),
            )

        # Over: every game and record is readable, by anyone, and each record replays to
        # exactly its player's final board.
        records = final["result"]["records"]
        for who in (ann, bob, cy):
            for headers in ({}, auth(ann["player_token"])):
                state = client.get(f"/games/{who['game_id']}", headers=headers)
                assert state.status_code == 200, state.text
                replayed = engine.GameRecord.parse(records[who["player_id"]]).replay()
                assert replayed.public_view() == state.json()["state"]
                record = client.get(f"/games/{who['game_id']}/record", headers=headers)
                assert record.status_code == 200, record.text
                assert record.json()["record"] == records[who["player_id"]]
                assert record.json()["code"] == str(code)
        assert client.get(f"/races/{race_id}").json()["race"]["result"] == final["result"]

    _check_result(final, code, line, ann, bob, cy, bob_line, cy_line)


def _check_result(
    final: dict[str, Any],
    code: engine.GameCode,
    line: list[str],
    ann: dict[str, Any],
    bob: dict[str, Any],
    cy: dict[str, Any],
    bob_line: list[str],
    cy_line: list[str],
) -> None:
    result = final["result"]
    assert result["code"] == str(code)
    ranking = result["ranking"]
    assert [e["player_id"] for e in ranking] == [
        ann["player_id"],
        bob["player_id"],
        cy["player_id"],
    ]
    assert [e["rank"] for e in ranking] == [1, 2, 3]
    first, second, third = ranking
    assert first["state"] == "won" and first["finish_ms"] > 0 and first["foundations"] == 52
    assert second["state"] == "resigned" and second["finish_ms"] is None
    assert second["foundations"] >= 1
    assert third["state"] == "playing" and not third["connected"] and third["foundations"] == 0
    assert third["moves"] == len(cy_line)
    assert result["records"] == {
        ann["player_id"]: " ".join([str(code), *line]),
        bob["player_id"]: " ".join([str(code), *bob_line, "resign"]),
        cy["player_id"]: " ".join([str(code), *cy_line]),
    }
    # Scoring entries match each player's final board.
    for entry in ranking:
        record = engine.GameRecord.parse(result["records"][entry["player_id"]])
        game = record.replay()
        assert (entry["foundations"], entry["score"], entry["moves"]) == (
            game.cards_on_foundations(),
            game.score,
            game.moves,
        )


def test_finished_race_games_are_public_and_replay(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the end anyone may read every game and record, and each record replays to it."""
    code, line = solvable_tf_deal()
    monkeypatch.setattr(engine.GameCode, "random_secret", fixed_code(code))
    with service_client(store_url, race_countdown_seconds=0.2) as client:
        ann = create_race(client, "Ann", game="TF")
        bob = join_race(client, ann["join_code"], "Bob")
        race_id = ann["race_id"]
        with peers(client, "ann", "bob") as (pa, pb):
            pa.watch(race_id, ann["player_token"])
            pb.watch(race_id, bob["player_token"])
            marks = [pa.mark(), pb.mark()]
            pa.command(race_id, "ready")
            pb.command(race_id, "ready")
            for peer, mark in zip((pa, pb), marks, strict=True):
                peer.until(is_race(race_id, lambda r: r["status"] == "running"), since=mark)
            pa.subscribe(ann["game_id"], ann["player_token"])
            pb.subscribe(bob["game_id"], bob["player_token"])
            for notation in line[:25]:
                assert pb.act(bob["game_id"], notation)["status"] == "accepted"
            assert pb.command(race_id, "resign")["status"] == "accepted"
            for notation in line:
                assert pa.act(ann["game_id"], notation)["status"] == "accepted"
            final = pb.until(is_race(race_id, lambda r: r["status"] == "finished"))["race"]
            # The race ended with Ann's winning action: her win is on the last version.
            assert final["finished_at"] is not None
            assert [e["player_id"] for e in final["result"]["ranking"]] == [
                ann["player_id"],
                bob["player_id"],
            ]
        for who in (ann, bob):
            state = client.get(f"/games/{who['game_id']}")
            assert state.status_code == 200, state.text
            record = client.get(f"/games/{who['game_id']}/record")
            assert record.status_code == 200, record.text
            body = record.json()
            assert body["code"] == str(code)
            assert body["record"] == final["result"]["records"][who["player_id"]]
            replayed = engine.GameRecord.parse(body["record"]).replay()
            assert replayed.public_view() == state.json()["state"]
            for path in ("changes?since=0", "legal-actions"):
                assert client.get(f"/games/{who['game_id']}/{path}").status_code == 200
        # A watcher may now follow a finished race game over WebSocket too.
        with peers(client, "late") as (late,):
            answer, snapshot = late.subscribe(bob["game_id"])
            assert answer["type"] == "subscribed" and answer["role"] == "watcher"
            assert snapshot is not None and snapshot["state"]["moves"] == 25
        view = client.get(f"/races/{race_id}").json()["race"]
        assert view["status"] == "finished" and view["result"] == final["result"]


def test_a_race_ending_is_published_once(store_url: str) -> None:
    """The action that ends a race publishes the finished race, with its result, once:
    every watcher gets one such message, then the progress of that last action."""
    with service_client(store_url, race_countdown_seconds=0.2) as client:
        ann = create_race(client, "Ann", game="TF")
        bob = join_race(client, ann["join_code"], "Bob")
        race_id = ann["race_id"]
        with peers(client, "ann", "bob", "fan") as (pa, pb, fan):
            pa.watch(race_id, ann["player_token"])
            pb.watch(race_id, bob["player_token"])
            fan.watch(race_id)
            marks = [pa.mark(), pb.mark()]
            pa.command(race_id, "ready")
            pb.command(race_id, "ready")
            for peer, mark in zip((pa, pb), marks, strict=True):
                peer.until(is_race(race_id, lambda r: r["status"] == "running"), since=mark)
            assert pa.command(race_id, "resign")["status"] == "accepted"
            mark = fan.mark()
            assert pb.command(race_id, "resign")["status"] == "accepted"

            def last_progress(frame: dict[str, Any]) -> bool:
                return bool(
                    frame["type"] == "race_progress"
                    and frame["player_id"] == bob["player_id"]
                    and frame["state"] == "resigned"
                )

            # The progress is published after the race on the same topic: whatever the
            # ending published before it has arrived by then.
            fan.until(last_progress, since=mark)
            finished = [
                frame
                for frame in fan.frames[mark:]
                if frame["type"] == "race" and frame["race"]["status"] == "finished"
            ]
            assert len(finished) == 1
            result = finished[0]["race"]["result"]
            players = {ann["player_id"], bob["player_id"]}
            assert {e["player_id"] for e in result["ranking"]} == players
            assert set(result["records"]) == players
