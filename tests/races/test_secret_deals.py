"""Ranked deals cannot be computed: a race is dealt from a secret 128-bit seed, and no
part of that seed reaches anyone (frames, bodies, headers, metrics, logs) before the end.

In Solitaire Réfléchi every tableau card is face up from the first frame, so a race dealt
from a seven-letter code could be solved for its code (and its stock) by trying every
deal number. A 28-letter secret code holds 128 bits: the search is out of reach.
"""

from __future__ import annotations

import base64
import json
import logging
from typing import Any

import pytest

from service import engine
from service.app import create_app
from service.config import Settings
from service.races.lobby import JOIN_ALPHABET
from tests.races.race_support import (
    create_race,
    is_race,
    join_race,
    peers,
    problem_code,
)
from tests.support import CheckedClient, auth, service_client


def secret_forms(code: str) -> list[str]:
    """Every way the seed of ``code`` could be written down: the code, its letters, the
    seed in decimal, in hexadecimal (both cases) and as base64url or hex of its bytes."""
    parsed = engine.GameCode.parse(code)
    seed = parsed.deal
    raw = seed.to_bytes(16, "big")
    return [
        code,
        code.rsplit("-", 1)[1],
        str(seed),
        f"{seed:x}",
        f"{seed:X}",
        f"{seed:032x}",
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
        base64.b64encode(raw).decode().rstrip("="),
    ]


class Transcript:
    """Every REST answer (status, headers, body) the test's clients received."""

    def __init__(self, client: CheckedClient) -> None:
        self.client = client
        self.texts: list[str] = []

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.client.request(method, path, **kwargs)
        self.texts.append(f"{response.status_code} {dict(response.headers)} {response.text}")
        return response


def test_a_race_reveals_nothing_of_its_seed_until_it_is_over(
    store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with service_client(store_url, race_countdown_seconds=0.2) as client:
        rest = Transcript(client)
        created = rest.call("POST", "/races", json={"name": "Ann", "game": "TF", "draw": 3})
        ann = created.json()
        join_code = ann["join_code"]
        assert len(join_code) == 8 and set(join_code) <= set(JOIN_ALPHABET)
        bob = rest.call("POST", "/races/join", json={"join_code": join_code, "name": "Bob"}).json()
        race_id = ann["race_id"]
        with peers(client, "ann", "bob", "spectator") as (pa, pb, spec):
            spec.watch(race_id)
            pa.watch(race_id, ann["player_token"])
            pb.watch(race_id, bob["player_token"])
            pa.command(race_id, "ready")
            pb.command(race_id, "ready")
            for peer in (pa, pb, spec):
                peer.until(is_race(race_id, lambda r: r["status"] == "running"))
            _, opening = pa.subscribe(ann["game_id"], ann["player_token"])
            assert opening is not None
            pb.subscribe(bob["game_id"], bob["player_token"])
            for peer, who in ((pa, ann), (pb, bob)):
                token, game_id = who["player_token"], who["game_id"]
                assert peer.act(game_id, "d")["status"] == "accepted"
                for path in ("", "/legal-actions", "/changes?since=0"):
                    rest.call("GET", f"/games/{game_id}{path}", headers=auth(token))
                record = rest.call("GET", f"/games/{game_id}/record", headers=auth(token))
                assert problem_code(record) == "race_running"
                replay = rest.call("GET", f"/games/{game_id}/replay", headers=auth(token))
                assert problem_code(replay) == "race_running"
                rest.call(
                    "POST", f"/games/{game_id}/actions", json={"action": "d"}, headers=auth(token)
                )
            rest.call("GET", f"/races/{race_id}")
            rest.call("GET", f"/races/{race_id}", headers=auth(ann["player_token"]))
            metrics_before_the_end = rest.call("GET", "/metrics").text
            logs_before_the_end = caplog.text
            frames_before_the_end = [json.dumps(f) for p in (pa, pb, spec) for f in p.drain()]
            frames_before_the_end += [json.dumps(f) for p in (pa, pb, spec) for f in p.frames]

            # Ann resigns her game (the game route), Bob the race (the race route): one meaning.
            resigned = rest.call(
                "POST", f"/games/{ann['game_id']}/resign", headers=auth(ann["player_token"])
            )
            assert resigned.status_code == 200, resigned.text
            assert resigned.json()["notation"] == "resign"
            assert pb.command(race_id, "resign")["status"] == "accepted"
            final = spec.until(is_race(race_id, lambda r: r["status"] == "finished"))["race"]

        code = final["result"]["code"]
        parsed = engine.GameCode.parse(code)
        assert parsed.secret and len(code.rsplit("-", 1)[1]) == 28
        assert code.startswith("TF1-D3N-")
        for form in secret_forms(code):
            for text in rest.texts + frames_before_the_end:
                assert form not in text, f"{form!r} reached a client before the end: {text}"
            assert form not in metrics_before_the_end
            assert form not in logs_before_the_end
        assert [p["state"] for p in final["players"]] == ["resigned", "resigned"]

        # Once over, the code is public and replays the very same deal.
        replayed = client.post("/games", json={"code": code})
        assert replayed.status_code == 201
        assert replayed.json()["code"] == code
        assert replayed.json()["state"]["columns"] == opening["state"]["columns"]
        for who in (ann, bob):
            record = client.get(f"/games/{who['game_id']}/record").json()
            assert record["code"] == code and record["actions"][-1] == "resign"
            assert record["resigned"] is True
            game = engine.GameRecord.parse(record["record"]).replay()
            assert game.resigned
            replay = client.get(f"/games/{who['game_id']}/replay").json()
            assert replay["race_id"] == race_id and replay["code"] == code
            assert replay["result"]["resigned"] and replay["actions"][-1]["notation"] == "resign"


def test_join_codes_hold_40_bits_and_ignore_case_spaces_and_dashes(
    memory_client: CheckedClient,
) -> None:
    codes = {create_race(memory_client, f"host{i}")["join_code"] for i in range(40)}
    assert len(codes) == 40
    for code in codes:
        assert len(code) == 8 and set(code) <= set(JOIN_ALPHABET)
    assert len(JOIN_ALPHABET) ** 8 >= 2**40
    code = next(iter(codes))
    typed = f" {code[:4].lower()}-{code[4:]} "
    assert join_race(memory_client, typed, "Guest")["join_code"] == code


def test_wrong_join_codes_are_limited_per_address(store_url: str) -> None:
    with service_client(store_url, code_failures_per_minute=10) as client:
        host = create_race(client, "Host")
        wrong = "".join(reversed(host["join_code"]))
        for _ in range(10):
            response = client.post("/races/join", json={"join_code": wrong, "name": "Eve"})
            assert response.status_code == 404, response.text
        refused = client.post("/races/join", json={"join_code": host["join_code"], "name": "Eve"})
        assert refused.status_code == 429, refused.text
        assert problem_code(refused) == "rate_limited"
        retry_after = int(refused.headers["retry-after"])
        assert 1 <= retry_after <= 60
        assert refused.json()["retry_after"] == retry_after
        # Nothing changed: the race still has its host alone.
        race = client.get(f"/races/{host['race_id']}").json()["race"]
        assert [p["name"] for p in race["players"]] == ["Host"]


def test_join_failures_are_counted_across_instances_per_address(clean_redis: str) -> None:
    settings = Settings(store_url=clean_redis, code_failures_per_minute=3, winnable_pool_size=0)
    with (
        CheckedClient(create_app(settings), client=("198.51.100.7", 4000)) as first,
        CheckedClient(create_app(settings), client=("198.51.100.7", 4001)) as second,
        CheckedClient(create_app(settings), client=("203.0.113.9", 5000)) as elsewhere,
    ):
        host = create_race(first, "Host")
        wrong = "".join(reversed(host["join_code"]))
        for attempt in (first, second, first):
            response = attempt.post("/races/join", json={"join_code": wrong, "name": "Eve"})
            assert response.status_code == 404, response.text
        for attempt in (first, second):
            refused = attempt.post(
                "/races/join", json={"join_code": host["join_code"], "name": "Eve"}
            )
            assert refused.status_code == 429, refused.text
        joined = join_race(elsewhere, host["join_code"], "Al")
        assert joined["race_id"] == host["race_id"]
